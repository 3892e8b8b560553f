/* Compiling ahead: a pool of threads that compiles configurations into the disk program
 * cache, so that running one later is a cache load (milliseconds) instead of a compile
 * (most of a second on a GPU). The explorer asks it for the configurations one key press
 * away once its configuration has been verified (each parameter's next and previous valid
 * value), or for a running sweep's next ones; `gemmtop sweep` for all the configurations
 * it will try, before it runs them one by one.
 *
 * The pool opens its own Session on the same device (the disk cache is shared, nothing
 * else is), so it never touches the worker's session, buffers or in-memory programs,
 * and the worker never waits for it. A compile cannot be interrupted: stale work is
 * dropped before it starts, and Ahead_stop does not wait for one in progress. */
#ifndef GEMMTOP_AHEAD_H
#define GEMMTOP_AHEAD_H

#include <stdatomic.h>
#include <stdbool.h>

#include "core/model/catalog.h"
#include "core/model/config.h"
#include "core/model/problem.h"
#include "core/run/session.h"

/* The most neighbours of a configuration (Ahead_neighbours). */
#define AHEAD_MAX_JOBS (2 * KERNEL_MAX_PARAMS)
#define AHEAD_MAX_THREADS 16

/* Where the neighbours live: the device and the problem of the verified configuration. */
typedef struct AheadTarget_ {
   char backend[16];
   int device;
   char kernel[64];
   Problem problem;
   unsigned ablate;   /* AblateFlag bits: compiled as the run will be (the a key) */
} AheadTarget;

/* A target from its parts (ablate: AblateFlag bits, 0 for none). */
AheadTarget Ahead_target(const char *backend, int device, const char *kernel, const Problem *p, unsigned ablate);

/* A hash of everything in t (the pool's keys start from it; the explorer uses it to see
 * whether what it would ask for has changed). */
unsigned long long Ahead_targetHash(const AheadTarget *t);

typedef struct AheadStatus_ {
   unsigned long version;   /* changes whenever anything below does */
   int wanted;              /* configurations in the current list */
   int done;                /* compiled (or found in the cache), or built by the caller (AHEAD_SKIPPED) */
   int failed;              /* refused or did not compile */
   int running;             /* compiles in progress for this list */
   char error[256];         /* the device could not be opened */
} AheadStatus;

typedef struct Ahead_ Ahead;

/* The neighbours of values, valid only (Config_check), most likely first: the parameter
 * `first` (the one under the cursor; -1 none: in their order), then the others by their
 * distance from it, the next parameter before the previous one; for each, its next valid
 * value, then its previous one, exactly as Right and Left step. No duplicates, never
 * the configuration itself. Returns how many (at most max). */
int Ahead_neighbours(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                     int first, long long (*out)[KERNEL_MAX_PARAMS], int max);

/* The explorer's pool: 1 or 2 threads, never more than the cores minus one (at least 1),
 * so that compiling ahead leaves the timed runs a core. */
int Ahead_defaultThreads(void);

/* Starts the threads (idle until given work); NULL with err when it cannot. */
Ahead *Ahead_start(const char *kernels_dir, int threads, char *err, size_t errlen);
/* Stops: drops the work and waits up to timeout_ms for the threads. Returns false when
 * one is still inside a compile (then the pool is left alone, not freed: the caller ends
 * the process with _exit, as it does for a busy worker). */
bool Ahead_stop(Ahead *a, int timeout_ms);

/* Replaces the work with these configurations of t's kernel, in this order (as many as
 * wanted). Those already compiled ahead for the same target count as done at once.
 * Returns false when there was no memory for the list (then the pool has no work). */
bool Ahead_want(Ahead *a, const AheadTarget *t, const long long (*configs)[KERNEL_MAX_PARAMS], int n);
/* Drops the work not yet started. */
void Ahead_drop(Ahead *a);
/* The kernel files changed: re-read them before the next compile, forget what was done. */
void Ahead_reload(Ahead *a);
void Ahead_status(Ahead *a, AheadStatus *out);
/* Waits up to timeout_ms for every configuration of the list to be compiled or to have
 * failed; returns whether they all are. */
bool Ahead_wait(Ahead *a, int timeout_ms);

/* AHEAD_SKIPPED: built by a caller of Ahead_await instead. */
typedef enum { AHEAD_PENDING, AHEAD_COMPILING, AHEAD_DONE, AHEAD_FAILED, AHEAD_SKIPPED } AheadJobState;
/* Where the i-th configuration of the list last wanted stands; a failed one's status
 * (RUN_COMPILE_ERROR: the compiler's message in err; RUN_DEVICE_ERROR: the pool could
 * not open the device, its error in err). */
AheadJobState Ahead_job(Ahead *a, int i, RunStatus *status, char *err, size_t errlen);
/* Whether this configuration was compiled ahead (since the last reload). */
bool Ahead_compiled(Ahead *a, const AheadTarget *t, const long long *values);

/* How many threads compile. */
int Ahead_threads(Ahead *a);
/* The caller is about to build (or load) this configuration itself and keeps it. While a
 * thread of the pool is compiling it, waits for that to end (a second compile of the same
 * program would only take longer than loading it), unless *stop1 or *stop2 becomes
 * non-zero or the pool stops. From then on the pool leaves it alone (AHEAD_SKIPPED, now
 * and in later lists, until a reload): PoCL without its kernel cache removes a program's
 * files when any copy of it is released, which breaks the caller's copy. Returns whether
 * it was compiled ahead. */
bool Ahead_await(Ahead *a, const AheadTarget *t, const long long *values, atomic_int *stop1, atomic_int *stop2);

#endif
