build2/src/core/lesson.o: src/core/lesson.c src/core/lesson.h \
 src/backend/device.h src/core/ablate.h src/core/problem.h \
 src/base/types.h src/core/session.h src/backend/backend.h \
 src/backend/ptxas.h src/backend/observe.h src/core/catalog.h \
 src/core/config.h src/core/inputs.h src/core/verify.h src/base/util.h
src/core/lesson.h:
src/backend/device.h:
src/core/ablate.h:
src/core/problem.h:
src/base/types.h:
src/core/session.h:
src/backend/backend.h:
src/backend/ptxas.h:
src/backend/observe.h:
src/core/catalog.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/base/util.h:
