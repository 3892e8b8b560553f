/* The walks over the panes' classes (panes_table.h): what draw.c, keys.c, news.c and
 * start.c call instead of naming panes, and the layout that asks the panes' content for
 * rows. The one file that holds every pane's class; nothing a pane calls is here. */
#include "tui/panes_table.h"

#include "tui/app.h"

static const PaneClass *const classes[PANE_COUNT] = {PANE_LIST(PANE_CLASS_ROW)};

const PaneSet *Panes_shipped(void) {
   static PaneSet shipped;
   if (!shipped.count)
      shipped = (PaneSet){PANE_COUNT, Pane_infos(), classes};
   return &shipped;
}

const PaneClass *Pane_class(int p) { return p >= 0 && p < PANE_COUNT ? classes[p] : NULL; }

void Panes_draw(const PaneSet *s, Ui *ui) {
   for (int p = 0; p < s->count; p++)
      if (ui->layout.shown & PANE_BIT(p))
         s->cls[p]->draw(ui);
}

void Panes_news(const PaneSet *s, Ui *ui, bool snapshot) {
   for (int p = 0; snapshot && p < s->count; p++)
      if (s->cls[p]->snapshot)
         s->cls[p]->snapshot(ui);
   for (int p = 0; p < s->count; p++)
      if (s->cls[p]->poll)
         s->cls[p]->poll(ui);
}

void Panes_free(const PaneSet *s, Ui *ui) {
   for (int p = 0; p < s->count; p++)
      if (s->cls[p]->free)
         s->cls[p]->free(ui);
}

bool Panes_capture(const PaneSet *s, Ui *ui, int ch) {
   for (int p = 0; p < s->count; p++)
      if (s->cls[p]->capture && s->cls[p]->capture(ui, ch))
         return true;
   return false;
}

const KeyBinding *Panes_binding(const PaneSet *s, int ch, int *pane) {
   for (int p = 0; p < s->count; p++)
      for (int i = 0; i < s->cls[p]->nkeys; i++)
         for (int j = 0; s->cls[p]->keys[i].codes[j]; j++)
            if (s->cls[p]->keys[i].codes[j] == ch) {
               if (pane)
                  *pane = p;
               return &s->cls[p]->keys[i];
            }
   return NULL;
}

bool Panes_focusedKey(const PaneSet *s, Ui *ui, int p, int ch) {
   return p >= 0 && p < s->count && s->cls[p]->key && s->cls[p]->key(ui, ch);
}

int Panes_wantRows(const PaneSet *s, Ui *ui, int p, int width) {
   return p >= 0 && p < s->count && s->cls[p]->rows ? s->cls[p]->rows(ui, width) : 0;
}

static int paneWant(void *ctx, PaneId p, int width) { return Panes_wantRows(Panes_shipped(), ctx, p, width); }

void Ui_layout(Ui *ui) {
   const LayoutWants wants = {paneWant, ui};
   Layout_computeWanting(ui->paint.cols, ui->paint.rows, ui->visible, ui->zoom, &wants, &ui->layout);
}
