build2/src/backend/hip_offline.o: src/backend/hip_offline.c \
 src/backend/backend_hip.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h
src/backend/backend_hip.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
