/* The explorer's worker thread: it owns the device (a Session), its own copy of the
 * kernel catalog and the inputs, and does every compile, run and verification, so the
 * screen never waits for the device.
 *
 * The UI posts the configuration it wants into a mailbox (mutex + condition variable).
 * The worker waits until the posts stop for WORKER_DEBOUNCE_MS, compiles, runs once with
 * verification, then keeps re-timing the configuration in short rounds and keeps the
 * last WORKER_WINDOW launch times (a rolling window, like top) until told otherwise. A
 * new post cancels the run in progress through RunOptions.cancel. The UI reads results
 * as a snapshot (copied under the lock) and log lines from a queue; it never blocks on
 * the device. */
#ifndef GEMMTOP_UI_WORKER_H
#define GEMMTOP_UI_WORKER_H

#include <stdbool.h>

#include "core/analyse/frontier.h"
#include "core/analyse/inspect.h"
#include "core/analyse/limiter.h"
#include "core/run/peaks.h"
#include "core/sweep/search.h"
#include "core/run/session.h"
#include "core/sweep/sweep.h"
#include "explorer/logbuf.h"

/* Long enough to coalesce a held key (terminals repeat every 30-40 ms), short enough that
 * a change that must compile still reaches a verified figure within 0.5 s (docs/perf.md). */
#define WORKER_DEBOUNCE_MS 60
/* For a configuration already compiled (ahead.h): loading it is quick, so only a burst of
 * repeated keys is coalesced. */
#define WORKER_DEBOUNCE_READY_MS 20
#define WORKER_WINDOW 64

typedef struct WorkerConfig_ {
   char kernel[64];
   long long values[KERNEL_MAX_PARAMS];
   Problem problem;
   unsigned ablate;     /* AblateFlag bits: compiled with the switches, never verified */
   bool cold_l2;        /* time with the L2 cold (RunOptions.cold_l2) */
   bool ready;          /* known to be compiled: a short debounce */
   char limits[128];    /* simulated device limits of a lesson step ("max_wg=256"), "" none */
} WorkerConfig;

typedef enum {
   WS_STARTING = 0,
   WS_OPENING,      /* opening the device */
   WS_NO_DEVICE,    /* no device could be opened: waiting for another choice */
   WS_WAITING,      /* a new configuration: waiting for the keys to settle */
   WS_PREPARING,    /* making the inputs */
   WS_COMPILING,
   WS_VERIFYING,    /* the first run of a configuration, checked */
   WS_MEASURING,    /* re-timing it continuously */
   WS_PAUSED,
   WS_STOPPED,      /* this configuration cannot run (invalid, compile error, ...) */
   WS_VENDOR,       /* timing the vendor BLAS */
   WS_PEAKS,        /* measuring the device's peaks */
   WS_TRACING,      /* tracing the local-memory accesses for the bank pane */
   WS_SWEEPING,     /* trying the configurations of a sweep, one by one */
   WS_INSPECTING,   /* reading the compiled code for the inspect pane */
   WS_QUEUED,       /* sent to a class server: waiting for its turn there, or measured there */
   WS_SERVED,       /* measured on the class server: not re-timed until something changes */
} WorkerState;

const char *WorkerState_name(WorkerState s);

typedef struct WorkerSnapshot_ {
   unsigned long version;          /* changes whenever anything below does */
   WorkerState state;
   double state_since;             /* Util_nowMs when that state began: the wait's length */
   bool paused;
   char activity[192];             /* one line on what it is doing */

   /* The device in use. */
   bool have_device;
   char backend[16];
   int device_index;
   DeviceInfo device;
   Peaks peaks;

   /* The configuration measured (or refused) and its figures. */
   bool have_config;
   WorkerConfig config;
   unsigned long config_serial;    /* the post it answers */
   bool have_result;               /* run (at least) once, or refused with a reason */
   /* The configuration's trial (core/run/trial.h): its compile, its first run and that
    * run's verification, or why it did not run (status and message: also a kernel not
    * found); build_log is always NULL (the compiler's messages are in the log). The
    * timing rounds keep its helpers and fix-up up to date; the window's figures are below. */
   RunResult result;
   /* The verified C's error against the float64 product of the values drawn before they
    * were rounded to the type (the accuracy frontier's measure, core/analyse/frontier.h): what a
    * type costs in accuracy, beside what it buys in speed. samples 0: not measured. */
   FrontierError error;
   /* The rolling window: the last launches of this configuration, oldest first. */
   double window[WORKER_WINDOW];
   int nwindow;
   long launches;                  /* timed launches of this configuration in all */
   int rounds;
   double median_ms, min_ms, max_ms, spread_pct, gflops, gbps;

   /* The driver's clocks, power and temperature in the last measurement that had them
    * (observe.h; obs.known false: no source for this device). */
   Observation obs;

   /* The vendor BLAS on the same problem (known when vendor_done and status RUN_OK). */
   bool vendor_done;
   Problem vendor_problem;
   bool vendor_cold_l2;            /* the L2 it was timed with */
   VendorResult vendor;

   /* The class server's answer to the last submission (J): shown where the lecturer looks,
    * not only in the log. submit_serial counts the answers (0: none yet). */
   unsigned long submit_serial;
   bool submit_verified;
   char submit_answer[600];

   /* The bank analysis: changes when a new one waits in Worker_takeBanks. */
   unsigned long banks_version;
   /* The same for the inspection (Worker_takeInspect). */
   unsigned long inspect_version;
} WorkerSnapshot;

/* The bank analysis of one configuration, handed to the UI thread (which owns it after
 * Worker_takeBanks and frees it with BankAnalysis_free and free). */
typedef struct WorkerBanks_ {
   struct BankAnalysis_ *analysis; /* NULL when the trace failed (message says why) */
   char message[1536];
   WorkerConfig config;
   unsigned long config_serial;
   Problem traced;                 /* the small problem the trace ran on (on an NVIDIA GPU, one of at
                                      least 256 each way, with the global loads of A and B) */
   LimiterTrace limiter;           /* what the trace tells the limiter (LimiterTrace_of) */
} WorkerBanks;

/* A sweep of the sweep pane: configurations of one kernel on one problem, each compiled,
 * verified and timed in turn; only verified ones have figures. */
#define WORKER_SWEEP_MAX 512
/* The most configurations of a sweep handed out at once for compiling ahead. */
#define WORKER_SWEEP_AHEAD_MAX 32

typedef struct WorkerSweepPoint_ {
   long long values[KERNEL_MAX_PARAMS];
   SweepOutcome outcome;
   double gflops, median_ms;
   double compile_ms;
   bool cached;                    /* its program was loaded (memory or disk), not compiled */
} WorkerSweepPoint;

typedef struct WorkerSweep_ {
   unsigned long version;          /* changes whenever anything below does */
   bool started;                   /* a sweep was asked for: the rest means something */
   bool running;                   /* not yet finished, stopped or refused */
   bool stopped;                   /* stopped before the end (the points tried stay) */
   WorkerConfig config;            /* kernel and problem swept; values: where it started */
   double space;                   /* combinations of the parameters' values */
   int invalid;                    /* dropped before compiling */
   int valid;
   SearchStrategy strategy;        /* how configurations are proposed (core/sweep/search.h) */
   int total;                      /* configurations to try */
   int proposed;                   /* points[0..proposed) are known; the rest not yet proposed */
   int done;                       /* tried: points[0..done) have their outcome */
   int taken;                      /* of them from the results store (a sweep resumed) */
   int counts[SWEEP_OUTCOMES];     /* outcomes of the tried ones */
   int cached;                     /* tried ones whose program was loaded, not compiled */
   bool exhaustive;                /* total is every valid configuration */
   bool emulated;                  /* a tensor kernel without tensor cores: verified, not ranked */
   double started_ms, elapsed_ms;  /* Util_nowMs at the start; time taken so far */
   char message[512];              /* why it did not start or stopped */
   char last_skip[512];            /* the latest configuration skipped, and why */
   WorkerSweepPoint points[WORKER_SWEEP_MAX];
} WorkerSweep;
/* What the compiler made of one configuration (core/analyse/inspect.h), for the inspect pane;
 * handed to the UI thread, which owns it after Worker_takeInspect and frees it with
 * WorkerInspect_free. */
typedef struct WorkerInspect_ {
   WorkerConfig config;
   unsigned long config_serial;
   char arch[32];                  /* the target: "" the device measured, else "sm_90", "gfx906"... */
   Inspection inspection;          /* with the source after the preprocessor; not ok: message says why */
} WorkerInspect;

void WorkerInspect_free(WorkerInspect *in);

typedef struct WorkerInit_ {
   const char *kernels_dir;
   const char *backend;            /* "opencl" */
   int device;
   WorkerConfig config;            /* measured at once, with no debounce */
   bool paused;
   bool vendor;                    /* time the vendor BLAS once per problem */
   uint64_t seed;
   int banks, bank_width, simd_width; /* the bank model's overrides (0: the device's) */
   const char *store;              /* the results store (NULL: the default, core/results/store.h) */
   bool no_store;                  /* record nothing */
   const char *server;             /* a class server's socket: configurations and the vendor
                                    * BLAS are measured there, once each (NULL: here) */
} WorkerInit;

typedef struct Worker_ Worker;

/* Starts the thread; NULL with err when it cannot. */
Worker *Worker_start(const WorkerInit *init, char *err, size_t errlen);
/* Stops it: cancels what runs and waits up to timeout_ms. Returns false when the thread
 * is still busy in the device (then the worker is left alone, not freed). */
bool Worker_stop(Worker *w, int timeout_ms);

/* Returns the post's serial: the snapshot's config_serial once the worker answers it. */
unsigned long Worker_post(Worker *w, const WorkerConfig *c);
void Worker_setDevice(Worker *w, const char *backend, int device);
void Worker_setPaused(Worker *w, bool paused);
/* Cancels the run in progress and pauses. */
void Worker_cancel(Worker *w);
/* Re-reads the kernel files and measures the configuration again from scratch. */
void Worker_reload(Worker *w);
void Worker_measurePeaks(Worker *w);
void Worker_measureVendor(Worker *w);
/* On a class server: submits the current configuration (its kernel file and values) to
 * the assignment; the verdict comes in the log. */
void Worker_submit(Worker *w, const char *assignment);
/* Exports the configuration last set (export-kernel's files, in a new KERNEL-export folder
 * of the current one); the log says where, or why not. */
void Worker_exportKernel(Worker *w);

/* Whether the bank pane is shown: the worker traces each verified configuration once
 * while it is. */
void Worker_setBanks(Worker *w, bool wanted);
/* Moves the newest bank analysis out (true), or false when there is none new. */
bool Worker_takeBanks(Worker *w, WorkerBanks *out);

/* Sweeps c's kernel on c's problem, starting from c's values, as `gemmtop sweep` does
 * (core/tune/sweeprun.h): budget valid configurations proposed by strategy, or all of them
 * when there are fewer or when exhaustive (at most WORKER_SWEEP_MAX), each verified and
 * timed in a child process; launches over timeout_s seconds count as timeouts. What the
 * results store holds for the same sweep is taken, not measured again, and each outcome
 * is stored. The sweep goes before live measuring until it ends or is stopped. */
void Worker_sweepStart(Worker *w, const WorkerConfig *c, int budget, bool exhaustive, SearchStrategy strategy,
                       double timeout_s);
/* Stops the sweep after the configuration in progress (its launches are cancelled);
 * the configurations tried keep their outcomes. Worker_cancel does it too. */
void Worker_sweepStop(Worker *w);
/* Copies the sweep's state when its version differs from *seen; returns whether it did. */
bool Worker_sweep(Worker *w, WorkerSweep *out, unsigned long *seen);
/* The sweep's configurations after the one in progress (at most max), for compiling
 * them ahead: the device, kernel and problem they run on (a sweep never ablates) and
 * their values. Returns how many; 0 when no sweep runs or none is left. Never waits
 * for the device. */
typedef struct WorkerSweepAhead_ {
   char backend[16];
   int device;
   WorkerConfig config;            /* kernel and problem (values: where the sweep started) */
   long long values[WORKER_SWEEP_AHEAD_MAX][KERNEL_MAX_PARAMS];
} WorkerSweepAhead;
int Worker_sweepUpcoming(Worker *w, WorkerSweepAhead *out, int max);
/* The compile-ahead pool (ahead.h) whose compiles the sweep waits for instead of
 * compiling the same configuration a second time; NULL: none. Setting NULL returns once
 * the worker no longer uses the old pool, which may then be stopped. */
struct Ahead_;
void Worker_setAhead(Worker *w, struct Ahead_ *a);
/* While a sweep runs: asks the pool for the sweep's next configurations (twice the
 * pool's threads) on the sweep's device, kernel and problem. *posted is what was last
 * asked for (a signature), updated. Returns -1 when no sweep runs, else how many were
 * asked for. */
int Worker_feedAhead(Worker *w, struct Ahead_ *a, unsigned long long *posted);
/* Whether the inspect pane is shown: the worker reads the compiled code of each
 * configuration once (after its first run) while it is. */
void Worker_setInspect(Worker *w, bool wanted);
/* The bank model's SIMD width (the lanes served together: 32 on NVIDIA, 64 on the DCU);
 * 0 the device's own. The bank pane's configuration is traced and analysed again. */
void Worker_setSimdWidth(Worker *w, int simd_width);
/* Moves the newest inspection out (true), or false when there is none new. */
bool Worker_takeInspect(Worker *w, WorkerInspect *out);
/* The inspect pane's target: arch "" the device measured; else an architecture compiled
 * for without a device, as `gemmtop inspect --arch` does (backend "cuda" for sm_XX
 * through NVRTC, "hip" for gfxNNN through hipRTC). The configuration is read again. */
void Worker_setInspectTarget(Worker *w, const char *backend, const char *arch);

/* Copies the snapshot when its version differs from *seen; returns whether it did. */
bool Worker_snapshot(Worker *w, WorkerSnapshot *out, unsigned long *seen);
/* Moves pending log lines to dst. */
void Worker_takeLog(Worker *w, LogBuf *dst);

#endif
