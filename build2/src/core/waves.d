build2/src/core/waves.o: src/core/waves.c src/core/waves.h \
 src/backend/device.h src/core/config.h src/core/catalog.h \
 src/core/problem.h src/base/types.h src/core/occupancy.h
src/core/waves.h:
src/backend/device.h:
src/core/config.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/core/occupancy.h:
