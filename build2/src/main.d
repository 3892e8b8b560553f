build2/src/main.o: src/main.c src/base/children.h src/cli/cli.h \
 src/cli/options.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h src/core/catalog.h \
 src/core/problem.h src/core/preset.h src/base/outfile.h \
 src/core/select.h src/core/session.h src/backend/observe.h \
 src/core/config.h src/core/inputs.h src/core/verify.h \
 src/cli/cli_banks.h src/core/measurer.h src/core/sweep.h src/base/rng.h \
 src/cli/options.h src/core/inspect.h src/core/listing.h \
 src/core/occupancy.h src/core/session.h src/tui/ui.h
src/base/children.h:
src/cli/cli.h:
src/cli/options.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/core/catalog.h:
src/core/problem.h:
src/core/preset.h:
src/base/outfile.h:
src/core/select.h:
src/core/session.h:
src/backend/observe.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/cli/cli_banks.h:
src/core/measurer.h:
src/core/sweep.h:
src/base/rng.h:
src/cli/options.h:
src/core/inspect.h:
src/core/listing.h:
src/core/occupancy.h:
src/core/session.h:
src/tui/ui.h:
