/* Drawing the explorer: the primitives and formats every pane uses, the header and the
 * footer, and the screen (the panes are draw_*.c). Everything is drawn from the UI state
 * and the worker's last snapshot; nothing here waits or changes the configuration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/run/ablate.h"
#include "core/analyse/banks.h"
#include "tui/app.h"
#include "tui/lesson_ui.h"
#include "tui/text.h"
#include "base/util.h"

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

void Draw_fmtTime(const Ui *ui, double ms, char *out, size_t n) {
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

void Draw_fmtBytes(long long b, char *out, size_t n) {
   if (b < 0)
      snprintf(out, n, "?");
   else if (b < 1024)
      snprintf(out, n, "%lld B", b);
   else if (b < 1024 * 1024)
      snprintf(out, n, "%.1f KiB", b / 1024.0);
   else
      snprintf(out, n, "%.1f MiB", b / 1048576.0);
}

int Draw_wrapped(Ui *ui, int y, int x, int w, int bottom, const char *text, Style st, int max_lines) {
   char buf[2048];
   const char *wl[17];
   int max = bottom - y < max_lines ? bottom - y : max_lines;
   if (max > 16)
      max = 16;
   if (max <= 0 || w <= 0)
      return y;
   /* One line more than fits says whether the text is cut: its last line then ends in an
    * ellipsis, never silently. */
   int n = Text_wrap(text, w, buf, sizeof buf, wl, max + 1);
   bool cut = n > max;
   if (cut)
      n = max;
   for (int i = 0; i < n; i++) {
      if (!cut || i + 1 < n || w < 4) {
         Draw_text(ui, y + i, x, w, wl[i], st, false);
         continue;
      }
      const char *dots = Ui_glyph(ui, "\xe2\x80\xa6", "...");
      int dw = ui->utf8 ? 1 : 3;
      char last[1024];
      Text_fit(last, sizeof last - 4, wl[i], w - dw, ui->utf8, false);
      strcat(last, dots);
      Draw_text(ui, y + i, x, w, last, st, false);
   }
   return y + n;
}

void Draw_fmtRate(double v, const char *unit, char *out, size_t n) {
   if (v >= 100)
      snprintf(out, n, "%.0f %s", v, unit);
   else if (v >= 10)
      snprintf(out, n, "%.1f %s", v, unit);
   else
      snprintf(out, n, "%.2f %s", v, unit);
}

const char *Draw_dash(const Ui *ui) { return Ui_glyph(ui, "\xe2\x80\x94", "-"); }

const char *Draw_spinner(const Ui *ui) {
   static const char *braille[] = {"\xe2\xa0\x8b", "\xe2\xa0\x99", "\xe2\xa0\xb9", "\xe2\xa0\xb8", "\xe2\xa0\xbc",
                                   "\xe2\xa0\xb4", "\xe2\xa0\xa6", "\xe2\xa0\xa7", "\xe2\xa0\x87", "\xe2\xa0\x8f"};
   static const char *ascii[] = {"|", "/", "-", "\\"};
   return ui->utf8 ? braille[ui->frame % 10] : ascii[ui->frame % 4];
}

bool Draw_snapRefused(const Ui *ui) { return ui->snap.state == WS_STOPPED && ui->snap.status == RUN_INVALID; }

/* Whether the snapshot describes the configuration now chosen. */
bool Draw_snapIsCurrent(const Ui *ui) {
   const WorkerSnapshot *s = &ui->snap;
   return s->have_config && !strcmp(s->config.kernel, Ui_kernel(ui)->name) &&
          !memcmp(s->config.values, ui->values, sizeof ui->values) && Problem_same(&s->config.problem, &ui->problem) &&
          s->config.ablate == ui->ablate && s->config.cold_l2 == ui->cold_l2 && !strcmp(s->config.limits, ui->limits);
}

Style Draw_stateStyle(const Ui *ui) {
   if (ui->paused && Ui_busy(ui) && ui->snap.state != WS_WAITING)
      return ST_WARN;
   switch (ui->snap.state) {
   case WS_NO_DEVICE: return ST_BAD;
   case WS_STOPPED: return ui->snap.status == RUN_INVALID ? ST_WARN : ST_BAD;
   case WS_PAUSED: return ST_WARN;
   case WS_MEASURING: case WS_SERVED: return ST_GOOD;
   default: return ST_NORMAL;
   }
}

/* The states that are a wait the user may wonder about: their elapsed time is shown. */
static bool longWait(WorkerState st) {
   switch (st) {
   case WS_OPENING: case WS_PREPARING: case WS_COMPILING: case WS_VERIFYING: case WS_VENDOR: case WS_PEAKS:
   case WS_TRACING: case WS_INSPECTING: case WS_QUEUED:
      return true;
   default:
      return false;
   }
}

/* "⠋ compiling 3.2 s", "● measuring", "❚❚ paused", "❚❚ cancelling". */
void Draw_stateText(const Ui *ui, char *out, size_t n) {
   const WorkerSnapshot *s = &ui->snap;
   bool stale = !Draw_snapIsCurrent(ui) && s->state != WS_NO_DEVICE && s->state != WS_OPENING && s->state != WS_STARTING;
   const char *pause = Ui_glyph(ui, "\xe2\x9d\x9a\xe2\x9d\x9a", "||");
   double since = Util_nowMs() - s->state_since;
   if (ui->paused && Ui_busy(ui) && s->state != WS_WAITING && s->state != WS_PAUSED)
      /* Asked for, not yet done: the launch in progress ends first. */
      snprintf(out, n, "%s %s: launch ends first", pause, ui->cancelling ? "cancelling" : "pausing");
   else if (stale && ui->paused && s->state == WS_PAUSED)
      snprintf(out, n, "%s paused", Ui_glyph(ui, "\xe2\x9d\x9a\xe2\x9d\x9a", "||"));
   else if (stale)
      snprintf(out, n, "%s waiting", Draw_spinner(ui));
   else if (s->state == WS_PAUSED)
      snprintf(out, n, "%s paused", Ui_glyph(ui, "\xe2\x9d\x9a\xe2\x9d\x9a", "||"));
   else if (s->state == WS_STOPPED)
      snprintf(out, n, "%s %s", Ui_glyph(ui, "\xe2\x9c\x97", "x"), RunStatus_name(s->status));
   else if (s->state == WS_NO_DEVICE)
      snprintf(out, n, "%s no device", Ui_glyph(ui, "\xe2\x9c\x97", "x"));
   else if (longWait(s->state) && since >= 500)
      snprintf(out, n, "%s %s %.1f s", Draw_spinner(ui), WorkerState_name(s->state), since / 1000);
   else
      snprintf(out, n, "%s %s", Draw_spinner(ui), WorkerState_name(s->state));
}

/* ---- header and footer ---- */

/* After the problem: warm or cold L2, then the SM clock, power and temperature of the last
 * measurement as the driver gave them (nothing where it gave none), and THROTTLED when
 * the clock fell or was held down, when all of it fits in room. */
static void drawObservation(Ui *ui, int y, int x, int room) {
   if (!ui->snap.have_device)
      return;
   Observation none;
   Observation_clear(&none);
   const Observation *ob = ui->snap.obs.known ? &ui->snap.obs : &none;
   char text[128] = "";
   size_t n = (size_t)snprintf(text, sizeof text, "  %s L2", ui->cold_l2 ? "cold" : "warm");
   if (isfinite(ob->sm_mhz))
      n += (size_t)snprintf(text + n, sizeof text - n, "  %.0f MHz", ob->sm_mhz);
   if (isfinite(ob->power_w) && n < sizeof text)
      n += (size_t)snprintf(text + n, sizeof text - n, "  %.0f W", ob->power_w);
   if (isfinite(ob->temp_c) && n < sizeof text)
      n += (size_t)snprintf(text + n, sizeof text - n, "  %.0f C", ob->temp_c);
   const char *mark = ob->throttled ? "  THROTTLED" : "";
   int w = Text_width(text), mw = Text_width(mark);
   if (w + mw > room)
      return;
   Draw_text(ui, y, x, w, text, ST_NORMAL, false);
   if (mw)
      Draw_text(ui, y, x + w, mw, mark, ST_WARN, false);
}

static void drawHeader(Ui *ui) {
   Rect r = ui->layout.header;
   const DeviceInfo *d = Ui_deviceInfo(ui);
   char left[512], right[256] = "";
   Draw_fill(ui, r.y, 0, r.w, ST_HEADER);
   if (d)
      snprintf(left, sizeof left, " gemmtop  %s  %s %s %s, %u CU%s", d->name, ui->snap.have_device ? ui->snap.backend : ui->backend,
               Ui_glyph(ui, "\xc2\xb7", "-"), DeviceType_name(d->type), d->compute_units,
               d->limits_simulated || ui->limits[0] ? "  [limits simulated]" : "");
   else
      snprintf(left, sizeof left, " gemmtop  (no device)");
   const Peaks *pk = &ui->snap.peaks;
   if (ui->start.server)
      /* the figures are the server's device's: this device only traces and inspects */
      snprintf(right, sizeof right, "measured on the server %s ", ui->start.server);
   else if (ui->snap.have_device && pk->known)
      snprintf(right, sizeof right, "peak FP32 %.0f FP64 %.0f GFLOPS, %.0f GB/s ", pk->gflops[PEAK_FP32], pk->gflops[PEAK_FP64],
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
   char type[32];
   snprintf(left, sizeof left, " M=%d N=%d K=%d  %s  %s  %s=%g %s=%g", p->m, p->n, p->k,
            Problem_typeLabel(p, type, sizeof type), lay, Ui_glyph(ui, "\xce\xb1", "alpha"), p->alpha,
            Ui_glyph(ui, "\xce\xb2", "beta"), p->beta);
   Draw_text(ui, r.y + 1, 0, r.w, left, ST_NORMAL, true);
   Draw_stateText(ui, right, sizeof right);
   rw = Text_width(right) + 1;
   bool state = rw < r.w - Text_width(left) - 1;
   if (state)
      Draw_text(ui, r.y + 1, r.w - rw, rw, right, Draw_stateStyle(ui), false);
   /* the state first: the driver's figures take the room left between */
   drawObservation(ui, r.y + 1, Text_width(left), r.w - Text_width(left) - (state ? rw + 1 : 0));
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

static int paneWant(void *ctx, PaneId p, int width) { return Pane_wantRows(ctx, p, width); }

void Ui_layout(Ui *ui) {
   const LayoutWants wants = {paneWant, ui};
   Layout_computeWanting(ui->cols, ui->rows, ui->visible, ui->zoom, &wants, &ui->layout);
}

void Draw_screen(Ui *ui) {
   getmaxyx(stdscr, ui->rows, ui->cols);
   Ui_layout(ui);
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
   /* The panes, as their table (panes.h) draws them. */
   for (int p = 0; p < PANE_COUNT; p++)
      if (ui->layout.shown & PANE_BIT(p))
         Pane_class(p)->draw(ui);
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

