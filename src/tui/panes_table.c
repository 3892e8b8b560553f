/* The walks over the panes' classes (panes_table.h): what draw.c, keys.c, news.c and
 * start.c call instead of naming panes, and the layout that asks the panes' content for
 * rows. The one file that holds every pane's class; nothing a pane calls is here. */
#include "tui/panes_table.h"

#include "tui/app.h"

static const PaneClass *const classes[PANE_COUNT] = {PANE_LIST(PANE_CLASS_ROW)};

/* Each pane's state: the struct in its header beside its file, a member of the Ui; NULL
 * for a pane that keeps none. */
static void *stateOf(Ui *ui, int p) {
   switch ((PaneId)p) {
   case PANE_KERNEL: return &ui->kernel_pane;
   case PANE_HISTORY: return &ui->history_pane;
   case PANE_LOG: return &ui->log_pane;
   case PANE_BANKS: return &ui->banks_pane;
   case PANE_INSPECT: return &ui->inspect_pane;
   case PANE_SWEEP: return &ui->sweep_pane;
   case PANE_LESSON: return &ui->lesson_pane;
   case PANE_COMPARE: return &ui->pinned;
   case PANE_ROOFLINE: return &ui->roofline_pane;
   case PANE_RESULTS: case PANE_COUNT: break;
   }
   return NULL;
}

const PaneSet *Panes_shipped(void) {
   static PaneSet shipped;
   if (!shipped.count)
      shipped = (PaneSet){PANE_COUNT, Pane_infos(), classes, stateOf};
   return &shipped;
}

const PaneClass *Pane_class(int p) { return p >= 0 && p < PANE_COUNT ? classes[p] : NULL; }

/* Each call of a pane is given a context built then (what an earlier pane did may have
 * changed the state) and its state. */
static void call(const PaneSet *s, Ui *ui, int p, void (*fn)(const PaneCtx *ctx, void *state)) {
   PaneCtx ctx;
   PaneHost_context(ui, p, &ctx);
   fn(&ctx, s->state(ui, p));
}

void Panes_draw(const PaneSet *s, Ui *ui) {
   for (int p = 0; p < s->count; p++)
      if (ui->layout.shown & PANE_BIT(p))
         call(s, ui, p, s->cls[p]->draw);
}

void Panes_news(const PaneSet *s, Ui *ui, bool snapshot) {
   for (int p = 0; snapshot && p < s->count; p++)
      if (s->cls[p]->snapshot)
         call(s, ui, p, s->cls[p]->snapshot);
   for (int p = 0; p < s->count; p++)
      if (s->cls[p]->poll)
         call(s, ui, p, s->cls[p]->poll);
}

void Panes_free(const PaneSet *s, Ui *ui) {
   for (int p = 0; p < s->count; p++)
      if (s->cls[p]->free)
         call(s, ui, p, s->cls[p]->free);
}

bool Panes_capture(const PaneSet *s, Ui *ui, int ch) {
   for (int p = 0; p < s->count; p++) {
      if (!s->cls[p]->capture)
         continue;
      PaneCtx ctx;
      PaneHost_context(ui, p, &ctx);
      if (s->cls[p]->capture(&ctx, s->state(ui, p), ch))
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
   b->on_pane(&ctx, s->state(ui, p), ch);
}

bool Panes_focusedKey(const PaneSet *s, Ui *ui, int p, int ch) {
   if (p < 0 || p >= s->count || !s->cls[p]->key)
      return false;
   PaneCtx ctx;
   PaneHost_context(ui, p, &ctx);
   return s->cls[p]->key(&ctx, s->state(ui, p), ch);
}

int Panes_wantRows(const PaneSet *s, Ui *ui, int p, int width) {
   if (p < 0 || p >= s->count || !s->cls[p]->rows)
      return 0;
   PaneCtx ctx;
   PaneHost_context(ui, p, &ctx);
   return s->cls[p]->rows(&ctx, s->state(ui, p), width);
}

static int paneWant(void *ctx, PaneId p, int width) { return Panes_wantRows(Panes_shipped(), ctx, p, width); }

void Ui_layout(Ui *ui) {
   const LayoutWants wants = {paneWant, ui};
   Layout_computeWanting(ui->paint.cols, ui->paint.rows, ui->visible, ui->zoom, &wants, &ui->layout);
}
