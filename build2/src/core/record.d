build2/src/core/record.o: src/core/record.c src/core/record.h \
 src/core/catalog.h src/core/problem.h src/base/types.h \
 src/core/session.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/backend/observe.h src/core/config.h \
 src/core/inputs.h src/core/verify.h src/core/store.h src/core/sweep.h \
 src/base/rng.h src/base/util.h
src/core/record.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/core/session.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/backend/observe.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/core/store.h:
src/core/sweep.h:
src/base/rng.h:
src/base/util.h:
