build2/src/tui/history.o: src/tui/history.c src/tui/history.h \
 src/core/catalog.h src/core/problem.h src/base/types.h
src/tui/history.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
