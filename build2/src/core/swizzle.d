build2/src/core/swizzle.o: src/core/swizzle.c src/core/swizzle.h \
 src/core/session.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h src/backend/observe.h \
 src/core/catalog.h src/core/problem.h src/core/config.h \
 src/core/inputs.h src/core/verify.h
src/core/swizzle.h:
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
