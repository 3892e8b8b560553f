/* The engine: one open device, a program cache, device buffers, and runs: check, compile
 * (or reuse), launch helpers and the GEMM kernel, verify, time. Used by the command line
 * and by the explorer's worker thread; it knows nothing of either. */
#ifndef GEMMTOP_SESSION_H
#define GEMMTOP_SESSION_H

#include <stdatomic.h>
#include <stdint.h>

#include "backend/backend.h"
#include "backend/observe.h"
#include "core/model/catalog.h"
#include "core/model/config.h"
#include "core/model/inputs.h"
#include "core/run/verify.h"

typedef enum {
   RUN_OK = 0,          /* ran and verified */
   RUN_INVALID,         /* a constraint or device limit refused it before compiling */
   RUN_NOT_VERIFIED,    /* ran; the result is wrong */
   RUN_COMPILE_ERROR,   /* the build log says why */
   RUN_OUT_OF_MEMORY,
   RUN_DEVICE_ERROR,
   RUN_CANCELLED,
   RUN_TIMEOUT,         /* a launch did not finish in the time allowed: abandoned (Session_stuck) */
} RunStatus;

/* Where a run's C is checked (RunOptions.verify_on, --verify-on). */
typedef enum {
   VERIFY_ON_AUTO,   /* the device where it has FP64 and is not the host's own processor, else the host */
   VERIFY_ON_DEVICE, /* the device's kernels (kernels/helpers/verify.cl) where it has FP64, else the host */
   VERIFY_ON_HOST,   /* C read back and checked on the host */
} VerifyOn;

/* "auto", "device", "host": what --verify-on takes. */
const char *VerifyOn_name(VerifyOn v);

typedef struct RunOptions_ {
   int reps;            /* timed launches (at least 1) */
   int warmup;          /* untimed launches before them */
   bool verify;         /* run and check once before timing */
   double max_seconds;  /* stop timing after this much wall time (0: no limit; at least 1 rep) */
   atomic_int *cancel;  /* set to non-zero to stop early (may be NULL) */
   unsigned ablate;     /* AblateFlag bits (ablate.h): compiled with the switches, never verified */
   void *verified_c;    /* when set, the verified run's C is copied here (M x N in the problem's
                         * precision): the result that was checked, not the last timed one
                         * (Session_vendor too: its first call's) */
   double launch_timeout_s; /* a launch (with its helpers) still running after this long is
                             * abandoned: RUN_TIMEOUT (0: wait as long as it takes) */
   bool cold_l2;        /* time each launch with the L2 cache cold (RunResult.cold_l2 says which ran) */
   bool observe;        /* read clocks, power and energy from the driver while timing (RunResult.obs) */
   bool verify_timed;   /* instead of verify and reps: after the warm-up, one launch both timed and
                         * verified (a judged launch: gemmtop serve's submissions) */
   bool vendor_bf16;    /* Session_vendor: the library writes C in bfloat16 (the FP8 types through
                         * cuBLASLt, beta 0), verified with that rounding counted; verified_c gets
                         * it widened to the problem's C */
   VerifyOn verify_on;  /* where a kernel's C is checked (a vendor library's: on the host) */
   const Geometry *checked; /* the caller checked target and rules (Session_check; Trial_run does):
                             * their geometry, and the run checks them no more; NULL: it does */
} RunOptions;

/* Where a run's wall time went, each phase timed where it happens: Session_run times its
 * own (PHASE_SETUP there: its checks and bookkeeping), and a caller adds what it does
 * around the run (its setup, the inputs, the vendor library, the results store). */
typedef enum {
   PHASE_SETUP,    /* the catalog, the configuration, the device opened, the checks */
   PHASE_INPUTS,   /* A, B and C0 made or read */
   PHASE_COMPILE,  /* the kernels built, or found in a cache */
   PHASE_UPLOAD,   /* device buffers allocated, the inputs and scales written, C poisoned */
   PHASE_LAUNCHES, /* every launch (the checked one, the warm-up, the timed ones) until finished */
   PHASE_DOWNLOAD, /* C read back */
   PHASE_VERIFY,   /* the host's check of C */
   PHASE_VENDOR,   /* the vendor library timed beside (--vendor) */
   PHASE_STORE,    /* the results store */
   PHASE_COUNT
} Phase;

typedef struct RunPhases_ {
   double ms[PHASE_COUNT];
} RunPhases;

/* "inputs", "compile", ...: the names JSON (with "_ms") and the text output use. */
const char *Phase_name(Phase p);
double RunPhases_total(const RunPhases *ph);
/* "inputs 12 ms, compile 0.4 ms, launches 150 ms, ...": the phases that took 0.05 ms or more,
 * in order, compactly (at least "nothing timed"). */
void RunPhases_describe(const RunPhases *ph, char *out, size_t len);

#define RUN_MAX_HELPERS 4
#define RUN_MAX_TIMES 1024

typedef struct HelperTiming_ {
   char what[48];       /* "transpose B", "pad A", "unpad C" */
   double median_ms;
} HelperTiming;

typedef struct RunResult_ {
   RunStatus status;
   char message[1536];  /* what went wrong, or a one-line summary */
   char *build_log;     /* compiler messages (owned; may be NULL) */
   Geometry geo;
   char defines[1024];
   double compile_ms;
   bool cached;         /* no compiler ran: from memory or disk */
   bool cached_memory;
   int registers;
   long long private_mem, local_mem;
   size_t max_wg_for_kernel;  /* the driver's limit for this compiled kernel; 0 unknown */
   int reps;
   double times_ms[RUN_MAX_TIMES]; /* GEMM kernel, per timed launch */
   double median_ms, min_ms, max_ms, spread_pct; /* spread: (q3 - q1) / median, in % */
   HelperTiming helpers[RUN_MAX_HELPERS];
   int nhelpers;
   double helpers_ms;   /* sum of the helpers' medians */
   double fixup_ms;     /* the median of the GEMM's fix-up launch (split-K, stream-K), which median_ms
                         * includes; 0 when the configuration has none */
   double gflops, gbps; /* from the GEMM kernel's median time; gbps: global memory */
   double core_gbps;    /* operands fed to the multiply-adds (Ablate_coreBytes) per second */
   unsigned ablate;     /* the ablation this run was compiled with (0: a real run) */
   bool verified_run;   /* verification was asked for and ran */
   VerifyResult verify;
   char verified_on[192]; /* where: "device", "host", or "host (why not the device)" */
   double wall_ms;      /* the whole call */
   RunPhases phases;    /* where wall_ms went (their sum is wall_ms); the caller's phases are 0 */
   bool cold_l2;        /* the launches were timed with a cold L2 (else warm: the default) */
   Observation obs;     /* clocks, power, energy during the timed launches (obs.known false: none) */
   char cold_l2_method[128]; /* how the L2 was kept cold (coldl2.h): "rotating 5 copies of A and B (...)" */
} RunResult;

typedef struct Session_ Session;

Session *Session_open(const Backend *backend, int device, const Catalog *catalog, char *err, size_t errlen);
/* Whether $GEMMTOP_DEVICE_LIMITS (the simulated smaller device) is well-formed; a
 * malformed value is a usage error, checked before any device is opened. */
bool Session_checkLimitsEnv(char *err, size_t errlen);
/* Applies a limits text in GEMMTOP_DEVICE_LIMITS's form ("max_wg=256,fp64=0") to l (limits
 * only shrink); l NULL only checks it. A lesson step simulates a smaller device this way. */
bool Session_simulateLimits(const char *text, DeviceLimits *l, char *err, size_t errlen);
/* Frees the session; after an abandoned launch (Session_stuck) the device's objects are
 * left to the process's end, since the runtime would wait for the launch to release them. */
void Session_close(Session *s);
/* True after a launch was abandoned (RUN_TIMEOUT): the device is still busy with it and no
 * launch can be stopped, so the session refuses everything after (RUN_DEVICE_ERROR). A
 * process that wants to go on measuring needs a fresh one: it ends, or measures in a
 * child process (gemmtop sweep does). */
bool Session_stuck(const Session *s);
/* Waits for everything enqueued on the session's device, at most timeout_ms (where the
 * backend can give up: finishWithin; else without a limit). BACKEND_ERR_TIMEOUT when it is
 * still running: the launch is abandoned and the session stuck (Session_stuck). */
BackendStatus Session_finishWithin(Session *s, double timeout_ms, char *err, size_t errlen);
const DeviceInfo *Session_device(const Session *s);
/* The observer of this session's device (observe.h), opened on first use; NULL when none
 * covers it, and why (may be NULL) says what was missing. */
Observer *Session_observer(Session *s, const char **why);
const Backend *Session_backend(const Session *s);

/* Whether the problem's buffers fit in the device's memory; msg says why not. Cheap:
 * call it before making host inputs, so a huge size fails with a message, not a swap storm. */
bool Session_fits(const Session *s, const Problem *p, char *msg, size_t msglen);
/* The same for a device described, not opened (a class server's). */
bool Session_fitsOn(const DeviceInfo *info, const Problem *p, char *msg, size_t msglen);

/* Whether k can run on this session's backend and device (Config_targetOk): a kernel for
 * sm_90a is refused through OpenCL, on PoCL and on other GPUs, with the reason. */
bool Session_targetOk(const Session *s, const KernelInfo *k, char *msg, size_t msglen);
/* Whether k with values can run p here: the target (Session_targetOk) first, since no
 * parameter makes a kernel run where its instructions cannot, then the rules and lim
 * (NULL: the device's limits). g (may be NULL) gets the launch geometry. The one place
 * the two are checked together. */
bool Session_check(const Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                   const DeviceLimits *lim, Geometry *g, char *msg, size_t msglen);
/* What Config_targetOk checks, for a device of a backend (opened, or the typical GPU of an
 * architecture that an offline compile describes). */
ConfigTarget Session_targetFor(const Backend *be, const DeviceInfo *dev);

/* Random inputs for p from seed (Inputs_random), made once and kept by the session for its
 * next runs: a bench's rounds and configurations on one shape, a sweep's configurations,
 * share them. A few are kept, the least recently asked for dropped first (and beyond a
 * quarter of the host's memory). The pointer is valid until the next call or
 * Session_close; NULL when out of host memory. */
const Inputs *Session_inputs(Session *s, const Problem *p, uint64_t seed);

/* One run. inputs must fit p (Inputs_fit). Returns r->status. */
RunStatus Session_run(Session *s, const KernelInfo *k, const long long *values, const Problem *p, const Inputs *inputs,
                      const RunOptions *o, RunResult *r);
typedef struct VendorResult_ {
   RunStatus status;          /* RUN_OK; RUN_INVALID when the library has no GEMM of the type; RUN_DEVICE_ERROR
                                 when it is absent or failed */
   char name[64];             /* "CLBlast", "cuBLAS 13.0.0", "cuBLASLt 13.1.0 e4m3 block" */
   char note[320];            /* how it multiplied, where a reader needs to know (TF32's rounding, FP8's scales,
                               * the algorithm chosen, an operand transposed for it first); "" nothing */
   char message[512];
   int reps;
   double median_ms, min_ms;  /* whole library calls */
   double gflops;
   bool verified;
   VerifyResult verify;
   bool cold_l2;
   Observation obs;
   char cold_l2_method[128];
} VendorResult;

/* The vendor library on the same device, problem and inputs: o->warmup calls, then
 * o->reps timed calls (median); with o->verify its first call's result is verified like
 * a kernel's (without, that call is one more warm-up: a bench's later rounds). o->cancel
 * (may be NULL), once non-zero, stops it between two calls: RUN_CANCELLED, and no figure.
 * max_seconds and ablate do not apply. A library that takes the type only with both
 * operands K-major (Backend.vendorKMajor: cuBLASLt's FP8) gets them so, transposed on the
 * device before its calls and untimed, and v->note says which. */
RunStatus Session_vendor(Session *s, const Problem *p, const Inputs *inputs, const RunOptions *o, VendorResult *v);

/* Compiles the configuration (or finds it in the cache) without running it; fills r's
 * build fields (log, registers, memory) and returns the code as text when the runtime
 * gives it (*code malloc'ed, NULL otherwise; kind names it). code NULL: no code wanted
 * (reading it can take a disassembler's time). */
RunStatus Session_compile(Session *s, const KernelInfo *k, const long long *values, const Problem *p, RunResult *r,
                          char **code, char *kind, size_t kindlen);
/* The same, compiled with the ablation switches (AblateFlag bits) that Session_run uses. */
RunStatus Session_compileAblated(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                                 unsigned ablate, RunResult *r, char **code, char *kind, size_t kindlen);
/* The source text a backend compiles for this kernel body (preludes + body), malloc'ed. */
char *Session_source(const Catalog *cat, bool cuda_prelude, const char *body);
/* The same, with the kernel file's name in the compiler's messages. */
char *Session_sourceNamed(const Catalog *cat, bool cuda_prelude, const char *body, const char *path);
/* k's source as s's backend compiles it (the preludes first); NULL when out of memory. */
char *Session_kernelSource(const Session *s, const KernelInfo *k);

/* Compiles a configuration into the disk cache without touching the session's state, so
 * several threads may call it at once (a sweep compiles in parallel, then runs from the
 * cache), with the ablation switches in ablate (0: none) exactly as a run compiles them.
 * Returns RUN_OK, RUN_INVALID or RUN_COMPILE_ERROR (message in err). */
RunStatus Session_precompile(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                             unsigned ablate, char *err, size_t errlen);

/* Reads back C of the last run (M x N, the problem's precision) into host memory. */
bool Session_readResult(Session *s, void *host, size_t bytes, char *err, size_t errlen);
/* Drops compiled programs held in memory (the disk cache stays). */
void Session_forgetPrograms(Session *s);

/* One local-memory access of a traced run, or a global load of A or B in a global-load
 * trace (see kernels/helpers/prelude.h). */
typedef struct TraceRecord_ {
   unsigned site;             /* a global load: 0 for A, 1 for B */
   bool store;
   unsigned width;            /* bytes */
   unsigned group;            /* work-group, linear */
   unsigned item;             /* work-item within the group, linear (dimension 0 fastest) */
   unsigned seq;              /* this work-item's execution count of this site */
   unsigned address;          /* local address as the device gives it (low 32 bits); a global
                                 load's low 32 bits */
   bool global;               /* a global load of A or B (a global-load trace) */
   bool async;                /* a store made by cp.async (its load and store one instruction) */
} TraceRecord;

typedef struct Trace_ {
   TraceRecord *records;
   size_t count;
   size_t dropped;            /* over the capacity: the trace is incomplete */
   int groups;                /* work-groups traced */
   size_t wg_size;            /* work-items per group */
   size_t local[3];
   int dims;
   Problem problem;           /* the problem that was traced (small when the real one is big) */
} Trace;

/* Runs a tracing build of the configuration once on a small problem of the same shape
 * (the smallest that the constraints accept, up to the real one) and collects the
 * local-memory accesses of the first `groups` work-groups. With global_loads, also each
 * work-item's first 64 loads of A and B per site, on a problem of at least 256 in M, N
 * and K where the real one is (rows of A and B then lie as far apart in memory as the
 * real ones' do, a line or more). */
RunStatus Session_trace(Session *s, const KernelInfo *k, const long long *values, const Problem *p, int groups,
                        bool global_loads, Trace *t, RunResult *r);
void Trace_free(Trace *t);

/* For micro-kernels and vendor libraries: a helper entry point compiled from text
 * (prepended with the preludes) and cached like kernels; NULL with err on failure. */
Kernel *Session_helperKernel(Session *s, const char *text, const char *defines, const char *entry, char *err,
                             size_t errlen);
Context *Session_context(Session *s);

void RunResult_free(RunResult *r);
const char *RunStatus_name(RunStatus s);
/* Exit code for the command line: 0 ok, 1 failed or not verified, 2 refused (usage). */
int RunStatus_exitCode(RunStatus s);

#endif
