build2/src/backend/backend_hip.o: src/backend/backend_hip.c \
 src/backend/backend_hip.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h src/backend/gpu_common.h \
 src/backend/hip_api.h src/base/util.h
src/backend/backend_hip.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/backend/gpu_common.h:
src/backend/hip_api.h:
src/base/util.h:
