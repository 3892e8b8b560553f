build2/src/core/traffic.o: src/core/traffic.c src/core/traffic.h \
 src/backend/device.h src/core/catalog.h src/core/problem.h \
 src/base/types.h src/core/ablate.h src/core/config.h
src/core/traffic.h:
src/backend/device.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/core/ablate.h:
src/core/config.h:
