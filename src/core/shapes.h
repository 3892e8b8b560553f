/* Shape suites: the GEMMs a model or a study runs, as data (shapes/NAME.shapes, and the
 * user's in $XDG_CONFIG_HOME/gemmtop/shapes/). A file is lines of
 *     MxNxK  LABEL  [WEIGHT]
 * (a shape, its name, and how much it counts in the suite's weighted geometric mean,
 * default 1), with `title = ...`, `about = ...` (repeatable), `source = ...` and
 * `candidates = KERNEL ...` (repeatable: the kernels gemmtop tune tries on this suite
 * instead of those whose metadata says `tune: yes`) lines, and # comments. The suite's
 * name is the file's, without .shapes. */
#ifndef GEMMTOP_SHAPES_H
#define GEMMTOP_SHAPES_H

#include <stdbool.h>
#include <stddef.h>

#define SHAPES_MAX 64          /* shapes in one suite */
#define SHAPES_MAX_SIZE 1048576 /* M, N or K */

typedef struct Shape_ {
   int m, n, k;
   char label[48];
   double weight;             /* > 0 */
} Shape;

typedef struct ShapeSuite_ {
   char name[64];
   char path[1024];
   char title[160];
   char source[256];
   char about[1024];
   char candidates[512];      /* kernels' names, separated by spaces; "" when not given */
   Shape shapes[SHAPES_MAX];
   int count;
   bool user;                 /* from the user's folder (a shipped suite of that name is hidden) */
} ShapeSuite;

/* Parses text as the file path; false with the file, the line and what is wrong. */
bool Shapes_parse(const char *text, size_t len, const char *path, ShapeSuite *out, char *err, size_t errlen);
bool Shapes_load(const char *path, ShapeSuite *out, char *err, size_t errlen);

typedef struct ShapeSuites_ {
   ShapeSuite *items;
   int count;
   char warnings[2048];       /* files that did not parse, one a line */
} ShapeSuites;

/* The shipped suites (dir, may be NULL) then the user's, sorted by name. */
void ShapeSuites_load(ShapeSuites *s, const char *dir);
void ShapeSuites_free(ShapeSuites *s);
const ShapeSuite *ShapeSuites_find(const ShapeSuites *s, const char *name);
/* $GEMMTOP_SHAPES, or shapes/ next to the kernels folder (share/gemmtop/shapes). */
bool Shapes_defaultDir(const char *kernels_dir, char *out, size_t outlen);
/* A suite by name, or a file when the word names one (a '/' or a .shapes ending); false
 * with a message that lists the suites there are. */
bool Shapes_resolve(const char *word, const char *kernels_dir, ShapeSuite *out, char *err, size_t errlen);

/* The weighted geometric mean of values[i] (> 0) with weights[i]; the values that are not
 * positive and finite are left out (*used says how many counted). 0 when none did. */
double Shapes_weightedGeomean(const double *values, const double *weights, int n, int *used);

#endif
