/* The log pane: the newest lines at the bottom, each wrapped and coloured by its level
 * (the compiler's messages by what they say), with its time; scrolled back with the keys
 * of the focused pane. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tui/app.h"
#include "tui/text.h"

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
   if (ui->log_pane.scroll > 0)
      snprintf(extra, sizeof extra, "(scrolled back %d: End follows)", ui->log_pane.scroll);
   Draw_paneTitle(ui, PANE_LOG, extra, NULL);
   int h = r.h - 1;
   if (h <= 0)
      return;
   /* From the newest line kept in view upwards, wrapping each line. */
   int tw = 9, w = r.w - tw;
   int y = r.y + r.h - 1;
   for (int i = ui->log.count - 1 - ui->log_pane.scroll; i >= 0 && y > r.y; i--) {
      const LogLine *l = LogBuf_line(&ui->log, i);
      char buf[4096];
      const char *wl[32];
      int n = Text_wrap(l->text[0] ? l->text : " ", w > 0 ? w : 1, buf, sizeof buf, wl, 32);
      if (n == 0)
         n = 1, wl[0] = "";
      for (int j = n - 1; j >= 0 && y > r.y; j--, y--) {
         Paint_fill(&ui->paint, y, r.x, r.w, ST_NORMAL);
         if (j == 0 && l->first) {
            char ts[16];
            struct tm tm;
            localtime_r(&l->when, &tm);
            strftime(ts, sizeof ts, "%H:%M:%S", &tm);
            Paint_text(&ui->paint, y, r.x, tw - 1, ts, ST_DIM, false);
         }
         Paint_text(&ui->paint, y, r.x + tw, w, wl[j], logStyle(l), false);
      }
   }
}

/* ---- its keys ---- */

/* The log's scroll; every key is its own (stepping does nothing here). */
static bool logKey(Ui *ui, int ch) {
   int page = Draw_paneHeight(ui, PANE_LOG) - 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->log_pane.scroll++; break;
   case KEY_DOWN: case 'j': ui->log_pane.scroll--; break;
   case KEY_PPAGE: ui->log_pane.scroll += page > 1 ? page : 1; break;
   case KEY_NPAGE: ui->log_pane.scroll -= page > 1 ? page : 1; break;
   case KEY_HOME: ui->log_pane.scroll = ui->log.count; break;
   case KEY_END: ui->log_pane.scroll = 0; break;
   default: break;
   }
   if (ui->log_pane.scroll > ui->log.count - 1)
      ui->log_pane.scroll = ui->log.count > 0 ? ui->log.count - 1 : 0;
   if (ui->log_pane.scroll < 0)
      ui->log_pane.scroll = 0;
   return true;
}

const PaneClass Log_pane = {.draw = drawLog, .key = logKey};
