build2/src/base/rng.o: src/base/rng.c src/base/rng.h
src/base/rng.h:
