build2/src/core/catalog.o: src/core/catalog.c src/core/catalog.h \
 src/core/problem.h src/base/types.h src/base/util.h
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/base/util.h:
