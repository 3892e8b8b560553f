build2/src/base/types.o: src/base/types.c src/base/types.h \
 src/base/lowprec.h
src/base/types.h:
src/base/lowprec.h:
