build2/src/cli/mpisweep.o: src/cli/mpisweep.c src/cli/mpisweep.h \
 src/cli/options.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h src/core/catalog.h \
 src/core/problem.h src/core/preset.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
 /usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h \
 src/cli/cli_sweep.h src/core/shapes.h src/core/sweeprun.h \
 src/core/measurer.h src/core/sweep.h src/core/config.h src/base/rng.h \
 src/core/session.h src/backend/observe.h src/core/inputs.h \
 src/core/verify.h src/core/record.h src/core/store.h src/core/search.h \
 src/core/ahead.h src/base/diskcache.h src/base/util.h
src/cli/mpisweep.h:
src/cli/options.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/core/catalog.h:
src/core/problem.h:
src/core/preset.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h:
/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h:
src/cli/cli_sweep.h:
src/core/shapes.h:
src/core/sweeprun.h:
src/core/measurer.h:
src/core/sweep.h:
src/core/config.h:
src/base/rng.h:
src/core/session.h:
src/backend/observe.h:
src/core/inputs.h:
src/core/verify.h:
src/core/record.h:
src/core/store.h:
src/core/search.h:
src/core/ahead.h:
src/base/diskcache.h:
src/base/util.h:
