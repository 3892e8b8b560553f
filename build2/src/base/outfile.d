build2/src/base/outfile.o: src/base/outfile.c src/base/outfile.h \
 src/base/util.h
src/base/outfile.h:
src/base/util.h:
