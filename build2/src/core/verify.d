build2/src/core/verify.o: src/core/verify.c src/core/verify.h \
 src/core/inputs.h src/core/problem.h src/base/types.h src/base/lowprec.h \
 src/base/rng.h
src/core/verify.h:
src/core/inputs.h:
src/core/problem.h:
src/base/types.h:
src/base/lowprec.h:
src/base/rng.h:
