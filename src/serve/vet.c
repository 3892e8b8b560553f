#include "serve/vet.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The source as the preprocessor reads its tokens: backslash-newlines joined, comments
 * made blanks (their newlines kept, so lines still count), string and character
 * literals kept as they are. */
static char *plain(const char *text, size_t len) {
   char *out = malloc(len + 1);
   if (!out)
      return NULL;
   size_t n = 0;
   for (size_t i = 0; i < len; i++) {
      if (text[i] == '\\' && i + 1 < len && text[i + 1] == '\n') {
         i++;
         continue;
      }
      out[n++] = text[i];
   }
   out[n] = '\0';
   char quote = 0;
   for (size_t i = 0; i < n; i++) {
      if (quote) {
         if (out[i] == '\\' && i + 1 < n)
            i++;
         else if (out[i] == quote || out[i] == '\n')
            quote = 0;
      } else if (out[i] == '"' || out[i] == '\'')
         quote = out[i];
      else if (out[i] == '/' && out[i + 1] == '/') {
         while (i < n && out[i] != '\n')
            out[i++] = ' ';
      } else if (out[i] == '/' && out[i + 1] == '*') {
         out[i] = out[i + 1] = ' ';
         for (i += 2; i < n && !(out[i] == '*' && out[i + 1] == '/'); i++)
            if (out[i] != '\n')
               out[i] = ' ';
         if (i < n)
            out[i] = out[i + 1] = ' ';
         i++;
      }
   }
   return out;
}

static bool wordChar(char c) {
   return isalnum((unsigned char)c) || c == '_';
}

bool Vet_kernelSource(const char *text, size_t len, char *why, size_t whylen) {
   static const char *const words[] = {"include",       "include_next", "import",     "embed",
                                       "__has_include", "__has_include_next", "__has_embed"};
   char *src = plain(text, len);
   if (!src) {
      snprintf(why, whylen, "out of memory on the server");
      return false;
   }
   bool ok = true;
   int line = 1;
   for (const char *p = src; *p && ok; p++) {
      if (*p == '\n') {
         line++;
         continue;
      }
      if ((p[0] == '?' && p[1] == '?' && p[2] == '=') || (p[0] == '%' && p[1] == ':')) {
         snprintf(why, whylen, "line %d: '%.*s' spells '#' in a way the server does not take; write '#'", line,
                  p[0] == '?' ? 3 : 2, p);
         ok = false;
         break;
      }
      if (*p == '"' || *p == '\'') {
         /* a literal's text is no directive */
         char quote = *p;
         for (p++; *p && *p != quote && *p != '\n'; p++)
            if (*p == '\\' && p[1])
               p++;
         if (*p == '\n')
            line++;
         if (!*p)
            break;
         continue;
      }
      if (!wordChar(*p) || (p > src && wordChar(p[-1])))
         continue;
      size_t n = 0;
      while (wordChar(p[n]))
         n++;
      for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
         if (strlen(words[w]) == n && !strncmp(p, words[w], n)) {
            snprintf(why, whylen,
                     "line %d: '%s' reaches for another file, which the server does not allow: a kernel file is one "
                     "file (gemmtop adds its helpers itself)",
                     line, words[w]);
            ok = false;
            break;
         }
      p += n - 1;
   }
   free(src);
   return ok;
}
