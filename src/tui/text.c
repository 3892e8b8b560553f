#include "tui/text.h"

#include <string.h>

int Text_decode(const char *str, size_t n, unsigned *cp) {
   const unsigned char *s = (const unsigned char *)str;
   if (n == 0 || !s[0]) {
      *cp = 0;
      return 0;
   }
   unsigned c = s[0];
   int len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
   if (len == 0 || (size_t)len > n) {
      *cp = 0xFFFD;
      return 1;
   }
   unsigned v = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
   for (int i = 1; i < len; i++) {
      if ((s[i] & 0xC0) != 0x80) {
         *cp = 0xFFFD;
         return 1;
      }
      v = v << 6 | (s[i] & 0x3F);
   }
   /* Overlong forms and surrogates are invalid. */
   if ((len == 2 && v < 0x80) || (len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
       (v >= 0xD800 && v <= 0xDFFF)) {
      *cp = 0xFFFD;
      return 1;
   }
   *cp = v;
   return len;
}

int Text_cpWidth(unsigned cp) {
   if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
      return 1; /* control characters are drawn as one cell by the caller's clipping */
   if ((cp >= 0x300 && cp <= 0x36F) || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0xFE00 && cp <= 0xFE0F) ||
       (cp >= 0x20D0 && cp <= 0x20FF))
      return 0;
   if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
       (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
       (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) || (cp >= 0x20000 && cp <= 0x3FFFD))
      return 2;
   return 1;
}

int Text_width(const char *s) {
   int w = 0;
   size_t n = strlen(s);
   unsigned cp;
   for (int len; (len = Text_decode(s, n, &cp)) > 0; s += len, n -= (size_t)len)
      w += Text_cpWidth(cp);
   return w;
}

size_t Text_fitBytes(const char *s, int width, int *used) {
   size_t n = strlen(s), off = 0;
   int w = 0;
   unsigned cp;
   for (int len; (len = Text_decode(s + off, n - off, &cp)) > 0; off += (size_t)len) {
      int cw = Text_cpWidth(cp);
      if (w + cw > width)
         break;
      w += cw;
   }
   if (used)
      *used = w;
   return off;
}

/* Appends n bytes if they fit (with the terminator); *full says when they did not. */
static size_t put(char *out, size_t outlen, size_t o, const char *bytes, size_t n, bool *full) {
   if (o + n < outlen) {
      memcpy(out + o, bytes, n);
      o += n;
   } else {
      *full = true;
   }
   return o;
}

int Text_fit(char *out, size_t outlen, const char *s, int width, bool utf8, bool pad) {
   if (!outlen)
      return 0;
   if (width < 0)
      width = 0;
   bool cut = Text_width(s) > width;
   int room = cut ? width - 1 : width, w = 0;
   size_t o = 0, n = strlen(s);
   unsigned cp;
   bool full = false;
   for (int len; !full && (len = Text_decode(s, n, &cp)) > 0; s += len, n -= (size_t)len) {
      int cw = utf8 ? Text_cpWidth(cp) : 1;
      if (w + cw > room)
         break;
      if (cp < 0x20 || cp == 0x7F)
         o = put(out, outlen, o, " ", 1, &full);
      else if (!utf8 && cp >= 0x80)
         o = put(out, outlen, o, "?", 1, &full);
      else if (cp == 0xFFFD && len == 1)
         o = put(out, outlen, o, "?", 1, &full);
      else
         o = put(out, outlen, o, s, (size_t)len, &full);
      if (!full)
         w += cw;
   }
   if (cut && width > 0 && !full) {
      o = utf8 ? put(out, outlen, o, "\xe2\x80\xa6", 3, &full) : put(out, outlen, o, "~", 1, &full);
      if (!full)
         w++;
   }
   while (pad && w < width && !full) {
      o = put(out, outlen, o, " ", 1, &full);
      if (!full)
         w++;
   }
   out[o < outlen ? o : outlen - 1] = '\0';
   return w;
}

int Text_wrap(const char *s, int width, char *buf, size_t buflen, const char **lines, int maxlines) {
   if (width < 1 || maxlines < 1 || buflen < 2)
      return 0;
   size_t o = 0;
   int count = 0;
   while (*s && count < maxlines) {
      /* One output line: up to width columns, ending at a newline or the last space. */
      const char *nl = strchr(s, '\n');
      size_t linelen = nl ? (size_t)(nl - s) : strlen(s);
      char tmp[1024];
      size_t tl = linelen < sizeof tmp - 1 ? linelen : sizeof tmp - 1;
      memcpy(tmp, s, tl);
      tmp[tl] = '\0';
      int used;
      size_t fitb = Text_fitBytes(tmp, width, &used);
      size_t take = fitb, skip = fitb;
      if (fitb < tl) {
         size_t sp = fitb;
         while (sp > 0 && tmp[sp] != ' ')
            sp--;
         if (sp > 0) {
            take = sp;
            skip = sp + 1;
         }
      } else {
         skip = linelen + (nl ? 1 : 0);
      }
      if (skip == 0) { /* a character wider than the line: take it anyway */
         unsigned cp;
         take = skip = (size_t)Text_decode(tmp, tl, &cp);
      }
      if (o + take + 1 > buflen)
         break;
      memcpy(buf + o, s, take);
      buf[o + take] = '\0';
      lines[count++] = buf + o;
      o += take + 1;
      s += skip;
      if (fitb < tl)
         while (*s == ' ')
            s++;
   }
   return count;
}
