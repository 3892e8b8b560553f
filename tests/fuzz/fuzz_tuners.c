/* Fuzzes the readers of other tuners' files (src/core/results/resultfmt.c): the input is the file,
 * read as whichever of Kernel Tuner's T4 and CLBlast's tuner JSON it is, with and without
 * the labels a user gives. Rows it accepts must name a device and a kernel, have a size,
 * and a time that is unknown (NaN) or a finite number more than 0; a refusal must name
 * the file. */
#include "fuzz.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/results/resultfmt.h"

static void check(const char *text, size_t size, const ImportLabels *labels) {
   char err[512] = "";
   int n = -1;
   StoreRecord *rows = ResultImport_parse("f.json", text, size, NULL, labels, 0, &n, NULL, err, sizeof err);
   if (!rows) {
      if (strncmp(err, "f.json: ", 8) != 0 || n != 0)
         abort();
      return;
   }
   for (int i = 0; i < n; i++) {
      const StoreRecord *r = &rows[i];
      if (!r->device[0] || !r->kernel[0] || r->problem.m <= 0 || r->problem.n <= 0 || r->problem.k <= 0)
         abort();
      if (!isnan(r->median_ms) && !(isfinite(r->median_ms) && r->median_ms > 0))
         abort(); /* a time is unknown, or a finite number more than 0 */
   }
   free(rows);
}

int Fuzz_tuners(const uint8_t *data, size_t size) {
   char *text = malloc(size + 1); /* the readers take a NUL after the text, as files are read */
   if (!text)
      return 0;
   memcpy(text, data, size);
   text[size] = '\0';
   ImportLabels labels = {.device = "d", .kernel = "k", .m = 64, .n = 64, .k = 64, .precision = -1};
   check(text, size, NULL);
   check(text, size, &labels);
   free(text);
   return 0;
}

FUZZ_ENTRY(Fuzz_tuners)
