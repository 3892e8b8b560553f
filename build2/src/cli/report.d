build2/src/cli/report.o: src/cli/report.c src/cli/report.h \
 src/cli/options.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h src/core/catalog.h \
 src/core/problem.h src/core/preset.h src/core/limiter.h src/core/peaks.h \
 src/core/session.h src/backend/observe.h src/core/config.h \
 src/core/inputs.h src/core/verify.h src/core/traffic.h src/core/waves.h \
 src/core/shapes.h src/core/ablate.h src/base/util.h
src/cli/report.h:
src/cli/options.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/core/catalog.h:
src/core/problem.h:
src/core/preset.h:
src/core/limiter.h:
src/core/peaks.h:
src/core/session.h:
src/backend/observe.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/core/traffic.h:
src/core/waves.h:
src/core/shapes.h:
src/core/ablate.h:
src/base/util.h:
