build2/src/core/limiter.o: src/core/limiter.c src/core/limiter.h \
 src/core/peaks.h src/core/session.h src/backend/backend.h \
 src/backend/device.h src/backend/ptxas.h src/base/types.h \
 src/backend/observe.h src/core/catalog.h src/core/problem.h \
 src/core/config.h src/core/inputs.h src/core/verify.h src/core/traffic.h \
 src/core/waves.h src/core/occupancy.h
src/core/limiter.h:
src/core/peaks.h:
src/core/session.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/backend/observe.h:
src/core/catalog.h:
src/core/problem.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/core/traffic.h:
src/core/waves.h:
src/core/occupancy.h:
