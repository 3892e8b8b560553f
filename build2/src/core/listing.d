build2/src/core/listing.o: src/core/listing.c src/core/listing.h
src/core/listing.h:
