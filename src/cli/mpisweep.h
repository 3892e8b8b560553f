/* gemmtop sweep --mpi (docs/mpi.md): the sweep of cli_sweep.c, measured by the ranks of an
 * MPI job started with mpirun or srun, one rank per GPU (the node-local rank picks the
 * device among those --device matches). Rank 0 enumerates, hands out one configuration at
 * a time to whichever rank is free (so a slow one stalls no other), writes each result to
 * the results store as it comes, skips what the store already holds for the same sweep
 * (the rerun resumes), and prints the progress and the tables. Each rank, rank 0 included,
 * compiles, verifies and times in its own child process (core/sweep/measurer.h) and times its own
 * GPU's vendor BLAS, against which its results are given. --mpi-simulate FILE: the ranks
 * answer at once with recorded times, to measure what rank 0 can hand out.
 * Only this module speaks MPI; built without it (make MPI=0, or no MPI found), --mpi says
 * how to get it. */
#ifndef GEMMTOP_MPISWEEP_H
#define GEMMTOP_MPISWEEP_H

#include "cli/options.h"

/* `gemmtop sweep --mpi` on every rank. Returns the exit code. */
int MpiSweep_main(const CommandArgs *o);

#endif
