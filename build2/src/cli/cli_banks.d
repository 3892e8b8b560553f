build2/src/cli/cli_banks.o: src/cli/cli_banks.c src/cli/cli_banks.h \
 src/cli/options.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h src/core/catalog.h \
 src/core/problem.h src/core/preset.h src/core/banks.h src/core/session.h \
 src/backend/observe.h src/core/config.h src/core/inputs.h \
 src/core/verify.h src/core/banks_compiled.h src/core/swizzle.h \
 src/cli/cli.h src/base/outfile.h src/core/select.h src/cli/report.h \
 src/core/limiter.h src/core/peaks.h src/core/traffic.h src/core/waves.h \
 src/core/shapes.h src/base/util.h
src/cli/cli_banks.h:
src/cli/options.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/core/catalog.h:
src/core/problem.h:
src/core/preset.h:
src/core/banks.h:
src/core/session.h:
src/backend/observe.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/core/banks_compiled.h:
src/core/swizzle.h:
src/cli/cli.h:
src/base/outfile.h:
src/core/select.h:
src/cli/report.h:
src/core/limiter.h:
src/core/peaks.h:
src/core/traffic.h:
src/core/waves.h:
src/core/shapes.h:
src/base/util.h:
