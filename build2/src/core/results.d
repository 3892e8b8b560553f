build2/src/core/results.o: src/core/results.c src/core/results.h \
 src/core/shapes.h src/core/store.h src/backend/observe.h \
 src/backend/device.h src/core/problem.h src/base/types.h src/base/util.h
src/core/results.h:
src/core/shapes.h:
src/core/store.h:
src/backend/observe.h:
src/backend/device.h:
src/core/problem.h:
src/base/types.h:
src/base/util.h:
