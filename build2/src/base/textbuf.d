build2/src/base/textbuf.o: src/base/textbuf.c src/base/textbuf.h
src/base/textbuf.h:
