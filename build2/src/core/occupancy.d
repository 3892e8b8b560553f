build2/src/core/occupancy.o: src/core/occupancy.c src/core/occupancy.h
src/core/occupancy.h:
