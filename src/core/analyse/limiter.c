#include "core/analyse/limiter.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/svg.h"
#include "base/textbuf.h"
#include "core/analyse/banks.h"

/* The thresholds of the rules (limiter.h), named where the words use them. */
#define TAIL_BUSY 0.60       /* below: the tail limits */
#define NEAR_CEILING 0.60    /* at or above: that ceiling limits */
#define COMPUTE_NEAR_TIE 0.90 /* compute at or above this share of the top one: compute limits (the
                                 * others' bytes are within 10% of the hardware's) */
#define BANK_RATIO 1.5       /* at or above: conflicts limit */
#define LOW_OCCUPANCY 0.25   /* below: too few warps */
#define CACHE_SLACK 1.05     /* the model's bytes over the bandwidth by more: caches serve them */
/* The share of TMA's loads the L2 itself serves: requests for a line that arrive together are
 * answered once. On the H200 (ncu, 51 TMA presets at 2048) the L2's sectors read for the SMs
 * were 0.40-1.00 of the bytes TMA delivered, median 0.68 (0.4-0.5 for the banded wgmma steps,
 * 0.7-0.9 for swap-AB): which one a kernel gets depends on timing the model does not see, so
 * the median is taken. Blocks that stand at different K steps from the start (`staggered:`,
 * stream-K) ask for a line at different times: the L2 answers each request (0.94-1.00 for
 * Hopper steps 7 and 8 at 2048 and 4096, 2026-12-02). */
#define TMA_L2_SHARE (2.0 / 3)
/* Blocks in row-by-row order past their first wave (or a persistent block past its first
 * tile) drift apart, and fewer of their requests meet: on the H200 the L2 answered 0.56-0.97
 * of TMA's bytes for such grids (Hopper steps 1 to 4, swap-AB, FP8 presets with GROUP=1),
 * median 0.83 over 77 rows at 2048 and 4096, against 0.61 for the others; 0.82 at 3072. */
#define TMA_L2_SHARE_DRIFTED 0.83
#define LAUNCH_SHARE 0.5     /* an empty launch's share of the time at or above: the launch limits */
/* Groups drifted apart in K reading more than this times the waves' figure: the model gives
 * both (the comparison's tolerance, 10%). */
#define DRIFT_SLACK 1.10
#define DRIFT_STEPS 16 /* slices of K the drift simulation follows each tile through */
/* Tiles x slices it follows at most (about 20 ms): fewer slices for a grid past 131072 tiles,
 * none past 524288 (four slices), so that a pane that judges on each drawing stays quick. */
#define DRIFT_BUDGET (1LL << 21)
#define DRIFT_MIN_STEPS 4

const char *LimitKind_name(LimitKind k) {
   static const char *names[LIMIT_KINDS] = {"unknown",      "launch",         "tail",      "compute", "memory",
                                            "local memory", "bank conflicts", "occupancy", "latency", "L2"};
   return k >= 0 && k < LIMIT_KINDS ? names[k] : "?";
}

const char *DramCount_name(DramCount c) {
   switch (c) {
   case DRAM_ONCE: return "once";
   case DRAM_ONCE_PLANES: return "once_planes";
   case DRAM_BESIDE_WRITES: return "beside_writes";
   case DRAM_WAVES: return "waves";
   case DRAM_WAVES_KEPT: return "waves_kept";
   default: return "none";
   }
}

const char *OverCause_name(OverCause c) {
   switch (c) {
   case OVER_CEILING: return "ceiling";
   case OVER_CACHE: return "cache";
   case OVER_UNSURE: return "unsure";
   default: return NULL;
   }
}

const char *Limiter_overWhy(LimitKind ceiling, OverCause c) {
   switch (c) {
   case OVER_CEILING:
      return ceiling == LIMIT_COMPUTE ? "the peak's micro-kernel falls short of what this kernel's instructions reach"
             : ceiling == LIMIT_MEMORY
                 ? "the copy micro-kernel falls short of the hardware (the operands do not fit the L2)"
                 : "the micro-kernel's figure falls short of what the banks give at the measured clock";
   case OVER_CACHE:
      return ceiling == LIMIT_MEMORY ? "the L2 holds the operands between launches, a cache the model does not see"
             : ceiling == LIMIT_LOCAL
                 ? "the model counts reads that registers or wider accesses serve (more than even the banks give)"
             : ceiling == LIMIT_L2 ? "the L1 serves some of the loads the model sends to the L2"
                                   : "the model counts traffic that a cache it does not see serves";
   case OVER_UNSURE:
      return ceiling == LIMIT_L2 ? "the L2's micro-kernel falls short, or the L2 answers fewer of TMA's requests than "
                                   "the model's share (nothing here tells which)"
                                 : "the micro-kernel falls short, or the model counts reads that registers serve (no "
                                   "bank model here to tell which)";
   default: return "";
   }
}

/* A rate as people write it: whole from 100 up (30000, not 3e+04), else three digits. */
static const char *rate(double v, char *buf, size_t len) {
   snprintf(buf, len, v >= 100 ? "%.0f" : "%.3g", v);
   return buf;
}

static void computeWords(const Limiter *l, const LimiterInputs *in, char *out, size_t len) {
   char r[32], g[32];
   if (l->compute_over)
      snprintf(out, len, "compute: %s GFLOPS, above the measured %s peak (%s GFLOPS), so not a share of it: %s",
               rate(in->gflops, g, sizeof g), in->peak_label ? in->peak_label : "",
               rate(in->peak_gflops, r, sizeof r), Limiter_overWhy(LIMIT_COMPUTE, l->compute_over));
   else if (l->issue_used > l->compute_used)
      snprintf(out, len,
               "compute (instruction issue): about %.0f%% of the issue slots: the FMAs at %.0f%% of the measured %s "
               "peak, and %.3g local loads per multiply-add beside them",
               100 * l->issue_used, 100 * l->compute_used, in->peak_label ? in->peak_label : "",
               in->issue_per_fma - 1);
   else if (in->clock_share > 0 && in->clock_share < 1)
      snprintf(out, len, "compute: %.0f%% of the measured %s peak at the clock the run held (%s GFLOPS: %.0f%% of it)",
               100 * l->compute_used, in->peak_label ? in->peak_label : "", rate(in->peak_gflops, r, sizeof r),
               100 * in->clock_share);
   else
      snprintf(out, len, "compute: %.0f%% of the measured %s peak (%s GFLOPS)", 100 * l->compute_used,
            in->peak_label ? in->peak_label : "", rate(in->peak_gflops, r, sizeof r));
}

static void memoryWords(const Limiter *l, const LimiterInputs *in, char *out, size_t len) {
   char r[32];
   if (l->memory_over)
      snprintf(out, len,
               "global memory: the %s bytes would need %.2fx the measured %s GB/s, more than it gives: %s",
               l->caches ? "compulsory" : "model's", l->memory_used, rate(in->copy_gbps, r, sizeof r),
               Limiter_overWhy(LIMIT_MEMORY, l->memory_over));
   else if (l->caches)
      snprintf(out, len,
               "global memory: %.0f%% of the measured %s GB/s by the compulsory bytes (each element once); the "
               "model's loads would need %.0f%%, so caches serve part of them%s",
               100 * l->memory_used_min, rate(in->copy_gbps, r, sizeof r),
               100 * in->gflops / l->intensity / in->copy_gbps,
               l->l1 ? ", the L1 too (more than the L2's bandwidth)" : "");
   else
      snprintf(out, len, "global memory: %.0f%% of the measured %s GB/s at %.3g flops per byte (the model's loads)",
               100 * l->memory_used, rate(in->copy_gbps, r, sizeof r), l->intensity);
}

static void l2Words(const Limiter *l, const LimiterInputs *in, char *out, size_t len) {
   char r[32];
   if (l->l2_over)
      snprintf(out, len,
               "L2 cache: at the measured %s GB/s; the model's loads and stores come to %.0f%% of it, within its "
               "error but not a share: %s",
               rate(in->l2_gbps, r, sizeof r), 100 * l->l2_used, Limiter_overWhy(LIMIT_L2, l->l2_over));
   else if (l->l2_used_all >= 0 && in->tma_staggered)
      snprintf(out, len,
               "L2 cache: %.0f%% of the measured %s GB/s by the model's loads and its stores (its blocks stand at "
               "different K steps: the L2 answers each of TMA's requests)",
               100 * l->l2_used, rate(in->l2_gbps, r, sizeof r));
   else if (l->l2_used_all >= 0 && in->tma_l2_share > TMA_L2_SHARE + 1e-9)
      snprintf(out, len,
               "L2 cache: %.0f%% of the measured %s GB/s by %.0f%% of the model's loads and its stores (past the "
               "first wave of a row-by-row order the blocks drift apart, and fewer of TMA's requests for a line "
               "arrive together; all of them would be %.0f%%)",
               100 * l->l2_used, rate(in->l2_gbps, r, sizeof r), 100 * in->tma_l2_share, 100 * l->l2_used_all);
   else if (l->l2_used_all >= 0)
      snprintf(out, len,
               "L2 cache: %.0f%% of the measured %s GB/s by two thirds of the model's loads and its stores (TMA's "
               "requests for a line that arrive together are answered once; all of them would be %.0f%%)",
               100 * l->l2_used, rate(in->l2_gbps, r, sizeof r), 100 * l->l2_used_all);
   else
      snprintf(out, len,
               "L2 cache: %.0f%% of the measured %s GB/s at %.3g flops per byte (the model's loads, each asking the L2)",
               100 * l->l2_used, rate(in->l2_gbps, r, sizeof r), l->intensity);
}

/* What goes through the local memory's unit: its reads, the global loads (the L1's data
 * stage, hit or miss), TMA's copies into shared memory. */
static const char *localWhat(const LimiterInputs *in) {
   if (in->smem_fill_bytes > 0)
      return in->local_bytes > 0 ? "reads and TMA's copies into it" : "TMA's copies into it";
   if (in->lsu_load_bytes <= 0)
      return "reads";
   if (in->load_ratio > 1.01)
      return in->local_bytes > 0 ? "reads and the global loads (the same unit), as they coalesce"
                                 : "global loads (the L1, the local memory's unit), as they coalesce";
   return in->local_bytes > 0 ? "reads and the global loads (the same unit)"
                              : "global loads (the L1, the local memory's unit)";
}

static void localWords(const Limiter *l, const LimiterInputs *in, char *out, size_t len) {
   char r[32];
   if (l->local_over)
      snprintf(out, len, "local memory: the model's %s%s would need %.2fx the measured %s GB/s, more than it gives: %s",
               localWhat(in), in->bank_ratio > 1.01 ? " times the bank conflicts" : "", l->local_used,
               rate(in->local_gbps, r, sizeof r), Limiter_overWhy(LIMIT_LOCAL, l->local_over));
   else
      snprintf(out, len, "local memory: %.0f%% of the measured %s GB/s by the model's %s%s", 100 * l->local_used,
               rate(in->local_gbps, r, sizeof r), localWhat(in), in->bank_ratio > 1.01 ? " times the bank conflicts" : "");
}

/* The ceiling after the limiter's (or the nearest, when none limits), in words. */
static void headroom(Limiter *l, const LimiterInputs *in) {
   typedef void (*Words)(const Limiter *, const LimiterInputs *, char *, size_t);
   const struct {
      LimitKind kind;
      double used;
      Words words;
   } ceilings[] = {{LIMIT_COMPUTE, fmax(l->compute_used, l->issue_used), computeWords},
                   {LIMIT_MEMORY, l->memory_used, memoryWords},
                   {LIMIT_L2, l->l2_used, l2Words},
                   {LIMIT_LOCAL, l->local_used, localWords}};
   int next = -1;
   for (int i = 0; i < (int)(sizeof ceilings / sizeof ceilings[0]); i++)
      if (ceilings[i].used >= 0 && ceilings[i].kind != l->kind && (next < 0 || ceilings[i].used > ceilings[next].used))
         next = i;
   if (next < 0)
      return;
   char text[256];
   ceilings[next].words(l, in, text, sizeof text);
   bool ceiling = l->kind == LIMIT_COMPUTE || l->kind == LIMIT_MEMORY || l->kind == LIMIT_L2 || l->kind == LIMIT_LOCAL;
   snprintf(l->headroom, sizeof l->headroom, "%s %s", ceiling ? "next:" : "nearest:", text);
}

/* Which of the two is wrong where a figure is above its measured ceiling. The flops are
 * exact, so above the compute peak it is the peak's. The bytes: the model's above the
 * bandwidth are bytes a cache serves; the compulsory ones above it are when the L2 holds
 * them between launches (they fit), else the copy micro-kernel's figure falls short. Local
 * memory: the banks at the measured clock bound any micro-kernel; the model's reads below
 * that bound put the fault on the micro-kernel, above it on the model. */
static void overCauses(const LimiterInputs *in, Limiter *out) {
   if (out->compute_used > 1)
      out->compute_over = OVER_CEILING;
   if (out->memory_used > 1)
      out->memory_over = !out->caches || (in->l2_bytes > 0 && in->min_bytes <= in->l2_bytes) ? OVER_CACHE : OVER_CEILING;
   /* Between 1 and CACHE_SLACK the L2 is still judged (the model's bytes within their error
    * of its ceiling), but its figure is no share of it. */
   if (out->l2_used > 1)
      out->l2_over = in->tma_loads ? OVER_UNSURE : OVER_CACHE;
   if (out->local_used > 1) {
      if (in->local_banks_gbps > 0)
         out->local_over = out->local_used * in->local_gbps > in->local_banks_gbps ? OVER_CACHE : OVER_CEILING;
      else
         out->local_over = OVER_UNSURE;
   }
}

void Limiter_of(const LimiterInputs *in, Limiter *out) {
   memset(out, 0, sizeof *out);
   out->compute_used = out->memory_used = out->memory_used_min = out->local_used = out->launch_share = -1;
   out->l2_used = out->l2_used_all = out->issue_used = -1;
   out->busy = 1;
   if (in->gflops <= 0) {
      snprintf(out->words, sizeof out->words, "nothing measured to explain");
      return;
   }
   if (in->peak_gflops > 0)
      out->compute_used = in->gflops / in->peak_gflops;
   if (out->compute_used >= 0 && in->issue_per_fma > 1)
      out->issue_used = (in->issue_gflops > 0 ? in->gflops / in->issue_gflops : out->compute_used) * in->issue_per_fma;
   if (in->model_bytes > 0)
      out->intensity = in->flops / in->model_bytes;
   if (in->min_bytes > 0)
      out->intensity_min = in->flops / in->min_bytes;
   if (in->copy_gbps > 0 && out->intensity_min > 0) {
      /* GFLOPS / (flops per byte) = GB/s. */
      out->memory_used_min = in->gflops / out->intensity_min / in->copy_gbps;
      double model = out->intensity > 0 ? in->gflops / out->intensity / in->copy_gbps : -1;
      /* Operands that fit in the L2 come from DRAM once (H200, ncu: DRAM reads within 10% of
       * A and B for every FP32 preset at 2048): the model's loads beyond them are the L2's. */
      bool fit = in->l2_bytes > 0 && in->min_bytes <= in->l2_bytes && in->model_bytes > in->min_bytes;
      out->caches = model > CACHE_SLACK || fit;
      out->memory_used = model >= 0 && !out->caches ? model : out->memory_used_min;
      /* Where the model gives DRAM's reads (Limiter_inputs: the compulsory ones, or a tile
       * grid's waves reading theirs again), those and C's writes. */
      if (in->dram_read_bytes > 0) {
         const double dram = in->dram_read_bytes + in->min_bytes - in->min_read_bytes;
         out->memory_used = in->gflops * dram / in->flops / in->copy_gbps;
      }
   }
   double l2_bytes = in->l2_model_bytes > 0 ? in->l2_model_bytes : in->model_bytes;
   if (in->l2_gbps > 0 && l2_bytes > 0 && in->flops > 0) {
      double l2 = in->gflops * (l2_bytes / in->flops) / in->l2_gbps;
      if (in->tma_loads) {
         /* TMA bypasses the L1: what the L2 does not see of the loads, it merged. The stores
          * (C, or the partial sums where a fix-up writes C) come from one block each: whole. */
         double c = fmax(0, in->min_bytes - in->min_read_bytes), loads = fmax(0, l2_bytes - c);
         double stores = in->store_bytes > 0 ? in->store_bytes : c;
         out->l2_used_all = in->gflops * ((loads + stores) / in->flops) / in->l2_gbps;
         const double share = in->tma_staggered ? 1 : in->tma_l2_share > 0 ? in->tma_l2_share : TMA_L2_SHARE;
         l2 = in->gflops * ((loads * share + stores) / in->flops) / in->l2_gbps;
      }
      out->l1 = !in->tma_loads && l2 > CACHE_SLACK;
      out->l2_used = l2 > CACHE_SLACK ? -1 : l2; /* above it: not a measurement */
   }
   if (in->peak_gflops > 0 && in->copy_gbps > 0 && out->intensity > 0)
      out->attainable_gflops = fmin(in->peak_gflops, out->intensity * in->copy_gbps);
   /* The tail in units where one group takes a unit whole (waves.h); residency (DRAM's
    * waves) stays in slots. */
   const Waves tail = in->one_block_per_unit ? Waves_byUnit(&in->waves) : in->waves;
   if (tail.known)
      out->busy = tail.busy;
   /* The global loads pass the L1's data stage, the local memory's unit (NVIDIA), a wavefront
    * per line a phase of lanes touches: more than bytes / 128 where they do not coalesce. */
   double local = in->local_bytes * fmax(1, in->bank_ratio) +
                  in->lsu_load_bytes * (in->load_ratio > 0 ? in->load_ratio : 1) + in->smem_fill_bytes +
                  in->store_wavefronts * 128; /* a wavefront moves up to 128 bytes */
   if (in->local_gbps > 0 && local > 0 && in->flops > 0)
      out->local_used = in->gflops * (local / in->flops) / in->local_gbps;
   if (in->launch_us > 0 && in->median_ms > 0)
      out->launch_share = in->launch_us / (in->median_ms * 1000);
   overCauses(in, out);
   /* Compute is the FMA pipe or the issue slots, whichever is busier. */
   double c = fmax(out->compute_used, out->issue_used), m = out->memory_used, l2 = out->l2_used,
          lo = out->local_used;
   if (out->launch_share >= LAUNCH_SHARE) {
      out->kind = LIMIT_LAUNCH;
      snprintf(out->words, sizeof out->words,
               "the launch itself: an empty kernel's launch takes %.3g us of this one's %.3g us; a larger problem, or "
               "several in one launch, amortises it",
               in->launch_us, in->median_ms * 1000);
   } else if (tail.known && tail.busy < TAIL_BUSY) {
      out->kind = LIMIT_TAIL;
      snprintf(out->words, sizeof out->words,
               "the tail: %.2f waves of %lld work-groups on %d units at %d each, so %.0f%% of the slots are busy on "
               "average: at most %.0f%% of any ceiling",
               tail.waves, tail.groups, tail.units, tail.per_unit, 100 * tail.busy, 100 * tail.busy);
   } else if (fmax(fmax(c, m), fmax(l2, lo)) >= NEAR_CEILING) {
      /* Ties go to the first: compute, global memory, the L2, local memory. Compute also
       * takes a near tie, within the others' error: its share counts the FLOPs, which are
       * exact, while the others come from modelled bytes, within 10% of the hardware's in
       * 90-95% of the rows (H200, ncu; docs/limits.md). At 95% of the top share the issue
       * slots of myGEMM 7 to 10 (0.95 of local memory's) went one way or the other with a
       * 0.3% change of the measured local-memory ceiling between two days; at 90% eleven rows
       * of the four stored runs turned to ncu's unit and none away. */
      double top = fmax(fmax(c, m), fmax(l2, lo));
      if (c >= COMPUTE_NEAR_TIE * top)
         top = c;
      out->kind = c == top ? LIMIT_COMPUTE : m == top ? LIMIT_MEMORY : l2 == top ? LIMIT_L2 : LIMIT_LOCAL;
      (out->kind == LIMIT_COMPUTE  ? computeWords
       : out->kind == LIMIT_MEMORY ? memoryWords
       : out->kind == LIMIT_L2     ? l2Words
                                   : localWords)(out, in, out->words, sizeof out->words);
   } else if (in->bank_ratio >= BANK_RATIO) {
      out->kind = LIMIT_BANKS;
      snprintf(out->words, sizeof out->words,
               "local memory: bank conflicts make %.2fx the ideal wavefronts, each access waiting on the others",
               in->bank_ratio);
   } else if (in->occupancy > 0 && in->occupancy < LOW_OCCUPANCY && !in->one_block_per_unit) {
      out->kind = LIMIT_OCCUPANCY;
      snprintf(out->words, sizeof out->words,
               "too few warps to hide latency: occupancy %.0f%% (registers, local memory or the group size)",
               100 * in->occupancy);
   } else {
      out->kind = LIMIT_LATENCY;
      char known[160] = "";
      if (c >= 0 && m >= 0 && l2 >= 0)
         snprintf(known, sizeof known, " (compute %.0f%%, memory %.0f%%, L2 %.0f%%)", 100 * c, 100 * m, 100 * l2);
      else if (c >= 0 && m >= 0)
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
   case LIMIT_LAUNCH:
      snprintf(out->brief, sizeof out->brief, "the launch: %.0f%% of the time", 100 * out->launch_share);
      break;
   case LIMIT_LOCAL:
      if (out->local_over)
         snprintf(out->brief, sizeof out->brief, "local memory: above its measured ceiling (%s)",
                  out->local_over == OVER_CEILING ? "the micro-kernel's" : out->local_over == OVER_CACHE ? "the model's" : "one of the two");
      else
         snprintf(out->brief, sizeof out->brief, "local memory: %.0f%% of its bandwidth", 100 * lo);
      break;
   case LIMIT_TAIL: snprintf(out->brief, sizeof out->brief, "the tail: %.0f%% of the slots busy", 100 * out->busy); break;
   case LIMIT_COMPUTE:
      if (out->compute_over)
         snprintf(out->brief, sizeof out->brief, "compute: above the measured %s peak (the micro-kernel's)",
                  in->peak_label ? in->peak_label : "");
      else if (out->issue_used > out->compute_used)
         snprintf(out->brief, sizeof out->brief, "compute (instruction issue): %.0f%% of the issue slots", 100 * c);
      else
         snprintf(out->brief, sizeof out->brief, "compute: %.0f%% of the %s peak", 100 * c,
                  in->peak_label ? in->peak_label : "");
      break;
   case LIMIT_MEMORY:
      if (out->memory_over)
         snprintf(out->brief, sizeof out->brief, "global memory: above the measured bandwidth (%s)",
                  out->memory_over == OVER_CACHE ? "a cache the model does not see" : "the micro-kernel's");
      else
         snprintf(out->brief, sizeof out->brief, "global memory: %.0f%% of the bandwidth", 100 * m);
      break;
   case LIMIT_L2:
      if (out->l2_over)
         snprintf(out->brief, sizeof out->brief, "L2 cache: at its measured bandwidth (the model's bytes %.0f%% of it)",
                  100 * l2);
      else
         snprintf(out->brief, sizeof out->brief, "L2 cache: %.0f%% of its bandwidth", 100 * l2);
      break;
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

/* The share of TMA's loaded bytes the L2 answers: requests for a line that arrive together are
 * answered once. Blocks at different K steps from the start (`staggered:`) meet none; blocks
 * that start together meet often while they move together, and less after the first wave in a
 * row-by-row order (a grid with no `band:`, or band 1), where the order keeps no band of
 * tiles close: TMA_L2_SHARE_DRIFTED. A banded order (the tiles a band of rows runs share
 * them) and a cluster's (its multicast shares B by construction) keep TMA_L2_SHARE. */
static double tmaL2Share(const KernelInfo *k, const Geometry *g, const Waves *w) {
   if (g->staggered)
      return 1;
   const bool rowOrder = (g->band == 1 && g->band_unit <= 1) || (g->band == 0 && !k->band[0]);
   return rowOrder && w->known && (w->waves > 1 || w->rounds > 1) ? TMA_L2_SHARE_DRIFTED : TMA_L2_SHARE;
}

LimiterRun LimiterRun_of(const RunResult *r) {
   return (LimiterRun){.gflops = r->gflops, .median_ms = r->median_ms, .geo = r->geo, .registers = r->registers,
                       .local_mem = r->local_mem, .ablate = r->ablate,
                       .sm_mhz = Observation_smMhz(&r->obs)};
}

/* The global bytes that reach the L2 when the L1 serves the reuse inside a work-group: a
 * kernel without local memory on a 2-D grid of whole tiles loads each element of its
 * group's rows of A and columns of B from the L2 once, the other loads of the group
 * hitting in the L1 (H200, ncu: 01-naive's L2 requests within 10% of this, the model's
 * loads 17x them). Dimension 0 of the grid runs along N (the ladders' kernels); where M and
 * N differ the smaller tile is taken for both, a floor on the reuse. 0: not such a kernel. */
static double groupFootprintBytes(const Geometry *g, const TrafficModel *t, const Problem *p) {
   if (g->dims != 2 || g->localmem > 0 || g->dynamic_smem > 0 || g->work > 0 || g->fixup_dims > 0 ||
       !g->local[0] || !g->local[1] || g->global[0] < g->local[0] || g->global[1] < g->local[1])
      return 0;
   double groups_n = (double)(g->global[0] / g->local[0]), groups_m = (double)(g->global[1] / g->local[1]);
   double tile_n = g->n / groups_n, tile_m = g->m / groups_m;
   if (g->m != g->n)
      tile_n = tile_m = fmin(tile_n, tile_m);
   /* An element of A serves the group's tile_n columns; one of B its tile_m rows. */
   double reuse_a = fmax((double)t->reuse_a, tile_n), reuse_b = fmax((double)t->reuse_b, tile_m);
   double in = (double)Precision_inputSize(p->precision), c = (double)Precision_size(p->precision);
   double fmas = (double)p->m * p->n * p->k;
   return fmas * ((1 / reuse_a + 1 / reuse_b) * in + (t->stores_per_fma + t->c_loads_per_fma) * c);
}

/* The tile at position t of the order `band:` names (1: row by row). */
static void tileAt(long long t, long long tm, long long tn, long long band, long long *row, long long *col) {
   const long long inBand = band * tn, first = t / inBand * band, height = tm - first < band ? tm - first : band;
   *row = first + t % inBand % height;
   *col = t % inBand / height;
}

/* The bytes the waves of a grid of tm x tn tiles of bm x bn read from DRAM: per wave of
 * `resident` tiles taken together, the rows of A and the columns of B they cover, each once
 * (the L2 keeps what the tiles of a wave share, and little across waves). The tiles are
 * numbered `band` tile rows at a time, column by column inside a band: 1 is row by row.
 * 0 for a grid past a million tiles (the count would cost more than the run). */
static double waveReads(const Geometry *g, const Problem *p, long long tm, long long tn, long long bm, long long bn,
                        long long band, long long resident) {
   const long long tiles = tm * tn;
   if (tiles > 1000000 || resident < 1 || band < 1)
      return 0;
   unsigned char *seen = calloc((size_t)(tm + tn), 1);
   if (!seen)
      return 0;
   const double in = (double)Precision_inputSize(p->precision);
   double bytes = p->beta != 0 ? (double)g->m * g->n * Precision_size(p->precision) : 0;
   for (long long t0 = 0; t0 < tiles; t0 += resident) {
      const long long t1 = t0 + resident < tiles ? t0 + resident : tiles;
      long long rows = 0, cols = 0;
      memset(seen, 0, (size_t)(tm + tn));
      for (long long t = t0; t < t1; t++) {
         long long row, col;
         tileAt(t, tm, tn, band, &row, &col);
         rows += !seen[row], cols += !seen[tm + col];
         seen[row] = seen[tm + col] = 1;
      }
      bytes += ((double)rows * bm + (double)cols * bn) * g->k * in;
   }
   free(seen);
   return bytes;
}

/* A least-recently-used cache of `capacity` bytes over numbered items of known sizes: the
 * L2 as the drift simulation sees it. The list runs from the newest (head) to the oldest. */
typedef struct {
   int *prev, *next;
   unsigned char *held;
   int head, tail;
   double used, capacity, missed;
} LruCache;

static bool LruCache_init(LruCache *c, long long items, double capacity) {
   *c = (LruCache){.head = -1, .tail = -1, .capacity = capacity};
   c->prev = malloc((size_t)items * sizeof *c->prev);
   c->next = malloc((size_t)items * sizeof *c->next);
   c->held = calloc((size_t)items, 1);
   return c->prev && c->next && c->held;
}

static void LruCache_free(LruCache *c) {
   free(c->prev);
   free(c->next);
   free(c->held);
}

static void LruCache_unlink(LruCache *c, int i) {
   if (c->prev[i] >= 0)
      c->next[c->prev[i]] = c->next[i];
   else
      c->head = c->next[i];
   if (c->next[i] >= 0)
      c->prev[c->next[i]] = c->prev[i];
   else
      c->tail = c->prev[i];
}

/* Item i of `bytes` used now: a hit moves it to the head; a miss reads it (missed) and
 * evicts the oldest items until it fits. `read` false: written, not read (C's tiles). An
 * item takes sizeOf(ctx, i) of the capacity, which may be more than the bytes it reads. */
static void LruCache_use(LruCache *c, int i, double bytes, bool read, double (*sizeOf)(const void *, int),
                         const void *ctx) {
   if (c->held[i])
      LruCache_unlink(c, i);
   else {
      c->held[i] = 1;
      c->used += sizeOf(ctx, i);
      if (read)
         c->missed += bytes;
   }
   c->prev[i] = -1;
   c->next[i] = c->head;
   if (c->head >= 0)
      c->prev[c->head] = i;
   c->head = i;
   if (c->tail < 0)
      c->tail = i;
   while (c->used > c->capacity && c->tail >= 0 && c->tail != i) {
      const int old = c->tail;
      LruCache_unlink(c, old);
      c->held[old] = 0;
      c->used -= sizeOf(ctx, old);
   }
}

/* The tiles a grid covers, in the order its groups take them, and how many run at once; a
 * split-K grid's planes (each a slice of K, numbered plane after plane) and the bytes of an
 * element of what a tile writes (C, or a plane's partial sums). */
typedef struct {
   long long tm, tn, bm, bn, band, resident, planes;
   double c_size;
} TileGrid;

/* The items of the drift simulation: `steps` slices of each row of A's tiles, then of
 * each column of B's, then C's tiles. */
typedef struct {
   long long tm, tn, steps;
   double a_bytes, b_bytes, c_bytes; /* one slice of a row of A, of a column of B; a tile of C */
   double copies;                    /* the L2's copies of an operand's line (l2Copies) */
} DriftItems;

/* The capacity an item takes: an operand's slice in each of the L2's copies, C's tile once. */
static double driftItemBytes(const void *ctx, int i) {
   const DriftItems *d = ctx;
   const long long a = d->tm * d->steps, b = d->tn * d->steps;
   return i < a ? d->a_bytes * d->copies : i < a + b ? d->b_bytes * d->copies : d->c_bytes;
}

/* The bytes a grid of tm x tn tiles reads from DRAM through an LRU cache of `capacity`
 * bytes, its `resident` slots taking the order's tiles (`band:`) one after another. Each step
 * every running group reads its next slice of K, a slice of its row of A and of its column
 * of B, and a finished tile writes C's tile into the cache (written lines stay in the L2
 * until the kernel ends: H200, ncu, 2-22% of C reached DRAM during the kernel at 2048).
 * `drifted`: each slot starts its first tile j / resident of a tile's time after slot 0 (as
 * groups that finish at random times leave them, many waves into a launch); else the slots
 * start together and stay in step. An operand's line takes `copies` lines of the capacity
 * (l2Copies). 0: a grid too large to follow in DRIFT_BUDGET (past 524288 tiles), or no
 * memory. */
static double lruReads(const Geometry *g, const Problem *p, const TileGrid *t, double capacity, bool drifted,
                       double copies) {
   const long long planes = t->planes > 1 ? t->planes : 1, perPlane = t->tm * t->tn, tiles = perPlane * planes;
   /* Slices of K a tile reads: a plane's share of DRIFT_STEPS, fewer past the budget. */
   long long per = (DRIFT_STEPS + planes - 1) / planes;
   if (tiles * per > DRIFT_BUDGET)
      per = DRIFT_BUDGET / tiles;
   const long long steps = per * planes;
   if (per < 1 || steps < DRIFT_MIN_STEPS || t->resident < 1 || t->band < 1 || g->k < steps)
      return 0;
   const long long slots = t->resident < tiles ? t->resident : tiles;
   const double in = (double)Precision_inputSize(p->precision), slice = (double)g->k / (double)steps;
   const DriftItems items = {.tm = t->tm, .tn = t->tn, .steps = steps, .a_bytes = (double)t->bm * slice * in,
                             .b_bytes = (double)t->bn * slice * in, .c_bytes = (double)t->bm * t->bn * t->c_size,
                             .copies = copies};
   const long long aItems = t->tm * steps, cFirst = aItems + t->tn * steps;
   LruCache cache;
   long long *tile = malloc((size_t)slots * sizeof *tile), *step = malloc((size_t)slots * sizeof *step);
   if (!tile || !step || !LruCache_init(&cache, cFirst + tiles, capacity)) {
      free(tile);
      free(step);
      LruCache_free(&cache);
      return 0;
   }
   /* step < 0: the slot waits that many steps before its first tile. */
   for (long long j = 0; j < slots; j++)
      tile[j] = j, step[j] = drifted ? -(j * per / slots) : 0;
   long long next = slots, running = slots;
   while (running > 0) {
      for (long long j = 0; j < slots; j++) {
         if (tile[j] < 0)
            continue;
         if (step[j] < 0) {
            step[j]++;
            continue;
         }
         long long row, col;
         tileAt(tile[j] % perPlane, t->tm, t->tn, t->band, &row, &col);
         const long long kSlice = tile[j] / perPlane * per + step[j]; /* plane after plane */
         LruCache_use(&cache, (int)(row * steps + kSlice), items.a_bytes, true, driftItemBytes, &items);
         LruCache_use(&cache, (int)(aItems + col * steps + kSlice), items.b_bytes, true, driftItemBytes, &items);
         if (++step[j] == per) {
            LruCache_use(&cache, (int)(cFirst + tile[j]), items.c_bytes, false, driftItemBytes, &items);
            step[j] = 0;
            tile[j] = next < tiles ? next++ : -1;
            running -= tile[j] < 0;
         }
      }
   }
   double bytes = cache.missed + (p->beta != 0 ? (double)g->m * g->n * Precision_size(p->precision) : 0);
   free(tile);
   free(step);
   LruCache_free(&cache);
   return bytes;
}

/* The planes of a split-K grid: its last dimension, one group wide, whose workspace holds as
 * many planes of C's partial sums (`workspace: SPLIT * M * N * REAL_SIZE`); plane s's groups
 * take the s-th slice of K, and the grid numbers them plane after plane. 0: not such a grid
 * (stream-K's and the hybrid's workspaces hold the tiles they share, not planes). */
static long long splitPlanes(const Geometry *g) {
   if (g->fixup_dims <= 0 || g->work > 0 || g->workspace <= 0 || g->dims < 2 || g->local[g->dims - 1] != 1)
      return 0;
   const long long planes = (long long)g->global[g->dims - 1], elements = (long long)g->m * g->n;
   return planes > 1 && elements > 0 && g->workspace % (planes * elements) == 0 ? planes : 0;
}

/* The two kinds of grid dramReads follows (below), or either split into `planes` (0: not
 * split); false: neither. */
static bool tileGridOf(const Geometry *g, const Problem *p, const Waves *w, long long reuse_a, long long reuse_b,
                       long long planes, TileGrid *t) {
   if ((g->fixup_dims > 0 && planes <= 0) || !w->known || w->units <= 0 || w->per_unit <= 0)
      return false;
   t->resident = (long long)w->units * w->per_unit;
   t->planes = planes > 1 ? planes : 1;
   t->c_size = planes > 1 ? (double)g->workspace / ((double)planes * g->m * g->n) : Precision_size(p->precision);
   if (g->band > 0) {
      /* A cluster's blocks (`unit:`) take the tiles of one unit of the order at once, one
       * above the other, and read B's tile once between them (TMA multicast): to DRAM and
       * the L2 the unit is one tile of their rows, and the grid runs a unit per cluster
       * (H200, ncu: FP8 step 5's pairs at 4096 0.96-0.98 times DRAM's reads so, 0.64 as
       * each element once; the persistent grid's 256-column pairs 1.00 at 3072 and 4096). */
      const long long unit = g->band_unit > 1 ? g->band_unit : 1;
      t->bm = reuse_b * unit, t->bn = reuse_a, t->band = g->band;
      t->tm = (g->m + t->bm - 1) / t->bm, t->tn = (g->n + t->bn - 1) / t->bn;
      if (g->work > 0)
         t->resident = w->groups;
      t->resident = t->resident / unit > 0 ? t->resident / unit : 1;
      return true;
   }
   /* A third dimension of one group (a split-K grid's SPLIT=1) leaves a 2-D grid; of SPLIT
    * groups, its planes. */
   const bool flat = g->dims == 2 || (g->dims == 3 && g->local[2] && g->global[2] == g->local[2] * (size_t)t->planes);
   if (!flat || g->work > 0 || !g->local[0] || !g->local[1])
      return false;
   t->tn = (long long)(g->global[0] / g->local[0]), t->tm = (long long)(g->global[1] / g->local[1]);
   /* A group's tile holds at least the register or shared tile the model's reuse names: a
    * grid that is not one of tiles (a 1-D grid in a kernel's own order, swap-AB) fails it. */
   if (t->tn < 1 || t->tm < 1 || g->n % t->tn || g->m % t->tm || g->n / t->tn < 8 || g->m / t->tm < 8 ||
       g->n / t->tn < reuse_a || g->m / t->tm < reuse_b)
      return false;
   t->bm = g->m / t->tm, t->bn = g->n / t->tn, t->band = 1;
   return true;
}

/* The bytes a launch reads from DRAM (*how says which count). Where A and B (and C when
 * beta is not 0) fit in the L2 together, each element once, unless A and B in each of the
 * L2's `copies` and C's written lines pass its size: then what the groups in step read
 * through an LRU of the L2 (lruReads) where the grid is one of the two kinds below, each
 * element once where not. So too for a split-K grid whose planes' slices of A and B each
 * fit, with a plane's partial sums for C (H200, 4096: swap-AB's, tensor 8's and fast 5's
 * split presets read each element once; Hopper step 6 in 3xTF32 2.47 times, the LRU 2.36;
 * in bfloat16 and half 1.3-1.8 times, where the LRU keeps them).
 * Where they do not, per wave of resident groups, the rows
 * of A and the columns of B its tiles cover (waveReads), less what the L2 keeps from one
 * wave for the next where that is less (the groups in step through the LRU, below), for
 * two kinds of grid:
 *  - a plain 2-D grid of tiles, dimension 0 along N, the groups numbered row by row, no
 *    fix-up, no persistent grid (H200, ncu at 4096: within 6% for Hopper steps 1, 3 and 4,
 *    the tensor steps 1 and 3, myGEMM 7 and 8; groups that drift apart in K read more:
 *    myGEMM 9 and 10, 1.7x);
 *  - a grid of the BM x BN tiles `reuse:` names (A=BN B=BM), in the order `band:` gives
 *    (the Hopper and warp-tile steps' GROUP, swap-AB's row by row; a cluster's unit of
 *    tiles, `unit:`, as one tile), a persistent grid's groups all resident (Hopper step 5
 *    within 8% in every type and tile at 4096, the persistent grid of whole tiles at 192 and
 *    224 columns within 5%; its 160-column, 64-row and GROUP=1 presets 0.81-1.75 times
 *    DRAM's before what the L2 keeps was taken off; fast 2 and tensor 5 in their bands within
 *    1%, where row by row gave 1.12-1.34 times DRAM's).
 * 0: neither case. Where the waves are counted, *drift gets what the same grid reads once its
 * groups have drifted apart in K (lruReads, drifted) when that is more than DRIFT_SLACK times the
 * waves' figure, else 0: how far the groups drift decides, which the model cannot tell (H200,
 * 4096: myGEMM 7 to 10 have the same tiles, grid and waves; 7 and 8 read the waves' figure,
 * 9 and 10 1.7 times it; the small-tile steps up to the drifted figure). */
static double dramReads(const Geometry *g, const Problem *p, const Waves *w, long long reuse_a, long long reuse_b,
                        double l2_bytes, double copies, double compulsory, double *drift, DramCount *how) {
   *drift = 0;
   *how = DRAM_UNCOUNTED;
   if (l2_bytes <= 0 || compulsory <= 0)
      return 0;
   const double c_bytes = (double)g->m * g->n * Precision_size(p->precision);
   const double c_read = p->beta != 0 ? c_bytes : 0;
   const long long planes = splitPlanes(g);
   const bool fit = planes > 0 ? (compulsory - c_read) / (double)planes <= l2_bytes : compulsory <= l2_bytes;
   TileGrid t;
   if (fit) {
      /* C's written lines (a split grid's planes of partial sums) stay in the L2 beside the
       * operands, whose lines it holds `copies` times: past that, the groups in step through
       * an LRU of the L2's size read again what it evicted (H200, ncu: operands read again
       * from about A + B + C = 40 MB on; 2048 in FP32 and TF32, and FP8 steps 1 and 2 at 4096,
       * within 5% of DRAM's reads, where each element once was 0.44-0.79 of them). */
      const double written = planes > 0 ? (double)g->workspace : c_bytes, per = planes > 0 ? (double)planes : 1;
      *how = planes > 0 ? DRAM_ONCE_PLANES : DRAM_ONCE;
      if (((compulsory - c_read) * copies + written) / per <= l2_bytes ||
          !tileGridOf(g, p, w, reuse_a, reuse_b, planes, &t))
         return compulsory;
      const double in_step = lruReads(g, p, &t, l2_bytes, false, copies);
      if (in_step <= compulsory)
         return compulsory;
      *how = DRAM_BESIDE_WRITES;
      return in_step;
   }
   if (!tileGridOf(g, p, w, reuse_a, reuse_b, 0, &t))
      return 0;
   double waves = waveReads(g, p, t.tm, t.tn, t.bm, t.bn, t.band, t.resident);
   if (waves <= 0)
      return 0;
   *how = DRAM_WAVES;
   /* The L2 keeps what a wave read for the waves after it, as far as its size allows with
    * the operands' lines in each of its `copies` and C's written lines beside them: the groups
    * in step through an LRU of the L2, never more than the waves' figure (H200, ncu at 4096:
    * the persistent grid's 64 x 128 tiles in bands of 32 rows 3.07 times DRAM's reads by the
    * waves, 0.99 so; its 128 x 160 tiles 1.10 to 1.07, Hopper step 5's 128 x 128 1.20 to
    * 1.08; at 3072 step 5's 64-column tiles 1.38 to 0.99; no row at 2048, 3072 or 4096 turned
    * away). */
   const double kept = lruReads(g, p, &t, l2_bytes, false, copies);
   if (kept > 0 && kept < waves)
      waves = kept, *how = DRAM_WAVES_KEPT;
   const double drifted = lruReads(g, p, &t, l2_bytes, true, 1);
   *drift = drifted > DRIFT_SLACK * waves ? drifted : 0;
   return waves;
}

/* NVIDIA's L2 from sm_80 (A100, H100, H200) is two partitions, each caching for its own
 * half of the SMs; a line is homed in one of them by its address, evenly over the two. A line
 * read from DRAM lands in its home; the blocks of a GEMM on both halves read it, so it
 * crosses the fabric to the other partition once, which keeps a copy for its own SMs. */
static bool twoPartitionL2(const DeviceInfo *dev) {
   int sm = 0;
   return dev->type == DEVICE_GPU && dev->vendor_kind == VENDOR_NVIDIA && sscanf(dev->arch, "sm_%d", &sm) == 1 &&
          sm >= 80;
}

/* The L2's copies of an operand's line (dramReads): two where it is two partitions. */
static double l2Copies(const DeviceInfo *dev) {
   return twoPartitionL2(dev) ? 2 : 1;
}

/* The bytes that cross the fabric between the L2's partitions: each line read from DRAM
 * once; a store goes to its line's home, so half of them cross. H200, ncu
 * (lts__t_sectors_srcunit_ltcfabric against DRAM's reads plus half the SMs' writes): within
 * 10% in 102 of 117 rows at 2048. The model's DRAM reads stand for DRAM's, the compulsory
 * ones where it has none. Said beside the L2's share, not in it: ncu's L2 throughput is the
 * busier of its lookups (where the fabric counts) and its output to the SMs (where it does
 * not), and added to the share it turned more rows away than towards ncu's (docs/limits.md,
 * "The fabric between the L2's partitions"). */
static double l2FabricBytes(const DeviceInfo *dev, const LimiterInputs *in) {
   if (!twoPartitionL2(dev))
      return 0;
   const double reads = in->dram_read_bytes > 0 ? in->dram_read_bytes : in->min_read_bytes;
   const double stores = in->store_bytes > 0 ? in->store_bytes : in->min_bytes - in->min_read_bytes;
   return reads + stores / 2;
}

double Limiter_clockShare(const Peaks *peaks, bool tensor, double run_mhz, double *share) {
   double at = !peaks || !peaks->known ? 0 : tensor && peaks->tensor_sm_mhz > 0 ? peaks->tensor_sm_mhz : peaks->sm_mhz;
   double f = at > 0 && run_mhz > 0 && run_mhz < at ? run_mhz / at : 1;
   if (share)
      *share = f;
   return f;
}

bool Limiter_loadsThroughL1(const DeviceInfo *dev, const KernelInfo *k) {
   return dev->type == DEVICE_GPU && dev->vendor_kind == VENDOR_NVIDIA && k->ntma == 0;
}

LimiterTrace LimiterTrace_of(const BankAnalysis *a, const Coalescing *loads, bool banked, const KernelInfo *k,
                             const long long *values, const Problem *traced, const DeviceInfo *dev) {
   LimiterTrace t = {0};
   t.load_ratio = loads && loads->total.requests ? loads->total.ratio : 0;
   if (!banked || !a || !a->nrequests)
      return t;
   t.bank_ratio = a->total.avg_degree;
   Geometry g;
   if (a->dropped || !Config_check(k, values, traced, &dev->limits, &g, NULL, 0))
      return t;
   double groups = 1, wavefronts = 0;
   for (int d = 0; d < g.dims; d++)
      groups *= g.local[d] ? (double)(g.global[d] / g.local[d]) : 1;
   for (size_t i = 0; i < a->nrequests; i++)
      if (a->requests[i].store && a->requests[i].count && !a->records[a->requests[i].first].async)
         wavefronts += a->requests[i].wavefronts;
   const double fmas = (double)g.m * g.n * g.k / groups * a->groups;
   t.store_wavefronts_per_fma = fmas > 0 ? wavefronts / fmas : 0;
   return t;
}

void Limiter_inputs(const DeviceInfo *dev, const KernelInfo *k, const long long *values, const Problem *p,
                    const LimiterRun *r, const Peaks *peaks, const LimiterTrace *trace, LimiterInputs *out) {
   static const LimiterTrace none = {0};
   if (!trace)
      trace = &none;
   memset(out, 0, sizeof *out);
   out->gflops = r->gflops;
   out->flops = 2.0 * p->m * p->n * p->k;
   out->peak_gflops = Peaks_hardwareFor(peaks, p->precision, k, r->geo.emulated, &out->peak_label);
   out->peak_gflops *= Limiter_clockShare(peaks, k->tensor, r->sm_mhz, &out->clock_share);
   out->copy_gbps = peaks && peaks->known ? peaks->copy_gbps : 0;
   out->local_gbps = peaks && peaks->known ? peaks->local_gbps : 0;
   out->l2_gbps = peaks && peaks->known ? peaks->l2_gbps : 0;
   out->launch_us = peaks && peaks->known ? peaks->launch_us : 0;
   out->median_ms = r->median_ms;
   double in = (double)Precision_inputSize(p->precision), c = (double)Precision_size(p->precision);
   out->min_read_bytes = ((double)Problem_sizeA(p) + (double)Problem_sizeB(p)) * in +
                         (p->beta != 0 ? (double)Problem_sizeC(p) * c : 0);
   out->min_bytes = out->min_read_bytes + (double)Problem_sizeC(p) * c;
   TrafficModel t;
   char err[256];
   long long reuse_a = 0, reuse_b = 0; /* the model's tiles, for the DRAM reads below */
   if (Traffic_model(k, values, p, &dev->limits, &t, err, sizeof err) && t.known) {
      reuse_a = t.reuse_a, reuse_b = t.reuse_b;
      Traffic_ablate(&t, r->ablate, p);
      out->model_bytes = out->flops / t.flops_per_byte;
      out->l2_model_bytes = out->model_bytes;
      if (t.local_known) /* local reads per multiply-add, each of an input element */
         out->local_bytes = out->flops / 2 * t.local_reads_per_fma * in;
      /* TMA writes each tile it loads into shared memory, through the same unit. With wgmma's
       * reads (`local_reuse:`), ncu's L1 throughput on the H200 implied 0.6-1.4 times these
       * bytes for the wgmma steps (median 0.8); without them 3xTF32, whose split into high and
       * low halves makes the L1 its busiest unit, read as compute. */
      if (k->ntma > 0)
         out->smem_fill_bytes = out->flops / 2 * t.loads_per_fma * in;
      double footprint = dev->type == DEVICE_GPU && !r->ablate ? groupFootprintBytes(&r->geo, &t, p) : 0;
      if (footprint > 0 && footprint < out->model_bytes) {
         out->l2_model_bytes = footprint;
         if (dev->vendor_kind == VENDOR_NVIDIA)
            out->l1_bytes = out->model_bytes - footprint;
      }
      /* Every load that is not TMA's passes the L1's data stage, hit or miss (H200, ncu: the
       * LSU's wavefronts of 01-naive and DCU steps 1-3 are their loads' lines per phase). */
      if (Limiter_loadsThroughL1(dev, k))
         out->lsu_load_bytes = out->flops / 2 * t.loads_per_fma * in;
      /* One instruction per FMA and per local read: where the SIMT pipes' issue slots go. */
      if (t.local_known && !k->tensor)
         out->issue_per_fma = 1 + t.local_reads_per_fma;
      /* A DFMA takes one issue slot as an FFMA does, at half the rate (H200, ncu: FP64
       * fast-02 sat in the L1 at 72%, its FMA pipe's share times the loads 85%). */
      if (out->issue_per_fma > 1 && peaks && peaks->known && peaks->gflops[PEAK_FP32] > 0)
         out->issue_gflops = peaks->gflops[PEAK_FP32] * out->clock_share;
   }
   out->one_block_per_unit = Waves_takesUnitWhole(k);
   out->tma_loads = k->ntma > 0;
   out->tma_staggered = out->tma_loads && r->geo.staggered;
   /* Where a fix-up writes C, the kernel itself stores the workspace's partial sums. */
   out->store_bytes = r->geo.fixup_dims > 0 && r->geo.workspace > 0 ? (double)r->geo.workspace : 0;
   long long local = r->local_mem >= 0 ? r->local_mem : r->geo.localmem;
   out->waves = Waves_of(dev, &r->geo, r->registers, local);
   out->tma_l2_share = out->tma_loads ? tmaL2Share(k, &r->geo, &out->waves) : 0;
   out->occupancy = out->waves.known ? out->waves.occupancy : 0;
   out->bank_ratio = trace->bank_ratio;
   out->load_ratio = out->lsu_load_bytes > 0 ? trace->load_ratio : 0;
   /* Stores count where the local memory is the L1's unit as the loads do (NVIDIA), for a
    * kernel whose local traffic goes with its multiply-adds (`local_reuse:`): a decode
    * kernel's reductions do not scale from the trace's small problem. */
   if (dev->type == DEVICE_GPU && dev->vendor_kind == VENDOR_NVIDIA && out->local_bytes > 0)
      out->store_wavefronts = out->flops / 2 * trace->store_wavefronts_per_fma;
   out->l2_bytes = (double)dev->l2_bytes;
   /* DRAM's waves count the groups that the registers and the static local memory admit to
    * a unit, not the dynamic ring that keeps a wgmma kernel at one: the window of tiles whose
    * rows and columns the L2 serves together is wider than what is resident, and this count
    * is the one ncu agreed with (H200, 4096: with the ring counted, the 64-row tiles read
    * 1.2-1.5 times DRAM's, the decode rings up to 7 times, and an LRU of the L2's size, or of
    * half of it, carried across the waves fell short of DRAM's: docs/limits.md). A ring that
    * leaves two or more groups a unit is not that case: the waves count the groups resident
    * (Hopper step 2's three stages, two groups where the registers admit three: 0.73-0.82
    * times DRAM's reads at 3072 and 4096 by the window, 0.91-1.00 by what is resident). */
   Geometry window = r->geo;
   window.dynamic_smem = 0;
   const Waves dramWaves =
       out->waves.known && out->waves.per_unit >= 2 ? out->waves : Waves_of(dev, &window, r->registers, local);
   out->dram_read_bytes = dev->type == DEVICE_GPU && reuse_a > 0
                             ? dramReads(&r->geo, p, &dramWaves, reuse_a, reuse_b, out->l2_bytes, l2Copies(dev),
                                         out->min_read_bytes, &out->dram_drift_bytes, &out->dram_count)
                             : 0;
   out->l2_fabric_bytes = l2FabricBytes(dev, out);
   /* The banks' bandwidth at the clock the ceilings were measured at: a bound no kernel passes. */
   BankModel bm = BankModel_forDevice(dev);
   if (bm.known && dev->type == DEVICE_GPU && peaks && peaks->known && peaks->sm_mhz > 0 && dev->compute_units > 0)
      out->local_banks_gbps = (double)dev->compute_units * bm.banks * bm.bank_width * peaks->sm_mhz * 1e6 / 1e9;
}

/* A ceiling's column: its share, or above it no share (the figure is not a measurement). */
static void shareColumn(char *out, size_t len, const char *name, OverCause over, double used) {
   if (over)
      snprintf(out, len, "%s >100%%", name);
   else
      snprintf(out, len, "%s %.0f%%", name, 100 * used);
}

void Limiter_column(const Limiter *l, const LimiterInputs *in, char *out, size_t len) {
   switch (l->kind) {
   case LIMIT_LAUNCH: snprintf(out, len, "launch %.0f%%", 100 * l->launch_share); break;
   case LIMIT_TAIL: snprintf(out, len, "tail %.0f%%", 100 * l->busy); break;
   case LIMIT_COMPUTE:
      if (!l->compute_over && l->issue_used > l->compute_used)
         snprintf(out, len, "issue %.0f%%", 100 * l->issue_used);
      else
         shareColumn(out, len, "compute", l->compute_over, l->compute_used);
      break;
   case LIMIT_MEMORY: shareColumn(out, len, "memory", l->memory_over, l->memory_used); break;
   case LIMIT_L2: shareColumn(out, len, "L2", l->l2_over, l->l2_used); break;
   case LIMIT_LOCAL: shareColumn(out, len, "local", l->local_over, l->local_used); break;
   case LIMIT_BANKS: snprintf(out, len, "banks %.1fx", in->bank_ratio); break;
   case LIMIT_OCCUPANCY: snprintf(out, len, "occupancy %.0f%%", 100 * in->occupancy); break;
   default: snprintf(out, len, "%s", LimitKind_name(l->kind)); break;
   }
}

void Limiter_ofCandidate(const DeviceInfo *dev, const KernelInfo *k, const Problem *p, const SweepCandidate *c,
                         const Peaks *peaks, LimiterInputs *in, Limiter *out) {
   /* The registers its build reported, where the run gave them: without them no waves, and
    * no DRAM count (a decode at 90% of the copy bandwidth read as latency-bound). The clock
    * its launches held, as explain takes a run's: a throttled GPU's compute ceiling is lower. */
   LimiterRun r = {.gflops = c->outcome == SWEEP_OK ? c->gflops : 0, .median_ms = c->median_ms,
                   .registers = c->registers > 0 ? c->registers : -1,
                   .local_mem = c->registers > 0 && c->local_mem >= 0 ? c->local_mem : -1,
                   .sm_mhz = c->sm_mhz > 0 ? c->sm_mhz : 0};
   Config_check(k, c->values, p, &dev->limits, &r.geo, NULL, 0);
   Limiter_inputs(dev, k, c->values, p, &r, peaks, NULL, in);
   Limiter_of(in, out);
}

/* ---- the roofline as an image ---- */

typedef struct Axes_ {
   int left, top, w, h;
   double x0, x1, y0, y1;     /* decades: log10 of the ends */
} Axes;

static int ax(const Axes *a, double v) { return a->left + (int)(a->w * (log10(v) - a->x0) / (a->x1 - a->x0) + 0.5); }
static int ay(const Axes *a, double v) { return a->top + a->h - (int)(a->h * (log10(v) - a->y0) / (a->y1 - a->y0) + 0.5); }

char *Limiter_svg(const LimiterInputs *in, const Limiter *l, const char *title, const char *label) {
   if (!(in->peak_gflops > 0) || !(in->copy_gbps > 0) || !(in->gflops > 0))
      return NULL;
   const double ridge = in->peak_gflops / in->copy_gbps;
   double xmin = ridge / 100, xmax = ridge * 100;
   if (l->intensity > 0)
      xmin = fmin(xmin, l->intensity / 4), xmax = fmax(xmax, l->intensity * 4);
   if (l->intensity_min > 0)
      xmin = fmin(xmin, l->intensity_min / 4), xmax = fmax(xmax, l->intensity_min * 4);
   Axes a = {.left = 90, .top = 70, .w = 600, .h = 380, .x0 = floor(log10(xmin)), .x1 = ceil(log10(xmax)),
             .y0 = floor(log10(fmin(in->gflops, in->peak_gflops) / 100)), .y1 = ceil(log10(in->peak_gflops * 1.5))};
   const int width = a.left + a.w + 40, height = a.top + a.h + 134;
   TextBuf t = {0};
   Svg_begin(&t, width, height, title);
   TextBuf_put(&t, "<text x=\"10\" y=\"42\" fill=\"#555\">measured ceilings: %s %.4g GFLOPS, copy %.4g GB/s "
                   "(ridge at %.3g flops per byte)",
               in->peak_label ? in->peak_label : "", in->peak_gflops, in->copy_gbps, ridge);
   if (in->l2_gbps > 0)
      TextBuf_put(&t, ", L2 %.4g GB/s", in->l2_gbps);
   TextBuf_put(&t, "</text>\n");
   for (int d = (int)a.x0; d <= (int)a.x1; d++) {
      const int x = ax(&a, pow(10, d));
      TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, a.top, x, a.top + a.h);
      TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">%g</text>\n", x, a.top + a.h + 16,
                  pow(10, d));
   }
   for (int d = (int)a.y0; d <= (int)a.y1; d++) {
      const int y = ay(&a, pow(10, d));
      TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", a.left, y, a.left + a.w, y);
      TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#333\">%g</text>\n", a.left - 6, y + 4,
                  pow(10, d));
   }
   TextBuf_put(&t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>\n", a.left,
               a.top, a.w, a.h);
   TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">flops per byte of global "
                   "traffic (log)</text>\n", a.left + a.w / 2, a.top + a.h + 38);
   TextBuf_put(&t, "<text transform=\"translate(22,%d) rotate(-90)\" text-anchor=\"middle\" font-weight=\"bold\">GFLOPS "
                   "(log)</text>\n", a.top + a.h / 2);
   /* The roof: the bandwidth's slope from the left edge to the ridge, then the peak. */
   const double xl = pow(10, a.x0), xr = pow(10, a.x1);
   double yl = xl * in->copy_gbps, xs = xl;
   if (yl < pow(10, a.y0)) /* the slope enters through the bottom */
      xs = pow(10, a.y0) / in->copy_gbps, yl = pow(10, a.y0);
   TextBuf_put(&t, "<polyline points=\"%d,%d %d,%d %d,%d\" fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"3\"/>\n",
               ax(&a, xs), ay(&a, yl), ax(&a, ridge), ay(&a, in->peak_gflops), ax(&a, xr), ay(&a, in->peak_gflops));
   /* The L2's roof, where it is above the memory's: dashed, from its own ridge. */
   if (in->l2_gbps > in->copy_gbps) {
      const double r2 = in->peak_gflops / in->l2_gbps;
      double y2 = xl * in->l2_gbps, x2 = xl;
      if (y2 < pow(10, a.y0))
         x2 = pow(10, a.y0) / in->l2_gbps, y2 = pow(10, a.y0);
      TextBuf_put(&t, "<polyline points=\"%d,%d %d,%d\" fill=\"none\" stroke=\"#7f9fcf\" stroke-width=\"2\" "
                      "stroke-dasharray=\"6 4\"/>\n",
                  ax(&a, x2), ay(&a, y2), ax(&a, r2), ay(&a, in->peak_gflops));
      TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" fill=\"#7f9fcf\" transform=\"rotate(-30 %d %d)\">L2 %.4g GB/s</text>\n",
                  ax(&a, x2) + 14, ay(&a, y2) - 10, ax(&a, x2) + 14, ay(&a, y2) - 10, in->l2_gbps);
   }
   TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#1f5fbf\">%s peak %.4g GFLOPS</text>\n",
               a.left + a.w - 6, ay(&a, in->peak_gflops) - 6, in->peak_label ? in->peak_label : "", in->peak_gflops);
   TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" fill=\"#1f5fbf\" transform=\"rotate(-30 %d %d)\">copy %.4g GB/s</text>\n",
               ax(&a, xs) + 14, ay(&a, yl) - 10, ax(&a, xs) + 14, ay(&a, yl) - 10, in->copy_gbps);
   /* The configuration: filled at the model's intensity, hollow at the compulsory one. */
   if (l->intensity_min > 0)
      TextBuf_put(&t, "<circle cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"white\" stroke=\"#c0392b\" stroke-width=\"2\">"
                      "<title>if each element moved once: %.3g flops per byte</title></circle>\n",
                  ax(&a, l->intensity_min), ay(&a, in->gflops), l->intensity_min);
   if (l->intensity > 0) {
      TextBuf_put(&t, "<circle cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"#c0392b\"><title>the model: %.3g flops per byte"
                      "</title></circle>\n",
                  ax(&a, l->intensity), ay(&a, in->gflops), l->intensity);
   }
   TextBuf_put(&t, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">limit: ", a.top + a.h + 66);
   TextBuf_putXml(&t, l->brief);
   TextBuf_put(&t, "</text>\n<text x=\"10\" y=\"%d\" fill=\"#555\">", a.top + a.h + 86);
   TextBuf_putXml(&t, l->headroom);
   TextBuf_put(&t, "</text>\n<text x=\"10\" y=\"%d\" fill=\"#c0392b\">&#x25CF; ", a.top + a.h + 104);
   TextBuf_putXml(&t, label);
   TextBuf_put(&t, ": %.4g GFLOPS", in->gflops);
   if (l->intensity > 0)
      TextBuf_put(&t, " at %.3g flops per byte (the access-count model)", l->intensity);
   TextBuf_put(&t, "</text>\n<text x=\"10\" y=\"%d\" fill=\"#c0392b\">&#x25CB; the same at %.3g flops per byte: each "
                   "element of A, B and C moved once</text>\n",
               a.top + a.h + 122, l->intensity_min);
   return Svg_finish(&t);
}
