/* What the session's files share (session.c: device, programs and buffers; session_run.c:
 * a run's pipeline of launches and its timing; session_vendor.c: the vendor library's
 * calls; session_trace.c: a bank trace; session_verify.c: C checked on the device). Not for
 * the rest of gemmtop: session.h is. */
#ifndef GEMMTOP_SESSION_INTERNAL_H
#define GEMMTOP_SESSION_INTERNAL_H

#include "core/run/session.h"

#define PROGRAM_CACHE_SIZE 64

typedef struct CachedProgram_ {
   unsigned long long key;
   Program *program;
   Kernel *kernel;
   Kernel *fixup;       /* the kernel's fix-up entry (`fixup:`), taken from the program when first launched */
   BuildInfo info;      /* log owned here */
   unsigned long last_use;
} CachedProgram;

/* Random inputs kept for the session's next runs (Session_inputs). */
#define SESSION_INPUTS 4
typedef struct CachedInputs_ {
   Inputs in;
   bool held;
   unsigned long last_use;
} CachedInputs;

typedef struct DeviceBuffer_ {
   Buffer *buf;
   size_t bytes;
   bool guarded; /* GUARD_BYTES on each side, filled with the guard pattern (Session_checkGuards) */
} DeviceBuffer;

/* Each buffer's guard zones: a kernel's writes up to this far outside an operand land there
 * and are found (wider ones reach other memory, as on any GPU). A multiple of 4096, which
 * Backend.allocGuarded asks. */
#define GUARD_BYTES 65536

/* BUF_SA, BUF_SB: the FP8 types' scales, as the kernel's geometry reads them (scales.h). */
/* BUF_WS: the workspace of a split-K or stream-K kernel (`workspace:`). */
/* BUF_V*: the verification kernels' vectors (session_verify.c): x, y, C x with |C| |x|, the
 * rows' non-finite counts, y^T C's partial sums per band of rows, y^T C with |y|^T |C|, the
 * sample positions, C at them. */
enum {
   BUF_A, BUF_B, BUF_C0, BUF_C, BUF_AK, BUF_BK, BUF_CK, BUF_SA, BUF_SB, BUF_WS,
   BUF_VX, BUF_VY, BUF_VROWS, BUF_VNF, BUF_VPART, BUF_VCOLS, BUF_VAT, BUF_VSAMPLES,
   BUF_COUNT
};

struct Session_ {
   const Backend *be;
   Context *ctx;
   DeviceInfo info;
   const Catalog *catalog;
   CachedProgram cache[PROGRAM_CACHE_SIZE];
   unsigned long clock;
   DeviceBuffer bufs[BUF_COUNT];
   unsigned long uploaded_generation; /* inputs now on the device */
   size_t result_bytes;
   bool stuck;                        /* a launch was abandoned (Session_stuck) */
   unsigned char *guard_pattern;      /* GUARD_BYTES of what guard zones hold, then 2 GUARD_BYTES to read them */
   CachedInputs inputs[SESSION_INPUTS];
   void *host_c;                      /* C read back for the verification (Session_hostC) */
   size_t host_c_bytes;
   bool host_c_pinned;                /* from Backend.hostAlloc, else malloc's */
   Observer *observer;                /* opened on the first observed run (Session_observer) */
   bool observer_tried;
   char observer_why[160];
};

/* The launches of a pass: up to three helpers before the GEMM, the GEMM, its fix-up, one after. */
#define PIPELINE_MAX_STEPS (RUN_MAX_HELPERS + 2)

/* One launch of the pipeline: helpers before, the GEMM kernel, helpers after. */
typedef struct Step_ {
   Kernel *kernel;
   KernelArg args[8 + 2 + 1 + 1 + KERNEL_MAX_TMA]; /* the GEMM's, scales, a workspace, a trace buffer or tensor maps */
   int nargs;
   size_t global[3];
   size_t local[3];
   int dims;
   bool use_local;
   char what[48];
   bool is_gemm;
   bool restore_c;   /* before this step: copy C0 into C (beta != 0, no padding) */
   int fixup_nargs;  /* the GEMM's: how many of its arguments its fix-up takes */
} Step;

typedef struct Pipeline_ {
   Step steps[PIPELINE_MAX_STEPS];
   int nsteps;
   int gemm_index;
   int fixup_index;     /* the GEMM's fix-up launch, part of its time; -1 when none */
   double timeout_ms;   /* a launch running longer is abandoned (0: no limit) */
   size_t in_es, out_es; /* bytes of an element of A and B, of C: for the guard zones' offsets */
} Pipeline;

/* What a run and a trace share: checks, the compiled kernels, buffers with the inputs
 * on the device, and the pipeline of launches. */
typedef struct Prepared_ {
   Pipeline pl;
   Buffer *C0, *C, *Ck;
   size_t bytesC, bytesCk, es;
   bool dbl;
} Prepared;

/* The program of source + options from the session's cache, built when it is not there;
 * *fresh when it was built now. NULL with r's status and message (and build log). */
CachedProgram *Session_cachedKernel(Session *s, const char *source, const char *options, const char *entry, RunResult *r,
                                    bool *fresh);
/* Device buffer which (BUF_*) of bytes, with guard zones where the backend makes them (of
 * exactly bytes then, so that the zone after it starts where the data ends; else of at
 * least bytes); false with r's status and message. */
bool Session_ensureBuffer(Session *s, int which, size_t bytes, RunResult *r);
/* After a pass: the guard zones of every buffer the GEMM and its fix-up were given, read
 * back and compared with the pattern. False when a kernel wrote there, with r's status
 * RUN_NOT_VERIFIED and a message saying where ("wrote outside C at offset 4103 ..."); the
 * zones are then filled again. */
bool Session_checkGuards(Session *s, const Pipeline *pl, RunResult *r);
/* Host memory for C read back, at least bytes: page-locked where the backend has it (the
 * copy then runs at the bus's speed), kept for the session's next runs. NULL when out of
 * memory. */
void *Session_hostC(Session *s, size_t bytes);
/* Enqueues setting bytes of b to word, repeated (Verify_poisonWord for C; all ones, a NaN in
 * float and in double, for a workspace): on the device when the backend can fill and bytes
 * is a multiple of 4, else written from the host. False with r's status and message. */
bool Session_poison(Session *s, Buffer *b, size_t bytes, uint32_t word, RunResult *r);
/* st as r's status and err as its message unless it is BACKEND_OK; whether it was. */
bool Session_checkStatus(Session *s, BackendStatus st, const char *err, RunResult *r);
/* Nothing can be enqueued behind an abandoned launch: true (and why) when one was. */
bool Session_refuseIfStuck(const Session *s, RunStatus *status, char *message, size_t len);
long long Session_localMemOf(const BuildInfo *info, const Geometry *g, bool extra);
/* body after the catalog's preludes, as this session's backend compiles it. */
char *Session_joinSource(const Session *s, const char *body);

/* The checks, compiled kernels, buffers with the inputs on the device and the pipeline of
 * launches of a configuration (session_run.c); extra_defines and a trace buffer for a bank
 * trace. checked: the geometry of a caller's check (RunOptions.checked), else NULL and
 * the target and rules are checked here. */
RunStatus Session_prepare(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                          const Inputs *inputs, const char *extra_defines, Buffer *trace, const Geometry *checked,
                          Prepared *out, RunResult *r);
/* A and B as a vendor library that takes only K-major operands (Backend.vendorKMajor) is
 * given them: op(A) stored M x K, op(B) stored N x K. Where the problem stores one
 * otherwise, the helper kernels transpose the uploaded operand into BUF_AK or BUF_BK,
 * once, untimed; *A and *B are the buffers to hand over, *moved says which were
 * transposed ("A", "B", "A and B", ""). False with r's status and message. */
bool Session_kMajorOperands(Session *s, const Problem *p, Buffer **A, Buffer **B, char *moved, size_t movedlen,
                            RunResult *r);
/* Whether a run's C is checked on the device (session_verify.c): want, the device's FP64 and
 * kind; why says where, for RunResult.verified_on ("device", "host (...)"). */
bool Session_verifiesOnDevice(const Session *s, VerifyOn want, char *why, size_t len);
/* C (M x N on the device, the problem's output type) checked with verify.cl's kernels and
 * Verify_inputsOf, seed drawing its vectors and samples; the verdict in r->verify, the
 * times in r->phases (compile, download, verify). False with r's status and message when
 * the device or the host's memory failed (no verdict then); false with *built false when
 * the kernels could not be built (r->verified_on says why; the caller checks on the host). */
bool Session_verifyOnDevice(Session *s, const Problem *p, const Inputs *inputs, Buffer *C, uint64_t seed,
                            const VerifyAccumulation *acc, bool *built, RunResult *r);
/* The GEMM's device time in a pass's step times: its launch and its fix-up's. */
double Pipeline_gemmMs(const Pipeline *pl, const double *times);
/* One pass of the pipeline, finished; with timed, each step's device time into times. */
bool Pipeline_run(Session *s, Pipeline *pl, bool real_double, bool timed, double *times, RunResult *r, Buffer *c0,
                  Buffer *c, size_t cbytes);

#endif
