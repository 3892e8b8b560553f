/* Inside the explorer's worker (worker.h), shared by its parts: worker.c (the thread's
 * loop and the mailbox the UI posts into), measure.c (opening the device, compiling,
 * verifying and re-timing the configuration, the vendor BLAS, the peaks), sweepjob.c (the
 * sweep pane's sweeps) and panejobs.c (the bank trace and the inspection of the panes that
 * are shown). Nothing outside src/explorer includes it.
 *
 * The jobs are called with mu held and drop it around device work; after taking it back
 * they check cur_serial (or sweep_job.gen) to see whether what they did is still wanted.
 * Each is an entry, {due, run} (workerjob.h), in the file that does it, declared with the
 * job's state in the header beside it (sweepjob.h, panejobs.h, exportjob.h, served.h;
 * the state is one member of the Worker); the loop's table (worker.c) lists them, most
 * urgent first, and each pass runs the first that is due. */
#ifndef GEMMTOP_WORKER_INT_H
#define GEMMTOP_WORKER_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "core/run/ahead.h"
#include "core/results/record.h"
#include "explorer/exportjob.h"
#include "explorer/panejobs.h"
#include "explorer/served.h"
#include "explorer/sweepjob.h"
#include "explorer/worker.h"
#include "explorer/workerjob.h"

enum { PH_FIRST, PH_MEASURE, PH_STOPPED };

struct Worker_ {
   pthread_t thread;
   pthread_mutex_t mu;
   pthread_cond_t cv;        /* the mailbox changed */
   pthread_cond_t done_cv;   /* the thread finished */
   atomic_int cancel;

   /* Mailbox, under mu. */
   WorkerConfig want;
   unsigned long want_serial;
   double posted_at;
   char want_backend[16];
   int want_device;
   unsigned long device_serial;
   bool paused, quit, reload, peaks, vendor_again, finished;
   bool held;                /* the user cancelled: not even a first run until resumed */
   Ahead *ahead;             /* the compile-ahead pool the sweep waits for (may be NULL) */
   int ahead_users;          /* the thread is inside Ahead_await: the pool must stay */
   atomic_int ahead_abort;   /* Worker_setAhead(NULL): stop waiting on the pool */

   /* The jobs' own state, each declared beside its file: mailbox and working parts. */
   SweepJobState sweep_job;
   BanksJobState banks_job;
   InspectJobState inspect_job;
   ExportJobState export_job;
   SubmitJobState submit_job;

   /* The thread's own. */
   Catalog cat;
   char kernels_dir[1024];
   char server[108];            /* a class server's socket ("": measured here) */
   Session *session;
   unsigned long tried_device_serial;
   WorkerConfig cur;
   unsigned long cur_serial;
   int phase;
   Inputs in;
   bool have_inputs;
   float *drawn_a, *drawn_b;      /* the values drawn for in before rounding (Inputs_drawn): the
                                   * error line's reference, made once per set of inputs */
   unsigned long drawn_generation; /* in.generation they were drawn for (0: none) */
   uint64_t seed;
   bool auto_vendor;
   RunResult *res;
   Store *store;             /* the results store (NULL: nothing is recorded) */
   int banks, bank_width, simd_width; /* the bank model's overrides (0: the device's) */
   bool disturbed;           /* other device work ran since the last timed round (a trace, the
                                vendor BLAS, the peaks): the next round warms up first, untimed */

   /* Published, under mu. */
   WorkerSnapshot snap;
   WorkerSweep *sweep;       /* its own version */
   LogBuf log;
};

/* measure.c's entries (worker.c's table orders them with those of the jobs' headers). */
extern const WorkerJob Measure_deviceJob, Measure_reloadJob, Measure_peaksJob, Measure_vendorJob, Measure_roundJob;

/* worker_jobs.c, what every job uses: the snapshot changed; a new state with its one-line activity; a log line;
 * "kernel P=V ... [ABLATED: ...]"; the configuration cannot run (why in message). */
void Worker_publish(Worker *w);
/* Waits up to ms for a post to the mailbox (mu dropped while waiting). */
void Worker_waitFor(Worker *w, double ms);
void Worker_setState(Worker *w, WorkerState st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void Worker_log(Worker *w, LogLevel level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void Worker_label(const Worker *w, const WorkerConfig *c, char *out, size_t outlen);
void Worker_stopWith(Worker *w, RunStatus st, const char *message);
/* While the compile-ahead pool compiles this configuration, waits for it (loading its
 * program then is quicker than compiling it again, and two builds of one program at once
 * are not safe on every runtime: PoCL has aborted), until *stop becomes non-zero. Called
 * with mu held, which it drops while waiting. */
void Worker_awaitAhead(Worker *w, const AheadTarget *t, const long long *values, atomic_int *stop);
/* The compile-ahead pool kept (NULL: none) while the thread uses it without mu, a trial's
 * compile awaiting it; Worker_releaseAhead lets Worker_setAhead replace it again. */
Ahead *Worker_holdAhead(Worker *w);
void Worker_releaseAhead(Worker *w, Ahead *pool);

/* A measurement made on the open device into the results store; a store that fails is
 * said once in the log, and nothing more is recorded. */
void Worker_record(Worker *w, StoreRecord *r);
/* Adds n timed launches to the rolling window and its figures. */
void Worker_addTimes(Worker *w, const double *times_ms, int n);

/* measure.c */
/* Forgets the figures of the configuration measured before. */
void Measure_clear(Worker *w);

#endif
