/* Command-line options shared by every command, and what they resolve to. */
#ifndef GEMMTOP_OPTIONS_H
#define GEMMTOP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/backend.h"
#include "core/catalog.h"
#include "core/preset.h"
#include "core/problem.h"

#define OPTIONS_MAX_SETS 32

typedef enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } OutputFormat;

typedef struct Options_ {
   const char *backend;      /* NULL: opencl */
   const char *device;       /* NULL: the best device */
   const char *kernel;
   const char *preset;
   const char *sets[OPTIONS_MAX_SETS];
   int nsets;
   Problem problem;
   bool has_m, has_n, has_k, has_precision, has_layout, has_alpha, has_beta;
   int reps, warmup;
   double max_seconds;
   OutputFormat format;
   uint64_t seed;
   bool has_seed;
   const char *a_path, *b_path, *c_path, *out_path;
   bool no_verify;
   unsigned ablate;          /* run: AblateFlag bits (--ablate no-a,no-b,no-fma,const-store) */
   bool no_color, ascii, measure;
   bool vendor;              /* run: also time the vendor library (CLBlast, cuBLAS) */
   const char *arch;         /* inspect: compile for this target (sm_90, gfx906) without a device */
   const char *code;         /* inspect: ptx, sass, isa, none */
   int budget;               /* sweep: configurations to try (0: default) */
   bool exhaustive;          /* sweep: every valid configuration */
   const char *sizes;        /* bench: "1024,2048,4096" */
   const char *save;         /* sweep, bench: results file (.csv or .json) */
   const char *reference;    /* bench: another backend whose vendor BLAS is also timed (cuda: cuBLAS) */
   int save_presets;         /* sweep: save the best N as presets */
   int rounds;               /* bench: rounds of libraries and configurations in turn (median) */
   double timeout;           /* sweep: seconds one launch may take before the configuration is dropped */
   int jobs;                 /* sweep: parallel compiles (0: one per core) */
   const char *site;         /* banks: the access site to draw (index or name) */
   int warp, iteration;      /* banks: warp (flat over traced groups) and execution of the grid */
   bool has_warp, has_iteration;
   int groups;               /* banks: work-groups to trace (0: 1) */
   int banks, bank_width, simd_width; /* banks: model overrides (0: the device's model) */
   const char *positional[64];
   int npositional;
} Options;

/* Parses argv from index first. Returns 0 ok, 2 usage error (message printed), 1 when
 * --help or --version was handled (exit 0). */
int Options_parse(Options *o, int argc, char **argv, int first, const char *command);
void Options_usage(FILE *out);

#endif
