build2/src/cli/recorder.o: src/cli/recorder.c src/cli/recorder.h \
 src/cli/options.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h src/core/catalog.h \
 src/core/problem.h src/core/preset.h src/core/record.h \
 src/core/session.h src/backend/observe.h src/core/config.h \
 src/core/inputs.h src/core/verify.h src/core/store.h src/core/sweep.h \
 src/base/rng.h
src/cli/recorder.h:
src/cli/options.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/core/catalog.h:
src/core/problem.h:
src/core/preset.h:
src/core/record.h:
src/core/session.h:
src/backend/observe.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/core/store.h:
src/core/sweep.h:
src/base/rng.h:
