/* Fuzzes what a class server reads from a client (src/serve/serve.c's connection, with
 * src/base/lines.c and src/serve/vet.c): the input is the bytes a client sends, read as the
 * server reads them: lines through a LineReader over a pipe (one longer than LINES_MAX - 1
 * said at once, never cut), a "file NAME BYTES" line and the bytes after it vetted, a job
 * line parsed, a run's values read. A file the vetting takes holds no NUL, no carriage
 * return and no control character, and vetting it again takes it unchanged; a refusal
 * always says why. */
#include "fuzz.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/lines.h"
#include "base/util.h"
#include "core/measurer.h"
#include "serve/vet.h"

static void checkVetted(char *text, size_t len) {
   char why[512] = "";
   size_t n = len;
   if (!Vet_kernelSource(text, &n, why, sizeof why)) {
      if (!why[0])
         abort();
      return;
   }
   if (n > len || memchr(text, '\r', n) || Util_findControl(text, n, NULL) < n)
      abort();
   size_t again = n;
   if (!Vet_kernelSource(text, &again, why, sizeof why) || again != n)
      abort(); /* what was kept is what is compiled: it must stand a second look */
}

int Fuzz_serve(const uint8_t *data, size_t size) {
   int p[2];
   if (size > 60000 || pipe(p) != 0) /* a pipe holds 64 KiB: written whole, then read */
      return 0;
   if (write(p[1], data, size) != (ssize_t)size)
      abort();
   close(p[1]);
   LineReader in;
   LineReader_init(&in, p[0]);
   char line[LINES_MAX];
   for (;;) {
      int got = LineReader_next(&in, line, sizeof line, 0, NULL);
      if (got == LINES_TOO_LONG)
         break; /* the server answers and closes */
      if (got != 1)
         break;
      if (strlen(line) > LINES_MAX - 1)
         abort();
      char name[80], why[512] = "";
      size_t len = 0;
      MeasureJob job;
      long long values[KERNEL_MAX_PARAMS];
      if (!strncmp(line, "file ", 5)) {
         if (!Vet_fileLine(line, name, sizeof name, &len, why, sizeof why)) {
            if (!why[0])
               abort();
            continue;
         }
         if (len > UTIL_MAX_KERNEL_BYTES || strlen(name) < 4 || strcmp(name + strlen(name) - 3, ".cl") || strchr(name, '/'))
            abort();
         char *text = malloc(len + 1);
         if (!text)
            abort();
         if (LineReader_bytes(&in, text, len, 0)) {
            text[len] = '\0';
            checkVetted(text, len);
         }
         free(text);
      } else if (!strncmp(line, "job ", 4))
         MeasureJob_parse(line, &job);
      else if (!strncmp(line, "run", 3))
         Util_readInts(line + 3, values, KERNEL_MAX_PARAMS);
   }
   close(p[0]);
   return 0;
}

FUZZ_ENTRY(Fuzz_serve)
