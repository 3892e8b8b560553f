/* The device's peaks, measured by gemmtop's own micro-kernels (never from a datasheet):
 * FP32 and FP64 multiply-add rates, copy, read and L2 bandwidth, local memory, an empty
 * launch and, on NVIDIA GPUs with tensor cores (sm_80 and newer), the mma.sync rates of
 * TF32, half and bfloat16 (and e4m3 from sm_89); on Hopper through the CUDA backend, the
 * wgmma rates of the same types, which kernels built for sm_90a are put against. Cached per
 * device and driver in $XDG_CACHE_HOME/gemmtop/peaks/, since a measurement takes a while:
 * several seconds on a GPU, about a minute on a laptop's CPU (each measurement keeps how
 * long it took, for the next to say). */
#ifndef GEMMTOP_PEAKS_H
#define GEMMTOP_PEAKS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/run/session.h"

typedef struct Peaks_ {
   bool known;
   /* Each compute peak (core/types.h: PeakKind), 0 when unknown or absent: FP32 and FP64
    * (0 on a device without double) by FMA chains; the tensor cores' through back-to-back
    * mma.sync with FP32 accumulation (NVIDIA sm_80 and newer; 0 elsewhere): TF32 m16n8k8,
    * half and bfloat16 m16n8k16. */
   double gflops[PEAK_KINDS];
   double copy_gbps;     /* bytes read + bytes written per second */
   double read_gbps;     /* bytes read per second from a buffer far larger than the caches; 0 unknown */
   double l2_gbps;       /* bytes read per second from a working set inside the L2; 0 unknown */
   double local_gbps;    /* local (shared) memory read without conflicts, bytes per second; 0 unknown */
   double launch_us;     /* device time of an empty kernel's launch, microseconds; 0 unknown */
   /* The wgmma rates (Hopper, sm_90a, through the CUDA backend; 0 elsewhere or unknown):
    * TF32, F16, BF16 and FP8 (e4m3), m64n256 products from shared memory, FP32
    * accumulation. */
   double wgmma_gflops[PEAK_KINDS];
   /* Each ceiling the device has that was not measured, and why ("wgmma bf16 ceiling: the
    * micro-kernel did not finish in 5 s: abandoned; ..."); "" when none. */
   char not_measured[512];
   char measured_at[32]; /* date of the measurement, YYYY-MM-DD HH:MM */
   double sm_mhz;        /* the SM (graphics) clock the driver reported while measuring (median); 0 unknown */
   double mem_mhz;       /* the memory clock it reported; 0 unknown */
   double tensor_sm_mhz; /* the SM clock it reported while the tensor micro-kernels ran (they draw the most
                            power, and the clock may fall); 0 unknown */
   double seconds;       /* how long the measurement took; 0 unknown */
} Peaks;

/* The measured peak that a run of kernel k (may be NULL: no tensor cores) in precision p
 * is put against: for a tensor kernel on tensor cores, the type's wgmma peak when k is
 * built for sm_90a (`arch:`, Hopper's wgmma; 0 until it is measured: never mma.sync's
 * lower rate in its place) and its mma.sync peak otherwise; none for an emulated one
 * (emulated true); else FP64 for double and FP32 for the rest. 0 when unknown. */
double Peaks_for(const Peaks *peaks, Precision p, const KernelInfo *k, bool emulated);
/* What Peaks_for chose: "FP32", "FP64", "TF32 tensor", "half tensor", "bfloat16 tensor",
 * "FP8 tensor" (mma.sync), "bfloat16 wgmma"... */
const char *Peaks_label(Precision p, const KernelInfo *k, bool emulated);
/* The rate the hardware can give k's instructions, for the limiter: Peaks_for's, except
 * for FP32 on wgmma (3xTF32), whose every flop costs three TF32 products: a third of the
 * TF32 wgmma peak (Peaks_for keeps FP32's there, the figure 3xTF32 is compared with). Its
 * words in *label. 0 when unknown. */
double Peaks_hardwareFor(const Peaks *peaks, Precision p, const KernelInfo *k, bool emulated, const char **label);
/* A GEMM of p timed at ms against the memory: the bytes it must move (A and B read once, C
 * written, and read too when beta is not 0) per second, as a fraction of the measured copy
 * bandwidth (and in *read_share, when not NULL, of the read bandwidth; 0 when unknown).
 * 0 when the peaks are unknown. What `bound: memory` kernels report beside % of the vendor. */
double Peaks_copyShare(const Peaks *peaks, const Problem *p, double ms, double *read_share);

/* Whether the figures contradict each other, as no device's do: FP64 faster than FP32, a
 * tensor rate below the FP32 one it should multiply, the L2 slower than memory. Such
 * figures come from a measurement disturbed (a loaded machine, clocks that changed): why
 * names the figures and says to measure again on a quiet device. False when consistent. */
bool Peaks_contradict(const Peaks *p, char *why, size_t whylen);
/* How long a measurement of the peaks should take on dev, in seconds: as the last one did
 * when it was kept (cached), else a GPU's few seconds or a CPU's minute. */
double Peaks_expectedSeconds(const DeviceInfo *dev, const Peaks *cached);


/* Runs the micro-kernels now and stores the result (false, err naming it, when the FP32 or
 * FP64 rate or the copy bandwidth cannot be measured: nothing is stored). Each wait for a
 * micro-kernel is limited (5 s): one that does not finish is abandoned and named in
 * out->not_measured, with those that could not run after it (the session is then stuck,
 * Session_stuck); the ceilings measured before it are kept and stored. */
bool Peaks_measure(Session *s, const Catalog *cat, Peaks *out, char *err, size_t errlen);
/* The cached figures of this device (known == false when never measured). */
bool Peaks_cached(const DeviceInfo *dev, const char *backend, Peaks *out);

#endif
