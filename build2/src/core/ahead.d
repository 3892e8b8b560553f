build2/src/core/ahead.o: src/core/ahead.c src/core/ahead.h \
 src/core/catalog.h src/core/problem.h src/base/types.h src/core/config.h \
 src/backend/device.h src/core/session.h src/backend/backend.h \
 src/backend/ptxas.h src/backend/observe.h src/core/inputs.h \
 src/core/verify.h src/base/util.h
src/core/ahead.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/core/config.h:
src/backend/device.h:
src/core/session.h:
src/backend/backend.h:
src/backend/ptxas.h:
src/backend/observe.h:
src/core/inputs.h:
src/core/verify.h:
src/base/util.h:
