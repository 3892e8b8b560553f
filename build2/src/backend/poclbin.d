build2/src/backend/poclbin.o: src/backend/poclbin.c src/backend/poclbin.h
src/backend/poclbin.h:
