/* Drawing primitives on the curses screen: text fitted to a width, a filled row, a box,
 * wrapped text, the styles' attributes and the glyphs in UTF-8 or ASCII. They know
 * nothing of the explorer: they are given the screen's size and capabilities (Paint),
 * and every file that draws sits on them. */
#include "tui/paint.h"

#include <stdio.h>
#include <string.h>

#include "tui/text.h"

attr_t Paint_attr(const Paint *pt, Style s) {
   if (pt->color) {
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

const char *Paint_glyph(const Paint *pt, const char *utf8, const char *ascii) { return pt->utf8 ? utf8 : ascii; }

void Paint_text(const Paint *pt, int y, int x, int w, const char *s, Style st, bool pad) {
   if (w <= 0 || y < 0 || y >= pt->rows || x >= pt->cols)
      return;
   if (x + w > pt->cols)
      w = pt->cols - x;
   char buf[2048];
   Text_fit(buf, sizeof buf, s, w, pt->utf8, pad);
   attr_t a = Paint_attr(pt, st);
   attron(a);
   mvaddstr(y, x, buf);
   attroff(a);
}

void Paint_fill(const Paint *pt, int y, int x, int w, Style st) { Paint_text(pt, y, x, w, "", st, true); }

void Paint_box(const Paint *pt, Rect r, const char *title) {
   const char *h = Paint_glyph(pt, "\xe2\x94\x80", "-"), *v = Paint_glyph(pt, "\xe2\x94\x82", "|");
   const char *c[4] = {Paint_glyph(pt, "\xe2\x94\x8c", "+"), Paint_glyph(pt, "\xe2\x94\x90", "+"),
                       Paint_glyph(pt, "\xe2\x94\x94", "+"), Paint_glyph(pt, "\xe2\x94\x98", "+")};
   for (int y = r.y; y < r.y + r.h; y++)
      Paint_fill(pt, y, r.x, r.w, ST_DIALOG);
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
      Paint_text(pt, r.y, r.x + 2, r.w - 4, t, ST_TITLE_FOCUS, false);
   }
}

int Paint_wrapped(const Paint *pt, int y, int x, int w, int bottom, const char *text, Style st, int max_lines) {
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
         Paint_text(pt, y + i, x, w, wl[i], st, false);
         continue;
      }
      const char *dots = Paint_glyph(pt, "\xe2\x80\xa6", "...");
      int dw = pt->utf8 ? 1 : 3;
      char last[1024];
      Text_fit(last, sizeof last - 4, wl[i], w - dw, pt->utf8, false);
      strcat(last, dots);
      Paint_text(pt, y + i, x, w, last, st, false);
   }
   return y + n;
}
