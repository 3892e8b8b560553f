/* The ladder table a lesson builds as the class goes: one row per step, its verified
 * speed, the speed-up over the previous step and over step 1, % of the best, and the
 * figure the source reported; exported as Markdown, CSV and an SVG bar chart. Pure
 * functions: no device, no terminal. */
#ifndef GEMMTOP_LADDER_H
#define GEMMTOP_LADDER_H

#include <stdbool.h>

#include "core/teach/lesson.h"

typedef struct LadderRow_ {
   char label[160];          /* "6 06-2d: 2D register blocking" */
   char name[160];           /* the same without the step's number: "06-2d: 2D register blocking" */
   char config[256];         /* the configuration measured, "" until measured */
   double gflops;            /* the step's verified figure; 0 until measured */
   double spread_pct;        /* the spread of the launches it is the median of: their interquartile
                              * range over the median, in % */
   bool measured;
   bool emulated;            /* tensor-core instructions emulated: shown, never compared */
   bool ablated;             /* work switched off (not a GEMM result): shown, never compared */
   char ablation[64];        /* the switches ("no-a,no-b"); "" for a real run */
   char refused[256];        /* why the step could not run ("" when it ran or is unmeasured) */
   double reference_gflops;  /* what the source reported (0: nothing) */
   char reference[256];
   char *notes;              /* the step's speaker notes (a copy, malloc'ed); NULL none */
   char limit[96];           /* what limited it when its row was taken (core/analyse/limiter.h's brief
                              * words); "" unknown (the device's ceilings not measured) */
} LadderRow;

/* A step's measurement has settled once this many timed launches are in, or (for slow
 * steps) LADDER_SETTLE_MIN of them over LADDER_SETTLE_MS, with a spread of at most
 * LADDER_SETTLE_SPREAD %; a noisier one waits for more, up to LADDER_SETTLE_WAIT_LAUNCHES
 * launches or LADDER_SETTLE_WAIT_MS, and is then taken with its spread said. Its row takes
 * the median of those launches and keeps it (the explorer goes on measuring; the row does
 * not drift). */
#define LADDER_SETTLE_LAUNCHES 16
#define LADDER_SETTLE_MIN 3
#define LADDER_SETTLE_MS 10000.0
#define LADDER_SETTLE_SPREAD 10.0
#define LADDER_SETTLE_WAIT_LAUNCHES 64
#define LADDER_SETTLE_WAIT_MS 30000.0

typedef struct Ladder_ {
   char title[128];
   char device[160];
   char date[40];            /* when measured ("2026-11-28 00:40 UTC"); "" unknown */
   char method[256];         /* how each figure was timed, for the exports */
   LadderRow rows[LESSON_MAX_STEPS];
   int nrows;
} Ladder;

/* A ladder of lesson's steps, nothing measured (Ladder_free releases it). */
void Ladder_init(Ladder *l, const Lesson *lesson, const char *device);
void Ladder_free(Ladder *l);
/* Records a verified figure for step (0-based); a later one replaces it. Unverified runs are
 * not recorded (the caller says why on screen). An ablated or emulated figure is shown,
 * labelled, and never compared: no speed-up, no % of best, not the best. */
void Ladder_record(Ladder *l, int step, double gflops, double spread_pct, const char *config, bool emulated,
                   const char *ablation);
/* What limited step's measured figure, in the limiter's brief words. */
void Ladder_setLimit(Ladder *l, int step, const char *limit);
/* The nearest step before step whose limit is known (-1 none): what the step moved. */
int Ladder_previousLimit(const Ladder *l, int step);
/* The step was refused (a rule, a simulated limit): the row says why instead of a figure. */
void Ladder_refuse(Ladder *l, int step, const char *why, const char *config);
/* Whether nlaunches timed launches taking total_ms in all, with that spread (%), have
 * settled (LADDER_SETTLE_*). */
bool Ladder_settled(int nlaunches, double total_ms, double spread_pct);
/* Whether the ratio of rows i and j is within the noise their launches showed: it differs
 * from 1 by no more than the larger of their spreads. The pane and the exports mark such a
 * ratio with an approximately-equal sign: the steps cannot be told apart here. */
bool Ladder_withinSpread(const Ladder *l, int i, int j);
/* The row an ablated row i is put against (Ladder_vsReal), or -1. */
int Ladder_realRow(const Ladder *l, int i);
/* How long one launch of step's work (flops) should take, judged by the nearest earlier
 * row measured (its index in *basis); 0 when there is none. */
double Ladder_expectedSeconds(const Ladder *l, int step, double flops, int *basis);
/* Whether row i has a figure that may be compared (measured, neither ablated nor emulated). */
bool Ladder_ranked(const Ladder *l, int i);
/* Steps with a figure or a refusal. */
int Ladder_done(const Ladder *l);
/* Speed-up of row i over the previous row and over row 0; 0 when either is not ranked. */
double Ladder_speedupPrevious(const Ladder *l, int i);
double Ladder_speedupFirst(const Ladder *l, int i);
/* An ablated row against the real kernel: its figure over that of the nearest earlier row
 * measured for real with the same configuration (the MAGMA log's "28% change"); 0 when
 * row i is not ablated or has no such row. Never ranked. */
double Ladder_vsReal(const Ladder *l, int i);
/* Percent of the best measured row; 0 when row i is unmeasured. */
double Ladder_percentOfBest(const Ladder *l, int i);
/* malloc'ed texts; NULL when out of memory. */
char *Ladder_markdown(const Ladder *l);
char *Ladder_csv(const Ladder *l);
char *Ladder_svg(const Ladder *l);

#endif
