/* The access-count model: see traffic.h. */
#include "core/analyse/traffic.h"

#include <stdio.h>
#include <string.h>

#include "core/run/ablate.h"
#include "core/model/config.h"

static bool evalReuse(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                      const char *key, char (*exprs)[128], long long out[2], char *err, size_t errlen) {
   for (int i = 0; i < 2; i++) {
      char msg[512];
      if (!Config_eval(k, values, p, lim, exprs[i], &out[i], msg, sizeof msg)) {
         snprintf(err, errlen, "%s: %s", key, msg);
         return false;
      }
      if (out[i] < 1) {
         snprintf(err, errlen, "kernel %s: %s %c=%s is %lld; a reuse is at least 1", k->name, key, "AB"[i], exprs[i],
                  out[i]);
         return false;
      }
   }
   return true;
}

/* Uses of each loaded element for a problem `extent` long in the other operand's direction,
 * cut into tiles `reuse` long: the last tile may be partly empty but loads as much (B's
 * tile is read whole for one token of an 8-token tile: the weight once for 2 N K flops,
 * not an eighth of it). The reuse itself where the tiles fit the extent. */
static double reuseWithin(long long reuse, long long extent) {
   if (extent <= 0 || extent % reuse == 0)
      return (double)reuse;
   return (double)extent / (double)((extent + reuse - 1) / reuse);
}

/* The loads of A and B per multiply-add, less an operand an ablation switched off (A's
 * elements serve the columns of C, N; B's its rows, M), and the flops per byte they and C's
 * stores and loads make. */
static void countLoads(TrafficModel *t, const Problem *p) {
   t->loads_per_fma =
       (t->no_a ? 0 : 1.0 / reuseWithin(t->reuse_a, p->n)) + (t->no_b ? 0 : 1.0 / reuseWithin(t->reuse_b, p->m));
   double in = (double)Precision_inputSize(p->precision), c = (double)Precision_size(p->precision);
   t->flops_per_byte = 2.0 / (t->loads_per_fma * in + (t->stores_per_fma + t->c_loads_per_fma) * c);
}

bool Traffic_model(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                   TrafficModel *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   if (!k->reuse[0][0])
      return true;
   long long r[2];
   if (!evalReuse(k, values, p, lim, "reuse", (char (*)[128])k->reuse, r, err, errlen))
      return false;
   out->known = true;
   out->reuse_a = r[0];
   out->reuse_b = r[1];
   out->stores_per_fma = 1.0 / p->k;
   out->c_loads_per_fma = p->beta != 0 ? 1.0 / p->k : 0;
   countLoads(out, p);
   if (k->local_reuse[0][0]) {
      if (!evalReuse(k, values, p, lim, "local_reuse", (char (*)[128])k->local_reuse, r, err, errlen))
         return false;
      out->local_known = true;
      out->local_reuse_a = r[0];
      out->local_reuse_b = r[1];
      out->local_reads_per_fma = 1.0 / (double)r[0] + 1.0 / (double)r[1];
   }
   return true;
}

void Traffic_ablate(TrafficModel *t, unsigned ablate, const Problem *p) {
   if (!t->known)
      return;
   t->no_a = (ablate & ABLATE_NO_A) != 0;
   t->no_b = (ablate & ABLATE_NO_B) != 0;
   countLoads(t, p);
}

void Traffic_describe(const TrafficModel *t, char *out, size_t outlen) {
   if (!t->known) {
      snprintf(out, outlen, "no access-count model (the kernel has no reuse: metadata)");
      return;
   }
   char a[48], b[48];
   snprintf(a, sizeof a, t->no_a ? "A off (no-a)" : "A 1/%lld", t->reuse_a);
   snprintf(b, sizeof b, t->no_b ? "B off (no-b)" : "B 1/%lld", t->reuse_b);
   int n = snprintf(out, outlen,
                    "global: %.4g loads of A and B per multiply-add (%s, %s), %.4g stores of C%s; %.3g flop/byte",
                    t->loads_per_fma, a, b, t->stores_per_fma, t->c_loads_per_fma > 0 ? " and as many loads (beta)" : "",
                    t->flops_per_byte);
   if (t->local_known && n > 0 && (size_t)n < outlen)
      snprintf(out + n, outlen - (size_t)n, "; local: %.4g reads per multiply-add (A 1/%lld, B 1/%lld)",
               t->local_reads_per_fma, t->local_reuse_a, t->local_reuse_b);
}
