#include "base/textbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void TextBuf_put(TextBuf *t, const char *fmt, ...) {
   if (t->failed)
      return;
   for (;;) {
      va_list ap;
      va_start(ap, fmt);
      int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
      va_end(ap);
      if (n < 0) {
         t->failed = true;
         return;
      }
      if (t->s && t->len + (size_t)n < t->cap) {
         t->len += (size_t)n;
         return;
      }
      size_t ncap = (t->cap ? t->cap * 2 : 1024) + (size_t)n;
      char *ns = realloc(t->s, ncap);
      if (!ns) {
         t->failed = true;
         return;
      }
      t->s = ns;
      t->cap = ncap;
   }
}

/* What a page or chart cannot hold as it is: a control character (in caret form: XML has
 * none, and neither may a terminal that shows the text), a byte of no UTF-8 character or
 * U+FFFE, U+FFFF (as U+FFFD); a whole UTF-8 character copied. The bytes of p it took, or 0
 * for an ASCII character, which the caller writes. */
static int putNonAscii(TextBuf *t, const unsigned char *p) {
   char form[6];
   int used = Util_controlForm((const char *)p, form);
   if (used) {
      TextBuf_put(t, "%s", form);
      return used;
   }
   if (*p < 0x80)
      return 0;
   int n = Util_utf8Len((const char *)p, 4);
   bool bad = !n || (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe);
   TextBuf_put(t, "%.*s", bad ? 3 : n, bad ? "\xef\xbf\xbd" : (const char *)p);
   return n ? n : 1;
}

void TextBuf_putXml(TextBuf *t, const char *s) {
   for (const unsigned char *p = (const unsigned char *)s; *p;) {
      int used = putNonAscii(t, p);
      if (used) {
         p += used;
         continue;
      }
      switch (*p) {
      case '&': TextBuf_put(t, "&amp;"); break;
      case '<': TextBuf_put(t, "&lt;"); break;
      case '>': TextBuf_put(t, "&gt;"); break;
      case '"': TextBuf_put(t, "&quot;"); break;
      case '\'': TextBuf_put(t, "&#39;"); break;
      default: TextBuf_put(t, "%c", *p);
      }
      p++;
   }
}

void TextBuf_putMarkdown(TextBuf *t, const char *s) {
   for (const unsigned char *p = (const unsigned char *)s; *p;) {
      int used = putNonAscii(t, p);
      if (used) {
         p += used;
         continue;
      }
      switch (*p) {
      case '&': TextBuf_put(t, "&amp;"); break;
      case '<': TextBuf_put(t, "&lt;"); break;
      case '>': TextBuf_put(t, "&gt;"); break;
      case '\\': case '`': case '*': case '[': case ']': case '|': TextBuf_put(t, "\\%c", *p); break;
      default: TextBuf_put(t, "%c", *p);
      }
      p++;
   }
}

char *TextBuf_finish(TextBuf *t) {
   if (t->failed) {
      free(t->s);
      t->s = NULL;
   }
   return t->s;
}

void TextBuf_putCsv(TextBuf *t, const char *s) {
   if (!strpbrk(s, ",\"\n\r")) {
      TextBuf_put(t, "%s", s);
      return;
   }
   TextBuf_put(t, "\"");
   for (; *s; s++)
      TextBuf_put(t, *s == '"' ? "\"\"" : "%c", *s);
   TextBuf_put(t, "\"");
}

double TextBuf_tickStep(double max) {
   double step = 1;
   while (step * 5 < max)
      step *= 10;
   while (step > max && step > 1e-6)
      step /= 10;
   if (max / step > 5)
      step *= max / (step * 2) > 5 ? 5 : 2;
   return step;
}
