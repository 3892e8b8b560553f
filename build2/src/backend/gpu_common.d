build2/src/backend/gpu_common.o: src/backend/gpu_common.c \
 src/backend/gpu_common.h src/backend/backend.h src/backend/device.h \
 src/backend/ptxas.h src/base/types.h src/base/diskcache.h \
 src/base/util.h
src/backend/gpu_common.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/base/diskcache.h:
src/base/util.h:
