#include "explorer/logbuf.h"

#include <stdbool.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void LogBuf_init(LogBuf *b, int cap) {
   memset(b, 0, sizeof *b);
   b->cap = cap > 0 ? cap : 1;
   b->ring = calloc((size_t)b->cap, sizeof *b->ring);
   if (!b->ring)
      b->cap = 0;
}

void LogBuf_clear(LogBuf *b) {
   for (int i = 0; i < b->count; i++)
      free(b->ring[(b->start + i) % b->cap].text);
   b->start = b->count = 0;
   b->added++;
}

void LogBuf_free(LogBuf *b) {
   if (b->ring)
      LogBuf_clear(b);
   free(b->ring);
   memset(b, 0, sizeof *b);
}

/* Takes ownership of text. */
static void push(LogBuf *b, LogLevel level, time_t when, int first, char *text) {
   if (!b->cap || !text) {
      free(text);
      return;
   }
   LogLine *slot;
   if (b->count == b->cap) {
      slot = &b->ring[b->start];
      free(slot->text);
      b->start = (b->start + 1) % b->cap;
   } else {
      slot = &b->ring[(b->start + b->count) % b->cap];
      b->count++;
   }
   slot->level = level;
   slot->when = when;
   slot->first = first;
   slot->text = text;
   b->added++;
}

void LogBuf_add(LogBuf *b, LogLevel level, const char *text) {
   if (!text)
      return;
   size_t len = strlen(text);
   while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' '))
      len--;
   time_t now = time(NULL);
   int first = 1;
   size_t i = 0;
   do {
      size_t j = i;
      while (j < len && text[j] != '\n')
         j++;
      size_t n = j - i;
      if (n > 0 && text[j - 1] == '\r')
         n--;
      char *line = malloc(n * 4 + 1); /* tabs become up to 4 spaces */
      if (line) {
         size_t o = 0;
         for (size_t k = i; k < i + n; k++) {
            if (text[k] == '\t') {
               int sp = 4 - (int)(o % 4);
               while (sp-- > 0)
                  line[o++] = ' ';
            } else
               line[o++] = text[k];
         }
         line[o] = '\0';
      }
      push(b, level, now, first, line);
      first = 0;
      i = j + 1;
   } while (i < len);
}

void LogBuf_addv(LogBuf *b, LogLevel level, const char *fmt, va_list ap) {
   char buf[2048];
   vsnprintf(buf, sizeof buf, fmt, ap);
   LogBuf_add(b, level, buf);
}

void LogBuf_addf(LogBuf *b, LogLevel level, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   LogBuf_addv(b, level, fmt, ap);
   va_end(ap);
}

const LogLine *LogBuf_line(const LogBuf *b, int i) {
   if (i < 0 || i >= b->count)
      return NULL;
   return &b->ring[(b->start + i) % b->cap];
}

void LogBuf_move(LogBuf *dst, LogBuf *src) {
   for (int i = 0; i < src->count; i++) {
      LogLine *l = &src->ring[(src->start + i) % src->cap];
      push(dst, l->level, l->when, l->first, l->text);
      l->text = NULL;
   }
   src->start = src->count = 0;
}

static bool isSep(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\'' || c == '(' || c == ':'; }

char *LogBuf_renameSource(const char *log, const char *file) {
   size_t n = strlen(log), fl = strlen(file), cap = n + 1, o = 0;
   /* Each replaced token is at least 3 bytes (".cl"), so this bounds the growth. */
   cap += (n / 3 + 1) * fl;
   char *out = malloc(cap);
   if (!out)
      return NULL;
   size_t i = 0;
   while (i < n) {
      bool start = i == 0 || isSep(log[i - 1]);
      if (!start || isSep(log[i])) {
         out[o++] = log[i++];
         continue;
      }
      size_t e = i;
      while (e < n && !isSep(log[e]))
         e++;
      size_t tl = e - i;
      bool cl = tl >= 3 && !memcmp(log + e - 3, ".cl", 3);
      bool named = (tl == 8 && !memcmp(log + i, "<source>", 8)) || (tl == 8 && !memcmp(log + i, "<kernel>", 8)) ||
                   (tl == 15 && !memcmp(log + i, "default_program", 15));
      bool located = e + 1 < n && (log[e] == ':' || log[e] == '(') && log[e + 1] >= '0' && log[e + 1] <= '9';
      if ((cl || named) && located) {
         memcpy(out + o, file, fl);
         o += fl;
      } else {
         memcpy(out + o, log + i, tl);
         o += tl;
      }
      i = e;
   }
   out[o] = '\0';
   return out;
}
