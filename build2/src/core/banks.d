build2/src/core/banks.o: src/core/banks.c src/core/banks.h \
 src/backend/backend.h src/backend/device.h src/backend/ptxas.h \
 src/base/types.h src/core/session.h src/backend/observe.h \
 src/core/catalog.h src/core/problem.h src/core/config.h \
 src/core/inputs.h src/core/verify.h src/base/util.h
src/core/banks.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/core/session.h:
src/backend/observe.h:
src/core/catalog.h:
src/core/problem.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/base/util.h:
