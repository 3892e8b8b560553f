build2/src/core/sweeprun.o: src/core/sweeprun.c src/core/sweeprun.h \
 src/core/measurer.h src/core/sweep.h src/core/catalog.h \
 src/core/problem.h src/base/types.h src/core/config.h \
 src/backend/device.h src/base/rng.h src/core/session.h \
 src/backend/backend.h src/backend/ptxas.h src/backend/observe.h \
 src/core/inputs.h src/core/verify.h src/core/record.h src/core/store.h \
 src/core/search.h src/base/diskcache.h src/base/util.h src/core/ahead.h
src/core/sweeprun.h:
src/core/measurer.h:
src/core/sweep.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/core/config.h:
src/backend/device.h:
src/base/rng.h:
src/core/session.h:
src/backend/backend.h:
src/backend/ptxas.h:
src/backend/observe.h:
src/core/inputs.h:
src/core/verify.h:
src/core/record.h:
src/core/store.h:
src/core/search.h:
src/base/diskcache.h:
src/base/util.h:
src/core/ahead.h:
