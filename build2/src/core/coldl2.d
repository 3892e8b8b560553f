build2/src/core/coldl2.o: src/core/coldl2.c src/core/coldl2.h \
 src/backend/backend.h src/backend/device.h src/backend/ptxas.h \
 src/base/types.h
src/core/coldl2.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
