build2/src/core/preproc.o: src/core/preproc.c src/core/preproc.h \
 src/base/util.h
src/core/preproc.h:
src/base/util.h:
