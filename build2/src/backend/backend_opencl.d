build2/src/backend/backend_opencl.o: src/backend/backend_opencl.c \
 src/backend/backend.h src/backend/device.h src/backend/ptxas.h \
 src/base/types.h src/base/diskcache.h src/backend/poclbin.h \
 src/base/util.h
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/base/types.h:
src/base/diskcache.h:
src/backend/poclbin.h:
src/base/util.h:
