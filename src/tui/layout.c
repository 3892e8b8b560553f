#include "tui/layout.h"

#include <string.h>

typedef struct PaneSpec_ {
   const char *name;
   int min_h, min_w;
   int pref_h;    /* filled first, before the weights share the rest (0: none) */
   int weight;
   int drop;      /* rank in the order panes are dropped when there is no room: 0 first */
   int digit;     /* the key that shows or hides it */
} PaneSpec;

/* The geometry columns of panes.h's list; the functions it names are not used here. */
#define PANE_SPEC_(id, title, pref, digit, min_h, min_w, pref_h, weight, drop, ...)                                    \
   [PANE_##id] = {title, min_h, min_w, pref_h, weight, drop, digit - '0'},
static const PaneSpec specs[PANE_COUNT] = {PANE_LIST(PANE_SPEC_)};
#undef PANE_SPEC_

/* The pane of drop rank i (0: dropped first); PANE_COUNT when none has it. */
static PaneId droppedAt(int i) {
   for (int p = 0; p < PANE_COUNT; p++)
      if (specs[p].drop == i)
         return (PaneId)p;
   return PANE_COUNT;
}

int Layout_minHeight(PaneId p) { return p < PANE_COUNT ? specs[p].min_h : 0; }
int Layout_paneKey(PaneId p) { return p < PANE_COUNT ? specs[p].digit : 0; }
int Layout_dropRank(PaneId p) { return p < PANE_COUNT ? specs[p].drop : -1; }
int Layout_minWidth(PaneId p) { return p < PANE_COUNT ? specs[p].min_w : 0; }
const char *Layout_paneName(PaneId p) { return p < PANE_COUNT ? specs[p].name : "?"; }

bool Rect_contains(Rect r, int x, int y) { return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h; }

static int sumMin(unsigned mask) {
   int s = 0;
   for (int p = 0; p < PANE_COUNT; p++)
      if (mask & PANE_BIT(p))
         s += specs[p].min_h;
   return s;
}

/* Drops panes of mask, least important first, until their minimum heights fit in h. */
static unsigned fit(unsigned mask, int h, unsigned *dropped) {
   for (int i = 0; i < PANE_COUNT && sumMin(mask) > h; i++) {
      PaneId p = droppedAt(i);
      if (p < PANE_COUNT && (mask & PANE_BIT(p))) {
         mask &= ~PANE_BIT(p);
         *dropped |= PANE_BIT(p);
      }
   }
   return mask;
}

/* The rows pane p wants at width w (0: none). */
static int wantOf(const LayoutWants *wants, PaneId p, int w) {
   return wants && wants->rows ? wants->rows(wants->ctx, p, w) : 0;
}

/* Stacks the panes of mask top to bottom in r: minimum heights, then what the panes'
 * content wants, then preferred heights, then the rest by weight (the remainder to the
 * last pane). Returns whether every want was met. */
static bool stack(Layout *l, unsigned mask, Rect r, const LayoutWants *wants) {
   int h[PANE_COUNT] = {0};
   int extra = r.h, weights = 0, last = -1;
   bool met = true;
   for (int p = 0; p < PANE_COUNT; p++)
      if (mask & PANE_BIT(p)) {
         h[p] = specs[p].min_h;
         extra -= h[p];
         last = p;
      }
   if (last < 0)
      return true;
   for (int p = 0; p < PANE_COUNT; p++) {
      int want = mask & PANE_BIT(p) ? wantOf(wants, (PaneId)p, r.w) : 0;
      if (want <= h[p])
         continue;
      int add = want - h[p] < extra ? want - h[p] : extra;
      h[p] += add;
      extra -= add;
      met &= h[p] >= want;
   }
   for (int p = 0; p < PANE_COUNT && extra > 0; p++)
      if ((mask & PANE_BIT(p)) && specs[p].pref_h > h[p]) {
         int add = specs[p].pref_h - h[p];
         if (add > extra)
            add = extra;
         h[p] += add;
         extra -= add;
      }
   for (int p = 0; p < PANE_COUNT; p++)
      if (mask & PANE_BIT(p))
         weights += specs[p].weight;
   int share = extra;
   for (int p = 0; p < PANE_COUNT && weights > 0; p++)
      if ((mask & PANE_BIT(p)) && p != last) {
         int add = share * specs[p].weight / weights;
         h[p] += add;
         extra -= add;
      }
   h[last] += extra;
   int y = r.y;
   for (int p = 0; p < PANE_COUNT; p++)
      if (mask & PANE_BIT(p)) {
         l->pane[p] = (Rect){r.x, y, r.w, h[p]};
         l->shown |= PANE_BIT(p);
         y += h[p];
      }
   return met;
}

void Layout_compute(int cols, int rows, unsigned visible, int zoom, Layout *l) {
   Layout_computeWanting(cols, rows, visible, zoom, NULL, l);
}

void Layout_computeWanting(int cols, int rows, unsigned visible, int zoom, const LayoutWants *wants, Layout *l) {
   memset(l, 0, sizeof *l);
   l->cols = cols;
   l->rows = rows;
   l->need_w = LAYOUT_MIN_W;
   l->need_h = LAYOUT_MIN_H;
   if (cols < LAYOUT_MIN_W || rows < LAYOUT_MIN_H) {
      l->too_small = true;
      return;
   }
   visible &= PANES_ALL;
   l->header = (Rect){0, 0, cols, LAYOUT_HEADER_H};
   l->footer = (Rect){0, rows - LAYOUT_FOOTER_H, cols, LAYOUT_FOOTER_H};
   l->body = (Rect){0, LAYOUT_HEADER_H, cols, rows - LAYOUT_HEADER_H - LAYOUT_FOOTER_H};
   if (zoom >= 0 && zoom < PANE_COUNT && (visible & PANE_BIT(zoom))) {
      l->pane[zoom] = l->body;
      l->shown = PANE_BIT(zoom);
      l->wants_met = true; /* the whole body */
      return;
   }
   unsigned right = visible & ~PANE_BIT(PANE_KERNEL);
   /* The kernel pane: 2/5 of the width, at most 48 columns up to 160, where the others
    * need the room; on a wider terminal up to 72, so that long variant names and
    * parameters are not cut with columns to spare. */
   int kw = cols * 2 / 5;
   if (kw < specs[PANE_KERNEL].min_w)
      kw = specs[PANE_KERNEL].min_w;
   int kmax = cols < 160 ? 48 : cols * 3 / 10 < 72 ? cols * 3 / 10 : 72;
   if (kw > kmax)
      kw = kmax;
   int rw = cols - kw - 1, need = 0;
   for (int p = 0; p < PANE_COUNT; p++)
      if ((right & PANE_BIT(p)) && specs[p].min_w > need)
         need = specs[p].min_w;
   if ((visible & PANE_BIT(PANE_KERNEL)) && right && rw >= need) {
      l->side_by_side = true;
      l->pane[PANE_KERNEL] = (Rect){0, l->body.y, kw, l->body.h};
      l->shown = PANE_BIT(PANE_KERNEL);
      l->divider = (Rect){kw, l->body.y, 1, l->body.h};
      unsigned dropped = 0;
      right = fit(right, l->body.h, &dropped);
      if ((l->wants_met = stack(l, right, (Rect){kw + 1, l->body.y, rw, l->body.h}, wants))) {
         l->dropped = dropped;
         return;
      }
      /* A want not met beside the kernel pane: across the whole width without it, if
       * every want is met there. */
      Layout across;
      memcpy(&across, l, sizeof across);
      memset(across.pane, 0, sizeof across.pane);
      across.shown = 0;
      across.side_by_side = false;
      across.divider = (Rect){0, 0, 0, 0};
      across.dropped = PANE_BIT(PANE_KERNEL);
      if (stack(&across, fit(visible & ~PANE_BIT(PANE_KERNEL), l->body.h, &across.dropped), l->body, wants)) {
         *l = across;
         l->wants_met = true;
         return;
      }
      l->dropped = dropped;
      return;
   }
   l->wants_met = stack(l, fit(visible, l->body.h, &l->dropped), l->body, wants);
}

Rect Layout_dialog(int cols, int rows, int want_w, int want_h) {
   int w = want_w < cols - 2 ? want_w : cols - 2;
   int h = want_h < rows - 2 ? want_h : rows - 2;
   if (w < 1)
      w = cols > 0 ? cols : 0;
   if (h < 1)
      h = rows > 0 ? rows : 0;
   return (Rect){(cols - w) / 2, (rows - h) / 2, w, h};
}
