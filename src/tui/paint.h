/* Drawing primitives (paint.c): what is drawn on the curses screen, given only the
 * screen's size and capabilities, never the explorer's state. */
#ifndef GEMMTOP_UI_PAINT_H
#define GEMMTOP_UI_PAINT_H

#include <curses.h>
#include <stdbool.h>

#include "tui/layout.h"

typedef enum {
   ST_NORMAL = 0, ST_HEADER, ST_TITLE, ST_TITLE_FOCUS, ST_LABEL, ST_GOOD, ST_BAD, ST_WARN, ST_DIM,
   ST_KEY, ST_KEYLABEL, ST_SELECT, ST_CURSOR, ST_BAR, ST_BAR_BEST, ST_DIALOG, ST_COUNT
} Style;

/* The screen drawn on. */
typedef struct Paint_ {
   int cols, rows;
   bool utf8;                 /* glyphs beyond ASCII */
   bool color;
} Paint;

attr_t Paint_attr(const Paint *pt, Style s);
/* Glyphs, UTF-8 or ASCII. */
const char *Paint_glyph(const Paint *pt, const char *utf8, const char *ascii);
/* s fitted to w columns at row y, column x (padded with spaces to w when pad); nothing
 * outside the screen. */
void Paint_text(const Paint *pt, int y, int x, int w, const char *s, Style st, bool pad);
void Paint_fill(const Paint *pt, int y, int x, int w, Style st);
void Paint_box(const Paint *pt, Rect r, const char *title);
/* text word-wrapped from row y, at most max_lines rows (and 16) and none at or past
 * bottom, the last shown ending in an ellipsis when more would not fit; returns the next
 * row. */
int Paint_wrapped(const Paint *pt, int y, int x, int w, int bottom, const char *text, Style st, int max_lines);

#endif
