#include "core/session.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ablate.h"
#include "core/coldl2.h"
#include "base/util.h"

#define PROGRAM_CACHE_SIZE 64

typedef struct CachedProgram_ {
   unsigned long long key;
   Program *program;
   Kernel *kernel;
   BuildInfo info;      /* log owned here */
   unsigned long last_use;
} CachedProgram;

typedef struct DeviceBuffer_ {
   Buffer *buf;
   size_t bytes;
} DeviceBuffer;

enum { BUF_A, BUF_B, BUF_C0, BUF_C, BUF_AK, BUF_BK, BUF_CK, BUF_COUNT };

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
   Observer *observer;                /* opened on the first observed run (Session_observer) */
   bool observer_tried;
   char observer_why[160];
};

/* GEMMTOP_DEVICE_LIMITS="max_wg=256,local_mem=32768,fp64=0" pretends the device is
 * smaller than it is: a class can see how a kernel is refused on a device it does not
 * have (the Apple M1 of the homework allows 256 work-items per group), and the tests can
 * check those refusals on PoCL. Limits can only shrink. The text is read whole (no buffer
 * to cut it into a bogus name); a value that is empty, not a number, or too large is
 * refused, never taken as 0 or wrapped. tensor_ptx=0 makes tensor kernels run their portable
 * emulation on a GPU that has tensor cores; l2=BYTES a smaller L2, so that cold-L2 timing
 * (coldl2.h) rotates its copies at a small size. l and l2 may be NULL: only check. */
static bool applyLimitsText(const char *env, DeviceLimits *l, unsigned long long *l2, char *err, size_t errlen) {
   static const char *names = "names: max_wg, max_wi, local_mem, l2, fp64, tensor_ptx";
   char *buf = strdup(env);
   if (!buf) {
      snprintf(err, errlen, "GEMMTOP_DEVICE_LIMITS: out of memory");
      return false;
   }
   bool ok = true;
   char *save = NULL;
   for (char *tok = strtok_r(buf, ", ", &save); ok && tok; tok = strtok_r(NULL, ", ", &save)) {
      char *eq = strchr(tok, '='), *end = NULL;
      errno = 0;
      unsigned long long v = eq && isdigit((unsigned char)eq[1]) ? strtoull(eq + 1, &end, 10) : 0;
      if (eq)
         *eq = '\0';
      bool flag = !strcmp(tok, "fp64") || !strcmp(tok, "tensor_ptx"); /* 0 or 1 */
      bool known = flag || !strcmp(tok, "max_wg") || !strcmp(tok, "max_wi") || !strcmp(tok, "local_mem") ||
                   !strcmp(tok, "l2");
      if (!eq || !known) {
         snprintf(err, errlen, "GEMMTOP_DEVICE_LIMITS: '%.60s' is not NAME=NUMBER with a known name (%s)", tok, names);
         ok = false;
      } else if (!end || *end || errno == ERANGE || v > (unsigned long long)LLONG_MAX ||
                 (flag && v > 1) || (!flag && strcmp(tok, "local_mem") && v < 1)) {
         snprintf(err, errlen, "GEMMTOP_DEVICE_LIMITS: %s=%.40s: %s", tok, eq + 1,
                  flag ? "use 0 or 1"
                  : !strcmp(tok, "local_mem") ? "use a number of bytes from 0 to 9223372036854775807"
                                              : "use a number from 1 to 9223372036854775807");
         ok = false;
      } else if (!l) {
         continue;
      } else if (!strcmp(tok, "max_wg")) {
         if (v < l->max_wg)
            l->max_wg = (size_t)v;
      } else if (!strcmp(tok, "max_wi")) {
         for (int d = 0; d < 3; d++)
            if (v < l->max_wi[d])
               l->max_wi[d] = (size_t)v;
      } else if (!strcmp(tok, "local_mem")) {
         if (v < l->local_mem)
            l->local_mem = v;
      } else if (!strcmp(tok, "l2")) {
         if (!*l2 || v < *l2)
            *l2 = v; /* a smaller L2: cold-L2 timing rotates fewer copies */
      } else if (!strcmp(tok, "fp64")) {
         l->fp64 = l->fp64 && v != 0;
      } else {
         l->tensor_ptx = l->tensor_ptx && v != 0;
      }
   }
   free(buf);
   return ok;
}

bool Session_checkLimitsEnv(char *err, size_t errlen) {
   const char *env = getenv("GEMMTOP_DEVICE_LIMITS");
   return !env || !*env || applyLimitsText(env, NULL, NULL, err, errlen);
}

bool Session_simulateLimits(const char *text, DeviceLimits *l, char *err, size_t errlen) {
   unsigned long long l2 = 0; /* a lesson's smaller L2 would only change cold-L2 timing: not simulated */
   return applyLimitsText(text, l, &l2, err, errlen);
}

static bool applySimulatedLimits(DeviceInfo *info, char *err, size_t errlen) {
   const char *env = getenv("GEMMTOP_DEVICE_LIMITS");
   if (!env || !*env)
      return true;
   if (!applyLimitsText(env, &info->limits, &info->l2_bytes, err, errlen))
      return false;
   info->limits_simulated = true;
   return true;
}

Session *Session_open(const Backend *backend, int device, const Catalog *catalog, char *err, size_t errlen) {
   Session *s = calloc(1, sizeof *s);
   if (!s) {
      snprintf(err, errlen, "out of host memory");
      return NULL;
   }
   s->be = backend;
   s->catalog = catalog;
   s->ctx = backend->open(device, &s->info, err, errlen);
   if (!s->ctx) {
      free(s);
      return NULL;
   }
   if (!applySimulatedLimits(&s->info, err, errlen)) {
      Session_close(s);
      return NULL;
   }
   return s;
}

static void dropProgram(Session *s, CachedProgram *c) {
   if (c->kernel)
      s->be->releaseKernel(c->kernel);
   if (c->program)
      s->be->releaseProgram(c->program);
   free(c->info.log);
   memset(c, 0, sizeof *c);
}

void Session_forgetPrograms(Session *s) {
   if (s->stuck)
      return; /* releasing would wait for the abandoned launch */
   for (int i = 0; i < PROGRAM_CACHE_SIZE; i++)
      if (s->cache[i].program)
         dropProgram(s, &s->cache[i]);
}

void Session_close(Session *s) {
   if (!s)
      return;
   if (s->stuck) {
      Observer_close(s->observer);
      free(s); /* the runtime's objects wait for the abandoned launch: left to the exit */
      return;
   }
   Session_forgetPrograms(s);
   for (int i = 0; i < BUF_COUNT; i++)
      if (s->bufs[i].buf)
         s->be->free(s->bufs[i].buf);
   s->be->close(s->ctx);
   Observer_close(s->observer);
   free(s);
}

const DeviceInfo *Session_device(const Session *s) { return &s->info; }

Observer *Session_observer(Session *s, const char **why) {
   if (!s->observer_tried) {
      s->observer_tried = true;
      s->observer = Observer_open(&s->info, s->observer_why, sizeof s->observer_why);
   }
   if (why)
      *why = s->observer_why;
   return s->observer;
}
bool Session_stuck(const Session *s) { return s->stuck; }

/* Nothing can be enqueued behind an abandoned launch. */
static bool refuseIfStuck(const Session *s, RunStatus *status, char *message, size_t len) {
   if (!s->stuck)
      return false;
   *status = RUN_DEVICE_ERROR;
   snprintf(message, len, "not run: the device is still busy with an abandoned launch");
   return true;
}
const Backend *Session_backend(const Session *s) { return s->be; }

bool Session_fits(const Session *s, const Problem *p, char *msg, size_t msglen) {
   double es = (double)Precision_size(p->precision), ies = (double)Precision_inputSize(p->precision);
   double a = (double)Problem_sizeA(p) * ies, b = (double)Problem_sizeB(p) * ies, c = (double)Problem_sizeC(p) * es;
   double total = a + b + c * (p->beta != 0.0 ? 2 : 1);
   double largest = a > b ? (a > c ? a : c) : (b > c ? b : c);
   const double gib = 1073741824.0;
   if (largest > (double)s->info.max_alloc || total > (double)s->info.global_mem) {
      snprintf(msg, msglen,
               "out of device memory: M=%d N=%d K=%d in %s needs %.2f GiB (A %.2f, B %.2f, C %.2f GiB); %s has %.2f GiB, "
               "largest buffer %.2f GiB",
               p->m, p->n, p->k, Precision_name(p->precision), total / gib, a / gib, b / gib, c / gib, s->info.name,
               s->info.global_mem / gib, s->info.max_alloc / gib);
      return false;
   }
   return true;
}

/* The local memory a kernel uses as its runtime reports it; PoCL 5 reports 0 bytes for a
 * kernel's static local arrays (it counts only local arguments), so where the runtime says
 * 0 and the kernel's metadata declares some, the declared figure. Not for a build with
 * extra defines (an ablation, whose compiler may rightly have dropped the arrays, or a
 * bank trace, whose figure nothing shows). */
static long long localMemOf(const BuildInfo *info, const Geometry *g, bool extra) {
   return info->local_mem == 0 && g->localmem > 0 && !extra ? g->localmem : info->local_mem;
}

/* Builds (or finds) source + options and returns its entry point. */
static CachedProgram *getKernel(Session *s, const char *source, const char *options, const char *entry, RunResult *r,
                                bool *fresh) {
   unsigned long long key = Util_hash(UTIL_HASH_INIT, source, strlen(source));
   key = Util_hash(key, options, strlen(options) + 1);
   key = Util_hash(key, entry, strlen(entry));
   s->clock++;
   CachedProgram *victim = &s->cache[0];
   for (int i = 0; i < PROGRAM_CACHE_SIZE; i++) {
      CachedProgram *c = &s->cache[i];
      if (c->program && c->key == key) {
         c->last_use = s->clock;
         *fresh = false;
         return c;
      }
      if (!c->program || (victim->program && c->last_use < victim->last_use))
         victim = c;
   }
   if (victim->program)
      dropProgram(s, victim);
   BuildInfo info;
   Program *prog = NULL;
   char err[512];
   BackendStatus st = s->be->build(s->ctx, source, options, &prog, &info, err, sizeof err);
   if (st != BACKEND_OK) {
      r->status = st == BACKEND_ERR_COMPILE ? RUN_COMPILE_ERROR
                  : st == BACKEND_ERR_OUT_OF_MEMORY ? RUN_OUT_OF_MEMORY
                                                    : RUN_DEVICE_ERROR;
      snprintf(r->message, sizeof r->message, "%s", err);
      free(r->build_log);
      r->build_log = info.log;
      r->compile_ms = info.compile_ms;
      return NULL;
   }
   Kernel *kern = s->be->kernel(prog, entry, &info, err, sizeof err);
   if (!kern) {
      r->status = RUN_COMPILE_ERROR;
      snprintf(r->message, sizeof r->message, "%s", err);
      free(r->build_log);
      r->build_log = info.log;
      s->be->releaseProgram(prog);
      return NULL;
   }
   victim->key = key;
   victim->program = prog;
   victim->kernel = kern;
   victim->info = info;
   victim->last_use = s->clock;
   *fresh = true;
   return victim;
}

static bool ensureBuffer(Session *s, int which, size_t bytes, RunResult *r) {
   DeviceBuffer *b = &s->bufs[which];
   if (b->buf && b->bytes >= bytes)
      return true;
   if (b->buf) {
      s->be->free(b->buf);
      b->buf = NULL;
      b->bytes = 0;
      if (which <= BUF_C0)
         s->uploaded_generation = 0;
   }
   char err[512];
   BackendStatus st = s->be->alloc(s->ctx, bytes, &b->buf, err, sizeof err);
   if (st != BACKEND_OK) {
      r->status = st == BACKEND_ERR_OUT_OF_MEMORY ? RUN_OUT_OF_MEMORY : RUN_DEVICE_ERROR;
      snprintf(r->message, sizeof r->message, "%s", err);
      return false;
   }
   b->bytes = bytes;
   return true;
}

static bool check(Session *s, BackendStatus st, const char *err, RunResult *r) {
   if (st == BACKEND_OK)
      return true;
   r->status = st == BACKEND_ERR_OUT_OF_MEMORY ? RUN_OUT_OF_MEMORY : RUN_DEVICE_ERROR;
   snprintf(r->message, sizeof r->message, "%s", err);
   return false;
}

/* One launch of the pipeline: helpers before, the GEMM kernel, helpers after. */
typedef struct Step_ {
   Kernel *kernel;
   KernelArg args[8 + 1 + KERNEL_MAX_TMA]; /* the GEMM's, a trace buffer or tensor maps */
   int nargs;
   size_t global[3];
   size_t local[3];
   int dims;
   bool use_local;
   char what[48];
   bool is_gemm;
   bool restore_c;   /* before this step: copy C0 into C (beta != 0, no padding) */
} Step;

typedef struct Pipeline_ {
   Step steps[RUN_MAX_HELPERS + 1];
   int nsteps;
   int gemm_index;
   double timeout_ms;   /* a launch running longer is abandoned (0: no limit) */
} Pipeline;

static size_t roundUp(size_t v, size_t m) { return (v + m - 1) / m * m; }

static void addCopyPad(Pipeline *pl, Kernel *copyPad, const char *what, int Lr, int Lc, bool src_trans, Buffer *src,
                       int dr, int dc, bool dst_trans, Buffer *dst) {
   Step *st = &pl->steps[pl->nsteps++];
   memset(st, 0, sizeof *st);
   st->kernel = copyPad;
   KernelArg a[] = {{.kind = ARG_INT, .i = Lr},      {.kind = ARG_INT, .i = Lc},      {.kind = ARG_INT, .i = src_trans},
                    {.kind = ARG_BUFFER, .buffer = src}, {.kind = ARG_INT, .i = dr}, {.kind = ARG_INT, .i = dc},
                    {.kind = ARG_INT, .i = dst_trans}, {.kind = ARG_BUFFER, .buffer = dst}};
   memcpy(st->args, a, sizeof a);
   st->nargs = 8;
   st->dims = 2;
   st->global[0] = roundUp((size_t)dc, 16);
   st->global[1] = roundUp((size_t)dr, 16);
   st->local[0] = st->local[1] = 16;
   st->use_local = true;
   snprintf(st->what, sizeof st->what, "%s", what);
}

/* A launch the driver refused for lack of resources, when the compiled kernel's own limit
 * on work-items per group (registers are shared by the group) is below what the
 * configuration asks: say so, as a refused configuration. */
static void explainLaunchFailure(const Step *st, RunResult *r) {
   size_t wg = 1;
   for (int d = 0; d < st->dims; d++)
      wg *= st->local[d];
   if (!st->is_gemm || !r->max_wg_for_kernel || wg <= r->max_wg_for_kernel)
      return;
   char regs[48] = "";
   if (r->registers > 0)
      snprintf(regs, sizeof regs, ", which uses %d registers per work-item,", r->registers);
   char was[256];
   snprintf(was, sizeof was, "%s", r->message);
   snprintf(r->message, sizeof r->message,
            "the driver refused the launch (%s): the kernel as compiled%s allows at most %zu work-items per group on "
            "this device and this configuration needs %zu; choose a smaller work-group or fewer elements per work-item",
            was, regs, r->max_wg_for_kernel, wg);
   r->status = RUN_INVALID;
}

static bool runPipeline(Session *s, Pipeline *pl, bool real_double, bool timed, double *times, RunResult *r,
                        Buffer *c0, Buffer *c, size_t cbytes) {
   char err[512];
   Event *events[RUN_MAX_HELPERS + 1] = {0};
   for (int i = 0; i < pl->nsteps; i++) {
      Step *st = &pl->steps[i];
      if (st->restore_c && !check(s, s->be->copy(s->ctx, c, c0, cbytes, err, sizeof err), err, r))
         goto failed;
      BackendStatus bs = s->be->launch(s->ctx, st->kernel, st->args, st->nargs, real_double, st->dims, st->global,
                                       st->use_local ? st->local : NULL, timed ? &events[i] : NULL, err, sizeof err);
      if (bs != BACKEND_OK) {
         snprintf(r->message, sizeof r->message, "%s: %s", st->what, err);
         r->status = bs == BACKEND_ERR_OUT_OF_MEMORY ? RUN_OUT_OF_MEMORY : RUN_DEVICE_ERROR;
         explainLaunchFailure(st, r);
         goto failed;
      }
   }
   BackendStatus done = pl->timeout_ms > 0 && s->be->finishWithin
                           ? s->be->finishWithin(s->ctx, pl->timeout_ms, err, sizeof err)
                           : s->be->finish(s->ctx, err, sizeof err);
   if (done == BACKEND_ERR_TIMEOUT) {
      /* The launch cannot be stopped: it and its events are left to run on. */
      s->stuck = true;
      r->status = RUN_TIMEOUT;
      snprintf(r->message, sizeof r->message,
               "a launch of %s did not finish within %.3g s: abandoned (a launch cannot be stopped; the device stays "
               "busy with it until this process ends)",
               pl->steps[pl->gemm_index].what, pl->timeout_ms / 1000);
      return false;
   }
   if (!check(s, done, err, r))
      goto failed;
   for (int i = 0; i < pl->nsteps; i++)
      if (events[i]) {
         times[i] = s->be->eventMs(events[i]);
         s->be->releaseEvent(events[i]);
      }
   return true;
failed:
   for (int i = 0; i < pl->nsteps; i++)
      s->be->releaseEvent(events[i]);
   return false;
}

static void fillNaN(void *host, size_t count, Precision prec) {
   for (size_t i = 0; i < count; i++)
      Storage_store(Types_of(prec)->out, host, i, NAN);
}

/* The text a backend compiles: its own prelude (CUDA/HIP), the common prelude, then the
 * kernel file, whose name and line numbers the compiler's messages keep. */
char *Session_sourceNamed(const Catalog *cat, bool cuda_prelude, const char *body, const char *path) {
   const char *extra = cuda_prelude ? cat->prelude_cuda : "";
   const char *base = path ? strrchr(path, '/') : NULL;
   base = base ? base + 1 : path ? path : "kernel.cl";
   size_t n = strlen(extra) + strlen(cat->prelude) + strlen(body) + strlen(base) + 40;
   char *src = malloc(n);
   if (src)
      snprintf(src, n, "%s\n%s\n#line 1 \"%s\"\n%s", extra, cat->prelude, base, body);
   return src;
}

char *Session_source(const Catalog *cat, bool cuda_prelude, const char *body) {
   return Session_sourceNamed(cat, cuda_prelude, body, NULL);
}

static char *joinSource(const Session *s, const char *body) {
   return Session_source(s->catalog, Backend_can(s->be, BACKEND_CAP_CUDA_PRELUDE), body);
}

ConfigTarget Session_targetFor(const Backend *be, const DeviceInfo *dev) {
   return (ConfigTarget){.backend = be->title,
                         .arch_specific = Backend_can(be, BACKEND_CAP_ARCH_SPECIFIC),
                         .dynamic_smem = dev->limits.dynamic_smem,
                         .arch = dev->arch,
                         .is_pocl = dev->is_pocl,
                         .nvidia = dev->vendor_kind == VENDOR_NVIDIA,
                         .amd = dev->vendor_kind == VENDOR_AMD && dev->type == DEVICE_GPU};
}

bool Session_targetOk(const Session *s, const KernelInfo *k, char *msg, size_t msglen) {
   ConfigTarget t = Session_targetFor(s->be, &s->info);
   return Config_targetOk(k, &t, msg, msglen);
}

/* The GEMM's tensor maps (`tma:`), after its usual arguments: each operand as the kernel
 * reads it (Ak, Bk: transposed or padded when it asks), in the geometry's boxes. */
static bool addTensorMaps(Step *gs, const Geometry *g, const Problem *p, Buffer *Ak, Buffer *Bk, RunResult *r) {
   if (gs->nargs + g->ntma > (int)(sizeof gs->args / sizeof gs->args[0])) {
      r->status = RUN_INVALID;
      snprintf(r->message, sizeof r->message, "a kernel with tensor maps cannot be traced");
      return false;
   }
   for (int i = 0; i < g->ntma; i++) {
      bool isA = g->tma[i].operand == 'A', trans = isA ? g->trans_a : g->trans_b;
      /* stored rows x cols: A is M x K (K x M transposed), B is K x N (N x K transposed) */
      long long rows = isA ? (trans ? g->k : g->m) : (trans ? g->n : g->k);
      long long cols = isA ? (trans ? g->m : g->k) : (trans ? g->k : g->n);
      KernelArg *a = &gs->args[gs->nargs++];
      memset(a, 0, sizeof *a);
      a->kind = ARG_TENSOR_MAP;
      a->buffer = isA ? Ak : Bk;
      a->tmap = (TensorMapSpec){.elem_bytes = (int)Precision_inputSize(p->precision), .rows = rows, .cols = cols,
                                .box_cols = g->tma[i].box[0], .box_rows = g->tma[i].box[1], .swizzle = g->tma[i].swizzle};
   }
   return true;
}

/* What a run and a trace share: checks, the compiled kernels, buffers with the inputs
 * on the device, and the pipeline of launches. */
typedef struct Prepared_ {
   Pipeline pl;
   Buffer *C0, *C, *Ck;
   size_t bytesC, bytesCk, es;
   bool dbl;
} Prepared;

static RunStatus prepare(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                         const Inputs *inputs, const char *extra_defines, Buffer *trace, Prepared *out, RunResult *r) {
   free(r->build_log);
   memset(r, 0, sizeof *r);
   r->registers = -1;
   r->private_mem = r->local_mem = -1;
   char err[1024];
   if (refuseIfStuck(s, &r->status, r->message, sizeof r->message))
      return r->status;
   if (!Session_targetOk(s, k, r->message, sizeof r->message) ||
       !Config_check(k, values, p, &s->info.limits, &r->geo, r->message, sizeof r->message)) {
      r->status = RUN_INVALID;
      return r->status;
   }
   if (!Session_fits(s, p, r->message, sizeof r->message)) {
      r->status = RUN_OUT_OF_MEMORY;
      return r->status;
   }
   const Geometry *g = &r->geo;
   Config_defines(k, values, p, g, r->defines, sizeof r->defines);
   if (extra_defines && *extra_defines)
      snprintf(r->defines + strlen(r->defines), sizeof r->defines - strlen(r->defines), " %s", extra_defines);
   bool dbl = Types_of(p->precision)->out == STORAGE_F64;

   /* Compile (or find) the GEMM kernel and, when needed, the helpers. */
   char *source = Session_sourceNamed(s->catalog, Backend_can(s->be, BACKEND_CAP_CUDA_PRELUDE), k->source, k->path);
   if (!source) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory");
      return r->status;
   }
   bool fresh = false;
   CachedProgram *gemm = getKernel(s, source, r->defines, k->entry, r, &fresh);
   free(source);
   if (!gemm)
      return r->status;
   r->compile_ms = gemm->info.compile_ms;
   r->cached_memory = !fresh;
   r->cached = !fresh || gemm->info.cached_disk;
   if (!fresh)
      r->compile_ms = 0;
   r->registers = gemm->info.registers;
   r->private_mem = gemm->info.private_mem;
   r->local_mem = localMemOf(&gemm->info, &r->geo, extra_defines && *extra_defines);
   if (gemm->info.log && gemm->info.log[0])
      r->build_log = strdup(gemm->info.log);
   r->max_wg_for_kernel = gemm->info.max_wg_for_kernel;

   bool prepA = g->trans_a != p->trans_a || g->pad;
   bool prepB = g->trans_b != p->trans_b || g->pad;
   /* Half and bfloat16 operands are moved by gt_copy_pad_in (in_t), C by gt_copy_pad (real);
    * for the other types both are real, and gt_copy_pad does it all. */
   const bool narrow = Precision_is16(p->precision);
   Kernel *copyPad = NULL, *copyPadIn = NULL, *unpad = NULL;
   if (prepA || prepB || g->pad) {
      char *hsrc = joinSource(s, s->catalog->helpers);
      char hdefs[64];
      Precision_defines(p->precision, hdefs, sizeof hdefs);
      bool hfresh;
      CachedProgram *h1 = hsrc ? getKernel(s, hsrc, hdefs, "gt_copy_pad", r, &hfresh) : NULL;
      CachedProgram *h2 = h1 ? getKernel(s, hsrc, hdefs, "gt_unpad", r, &hfresh) : NULL;
      CachedProgram *h3 = h2 && narrow && (prepA || prepB) ? getKernel(s, hsrc, hdefs, "gt_copy_pad_in", r, &hfresh) : NULL;
      free(hsrc);
      if (!h1 || !h2 || (narrow && (prepA || prepB) && !h3)) {
         if (r->status == RUN_OK)
            r->status = RUN_OUT_OF_MEMORY;
         snprintf(r->message + strlen(r->message), sizeof r->message - strlen(r->message), " (in the helper kernels)");
         return r->status;
      }
      /* An earlier one may have been evicted by a later insertion only if the cache had one slot. */
      copyPad = h1->kernel;
      unpad = h2->kernel;
      copyPadIn = h3 ? h3->kernel : copyPad;
   }

   /* Device buffers: A and B of the input type, C of the output type. */
   size_t es = Precision_size(p->precision), ies = Precision_inputSize(p->precision);
   size_t bytesA = Problem_sizeA(p) * ies, bytesB = Problem_sizeB(p) * ies, bytesC = Problem_sizeC(p) * es;
   size_t bytesAk = (size_t)g->m * (size_t)g->k * ies, bytesBk = (size_t)g->k * (size_t)g->n * ies;
   size_t bytesCk = (size_t)g->m * (size_t)g->n * es;
   if (!ensureBuffer(s, BUF_A, bytesA, r) || !ensureBuffer(s, BUF_B, bytesB, r) || !ensureBuffer(s, BUF_C, bytesC, r) ||
       (p->beta != 0.0 && !ensureBuffer(s, BUF_C0, bytesC, r)) || (prepA && !ensureBuffer(s, BUF_AK, bytesAk, r)) ||
       (prepB && !ensureBuffer(s, BUF_BK, bytesBk, r)) || (g->pad && !ensureBuffer(s, BUF_CK, bytesCk, r)))
      return r->status;
   Buffer *A = s->bufs[BUF_A].buf, *B = s->bufs[BUF_B].buf, *C = s->bufs[BUF_C].buf, *C0 = s->bufs[BUF_C0].buf;
   if (s->uploaded_generation != inputs->generation) {
      if (!check(s, s->be->write(s->ctx, A, inputs->a, bytesA, err, sizeof err), err, r) ||
          !check(s, s->be->write(s->ctx, B, inputs->b, bytesB, err, sizeof err), err, r) ||
          (p->beta != 0.0 && !check(s, s->be->write(s->ctx, C0, inputs->c0, bytesC, err, sizeof err), err, r)))
         return r->status;
      s->uploaded_generation = inputs->generation;
   }
   s->result_bytes = bytesC;

   /* The pipeline. */
   Pipeline pl = {.nsteps = 0};
   memset(out, 0, sizeof *out);
   Buffer *Ak = prepA ? s->bufs[BUF_AK].buf : A;
   Buffer *Bk = prepB ? s->bufs[BUF_BK].buf : B;
   Buffer *Ck = g->pad ? s->bufs[BUF_CK].buf : C;
   if (prepA) {
      const char *what = g->pad ? (g->trans_a != p->trans_a ? "pad+transpose A" : "pad A") : "transpose A";
      addCopyPad(&pl, copyPadIn, what, p->m, p->k, p->trans_a, A, g->trans_a ? g->k : g->m, g->trans_a ? g->m : g->k,
                 g->trans_a, Ak);
   }
   if (prepB) {
      /* op(B) is K x N logically. */
      const char *what = g->pad ? (g->trans_b != p->trans_b ? "pad+transpose B" : "pad B") : "transpose B";
      addCopyPad(&pl, copyPadIn, what, p->k, p->n, p->trans_b, B, g->trans_b ? g->n : g->k, g->trans_b ? g->k : g->n,
                 g->trans_b, Bk);
   }
   if (g->pad && p->beta != 0.0)
      addCopyPad(&pl, copyPad, "pad C", p->m, p->n, false, C0, g->m, g->n, false, Ck);
   pl.gemm_index = pl.nsteps;
   Step *gs = &pl.steps[pl.nsteps++];
   memset(gs, 0, sizeof *gs);
   gs->kernel = gemm->kernel;
   gs->is_gemm = true;
   gs->restore_c = !g->pad && p->beta != 0.0;
   snprintf(gs->what, sizeof gs->what, "%s", k->name);
   KernelArg ga[] = {{.kind = ARG_INT, .i = g->m},        {.kind = ARG_INT, .i = g->n},
                     {.kind = ARG_INT, .i = g->k},        {.kind = ARG_REAL, .real = p->alpha},
                     {.kind = ARG_BUFFER, .buffer = Ak},  {.kind = ARG_BUFFER, .buffer = Bk},
                     {.kind = ARG_REAL, .real = p->beta}, {.kind = ARG_BUFFER, .buffer = Ck}};
   memcpy(gs->args, ga, sizeof ga);
   gs->nargs = 8;
   if (trace) {
      gs->args[8].kind = ARG_BUFFER;
      gs->args[8].buffer = trace;
      gs->nargs = 9;
   }
   if (g->ntma && !addTensorMaps(gs, g, p, Ak, Bk, r))
      return r->status;
   if (g->dynamic_smem > 0 && s->be->setDynamicShared &&
       !check(s, s->be->setDynamicShared(gemm->kernel, (size_t)g->dynamic_smem, err, sizeof err),
                                     err, r))
      return r->status;
   gs->dims = g->dims;
   gs->use_local = true;
   memcpy(gs->global, g->global, sizeof g->global);
   memcpy(gs->local, g->local, sizeof g->local);
   if (g->pad) {
      Step *st = &pl.steps[pl.nsteps++];
      memset(st, 0, sizeof *st);
      st->kernel = unpad;
      KernelArg ua[] = {{.kind = ARG_INT, .i = p->m}, {.kind = ARG_INT, .i = p->n}, {.kind = ARG_INT, .i = g->n},
                        {.kind = ARG_BUFFER, .buffer = Ck}, {.kind = ARG_BUFFER, .buffer = C}};
      memcpy(st->args, ua, sizeof ua);
      st->nargs = 5;
      st->dims = 2;
      st->global[0] = roundUp((size_t)p->n, 16);
      st->global[1] = roundUp((size_t)p->m, 16);
      st->local[0] = st->local[1] = 16;
      st->use_local = true;
      snprintf(st->what, sizeof st->what, "unpad C");
   }
   out->pl = pl;
   out->C0 = C0;
   out->C = C;
   out->Ck = Ck;
   out->bytesC = bytesC;
   out->bytesCk = bytesCk;
   out->es = es;
   out->dbl = dbl;
   r->status = RUN_OK;
   return RUN_OK;
}

/* Cold L2 for a run: rotation when the GEMM reads A and B as uploaded; a flush when it
 * reads what a helper wrote from them just before (transposed, padded). */
static bool startCold(Session *s, const Step *gemm, const Problem *p, ColdL2 *cold, RunResult *r) {
   Buffer *A = s->bufs[BUF_A].buf, *B = s->bufs[BUF_B].buf;
   bool readsA = false, readsB = false;
   for (int i = 0; i < gemm->nargs; i++) {
      readsA |= gemm->args[i].buffer == A;
      readsB |= gemm->args[i].buffer == B;
   }
   size_t ies = Precision_inputSize(p->precision);
   char err[512];
   if (!ColdL2_setup(cold, s->be, s->ctx, &s->info, A, Problem_sizeA(p) * ies, B, Problem_sizeB(p) * ies,
                     readsA && readsB, err, sizeof err)) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "%s", err);
      return false;
   }
   snprintf(r->cold_l2_method, sizeof r->cold_l2_method, "%s", cold->method);
   return true;
}

/* Before timed launch i: the GEMM's operands (buffers and tensor maps) from the next copy,
 * or the flush enqueued. */
static bool coldOperands(Session *s, ColdL2 *cold, int i, Step *gemm, RunResult *r) {
   Buffer *A = NULL, *B = NULL;
   char err[512];
   if (!ColdL2_before(cold, i, &A, &B, err, sizeof err))
      return check(s, BACKEND_ERR_OTHER, err, r);
   if (cold->copies > 0)
      for (int j = 0; j < gemm->nargs; j++) {
         Buffer **b = &gemm->args[j].buffer;
         int was = i == 0 ? 0 : (i - 1) % cold->copies;
         if (*b && *b == cold->a[was])
            *b = A;
         else if (*b && *b == cold->b[was])
            *b = B;
      }
   return true;
}

RunStatus Session_run(Session *s, const KernelInfo *k, const long long *values, const Problem *p, const Inputs *inputs,
                      const RunOptions *o, RunResult *r) {
   double t0 = Util_nowMs();
   Prepared pr;
   memset(&pr, 0, sizeof pr);
   char ablate_defs[160];
   Ablate_defines(o->ablate, ablate_defs, sizeof ablate_defs);
   if (prepare(s, k, values, p, inputs, ablate_defs, NULL, &pr, r) != RUN_OK) {
      r->ablate = o->ablate & ABLATE_ALL;
      return r->status;
   }
   r->ablate = o->ablate & ABLATE_ALL;
   r->cold_l2 = o->cold_l2;
   Observation_clear(&r->obs);
   char err[1024];
   const Geometry *g = &r->geo;
   Pipeline pl = pr.pl;
   pl.timeout_ms = o->launch_timeout_s > 0 ? o->launch_timeout_s * 1e3 : 0;
   Buffer *C0 = pr.C0, *C = pr.C, *Ck = pr.Ck;
   size_t bytesC = pr.bytesC, bytesCk = pr.bytesCk, es = pr.es;
   bool dbl = pr.dbl;
   double stepTimes[RUN_MAX_HELPERS + 1];
   /* Verification: C (and a padded C) poisoned with NaN, one run, read back, checked. An
    * ablated kernel computes a wrong C on purpose: it is not checked. */
   if (o->verify && !r->ablate) {
      void *host = malloc(bytesCk > bytesC ? bytesCk : bytesC);
      if (!host) {
         r->status = RUN_OUT_OF_MEMORY;
         snprintf(r->message, sizeof r->message, "out of host memory (%zu bytes for C)", bytesC);
         return r->status;
      }
      fillNaN(host, (bytesCk > bytesC ? bytesCk : bytesC) / es, p->precision);
      bool ok = check(s, s->be->write(s->ctx, C, host, bytesC, err, sizeof err), err, r) &&
                (!g->pad || check(s, s->be->write(s->ctx, Ck, host, bytesCk, err, sizeof err), err, r)) &&
                runPipeline(s, &pl, dbl, false, stepTimes, r, C0, C, bytesC) &&
                check(s, s->be->read(s->ctx, C, host, bytesC, err, sizeof err), err, r);
      if (!ok) {
         free(host);
         return r->status;
      }
      Verify_gemm(p, inputs->a, inputs->b, inputs->c0, host, inputs->seed ^ 0x5eed, &r->verify);
      r->verified_run = true;
      if (o->verified_c)
         memcpy(o->verified_c, host, bytesC);
      free(host);
   }

   /* Timing: warm-up, then device-timed launches. */
   int reps = o->reps < 1 ? 1 : o->reps > RUN_MAX_TIMES ? RUN_MAX_TIMES : o->reps;
   for (int i = 0; i < o->warmup; i++) {
      if (o->cancel && atomic_load(o->cancel))
         break;
      if (!runPipeline(s, &pl, dbl, false, stepTimes, r, C0, C, bytesC))
         return r->status;
   }
   ColdL2 cold = {0};
   if (o->cold_l2 && !startCold(s, &pl.steps[pl.gemm_index], p, &cold, r))
      return r->status;
   Observer *observer = o->observe ? Session_observer(s, NULL) : NULL;
   double helperTimes[RUN_MAX_HELPERS + 1][RUN_MAX_TIMES];
   double tStart = Util_nowMs();
   int done = 0;
   if (observer)
      Observer_begin(observer);
   for (; done < reps; done++) {
      if (o->cancel && atomic_load(o->cancel))
         break;
      if (done > 0 && o->max_seconds > 0 && Util_nowMs() - tStart > o->max_seconds * 1e3)
         break;
      if ((o->cold_l2 && !coldOperands(s, &cold, done, &pl.steps[pl.gemm_index], r)) ||
          !runPipeline(s, &pl, dbl, true, stepTimes, r, C0, C, bytesC)) {
         if (!s->stuck)
            ColdL2_release(&cold); /* after an abandoned launch the buffers may still be read */
         return r->status;
      }
      if (observer)
         Observer_sample(observer);
      for (int i = 0; i < pl.nsteps; i++)
         helperTimes[i][done] = stepTimes[i];
      r->times_ms[done] = stepTimes[pl.gemm_index];
   }
   ColdL2_release(&cold);
   r->reps = done;
   if (done == 0) {
      r->status = RUN_CANCELLED;
      snprintf(r->message, sizeof r->message, "cancelled");
      r->wall_ms = Util_nowMs() - t0;
      return r->status;
   }
   r->median_ms = Util_median(r->times_ms, done);
   r->min_ms = r->max_ms = r->times_ms[0];
   for (int i = 1; i < done; i++) {
      r->min_ms = fmin(r->min_ms, r->times_ms[i]);
      r->max_ms = fmax(r->max_ms, r->times_ms[i]);
   }
   double q1 = Util_percentile(r->times_ms, done, 0.25), q3 = Util_percentile(r->times_ms, done, 0.75);
   r->spread_pct = r->median_ms > 0 ? 100.0 * (q3 - q1) / r->median_ms : 0;
   for (int i = 0; i < pl.nsteps; i++) {
      if (i == pl.gemm_index || r->nhelpers == RUN_MAX_HELPERS)
         continue;
      HelperTiming *h = &r->helpers[r->nhelpers++];
      snprintf(h->what, sizeof h->what, "%s", pl.steps[i].what);
      h->median_ms = Util_median(helperTimes[i], done);
      r->helpers_ms += h->median_ms;
   }
   if (r->median_ms > 0) {
      r->gflops = Problem_flops(p) / (r->median_ms * 1e6);
      r->gbps = Ablate_bytes(p, r->ablate) / (r->median_ms * 1e6);
      r->core_gbps = Ablate_coreBytes(p) / (r->median_ms * 1e6);
   }
   if (observer)
      Observer_end(observer, done, Problem_flops(p), r->gflops, &r->obs);
   r->wall_ms = Util_nowMs() - t0;
   bool cancelled = done < reps && o->cancel && atomic_load(o->cancel);
   if (r->verified_run && !r->verify.ok) {
      r->status = RUN_NOT_VERIFIED;
      snprintf(r->message, sizeof r->message, "%s", r->verify.message);
   } else if (cancelled) {
      r->status = RUN_CANCELLED;
      snprintf(r->message, sizeof r->message, "cancelled after %d of %d launches", done, reps);
   } else if (r->ablate) {
      r->status = RUN_OK;
      char names[64];
      Ablate_name(r->ablate, names, sizeof names);
      snprintf(r->message, sizeof r->message, "ablated (not verified): %s", names);
   } else {
      r->status = RUN_OK;
      snprintf(r->message, sizeof r->message, "%s", r->verified_run ? r->verify.message : "not verified (not asked)");
   }
   return r->status;
}

/* The vendor call's operands on the device: A, B (and C0 when beta reads C) allocated and
 * uploaded unless these inputs are there already. False with v's status and message. */
static bool vendorOperands(Session *s, const Problem *p, const Inputs *inputs, VendorResult *v) {
   char err[512];
   RunResult *r = calloc(1, sizeof *r);
   if (!r) {
      v->status = RUN_OUT_OF_MEMORY;
      snprintf(v->message, sizeof v->message, "out of host memory");
      return false;
   }
   size_t es = Precision_size(p->precision), ies = Precision_inputSize(p->precision);
   size_t bytesA = Problem_sizeA(p) * ies, bytesB = Problem_sizeB(p) * ies, bytesC = Problem_sizeC(p) * es;
   if (!Session_fits(s, p, v->message, sizeof v->message) || !ensureBuffer(s, BUF_A, bytesA, r) ||
       !ensureBuffer(s, BUF_B, bytesB, r) || !ensureBuffer(s, BUF_C, bytesC, r) ||
       (p->beta != 0.0 && !ensureBuffer(s, BUF_C0, bytesC, r))) {
      v->status = RUN_OUT_OF_MEMORY;
      if (r->message[0])
         snprintf(v->message, sizeof v->message, "%s", r->message);
      free(r);
      return false;
   }
   free(r);
   Buffer *A = s->bufs[BUF_A].buf, *B = s->bufs[BUF_B].buf, *C0 = s->bufs[BUF_C0].buf;
   if (s->uploaded_generation != inputs->generation) {
      if (s->be->write(s->ctx, A, inputs->a, bytesA, err, sizeof err) != BACKEND_OK ||
          s->be->write(s->ctx, B, inputs->b, bytesB, err, sizeof err) != BACKEND_OK ||
          (p->beta != 0.0 && s->be->write(s->ctx, C0, inputs->c0, bytesC, err, sizeof err) != BACKEND_OK)) {
         v->status = RUN_DEVICE_ERROR;
         snprintf(v->message, sizeof v->message, "%s", err);
         return false;
      }
      s->uploaded_generation = inputs->generation;
   }
   s->result_bytes = bytesC;
   return true;
}

/* The vendor library's figures from its timed calls (v->reps of them in times), and what
 * the observer saw over them (observer NULL: none). */
static void vendorFigures(VendorResult *v, const Problem *p, bool verify, const double *times, Observer *observer) {
   v->median_ms = Util_median(times, v->reps);
   v->min_ms = times[0];
   for (int i = 1; i < v->reps; i++)
      if (times[i] < v->min_ms)
         v->min_ms = times[i];
   v->gflops = v->median_ms > 0 ? Problem_flops(p) / (v->median_ms * 1e6) : 0;
   if (observer)
      Observer_end(observer, v->reps, Problem_flops(p), v->gflops, &v->obs);
   if (verify && !v->verified)
      v->status = RUN_NOT_VERIFIED;
   snprintf(v->message, sizeof v->message, "%s: %s", v->name, verify ? v->verify.message : "timed, not verified again");
}

RunStatus Session_vendor(Session *s, const Problem *p, const Inputs *inputs, const RunOptions *o, VendorResult *v) {
   int reps = o->reps, warmup = o->warmup;
   atomic_int *cancel = o->cancel;
   memset(v, 0, sizeof *v);
   char err[512];
   if (refuseIfStuck(s, &v->status, v->message, sizeof v->message))
      return v->status;
   if (!s->be->vendorGemm) {
      v->status = RUN_DEVICE_ERROR;
      snprintf(v->message, sizeof v->message, "the %s backend has no vendor library", s->be->name);
      return v->status;
   }
   if (!vendorOperands(s, p, inputs, v))
      return v->status;
   size_t ies = Precision_inputSize(p->precision);
   size_t bytesA = Problem_sizeA(p) * ies, bytesB = Problem_sizeB(p) * ies, bytesC = s->result_bytes;
   Buffer *A = s->bufs[BUF_A].buf, *B = s->bufs[BUF_B].buf, *C = s->bufs[BUF_C].buf, *C0 = s->bufs[BUF_C0].buf;
   if (reps < 1)
      reps = 1;
   if (reps > RUN_MAX_TIMES)
      reps = RUN_MAX_TIMES;
   double *times = calloc((size_t)reps, sizeof *times);
   void *host = o->verify ? malloc(bytesC ? bytesC : 1) : NULL; /* C read back to verify */
   if (!times || (o->verify && !host)) {
      free(times);
      free(host);
      v->status = RUN_OUT_OF_MEMORY;
      snprintf(v->message, sizeof v->message, "out of host memory");
      return v->status;
   }
   v->status = RUN_OK;
   v->cold_l2 = o->cold_l2;
   Observation_clear(&v->obs);
   ColdL2 cold = {0};
   if (o->cold_l2) {
      if (!ColdL2_setup(&cold, s->be, s->ctx, &s->info, A, bytesA, B, bytesB, true, err, sizeof err)) {
         v->status = RUN_OUT_OF_MEMORY;
         snprintf(v->message, sizeof v->message, "%s", err);
      }
      snprintf(v->cold_l2_method, sizeof v->cold_l2_method, "%s", cold.method);
   }
   Observer *observer = o->observe ? Session_observer(s, NULL) : NULL;
   bool observing = false;
   for (int i = 0; i < warmup + reps + 1 && v->status == RUN_OK; i++) {
      if (cancel && atomic_load(cancel)) {
         v->status = RUN_CANCELLED;
         snprintf(v->message, sizeof v->message, "cancelled");
         break;
      }
      /* C0 back into C before each call when C is read (beta != 0). */
      if (p->beta != 0.0 && s->be->copy(s->ctx, C, C0, bytesC, err, sizeof err) != BACKEND_OK) {
         v->status = RUN_DEVICE_ERROR;
         snprintf(v->message, sizeof v->message, "%s", err);
         break;
      }
      bool timed = i > warmup && !(i == 0 && o->verify);
      Buffer *a = A, *b = B;
      if (timed && o->cold_l2 && !ColdL2_before(&cold, v->reps, &a, &b, err, sizeof err)) {
         v->status = RUN_DEVICE_ERROR;
         snprintf(v->message, sizeof v->message, "%s", err);
         break;
      }
      if (timed && observer && !observing) {
         Observer_begin(observer);
         observing = true;
      }
      double ms = 0;
      const BackendGemm g = {p->m, p->n, p->k, p->precision, p->trans_a, p->trans_b, p->alpha, p->beta};
      BackendStatus st = s->be->vendorGemm(s->ctx, &g, a, b, C, &ms, v->name, sizeof v->name, err, sizeof err);
      if (observing)
         Observer_sample(observer);
      if (st != BACKEND_OK) {
         /* A library without a GEMM of this type refuses it: not a device error. */
         v->status = st == BACKEND_ERR_OUT_OF_MEMORY ? RUN_OUT_OF_MEMORY
                     : st == BACKEND_ERR_UNSUPPORTED ? RUN_INVALID
                                                      : RUN_DEVICE_ERROR;
         snprintf(v->message, sizeof v->message, "%s", err);
         break;
      }
      if (i == 0 && o->verify) {
         /* The first call's result is checked: a reference must be right too. */
         if (s->be->read(s->ctx, C, host, bytesC, err, sizeof err) != BACKEND_OK) {
            v->status = RUN_DEVICE_ERROR;
            snprintf(v->message, sizeof v->message, "%s", err);
            break;
         }
         Verify_gemm(p, inputs->a, inputs->b, inputs->c0, host, inputs->seed ^ 0xb1a5, &v->verify);
         v->verified = v->verify.ok;
      } else if (i > warmup) {
         times[v->reps++] = ms;
      }
   }
   if (v->status == RUN_OK && v->reps > 0)
      vendorFigures(v, p, o->verify, times, observing ? observer : NULL);
   ColdL2_release(&cold);
   free(times);
   free(host);
   return v->status;
}

RunStatus Session_compile(Session *s, const KernelInfo *k, const long long *values, const Problem *p, RunResult *r,
                          char **code, char *kind, size_t kindlen) {
   return Session_compileAblated(s, k, values, p, 0, r, code, kind, kindlen);
}

RunStatus Session_compileAblated(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                                 unsigned ablate, RunResult *r, char **code, char *kind, size_t kindlen) {
   free(r->build_log);
   memset(r, 0, sizeof *r);
   r->registers = -1;
   r->private_mem = r->local_mem = -1;
   if (code) {
      *code = NULL;
      kind[0] = '\0';
   }
   if (refuseIfStuck(s, &r->status, r->message, sizeof r->message))
      return r->status;
   if (!Session_targetOk(s, k, r->message, sizeof r->message) ||
       !Config_check(k, values, p, &s->info.limits, &r->geo, r->message, sizeof r->message)) {
      r->status = RUN_INVALID;
      return r->status;
   }
   Config_defines(k, values, p, &r->geo, r->defines, sizeof r->defines);
   Ablate_appendDefines(ablate, r->defines, sizeof r->defines);
   r->ablate = ablate & ABLATE_ALL;
   char *source = Session_sourceNamed(s->catalog, Backend_can(s->be, BACKEND_CAP_CUDA_PRELUDE), k->source, k->path);
   bool fresh;
   CachedProgram *c = source ? getKernel(s, source, r->defines, k->entry, r, &fresh) : NULL;
   free(source);
   if (!c)
      return r->status ? r->status : (r->status = RUN_OUT_OF_MEMORY);
   r->compile_ms = fresh ? c->info.compile_ms : 0;
   r->cached = !fresh || c->info.cached_disk;
   r->cached_memory = !fresh;
   r->registers = c->info.registers;
   r->private_mem = c->info.private_mem;
   r->local_mem = localMemOf(&c->info, &r->geo, r->ablate != 0);
   if (c->info.log && c->info.log[0])
      r->build_log = strdup(c->info.log);
   if (code && s->be->programCode)
      *code = s->be->programCode(c->program, kind, kindlen);
   r->status = RUN_OK;
   return RUN_OK;
}

RunStatus Session_precompile(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                             unsigned ablate, char *err, size_t errlen) {
   Geometry g;
   RunStatus refused;
   if (refuseIfStuck(s, &refused, err, errlen))
      return refused;
   if (!Session_targetOk(s, k, err, errlen) || !Config_check(k, values, p, &s->info.limits, &g, err, errlen))
      return RUN_INVALID;
   char defines[1024];
   Config_defines(k, values, p, &g, defines, sizeof defines);
   Ablate_appendDefines(ablate, defines, sizeof defines);
   char *source = Session_sourceNamed(s->catalog, Backend_can(s->be, BACKEND_CAP_CUDA_PRELUDE), k->source, k->path);
   if (!source) {
      snprintf(err, errlen, "out of host memory");
      return RUN_OUT_OF_MEMORY;
   }
   Program *prog = NULL;
   BuildInfo info;
   BackendStatus st = s->be->build(s->ctx, source, defines, &prog, &info, err, errlen);
   free(source);
   free(info.log);
   if (prog)
      s->be->releaseProgram(prog);
   return st == BACKEND_OK ? RUN_OK : st == BACKEND_ERR_COMPILE ? RUN_COMPILE_ERROR : RUN_DEVICE_ERROR;
}

Kernel *Session_helperKernel(Session *s, const char *text, const char *defines, const char *entry, char *err,
                             size_t errlen) {
   char *src = joinSource(s, text);
   RunResult *r = calloc(1, sizeof *r);
   bool fresh;
   CachedProgram *c = src && r ? getKernel(s, src, defines, entry, r, &fresh) : NULL;
   if (!c)
      snprintf(err, errlen, "%s%s%s", r ? r->message : "out of memory", r && r->build_log ? "\n" : "",
               r && r->build_log ? r->build_log : "");
   free(src);
   if (r)
      RunResult_free(r);
   free(r);
   return c ? c->kernel : NULL;
}

Context *Session_context(Session *s) { return s->ctx; }

#define TRACE_SITES 16
#define TRACE_CAP (1u << 21)

/* The smallest problem like p (same precision, layout, scalars) that the configuration
 * accepts: traces of big problems would be slow and no more telling. */
static Problem smallProblem(const Session *s, const KernelInfo *k, const long long *values, const Problem *p) {
   static const int mn[] = {32, 64, 128, 256, 512, 1024};
   static const int kk[] = {16, 32, 64, 128, 256};
   char msg[512];
   for (size_t i = 0; i < sizeof mn / sizeof mn[0]; i++)
      for (size_t j = 0; j < sizeof kk / sizeof kk[0]; j++) {
         Problem q = *p;
         q.m = p->m < mn[i] ? p->m : mn[i];
         q.n = p->n < mn[i] ? p->n : mn[i];
         q.k = p->k < kk[j] ? p->k : kk[j];
         if (Config_check(k, values, &q, &s->info.limits, NULL, msg, sizeof msg))
            return q;
      }
   return *p;
}

RunStatus Session_trace(Session *s, const KernelInfo *k, const long long *values, const Problem *p, int groups,
                        Trace *t, RunResult *r) {
   memset(t, 0, sizeof *t);
   if (groups < 1)
      groups = 1;
   Problem q = smallProblem(s, k, values, p);
   t->problem = q;
   Geometry g;
   if (!Session_targetOk(s, k, r->message, sizeof r->message) ||
       !Config_check(k, values, &q, &s->info.limits, &g, r->message, sizeof r->message)) {
      r->status = RUN_INVALID;
      return r->status;
   }
   size_t wg = 1;
   for (int d = 0; d < g.dims; d++)
      wg *= g.local[d];
   size_t ngroups = 1;
   for (int d = 0; d < g.dims; d++)
      ngroups *= g.global[d] / g.local[d];
   if ((size_t)groups > ngroups)
      groups = (int)ngroups;
   size_t counters = (size_t)groups * wg * TRACE_SITES;
   size_t words = 4 + counters + (size_t)TRACE_CAP * 4;
   char defines[256];
   snprintf(defines, sizeof defines, "-DGT_TRACE=1 -DGT_TRACE_GROUPS=%du -DGT_TRACE_WG=%zuu -DGT_TRACE_SITES=%du -DGT_TRACE_CAP=%uu",
            groups, wg, TRACE_SITES, TRACE_CAP);
   Inputs in;
   if (!Inputs_random(&in, &q, 0x7eace)) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory for the trace inputs");
      return r->status;
   }
   Buffer *buf = NULL;
   char err[512];
   unsigned *host = calloc(words, sizeof *host);
   RunStatus st = RUN_OK;
   if (!host) {
      st = r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory for the trace (%zu MiB)", words * 4 >> 20);
      goto done;
   }
   if (s->be->alloc(s->ctx, words * sizeof *host, &buf, err, sizeof err) != BACKEND_OK ||
       s->be->write(s->ctx, buf, host, words * sizeof *host, err, sizeof err) != BACKEND_OK) {
      st = r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "trace buffer: %s", err);
      goto done;
   }
   Prepared pr;
   memset(&pr, 0, sizeof pr);
   /* The inputs are not the session's: make sure they are uploaded and forgotten after. */
   s->uploaded_generation = 0;
   if ((st = prepare(s, k, values, &q, &in, defines, buf, &pr, r)) != RUN_OK)
      goto done;
   double times[RUN_MAX_HELPERS + 1];
   if (!runPipeline(s, &pr.pl, pr.dbl, false, times, r, pr.C0, pr.C, pr.bytesC) ||
       !check(s, s->be->read(s->ctx, buf, host, words * sizeof *host, err, sizeof err), err, r)) {
      st = r->status;
      goto done;
   }
   s->uploaded_generation = 0;
   size_t n = host[0] < TRACE_CAP ? host[0] : TRACE_CAP;
   t->records = malloc((n ? n : 1) * sizeof *t->records);
   if (!t->records) {
      st = r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory for %zu trace records", n);
      goto done;
   }
   const unsigned *rec = host + 4 + counters;
   for (size_t i = 0; i < n; i++, rec += 4) {
      TraceRecord *tr = &t->records[i];
      tr->site = rec[0] & 0x7f;
      tr->store = (rec[0] >> 7) & 1;
      tr->width = (rec[0] >> 8) & 0xff;
      tr->group = rec[0] >> 16;
      tr->item = rec[1];
      tr->seq = rec[2];
      tr->address = rec[3];
   }
   t->count = n;
   t->dropped = host[1];
   t->groups = groups;
   t->wg_size = wg;
   t->dims = g.dims;
   memcpy(t->local, g.local, sizeof t->local);
   snprintf(r->message, sizeof r->message, "traced %zu local-memory accesses of %d work-group%s (%dx%dx%d)", n, groups,
            groups == 1 ? "" : "s", q.m, q.n, q.k);
done:
   s->uploaded_generation = 0;
   if (buf)
      s->be->free(buf);
   free(host);
   Inputs_free(&in);
   return st;
}

void Trace_free(Trace *t) {
   free(t->records);
   memset(t, 0, sizeof *t);
}

bool Session_readResult(Session *s, void *host, size_t bytes, char *err, size_t errlen) {
   RunStatus refused;
   if (refuseIfStuck(s, &refused, err, errlen))
      return false;
   if (!s->bufs[BUF_C].buf || bytes > s->result_bytes) {
      snprintf(err, errlen, "no result to read");
      return false;
   }
   return s->be->read(s->ctx, s->bufs[BUF_C].buf, host, bytes, err, errlen) == BACKEND_OK;
}

void RunResult_free(RunResult *r) {
   free(r->build_log);
   r->build_log = NULL;
}

const char *RunStatus_name(RunStatus st) {
   switch (st) {
   case RUN_OK: return "ok";
   case RUN_INVALID: return "invalid";
   case RUN_NOT_VERIFIED: return "wrong result";
   case RUN_COMPILE_ERROR: return "compile error";
   case RUN_OUT_OF_MEMORY: return "out of memory";
   case RUN_DEVICE_ERROR: return "device error";
   case RUN_CANCELLED: return "cancelled";
   case RUN_TIMEOUT: return "timeout";
   }
   return "?";
}

int RunStatus_exitCode(RunStatus st) {
   if (st == RUN_OK)
      return 0;
   if (st == RUN_INVALID)
      return 2;
   return 1;
}
