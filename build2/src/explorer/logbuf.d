build2/src/explorer/logbuf.o: src/explorer/logbuf.c src/explorer/logbuf.h
src/explorer/logbuf.h:
