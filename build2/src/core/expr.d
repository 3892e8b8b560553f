build2/src/core/expr.o: src/core/expr.c src/core/expr.h
src/core/expr.h:
