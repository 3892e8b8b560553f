#include "core/run/session.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/parallel.h"
#include "base/util.h"
#include "core/run/ablate.h"
#include "core/run/session_internal.h"

/* GEMMTOP_DEVICE_LIMITS="max_wg=256,local_mem=32768,fp64=0" pretends the device is
 * smaller than it is: a class can see how a kernel is refused on a device it does not
 * have (the Apple M1 of the homework allows 256 work-items per group), and the tests can
 * check those refusals on PoCL. Limits can only shrink. The text is read whole (no buffer
 * to cut it into a bogus name); a value that is empty, not a number, or too large is
 * refused, never taken as 0 or wrapped. tensor_ptx=0 makes tensor kernels run their portable
 * emulation on a GPU that has tensor cores; l2=BYTES a smaller L2, so that cold-L2 timing
 * (coldl2.h) rotates its copies at a small size; compute_units=N fewer compute units (a
 * persistent grid's size, CUS, the same on any test machine). l and l2 may be NULL: only check. */
static bool applyLimitsText(const char *env, DeviceLimits *l, unsigned long long *l2, char *err, size_t errlen) {
   static const char *names = "names: max_wg, max_wi, local_mem, l2, compute_units, fp64, tensor_ptx";
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
                   !strcmp(tok, "l2") || !strcmp(tok, "compute_units");
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
      } else if (!strcmp(tok, "compute_units")) {
         if (!l->compute_units || v < l->compute_units)
            l->compute_units = (unsigned)(v > UINT_MAX ? UINT_MAX : v);
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
   if (c->fixup)
      s->be->releaseKernel(c->fixup);
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

/* The host memory of p's inputs: A, B and (beta != 0) C0. */
static size_t inputsBytes(const Problem *p) {
   return (Problem_sizeA(p) + Problem_sizeB(p)) * Precision_inputSize(p->precision) +
          (p->beta != 0.0 ? Problem_sizeC(p) * Precision_size(p->precision) : 0);
}

/* What the kept inputs may take: a quarter of the host's memory (1 GiB when unknown). */
static size_t inputsBudget(void) {
   long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
   return pages > 0 && size > 0 ? (size_t)pages / 4 * (size_t)size : (size_t)1 << 30;
}

const Inputs *Session_inputs(Session *s, const Problem *p, uint64_t seed) {
   CachedInputs *slot = NULL;
   for (int i = 0; i < SESSION_INPUTS; i++) {
      CachedInputs *c = &s->inputs[i];
      if (c->held && c->in.seed == seed && Inputs_fit(&c->in, p)) {
         c->last_use = ++s->clock;
         return &c->in;
      }
      if (!slot || !c->held || (slot->held && c->last_use < slot->last_use))
         slot = c; /* a free slot, else the least recently used */
   }
   if (slot->held)
      Inputs_free(&slot->in);
   slot->held = false;
   /* Room for the new ones within the budget: the least recently used go first. */
   size_t kept = inputsBytes(p);
   for (int i = 0; i < SESSION_INPUTS; i++)
      kept += s->inputs[i].held ? inputsBytes(&s->inputs[i].in.shape) : 0;
   while (kept > inputsBudget()) {
      CachedInputs *oldest = NULL;
      for (int i = 0; i < SESSION_INPUTS; i++)
         if (s->inputs[i].held && (!oldest || s->inputs[i].last_use < oldest->last_use))
            oldest = &s->inputs[i];
      if (!oldest)
         break;
      kept -= inputsBytes(&oldest->in.shape);
      Inputs_free(&oldest->in);
      oldest->held = false;
   }
   if (!Inputs_random(&slot->in, p, seed))
      return NULL;
   slot->held = true;
   slot->last_use = ++s->clock;
   return &slot->in;
}

static void releaseHostC(Session *s) {
   if (s->host_c_pinned)
      s->be->hostFree(s->ctx, s->host_c);
   else
      free(s->host_c);
   s->host_c = NULL;
   s->host_c_bytes = 0;
   s->host_c_pinned = false;
}

/* Touches every page of fresh memory on all the cores: the faults that a copy into it
 * would take one at a time. */
static void touchPages(void *ctx, size_t begin, size_t end) { memset((char *)ctx + begin, 0, end - begin); }

void *Session_hostC(Session *s, size_t bytes) {
   if (s->host_c && s->host_c_bytes >= bytes)
      return s->host_c;
   releaseHostC(s);
   if (s->be->hostAlloc && s->be->hostFree && (s->host_c = s->be->hostAlloc(s->ctx, bytes)) != NULL) {
      s->host_c_pinned = true;
   } else {
      s->host_c = malloc(bytes ? bytes : 1);
      if (s->host_c)
         Parallel_for(bytes, (size_t)16 << 20, touchPages, s->host_c);
   }
   s->host_c_bytes = s->host_c ? bytes : 0;
   return s->host_c;
}

bool Session_poison(Session *s, Buffer *b, size_t bytes, uint32_t word, RunResult *r) {
   char err[512];
   BackendStatus st = s->be->fill && bytes % sizeof word == 0 ? s->be->fill(s->ctx, b, word, bytes, err, sizeof err)
                                                              : BACKEND_ERR_UNSUPPORTED;
   if (st != BACKEND_ERR_UNSUPPORTED)
      return Session_checkStatus(s, st, err, r);
   unsigned char *host = Session_hostC(s, bytes);
   if (!host) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory (%zu bytes for C)", bytes);
      return false;
   }
   for (size_t i = 0; i < bytes; i++) /* the word's bytes as the device's fill lays them */
      host[i] = ((const unsigned char *)&word)[i % sizeof word];
   return Session_checkStatus(s, s->be->write(s->ctx, b, host, bytes, err, sizeof err), err, r);
}

void Session_close(Session *s) {
   if (!s)
      return;
   if (s->stuck) {
      Observer_close(s->observer);
      free(s->guard_pattern);
      if (!s->host_c_pinned)
         free(s->host_c);
      for (int i = 0; i < SESSION_INPUTS; i++)
         if (s->inputs[i].held)
            Inputs_free(&s->inputs[i].in);
      free(s); /* the runtime's objects wait for the abandoned launch: left to the exit */
      return;
   }
   Session_forgetPrograms(s);
   for (int i = 0; i < BUF_COUNT; i++)
      if (s->bufs[i].buf)
         s->be->free(s->bufs[i].buf);
   releaseHostC(s);
   for (int i = 0; i < SESSION_INPUTS; i++)
      if (s->inputs[i].held)
         Inputs_free(&s->inputs[i].in);
   s->be->close(s->ctx);
   Observer_close(s->observer);
   free(s->guard_pattern);
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

BackendStatus Session_finishWithin(Session *s, double timeout_ms, char *err, size_t errlen) {
   if (s->stuck) {
      snprintf(err, errlen, "not run: the device is still busy with an abandoned launch");
      return BACKEND_ERR_TIMEOUT;
   }
   BackendStatus st = s->be->finishWithin ? s->be->finishWithin(s->ctx, timeout_ms, err, errlen)
                                          : s->be->finish(s->ctx, err, errlen);
   if (st == BACKEND_ERR_TIMEOUT)
      s->stuck = true;
   return st;
}

/* Nothing can be enqueued behind an abandoned launch. */
bool Session_refuseIfStuck(const Session *s, RunStatus *status, char *message, size_t len) {
   if (!s->stuck)
      return false;
   *status = RUN_DEVICE_ERROR;
   snprintf(message, len, "not run: the device is still busy with an abandoned launch");
   return true;
}
const Backend *Session_backend(const Session *s) { return s->be; }

bool Session_fits(const Session *s, const Problem *p, char *msg, size_t msglen) {
   return Session_fitsOn(&s->info, p, msg, msglen);
}

bool Session_fitsOn(const DeviceInfo *info, const Problem *p, char *msg, size_t msglen) {
   double es = (double)Precision_size(p->precision), ies = (double)Precision_inputSize(p->precision);
   double a = (double)Problem_sizeA(p) * ies, b = (double)Problem_sizeB(p) * ies, c = (double)Problem_sizeC(p) * es;
   double total = a + b + c * (p->beta != 0.0 ? 2 : 1);
   double largest = a > b ? (a > c ? a : c) : (b > c ? b : c);
   const double gib = 1073741824.0;
   if (largest > (double)info->max_alloc || total > (double)info->global_mem) {
      snprintf(msg, msglen,
               "out of device memory: M=%d N=%d K=%d in %s needs %.2f GiB (A %.2f, B %.2f, C %.2f GiB); %s has %.2f GiB, "
               "largest buffer %.2f GiB",
               p->m, p->n, p->k, Precision_name(p->precision), total / gib, a / gib, b / gib, c / gib, info->name,
               info->global_mem / gib, info->max_alloc / gib);
      return false;
   }
   return true;
}

/* The local memory a kernel uses as its runtime reports it; PoCL 5 reports 0 bytes for a
 * kernel's static local arrays (it counts only local arguments), so where the runtime says
 * 0 and the kernel's metadata declares some, the declared figure. Not for a build with
 * extra defines (an ablation, whose compiler may rightly have dropped the arrays, or a
 * bank trace, whose figure nothing shows). */
long long Session_localMemOf(const BuildInfo *info, const Geometry *g, bool extra) {
   return info->local_mem == 0 && g->localmem > 0 && !extra ? g->localmem : info->local_mem;
}

/* Builds (or finds) source + options and returns its entry point. */
CachedProgram *Session_cachedKernel(Session *s, const char *source, const char *options, const char *entry, RunResult *r,
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

/* The guard pattern: a NaN of float in every word, whose bits a kernel's arithmetic does
 * not give (it is Verify_poison's), then room to read two zones. NULL without memory. */
static unsigned char *guardPattern(Session *s) {
   if (!s->guard_pattern && (s->guard_pattern = malloc(3 * GUARD_BYTES)) != NULL)
      Verify_poison(s->guard_pattern, GUARD_BYTES / 4, STORAGE_F32);
   return s->guard_pattern;
}

bool Session_ensureBuffer(Session *s, int which, size_t bytes, RunResult *r) {
   DeviceBuffer *b = &s->bufs[which];
   if (b->buf && (b->guarded ? b->bytes == bytes : b->bytes >= bytes))
      return true;
   if (b->buf) {
      s->be->free(b->buf);
      b->buf = NULL;
      b->bytes = 0;
      if (which <= BUF_C0)
         s->uploaded_generation = 0;
   }
   char err[512];
   const unsigned char *pattern = s->be->allocGuarded ? guardPattern(s) : NULL;
   BackendStatus st = pattern ? s->be->allocGuarded(s->ctx, bytes, GUARD_BYTES, &b->buf, err, sizeof err)
                              : s->be->alloc(s->ctx, bytes, &b->buf, err, sizeof err);
   if (st == BACKEND_OK && pattern &&
       (st = s->be->guards(s->ctx, b->buf, (void *)pattern, (void *)pattern, true, err, sizeof err)) != BACKEND_OK) {
      s->be->free(b->buf);
      b->buf = NULL;
   }
   if (st != BACKEND_OK) {
      r->status = st == BACKEND_ERR_OUT_OF_MEMORY ? RUN_OUT_OF_MEMORY : RUN_DEVICE_ERROR;
      snprintf(r->message, sizeof r->message, "%s", err);
      return false;
   }
   b->bytes = bytes;
   b->guarded = pattern != NULL;
   return true;
}

/* What a buffer is, in a message, and the bytes of its elements (1: counted in bytes). */
static const char *bufferName(int which, const Pipeline *pl, size_t *es) {
   switch (which) {
   case BUF_A: case BUF_AK: *es = pl->in_es; return "A";
   case BUF_B: case BUF_BK: *es = pl->in_es; return "B";
   case BUF_C: case BUF_CK: case BUF_C0: *es = pl->out_es; return "C";
   case BUF_SA: *es = 4; return "A's scales";
   case BUF_SB: *es = 4; return "B's scales";
   default: *es = 1; return "the workspace";
   }
}

/* Whether step uses buffer b (as an argument or a tensor map's matrix). */
static bool stepUses(const Step *st, const Buffer *b) {
   for (int i = 0; i < st->nargs; i++)
      if ((st->args[i].kind == ARG_BUFFER || st->args[i].kind == ARG_TENSOR_MAP) && st->args[i].buffer == b)
         return true;
   return false;
}

/* A kernel's write into a guard zone, said: the element nearest the data in each zone
 * written, as offsets from the buffer's start in its elements. */
static void sayOutside(const char *name, size_t es, size_t bytes, const unsigned char *pattern,
                       const unsigned char *before, const unsigned char *after, char *msg, size_t len) {
   long long lo = 1, hi = -1; /* none */
   for (size_t i = GUARD_BYTES; i-- > 0;)
      if (before[i] != pattern[i]) {
         lo = -(long long)((GUARD_BYTES - i + es - 1) / es);
         break;
      }
   for (size_t i = 0; i < GUARD_BYTES; i++)
      if (after[i] != pattern[i]) {
         hi = (long long)((bytes + i) / es);
         break;
      }
   const long long count = (long long)(bytes / es);
   const char *unit = es == 1 ? "byte" : "element";
   char where[2][64] = {"", ""};
   if (lo <= 0)
      snprintf(where[0], sizeof where[0], "offset %lld (before its start)", lo);
   if (hi >= 0)
      snprintf(where[1], sizeof where[1], "offset %lld (past its end)", hi);
   snprintf(msg, len, "FAILED: wrote outside %s at %s%s%s; %s holds %lld %ss, offsets 0 to %lld", name, where[0],
            where[0][0] && where[1][0] ? " and at " : "", where[1], name, count, unit, count - 1);
}

bool Session_checkGuards(Session *s, const Pipeline *pl, RunResult *r) {
   const Step *gemm = &pl->steps[pl->gemm_index], *fixup = pl->fixup_index >= 0 ? &pl->steps[pl->fixup_index] : NULL;
   for (int w = 0; w < BUF_COUNT; w++) {
      DeviceBuffer *b = &s->bufs[w];
      if (!b->buf || !b->guarded || !(stepUses(gemm, b->buf) || (fixup && stepUses(fixup, b->buf))))
         continue;
      const unsigned char *pattern = s->guard_pattern;
      unsigned char *before = s->guard_pattern + GUARD_BYTES, *after = before + GUARD_BYTES;
      char err[512];
      if (!Session_checkStatus(s, s->be->guards(s->ctx, b->buf, before, after, false, err, sizeof err), err, r))
         return false;
      if (!memcmp(before, pattern, GUARD_BYTES) && !memcmp(after, pattern, GUARD_BYTES))
         continue;
      size_t es;
      const char *name = bufferName(w, pl, &es);
      sayOutside(name, es, b->bytes, pattern, before, after, r->message, sizeof r->message);
      /* A verdict of the run's: the verification's figures stay when it ran, else unknown. */
      if (!r->verified_run) {
         r->verify.max_rel_err = r->verify.freivalds_ratio = r->verify.outlier_ratio = NAN;
         r->verified_run = true;
      }
      r->verify.ok = false;
      snprintf(r->verify.message, sizeof r->verify.message, "%s", r->message);
      r->status = RUN_NOT_VERIFIED;
      (void)s->be->guards(s->ctx, b->buf, (void *)pattern, (void *)pattern, true, err, sizeof err);
      return false;
   }
   return true;
}

bool Session_checkStatus(Session *s, BackendStatus st, const char *err, RunResult *r) {
   if (st == BACKEND_OK)
      return true;
   r->status = st == BACKEND_ERR_OUT_OF_MEMORY ? RUN_OUT_OF_MEMORY : RUN_DEVICE_ERROR;
   snprintf(r->message, sizeof r->message, "%s", err);
   return false;
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

char *Session_kernelSource(const Session *s, const KernelInfo *k) {
   return Session_sourceNamed(s->catalog, Backend_can(s->be, BACKEND_CAP_CUDA_PRELUDE), k->source, k->path);
}

char *Session_joinSource(const Session *s, const char *body) {
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

bool Session_check(const Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                   const DeviceLimits *lim, Geometry *g, char *msg, size_t msglen) {
   return Session_targetOk(s, k, msg, msglen) &&
          Config_check(k, values, p, lim ? lim : &s->info.limits, g, msg, msglen);
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
   if (Session_refuseIfStuck(s, &r->status, r->message, sizeof r->message))
      return r->status;
   if (!Session_check(s, k, values, p, NULL, &r->geo, r->message, sizeof r->message)) {
      r->status = RUN_INVALID;
      return r->status;
   }
   Config_defines(k, values, p, &r->geo, r->defines, sizeof r->defines);
   Ablate_appendDefines(ablate, r->defines, sizeof r->defines);
   r->ablate = ablate & ABLATE_ALL;
   char *source = Session_sourceNamed(s->catalog, Backend_can(s->be, BACKEND_CAP_CUDA_PRELUDE), k->source, k->path);
   bool fresh;
   CachedProgram *c = source ? Session_cachedKernel(s, source, r->defines, k->entry, r, &fresh) : NULL;
   free(source);
   if (!c)
      return r->status ? r->status : (r->status = RUN_OUT_OF_MEMORY);
   r->compile_ms = fresh ? c->info.compile_ms : 0;
   r->cached = !fresh || c->info.cached_disk;
   r->cached_memory = !fresh;
   r->registers = c->info.registers;
   r->private_mem = c->info.private_mem;
   r->local_mem = Session_localMemOf(&c->info, &r->geo, r->ablate != 0);
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
   if (Session_refuseIfStuck(s, &refused, err, errlen))
      return refused;
   if (!Session_check(s, k, values, p, NULL, &g, err, errlen))
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
   char *src = Session_joinSource(s, text);
   RunResult *r = calloc(1, sizeof *r);
   bool fresh;
   CachedProgram *c = src && r ? Session_cachedKernel(s, src, defines, entry, r, &fresh) : NULL;
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

bool Session_readResult(Session *s, void *host, size_t bytes, char *err, size_t errlen) {
   RunStatus refused;
   if (Session_refuseIfStuck(s, &refused, err, errlen))
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

static const char *const kPhaseNames[PHASE_COUNT] = {
   [PHASE_SETUP] = "setup",       [PHASE_INPUTS] = "inputs",     [PHASE_COMPILE] = "compile",
   [PHASE_UPLOAD] = "upload",     [PHASE_LAUNCHES] = "launches", [PHASE_DOWNLOAD] = "download",
   [PHASE_VERIFY] = "verify",     [PHASE_VENDOR] = "vendor",     [PHASE_STORE] = "store",
};

const char *Phase_name(Phase p) { return (unsigned)p < PHASE_COUNT ? kPhaseNames[p] : "?"; }

double RunPhases_total(const RunPhases *ph) {
   double sum = 0;
   for (int i = 0; i < PHASE_COUNT; i++)
      sum += ph->ms[i];
   return sum;
}

void RunPhases_describe(const RunPhases *ph, char *out, size_t len) {
   size_t used = 0;
   out[0] = '\0';
   for (int i = 0; i < PHASE_COUNT && used < len; i++) {
      const double ms = ph->ms[i];
      if (!(ms >= 0.05))
         continue;
      int n = snprintf(out + used, len - used, "%s%s %.*f ms", used ? ", " : "", kPhaseNames[i],
                       ms < 10 ? 1 : 0, ms);
      used += n > 0 ? (size_t)n : 0;
   }
   if (!out[0])
      snprintf(out, len, "nothing timed");
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
