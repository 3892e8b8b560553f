build2/src/cli/cli_frontier.o: src/cli/cli_frontier.c src/base/outfile.h \
 src/base/rng.h src/base/util.h src/cli/cli.h src/cli/options.h \
 src/backend/backend.h src/backend/device.h src/backend/ptxas.h \
 src/base/types.h src/core/catalog.h src/core/problem.h src/core/preset.h \
 src/core/select.h src/core/session.h src/backend/observe.h \
 src/core/config.h src/core/inputs.h src/core/verify.h src/cli/report.h \
 src/core/limiter.h src/core/peaks.h src/core/traffic.h src/core/waves.h \
 src/core/shapes.h src/core/frontier.h
src/base/outfile.h:
src/base/rng.h:
src/base/util.h:
src/cli/cli.h:
src/cli/options.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/core/catalog.h:
src/core/problem.h:
src/core/preset.h:
src/core/select.h:
src/core/session.h:
src/backend/observe.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/cli/report.h:
src/core/limiter.h:
src/core/peaks.h:
src/core/traffic.h:
src/core/waves.h:
src/core/shapes.h:
src/core/frontier.h:
