build2/src/backend/backend.o: src/backend/backend.c src/backend/backend.h \
 src/backend/device.h src/backend/ptxas.h src/base/types.h
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
