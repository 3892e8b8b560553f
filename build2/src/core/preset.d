build2/src/core/preset.o: src/core/preset.c src/core/preset.h \
 src/core/catalog.h src/core/problem.h src/base/types.h src/base/util.h
src/core/preset.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/base/util.h:
