build2/src/core/inspect.o: src/core/inspect.c src/core/inspect.h \
 src/core/catalog.h src/core/problem.h src/base/types.h \
 src/core/listing.h src/core/occupancy.h src/backend/ptxas.h \
 src/core/session.h src/backend/backend.h src/backend/device.h \
 src/backend/observe.h src/core/config.h src/core/inputs.h \
 src/core/verify.h src/core/ablate.h src/core/preproc.h src/base/util.h
src/core/inspect.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/core/listing.h:
src/core/occupancy.h:
src/backend/ptxas.h:
src/core/session.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/observe.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/core/ablate.h:
src/core/preproc.h:
src/base/util.h:
