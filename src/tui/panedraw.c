/* What the panes draw with that reads more than the screen: a pane's title row, the
 * worker's state as a word, figures as the panes show them. On the primitives (paint.c)
 * and a pane's context (panectx.h); the compositor (draw.c) and every pane sit on it. */
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "tui/panedraw.h"
#include "tui/text.h"

void Draw_fmtTime(const Paint *pt, double ms, char *out, size_t n) {
   if (!(ms > 0))
      snprintf(out, n, "%s", Paint_glyph(pt, "\xe2\x80\x94", "-"));
   else if (ms >= 1000)
      snprintf(out, n, "%.3f s", ms / 1000);
   else if (ms >= 100)
      snprintf(out, n, "%.1f ms", ms);
   else if (ms >= 1)
      snprintf(out, n, "%.3f ms", ms);
   else
      snprintf(out, n, "%.1f %s", ms * 1000, Paint_glyph(pt, "\xc2\xb5s", "us"));
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

void Draw_fmtRate(double v, const char *unit, char *out, size_t n) {
   if (v >= 100)
      snprintf(out, n, "%.0f %s", v, unit);
   else if (v >= 10)
      snprintf(out, n, "%.1f %s", v, unit);
   else
      snprintf(out, n, "%.2f %s", v, unit);
}

const char *Draw_dash(const Paint *pt) { return Paint_glyph(pt, "\xe2\x80\x94", "-"); }

const char *Draw_spinner(const Paint *pt, unsigned long frame) {
   static const char *braille[] = {"\xe2\xa0\x8b", "\xe2\xa0\x99", "\xe2\xa0\xb9", "\xe2\xa0\xb8", "\xe2\xa0\xbc",
                                   "\xe2\xa0\xb4", "\xe2\xa0\xa6", "\xe2\xa0\xa7", "\xe2\xa0\x87", "\xe2\xa0\x8f"};
   static const char *ascii[] = {"|", "/", "-", "\\"};
   return pt->utf8 ? braille[frame % 10] : ascii[frame % 4];
}

Style Draw_stateStyle(const PaneCtx *ctx) {
   if (ctx->paused && ctx->busy && ctx->snap->state != WS_WAITING)
      return ST_WARN;
   switch (ctx->snap->state) {
   case WS_NO_DEVICE: return ST_BAD;
   case WS_STOPPED: return ctx->snap->result.status == RUN_INVALID ? ST_WARN : ST_BAD;
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
void Draw_stateText(const PaneCtx *ctx, char *out, size_t n) {
   const WorkerSnapshot *s = ctx->snap;
   const Paint *pt = ctx->paint;
   bool stale = !ctx->snap_current && s->state != WS_NO_DEVICE && s->state != WS_OPENING && s->state != WS_STARTING;
   const char *pause = Paint_glyph(pt, "\xe2\x9d\x9a\xe2\x9d\x9a", "||");
   double since = Util_nowMs() - s->state_since;
   if (ctx->paused && ctx->busy && s->state != WS_WAITING && s->state != WS_PAUSED)
      /* Asked for, not yet done: the launch in progress ends first. */
      snprintf(out, n, "%s %s: launch ends first", pause, ctx->cancelling ? "cancelling" : "pausing");
   else if (stale && ctx->paused && s->state == WS_PAUSED)
      snprintf(out, n, "%s paused", Paint_glyph(pt, "\xe2\x9d\x9a\xe2\x9d\x9a", "||"));
   else if (stale)
      snprintf(out, n, "%s waiting", Draw_spinner(pt, ctx->frame));
   else if (s->state == WS_PAUSED)
      snprintf(out, n, "%s paused", Paint_glyph(pt, "\xe2\x9d\x9a\xe2\x9d\x9a", "||"));
   else if (s->state == WS_STOPPED)
      snprintf(out, n, "%s %s", Paint_glyph(pt, "\xe2\x9c\x97", "x"), RunStatus_name(s->result.status));
   else if (s->state == WS_NO_DEVICE)
      snprintf(out, n, "%s no device", Paint_glyph(pt, "\xe2\x9c\x97", "x"));
   else if (longWait(s->state) && since >= 500)
      snprintf(out, n, "%s %s %.1f s", Draw_spinner(pt, ctx->frame), WorkerState_name(s->state), since / 1000);
   else
      snprintf(out, n, "%s %s", Draw_spinner(pt, ctx->frame), WorkerState_name(s->state));
}

void Draw_paneTitle(const PaneCtx *ctx, const char *extra, const char *right) {
   Rect r = ctx->area;
   Style st = ctx->focus == ctx->id ? ST_TITLE_FOCUS : ST_TITLE;
   char t[512];
   snprintf(t, sizeof t, " %d %s%s%s", Layout_paneKey(ctx->id), Layout_paneName(ctx->id), extra && *extra ? "  " : "",
            extra ? extra : "");
   Paint_fill(ctx->paint, r.y, r.x, r.w, st);
   int rw = right ? Text_width(right) + 1 : 0;
   if (rw > r.w / 2)
      rw = 0;
   Paint_text(ctx->paint, r.y, r.x, r.w - rw, t, st, false);
   if (rw)
      Paint_text(ctx->paint, r.y, r.x + r.w - rw, rw, right, st, false);
   PaneCtx_hit(ctx, r, HIT_PANE, ctx->id, 0);
}
