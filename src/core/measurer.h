/* Measurements that can be abandoned: a sweep (core/sweeprun.h: `gemmtop sweep` and the
 * explorer's sweep pane) verifies and times each configuration in a child process (the
 * same program, started as the child MEASURE_CHILD: base/children.h), because
 * a launch that does not end cannot be stopped: OpenCL has no way to kill one, and the
 * device stays busy with it until its process ends. A launch over the sweep's --timeout
 * makes the child report a timeout and end; a child that stops answering is killed; either
 * way the next configuration gets a fresh child, and the sweep goes on.
 *
 * The parent and the child speak lines of text over two pipes:
 *   parent: job <backend> <device> <kernel> <m> <n> <k> <precision> <ta> <tb> <alpha> <beta>
 *               <seed> <reps> <warmup> <timeout> <cold_l2> <scaling> <kernel folders>
 *               (reals as %a, exact; cold_l2 0 or 1; the folders: the rest of the line)
 *   child:  ready | failed <why>
 *   parent: run <value> <value> ...                        (one per kernel parameter)
 *   child:  result <outcome> <gflops> <median_ms> <compile_ms> <max_rel_err> <cached> <reason>
 *   parent: vendor                                         (the vendor BLAS, same inputs)
 *   child:  vendor <0|1 ran and verified> <gflops> <library name or why not> */
#ifndef GEMMTOP_MEASURE_H
#define GEMMTOP_MEASURE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/sweep.h"

typedef struct MeasureJob_ {
   char backend[16];
   int device;
   char kernel[64];
   char kernels_dir[1024]; /* the catalog's folders, as Catalog_load takes them */
   Problem problem;
   uint64_t seed;       /* the inputs (Inputs_random) */
   int reps, warmup;
   double timeout_s;    /* one launch may take this long */
   bool cold_l2;        /* time with the L2 cache cold (RunOptions.cold_l2) */
} MeasureJob;

typedef struct Measurer_ Measurer;

/* Nothing starts until the first Measurer_run. NULL when out of memory. */
Measurer *Measurer_new(const MeasureJob *job);
/* Verifies and times values (nvalues of them) in the child and fills c as Sweep_classify
 * does. A timeout, a child that ends or stops answering are outcomes of c, not errors.
 * When *cancel (if given) becomes non-zero meanwhile, the child is killed and c is left
 * SWEEP_PENDING (not measured); returns false then, else true. */
bool Measurer_run(Measurer *m, const long long *values, int nvalues, const atomic_int *cancel, SweepCandidate *c);
/* Times the vendor BLAS (CLBlast, cuBLAS, rocBLAS) on the job's device, problem and
 * inputs, verified: its GFLOPS, or 0 with why in name. name gets the library's name. */
double Measurer_vendor(Measurer *m, char *name, size_t namelen);
/* For a signal handler (async-signal-safe): kills every measuring child of this process,
 * so that a stopped sweep leaves no process behind. */
void Measurer_killChildren(void);
/* Ends the child (if any) and frees m. */
void Measurer_free(Measurer *m);

/* The child's side, run by `gemmtop __measure-child`: reads the job and the
 * configurations on stdin, answers on stdout. Returns the exit code. */
int Measure_child(void);
/* Its name as a child of this program (base/children.h). */
#define MEASURE_CHILD "measure"

#endif
