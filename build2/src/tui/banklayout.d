build2/src/tui/banklayout.o: src/tui/banklayout.c src/tui/banklayout.h \
 src/tui/layout.h src/tui/panes.h
src/tui/banklayout.h:
src/tui/layout.h:
src/tui/panes.h:
