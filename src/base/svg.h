/* A standalone SVG chart (the ladder, the class's merged ladders, the accuracy frontier,
 * the roofline): one prolog and one ending for all of them, so that each writer draws
 * only its chart. The class board's chart sits inside its web page and has neither. */
#ifndef GEMMTOP_SVG_H
#define GEMMTOP_SVG_H

#include "base/textbuf.h"

/* The XML prolog, an <svg> of width x height pixels in the charts' font (sans-serif,
 * 13 px), a white background, and the title (escaped: it may be a user's text) in bold
 * at the top left (title NULL: none, the caller draws its own). The caller's first line
 * below it is at y 42. */
void Svg_begin(TextBuf *t, int width, int height, const char *title);
/* Closes the <svg>; the document (malloc'ed, the caller frees it), or NULL when an
 * allocation failed (TextBuf_finish). */
char *Svg_finish(TextBuf *t);

#endif
