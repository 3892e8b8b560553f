build2/src/tui/layout.o: src/tui/layout.c src/tui/layout.h \
 src/tui/panes.h
src/tui/layout.h:
src/tui/panes.h:
