/* Drawing the explorer: header, panes, footer. Everything is drawn from the UI state and
 * the worker's last snapshot; nothing here waits or changes the configuration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ablate.h"
#include "core/banks.h"
#include "tui/app.h"
#include "tui/text.h"
#include "core/util.h"

attr_t Ui_attr(const Ui *ui, Style s) {
   if (ui->color) {
      switch (s) {
      case ST_HEADER: return COLOR_PAIR(1);
      case ST_TITLE: return COLOR_PAIR(2) | A_BOLD;
      case ST_TITLE_FOCUS: return COLOR_PAIR(3) | A_BOLD;
      case ST_LABEL: return COLOR_PAIR(4);
      case ST_GOOD: return COLOR_PAIR(5) | A_BOLD;
      case ST_BAD: return COLOR_PAIR(6) | A_BOLD;
      case ST_WARN: return COLOR_PAIR(7);
      case ST_DIM: return A_DIM;
      case ST_KEY: return COLOR_PAIR(1);
      case ST_KEYLABEL: return A_NORMAL;
      case ST_SELECT: return COLOR_PAIR(9) | A_BOLD;
      case ST_CURSOR: return A_REVERSE;
      case ST_BAR: return COLOR_PAIR(8);
      case ST_BAR_BEST: return COLOR_PAIR(5);
      case ST_DIALOG: return A_NORMAL;
      default: return A_NORMAL;
      }
   }
   switch (s) {
   case ST_HEADER: return A_REVERSE;
   case ST_TITLE: return A_BOLD | A_UNDERLINE;
   case ST_TITLE_FOCUS: return A_REVERSE | A_BOLD;
   case ST_GOOD: return A_BOLD;
   case ST_BAD: return A_BOLD;
   case ST_WARN: return A_BOLD;
   case ST_DIM: return A_DIM;
   case ST_KEY: return A_REVERSE;
   case ST_SELECT: return A_REVERSE;
   case ST_CURSOR: return A_BOLD;
   case ST_BAR_BEST: return A_BOLD;
   default: return A_NORMAL;
   }
}

const char *Ui_glyph(const Ui *ui, const char *utf8, const char *ascii) { return ui->utf8 ? utf8 : ascii; }

void Draw_text(Ui *ui, int y, int x, int w, const char *s, Style st, bool pad) {
   if (w <= 0 || y < 0 || y >= ui->rows || x >= ui->cols)
      return;
   if (x + w > ui->cols)
      w = ui->cols - x;
   char buf[2048];
   Text_fit(buf, sizeof buf, s, w, ui->utf8, pad);
   attr_t a = Ui_attr(ui, st);
   attron(a);
   mvaddstr(y, x, buf);
   attroff(a);
}

void Draw_fill(Ui *ui, int y, int x, int w, Style st) { Draw_text(ui, y, x, w, "", st, true); }

void Draw_hit(Ui *ui, Rect r, HitKind kind, int a, int b) {
   if (ui->nhits < UI_MAX_HITS)
      ui->hits[ui->nhits++] = (Hit){r, kind, a, b};
}

void Draw_box(Ui *ui, Rect r, const char *title) {
   const char *h = Ui_glyph(ui, "\xe2\x94\x80", "-"), *v = Ui_glyph(ui, "\xe2\x94\x82", "|");
   const char *c[4] = {Ui_glyph(ui, "\xe2\x94\x8c", "+"), Ui_glyph(ui, "\xe2\x94\x90", "+"),
                       Ui_glyph(ui, "\xe2\x94\x94", "+"), Ui_glyph(ui, "\xe2\x94\x98", "+")};
   for (int y = r.y; y < r.y + r.h; y++)
      Draw_fill(ui, y, r.x, r.w, ST_DIALOG);
   for (int x = r.x + 1; x < r.x + r.w - 1; x++) {
      mvaddstr(r.y, x, h);
      mvaddstr(r.y + r.h - 1, x, h);
   }
   for (int y = r.y + 1; y < r.y + r.h - 1; y++) {
      mvaddstr(y, r.x, v);
      mvaddstr(y, r.x + r.w - 1, v);
   }
   mvaddstr(r.y, r.x, c[0]);
   mvaddstr(r.y, r.x + r.w - 1, c[1]);
   mvaddstr(r.y + r.h - 1, r.x, c[2]);
   mvaddstr(r.y + r.h - 1, r.x + r.w - 1, c[3]);
   if (title && *title) {
      char t[256];
      snprintf(t, sizeof t, " %s ", title);
      Draw_text(ui, r.y, r.x + 2, r.w - 4, t, ST_TITLE_FOCUS, false);
   }
}

/* ---- formatting ---- */

static void fmtTime(const Ui *ui, double ms, char *out, size_t n) {
   if (!(ms > 0))
      snprintf(out, n, "%s", Ui_glyph(ui, "\xe2\x80\x94", "-"));
   else if (ms >= 1000)
      snprintf(out, n, "%.3f s", ms / 1000);
   else if (ms >= 100)
      snprintf(out, n, "%.1f ms", ms);
   else if (ms >= 1)
      snprintf(out, n, "%.3f ms", ms);
   else
      snprintf(out, n, "%.1f %s", ms * 1000, Ui_glyph(ui, "\xc2\xb5s", "us"));
}

static void fmtBytes(long long b, char *out, size_t n) {
   if (b < 0)
      snprintf(out, n, "?");
   else if (b < 1024)
      snprintf(out, n, "%lld B", b);
   else if (b < 1024 * 1024)
      snprintf(out, n, "%.1f KiB", b / 1024.0);
   else
      snprintf(out, n, "%.1f MiB", b / 1048576.0);
}

static void fmtRate(double v, const char *unit, char *out, size_t n) {
   if (v >= 100)
      snprintf(out, n, "%.0f %s", v, unit);
   else if (v >= 10)
      snprintf(out, n, "%.1f %s", v, unit);
   else
      snprintf(out, n, "%.2f %s", v, unit);
}

static const char *dash(const Ui *ui) { return Ui_glyph(ui, "\xe2\x80\x94", "-"); }

static const char *spinner(const Ui *ui) {
   static const char *braille[] = {"\xe2\xa0\x8b", "\xe2\xa0\x99", "\xe2\xa0\xb9", "\xe2\xa0\xb8", "\xe2\xa0\xbc",
                                   "\xe2\xa0\xb4", "\xe2\xa0\xa6", "\xe2\xa0\xa7", "\xe2\xa0\x87", "\xe2\xa0\x8f"};
   static const char *ascii[] = {"|", "/", "-", "\\"};
   return ui->utf8 ? braille[ui->frame % 10] : ascii[ui->frame % 4];
}

static bool sameProblem(const Problem *a, const Problem *b) {
   return a->m == b->m && a->n == b->n && a->k == b->k && a->precision == b->precision && a->trans_a == b->trans_a &&
          a->trans_b == b->trans_b && a->alpha == b->alpha && a->beta == b->beta;
}

/* Whether the snapshot describes the configuration now chosen. */
static bool snapIsCurrent(const Ui *ui) {
   const WorkerSnapshot *s = &ui->snap;
   return s->have_config && !strcmp(s->config.kernel, Ui_kernel(ui)->name) &&
          !memcmp(s->config.values, ui->values, sizeof ui->values) && sameProblem(&s->config.problem, &ui->problem) &&
          s->config.ablate == ui->ablate;
}

static Style stateStyle(const Ui *ui) {
   switch (ui->snap.state) {
   case WS_NO_DEVICE: return ST_BAD;
   case WS_STOPPED: return ui->snap.status == RUN_INVALID ? ST_WARN : ST_BAD;
   case WS_PAUSED: return ST_WARN;
   case WS_MEASURING: return ST_GOOD;
   default: return ST_NORMAL;
   }
}

/* "⠋ compiling", "● measuring", "❚❚ paused". */
static void stateText(const Ui *ui, char *out, size_t n) {
   const WorkerSnapshot *s = &ui->snap;
   bool stale = !snapIsCurrent(ui) && s->state != WS_NO_DEVICE && s->state != WS_OPENING && s->state != WS_STARTING;
   if (stale && ui->paused && s->state == WS_PAUSED)
      snprintf(out, n, "%s paused", Ui_glyph(ui, "\xe2\x9d\x9a\xe2\x9d\x9a", "||"));
   else if (stale)
      snprintf(out, n, "%s waiting", spinner(ui));
   else if (s->state == WS_PAUSED)
      snprintf(out, n, "%s paused", Ui_glyph(ui, "\xe2\x9d\x9a\xe2\x9d\x9a", "||"));
   else if (s->state == WS_STOPPED)
      snprintf(out, n, "%s %s", Ui_glyph(ui, "\xe2\x9c\x97", "x"), RunStatus_name(s->status));
   else if (s->state == WS_NO_DEVICE)
      snprintf(out, n, "%s no device", Ui_glyph(ui, "\xe2\x9c\x97", "x"));
   else
      snprintf(out, n, "%s %s", spinner(ui), WorkerState_name(s->state));
}

/* ---- header and footer ---- */

static void drawHeader(Ui *ui) {
   Rect r = ui->layout.header;
   const DeviceInfo *d = Ui_deviceInfo(ui);
   char left[512], right[256] = "";
   Draw_fill(ui, r.y, 0, r.w, ST_HEADER);
   if (d)
      snprintf(left, sizeof left, " gemmtop  %s  %s %s %s, %u CU", d->name, ui->snap.have_device ? ui->snap.backend : ui->backend,
               Ui_glyph(ui, "\xc2\xb7", "-"), DeviceType_name(d->type), d->compute_units);
   else
      snprintf(left, sizeof left, " gemmtop  (no device)");
   const Peaks *pk = &ui->snap.peaks;
   if (ui->snap.have_device && pk->known)
      snprintf(right, sizeof right, "peak FP32 %.0f FP64 %.0f GFLOPS, %.0f GB/s ", pk->fp32_gflops, pk->fp64_gflops,
               pk->copy_gbps);
   else if (ui->snap.have_device)
      snprintf(right, sizeof right, "peaks not measured (F6) ");
   int rw = Text_width(right);
   if (rw > r.w - Text_width(left) - 2)
      rw = 0;
   Draw_text(ui, r.y, 0, r.w - rw, left, ST_HEADER, false);
   if (rw)
      Draw_text(ui, r.y, r.w - rw, rw, right, ST_HEADER, false);

   const Problem *p = &ui->problem;
   char lay[3];
   Problem_layoutName(p, lay);
   snprintf(left, sizeof left, " M=%d N=%d K=%d  %s  %s  %s=%g %s=%g", p->m, p->n, p->k, Precision_name(p->precision), lay,
            Ui_glyph(ui, "\xce\xb1", "alpha"), p->alpha, Ui_glyph(ui, "\xce\xb2", "beta"), p->beta);
   Draw_text(ui, r.y + 1, 0, r.w, left, ST_NORMAL, true);
   stateText(ui, right, sizeof right);
   rw = Text_width(right) + 1;
   if (rw < r.w - Text_width(left) - 1)
      Draw_text(ui, r.y + 1, r.w - rw, rw, right, stateStyle(ui), false);
}

typedef struct FKey_ {
   const char *key, *label;
} FKey;

static void drawFooter(Ui *ui) {
   Rect r = ui->layout.footer;
   Draw_fill(ui, r.y, 0, r.w, ST_NORMAL);
   if (ui->flash[0]) {
      Draw_text(ui, r.y, 0, r.w, ui->flash, ui->flash_style, true);
      return;
   }
   FKey keys[] = {{"F1", "Help"}, {"F2", "Setup"}, {"F3", "Load"},  {"F4", "Save"},
                  {"F5", "Reload"}, {"F6", "Peak"}, {"F7", "BLAS"}, {"F8", ui->paused ? "Resume" : "Pause"},
                  {"F9", "Cancel"}, {"F10", "Quit"}};
   int x = 0, n = (int)(sizeof keys / sizeof keys[0]);
   for (int i = 0; i < n; i++) {
      int kw = (int)strlen(keys[i].key), lw = (int)strlen(keys[i].label);
      /* Quit always shows: skip others rather than it. */
      int reserve = i < n - 1 ? 3 + 4 + 1 : 0;
      if (x + kw + lw + reserve > r.w)
         continue;
      Draw_text(ui, r.y, x, kw, keys[i].key, ST_KEY, false);
      Draw_text(ui, r.y, x + kw, lw, keys[i].label, ST_KEYLABEL, false);
      x += kw + lw + 1;
   }
   if (ui->layout.dropped) {
      char t[64] = " no room:";
      for (int p = 0; p < PANE_COUNT; p++)
         if (ui->layout.dropped & PANE_BIT(p))
            snprintf(t + strlen(t), sizeof t - strlen(t), " %d", Layout_paneKey(p));
      int tw = (int)strlen(t) + 1;
      if (x + tw <= r.w)
         Draw_text(ui, r.y, r.w - tw, tw, t, ST_DIM, false);
   }
}

void Draw_paneTitle(Ui *ui, PaneId p, const char *extra, const char *right) {
   Rect r = ui->layout.pane[p];
   Style st = ui->focus == (int)p ? ST_TITLE_FOCUS : ST_TITLE;
   char t[512];
   snprintf(t, sizeof t, " %d %s%s%s", Layout_paneKey(p), Layout_paneName(p), extra && *extra ? "  " : "", extra ? extra : "");
   Draw_fill(ui, r.y, r.x, r.w, st);
   int rw = right ? Text_width(right) + 1 : 0;
   if (rw > r.w / 2)
      rw = 0;
   Draw_text(ui, r.y, r.x, r.w - rw, t, st, false);
   if (rw)
      Draw_text(ui, r.y, r.x + r.w - rw, rw, right, st, false);
   Draw_hit(ui, r, HIT_PANE, p, 0);
}

static void drawTitle(Ui *ui, PaneId p, const char *extra, const char *right) { Draw_paneTitle(ui, p, extra, right); }

/* ---- kernel pane ---- */

typedef enum { DL_PICK, DL_PARAM, DL_SEP, DL_LADDER, DL_VARIANT } DLKind;
typedef struct DLine_ {
   DLKind kind;
   int row;     /* selectable row, -1 for none */
   int index;   /* parameter or catalog index */
} DLine;

/* The reason the nearest unavailable value of parameter pi is refused. */
static bool unavailableReason(const Ui *ui, int pi, const bool *valid, char *list, size_t listlen, char *why,
                              size_t whylen) {
   const KernelInfo *k = Ui_kernel(ui);
   const KernelParam *p = &k->params[pi];
   int cur = -1, nearest = -1;
   for (int i = 0; i < p->nvalues; i++)
      if (p->values[i] == ui->values[pi])
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
   memcpy(v, ui->values, sizeof v);
   v[pi] = p->values[nearest];
   Config_check(k, v, &ui->problem, Ui_limits(ui), NULL, why, whylen);
   return true;
}

static void drawKernel(Ui *ui) {
   Rect r = ui->layout.pane[PANE_KERNEL];
   const KernelInfo *k = Ui_kernel(ui);
   drawTitle(ui, PANE_KERNEL, k->name, NULL);
   int y0 = r.y + 1, h = r.h - 1;
   if (h <= 0)
      return;
   int ih = h >= 16 ? 6 : h >= 11 ? 4 : h >= 8 ? 2 : 0;
   int lh = h - ih - (ih ? 1 : 0);

   /* Display lines. */
   int nlines = 0, cap = 3 + k->nparams + 2 * ui->nlist;
   DLine lines[3 + KERNEL_MAX_PARAMS + 2 * 512];
   if (cap > (int)(sizeof lines / sizeof lines[0]))
      cap = (int)(sizeof lines / sizeof lines[0]);
   lines[nlines++] = (DLine){DL_PICK, 0, ui->kernel};
   for (int i = 0; i < k->nparams && nlines < cap; i++)
      lines[nlines++] = (DLine){DL_PARAM, 1 + i, i};
   if (nlines < cap)
      lines[nlines++] = (DLine){DL_SEP, -1, 0};
   const char *ladder = NULL;
   for (int i = 0; i < ui->nlist && nlines < cap - 1; i++) {
      const KernelInfo *v = &ui->cat.kernels[ui->list[i]];
      if (!ladder || strcmp(ladder, v->ladder)) {
         ladder = v->ladder;
         lines[nlines++] = (DLine){DL_LADDER, -1, ui->list[i]};
      }
      lines[nlines++] = (DLine){DL_VARIANT, 1 + k->nparams + i, ui->list[i]};
   }
   int cl = 0;
   for (int i = 0; i < nlines; i++)
      if (lines[i].row == ui->kcursor)
         cl = i;
   /* Keep the cursor in view, and the ladder title above the first variant. */
   if (cl < ui->kscroll)
      ui->kscroll = cl > 0 && lines[cl - 1].kind == DL_LADDER ? cl - 1 : cl;
   if (cl >= ui->kscroll + lh)
      ui->kscroll = cl - lh + 1;
   if (ui->kscroll > nlines - lh)
      ui->kscroll = nlines - lh;
   if (ui->kscroll < 0)
      ui->kscroll = 0;

   int nameW = 8;
   for (int i = 0; i < k->nparams; i++)
      if ((int)strlen(k->params[i].name) + 1 > nameW)
         nameW = (int)strlen(k->params[i].name) + 1;
   const char *mark = Ui_glyph(ui, "\xe2\x96\xb6", ">");
   bool kfocus = ui->focus == PANE_KERNEL;
   for (int li = ui->kscroll, y = y0; li < nlines && y < y0 + lh; li++, y++) {
      const DLine *d = &lines[li];
      bool cursor = d->row >= 0 && d->row == ui->kcursor;
      Style base = cursor && kfocus ? ST_CURSOR : ST_NORMAL;
      Draw_fill(ui, y, r.x, r.w, base);
      if (cursor)
         Draw_text(ui, y, r.x, 1, mark, base, false);
      if (d->row >= 0)
         Draw_hit(ui, (Rect){r.x, y, r.w, 1}, HIT_ROW, d->row, 0);
      int x = r.x + 2, w = r.w - 2;
      char t[512];
      switch (d->kind) {
      case DL_PICK:
         Draw_text(ui, y, x, nameW, "variant", cursor && kfocus ? base : ST_LABEL, false);
         snprintf(t, sizeof t, "%s %d %s %s", Ui_glyph(ui, "\xe2\x97\x80", "<"), k->step, k->title,
                  Ui_glyph(ui, "\xe2\x96\xb6", ">"));
         Draw_text(ui, y, x + nameW, w - nameW, t, base, false);
         break;
      case DL_PARAM: {
         const KernelParam *p = &k->params[d->index];
         Draw_text(ui, y, x, nameW, p->name, cursor && kfocus ? base : ST_LABEL, false);
         bool valid[KERNEL_MAX_VALUES];
         Config_validValues(k, ui->values, &ui->problem, Ui_limits(ui), d->index, valid);
         int cur = 0;
         for (int i = 0; i < p->nvalues; i++)
            if (p->values[i] == ui->values[d->index])
               cur = i;
         /* A window of values around the current one when they do not all fit. */
         int avail = w - nameW, widths[KERNEL_MAX_VALUES], total = 0;
         for (int i = 0; i < p->nvalues; i++) {
            widths[i] = snprintf(t, sizeof t, "%lld", p->values[i]) + 1;
            total += widths[i];
         }
         int first = 0, last = p->nvalues - 1;
         while (total > avail - 2 && last > first) {
            if (cur - first > last - cur)
               total -= widths[first++];
            else
               total -= widths[last--];
         }
         int vx = x + nameW;
         if (first > 0)
            Draw_text(ui, y, vx++, 1, Ui_glyph(ui, "\xe2\x80\xa6", "<"), ST_DIM, false);
         for (int i = first; i <= last; i++) {
            snprintf(t, sizeof t, "%lld", p->values[i]);
            Style st = i == cur ? ST_SELECT : !valid[i] ? ST_DIM : base;
            if (i == cur && !valid[i])
               st = ST_BAD;
            int tw = (int)strlen(t);
            if (i == cur && !ui->color) {
               /* Without colour the current value is bracketed. */
               char b[64];
               snprintf(b, sizeof b, "[%s]", t);
               Draw_text(ui, y, vx - 1, tw + 2, b, st, false);
            } else {
               Draw_text(ui, y, vx, tw, t, st, false);
            }
            Draw_hit(ui, (Rect){vx, y, tw, 1}, HIT_VALUE, d->index, i);
            vx += tw + 1;
         }
         if (last < p->nvalues - 1)
            Draw_text(ui, y, vx, 1, Ui_glyph(ui, "\xe2\x80\xa6", ">"), ST_DIM, false);
         break;
      }
      case DL_SEP: {
         /* "── variants (Enter picks) ─────" to the pane's edge. */
         const char *hl = Ui_glyph(ui, "\xe2\x94\x80", "-");
         int o = snprintf(t, sizeof t, "%s%s variants (Enter picks) ", hl, hl);
         for (int c = Text_width(t); c < r.w && o + 4 < (int)sizeof t; c++)
            o += snprintf(t + o, sizeof t - (size_t)o, "%s", hl);
         Draw_text(ui, y, r.x, r.w, t, ST_DIM, false);
         break;
      }
      case DL_LADDER:
         snprintf(t, sizeof t, "%s", ui->cat.kernels[d->index].ladder);
         Draw_text(ui, y, r.x + 1, r.w - 1, t, ST_LABEL, false);
         break;
      case DL_VARIANT: {
         const KernelInfo *v = &ui->cat.kernels[d->index];
         bool current = d->index == ui->kernel;
         snprintf(t, sizeof t, "%s %2d %s", current ? Ui_glyph(ui, "\xe2\x97\x8f", "*") : " ", v->step, v->title);
         Draw_text(ui, y, x, w, t, current && !(cursor && kfocus) ? ST_GOOD : base, false);
         Draw_hit(ui, (Rect){r.x, y, r.w, 1}, HIT_VARIANT, d->index, d->row);
         break;
      }
      }
   }
   if (!ih)
      return;

   /* The info area: why the configuration is refused, else about what the cursor is on. */
   int iy = y0 + lh;
   Draw_text(ui, iy, r.x, r.w, "", ST_DIM, true);
   char why[1536] = "", text[3072] = "";
   Style st = ST_NORMAL;
   bool invalid = !Config_check(k, ui->values, &ui->problem, Ui_limits(ui), NULL, why, sizeof why);
   int idx;
   KRowKind kind = Ui_kernelRow(ui, ui->kcursor, &idx);
   if (invalid) {
      snprintf(text, sizeof text, "%s not valid: %s", Ui_glyph(ui, "\xe2\x9c\x97", "x"), why);
      st = ST_BAD;
   } else if (kind == KROW_PARAM) {
      const KernelParam *p = &k->params[idx];
      bool valid[KERNEL_MAX_VALUES];
      Config_validValues(k, ui->values, &ui->problem, Ui_limits(ui), idx, valid);
      char list[512], reason[1536];
      if (unavailableReason(ui, idx, valid, list, sizeof list, reason, sizeof reason))
         snprintf(text, sizeof text, "%s: %s\nunavailable here: %s %s %s", p->name, p->description, list, dash(ui),
                  reason);
      else
         snprintf(text, sizeof text, "%s: %s\nevery value is available here", p->name, p->description);
   } else {
      const KernelInfo *v = &ui->cat.kernels[idx];
      snprintf(text, sizeof text, "%s: %s", v->name, v->about[0] ? v->about : v->title);
   }
   char buf[4096];
   const char *wl[16];
   int n = Text_wrap(text, r.w - 1, buf, sizeof buf, wl, ih < 16 ? ih : 16);
   for (int i = 0; i < n; i++)
      Draw_text(ui, iy + 1 + i, r.x + 1, r.w - 1, wl[i], i == 0 || st == ST_BAD ? st : ST_DIM, false);
}

/* ---- results pane ---- */

typedef struct RLine_ {
   const char *label;
   char text[1600];
   Style st;
} RLine;

static void drawResults(Ui *ui) {
   Rect r = ui->layout.pane[PANE_RESULTS];
   const WorkerSnapshot *s = &ui->snap;
   char state[256];
   stateText(ui, state, sizeof state);
   drawTitle(ui, PANE_RESULTS, NULL, state);
   int h = r.h - 1;
   if (h <= 0)
      return;
   static RLine L[24];
   int n = 0;
   bool current = snapIsCurrent(ui);
   const KernelInfo *k = Ui_kernel(ui);
   char params[512];
   KernelInfo_formatParams(k, ui->values, params, sizeof params);
   if (ui->ablate) {
      char names[64];
      Ablate_name(ui->ablate, names, sizeof names);
      L[n] = (RLine){"ABLATED", "", ST_WARN};
      snprintf(L[n++].text, sizeof L[0].text, "%s: work switched off, not verified, not a GEMM (a: next)", names);
   }
   L[n] = (RLine){"config", "", ST_NORMAL};
   snprintf(L[n++].text, sizeof L[0].text, "%s %s", Ui_shortName(k), params);
   bool failed = current && s->have_result && s->nwindow == 0 && s->status != RUN_OK && s->status != RUN_CANCELLED;

   if (!s->have_device) {
      L[n] = (RLine){"status", "", s->state == WS_NO_DEVICE ? ST_BAD : ST_NORMAL};
      snprintf(L[n++].text, sizeof L[0].text, "%s", s->activity[0] ? s->activity : "opening the device");
   } else if (!current) {
      L[n] = (RLine){"status", "", ST_NORMAL};
      snprintf(L[n++].text, sizeof L[0].text, "%s", ui->paused ? "paused: space measures it" : "starting...");
   } else if (failed) {
      L[n] = (RLine){"status", "", s->status == RUN_INVALID ? ST_WARN : ST_BAD};
      snprintf(L[n++].text, sizeof L[0].text, "%s%s", s->status == RUN_INVALID ? "not run: " : RunStatus_name(s->status),
               s->status == RUN_COMPILE_ERROR ? " (the compiler's messages are in the log)" : s->status == RUN_INVALID ? s->message : "");
      if (s->status != RUN_INVALID) {
         L[n] = (RLine){"", "", ST_BAD};
         snprintf(L[n++].text, sizeof L[0].text, "%s", s->message);
      }
   } else {
      L[n] = (RLine){"status", "", stateStyle(ui)};
      if (s->nwindow)
         snprintf(L[n++].text, sizeof L[0].text, "%s: %ld launches, window %d", WorkerState_name(s->state),
                  s->launches, s->nwindow);
      else
         snprintf(L[n++].text, sizeof L[0].text, "%s", s->activity);
   }
   if (current && s->nwindow) {
      /* min and max in the median's unit, which is said once. */
      double scale = s->median_ms >= 1000 ? 1e-3 : s->median_ms >= 1 ? 1 : 1e3;
      const char *unit = s->median_ms >= 1000 ? "s" : s->median_ms >= 1 ? "ms" : Ui_glyph(ui, "\xc2\xb5s", "us");
      L[n] = (RLine){"time", "", ST_NORMAL};
      snprintf(L[n++].text, sizeof L[0].text, "%.4g %s median  min %.4g  spread %.1f%%  max %.4g",
               s->median_ms * scale, unit, s->min_ms * scale, s->spread_pct, s->max_ms * scale);
      char gf[32], gb[32], gc[32];
      fmtRate(s->gflops, "GFLOPS", gf, sizeof gf);
      fmtRate(s->gbps, "GB/s", gb, sizeof gb);
      fmtRate(s->median_ms > 0 ? Ablate_coreBytes(&s->config.problem) / (s->median_ms * 1e6) : 0, "GB/s", gc,
              sizeof gc);
      L[n] = (RLine){"speed", "", ui->ablate || s->geo.emulated ? ST_WARN : ST_GOOD};
      snprintf(L[n++].text, sizeof L[0].text, "%s   %s global   %s to the cores%s", gf, gb, gc,
               s->geo.emulated ? "   [emulated]" : "");
   } else if (!failed) {
      L[n] = (RLine){"time", "", ST_DIM};
      snprintf(L[n++].text, sizeof L[0].text, "%s", dash(ui));
      L[n] = (RLine){"speed", "", ST_DIM};
      snprintf(L[n++].text, sizeof L[0].text, "%s", dash(ui));
   }
   /* Percentages only from measured references: never guessed; an emulated tensor kernel
    * (no tensor cores here) is compared with nothing. */
   const KernelInfo *shown = Catalog_find(&ui->cat, s->config.kernel);
   const bool tensor = shown && shown->tensor, emulated = current && s->geo.emulated;
   double peak = Peaks_for(&s->peaks, ui->problem.precision, tensor, false);
   L[n] = (RLine){"peak", "", ST_NORMAL};
   char pk[32];
   fmtRate(peak, "GFLOPS", pk, sizeof pk);
   if (current && ui->ablate)
      snprintf(L[n++].text, sizeof L[0].text, "%s  (ablated: not compared)", dash(ui));
   else if (emulated)
      snprintf(L[n++].text, sizeof L[0].text, "%s  (emulated tensor instructions: not compared)", dash(ui));
   else if (current && s->nwindow && s->peaks.known && peak > 0)
      snprintf(L[n++].text, sizeof L[0].text, "%.1f%% of the measured %s peak (%s)", 100 * s->gflops / peak,
               Peaks_label(ui->problem.precision, tensor), pk);
   else if (!s->peaks.known)
      snprintf(L[n++].text, sizeof L[0].text, "%s  (not measured yet: F6 or m)", dash(ui));
   else
      snprintf(L[n++].text, sizeof L[0].text, "%s", dash(ui));
   L[n] = (RLine){"BLAS", "", ST_NORMAL};
   bool vendorHere = s->vendor_done && sameProblem(&s->vendor_problem, &ui->problem);
   char vg[32];
   fmtRate(s->vendor.gflops, "GFLOPS", vg, sizeof vg);
   if (current && ui->ablate)
      snprintf(L[n++].text, sizeof L[0].text, "%s  (ablated: not compared)", dash(ui));
   else if (emulated)
      snprintf(L[n++].text, sizeof L[0].text, "%s  (emulated tensor instructions: not compared)", dash(ui));
   else if (vendorHere && s->vendor.status == RUN_OK && current && s->nwindow && s->vendor.gflops > 0)
      snprintf(L[n++].text, sizeof L[0].text, "%.1f%% of %s (%s)", 100 * s->gflops / s->vendor.gflops,
               s->vendor.name, vg);
   else if (vendorHere && s->vendor.status == RUN_OK)
      snprintf(L[n++].text, sizeof L[0].text, "%s  (%s: %s)", dash(ui), s->vendor.name, vg);
   else if (vendorHere)
      snprintf(L[n++].text, sizeof L[0].text, "%s  (%s)", dash(ui), s->vendor.message);
   else if (s->state == WS_VENDOR)
      snprintf(L[n++].text, sizeof L[0].text, "%s  (timing the vendor library...)", dash(ui));
   else
      snprintf(L[n++].text, sizeof L[0].text, "%s", dash(ui));
   L[n] = (RLine){"verify", "", ST_NORMAL};
   if (current && ui->ablate && s->have_result && !failed) {
      L[n].st = ST_WARN;
      snprintf(L[n++].text, sizeof L[0].text, "ablated (not verified)");
   } else if (current && s->verified_run) {
      L[n].st = s->verify.ok ? ST_GOOD : ST_BAD;
      snprintf(L[n++].text, sizeof L[0].text, "%s %s", s->verify.ok ? Ui_glyph(ui, "\xe2\x9c\x93", "ok") : Ui_glyph(ui, "\xe2\x9c\x97", "FAILED"),
               s->verify.message);
   } else {
      L[n].st = ST_DIM;
      snprintf(L[n++].text, sizeof L[0].text, "%s", failed ? dash(ui) : "pending");
   }
   if (current && (s->compile_ms > 0 || s->cached)) {
      L[n] = (RLine){"compile", "", ST_NORMAL};
      if (s->cached_memory)
         snprintf(L[n++].text, sizeof L[0].text, "cached (compiled earlier in this session)");
      else if (s->cached)
         snprintf(L[n++].text, sizeof L[0].text, "cached (disk%s, loaded in %.0f ms)",
                  AheadUi_compiledAhead(ui) ? ", compiled ahead" : "", s->compile_ms);
      else
         snprintf(L[n++].text, sizeof L[0].text, "%.0f ms", s->compile_ms);
   } else if (current && s->state == WS_COMPILING) {
      L[n] = (RLine){"compile", "", ST_NORMAL};
      snprintf(L[n++].text, sizeof L[0].text, "%s compiling...", spinner(ui));
   }
   L[n] = (RLine){"ahead", "", ST_DIM};
   AheadUi_describe(ui, L[n++].text, sizeof L[0].text);
   if (current && (s->registers >= 0 || s->private_mem >= 0 || s->local_mem >= 0)) {
      char pm[32], lm[32], rg[32];
      fmtBytes(s->private_mem, pm, sizeof pm);
      fmtBytes(s->local_mem, lm, sizeof lm);
      if (s->registers >= 0)
         snprintf(rg, sizeof rg, "%d", s->registers);
      else
         snprintf(rg, sizeof rg, "%s", dash(ui));
      L[n] = (RLine){"build", "", ST_NORMAL};
      snprintf(L[n++].text, sizeof L[0].text, "registers %s  local %s  private %s", rg, lm, pm);
   }
   if (current && s->geo.dims > 0) {
      L[n] = (RLine){"launch", "", ST_NORMAL};
      if (s->geo.dims == 1)
         snprintf(L[n].text, sizeof L[0].text, "global %zu  local %zu", s->geo.global[0], s->geo.local[0]);
      else
         snprintf(L[n].text, sizeof L[0].text, "global %zux%zu  local %zux%zu", s->geo.global[0], s->geo.global[1],
                  s->geo.local[0], s->geo.local[1]);
      if (s->geo.pad)
         snprintf(L[n].text + strlen(L[n].text), sizeof L[0].text - strlen(L[n].text), "  padded to %dx%dx%d",
                  s->geo.m, s->geo.n, s->geo.k);
      n++;
   }
   if (current && s->nhelpers > 0) {
      L[n] = (RLine){"helpers", "", ST_NORMAL};
      for (int i = 0; i < s->nhelpers; i++) {
         char t[32];
         fmtTime(ui, s->helpers[i].median_ms, t, sizeof t);
         snprintf(L[n].text + strlen(L[n].text), sizeof L[0].text - strlen(L[n].text), "%s%s %s", i ? ", " : "",
                  s->helpers[i].what, t);
      }
      n++;
   }
   int lw = 9, y = r.y + 1;
   for (int i = 0; i < n && y < r.y + r.h; i++) {
      Draw_fill(ui, y, r.x, r.w, ST_NORMAL);
      Draw_text(ui, y, r.x + 1, lw - 1, L[i].label, ST_LABEL, false);
      /* Failure messages wrap; the rest is one line each. */
      if (L[i].st == ST_BAD || L[i].st == ST_WARN) {
         char buf[4096];
         const char *wl[8];
         int room = r.y + r.h - y;
         int nw = Text_wrap(L[i].text, r.w - lw - 1, buf, sizeof buf, wl, room < 4 ? room : 4);
         for (int j = 0; j < nw; j++, y++)
            Draw_text(ui, y, r.x + lw, r.w - lw - 1, wl[j], L[i].st, false);
      } else {
         Draw_text(ui, y, r.x + lw, r.w - lw - 1, L[i].text, L[i].st, false);
         y++;
      }
   }
}

/* ---- history pane ---- */

static void historyLabel(const Ui *ui, const HistoryEntry *e, char *out, size_t n) {
   const KernelInfo *k = Catalog_find(&ui->cat, e->kernel);
   char abl[64] = "";
   if (e->ablate) {
      char names[48];
      Ablate_name(e->ablate, names, sizeof names);
      snprintf(abl, sizeof abl, "ABLATED %s: ", names);
   }
   snprintf(out, n, "%s%s %s", abl, k ? Ui_shortName(k) : e->kernel, e->params);
   if (!sameProblem(&e->problem, &ui->problem)) {
      char lay[3];
      Problem_layoutName(&e->problem, lay);
      snprintf(out + strlen(out), n - strlen(out), " @%dx%dx%d%s%s", e->problem.m, e->problem.n, e->problem.k,
               e->problem.precision == PRECISION_DOUBLE ? " dbl" : "", strcmp(lay, "NN") ? lay : "");
   }
}

static void drawHistory(Ui *ui) {
   Rect r = ui->layout.pane[PANE_HISTORY];
   const WorkerSnapshot *s = &ui->snap;
   drawTitle(ui, PANE_HISTORY, "GFLOPS per configuration", NULL);
   int h = r.h - 1;
   if (h <= 0)
      return;
   int sparkRows = h >= 8 ? 2 : 1;
   int rows = h - sparkRows;
   const History *H = &ui->hist;
   /* Which entry is the configuration now measured. */
   int curIdx = -1;
   if (s->have_config) {
      HistoryEntry probe;
      memset(&probe, 0, sizeof probe);
      Util_copy(probe.backend, sizeof probe.backend, s->backend);
      probe.device = s->device_index;
      Util_copy(probe.kernel, sizeof probe.kernel, s->config.kernel);
      memcpy(probe.values, s->config.values, sizeof probe.values);
      const KernelInfo *k = Catalog_find(&ui->cat, s->config.kernel);
      probe.nvalues = k ? k->nparams : 0;
      probe.problem = s->config.problem;
      probe.ablate = s->config.ablate;
      curIdx = History_find(H, &probe);
   }
   int sel = ui->hist_cursor >= 0 ? ui->hist_cursor : curIdx;
   if (H->count == 0 && rows > 0) {
      Draw_text(ui, r.y + 1, r.x + 1, r.w - 1, "each configuration measured appears here", ST_DIM, false);
   } else if (rows > 0) {
      if (sel >= 0 && sel < ui->hist_scroll)
         ui->hist_scroll = sel;
      if (sel >= ui->hist_scroll + rows)
         ui->hist_scroll = sel - rows + 1;
      if (ui->hist_cursor < 0 && curIdx < 0)
         ui->hist_scroll = H->count - rows;
      if (ui->hist_scroll > H->count - rows)
         ui->hist_scroll = H->count - rows;
      if (ui->hist_scroll < 0)
         ui->hist_scroll = 0;
      int best = History_best(H);
      double max = History_maxGflops(H);
      /* Labels as wide as the longest, leaving a bar of at least 8 cells. */
      int lw = 8;
      for (int i = 0; i < H->count; i++) {
         char lab[256];
         historyLabel(ui, &H->items[i], lab, sizeof lab);
         if (Text_width(lab) > lw)
            lw = Text_width(lab);
      }
      if (lw > r.w - 2 - 1 - 11 - 8)
         lw = r.w - 2 - 1 - 11 - 8;
      int vw = 11, bw = r.w - 2 - lw - 1 - vw;
      for (int i = ui->hist_scroll, y = r.y + 1; i < H->count && y < r.y + 1 + rows; i++, y++) {
         const HistoryEntry *e = &H->items[i];
         bool isSel = i == sel && ui->focus == PANE_HISTORY;
         Style base = isSel ? ST_CURSOR : ST_NORMAL;
         Draw_fill(ui, y, r.x, r.w, base);
         char lab[256], val[32], bar[512];
         historyLabel(ui, e, lab, sizeof lab);
         const char *m = i == curIdx ? Ui_glyph(ui, "\xe2\x96\xb6", ">") : i == best ? "*" : " ";
         Draw_text(ui, y, r.x, 1, m, i == best ? ST_GOOD : base, false);
         Draw_text(ui, y, r.x + 1, lw, lab, i == curIdx && !isSel ? ST_LABEL : base, true);
         Draw_hit(ui, (Rect){r.x, y, r.w, 1}, HIT_HISTORY, i, 0);
         if (e->state == HIST_FAILED || e->gflops <= 0) {
            Draw_text(ui, y, r.x + 2 + lw, bw + vw, e->why, ST_BAD, false);
            continue;
         }
         if (bw > 0) {
            Chart_bar(bar, sizeof bar, max > 0 ? e->gflops / max : 0, bw, ui->bars);
            Draw_text(ui, y, r.x + 2 + lw, bw, bar, i == best ? ST_BAR_BEST : ST_BAR, false);
         }
         char num[24];
         fmtRate(e->gflops, "", num, sizeof num);
         /* A wrong result keeps its speed, marked: it is not a candidate. */
         snprintf(val, sizeof val, "%s%s", e->state == HIST_NOT_VERIFIED ? Ui_glyph(ui, "\xe2\x9c\x97 ", "x ") : "",
                  num);
         Draw_text(ui, y, r.x + r.w - vw, vw, val, e->state == HIST_NOT_VERIFIED ? ST_BAD : base, false);
      }
   }
   /* The sparkline: GFLOPS of each recent launch of the current configuration. */
   int sy = r.y + 1 + (rows > 0 ? rows : 0);
   bool have = snapIsCurrent(ui) && s->nwindow > 0;
   double gf[WORKER_WINDOW], lo = 0, hi = 0;
   int n = 0;
   for (int i = 0; have && i < s->nwindow; i++)
      if (s->window[i] > 0) {
         gf[n] = Problem_flops(&s->config.problem) / (s->window[i] * 1e6);
         lo = n == 0 || gf[n] < lo ? gf[n] : lo;
         hi = n == 0 || gf[n] > hi ? gf[n] : hi;
         n++;
      }
   char range[64], a[24], b[24];
   fmtRate(lo, "", a, sizeof a);
   fmtRate(hi, "", b, sizeof b);
   if (n)
      snprintf(range, sizeof range, " %s%s%s", Util_trim(a), Ui_glyph(ui, "\xe2\x80\x93", "-"), Util_trim(b));
   else
      snprintf(range, sizeof range, " %s", dash(ui));
   int lab = 7, rw = (int)Text_width(range) + 1, sw = r.w - lab - rw;
   char rowsBuf[2][1024];
   char *rowp[2] = {rowsBuf[0], rowsBuf[1]};
   if (sw > 0 && n)
      Chart_spark(rowp, sizeof rowsBuf[0], sparkRows, sw, gf, n, lo * 0.9, hi, ui->spark);
   for (int i = 0; i < sparkRows; i++) {
      int y = sy + i;
      Draw_fill(ui, y, r.x, r.w, ST_NORMAL);
      if (i == sparkRows - 1)
         Draw_text(ui, y, r.x + 1, lab - 1, "recent", ST_LABEL, false);
      if (sw > 0 && n)
         Draw_text(ui, y, r.x + lab, sw, rowsBuf[i], ST_GOOD, false);
      if (i == sparkRows - 1)
         Draw_text(ui, y, r.x + r.w - rw, rw, range, ST_DIM, false);
   }
}

/* ---- log pane ---- */

static Style logStyle(const LogLine *l) {
   switch (l->level) {
   case LOG_ERROR: return ST_BAD;
   case LOG_WARN: return ST_WARN;
   case LOG_GOOD: return ST_GOOD;
   case LOG_BUILD: return strstr(l->text, "error") ? ST_BAD : strstr(l->text, "warning") ? ST_WARN : ST_NORMAL;
   default: return ST_NORMAL;
   }
}

static void drawLog(Ui *ui) {
   Rect r = ui->layout.pane[PANE_LOG];
   char extra[64] = "";
   if (ui->log_scroll > 0)
      snprintf(extra, sizeof extra, "(scrolled back %d: End follows)", ui->log_scroll);
   drawTitle(ui, PANE_LOG, extra, NULL);
   int h = r.h - 1;
   if (h <= 0)
      return;
   /* From the newest line kept in view upwards, wrapping each line. */
   int tw = 9, w = r.w - tw;
   int y = r.y + r.h - 1;
   for (int i = ui->log.count - 1 - ui->log_scroll; i >= 0 && y > r.y; i--) {
      const LogLine *l = LogBuf_line(&ui->log, i);
      char buf[4096];
      const char *wl[32];
      int n = Text_wrap(l->text[0] ? l->text : " ", w > 0 ? w : 1, buf, sizeof buf, wl, 32);
      if (n == 0)
         n = 1, wl[0] = "";
      for (int j = n - 1; j >= 0 && y > r.y; j--, y--) {
         Draw_fill(ui, y, r.x, r.w, ST_NORMAL);
         if (j == 0 && l->first) {
            char ts[16];
            struct tm tm;
            localtime_r(&l->when, &tm);
            strftime(ts, sizeof ts, "%H:%M:%S", &tm);
            Draw_text(ui, y, r.x, tw - 1, ts, ST_DIM, false);
         }
         Draw_text(ui, y, r.x + tw, w, wl[j], logStyle(l), false);
      }
   }
}

void Draw_clampBanks(Ui *ui) {
   const BankAnalysis *a = ui->have_banks ? ui->banks.analysis : NULL;
   if (!a || !a->nrequests) {
      ui->bank_site = ui->bank_warp = ui->bank_iter = 0;
      return;
   }
   if (ui->bank_site < 0 || ui->bank_site >= a->nsites || !a->sites[ui->bank_site].requests) {
      ui->bank_site = 0;
      while (ui->bank_site < a->nsites - 1 && !a->sites[ui->bank_site].requests)
         ui->bank_site++;
   }
   int warps = a->warps * a->groups;
   if (ui->bank_warp >= warps)
      ui->bank_warp = warps > 0 ? warps - 1 : 0;
   if (ui->bank_warp < 0)
      ui->bank_warp = 0;
   int wpg = a->warps > 0 ? a->warps : 1;
   int n = BankAnalysis_executions(a, (unsigned)ui->bank_site, (unsigned)(ui->bank_warp / wpg),
                                   (unsigned)(ui->bank_warp % wpg));
   if (ui->bank_iter >= n)
      ui->bank_iter = n > 0 ? n - 1 : 0;
   if (ui->bank_iter < 0)
      ui->bank_iter = 0;
}

static Style passStyle(int pass) {
   return pass < 0 ? ST_DIM : pass == 0 ? ST_GOOD : pass == 1 ? ST_WARN : ST_BAD;
}

static void drawBanks(Ui *ui) {
   Rect r = ui->layout.pane[PANE_BANKS];
   int x = r.x + 1, w = r.w - 2, y = r.y + 1, bottom = r.y + r.h;
   const BankAnalysis *a = ui->have_banks ? ui->banks.analysis : NULL;
   bool current = ui->have_banks && ui->snap.have_config && ui->banks.config_serial == ui->snap.config_serial;
   drawTitle(ui, PANE_BANKS, "local-memory bank conflicts", "[ ] site  { } warp  ( ) iteration");
   char line[1024];
   const KernelInfo *k = ui->have_banks ? Catalog_find(&ui->cat, ui->banks.config.kernel) : NULL;
   if (!current) {
      const char *m = !ui->snap.have_config || !ui->snap.verified_run
                         ? "waiting for a verified run of this configuration, then its local memory is traced"
                         : "tracing the local-memory accesses of one work-group...";
      if (ui->snap.have_result && ui->snap.status != RUN_OK && !ui->snap.verified_run)
         m = "this configuration did not run: nothing to trace";
      char buf[2048];
      const char *wl[16];
      int n = Text_wrap(m, w, buf, sizeof buf, wl, r.h - 1 < 16 ? r.h - 1 : 16);
      for (int i = 0; i < n; i++)
         Draw_text(ui, y + i, x, w, wl[i], ST_DIM, false);
      return;
   }
   if (!a) {
      char buf[2048];
      const char *wl[16];
      int n = Text_wrap(ui->banks.message, w, buf, sizeof buf, wl, r.h - 1 < 16 ? r.h - 1 : 16);
      for (int i = 0; i < n; i++)
         Draw_text(ui, y + i, x, w, wl[i], ST_BAD, false);
      return;
   }
   char model[96];
   BankModel_describe(&a->model, model, sizeof model);
   snprintf(line, sizeof line, "model %s: %s%s", a->model.name, model, a->model.known ? "" : " (assumed)");
   Draw_text(ui, y++, x, w, line, a->model.known ? ST_NORMAL : ST_WARN, false);
   const Problem *p = &ui->banks.config.problem;
   snprintf(line, sizeof line, "traced %d group%s of %zu items (%d warp%s) on %dx%dx%d; %zu accesses%s", a->groups,
            a->groups == 1 ? "" : "s", a->wg_size, a->warps, a->warps == 1 ? "" : "s", p->m, p->n, p->k, a->nrecords,
            a->dropped ? " (incomplete)" : "");
   if (y < bottom)
      Draw_text(ui, y++, x, w, line, ST_DIM, false);
   if (!a->nrequests) {
      if (y < bottom)
         Draw_text(ui, y++, x, w, "this kernel uses no local memory", ST_NORMAL, false);
      return;
   }
   if (y < bottom) {
      snprintf(line, sizeof line, "  %-22s %8s %9s %7s %9s %7s %7s", "site", "requests", "wavefront", "ideal",
               "conflicts", "worst", "avg");
      Draw_text(ui, y++, x, w, line, ST_HEADER, true);
   }
   for (int i = 0; i < a->nsites && y < bottom; i++) {
      const BankSiteStats *st = &a->sites[i];
      if (!st->requests)
         continue;
      const char *nm = k && i < k->nsites && k->sites[i][0] ? k->sites[i] : "(unnamed)";
      char label[40];
      snprintf(label, sizeof label, "%d %s", i, nm);
      snprintf(line, sizeof line, "%s %-22.22s %8lld %9lld %7lld %9lld %6.2fx %6.2fx", i == ui->bank_site ? ">" : " ",
               label, st->requests, st->wavefronts, st->ideal, st->conflicts, st->worst_degree, st->avg_degree);
      Draw_text(ui, y++, x, w, line, i == ui->bank_site ? ST_SELECT : st->conflicts ? ST_WARN : ST_NORMAL, true);
   }
   int wpg = a->warps > 0 ? a->warps : 1;
   unsigned group = (unsigned)(ui->bank_warp / wpg), warp = (unsigned)(ui->bank_warp % wpg);
   int execs = BankAnalysis_executions(a, (unsigned)ui->bank_site, group, warp);
   const BankRequest *req = BankAnalysis_request(a, (unsigned)ui->bank_site, group, warp, ui->bank_iter);
   if (y >= bottom)
      return;
   if (!req) {
      snprintf(line, sizeof line, "site %d, warp %d: no access", ui->bank_site, ui->bank_warp);
      Draw_text(ui, y++, x, w, line, ST_DIM, false);
      return;
   }
   BankGrid *g = malloc(sizeof *g);
   if (!g || !BankAnalysis_grid(a, req, g)) {
      free(g);
      Draw_text(ui, y++, x, w, "cannot draw this request", ST_BAD, false);
      return;
   }
   snprintf(line, sizeof line, "site %d warp %d/%d iter %d/%d: %s %u B, %d wavefront%s, ideal %d, %d conflict%s",
            ui->bank_site, ui->bank_warp, a->warps * a->groups, ui->bank_iter + 1, execs, g->store ? "store" : "load",
            g->width, g->wavefronts, g->wavefronts == 1 ? "" : "s", g->ideal, g->wavefronts - g->ideal,
            g->wavefronts - g->ideal == 1 ? "" : "s");
   Draw_text(ui, y++, x, w, line, g->wavefronts > g->ideal ? ST_WARN : ST_GOOD, false);
   /* The grid: "l31 " then one column per bank, clipped to the pane. */
   int nb = g->banks < w - 4 ? g->banks : w - 4;
   if (nb < 1 || y >= bottom) {
      free(g);
      return;
   }
   char hdr[BANKS_MAX_BANKS + 8];
   int o = snprintf(hdr, sizeof hdr, "bnk ");
   for (int b = 0; b < nb; b++)
      hdr[o++] = (char)('0' + b % 10);
   hdr[o] = '\0';
   Draw_text(ui, y++, x, w, hdr, ST_LABEL, false);
   int rows = bottom - y;
   int lanes = g->lanes;
   bool more = lanes > rows;
   if (more)
      lanes = rows > 1 ? rows - 1 : rows;
   for (int l = 0; l < lanes && y < bottom; l++, y++) {
      char lab[8];
      snprintf(lab, sizeof lab, "l%-2d ", l);
      Draw_text(ui, y, x, 4, lab, ST_LABEL, false);
      for (int b = 0; b < nb; b++) {
         int ps = g->pass[l][b];
         char c[2] = {BankGrid_glyph(ps), '\0'};
         Draw_text(ui, y, x + 4 + b, 1, c, passStyle(ps), false);
      }
      if (g->active[l] && w - 4 - nb > 8) {
         snprintf(line, sizeof line, " @%u", g->address[l]);
         Draw_text(ui, y, x + 4 + nb, w - 4 - nb, line, ST_DIM, false);
      }
   }
   if (more && y < bottom) {
      snprintf(line, sizeof line, "... %d more lanes (z zooms the pane)%s", g->lanes - lanes,
               nb < g->banks ? "; banks clipped" : "");
      Draw_text(ui, y, x, w, line, ST_DIM, false);
   }
   free(g);
}

static void drawTooSmall(Ui *ui) {
   char a[96], b[96];
   snprintf(a, sizeof a, "terminal too small (need %dx%d)", ui->layout.need_w, ui->layout.need_h);
   snprintf(b, sizeof b, "now %dx%d; q quits", ui->cols, ui->rows);
   int y = ui->rows / 2 - 1;
   if (y < 0)
      y = 0;
   int aw = (int)strlen(a), bw = (int)strlen(b);
   Draw_text(ui, y, aw < ui->cols ? (ui->cols - aw) / 2 : 0, ui->cols, a, ST_BAD, false);
   if (y + 1 < ui->rows)
      Draw_text(ui, y + 1, bw < ui->cols ? (ui->cols - bw) / 2 : 0, ui->cols, b, ST_NORMAL, false);
}

void Draw_screen(Ui *ui) {
   getmaxyx(stdscr, ui->rows, ui->cols);
   Layout_compute(ui->cols, ui->rows, ui->visible, ui->zoom, &ui->layout);
   ui->nhits = 0;
   erase();
   if (ui->layout.too_small) {
      drawTooSmall(ui);
      refresh();
      return;
   }
   if (ui->dialog == DLG_HELP) {
      Dialog_draw(ui);
      refresh();
      return;
   }
   drawHeader(ui);
   if (ui->layout.shown & PANE_BIT(PANE_KERNEL))
      drawKernel(ui);
   if (ui->layout.shown & PANE_BIT(PANE_RESULTS))
      drawResults(ui);
   if (ui->layout.shown & PANE_BIT(PANE_HISTORY))
      drawHistory(ui);
   if (ui->layout.shown & PANE_BIT(PANE_LOG))
      drawLog(ui);
   if (ui->layout.shown & PANE_BIT(PANE_BANKS))
      drawBanks(ui);
   if (ui->layout.shown & PANE_BIT(PANE_INSPECT))
      Draw_inspect(ui);
   if (ui->layout.shown & PANE_BIT(PANE_SWEEP))
      SweepView_draw(ui);
   if (ui->layout.divider.w)
      for (int y = ui->layout.divider.y; y < ui->layout.divider.y + ui->layout.divider.h; y++)
         Draw_text(ui, y, ui->layout.divider.x, 1, Ui_glyph(ui, "\xe2\x94\x82", "|"), ST_DIM, false);
   if (!ui->layout.shown) {
      const char *m = "every pane is hidden: 1-7 show them";
      Draw_text(ui, ui->layout.body.y + ui->layout.body.h / 2, (ui->cols - (int)strlen(m)) / 2, ui->cols, m, ST_DIM,
                false);
   }
   drawFooter(ui);
   if (ui->dialog)
      Dialog_draw(ui);
   refresh();
}
