build2/src/explorer/measure.o: src/explorer/measure.c src/core/ablate.h \
 src/core/problem.h src/base/types.h src/base/util.h \
 src/explorer/worker_int.h src/core/ahead.h src/core/catalog.h \
 src/core/config.h src/backend/device.h src/core/session.h \
 src/backend/backend.h src/backend/ptxas.h src/backend/observe.h \
 src/core/inputs.h src/core/verify.h src/core/record.h src/core/store.h \
 src/core/sweep.h src/base/rng.h src/core/sweeprun.h src/core/measurer.h \
 src/core/search.h src/explorer/worker.h src/core/inspect.h \
 src/core/listing.h src/core/occupancy.h src/core/peaks.h \
 src/explorer/logbuf.h
src/core/ablate.h:
src/core/problem.h:
src/base/types.h:
src/base/util.h:
src/explorer/worker_int.h:
src/core/ahead.h:
src/core/catalog.h:
src/core/config.h:
src/backend/device.h:
src/core/session.h:
src/backend/backend.h:
src/backend/ptxas.h:
src/backend/observe.h:
src/core/inputs.h:
src/core/verify.h:
src/core/record.h:
src/core/store.h:
src/core/sweep.h:
src/base/rng.h:
src/core/sweeprun.h:
src/core/measurer.h:
src/core/search.h:
src/explorer/worker.h:
src/core/inspect.h:
src/core/listing.h:
src/core/occupancy.h:
src/core/peaks.h:
src/explorer/logbuf.h:
