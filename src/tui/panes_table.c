/* The walks over the panes' classes (panes_table.h): what draw.c, keys.c, news.c and
 * start.c call instead of naming panes, each pane's state made and freed from its class,
 * and the layout that asks the panes' content for rows. The one file that holds every
 * pane's class; nothing a pane calls is here. */
#include "tui/panes_table.h"

#include <stdlib.h>

#include "tui/app.h"

static const PaneClass *const classes[PANE_COUNT] = {PANE_LIST(PANE_CLASS_ROW)};

const PaneSet *Panes_shipped(void) {
   static PaneSet shipped;
   if (!shipped.count)
      shipped = (PaneSet){PANE_COUNT, Pane_infos(), classes};
   return &shipped;
}

const PaneClass *Pane_class(int p) { return p >= 0 && p < PANE_COUNT ? classes[p] : NULL; }

/* Each call of a pane is given a context built then (what an earlier pane did may have
 * changed the state) and its state. */
static void call(Ui *ui, int p, void (*fn)(const PaneCtx *ctx, void *state)) {
   PaneCtx ctx;
   PaneHost_context(ui, p, &ctx);
   fn(&ctx, ui->panes.of[p]);
}

void Panes_draw(const PaneSet *s, Ui *ui) {
   for (int p = 0; p < s->count; p++)
      if (ui->layout.shown & PANE_BIT(p))
         call(ui, p, s->cls[p]->draw);
}

void Panes_news(const PaneSet *s, Ui *ui, bool snapshot) {
   for (int p = 0; snapshot && p < s->count; p++)
      if (s->cls[p]->snapshot)
         call(ui, p, s->cls[p]->snapshot);
   for (int p = 0; p < s->count; p++)
      if (s->cls[p]->poll)
         call(ui, p, s->cls[p]->poll);
}

bool Panes_start(const PaneSet *s, Ui *ui) {
   if (s->count > PANE_COUNT)
      return false;
   /* Every block first, so that each init's context sees the other panes' states. */
   for (int p = 0; p < s->count; p++)
      if (s->cls[p]->state_size && !(ui->panes.of[p] = calloc(1, s->cls[p]->state_size))) {
         Panes_free(s, ui);
         return false;
      }
   for (int p = 0; p < s->count; p++) {
      if (!s->cls[p]->init)
         continue;
      PaneCtx ctx;
      PaneHost_context(ui, p, &ctx);
      if (!s->cls[p]->init(&ctx, ui->panes.of[p])) {
         Panes_free(s, ui);
         return false;
      }
   }
   return true;
}

void Panes_free(const PaneSet *s, Ui *ui) {
   for (int p = 0; p < s->count && p < PANE_COUNT; p++) {
      /* A pane whose state was never made has nothing to free. */
      if (s->cls[p]->free && (ui->panes.of[p] || !s->cls[p]->state_size))
         call(ui, p, s->cls[p]->free);
      free(ui->panes.of[p]);
      ui->panes.of[p] = NULL;
   }
}

bool Panes_capture(const PaneSet *s, Ui *ui, int ch) {
   for (int p = 0; p < s->count; p++) {
      if (!s->cls[p]->capture)
         continue;
      PaneCtx ctx;
      PaneHost_context(ui, p, &ctx);
      if (s->cls[p]->capture(&ctx, ui->panes.of[p], ch))
         return true;
   }
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

void Panes_runBinding(const PaneSet *s, Ui *ui, int p, const KeyBinding *b, int ch) {
   PaneCtx ctx;
   PaneHost_context(ui, p, &ctx);
   b->on_pane(&ctx, ui->panes.of[p], ch);
}

bool Panes_focusedKey(const PaneSet *s, Ui *ui, int p, int ch) {
   if (p < 0 || p >= s->count || !s->cls[p]->key)
      return false;
   PaneCtx ctx;
   PaneHost_context(ui, p, &ctx);
   return s->cls[p]->key(&ctx, ui->panes.of[p], ch);
}

int Panes_wantRows(const PaneSet *s, Ui *ui, int p, int width) {
   if (p < 0 || p >= s->count || !s->cls[p]->rows)
      return 0;
   PaneCtx ctx;
   PaneHost_context(ui, p, &ctx);
   return s->cls[p]->rows(&ctx, ui->panes.of[p], width);
}

static int paneWant(void *ctx, PaneId p, int width) { return Panes_wantRows(Panes_shipped(), ctx, p, width); }

void Ui_layout(Ui *ui) {
   const LayoutWants wants = {paneWant, ui};
   Layout_computeWanting(ui->paint.cols, ui->paint.rows, ui->visible, ui->zoom, &wants, &ui->layout);
}
