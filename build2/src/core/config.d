build2/src/core/config.o: src/core/config.c src/core/config.h \
 src/backend/device.h src/core/catalog.h src/core/problem.h \
 src/base/types.h src/core/expr.h src/base/util.h
src/core/config.h:
src/backend/device.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/core/expr.h:
src/base/util.h:
