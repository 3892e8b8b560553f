build2/src/cli/options.o: src/cli/options.c src/cli/options.h \
 src/backend/backend.h src/backend/device.h src/backend/ptxas.h \
 src/base/types.h src/core/catalog.h src/core/problem.h src/core/preset.h \
 src/core/ablate.h src/core/ahead.h src/core/config.h src/core/session.h \
 src/backend/observe.h src/core/inputs.h src/core/verify.h \
 src/core/banks.h src/core/search.h src/core/sweep.h src/base/rng.h
src/cli/options.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/core/catalog.h:
src/core/problem.h:
src/core/preset.h:
src/core/ablate.h:
src/core/ahead.h:
src/core/config.h:
src/core/session.h:
src/backend/observe.h:
src/core/inputs.h:
src/core/verify.h:
src/core/banks.h:
src/core/search.h:
src/core/sweep.h:
src/base/rng.h:
