build2/src/core/select.o: src/core/select.c src/core/select.h \
 src/backend/backend.h src/backend/device.h src/backend/ptxas.h \
 src/base/types.h src/core/catalog.h src/core/problem.h src/core/preset.h \
 src/core/session.h src/backend/observe.h src/core/config.h \
 src/core/inputs.h src/core/verify.h
src/core/select.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/core/catalog.h:
src/core/problem.h:
src/core/preset.h:
src/core/session.h:
src/backend/observe.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
