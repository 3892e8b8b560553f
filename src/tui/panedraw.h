/* What the panes draw with that reads more than the screen (panedraw.c): a pane's title
 * row, the worker's state in words, figures as the panes show them. On the primitives
 * (paint.h) and a pane's context (panectx.h); the compositor's header uses it too. */
#ifndef GEMMTOP_UI_PANEDRAW_H
#define GEMMTOP_UI_PANEDRAW_H

#include <stddef.h>

#include "tui/paint.h"
#include "tui/panectx.h"

/* The pane's title row: " N Name  extra" and right-aligned text. */
void Draw_paneTitle(const PaneCtx *ctx, const char *extra, const char *right);
/* "12.3 ms", "4.1 KiB", "1234 GFLOPS": numbers as the panes show them. */
void Draw_fmtTime(const Paint *pt, double ms, char *out, size_t n);
void Draw_fmtBytes(long long b, char *out, size_t n);
void Draw_fmtRate(double v, const char *unit, char *out, size_t n);
/* The dash of a figure not known; the spinner's glyph of a frame. */
const char *Draw_dash(const Paint *pt);
const char *Draw_spinner(const Paint *pt, unsigned long frame);
/* The worker's state as a word with a glyph ("compiling", "paused"), and its style. */
void Draw_stateText(const PaneCtx *ctx, char *out, size_t n);
Style Draw_stateStyle(const PaneCtx *ctx);

#endif
