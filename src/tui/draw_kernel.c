/* The kernel pane: the variant picker, the parameters with their values (the current one
 * highlighted, those the rules refuse dimmed), the variants of the ladders, and an info
 * area that says why the configuration is refused or what the cursor is on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/draw_kernel.h"
#include "tui/panedraw.h"
#include "tui/panes_table.h"
#include "tui/text.h"

typedef enum { DL_PICK, DL_PARAM, DL_SEP, DL_LADDER, DL_VARIANT } DLKind;
typedef struct DLine_ {
   DLKind kind;
   int row;     /* selectable row, -1 for none */
   int index;   /* parameter or catalog index */
} DLine;

#define MAX_LINES (3 + KERNEL_MAX_PARAMS + 2 * 512)

/* The reason the nearest unavailable value of parameter pi is refused. */
static bool unavailableReason(const PaneCtx *ctx, int pi, const bool *valid, char *list, size_t listlen, char *why,
                              size_t whylen) {
   const KernelInfo *k = ctx->info;
   const KernelParam *p = &k->params[pi];
   int cur = -1, nearest = -1;
   for (int i = 0; i < p->nvalues; i++)
      if (p->values[i] == ctx->values[pi])
         cur = i;
   list[0] = why[0] = '\0';
   for (int i = 0; i < p->nvalues; i++)
      if (!valid[i]) {
         snprintf(list + strlen(list), listlen - strlen(list), "%s%lld", list[0] ? " " : "", p->values[i]);
         if (nearest < 0 || abs(i - cur) < abs(nearest - cur))
            nearest = i;
      }
   if (nearest < 0)
      return false;
   long long v[KERNEL_MAX_PARAMS];
   memcpy(v, ctx->values, sizeof v);
   v[pi] = p->values[nearest];
   Config_check(k, v, ctx->problem, ctx->device_limits, NULL, why, whylen);
   return true;
}

/* The pane's lines: the picker, the parameters, a separator, then each ladder's title and
 * its variants. Returns how many. */
static int buildLines(const PaneCtx *ctx, DLine *lines) {
   const KernelInfo *k = ctx->info;
   int nlines = 0, cap = 3 + k->nparams + 2 * ctx->nlist;
   if (cap > MAX_LINES)
      cap = MAX_LINES;
   lines[nlines++] = (DLine){DL_PICK, 0, ctx->kernel};
   for (int i = 0; i < k->nparams && nlines < cap; i++)
      lines[nlines++] = (DLine){DL_PARAM, 1 + i, i};
   if (nlines < cap)
      lines[nlines++] = (DLine){DL_SEP, -1, 0};
   const char *ladder = NULL;
   for (int i = 0; i < ctx->nlist && nlines < cap - 1; i++) {
      const KernelInfo *v = &ctx->cat->kernels[ctx->list[i]];
      if (!ladder || strcmp(ladder, v->ladder)) {
         ladder = v->ladder;
         lines[nlines++] = (DLine){DL_LADDER, -1, ctx->list[i]};
      }
      lines[nlines++] = (DLine){DL_VARIANT, 1 + k->nparams + i, ctx->list[i]};
   }
   return nlines;
}

/* Keeps the cursor in view, and the ladder title above the first variant. */
static void scrollToCursor(const PaneCtx *ctx, KernelPane *kp, const DLine *lines, int nlines, int height) {
   int cl = 0;
   for (int i = 0; i < nlines; i++)
      if (lines[i].row == kp->cursor)
         cl = i;
   if (cl < kp->scroll)
      kp->scroll = cl > 0 && lines[cl - 1].kind == DL_LADDER ? cl - 1 : cl;
   if (cl >= kp->scroll + height)
      kp->scroll = cl - height + 1;
   if (kp->scroll > nlines - height)
      kp->scroll = nlines - height;
   if (kp->scroll < 0)
      kp->scroll = 0;
}

/* Parameter pi's values from x on, w wide: a window around the current one when they do
 * not all fit. */
static void drawValues(const PaneCtx *ctx, int y, int x, int w, int pi, Style base) {
   const KernelInfo *k = ctx->info;
   const KernelParam *p = &k->params[pi];
   bool valid[KERNEL_MAX_VALUES];
   Config_validValues(k, ctx->values, ctx->problem, ctx->device_limits, pi, valid);
   int cur = 0;
   for (int i = 0; i < p->nvalues; i++)
      if (p->values[i] == ctx->values[pi])
         cur = i;
   char t[64];
   int widths[KERNEL_MAX_VALUES], total = 0;
   for (int i = 0; i < p->nvalues; i++) {
      widths[i] = snprintf(t, sizeof t, "%lld", p->values[i]) + 1;
      total += widths[i];
   }
   int first = 0, last = p->nvalues - 1;
   while (total > w - 2 && last > first) {
      if (cur - first > last - cur)
         total -= widths[first++];
      else
         total -= widths[last--];
   }
   int vx = x;
   if (first > 0)
      Paint_text(ctx->paint, y, vx++, 1, Paint_glyph(ctx->paint, "\xe2\x80\xa6", "<"), ST_DIM, false);
   for (int i = first; i <= last; i++) {
      snprintf(t, sizeof t, "%lld", p->values[i]);
      Style st = i == cur ? ST_SELECT : !valid[i] ? ST_DIM : base;
      if (i == cur && !valid[i])
         st = ST_BAD;
      int tw = (int)strlen(t);
      if (i == cur && !ctx->paint->color) {
         /* Without colour the current value is bracketed. */
         char b[72];
         snprintf(b, sizeof b, "[%s]", t);
         Paint_text(ctx->paint, y, vx - 1, tw + 2, b, st, false);
      } else {
         Paint_text(ctx->paint, y, vx, tw, t, st, false);
      }
      PaneCtx_hit(ctx, (Rect){vx, y, tw, 1}, HIT_VALUE, pi, i);
      vx += tw + 1;
   }
   if (last < p->nvalues - 1)
      Paint_text(ctx->paint, y, vx, 1, Paint_glyph(ctx->paint, "\xe2\x80\xa6", ">"), ST_DIM, false);
}

/* One line of the pane at row y; nameW: the width of the parameters' names. */
static void drawLine(const PaneCtx *ctx, const KernelPane *kp, Rect r, const DLine *d, int y, int nameW) {
   const KernelInfo *k = ctx->info;
   bool kfocus = ctx->focus == PANE_KERNEL;
   bool cursor = d->row >= 0 && d->row == kp->cursor;
   Style base = cursor && kfocus ? ST_CURSOR : ST_NORMAL;
   Paint_fill(ctx->paint, y, r.x, r.w, base);
   if (cursor)
      Paint_text(ctx->paint, y, r.x, 1, Paint_glyph(ctx->paint, "\xe2\x96\xb6", ">"), base, false);
   if (d->row >= 0)
      PaneCtx_hit(ctx, (Rect){r.x, y, r.w, 1}, HIT_ROW, d->row, 0);
   int x = r.x + 2, w = r.w - 2;
   char t[512];
   switch (d->kind) {
   case DL_PICK:
      Paint_text(ctx->paint, y, x, nameW, "variant", cursor && kfocus ? base : ST_LABEL, false);
      snprintf(t, sizeof t, "%s %d %s %s", Paint_glyph(ctx->paint, "\xe2\x97\x80", "<"), k->step, k->title,
               Paint_glyph(ctx->paint, "\xe2\x96\xb6", ">"));
      Paint_text(ctx->paint, y, x + nameW, w - nameW, t, base, false);
      break;
   case DL_PARAM:
      Paint_text(ctx->paint, y, x, nameW, k->params[d->index].name, cursor && kfocus ? base : ST_LABEL, false);
      drawValues(ctx, y, x + nameW, w - nameW, d->index, base);
      break;
   case DL_SEP: {
      /* "── variants (Enter picks) ─────" to the pane's edge. */
      const char *hl = Paint_glyph(ctx->paint, "\xe2\x94\x80", "-");
      int o = snprintf(t, sizeof t, "%s%s variants (Enter picks) ", hl, hl);
      for (int c = Text_width(t); c < r.w && o + 4 < (int)sizeof t; c++)
         o += snprintf(t + o, sizeof t - (size_t)o, "%s", hl);
      Paint_text(ctx->paint, y, r.x, r.w, t, ST_DIM, false);
      break;
   }
   case DL_LADDER:
      snprintf(t, sizeof t, "%s", ctx->cat->kernels[d->index].ladder);
      Paint_text(ctx->paint, y, r.x + 1, r.w - 1, t, ST_LABEL, false);
      break;
   case DL_VARIANT: {
      const KernelInfo *v = &ctx->cat->kernels[d->index];
      bool current = d->index == ctx->kernel;
      snprintf(t, sizeof t, "%s %2d %s", current ? Paint_glyph(ctx->paint, "\xe2\x97\x8f", "*") : " ", v->step,
               v->title);
      Paint_text(ctx->paint, y, x, w, t, current && !(cursor && kfocus) ? ST_GOOD : base, false);
      PaneCtx_hit(ctx, (Rect){r.x, y, r.w, 1}, HIT_VARIANT, d->index, d->row);
      break;
   }
   }
}

/* The info area (ih rows from iy): why the configuration is refused, else about what the
 * cursor is on. */
static void drawInfo(const PaneCtx *ctx, const KernelPane *kp, Rect r, int iy, int ih) {
   const KernelInfo *k = ctx->info;
   Paint_text(ctx->paint, iy, r.x, r.w, "", ST_DIM, true);
   char why[1536] = "", text[3072] = "";
   Style st = ST_NORMAL;
   bool invalid = !Config_check(k, ctx->values, ctx->problem, ctx->device_limits, NULL, why, sizeof why);
   int idx;
   KRowKind kind = PaneCtx_kernelRow(ctx, kp->cursor, &idx);
   if (invalid) {
      snprintf(text, sizeof text, "%s not valid: %s%s", Paint_glyph(ctx->paint, "\xe2\x9c\x97", "x"), why,
               ctx->simulated_note);
      st = ST_BAD;
   } else if (kind == KROW_PARAM) {
      const KernelParam *p = &k->params[idx];
      bool valid[KERNEL_MAX_VALUES];
      Config_validValues(k, ctx->values, ctx->problem, ctx->device_limits, idx, valid);
      char list[512], reason[1536];
      if (unavailableReason(ctx, idx, valid, list, sizeof list, reason, sizeof reason))
         snprintf(text, sizeof text, "%s: %s\nunavailable here: %s %s %s%s", p->name, p->description, list,
                  Draw_dash(ctx->paint), reason, ctx->simulated_note);
      else
         snprintf(text, sizeof text, "%s: %s\nevery value is available here", p->name, p->description);
   } else {
      const KernelInfo *v = &ctx->cat->kernels[idx];
      snprintf(text, sizeof text, "%s: %s", v->name, v->about[0] ? v->about : v->title);
   }
   char buf[4096];
   const char *wl[16];
   int n = Text_wrap(text, r.w - 1, buf, sizeof buf, wl, ih < 16 ? ih : 16);
   for (int i = 0; i < n; i++)
      Paint_text(ctx->paint, iy + 1 + i, r.x + 1, r.w - 1, wl[i], i == 0 || st == ST_BAD ? st : ST_DIM, false);
}

static void drawKernel(const PaneCtx *ctx, void *state) {
   KernelPane *kp = state;
   Rect r = ctx->area;
   const KernelInfo *k = ctx->info;
   Draw_paneTitle(ctx, k->name, NULL);
   int y0 = r.y + 1, h = r.h - 1;
   if (h <= 0)
      return;
   int ih = h >= 16 ? 6 : h >= 11 ? 4 : h >= 8 ? 2 : 0;
   int lh = h - ih - (ih ? 1 : 0);
   static DLine lines[MAX_LINES];
   int nlines = buildLines(ctx, lines);
   scrollToCursor(ctx, kp, lines, nlines, lh);
   int nameW = 8;
   for (int i = 0; i < k->nparams; i++)
      if ((int)strlen(k->params[i].name) + 1 > nameW)
         nameW = (int)strlen(k->params[i].name) + 1;
   for (int li = kp->scroll, y = y0; li < nlines && y < y0 + lh; li++, y++)
      drawLine(ctx, kp, r, &lines[li], y, nameW);
   if (ih)
      drawInfo(ctx, kp, r, y0 + lh, ih);
}

/* ---- its keys ---- */

static bool kernelKey(const PaneCtx *ctx, void *state, int ch) {
   KernelPane *kp = state;
   int rows = PaneCtx_kernelRows(ctx), idx;
   KRowKind kind = PaneCtx_kernelRow(ctx, kp->cursor, &idx);
   int page = PaneCtx_height(ctx) / 2;
   switch (ch) {
   case KEY_UP: case 'k': kp->cursor--; break;
   case KEY_DOWN: case 'j': kp->cursor++; break;
   case KEY_PPAGE: kp->cursor -= page; break;
   case KEY_NPAGE: kp->cursor += page; break;
   case KEY_HOME: kp->cursor = 0; break;
   case KEY_END: kp->cursor = rows - 1; break;
   case KEY_LEFT: case KEY_RIGHT: {
      int dir = ch == KEY_LEFT ? -1 : 1;
      if (kind == KROW_PARAM)
         PaneCtx_stepParam(ctx, idx, dir, false);
      else
         PaneCtx_stepVariant(ctx, dir);
      break;
   }
   case '-': case '+': case '=': case KEY_SLEFT: case KEY_SRIGHT: {
      int dir = ch == '-' || ch == KEY_SLEFT ? -1 : 1;
      if (kind == KROW_PARAM)
         PaneCtx_stepParam(ctx, idx, dir, true);
      else
         PaneCtx_stepVariant(ctx, dir);
      break;
   }
   case '\n': case '\r': case KEY_ENTER:
      if (kind == KROW_VARIANT)
         PaneCtx_selectKernel(ctx, idx, NULL, NULL);
      break;
   default: break;
   }
   if (kp->cursor < 0)
      kp->cursor = 0;
   if (kp->cursor >= rows)
      kp->cursor = rows - 1;
   return true;
}

const PaneClass Kernel_pane = {.state_size = sizeof(KernelPane), .draw = drawKernel, .key = kernelKey};
