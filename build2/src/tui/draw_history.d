build2/src/tui/draw_history.o: src/tui/draw_history.c src/core/ablate.h \
 src/core/problem.h src/base/types.h src/base/util.h src/tui/app.h \
 src/backend/backend.h src/backend/device.h src/backend/ptxas.h \
 src/core/catalog.h src/core/preset.h src/core/shapes.h src/core/ahead.h \
 src/core/config.h src/core/session.h src/backend/observe.h \
 src/core/inputs.h src/core/verify.h src/core/banks.h src/core/limiter.h \
 src/core/peaks.h src/core/traffic.h src/core/waves.h src/tui/chart.h \
 src/tui/history.h src/tui/layout.h src/tui/panes.h src/tui/panes_table.h \
 src/tui/pane_state.h src/explorer/worker.h src/core/inspect.h \
 src/core/listing.h src/core/occupancy.h src/core/search.h \
 src/core/sweep.h src/base/rng.h src/explorer/logbuf.h src/tui/prefs.h \
 src/tui/ui.h src/core/select.h src/tui/text.h
src/core/ablate.h:
src/core/problem.h:
src/base/types.h:
src/base/util.h:
src/tui/app.h:
src/backend/backend.h:
src/backend/device.h:
src/backend/ptxas.h:
src/core/catalog.h:
src/core/preset.h:
src/core/shapes.h:
src/core/ahead.h:
src/core/config.h:
src/core/session.h:
src/backend/observe.h:
src/core/inputs.h:
src/core/verify.h:
src/core/banks.h:
src/core/limiter.h:
src/core/peaks.h:
src/core/traffic.h:
src/core/waves.h:
src/tui/chart.h:
src/tui/history.h:
src/tui/layout.h:
src/tui/panes.h:
src/tui/panes_table.h:
src/tui/pane_state.h:
src/explorer/worker.h:
src/core/inspect.h:
src/core/listing.h:
src/core/occupancy.h:
src/core/search.h:
src/core/sweep.h:
src/base/rng.h:
src/explorer/logbuf.h:
src/tui/prefs.h:
src/tui/ui.h:
src/core/select.h:
src/tui/text.h:
