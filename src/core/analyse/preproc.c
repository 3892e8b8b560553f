#include "core/analyse/preproc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* A line marker: "# 12 \"file\" flags". */
static bool markerFile(const char *line, size_t len, const char *file) {
   if (len < 3 || line[0] != '#' || line[1] != ' ' || !isdigit((unsigned char)line[2]))
      return false;
   const char *q = memchr(line, '"', len);
   if (!q)
      return false;
   size_t fl = strlen(file);
   return (size_t)(line + len - q) > fl + 1 && !strncmp(q + 1, file, fl) && q[1 + fl] == '"';
}

static bool isMarker(const char *line, size_t len) {
   return len >= 3 && line[0] == '#' && line[1] == ' ' && isdigit((unsigned char)line[2]);
}

static bool blank(const char *line, size_t len) {
   for (size_t i = 0; i < len; i++)
      if (!isspace((unsigned char)line[i]))
         return false;
   return true;
}

char *Preproc_keepFile(const char *in, const char *file) {
   size_t n = strlen(in);
   char *out = malloc(n + 1);
   if (!out)
      return NULL;
   size_t o = 0;
   bool keep = false, lastBlank = true;
   for (const char *p = in; *p;) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) : strlen(p);
      if (isMarker(p, len)) {
         keep = markerFile(p, len, file);
      } else if (keep) {
         bool b = blank(p, len);
         if (!(b && lastBlank)) {
            memcpy(out + o, p, len);
            o += len;
            out[o++] = '\n';
         }
         lastBlank = b;
      }
      p = nl ? nl + 1 : p + len;
   }
   out[o] = '\0';
   return out;
}

char *Preproc_kernel(const char *prelude, const char *body, const char *file, const char *defines, char *err,
                     size_t errlen) {
   /* The defines become #define lines: nothing of them reaches a shell. */
   size_t cap = strlen(prelude) + strlen(body) + strlen(defines) * 2 + strlen(file) + 256;
   char *src = malloc(cap);
   if (!src) {
      snprintf(err, errlen, "out of host memory");
      return NULL;
   }
   size_t o = 0;
   for (const char *d = strstr(defines, "-D"); d; d = strstr(d, "-D")) {
      d += 2;
      size_t len = strcspn(d, " ");
      const char *eq = memchr(d, '=', len);
      if (eq)
         o += (size_t)snprintf(src + o, cap - o, "#define %.*s %.*s\n", (int)(eq - d), d, (int)(d + len - eq - 1),
                               eq + 1);
      else
         o += (size_t)snprintf(src + o, cap - o, "#define %.*s 1\n", (int)len, d);
      d += len;
   }
   snprintf(src + o, cap - o, "%s\n#line 1 \"%s\"\n%s\n", prelude, file, body);
   char dir[] = "/tmp/gemmtop-cpp-XXXXXX";
   if (!mkdtemp(dir)) {
      free(src);
      snprintf(err, errlen, "cannot make a temporary folder for the preprocessor");
      return NULL;
   }
   char path[128], cmd[512];
   snprintf(path, sizeof path, "%s/k.cl", dir);
   char *out = NULL;
   if (Util_writeFileAtomic(path, src, strlen(src))) {
      snprintf(cmd, sizeof cmd, "cpp -x c -std=c11 -w %s 2>/dev/null", path);
      char *raw = Util_capture(cmd);
      if (raw) {
         out = Preproc_keepFile(raw, file);
         free(raw);
      }
      if (!out)
         snprintf(err, errlen, "the C preprocessor (cpp) is not installed or refused the kernel");
      unlink(path);
   } else {
      snprintf(err, errlen, "cannot write %s", path);
   }
   rmdir(dir);
   free(src);
   return out;
}
