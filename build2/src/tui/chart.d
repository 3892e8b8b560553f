build2/src/tui/chart.o: src/tui/chart.c src/tui/chart.h
src/tui/chart.h:
