build2/src/backend/cuda_offline.o: src/backend/cuda_offline.c \
 src/backend/backend_cuda.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h src/base/util.h
src/backend/backend_cuda.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/base/util.h:
