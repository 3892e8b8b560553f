/* A growing text for exports (Markdown, CSV, SVG): every piece is appended through
 * TextBuf_put, and a failed allocation makes the whole text NULL (TextBuf_finish) rather
 * than a cut one. */
#ifndef GEMMTOP_TEXTBUF_H
#define GEMMTOP_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct TextBuf_ {
   char *s;
   size_t len, cap;
   bool failed;
} TextBuf;

void TextBuf_put(TextBuf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as XML text (SVG and HTML text and attributes): the five special characters escaped,
 * control characters in caret form (ESC "^["), a byte of no UTF-8 character as U+FFFD:
 * whatever s holds, the document stays well-formed and shows it. */
void TextBuf_putXml(TextBuf *t, const char *s);
/* s as Markdown text that another person wrote (a table cell, a list item): HTML's special
 * characters as entities, so that a page made of it runs no markup of theirs; the
 * punctuation of links, code, emphasis and tables escaped; control characters in caret
 * form, a byte of no UTF-8 character as U+FFFD. */
void TextBuf_putMarkdown(TextBuf *t, const char *s);
/* s as one CSV field (RFC 4180: quoted when it holds a comma, a quote or a line break,
 * quotes doubled). */
void TextBuf_putCsv(TextBuf *t, const char *s);
/* A chart axis's tick spacing: 1, 2 or 5 times a power of ten, at most about 5 ticks to max. */
double TextBuf_tickStep(double max);
/* The text (malloc'ed, the caller frees it), or NULL when an allocation failed. */
char *TextBuf_finish(TextBuf *t);

#endif
