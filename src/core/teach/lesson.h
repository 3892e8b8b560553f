/* Lessons: a ladder taught step by step, as a data file (lessons/NAME.lesson, and the
 * user's own in $XDG_CONFIG_HOME/gemmtop/lessons/). Plain "key = value" lines:
 *   # a comment
 *   title  = The myGEMM OpenCL SGEMM tutorial        (lesson keys, before the first step)
 *   source = Cedric Nugteren's tutorial (docs/sources.md, item 1)
 *   about  = one line of the lesson's introduction    (repeatable: the lines are joined)
 *   cpu_size = 128x128x4096                           (optional: every step's M, N, K on a CPU,
 *                                                      where the lesson's point needs its shape;
 *                                                      a step may give its own)
 *   step   = 01-naive                                 (starts a step: the preset it loads)
 *   title  = Naive: one work-item per element of C   (the step's own keys follow)
 *   text   = what to say and show at this step        (repeatable)
 *   notes  = for the lecturer only                    (repeatable: speaker notes)
 *   reference = the figure the source reported, as text ("2.54 GFLOPS on the DCU")
 *   reference_gflops = 2.54                           (that figure as a number, optional)
 *   ablate = no-a,no-b                                (optional: the step is an ablation)
 *   limits = max_wg=256                               (optional: simulated device limits,
 *                                                      as GEMMTOP_DEVICE_LIMITS takes them)
 *   check = banks A fragment load = 4.00              (repeatable: what the text claims, in a
 *   check = refused                                    form tests/e2e/lesson_claims.sh checks
 *   check = verifies pocl                              against gemmtop: a site's worst bank
 *                                                      ratio; refused on every device; runs
 *                                                      and verifies on a --device kind)
 *   show = banks                                      (optional: the step's lesson is the bank
 *                                                      grid: it opens zoomed, on the site its
 *                                                      first banks check names)
 * Counts that depend on the size or the configuration are computed, never written out:
 * `about`, `text` and `notes` take placeholders, {EXPR} (an expression of the kernels'
 * metadata syntax, core/model/expr.h, over the configuration on screen: its parameters, M, N,
 * K, CUS the compute units, ...) and {EXPR|NOUN} (the value, then NOUN with an s unless
 * the value is 1: "{M / BM * N / BN|work-group}"), so that a lesson's text stays true at
 * the size a CPU runs it at. Titles take none (they are listed where no configuration is).
 * Nothing is cut: a line or a field over its limit is refused with its line number. */
#ifndef GEMMTOP_LESSON_H
#define GEMMTOP_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#define LESSON_MAX_STEPS 32
#define LESSON_MAX_CHECKS 4

/* A claim of a step's text in a form a test can hold against what gemmtop computes, so
 * that the text and the screen cannot drift apart. */
typedef enum { LESSON_CHECK_BANKS = 1, LESSON_CHECK_REFUSED, LESSON_CHECK_VERIFIES } LessonCheckKind;
typedef struct LessonCheck_ {
   LessonCheckKind kind;
   char site[64];            /* BANKS: the access site, as 'gemmtop banks' names it */
   double ratio;             /* BANKS: its worst wavefronts over the ideal ("4.00x") */
   char device[16];          /* VERIFIES: a --device kind ("pocl") */
} LessonCheck;

/* What a step opens when it loads (`show =`). */
typedef enum { LESSON_SHOW_NONE, LESSON_SHOW_BANKS } LessonShow;

typedef struct LessonStep_ {
   char preset[64];
   char title[128];
   char *text;               /* malloc'ed, lines joined with '\n'; NULL when none */
   char *notes;              /* the lecturer's notes: behind a key, in the exports, never on the
                              * projected pane by themselves (malloc'ed; NULL when none) */
   char reference[256];      /* "" when the source reported nothing for this step */
   double reference_gflops;  /* 0 when none */
   unsigned ablate;          /* AblateFlag bits; 0 for a real run */
   char limits[128];         /* simulated device limits, "" for the device's own */
   int line;                 /* where the step starts in its file */
   LessonCheck checks[LESSON_MAX_CHECKS];
   int nchecks;
   LessonShow show;
   int cpu_size[3];          /* this step's M, N, K on a CPU (0: the lesson's) */
} LessonStep;

typedef struct Lesson_ {
   char name[64];            /* file name without .lesson */
   char path[512];
   char title[128];
   char source[256];
   char *about;              /* malloc'ed or NULL */
   int cpu_size[3];          /* M, N, K of every step on a CPU (0: each brought down to the CPU size) */
   LessonStep steps[LESSON_MAX_STEPS];
   int nsteps;
   bool user;                /* from the user's folder */
   bool replaces_shipped;    /* ... and a shipped lesson of the same name is hidden by it */
} Lesson;

/* Parses one file; on failure err names the file and line. */
bool Lesson_load(const char *path, Lesson *out, char *err, size_t errlen);
/* Parses text (as if read from a file named path). */
bool Lesson_parse(const char *text, size_t len, const char *path, Lesson *out, char *err, size_t errlen);
void Lesson_free(Lesson *l);
/* One check line's value ("banks SITE = RATIO", "refused", "verifies KIND"); false with why. */
bool Lesson_parseCheck(const char *text, LessonCheck *out, char *why, size_t whylen);

/* Evaluates a placeholder's expression for the configuration shown; false with why. */
typedef bool (*LessonEval)(void *ctx, const char *expr, long long *value, char *why, size_t whylen);
/* text with each placeholder replaced by its value (and noun): into out, whole when it
 * fits (false when it does not: out then ends at a character boundary). A placeholder
 * that eval cannot evaluate is shown as [EXPR: why], never as a number. */
bool Lesson_render(const char *text, LessonEval eval, void *ctx, char *out, size_t outlen);
/* Whether text's placeholders are well formed (closed, an expression in each, a noun of
 * letters and hyphens); false with why. */
bool Lesson_checkPlaceholders(const char *text, char *why, size_t whylen);

/* What a lesson needs that not every device has, in words ("an sm_90a GPU, an H100 or H200,
 * with --backend cuda"), from its steps' kernels: NULL when a step runs anywhere (the list and the chooser
 * mark the lessons that need a Hopper GPU). */
struct PresetList_;
struct Catalog_;
const char *Lesson_needs(const Lesson *l, const struct PresetList_ *presets, const struct Catalog_ *cat);

/* The size a lesson brings a GPU's presets down to on a CPU (the explorer's CPU size). */
#define LESSON_CPU_SIZE 512

/* How a lesson's steps are sized on a device. */
typedef struct LessonSize_ {
   int dims[3];              /* M, N, K of every step (0: the preset's) */
   int cap;                  /* else no step's M, N or K above it (0: none) */
   bool cpu_shape;           /* a CPU, no size asked: the lesson's and its steps' cpu_size (dims: the
                              * lesson's, a step's own replacing them; none: cap) */
} LessonSize;
/* The sizes asked for (asked[i] > 0: --size, -m, -n, -k) on any device; on a CPU with
 * none asked, the lesson's cpu_size or a step's own where they have one, else each of M,
 * N, K brought down to cpu_cap (the explorer's CPU size). */
void Lesson_size(const Lesson *l, const int asked[3], bool cpu, int cpu_cap, LessonSize *out);
/* The sizing of one step: its own cpu_size where the lesson's CPU shape applies. */
LessonSize LessonSize_forStep(const LessonSize *s, const LessonStep *st);
/* A step's sizes (its preset's, in place) as s (LessonSize_forStep's) says; whether any changed. */
bool LessonSize_apply(const LessonSize *s, int *m, int *n, int *k);

typedef struct LessonList_ {
   Lesson *items;
   int count;
   char warnings[2048];      /* files that did not parse, one per line */
} LessonList;

/* Shipped lessons (dir) then the user's; a user's lesson of the same name replaces the
 * shipped one (replaces_shipped). Files that do not parse are named in warnings. Sorted
 * by name. */
bool LessonList_load(LessonList *l, const char *dir, char *err, size_t errlen);
void LessonList_free(LessonList *l);
const Lesson *LessonList_find(const LessonList *l, const char *name);
/* $GEMMTOP_LESSONS, or lessons/ next to the kernels folder (share/gemmtop/lessons). */
bool Lesson_defaultDir(const char *kernels_dir, char *out, size_t outlen);

#endif
