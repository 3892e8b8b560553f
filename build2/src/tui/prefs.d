build2/src/tui/prefs.o: src/tui/prefs.c src/tui/prefs.h \
 src/core/catalog.h src/core/problem.h src/base/types.h src/tui/layout.h \
 src/tui/panes.h src/tui/panes_table.h src/base/util.h
src/tui/prefs.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/tui/layout.h:
src/tui/panes.h:
src/tui/panes_table.h:
src/base/util.h:
