build2/src/tui/panes.o: src/tui/panes.c src/tui/panes_table.h \
 src/tui/panes.h src/tui/lesson_ui.h src/core/ladder.h src/core/lesson.h \
 src/explorer/worker.h src/core/inspect.h src/core/catalog.h \
 src/core/problem.h src/base/types.h src/core/listing.h \
 src/core/occupancy.h src/backend/ptxas.h src/core/session.h \
 src/backend/backend.h src/backend/device.h src/backend/observe.h \
 src/core/config.h src/core/inputs.h src/core/verify.h src/core/peaks.h \
 src/core/search.h src/core/sweep.h src/base/rng.h src/explorer/logbuf.h
src/tui/panes_table.h:
src/tui/panes.h:
src/tui/lesson_ui.h:
src/core/ladder.h:
src/core/lesson.h:
src/explorer/worker.h:
src/core/inspect.h:
src/core/catalog.h:
src/core/problem.h:
src/base/types.h:
src/core/listing.h:
src/core/occupancy.h:
src/backend/ptxas.h:
src/core/session.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/observe.h:
src/core/config.h:
src/core/inputs.h:
src/core/verify.h:
src/core/peaks.h:
src/core/search.h:
src/core/sweep.h:
src/base/rng.h:
src/explorer/logbuf.h:
