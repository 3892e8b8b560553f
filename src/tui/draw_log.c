/* The log pane: the newest lines at the bottom, each wrapped and coloured by its level
 * (the compiler's messages by what they say), with its time; scrolled back with the keys
 * of the focused pane. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tui/panedraw.h"
#include "tui/panes_table.h"
#include "tui/text.h"

/* What it keeps between frames (its class's state): its scrolling. */
typedef struct LogPane_ {
   int scroll;                /* lines up from the newest (0 follows) */
} LogPane;

static Style logStyle(const LogLine *l) {
   switch (l->level) {
   case LOG_ERROR: return ST_BAD;
   case LOG_WARN: return ST_WARN;
   case LOG_GOOD: return ST_GOOD;
   case LOG_BUILD: return strstr(l->text, "error") ? ST_BAD : strstr(l->text, "warning") ? ST_WARN : ST_NORMAL;
   default: return ST_NORMAL;
   }
}

static void drawLog(const PaneCtx *ctx, void *state) {
   const LogPane *lp = state;
   Rect r = ctx->area;
   char extra[64] = "";
   if (lp->scroll > 0)
      snprintf(extra, sizeof extra, "(scrolled back %d: End follows)", lp->scroll);
   Draw_paneTitle(ctx, extra, NULL);
   int h = r.h - 1;
   if (h <= 0)
      return;
   /* From the newest line kept in view upwards, wrapping each line. */
   int tw = 9, w = r.w - tw;
   int y = r.y + r.h - 1;
   for (int i = ctx->log->count - 1 - lp->scroll; i >= 0 && y > r.y; i--) {
      const LogLine *l = LogBuf_line(ctx->log, i);
      char buf[4096];
      const char *wl[32];
      int n = Text_wrap(l->text[0] ? l->text : " ", w > 0 ? w : 1, buf, sizeof buf, wl, 32);
      if (n == 0)
         n = 1, wl[0] = "";
      for (int j = n - 1; j >= 0 && y > r.y; j--, y--) {
         Paint_fill(ctx->paint, y, r.x, r.w, ST_NORMAL);
         if (j == 0 && l->first) {
            char ts[16];
            struct tm tm;
            localtime_r(&l->when, &tm);
            strftime(ts, sizeof ts, "%H:%M:%S", &tm);
            Paint_text(ctx->paint, y, r.x, tw - 1, ts, ST_DIM, false);
         }
         Paint_text(ctx->paint, y, r.x + tw, w, wl[j], logStyle(l), false);
      }
   }
}

/* ---- its keys ---- */

/* The log's scroll; every key is its own (stepping does nothing here). */
static bool logKey(const PaneCtx *ctx, void *state, int ch) {
   LogPane *lp = state;
   int page = PaneCtx_height(ctx) - 1;
   switch (ch) {
   case KEY_UP: case 'k': lp->scroll++; break;
   case KEY_DOWN: case 'j': lp->scroll--; break;
   case KEY_PPAGE: lp->scroll += page > 1 ? page : 1; break;
   case KEY_NPAGE: lp->scroll -= page > 1 ? page : 1; break;
   case KEY_HOME: lp->scroll = ctx->log->count; break;
   case KEY_END: lp->scroll = 0; break;
   default: break;
   }
   if (lp->scroll > ctx->log->count - 1)
      lp->scroll = ctx->log->count > 0 ? ctx->log->count - 1 : 0;
   if (lp->scroll < 0)
      lp->scroll = 0;
   return true;
}

const PaneClass Log_pane = {.state_size = sizeof(LogPane), .draw = drawLog, .key = logKey};
