build2/src/core/scales.o: src/core/scales.c src/core/scales.h \
 src/core/problem.h src/base/types.h
src/core/scales.h:
src/core/problem.h:
src/base/types.h:
