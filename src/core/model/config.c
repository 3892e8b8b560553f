#include "core/model/config.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/expr.h"
#include "base/util.h"

typedef struct {
   const KernelInfo *k;
   const long long *values;
   const Problem *p;
   const DeviceLimits *lim;
   int m, n, k_; /* run sizes */
   bool trans_a, trans_b;
} Scope;

/* What a kernel sees of its problem and target by name, both as its rules' variables
 * (lookup) and as -D macros of its source (Config_defines): one table, so that the rules
 * and the code never disagree. A row with no name is the problem's type's own define
 * (TypeTraits.define: GT_HALF, ...); a row that is only_set is defined (=1) only when
 * true, and is 0 to the rules otherwise. The order is the defines' order. */
typedef struct KernelEnv_ {
   long long trans_a, trans_b, fp64, type, scale_block, tensor_ptx, cpu;
} KernelEnv;

static const struct {
   const char *name;
   size_t at;
   bool only_set;
} kEnv[] = {
    {"TRANSA", offsetof(KernelEnv, trans_a), false},
    {"TRANSB", offsetof(KernelEnv, trans_b), false},
    {"DOUBLE", offsetof(KernelEnv, fp64), false},
    {NULL, offsetof(KernelEnv, type), true},
    {"GT_SCALE_BLOCK", offsetof(KernelEnv, scale_block), true},
    {"GT_TENSOR_PTX", offsetof(KernelEnv, tensor_ptx), true},
    {"GT_CPU", offsetof(KernelEnv, cpu), true},
};

static KernelEnv envOf(const Problem *p, bool trans_a, bool trans_b, bool tensor_ptx, bool cpu) {
   return (KernelEnv){.trans_a = trans_a,
                      .trans_b = trans_b,
                      .fp64 = Types_of(p->precision)->fp64,
                      .type = Types_of(p->precision)->define != NULL,
                      .scale_block = Problem_scaled(p) && p->scaling == SCALING_BLOCK,
                      .tensor_ptx = tensor_ptx,
                      .cpu = cpu};
}

static long long envValue(const KernelEnv *e, size_t row) {
   return *(const long long *)((const char *)e + kEnv[row].at);
}

/* The shared memory a group may have with dynamic shared memory (CUDA's opt-in maximum). */
static unsigned long long smemOptin(const DeviceLimits *lim) {
   return lim->local_mem_optin > lim->local_mem ? lim->local_mem_optin : lim->local_mem;
}

static bool lookup(void *ctx, const char *name, long long *v) {
   const Scope *s = ctx;
   int pi = KernelInfo_paramIndex(s->k, name);
   if (pi >= 0) {
      *v = s->values[pi];
      return true;
   }
   const KernelEnv env =
       envOf(s->p, s->trans_a, s->trans_b, Config_tensorPtx(s->k, s->lim, s->p->precision), s->lim->cpu);
   for (size_t i = 0; i < sizeof kEnv / sizeof kEnv[0]; i++)
      if (kEnv[i].name && !strcmp(kEnv[i].name, name)) {
         *v = envValue(&env, i);
         return true;
      }
   struct {
      const char *name;
      long long value;
   } vars[] = {
       {"M", s->m},
       {"N", s->n},
       {"K", s->k_},
       {"REAL_SIZE", (long long)Precision_size(s->p->precision)},
       {"IN_SIZE", (long long)Precision_inputSize(s->p->precision)},
       {"MAX_WG", (long long)s->lim->max_wg},
       {"MAX_WI0", (long long)s->lim->max_wi[0]},
       {"MAX_WI1", (long long)s->lim->max_wi[1]},
       {"MAX_WI2", (long long)s->lim->max_wi[2]},
       {"LOCAL_MEM", (long long)s->lim->local_mem},
       {"SMEM_OPTIN", (long long)smemOptin(s->lim)},
       {"DYNAMIC_SMEM", s->lim->dynamic_smem},
       {"HAS_FP64", s->lim->fp64},
       {"WARP", s->lim->warp > 0 ? s->lim->warp : 32},
       {"CUS", s->lim->compute_units > 0 ? s->lim->compute_units : 1},
   };
   for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
      if (!strcmp(vars[i].name, name)) {
         *v = vars[i].value;
         return true;
      }
   /* Each type's define (GT_TF32, GT_HALF, ...): 1 for the problem's type, 0 for the others. */
   for (int p = 0; p < PRECISION_COUNT; p++) {
      const char *define = Types_of((Precision)p)->define;
      if (define && !strcmp(define, name)) {
         *v = s->p->precision == (Precision)p;
         return true;
      }
   }
   return false;
}

typedef struct {
   const Scope *scope;
   char *out;
   size_t len;
} ValueList;

static void appendValue(void *ctx, const char *name) {
   ValueList *vl = ctx;
   long long v;
   size_t n = strlen(vl->out);
   if (lookup((void *)vl->scope, name, &v) && n + 1 < vl->len)
      snprintf(vl->out + n, vl->len - n, "%s%s=%lld", n ? ", " : "", name, v);
}

/* "M=1000, TS=16": the values an expression sees. */
static void describeValues(const Scope *s, const char *expr, char *out, size_t len) {
   out[0] = '\0';
   ValueList vl = {s, out, len};
   Expr_identifiers(expr, appendValue, &vl);
}

typedef struct {
   const char *name;
   bool found;
} Mention;

static void noteMention(void *ctx, const char *name) {
   Mention *m = ctx;
   m->found |= !strcmp(name, m->name);
}

/* Whether expression expr names identifier name. */
static bool mentions(const char *expr, const char *name) {
   Mention m = {name, false};
   Expr_identifiers(expr, noteMention, &m);
   return m.found;
}

static bool evalIn(const Scope *s, const char *expr, const char *what, long long *v, char *msg, size_t msglen) {
   char err[256];
   if (Expr_eval(expr, lookup, (void *)s, v, err, sizeof err))
      return true;
   snprintf(msg, msglen, "kernel %s: cannot evaluate %s '%s': %s", s->k->name, what, expr, err);
   return false;
}

/* Dynamic shared memory and the tensor maps' boxes (the limits of cuTensorMapEncodeTiled). */
static bool checkDynamic(Scope *s, Geometry *g, char *msg, size_t msglen) {
   const KernelInfo *k = s->k;
   if (!evalIn(s, k->dynamic_smem, "dynamic_smem", &g->dynamic_smem, msg, msglen))
      return false;
   /* a kernel that needs it whatever the backend was refused by Config_targetOk, with
    * the reason; one that asks for it by DYNAMIC_SMEM must get 0 bytes without it */
   if (g->dynamic_smem > 0 && !s->lim->dynamic_smem && mentions(k->dynamic_smem, "DYNAMIC_SMEM")) {
      snprintf(msg, msglen, "needs %lld bytes of dynamic shared memory per group, which this backend does not give "
               "(dynamic_smem '%s'): use --backend cuda", g->dynamic_smem, k->dynamic_smem);
      return false;
   }
   unsigned long long optin = smemOptin(s->lim);
   if (g->dynamic_smem < 0 || (unsigned long long)(g->dynamic_smem + g->localmem) > optin) {
      snprintf(msg, msglen, "needs %lld bytes of shared memory per group (%lld dynamic); this device allows %llu",
               g->dynamic_smem + g->localmem, g->dynamic_smem, optin);
      return false;
   }
   long long es = (long long)Precision_inputSize(s->p->precision);
   g->ntma = k->ntma;
   for (int i = 0; i < k->ntma; i++) {
      const KernelTma *t = &k->tma[i];
      long long box[2], sw;
      if (!evalIn(s, t->box[0], "tma box", &box[0], msg, msglen) ||
          !evalIn(s, t->box[1], "tma box", &box[1], msg, msglen) || !evalIn(s, t->swizzle, "tma swizzle", &sw, msg, msglen))
         return false;
      if (sw != 0 && sw != 32 && sw != 64 && sw != 128) {
         snprintf(msg, msglen, "tma %c: swizzle %lld bytes; the copy engine takes 0, 32, 64 or 128", t->operand, sw);
         return false;
      }
      if (box[0] < 1 || box[1] < 1 || box[0] > 256 || box[1] > 256 || box[0] * es % 16) {
         snprintf(msg, msglen,
                  "tma %c: box %lld x %lld elements; each side must be 1 to 256 and the inner one a multiple of 16 bytes",
                  t->operand, box[0], box[1]);
         return false;
      }
      if (sw && box[0] * es > sw) {
         snprintf(msg, msglen, "tma %c: a box row of %lld bytes is wider than its swizzle span of %lld bytes", t->operand,
                  box[0] * es, sw);
         return false;
      }
      g->tma[i].operand = t->operand;
      g->tma[i].box[0] = (int)box[0];
      g->tma[i].box[1] = (int)box[1];
      g->tma[i].swizzle = (int)sw;
   }
   return true;
}

/* Whether the kernel takes the problem's element type (its `precisions:` line). */
static bool precisionTaken(const KernelInfo *k, const Problem *p, char *msg, size_t msglen) {
   if (k->precisions & PRECISION_BIT(p->precision))
      return true;
   if (msglen) {
      char takes[96];
      Precision_listNames(k->precisions, takes, sizeof takes);
      snprintf(msg, msglen,
               "kernel %s does not take %s: it takes %s (its 'precisions:' line); choose one of those with "
               "--precision, or a kernel that takes %s",
               k->name, Precision_name(p->precision), takes, Precision_name(p->precision));
   }
   return false;
}

/* The padded sizes (`pad:` multiples) into s->m, n, k_; false when a multiple is not
 * positive or padding would pass INT_MAX. */
static bool padSizes(Scope *s, char *msg, size_t msglen) {
   const KernelInfo *k = s->k;
   const Problem *p = s->p;
   long long mult[3];
   for (int i = 0; i < 3; i++) {
      if (!evalIn(s, k->pad[i], "pad", &mult[i], msg, msglen))
         return false;
      if (mult[i] < 1) {
         snprintf(msg, msglen, "kernel %s: pad multiple %s is %lld; it must be at least 1", k->name, k->pad[i], mult[i]);
         return false;
      }
   }
   int *run[3] = {&s->m, &s->n, &s->k_};
   const int sizes[3] = {p->m, p->n, p->k};
   for (int i = 0; i < 3; i++) {
      /* The multiple of mult[i] at or above the size, if it is at most INT_MAX. */
      long long padded = mult[i] > INT_MAX ? 0 : (sizes[i] + mult[i] - 1) / mult[i];
      if (mult[i] > INT_MAX || padded > INT_MAX / mult[i]) {
         snprintf(msg, msglen, "kernel %s: padding %c=%d to a multiple of %lld (%s) goes past %d, the largest size",
                  k->name, "MNK"[i], sizes[i], mult[i], k->pad[i], INT_MAX);
         return false;
      }
      *run[i] = (int)(padded * mult[i]);
   }
   return true;
}

/* The kernel's own rules (`rule:`), the first that fails said with the values it saw. */
static bool rulesHold(Scope *s, char *msg, size_t msglen) {
   const KernelInfo *k = s->k;
   for (int i = 0; i < k->nrules; i++) {
      long long v;
      if (!evalIn(s, k->rules[i].expr, "rule", &v, msg, msglen))
         return false;
      if (!v) {
         if (!msglen)
            return false; /* only whether: no words */
         char vals[256];
         describeValues(s, k->rules[i].expr, vals, sizeof vals);
         snprintf(msg, msglen, "%s (rule %s fails with %s)", k->rules[i].message, k->rules[i].expr, vals);
         return false;
      }
   }
   return true;
}

/* The launch: global and local sizes per dimension into g, against the device's limits. */
/* A work-group larger than the device allows is said before any rule: it is the plainest
 * reason (mygemm 06 with WPTM=WPTN=1 wants 8192 work-items), which a rule about how the tiles
 * split would otherwise stand in front of. Local sizes that cannot be evaluated are left to
 * launchSizes. */
static bool groupFits(Scope *s, char *msg, size_t msglen) {
   const KernelInfo *k = s->k;
   size_t wg = 1;
   char shape[64] = "";
   for (int d = 0; d < k->dims; d++) {
      long long lv;
      if (!evalIn(s, k->local[d], "local size", &lv, NULL, 0) || lv < 1 || __builtin_mul_overflow(wg, (size_t)lv, &wg))
         return true;
      snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%s%lld", d ? " x " : "", lv);
   }
   if (wg <= s->lim->max_wg)
      return true;
   snprintf(msg, msglen, "needs %zu work-items per group (%s); this device allows %zu", wg, shape, s->lim->max_wg);
   return false;
}

static bool launchSizes(Scope *s, Geometry *g, char *msg, size_t msglen) {
   const KernelInfo *k = s->k;
   g->dims = k->dims;
   size_t wg = 1, items = 1;
   for (int d = 0; d < k->dims; d++) {
      long long gv, lv;
      if (!evalIn(s, k->global[d], "global size", &gv, msg, msglen) ||
          !evalIn(s, k->local[d], "local size", &lv, msg, msglen))
         return false;
      if (gv < 1 || lv < 1) {
         snprintf(msg, msglen, "launch size in dimension %d is %lld x %lld; both must be at least 1", d, gv, lv);
         return false;
      }
      if (gv / lv > CONFIG_MAX_GROUPS) {
         snprintf(msg, msglen,
                  "global size %lld (%s) in dimension %d makes %lld work-groups of %lld; at most %lld can be launched "
                  "(the grid limit of CUDA and HIP)",
                  gv, k->global[d], d, gv / lv, lv, (long long)CONFIG_MAX_GROUPS);
         return false;
      }
      if (gv % lv) {
         char vals[256];
         describeValues(s, k->global[d], vals, sizeof vals);
         snprintf(msg, msglen, "global size %lld (%s, with %s) is not a multiple of the work-group size %lld in dimension %d",
                  gv, k->global[d], vals, lv, d);
         return false;
      }
      if ((size_t)lv > s->lim->max_wi[d]) {
         snprintf(msg, msglen, "work-group size %lld in dimension %d exceeds this device's limit of %zu", lv, d,
                  s->lim->max_wi[d]);
         return false;
      }
      g->global[d] = (size_t)gv;
      g->local[d] = (size_t)lv;
      if (__builtin_mul_overflow(wg, (size_t)lv, &wg) || __builtin_mul_overflow(items, (size_t)gv, &items)) {
         snprintf(msg, msglen, "the launch of %s has more work-items than a size_t counts (%zu)", k->name, SIZE_MAX);
         return false;
      }
   }
   return true; /* the group's size against the device's: groupFits, before the rules */
}

/* The workspace's bytes and the fix-up launch (`workspace:`, `fixup_global:`, `fixup_local:`)
 * into g; a fix-up whose global size is 0 in a dimension is not launched. */
static bool fixupSizes(Scope *s, Geometry *g, char *msg, size_t msglen) {
   const KernelInfo *k = s->k;
   g->has_workspace = k->workspace[0] != '\0';
   if (g->has_workspace && !evalIn(s, k->workspace, "workspace", &g->workspace, msg, msglen))
      return false;
   if (g->workspace < 0) {
      snprintf(msg, msglen, "kernel %s: workspace %s is %lld bytes; it cannot be negative", k->name, k->workspace,
               g->workspace);
      return false;
   }
   if (k->work[0] && !evalIn(s, k->work, "work", &g->work, msg, msglen))
      return false;
   if (g->work < 0) {
      snprintf(msg, msglen, "kernel %s: work %s is %lld items; it cannot be negative", k->name, k->work, g->work);
      return false;
   }
   if (k->band[0] && !evalIn(s, k->band, "band", &g->band, msg, msglen))
      return false;
   if (g->band < 0)
      g->band = 0;
   g->band_unit = 1;
   if (k->unit[0] && !evalIn(s, k->unit, "unit", &g->band_unit, msg, msglen))
      return false;
   if (g->band_unit < 1) /* a unit of another shape: no order the limiter follows */
      g->band = 0, g->band_unit = 1;
   long long staggered = 0;
   if (k->staggered[0] && !evalIn(s, k->staggered, "staggered", &staggered, msg, msglen))
      return false;
   g->staggered = staggered != 0;
   g->fixup_dims = 0;
   if (!k->fixup_dims)
      return true;
   size_t wg = 1;
   for (int d = 0; d < k->fixup_dims; d++) {
      long long gv, lv;
      if (!evalIn(s, k->fixup_global[d], "fixup global size", &gv, msg, msglen) ||
          !evalIn(s, k->fixup_local[d], "fixup local size", &lv, msg, msglen))
         return false;
      if (gv == 0)
         return true; /* no fix-up for this configuration */
      if (gv < 0 || lv < 1 || gv % lv || gv / lv > CONFIG_MAX_GROUPS || (size_t)lv > s->lim->max_wi[d] ||
          __builtin_mul_overflow(wg, (size_t)lv, &wg)) {
         snprintf(msg, msglen,
                  "kernel %s: the fix-up launch in dimension %d is %lld x %lld (%s, %s); the global size must be a "
                  "multiple of the group's, at most %lld groups, a group within the device's %zu",
                  k->name, d, gv, lv, k->fixup_global[d], k->fixup_local[d], (long long)CONFIG_MAX_GROUPS,
                  s->lim->max_wi[d]);
         return false;
      }
      g->fixup_global[d] = (size_t)gv;
      g->fixup_local[d] = (size_t)lv;
   }
   if (wg > s->lim->max_wg) {
      snprintf(msg, msglen, "kernel %s: the fix-up needs %zu work-items per group; this device allows %zu", k->name, wg,
               s->lim->max_wg);
      return false;
   }
   g->fixup_dims = k->fixup_dims;
   return true;
}

/* Whether the launch (its sizes, workspace or fix-up) depends on the device's compute units:
 * the kernel then gets the count it was launched for as -DCUS. */
static bool namesComputeUnits(const KernelInfo *k) {
   bool named = mentions(k->workspace, "CUS");
   for (int d = 0; d < k->dims; d++)
      named |= mentions(k->global[d], "CUS") || mentions(k->local[d], "CUS");
   for (int d = 0; d < k->fixup_dims; d++)
      named |= mentions(k->fixup_global[d], "CUS") || mentions(k->fixup_local[d], "CUS");
   return named;
}

/* The static local memory (`localmem:`) into g, against the device's. */
static bool localMemory(Scope *s, Geometry *g, char *msg, size_t msglen) {
   const KernelInfo *k = s->k;
   if (!evalIn(s, k->localmem, "localmem", &g->localmem, msg, msglen))
      return false;
   if (g->localmem < 0) {
      snprintf(msg, msglen, "kernel %s: localmem %s is %lld bytes; it cannot be negative", k->name, k->localmem,
               g->localmem);
      return false;
   }
   if (g->localmem > (long long)s->lim->local_mem) {
      snprintf(msg, msglen, "needs %lld bytes of local memory per group; this device has %llu", g->localmem,
               s->lim->local_mem);
      return false;
   }
   return true;
}

/* The first broken rule: false (with why in msg) unless all hold. Kinds of failure are
 * numbered so that the suggestion of valid values can check the same thing. */
static bool checkScope(Scope *s, Geometry *geo, char *msg, size_t msglen) {
   const KernelInfo *k = s->k;
   const Problem *p = s->p;
   Geometry g;
   memset(&g, 0, sizeof g);
   g.trans_a = k->operands_any ? p->trans_a : k->a_trans;
   g.trans_b = k->operands_any ? p->trans_b : k->b_trans;
   s->trans_a = g.trans_a;
   s->trans_b = g.trans_b;
   s->m = p->m;
   s->n = p->n;
   s->k_ = p->k;
   if (p->m < 1 || p->n < 1 || p->k < 1) {
      snprintf(msg, msglen, "M, N and K must be at least 1 (M=%d N=%d K=%d)", p->m, p->n, p->k);
      return false;
   }
   if (!precisionTaken(k, p, msg, msglen))
      return false;
   g.tensor_ptx = Config_tensorPtx(k, s->lim, p->precision);
   g.cpu = s->lim->cpu;
   g.emulated = k->tensor && !g.tensor_ptx;
   if (Types_of(p->precision)->fp64 && !s->lim->fp64) {
      snprintf(msg, msglen, "this device has no double-precision support (cl_khr_fp64); use --precision float");
      return false;
   }
   if (k->has_pad && !padSizes(s, msg, msglen))
      return false;
   g.m = s->m;
   g.n = s->n;
   g.k = s->k_;
   g.pad = g.m != p->m || g.n != p->n || g.k != p->k;
   g.pad_a = g.m != p->m || g.k != p->k;
   g.pad_b = g.k != p->k || g.n != p->n;
   g.pad_c = g.m != p->m || g.n != p->n;
   g.cus = namesComputeUnits(k) ? (s->lim->compute_units > 0 ? s->lim->compute_units : 1) : 0;
   if (!groupFits(s, msg, msglen) || !rulesHold(s, msg, msglen) || !launchSizes(s, &g, msg, msglen) ||
       !fixupSizes(s, &g, msg, msglen) || !localMemory(s, &g, msg, msglen))
      return false;
   /* The FP8 tensor core's accumulator sums the FP8 types' products only: a kernel that also
    * takes half or bfloat16 (hopper9_swapab) sums those in FP32. */
   if (k->accumulate[0] && g.tensor_ptx && Types_of(s->p->precision)->scaled) {
      g.fp8_accumulator = true;
      if (!evalIn(s, k->accumulate, "accumulate", &g.promote_interval, msg, msglen))
         return false;
      if (g.promote_interval < 0) {
         snprintf(msg, msglen, "kernel %s: accumulate '%s' is %lld; a promotion interval is 0 (never) or more",
                  k->name, k->accumulate, g.promote_interval);
         return false;
      }
   }
   return checkDynamic(s, &g, msg, msglen) && (geo ? (*geo = g, true) : true);
}

static bool checkValues(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                        Geometry *geo, char *msg, size_t msglen) {
   Scope s = {.k = k, .values = values, .p = p, .lim = lim};
   return checkScope(&s, geo, msg, msglen);
}

bool Config_eval(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                 const char *expr, long long *out, char *msg, size_t msglen) {
   Scope s = {.k = k, .values = values, .p = p, .lim = lim, .m = p->m, .n = p->n, .k_ = p->k};
   s.trans_a = k->operands_any ? p->trans_a : k->a_trans;
   s.trans_b = k->operands_any ? p->trans_b : k->b_trans;
   return evalIn(&s, expr, "the expression", out, msg, msglen);
}

void Config_validValues(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                        int pi, bool *valid) {
   long long trial[KERNEL_MAX_PARAMS];
   memcpy(trial, values, sizeof trial[0] * (size_t)k->nparams);
   for (int v = 0; v < k->params[pi].nvalues; v++) {
      trial[pi] = k->params[pi].values[v];
      valid[v] = checkValues(k, trial, p, lim, NULL, NULL, 0);
   }
}

bool Config_check(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                  Geometry *geo, char *msg, size_t msglen) {
   char reason[768];
   if (!precisionTaken(k, p, msg, msglen))
      return false; /* no parameter value changes that */
   if (checkValues(k, values, p, lim, geo, msglen ? reason : NULL, msglen ? sizeof reason : 0))
      return true;
   if (!msglen)
      return false; /* the caller asked only whether (a sweep listing its space) */
   /* Name the parameter values that would pass, one parameter changed at a time. */
   char current[256], hints[768] = "";
   KernelInfo_formatParams(k, values, current, sizeof current);
   for (int pi = 0; pi < k->nparams; pi++) {
      bool valid[KERNEL_MAX_VALUES];
      Config_validValues(k, values, p, lim, pi, valid);
      char list[256] = "";
      int nvalid = 0;
      bool currentValid = false;
      for (int v = 0; v < k->params[pi].nvalues; v++) {
         if (!valid[v])
            continue;
         if (k->params[pi].values[v] == values[pi])
            currentValid = true;
         snprintf(list + strlen(list), sizeof list - strlen(list), "%s%lld", nvalid ? ", " : "",
                  k->params[pi].values[v]);
         nvalid++;
      }
      if (nvalid && !currentValid)
         snprintf(hints + strlen(hints), sizeof hints - strlen(hints), "; valid %s: %s", k->params[pi].name, list);
   }
   if (!hints[0] && k->nparams)
      snprintf(hints, sizeof hints, "; no single parameter change fixes this: change the problem or pick another variant");
   snprintf(msg, msglen, "%s%s%s: %s%s", k->name, current[0] ? " " : "", current, reason, hints);
   return false;
}

void Config_tmaShape(const Geometry *g, int i, long long *rows, long long *cols) {
   bool isA = g->tma[i].operand == 'A', trans = isA ? g->trans_a : g->trans_b;
   *rows = isA ? (trans ? g->k : g->m) : (trans ? g->n : g->k);
   *cols = isA ? (trans ? g->m : g->k) : (trans ? g->k : g->n);
}

void Config_defines(const KernelInfo *k, const long long *values, const Problem *p, const Geometry *geo, char *out,
                    size_t outlen) {
   size_t n = 0;
   out[0] = '\0';
   for (int i = 0; i < k->nparams && n < outlen; i++)
      n += (size_t)snprintf(out + n, outlen - n, "-D%s=%lld ", k->params[i].name, values[i]);
   const KernelEnv env = envOf(p, geo->trans_a, geo->trans_b, geo->tensor_ptx, geo->cpu);
   for (size_t i = 0; i < sizeof kEnv / sizeof kEnv[0] && n < outlen; i++) {
      long long v = envValue(&env, i);
      if (kEnv[i].only_set && !v)
         continue;
      const char *name = kEnv[i].name ? kEnv[i].name : Types_of(p->precision)->define;
      n += (size_t)snprintf(out + n, outlen - n, "%s-D%s=%lld", i ? " " : "", name, v);
   }
   if (geo->dynamic_smem > 0 && n < outlen)
      n += (size_t)snprintf(out + n, outlen - n, " -DGT_DYNAMIC_SMEM=1");
   if (geo->cus && n < outlen)
      n += (size_t)snprintf(out + n, outlen - n, " -DCUS=%u", geo->cus);
   /* the CUDA backend compiles these for the architecture-specific target (sm_90a) */
   if (k->arch[0] && n < outlen)
      snprintf(out + n, outlen - n, " -DGT_ARCH_SPECIFIC=1");
}

bool Config_tensorPtx(const KernelInfo *k, const DeviceLimits *lim, Precision p) {
   return k->tensor && lim->tensor_ptx && lim->tensor_sm >= Types_of(p)->tensor_sm;
}

bool Config_targetOk(const KernelInfo *k, const ConfigTarget *t, char *msg, size_t msglen) {
   bool arch = k->arch[0] || k->ntma;
   if (arch && t->is_pocl) {
      snprintf(msg, msglen,
               "%s needs %s wgmma and TMA, which PoCL does not emulate: run it with --backend cuda on an H100 or H200, "
               "or compile it without a GPU with gemmtop inspect --backend cuda --arch sm_90a",
               k->name, k->arch[0] ? k->arch : "sm_90a");
      return false;
   }
   if (arch && !t->arch_specific) {
      if (t->nvidia)
         snprintf(msg, msglen, "%s needs %s wgmma/TMA, which NVIDIA's %s cannot emit: use --backend cuda", k->name,
                  k->arch[0] ? k->arch : "sm_90a", t->backend);
      else
         snprintf(msg, msglen, "%s needs %s wgmma/TMA of an NVIDIA Hopper GPU; the %s backend has neither: use "
                  "--backend cuda on an H100 or H200", k->name, k->arch[0] ? k->arch : "sm_90a", t->backend);
      return false;
   }
   /* sm_90a code runs on compute capability 9.0 only, not on later GPUs */
   if (k->arch[0] && t->arch[0] && strncmp(t->arch, "sm_90", 5) != 0) {
      snprintf(msg, msglen, "%s needs %s (Hopper: H100, H200); this target is %s", k->name, k->arch, t->arch);
      return false;
   }
   /* The tensor helpers hand out fragments in mma.sync's layouts over 32-lane warps; AMD's
    * MFMA takes other layouts over 64-lane wavefronts, so the same text cannot map onto it,
    * and an emulation on an AMD GPU would teach nothing about its matrix cores. */
   if (k->tensor && t->amd) {
      snprintf(msg, msglen,
               "%s is written for NVIDIA's mma.sync (fragments in its layouts over 32-lane warps); AMD's MFMA "
               "instructions take other layouts over 64-lane wavefronts, so this kernel text cannot map onto them: "
               "run it on an NVIDIA GPU, or emulated on a CPU with --device pocl",
               k->name);
      return false;
   }
   /* a kernel whose tiles move to dynamic shared memory only where the backend gives it
    * (`dynamic_smem: DYNAMIC_SMEM * ...`) runs everywhere */
   if (strcmp(k->dynamic_smem, "0") && !t->dynamic_smem && !mentions(k->dynamic_smem, "DYNAMIC_SMEM")) {
      snprintf(msg, msglen, "%s needs dynamic shared memory at launch, which the %s backend does not give: use "
               "--backend cuda", k->name, t->backend);
      return false;
   }
   return true;
}

bool Config_setParam(const KernelInfo *k, long long *values, const char *assignment, char *msg, size_t msglen) {
   const char *eq = strchr(assignment, '=');
   if (!eq || eq == assignment) {
      snprintf(msg, msglen, "--set expects PARAM=VALUE, got '%s'", assignment);
      return false;
   }
   /* The name is compared in place, whatever its length: a long one is no parameter. */
   int len = (int)(eq - assignment), pi = -1;
   for (int i = 0; i < k->nparams && pi < 0; i++)
      if ((int)strlen(k->params[i].name) == len && !strncmp(k->params[i].name, assignment, (size_t)len))
         pi = i;
   if (pi < 0) {
      char names[256] = "";
      for (int i = 0; i < k->nparams; i++)
         snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", k->params[i].name);
      snprintf(msg, msglen, "kernel %s has no parameter %.*s%s; its parameters: %s", k->name, len > 128 ? 125 : len,
               assignment, len > 128 ? "..." : "", k->nparams ? names : "(none)");
      return false;
   }
   const char *name = k->params[pi].name;
   char *end;
   long long v = strtoll(eq + 1, &end, 10);
   bool allowed = end != eq + 1 && *end == '\0';
   const KernelParam *kp = &k->params[pi];
   if (allowed) {
      allowed = false;
      for (int i = 0; i < kp->nvalues; i++)
         allowed |= kp->values[i] == v;
   }
   if (!allowed) {
      char list[256] = "";
      for (int i = 0; i < kp->nvalues; i++)
         snprintf(list + strlen(list), sizeof list - strlen(list), "%s%lld", i ? ", " : "", kp->values[i]);
      snprintf(msg, msglen, "%s=%s is not allowed for kernel %s; %s takes %s", name, eq + 1, k->name, name, list);
      return false;
   }
   values[pi] = v;
   return true;
}
