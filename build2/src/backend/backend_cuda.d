build2/src/backend/backend_cuda.o: src/backend/backend_cuda.c \
 src/backend/backend_cuda.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h src/backend/gpu_common.h \
 src/base/util.h
src/backend/backend_cuda.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/backend/gpu_common.h:
src/base/util.h:
