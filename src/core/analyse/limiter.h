/* What limits a measured configuration, without hardware counters: the measurement put
 * against the device's measured ceilings (compute peak, copy and L2 bandwidth) through the
 * access-count model (core/analyse/traffic.h: flops per byte of global traffic, and the compulsory
 * minimum of each element once), how the launch fills the GPU (core/analyse/waves.h) and its
 * occupancy, and the bank trace's wavefronts when there is one. The limiter is named in
 * words with the headroom to the next ceiling. The rules, in order (docs/limits.md):
 *   1. the launch itself: an empty kernel's launch is half the time or more;
 *   2. the tail: fewer than 60% of the GPU's slots busy on average (waves);
 *   3. the ceiling nearest to being met, compute (the FMAs, or the issue slots they share
 *      with the local loads), global memory, the L2 or local memory (with the L1's loads),
 *      when at 60% or more;
 *   4. local-memory bank conflicts: 1.5 times the ideal wavefronts or more;
 *   5. too few warps to hide latency: occupancy under 25% (not for kernels built for one
 *      block per unit);
 *   6. else latency and overhead: no ceiling is near.
 * A figure above a measured ceiling is not a measurement: no kernel exceeds the hardware,
 * so either the ceiling's micro-kernel falls short of it or the model counts traffic that a
 * cache it does not see serves. The limiter says which (OverCause) instead of a share
 * above 100%.
 * Pure: no device. */
#ifndef GEMMTOP_LIMITER_H
#define GEMMTOP_LIMITER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/run/peaks.h"
#include "core/sweep/sweep.h"
#include "core/analyse/traffic.h"
#include "core/analyse/waves.h"

typedef enum {
   LIMIT_UNKNOWN = 0,  /* nothing measured */
   LIMIT_LAUNCH,
   LIMIT_TAIL,
   LIMIT_COMPUTE,
   LIMIT_MEMORY,
   LIMIT_LOCAL,
   LIMIT_BANKS,
   LIMIT_OCCUPANCY,
   LIMIT_LATENCY,
   LIMIT_L2,
   LIMIT_KINDS
} LimitKind;

/* "launch", "tail", "compute", "memory", "local memory", "bank conflicts", "occupancy",
 * "latency", "L2". */
const char *LimitKind_name(LimitKind k);

/* Why a figure is above a measured ceiling, when it is. */
typedef enum {
   OVER_NONE = 0,
   OVER_CEILING, /* the ceiling's micro-kernel falls short of the hardware */
   OVER_CACHE,   /* the model counts traffic that a cache it does not see serves */
   OVER_UNSURE   /* one of the two; nothing here tells which */
} OverCause;

/* "ceiling", "cache", "unsure" (JSON, CSV); NULL for OVER_NONE. */
const char *OverCause_name(OverCause c);
/* The cause in words for ceiling (LIMIT_COMPUTE, LIMIT_MEMORY or LIMIT_LOCAL): "the copy
 * micro-kernel falls short of the hardware"; "" for OVER_NONE. */
const char *Limiter_overWhy(LimitKind ceiling, OverCause c);

/* How the model counts DRAM's reads (dramReads, limiter.c). */
typedef enum {
   DRAM_UNCOUNTED = 0,
   DRAM_ONCE,            /* A and B (and C when read) fit in the L2: each element once */
   DRAM_ONCE_PLANES,     /* each split-K plane's slices of A and B fit: each element once */
   DRAM_BESIDE_WRITES,   /* they fit, but not in each of the L2's copies beside what the kernel writes
                            (C, or the planes' partial sums): read again as an LRU of the L2 evicts */
   DRAM_WAVES,           /* they do not fit: each wave of resident groups reads its rows and columns */
   DRAM_WAVES_KEPT       /* so, less what an LRU of the L2 (its copies, C's written lines) keeps from
                            one wave for the next */
} DramCount;

/* "none", "once", "once_planes", "beside_writes", "waves", "waves_kept" (JSON). */
const char *DramCount_name(DramCount c);

typedef struct LimiterInputs_ {
   double gflops;              /* measured (0: nothing to explain) */
   double flops;               /* of one launch: 2 M N K */
   double peak_gflops;         /* the compute ceiling (Peaks_for); 0 unknown */
   const char *peak_label;     /* "FP32", "TF32 tensor" */
   double clock_share;         /* the run's SM clock over the one the peak was measured at, when lower
                                  (the driver's median during the timed launches; the peak is scaled by
                                  it: a power cap lowers the ceiling itself); 1 otherwise */
   double copy_gbps;           /* the measured copy bandwidth; 0 unknown */
   double l2_gbps;             /* the measured L2 read bandwidth; 0 unknown */
   double model_bytes;         /* the access-count model's global bytes of one launch; 0 unknown */
   double min_bytes;           /* each element of A, B and C moved once */
   double min_read_bytes;      /* of those, the reads: A and B, and C when beta is not 0 */
   double l2_model_bytes;      /* the model's bytes that reach the L2: model_bytes, less the loads the L1
                                  serves (l1_bytes); 0 unknown */
   double l1_bytes;            /* the model's global loads that the L1 serves: reuse inside a work-group's
                                  footprint of a kernel without local memory (on NVIDIA the L1 is the
                                  local memory's unit: they count against its ceiling); 0 none */
   double lsu_load_bytes;      /* the model's global loads of A and B that pass the L1's data stage, hit or
                                  miss (NVIDIA, loads that are not TMA's): they count against the local
                                  memory's ceiling, at load_ratio wavefronts per 128 bytes; 0 none */
   double load_ratio;          /* those loads' wavefronts over their bytes / 128 (the coalescing trace,
                                  core/analyse/coalesce.h); 0 unknown (taken as 1) */
   double store_wavefronts;    /* local-memory store wavefronts of one launch (the bank trace's, per
                                  multiply-add of the traced group times the launch's): a kernel that stages
                                  its loads through local memory writes each tile once; 0 unknown */
   double issue_per_fma;       /* instructions issued per multiply-add: the FMA and one load per local read
                                  (SIMT kernels with `local_reuse:`); 0 unknown */
   double issue_gflops;        /* the SM's instruction rate as multiply-adds (the FP32 peak, one instruction
                                  a lane a clock, at the run's clock): issue slots are counted against it, a
                                  kernel's FMA peak being lower where its type's pipe is narrower (FP64); 0:
                                  the kernel's own peak */
   bool tma_loads;             /* A and B come through TMA (`tma:` lines): the L2 answers requests for a line
                                  that arrive together once, so it sees fewer bytes than the model's loads */
   bool tma_staggered;         /* with tma_loads: the blocks stand at different K steps (`staggered:`,
                                  stream-K), so the L2 answers every TMA request */
   double tma_l2_share;        /* with tma_loads: the share of TMA's loaded bytes the L2 answers (the
                                  others it merged with a request for the same line): 1 staggered, less
                                  for blocks that move together (tmaL2Share, limiter.c); 0: two thirds */
   double store_bytes;         /* what one launch stores: C, or where a fix-up writes C the workspace's partial
                                  sums (`workspace:`); 0 unknown */
   bool one_block_per_unit;    /* wgmma with warp specialisation (`arch: sm_90a`, tensor): one block per
                                  unit by design, its occupancy no limiter, its tail in units
                                  (Waves_byUnit) */
   double local_gbps;          /* the measured local-memory bandwidth (no conflicts); 0 unknown */
   double local_bytes;         /* the model's local-memory reads of one launch (`local_reuse:`); 0 unknown */
   double smem_fill_bytes;     /* what TMA copies into shared memory in one launch (the model's loads of A
                                  and B, `tma:` lines): the copies pass through the local memory's unit as
                                  wgmma's reads of them do; 0 none */
   double median_ms;           /* one launch's measured time; 0 unknown */
   double launch_us;           /* an empty kernel's launch on the device; 0 unknown */
   Waves waves;                /* .known false: not a GPU the table knows */
   double occupancy;           /* resident warps over the most; 0 unknown */
   double bank_ratio;          /* local-memory wavefronts over the ideal (bank trace); 0 unknown */
   double l2_bytes;            /* the device's L2 size; 0 unknown */
   double dram_read_bytes;     /* the model's reads from DRAM: the compulsory ones where A, B (and C when read)
                                  fit in the L2, else, for a plain 2-D grid of tiles, each wave of resident
                                  groups reading its rows of A and columns of B again (dramReads, limiter.c);
                                  0 unknown */
   DramCount dram_count;       /* how dram_read_bytes was counted */
   double dram_drift_bytes;    /* what the same grid reads once its groups have drifted apart in K, where
                                  that is more than 10% beyond dram_read_bytes: the reads lie between the
                                  two, and the model cannot tell where; 0: dram_read_bytes alone */
   double l2_fabric_bytes;     /* what crosses between the L2's two partitions (NVIDIA from sm_80): each line
                                  read from DRAM once, half the stores; said beside the L2's share, not in
                                  it; 0 one partition or unknown */
   double local_banks_gbps;    /* what the banks give at the measured clock (units x banks x width x clock):
                                  a bound no micro-kernel passes; 0 unknown */
} LimiterInputs;

typedef struct Limiter_ {
   LimitKind kind;
   double compute_used;        /* of the peak; -1 unknown */
   double issue_used;          /* the issue slots' use: compute_used x issue_per_fma; -1 unknown */
   double memory_used;         /* of the copy bandwidth, by the model's bytes (the minimum's when caches
                                  must serve the model's, see caches); -1 unknown */
   double memory_used_min;     /* by the compulsory bytes; -1 unknown */
   bool caches;                /* the model's bytes would exceed the bandwidth: caches serve part of them */
   double l2_used;             /* of the L2 bandwidth, by the model's bytes (every load asks the L2, unless the
                                  L1 serves it); -1 unknown, or when they would exceed it (see l1) */
   bool l1;                    /* the model's bytes would exceed the L2's bandwidth: the L1 serves part of them */
   double l2_used_all;         /* by all of the model's bytes, where l2_used counts a share of its loads (TMA);
                                  -1 otherwise */
   double local_used;          /* of the local bandwidth, the reads times the bank conflicts' ratio; -1 unknown */
   double launch_share;        /* an empty launch's time over the measured one; -1 unknown */
   double intensity;           /* flops per byte by the model; 0 unknown */
   double intensity_min;       /* by the compulsory bytes */
   double attainable_gflops;   /* the roofline at the model's intensity: min(peak, intensity x bandwidth) */
   double busy;                /* the slots' average use (waves); 1 when unknown */
   OverCause compute_over;     /* compute_used above 1: why (the flops are exact: the ceiling) */
   OverCause memory_over;      /* memory_used above 1: why */
   OverCause local_over;       /* local_used above 1: why */
   OverCause l2_over;          /* l2_used above 1 (up to CACHE_SLACK, past which the L2 is not judged): why */
   char words[256];            /* the limiter in a sentence */
   char brief[96];             /* the same in a few words ("compute: 85% of the FP32 peak") */
   char headroom[256];         /* the next ceiling in a sentence ("" none) */
} Limiter;

void Limiter_of(const LimiterInputs *in, Limiter *out);
/* The limiter for a table's column: "compute 85%", "memory 91%", "local 80%", "launch 80%",
 * "tail 48%", "banks 2.0x", "occupancy 12%", "latency"; "local >100%" where the figure is
 * above the ceiling. */
void Limiter_column(const Limiter *l, const LimiterInputs *in, char *out, size_t len);
/* The limiter of a sweep's configuration c of k on p, measured on dev: from its figures and
 * the geometry the rules give it (no registers: no waves, no occupancy). */
void Limiter_ofCandidate(const DeviceInfo *dev, const KernelInfo *k, const Problem *p, const SweepCandidate *c,
                         const Peaks *peaks, LimiterInputs *in, Limiter *out);

/* The roofline as an SVG image for slides: log-log, GFLOPS against flops per byte, the
 * measured ceilings as the roof with their figures, the configuration at the model's
 * intensity (filled) and at the compulsory one (hollow), label naming it, the limiter as
 * the caption. NULL when the ceilings are not measured (no roof to draw) or out of
 * memory. The caller frees it. */
char *Limiter_svg(const LimiterInputs *in, const Limiter *l, const char *title, const char *label);

/* What the limiter needs of a measurement: a run's result (LimiterRun_of), a sweep's
 * candidate, or the explorer's latest figures. */
typedef struct LimiterRun_ {
   double gflops, median_ms;
   Geometry geo;
   int registers;            /* per work-item; -1 unknown */
   long long local_mem;      /* bytes per group; -1: the geometry's */
   unsigned ablate;          /* AblateFlag bits */
   double sm_mhz;            /* the SM clock during the timed launches (the driver's median); 0 unknown */
} LimiterRun;

LimiterRun LimiterRun_of(const RunResult *r);

/* The compute ceiling's share left at the clock a run held: run_mhz over the SM clock the
 * peaks were measured at (the tensor micro-kernels' own for a tensor kernel), when lower
 * and both known; else 1. share, when given, receives the same. */
double Limiter_clockShare(const Peaks *peaks, bool tensor, double run_mhz, double *share);

/* What a trace of one work-group says (explain's; explain --judge-ms takes them as options);
 * each 0 unknown. */
typedef struct LimiterTrace_ {
   double bank_ratio;          /* local-memory wavefronts over the ideal */
   double load_ratio;          /* the global loads' L1 wavefronts over their bytes / 128 */
   double store_wavefronts_per_fma; /* local-memory store wavefronts per multiply-add */
} LimiterTrace;

/* What a trace of one work-group tells the limiter (explain's and the explorer's bank
 * trace, BankAnalysis_ofConfig): the conflicts where the kernel uses local memory and the
 * bank model is the device's (banked), the loads' coalescing where loads holds some, and
 * the local stores per multiply-add of the traced groups (not cp.async's: its load and
 * store are one instruction, whose load the global loads count) on the problem traced. */
struct BankAnalysis_;
struct Coalescing_;
/* Whether k's global loads pass the L1's data stage, the local memory's unit, on dev (an
 * NVIDIA GPU, loads that are not TMA's): then they count against its ceiling, and a trace
 * takes them to say how they coalesce. */
bool Limiter_loadsThroughL1(const DeviceInfo *dev, const KernelInfo *k);
LimiterTrace LimiterTrace_of(const struct BankAnalysis_ *a, const struct Coalescing_ *loads, bool banked,
                             const KernelInfo *k, const long long *values, const Problem *traced,
                             const DeviceInfo *dev);

/* The inputs of a measurement m of k with values on p, on dev: the traffic model, the
 * waves and occupancy from its build, the peaks given, what a trace says (NULL: none). */
void Limiter_inputs(const DeviceInfo *dev, const KernelInfo *k, const long long *values, const Problem *p,
                    const LimiterRun *m, const Peaks *peaks, const LimiterTrace *trace, LimiterInputs *out);

#endif
