build2/src/tui/terminal.o: src/tui/terminal.c src/tui/terminal.h
src/tui/terminal.h:
