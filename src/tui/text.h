/* UTF-8 text measured in terminal columns, independent of the locale: the explorer
 * clips every string it draws to its pane, so widths must be right. */
#ifndef GEMMTOP_UI_TEXT_H
#define GEMMTOP_UI_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Decodes one UTF-8 character at s (n bytes available); returns its length (1 for an
 * invalid byte, with *cp = 0xFFFD) and 0 at the end of the string. */
int Text_decode(const char *s, size_t n, unsigned *cp);
/* Columns of one code point: 0 for combining marks, 2 for wide (CJK, emoji), else 1. */
int Text_cpWidth(unsigned cp);
/* Columns of a whole string. */
int Text_width(const char *s);
/* Bytes of s that fit in width columns (never cutting a character). */
size_t Text_fitBytes(const char *s, int width, int *used);
/* Copies s into out clipped to width columns; when it had to cut, the last column becomes
 * an ellipsis ("…", or "~" when !utf8). With pad, fills with spaces to exactly width.
 * When !utf8, characters outside ASCII become '?'. Returns the columns written. */
int Text_fit(char *out, size_t outlen, const char *s, int width, bool utf8, bool pad);
/* Word-wraps s into at most maxlines lines of at most width columns (hard newlines kept,
 * long words cut). lines[i] point into buf. Returns the number of lines. */
int Text_wrap(const char *s, int width, char *buf, size_t buflen, const char **lines, int maxlines);

#endif
