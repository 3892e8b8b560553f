build2/src/base/util.o: src/base/util.c src/base/util.h \
 src/base/outfile.h
src/base/util.h:
src/base/outfile.h:
