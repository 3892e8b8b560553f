/* The compositor: the screen as a whole, the header and the footer, the panes shown (each
 * drawn by its class, panes_table.h), the help page or the dialog open over them. The
 * primitives are paint.c, what the panes draw with panedraw.c. Everything is drawn from
 * the UI state and the worker's last snapshot; nothing here waits or changes the
 * configuration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/text.h"
#include "base/util.h"

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
   Paint_text(&ui->paint, y, x, w, text, ST_NORMAL, false);
   if (mw)
      Paint_text(&ui->paint, y, x + w, mw, mark, ST_WARN, false);
}

static void drawHeader(Ui *ui) {
   Rect r = ui->layout.header;
   const DeviceInfo *d = Ui_deviceInfo(ui);
   char left[512], right[256] = "";
   Paint_fill(&ui->paint, r.y, 0, r.w, ST_HEADER);
   if (d)
      snprintf(left, sizeof left, " gemmtop  %s  %s %s %s, %u CU%s", d->name, ui->snap.have_device ? ui->snap.backend : ui->backend,
               Paint_glyph(&ui->paint, "\xc2\xb7", "-"), DeviceType_name(d->type), d->compute_units,
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
   Paint_text(&ui->paint, r.y, 0, r.w - rw, left, ST_HEADER, false);
   if (rw)
      Paint_text(&ui->paint, r.y, r.w - rw, rw, right, ST_HEADER, false);

   const Problem *p = &ui->problem;
   char lay[3];
   Problem_layoutName(p, lay);
   char type[32];
   snprintf(left, sizeof left, " M=%d N=%d K=%d  %s  %s  %s=%g %s=%g", p->m, p->n, p->k,
            Problem_typeLabel(p, type, sizeof type), lay, Paint_glyph(&ui->paint, "\xce\xb1", "alpha"), p->alpha,
            Paint_glyph(&ui->paint, "\xce\xb2", "beta"), p->beta);
   Paint_text(&ui->paint, r.y + 1, 0, r.w, left, ST_NORMAL, true);
   PaneCtx ctx; /* the worker's state in words, as the results pane says it */
   PaneHost_context(ui, -1, &ctx);
   Draw_stateText(&ctx, right, sizeof right);
   rw = Text_width(right) + 1;
   bool state = rw < r.w - Text_width(left) - 1;
   if (state)
      Paint_text(&ui->paint, r.y + 1, r.w - rw, rw, right, Draw_stateStyle(&ctx), false);
   /* the state first: the driver's figures take the room left between */
   drawObservation(ui, r.y + 1, Text_width(left), r.w - Text_width(left) - (state ? rw + 1 : 0));
}

typedef struct FKey_ {
   const char *key, *label;
} FKey;

static void drawFooter(Ui *ui) {
   Rect r = ui->layout.footer;
   Paint_fill(&ui->paint, r.y, 0, r.w, ST_NORMAL);
   if (ui->flash[0]) {
      Paint_text(&ui->paint, r.y, 0, r.w, ui->flash, ui->flash_style, true);
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
      Paint_text(&ui->paint, r.y, x, kw, keys[i].key, ST_KEY, false);
      Paint_text(&ui->paint, r.y, x + kw, lw, keys[i].label, ST_KEYLABEL, false);
      x += kw + lw + 1;
   }
   if (ui->layout.dropped) {
      char t[64] = " no room:";
      for (int p = 0; p < PANE_COUNT; p++)
         if (ui->layout.dropped & PANE_BIT(p))
            snprintf(t + strlen(t), sizeof t - strlen(t), " %d", Layout_paneKey(p));
      int tw = (int)strlen(t) + 1;
      if (x + tw <= r.w)
         Paint_text(&ui->paint, r.y, r.w - tw, tw, t, ST_DIM, false);
   }
}

static void drawTooSmall(Ui *ui) {
   char a[96], b[96];
   snprintf(a, sizeof a, "terminal too small (need %dx%d)", ui->layout.need_w, ui->layout.need_h);
   snprintf(b, sizeof b, "now %dx%d; q quits", ui->paint.cols, ui->paint.rows);
   int y = ui->paint.rows / 2 - 1;
   if (y < 0)
      y = 0;
   int aw = (int)strlen(a), bw = (int)strlen(b);
   Paint_text(&ui->paint, y, aw < ui->paint.cols ? (ui->paint.cols - aw) / 2 : 0, ui->paint.cols, a, ST_BAD, false);
   if (y + 1 < ui->paint.rows)
      Paint_text(&ui->paint, y + 1, bw < ui->paint.cols ? (ui->paint.cols - bw) / 2 : 0, ui->paint.cols, b, ST_NORMAL, false);
}

void Draw_screen(Ui *ui) {
   getmaxyx(stdscr, ui->paint.rows, ui->paint.cols);
   Ui_layout(ui);
   ui->nhits = 0;
   erase();
   if (ui->layout.too_small) {
      drawTooSmall(ui);
      refresh();
      return;
   }
   if (ui->dialog == DLG_HELP) {
      Keys_drawHelp(ui);
      refresh();
      return;
   }
   drawHeader(ui);
   /* The panes, as their table (panes.h) draws them. */
   Panes_draw(Panes_shipped(), ui);
   if (ui->layout.divider.w)
      for (int y = ui->layout.divider.y; y < ui->layout.divider.y + ui->layout.divider.h; y++)
         Paint_text(&ui->paint, y, ui->layout.divider.x, 1, Paint_glyph(&ui->paint, "\xe2\x94\x82", "|"), ST_DIM, false);
   if (!ui->layout.shown) {
      const char *m = "every pane is hidden: 1-7 show them";
      Paint_text(&ui->paint, ui->layout.body.y + ui->layout.body.h / 2, (ui->paint.cols - (int)strlen(m)) / 2, ui->paint.cols, m, ST_DIM,
                false);
   }
   drawFooter(ui);
   if (ui->dialog)
      Dialog_draw(ui);
   refresh();
}

