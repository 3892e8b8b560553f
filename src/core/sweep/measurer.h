/* Measurements that can be abandoned: a sweep (core/tune/sweeprun.h: `gemmtop sweep` and the
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
 *   child:  result <outcome> <gflops> <median_ms> <compile_ms> <max_rel_err> <cached>
 *               built <registers> <local_mem> <sm_mhz> <reason>
 *               (what the build reported and the clock the launches held, so that the
 *               parent's limit column judges the run as explain would; a line without
 *               "built", of an earlier gemmtop or a refusal, leaves them unknown)
 *   parent: vendor                                         (the vendor BLAS, same inputs)
 *   child:  vendor <0|1 ran and verified> <gflops> <library name or why not>
 *   parent: judge <rounds> <value> ...   (each round fresh inputs from a seed the child draws,
 *                                          a warm-up, one launch timed and verified: a submission)
 *   child:  result ...                     (as for run; the median of the rounds)
 * A "limits <cpu seconds> <data MB> <file MB>" line may come before the job: the child
 * takes them as its resource limits before it reads a kernel (gemmtop serve's children).
 *
 * With MeasureJob.server the same lines go to a gemmtop serve daemon over its Unix socket
 * (serve/serve.h), which measures them on its device in a child of its own; before the job
 * it may be sent the kernel's file ("file <name> <bytes>" and the bytes), and while a
 * request waits in its queue it says "wait <position> <seconds waited>". */
#ifndef GEMMTOP_MEASURE_H
#define GEMMTOP_MEASURE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/sweep/sweep.h"

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
   char server[108];    /* a gemmtop serve socket to measure on ("": a child here) */
   char upload[1024];   /* with server: the kernel's file, sent with the job ("": a shipped one) */
   double request_s;    /* a request may take this long in all, compile and launches (0: room for a
                         * slow compile and every launch's timeout) */
   int cpu_s, data_mb;  /* the child's limits: CPU seconds, data MB (0: none) */
} MeasureJob;

/* A job for a class server at server: k's file sent with it (NULL k: the vendor library
 * alone), on its device slot (-1 any); the server fills in its backend and folders. */
MeasureJob MeasureJob_forServer(const char *server, int slot, const KernelInfo *k, const Problem *p, uint64_t seed,
                                int reps, int warmup, double timeout_s, bool cold_l2);
/* The job line (ending in a newline) and its parse: the folders are the rest of the line. */
void MeasureJob_format(const MeasureJob *j, char *out, size_t outlen);
bool MeasureJob_parse(const char *line, MeasureJob *j);

typedef struct Measurer_ Measurer;

/* The answer to "run" and "judge" (the protocol above), without its newline; a reason's
 * line breaks become spaces. */
void Measurer_formatResult(const SweepCandidate *c, bool cached, char *out, size_t len);
/* Such a line into c (its cached flag too); a line that is not one makes c a failure that
 * quotes it. */
void Measurer_parseResult(const char *line, SweepCandidate *c);

/* Nothing starts until the first Measurer_run. NULL when out of memory. */
Measurer *Measurer_new(const MeasureJob *job);
/* Verifies and times values (nvalues of them) in the child and fills c as Sweep_classify
 * does. A timeout, a child that ends or stops answering are outcomes of c, not errors.
 * When *cancel (if given) becomes non-zero meanwhile, the child is killed and c is left
 * SWEEP_PENDING (not measured); returns false then, else true. */
bool Measurer_run(Measurer *m, const long long *values, int nvalues, const atomic_int *cancel, SweepCandidate *c);
/* A judged measurement (the judge line above): rounds launches, each on fresh inputs, each
 * timed and verified; c as Measurer_run fills it, from the rounds' median. */
bool Measurer_judge(Measurer *m, const long long *values, int nvalues, int rounds, const atomic_int *cancel,
                    SweepCandidate *c);
/* With a server: fn is told each time a request's place in the queue changes (position
 * 1 is next; 0 when it is being measured), from the thread that measures. */
typedef void (*MeasureWaitFn)(void *ctx, int position, double waited_s);
void Measurer_onWait(Measurer *m, MeasureWaitFn fn, void *ctx);
/* With a server: how long the last request waited its turn, and the server's device it
 * ran on (-1 before any). */
double Measurer_waited(const Measurer *m, int *device);
/* A class server's device slot (-1: its first) as the server's own gemmtop sees it: its
 * description and backend's name, for listing a sweep's space there. False with why
 * (also when the server runs another version of gemmtop, or measures with a backend this
 * one lacks). */
bool Measurer_serverDevice(const char *server, int slot, DeviceInfo *out, char *backend, size_t backendlen, char *why,
                           size_t whylen);
/* A vendor library's figure measured elsewhere (Measurer_vendor: gflops, or 0 and why in
 * name) as a VendorResult of reps launches on p. */
void Measurer_vendorResult(double gflops, const char *name, const Problem *p, int reps, VendorResult *out);
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
int Measurer_child(void);
/* The most a serve child may write to a file (its limits line), in MB. */
#define MEASURE_FILE_MB 256
/* Its name as a child of this program (base/children.h). */
#define MEASURE_CHILD "measure"

#endif
