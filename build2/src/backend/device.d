build2/src/backend/device.o: src/backend/device.c src/backend/device.h
src/backend/device.h:
