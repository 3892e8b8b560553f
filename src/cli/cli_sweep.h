/* gemmtop sweep (cli_sweep.c): options resolved, each size's space enumerated and
 * shuffled, then searched by core's one sweep (core/sweeprun.h), reported and saved. Who
 * measures is the only part that differs: this process (compiling ahead, then a child
 * process per configuration), or the ranks of an MPI job (cli/mpisweep.h), through a
 * SweepDriver. */
#ifndef GEMMTOP_CLI_SWEEP_H
#define GEMMTOP_CLI_SWEEP_H

#include <stdbool.h>

#include "cli/options.h"
#include "core/shapes.h"
#include "core/sweeprun.h"

/* Sizes in one sweep: a list of --size, or a shape suite (core/shapes.h). */
#define SWEEP_MAX_SIZES SHAPES_MAX

/* The sweep that o describes, measured by d (NULL: here). Returns the exit code. */
int Cli_sweepWith(const Options *o, const SweepDriver *d);

/* What SweepRun_measureAll says, as gemmtop sweep says it on stderr: the progress line
 * (when tty; pr keeps the best so far between calls) and its notes. pr must outlive the run. */
typedef struct CliSweepProgress_ {
   bool tty;
   char best[256];
} CliSweepProgress;
SweepEvents Cli_sweepEvents(CliSweepProgress *pr);

/* The search the options ask for: --strategy (random by default, exhaustive with
 * --exhaustive) and --budget (40 by default; 0: every valid configuration). */
void Cli_sweepSearch(const Options *o, SearchStrategy *strategy, int *budget);

/* The progress line on stderr (when tty): what, done of total, the ETA, best. */
void Cli_sweepProgress(bool tty, const char *what, int done, int total, double t0, const char *best);

#endif
