build2/src/core/sweep.o: src/core/sweep.c src/core/sweep.h \
 src/core/catalog.h src/core/problem.h src/base/types.h src/core/config.h \
 src/backend/device.h src/base/rng.h src/core/session.h \
 src/backend/backend.h src/backend/ptxas.h src/backend/observe.h \
 src/core/inputs.h src/core/verify.h
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
