build2/src/core/measurer.o: src/core/measurer.c src/core/measurer.h \
 src/core/sweep.h src/core/catalog.h src/core/problem.h src/base/types.h \
 src/core/config.h src/backend/device.h src/base/rng.h src/core/session.h \
 src/backend/backend.h src/backend/ptxas.h src/backend/observe.h \
 src/core/inputs.h src/core/verify.h src/base/util.h src/base/children.h
src/core/measurer.h:
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
src/base/util.h:
src/base/children.h:
