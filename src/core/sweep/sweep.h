/* A kernel's parameter space, searched: every combination of the free parameters'
 * allowed values (or a random draw when there are too many to list), the ones that
 * break a rule dropped before anything compiles, shuffled with the starting
 * configuration first, and each tried configuration's outcome named. Shared by
 * `gemmtop sweep` (cli_sweep.c) and the explorer's sweep pane (explorer/sweepjob.c). */
#ifndef GEMMTOP_SWEEP_H
#define GEMMTOP_SWEEP_H

#include <stdbool.h>

#include "core/model/catalog.h"
#include "core/model/config.h"
#include "base/rng.h"
#include "core/run/session.h"

/* Above this many combinations, configurations are drawn at random instead of listed. */
#define SWEEP_MAX_ENUMERATED 200000

typedef enum {
   SWEEP_PENDING = 0,
   SWEEP_OK,          /* ran and verified */
   SWEEP_INVALID,     /* a rule or a device limit refuses it */
   SWEEP_COMPILE,     /* the compiler refused it */
   SWEEP_WRONG,       /* ran; the result is wrong */
   SWEEP_TIMEOUT,     /* one launch takes longer than allowed */
   SWEEP_FAILED,      /* anything else (out of memory, device error) */
   SWEEP_OUTCOMES
} SweepOutcome;

const char *SweepOutcome_name(SweepOutcome o);
/* The run status an outcome stands for (a measurement made elsewhere: a class server). */
RunStatus SweepOutcome_runStatus(SweepOutcome o);

typedef struct SweepCandidate_ {
   long long values[KERNEL_MAX_PARAMS];
   SweepOutcome outcome;
   char reason[256];
   double gflops, median_ms, compile_ms, max_rel_err;
   bool cached;           /* its program was loaded (memory or disk), not compiled */
   int model;             /* an MPI sweep's: which device model measured it (0 otherwise) */
   double vendor_gflops;  /* the vendor BLAS on the device that measured it; 0 when not timed */
   int registers;         /* per work-item, as its build reported them; 0 or less: not known */
   long long local_mem;   /* static local memory per group as built; negative: not known */
   double sm_mhz;         /* the SM clock its timed launches held (the driver's median); 0: not known */
} SweepCandidate;

typedef struct SweepSpace_ {
   SweepCandidate *cands; /* the valid configurations (owned) */
   int count;
   int invalid;           /* dropped before compiling */
   double space;          /* combinations of the free parameters */
   char first_invalid[512];
} SweepSpace;

/* Lists the configurations of k that vary the parameters in free_mask (bit i: parameter i)
 * around base, keeping those that Config_check accepts for p on a device with lim. rng
 * draws them when the space is over SWEEP_MAX_ENUMERATED. False only when out of memory. */
bool Sweep_enumerate(const KernelInfo *k, const long long *base, unsigned free_mask, const Problem *p,
                     const DeviceLimits *lim, Rng *rng, SweepSpace *out);

/* Shuffles the valid configurations, then moves base (when among them) to the front. */
void Sweep_shuffle(SweepSpace *s, const KernelInfo *k, const long long *base, Rng *rng);

/* The outcome of one tried configuration from its run: status st, result r, a launch over
 * timeout_s seconds counting as a timeout. Fills c's outcome, figures and reason; a compile
 * failure's reason is the build log's first error, and with own_file (a class server's
 * measuring child: the kernel file's name) the first about a line of that file only, so
 * that no text of another file the compiler may have read is ever quoted. */
void Sweep_classify(SweepCandidate *c, RunStatus st, const RunResult *r, double timeout_s, const char *own_file);
/* The build log's first error line (one with "error:"; its length in *len), or NULL; with
 * file, the first that names a line of file ("file:12:3: error", PoCL's "error:
 * file:12:3:", NVRTC's "file(12): error"). */
const char *Sweep_firstError(const char *log, const char *file, int *len);

/* A sweep's launch limit in seconds on d: `asked` when above 0, else 5 s on a GPU or an
 * accelerator and 30 s on a CPU, where launches are far slower and the first one also
 * waits for the driver to finish compiling (PoCL builds the work-group function then). */
double Sweep_timeout(double asked, const DeviceInfo *d);

void SweepSpace_free(SweepSpace *s);

#endif
