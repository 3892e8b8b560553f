build2/src/core/npy.o: src/core/npy.c src/core/npy.h src/base/outfile.h \
 src/base/lowprec.h
src/core/npy.h:
src/base/outfile.h:
src/base/lowprec.h:
