/* Fuzzes the shape suites' reader (src/core/shapes.c): the input is a .shapes file. One it
 * takes has 1 to SHAPES_MAX shapes, each with M, N and K from 1 to SHAPES_MAX_SIZE, a label
 * and a weight more than 0 and finite, and no control character in what `gemmtop list
 * shapes` prints; a refusal names the file. */
#include "fuzz.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "core/shapes.h"

static void checkShapeText(const char *s) {
   if (Util_findControl(s, strlen(s), NULL) < strlen(s))
      abort();
}

int Fuzz_shapes(const uint8_t *data, size_t size) {
   static ShapeSuite suite; /* large: kept off the stack */
   char *text = malloc(size + 1);
   if (!text)
      return 0;
   memcpy(text, data, size);
   text[size] = '\0';
   char err[1024] = "";
   bool ok = Shapes_parse(text, size, "/x/suite.shapes", &suite, err, sizeof err);
   free(text);
   if (!ok) {
      if (!strstr(err, "suite.shapes"))
         abort();
      return 0;
   }
   if (suite.count < 1 || suite.count > SHAPES_MAX)
      abort();
   checkShapeText(suite.name);
   checkShapeText(suite.title);
   checkShapeText(suite.source);
   checkShapeText(suite.about);
   for (int i = 0; i < suite.count; i++) {
      const Shape *s = &suite.shapes[i];
      if (s->m < 1 || s->n < 1 || s->k < 1 || s->m > SHAPES_MAX_SIZE || s->n > SHAPES_MAX_SIZE ||
          s->k > SHAPES_MAX_SIZE || !(s->weight > 0) || !isfinite(s->weight))
         abort();
      checkShapeText(s->label);
   }
   return 0;
}

FUZZ_ENTRY(Fuzz_shapes)
