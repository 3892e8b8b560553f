/* The ladder table a lesson builds as the class goes: one row per step, its verified
 * speed, the speed-up over the previous step and over step 1, % of the best, and the
 * figure the source reported; exported as Markdown, CSV and an SVG bar chart. Pure
 * functions: no device, no terminal. */
#ifndef GEMMTOP_LADDER_H
#define GEMMTOP_LADDER_H

#include <stdbool.h>

#include "core/lesson.h"

typedef struct LadderRow_ {
   char label[160];          /* "6 06-2d: 2D register blocking" */
   char config[256];         /* the configuration measured, "" until measured */
   double gflops;            /* the step's verified figure; 0 until measured */
   bool measured;
   bool emulated;            /* tensor-core instructions emulated: shown, never compared */
   bool ablated;             /* work switched off (not a GEMM result): shown, never compared */
   char refused[256];        /* why the step could not run ("" when it ran or is unmeasured) */
   double reference_gflops;  /* what the source reported (0: nothing) */
   char reference[256];
} LadderRow;

typedef struct Ladder_ {
   char title[128];
   char device[160];
   LadderRow rows[LESSON_MAX_STEPS];
   int nrows;
} Ladder;

void Ladder_init(Ladder *l, const Lesson *lesson, const char *device);
/* Records a verified figure for step (0-based); a later one replaces it. Unverified runs are
 * not recorded (the caller says why on screen). An ablated or emulated figure is shown,
 * labelled, and never compared: no speed-up, no % of best, not the best. */
void Ladder_record(Ladder *l, int step, double gflops, const char *config, bool emulated, bool ablated);
/* The step was refused (a rule, a simulated limit): the row says why instead of a figure. */
void Ladder_refuse(Ladder *l, int step, const char *why, const char *config);
/* Whether row i has a figure that may be compared (measured, neither ablated nor emulated). */
bool Ladder_ranked(const Ladder *l, int i);
/* Steps with a figure or a refusal. */
int Ladder_done(const Ladder *l);
/* Speed-up of row i over the previous row and over row 0; 0 when either is not ranked. */
double Ladder_speedupPrevious(const Ladder *l, int i);
double Ladder_speedupFirst(const Ladder *l, int i);
/* Percent of the best measured row; 0 when row i is unmeasured. */
double Ladder_percentOfBest(const Ladder *l, int i);
/* malloc'ed texts; NULL when out of memory. */
char *Ladder_markdown(const Ladder *l);
char *Ladder_csv(const Ladder *l);
char *Ladder_svg(const Ladder *l);

#endif
