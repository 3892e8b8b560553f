build2/src/core/inputs.o: src/core/inputs.c src/core/inputs.h \
 src/core/problem.h src/base/types.h src/base/lowprec.h src/core/npy.h \
 src/base/outfile.h src/core/scales.h src/base/rng.h
src/core/inputs.h:
src/core/problem.h:
src/base/types.h:
src/base/lowprec.h:
src/core/npy.h:
src/base/outfile.h:
src/core/scales.h:
src/base/rng.h:
