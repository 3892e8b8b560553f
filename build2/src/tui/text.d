build2/src/tui/text.o: src/tui/text.c src/tui/text.h
src/tui/text.h:
