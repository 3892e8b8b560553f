build2/src/core/problem.o: src/core/problem.c src/core/problem.h \
 src/base/types.h src/core/scales.h
src/core/problem.h:
src/base/types.h:
src/core/scales.h:
