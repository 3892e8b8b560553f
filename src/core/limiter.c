#include "core/limiter.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/occupancy.h"

/* The thresholds of the rules (limiter.h), named where the words use them. */
#define TAIL_BUSY 0.60       /* below: the tail limits */
#define NEAR_CEILING 0.60    /* at or above: that ceiling limits */
#define BANK_RATIO 1.5       /* at or above: conflicts limit */
#define LOW_OCCUPANCY 0.25   /* below: too few warps */
#define CACHE_SLACK 1.05     /* the model's bytes over the bandwidth by more: caches serve them */

const char *LimitKind_name(LimitKind k) {
   static const char *names[LIMIT_KINDS] = {"unknown", "tail", "compute", "memory", "bank conflicts", "occupancy",
                                            "latency"};
   return k >= 0 && k < LIMIT_KINDS ? names[k] : "?";
}

static void computeWords(const Limiter *l, const LimiterInputs *in, char *out, size_t len) {
   snprintf(out, len, "compute: %.0f%% of the measured %s peak (%.4g GFLOPS)", 100 * l->compute_used,
            in->peak_label ? in->peak_label : "", in->peak_gflops);
}

static void memoryWords(const Limiter *l, const LimiterInputs *in, char *out, size_t len) {
   if (l->caches)
      snprintf(out, len,
               "global memory: %.0f%% of the measured %.4g GB/s by the compulsory bytes (each element once); the "
               "model's loads would need %.0f%%, so caches serve part of them",
               100 * l->memory_used_min, in->copy_gbps, 100 * in->gflops / l->intensity / in->copy_gbps);
   else
      snprintf(out, len, "global memory: %.0f%% of the measured %.4g GB/s at %.3g flops per byte (the model's loads)",
               100 * l->memory_used, in->copy_gbps, l->intensity);
}

/* The next ceiling after the limiter's, in words. */
static void headroom(Limiter *l, const LimiterInputs *in) {
   char c[256] = "", m[256] = "";
   if (l->compute_used >= 0)
      computeWords(l, in, c, sizeof c);
   if (l->memory_used >= 0)
      memoryWords(l, in, m, sizeof m);
   const char *next = NULL;
   if (l->kind == LIMIT_COMPUTE)
      next = m[0] ? m : NULL;
   else if (l->kind == LIMIT_MEMORY)
      next = c[0] ? c : NULL;
   else if (c[0] && m[0])
      next = l->compute_used >= l->memory_used ? c : m;
   else
      next = c[0] ? c : m[0] ? m : NULL;
   if (next)
      snprintf(l->headroom, sizeof l->headroom, "%s %s", l->kind == LIMIT_COMPUTE || l->kind == LIMIT_MEMORY ? "next:"
                                                                                                         : "nearest:",
               next);
}

void Limiter_of(const LimiterInputs *in, Limiter *out) {
   memset(out, 0, sizeof *out);
   out->compute_used = out->memory_used = out->memory_used_min = -1;
   out->busy = 1;
   if (in->gflops <= 0) {
      snprintf(out->words, sizeof out->words, "nothing measured to explain");
      return;
   }
   if (in->peak_gflops > 0)
      out->compute_used = in->gflops / in->peak_gflops;
   if (in->model_bytes > 0)
      out->intensity = in->flops / in->model_bytes;
   if (in->min_bytes > 0)
      out->intensity_min = in->flops / in->min_bytes;
   if (in->copy_gbps > 0 && out->intensity_min > 0) {
      /* GFLOPS / (flops per byte) = GB/s. */
      out->memory_used_min = in->gflops / out->intensity_min / in->copy_gbps;
      double model = out->intensity > 0 ? in->gflops / out->intensity / in->copy_gbps : -1;
      out->caches = model > CACHE_SLACK;
      out->memory_used = model >= 0 && !out->caches ? model : out->memory_used_min;
   }
   if (in->peak_gflops > 0 && in->copy_gbps > 0 && out->intensity > 0)
      out->attainable_gflops = fmin(in->peak_gflops, out->intensity * in->copy_gbps);
   if (in->waves.known)
      out->busy = in->waves.busy;
   double c = out->compute_used, m = out->memory_used;
   if (in->waves.known && in->waves.busy < TAIL_BUSY) {
      out->kind = LIMIT_TAIL;
      snprintf(out->words, sizeof out->words,
               "the tail: %.2f waves of %lld work-groups on %d units at %d each, so %.0f%% of the slots are busy on "
               "average: at most %.0f%% of any ceiling",
               in->waves.waves, in->waves.groups, in->waves.units, in->waves.per_unit, 100 * in->waves.busy,
               100 * in->waves.busy);
   } else if ((c >= NEAR_CEILING || m >= NEAR_CEILING) && c >= m) {
      out->kind = LIMIT_COMPUTE;
      computeWords(out, in, out->words, sizeof out->words);
   } else if (m >= NEAR_CEILING) {
      out->kind = LIMIT_MEMORY;
      memoryWords(out, in, out->words, sizeof out->words);
   } else if (in->bank_ratio >= BANK_RATIO) {
      out->kind = LIMIT_BANKS;
      snprintf(out->words, sizeof out->words,
               "local memory: bank conflicts make %.2fx the ideal wavefronts, each access waiting on the others",
               in->bank_ratio);
   } else if (in->occupancy > 0 && in->occupancy < LOW_OCCUPANCY) {
      out->kind = LIMIT_OCCUPANCY;
      snprintf(out->words, sizeof out->words,
               "too few warps to hide latency: occupancy %.0f%% (registers, local memory or the group size)",
               100 * in->occupancy);
   } else {
      out->kind = LIMIT_LATENCY;
      char known[160] = "";
      if (c >= 0 && m >= 0)
         snprintf(known, sizeof known, " (compute %.0f%%, memory %.0f%%)", 100 * c, 100 * m);
      else if (c >= 0)
         snprintf(known, sizeof known, " (compute %.0f%%; no bandwidth measured)", 100 * c);
      else if (m >= 0)
         snprintf(known, sizeof known, " (memory %.0f%%; no compute peak measured)", 100 * m);
      else
         snprintf(known, sizeof known, " (no ceiling measured: gemmtop list devices --measure)");
      snprintf(out->words, sizeof out->words,
               "latency and overhead: no ceiling is near%s; instruction issue, dependent loads, synchronisation",
               known);
   }
   headroom(out, in);
   switch (out->kind) {
   case LIMIT_TAIL: snprintf(out->brief, sizeof out->brief, "the tail: %.0f%% of the slots busy", 100 * out->busy); break;
   case LIMIT_COMPUTE:
      snprintf(out->brief, sizeof out->brief, "compute: %.0f%% of the %s peak", 100 * c,
               in->peak_label ? in->peak_label : "");
      break;
   case LIMIT_MEMORY: snprintf(out->brief, sizeof out->brief, "global memory: %.0f%% of the bandwidth", 100 * m); break;
   case LIMIT_BANKS: snprintf(out->brief, sizeof out->brief, "bank conflicts: %.2fx the ideal", in->bank_ratio); break;
   case LIMIT_OCCUPANCY: snprintf(out->brief, sizeof out->brief, "occupancy %.0f%%", 100 * in->occupancy); break;
   default:
      if (c >= 0 && m >= 0)
         snprintf(out->brief, sizeof out->brief, "latency, no ceiling near (compute %.0f%%, memory %.0f%%)", 100 * c,
                  100 * m);
      else
         snprintf(out->brief, sizeof out->brief, "latency? no ceiling measured (F6)");
      break;
   }
}

void Limiter_inputs(const DeviceInfo *dev, const KernelInfo *k, const long long *values, const Problem *p,
                    const RunResult *r, const Peaks *peaks, double bank_ratio, LimiterInputs *out) {
   memset(out, 0, sizeof *out);
   out->gflops = r->gflops;
   out->flops = 2.0 * p->m * p->n * p->k;
   out->peak_gflops = peaks ? Peaks_for(peaks, p->precision, k->tensor, r->geo.emulated) : 0;
   out->peak_label = Peaks_label(p->precision, k->tensor && !r->geo.emulated);
   out->copy_gbps = peaks && peaks->known ? peaks->copy_gbps : 0;
   double in = (double)Precision_inputSize(p->precision), c = (double)Precision_size(p->precision);
   out->min_bytes = ((double)Problem_sizeA(p) + (double)Problem_sizeB(p)) * in +
                    (double)Problem_sizeC(p) * c * (p->beta != 0 ? 2 : 1);
   TrafficModel t;
   char err[256];
   if (Traffic_model(k, values, p, &dev->limits, &t, err, sizeof err) && t.known) {
      Traffic_ablate(&t, r->ablate, p);
      out->model_bytes = out->flops / t.flops_per_byte;
   }
   long long local = r->local_mem >= 0 ? r->local_mem : r->geo.localmem;
   out->waves = Waves_of(dev, &r->geo, r->registers, local);
   const ArchLimits *a = dev->type == DEVICE_GPU ? Occupancy_arch(dev->arch) : NULL;
   long long items = 1;
   for (int d = 0; d < r->geo.dims; d++)
      items *= (long long)r->geo.local[d];
   if (a && r->registers > 0) {
      Occupancy occ = Occupancy_estimate(a, r->registers, local > 0 ? local : 0, items);
      if (occ.known)
         out->occupancy = occ.fraction;
   }
   out->bank_ratio = bank_ratio;
}
