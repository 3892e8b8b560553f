build2/src/core/ablate.o: src/core/ablate.c src/core/ablate.h \
 src/core/problem.h src/base/types.h
src/core/ablate.h:
src/core/problem.h:
src/base/types.h:
