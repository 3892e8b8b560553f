build2/src/core/store.o: src/core/store.c src/core/store.h \
 src/backend/observe.h src/backend/device.h src/core/problem.h \
 src/base/types.h src/base/util.h
src/core/store.h:
src/backend/observe.h:
src/backend/device.h:
src/core/problem.h:
src/base/types.h:
src/base/util.h:
