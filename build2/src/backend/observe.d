build2/src/backend/observe.o: src/backend/observe.c src/backend/observe.h \
 src/backend/device.h
src/backend/observe.h:
src/backend/device.h:
