/* The panes' table of functions (panes.h's list, panes_table.h): what draw.c, keys.c and
 * news.c iterate instead of naming panes, and the layout that asks the panes' content for
 * rows. The one file that names every pane's functions; nothing a pane calls is here. */
#include "tui/panes_table.h"

#include "tui/app.h"
#include "tui/lesson_ui.h"

#define PANE_ROW_(id, title, pref, digit, min_h, min_w, pref_h, weight, drop, draw, key, wheel, needs)                 \
   [PANE_##id] = {title, pref, digit, draw, key, wheel, needs},
static const PaneClass classes[PANE_COUNT] = {PANE_LIST(PANE_ROW_)};
#undef PANE_ROW_

/* The panes whose content asks the layout for rows (layout.h's wants). */
static int (*const wantRows[PANE_COUNT])(struct Ui_ *ui, int width) = {[PANE_LESSON] = LessonUi_paneRows,
                                                                     [PANE_BANKS] = Draw_banksRows,
                                                                     [PANE_COMPARE] = Draw_compareRows};

int Pane_wantRows(struct Ui_ *ui, int p, int width) {
   return p >= 0 && p < PANE_COUNT && wantRows[p] ? wantRows[p](ui, width) : 0;
}

const PaneClass *Pane_class(int p) { return p >= 0 && p < PANE_COUNT ? &classes[p] : NULL; }

static int paneWant(void *ctx, PaneId p, int width) { return Pane_wantRows(ctx, p, width); }

void Ui_layout(Ui *ui) {
   const LayoutWants wants = {paneWant, ui};
   Layout_computeWanting(ui->paint.cols, ui->paint.rows, ui->visible, ui->zoom, &wants, &ui->layout);
}
