/* Preparing a lesson before class (gemmtop lesson NAME --prepare): each step made ready as
 * its first visit in the explorer would make it, so that the class's first visit is a
 * cache load and a launch. A step's configuration is its preset at the lesson's size on
 * this device (core/teach/lesson.h: Lesson_size), its ablation and simulated limits; it is
 * compiled into the disk cache (the distinct configurations in parallel, by
 * LESSONPREP_MAX_THREADS threads at most, while this thread launches), launched once and
 * verified on fresh inputs (which, on PoCL, also builds and caches the work-group code the
 * first launch makes), and traced for the bank pane when it has local-memory sites.
 *
 * How long it takes: a prepare's time on this device and driver is kept beside the compiled
 * programs (the disk cache), so the next prepare of the lesson says up front how long one
 * took with a cold cache (a prepare much quicker than the one recorded, its programs found
 * compiled, leaves the record as it was). */
#ifndef GEMMTOP_LESSONPREP_H
#define GEMMTOP_LESSONPREP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model/catalog.h"
#include "core/teach/lesson.h"
#include "core/model/preset.h"
#include "core/run/session.h"

#define LESSONPREP_MAX_THREADS 4

typedef enum {
   PREP_READY = 1,          /* compiled, launched and verified (or ablated: launched) */
   PREP_REFUSED_BY_STEP,    /* refused under the step's simulated limits, as the lesson means */
   PREP_REFUSED_BY_DEVICE,  /* refused by this device (a rule, the backend, the memory) */
   PREP_FAILED,             /* did not compile, run or verify: why says */
} PrepOutcome;

typedef struct LessonPrepStep_ {
   PrepOutcome outcome;
   char why[600];
   double seconds;          /* from the start of its compile's wait to its trace's end */
   bool compiled;           /* built now (not found in the disk cache) */
   int m, n, k;             /* the size it ran at */
} LessonPrepStep;

/* Called after each step (done of total), and once before the first (done 0); left_s is
 * the time the remaining steps should take by the record or by the steps done so far (< 0:
 * not known yet). */
typedef void (*LessonPrepProgress)(void *ctx, int done, int total, const char *what, double left_s);

/* The time a prepare of lesson l with a cold cache took on s's device and driver, in seconds
 * (< 0 when none is recorded); *when gets its date ("" when none). */
double LessonPrep_recorded(const Session *s, const Lesson *l, char *when, size_t whenlen);

/* Prepares every step of l on s (threads compile; 0: one per core but one, at least 1),
 * sized as size says; out has l->nsteps entries. Returns the steps that failed. */
int LessonPrep_run(Session *s, const Catalog *cat, const PresetList *presets, const Lesson *l, const LessonSize *size,
                   int threads, LessonPrepProgress progress, void *ctx, LessonPrepStep *out);

#endif
