#include "core/run/peaks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/observe.h"
#include "core/run/ablate.h"
#include "base/util.h"

static bool cachePath(const DeviceInfo *dev, const char *backend, char *out, size_t len, bool create) {
   char dir[2048];
   if (!Util_userDir("cache", dir, sizeof dir))
      return false;
   char sub[2100];
   snprintf(sub, sizeof sub, "%s/peaks", dir);
   if (create && !Util_mkdirs(sub))
      return false;
   unsigned long long h = Util_hash(UTIL_HASH_INIT, backend, strlen(backend));
   h = Util_hash(h, dev->name, strlen(dev->name));
   h = Util_hash(h, dev->platform, strlen(dev->platform));
   h = Util_hash(h, dev->driver, strlen(dev->driver));
   return snprintf(out, len, "%s/%016llx.txt", sub, h) < (int)len;
}

bool Peaks_cached(const DeviceInfo *dev, const char *backend, Peaks *out) {
   memset(out, 0, sizeof *out);
   char path[2300];
   if (!cachePath(dev, backend, path, sizeof path, false))
      return false;
   char why[160];
   char *text = Util_readUserFile(path, UTIL_MAX_TEXT_BYTES, NULL, why, sizeof why);
   if (!text)
      return false;
   Peaks p = {0};
   int n = sscanf(text, "fp32_gflops %lf\nfp64_gflops %lf\ncopy_gbps %lf\nmeasured %31[^\n]", &p.gflops[PEAK_FP32],
                  &p.gflops[PEAK_FP64], &p.copy_gbps, p.measured_at);
   /* Files written before the tensor peaks have none: they stay 0. */
   const char *t = strstr(text, "\ntensor_tf32_gflops ");
   if (t && sscanf(t, "\ntensor_tf32_gflops %lf\ntensor_f16_gflops %lf\ntensor_bf16_gflops %lf", &p.gflops[PEAK_TF32],
                   &p.gflops[PEAK_F16], &p.gflops[PEAK_BF16]) != 3)
      p.gflops[PEAK_TF32] = p.gflops[PEAK_F16] = p.gflops[PEAK_BF16] = 0;
   /* Files written before the local bandwidth and the launch time have neither: 0. */
   const char *lo = strstr(text, "\nlocal_gbps ");
   if (!lo || sscanf(lo, "\nlocal_gbps %lf\nlaunch_us %lf", &p.local_gbps, &p.launch_us) != 2)
      p.local_gbps = p.launch_us = 0;
   /* Files written before the read and L2 bandwidths have neither: 0. */
   const char *rd = strstr(text, "\nread_gbps ");
   if (!rd || sscanf(rd, "\nread_gbps %lf\nl2_gbps %lf", &p.read_gbps, &p.l2_gbps) != 2 || !(p.read_gbps >= 0) ||
       !(p.l2_gbps >= 0))
      p.read_gbps = p.l2_gbps = 0;
   /* Files written before the L2's reads were spread over the working set timed a group
    * re-reading its own run, which the L1 served (twice the L2's figure on the H200): their
    * L2 figure is dropped, not trusted; the next measurement gives it again. */
   if (!strstr(text, "\nl2_reads spread\n"))
      p.l2_gbps = 0;
   /* Files written before the clocks, or where the driver gave none: unknown. */
   const char *ck = strstr(text, "\nsm_mhz ");
   if (!ck || sscanf(ck, "\nsm_mhz %lf\nmem_mhz %lf", &p.sm_mhz, &p.mem_mhz) != 2 || !(p.sm_mhz >= 0) ||
       !(p.mem_mhz >= 0))
      p.sm_mhz = p.mem_mhz = 0;
   /* Files written before the wgmma rates have none, nor the tensor clock: 0, unknown. */
   const char *wg = strstr(text, "\nwgmma_tf32_gflops ");
   if (!wg || sscanf(wg, "\nwgmma_tf32_gflops %lf\nwgmma_f16_gflops %lf\nwgmma_bf16_gflops %lf\nwgmma_fp8_gflops %lf",
                     &p.wgmma_gflops[PEAK_TF32], &p.wgmma_gflops[PEAK_F16], &p.wgmma_gflops[PEAK_BF16],
                     &p.wgmma_gflops[PEAK_FP8]) != 4)
      memset(p.wgmma_gflops, 0, sizeof p.wgmma_gflops);
   for (int i = 0; i < PEAK_KINDS; i++)
      if (!(p.wgmma_gflops[i] > 0))
         p.wgmma_gflops[i] = 0;
   const char *tc = strstr(text, "\ntensor_sm_mhz ");
   if (!tc || sscanf(tc, "\ntensor_sm_mhz %lf", &p.tensor_sm_mhz) != 1 || !(p.tensor_sm_mhz > 0))
      p.tensor_sm_mhz = 0;
   /* Files written before the list of what was not measured have none: "". */
   /* An empty list is an empty line: "%[^\n]" after a space would skip it and read the next. */
   const char *nm = strstr(text, "\nnot_measured ");
   if (nm) {
      nm += strlen("\nnot_measured ");
      int len = (int)strcspn(nm, "\n");
      snprintf(p.not_measured, sizeof p.not_measured, "%.*s", len, nm);
   }
   /* Files written before the measurement's duration have none: unknown. */
   const char *du = strstr(text, "\nseconds ");
   if (!du || sscanf(du, "\nseconds %lf", &p.seconds) != 1 || !(p.seconds >= 0))
      p.seconds = 0;
   /* Files written before FP8 have no FP8 rate: it stays 0. */
   const char *f8 = strstr(text, "\ntensor_fp8_gflops ");
   if (!f8 || sscanf(f8, "\ntensor_fp8_gflops %lf", &p.gflops[PEAK_FP8]) != 1 || !(p.gflops[PEAK_FP8] > 0))
      p.gflops[PEAK_FP8] = 0;
   free(text);
   if (n != 4 || p.gflops[PEAK_FP32] <= 0 || p.copy_gbps <= 0)
      return false;
   p.known = true;
   *out = p;
   return true;
}

/* How long one wait for a micro-kernel's launches may take before they are abandoned: each
 * launch runs for milliseconds, so a hang costs seconds, not the whole measurement. */
enum { PEAK_LAUNCH_LIMIT_MS = 5000 };

/* Every micro-kernel's loop count, in every program (peak.cl names one per kernel): one
 * define string for all of them, so that the entries of a program share one compile. */
enum { FMA_ITERS = 512, READ_ITERS = 8, LOCAL_ITERS = 2048, LOCAL_WORDS = 1024, MMA_ITERS = 4096, WGMMA_ITERS = 512 };

/* A measurement in progress: the session, the time a wait may take, the micro-kernel whose
 * launch was abandoned (nothing is enqueued, compiled or freed after it: each would wait
 * for it), and the peaks with what could not be measured. */
typedef struct Measuring_ {
   Session *s;
   const Catalog *cat;
   double limit_ms;
   char stuck_on[64];
   Peaks *out;
} Measuring;

/* The program's defines: the type, the loop counts, and extra ("" or more -D options). */
static void peakDefines(bool dbl, const char *extra, char *out, size_t len) {
   snprintf(out, len,
            "-DDOUBLE=%d -DFMA_ITERS=%d -DREAD_ITERS=%d -DLOCAL_ITERS=%d -DLOCAL_WORDS=%d -DMMA_ITERS=%d "
            "-DWGMMA_ITERS=%d%s%s",
            dbl, FMA_ITERS, READ_ITERS, LOCAL_ITERS, LOCAL_WORDS, MMA_ITERS, WGMMA_ITERS, extra[0] ? " " : "", extra);
}

static bool refuseIfStuck(const Measuring *m, char *err, size_t errlen) {
   if (!m->stuck_on[0])
      return false;
   snprintf(err, errlen, "not measured: the device is still busy with the %s micro-kernel, abandoned", m->stuck_on);
   return true;
}

/* entry of peak.cl compiled with defines; NULL (err says why) on failure or when stuck. */
static Kernel *peakKernel(Measuring *m, const char *defines, const char *entry, char *err, size_t errlen) {
   if (refuseIfStuck(m, err, errlen))
      return NULL;
   return Session_helperKernel(m->s, m->cat->peak, defines, entry, err, errlen);
}

static Buffer *peakAlloc(Measuring *m, size_t bytes, char *err, size_t errlen) {
   Buffer *b = NULL;
   if (refuseIfStuck(m, err, errlen))
      return NULL;
   if (Session_backend(m->s)->alloc(Session_context(m->s), bytes, &b, err, errlen) != BACKEND_OK)
      return NULL;
   return b;
}

/* Freeing waits for the device: after an abandoned launch the buffer is left to the exit. */
static void peakFree(Measuring *m, Buffer *b) {
   if (b && !m->stuck_on[0])
      Session_backend(m->s)->free(b);
}

/* Waits for the launches of `what` within the limit; false (err says why) on failure or a
 * launch abandoned. */
static bool peakFinish(Measuring *m, const char *what, char *err, size_t errlen) {
   BackendStatus st = Session_finishWithin(m->s, m->limit_ms, err, errlen);
   if (st == BACKEND_ERR_TIMEOUT) {
      snprintf(m->stuck_on, sizeof m->stuck_on, "%s", what);
      snprintf(err, errlen, "the micro-kernel did not finish in %.3g s: abandoned", m->limit_ms / 1000);
   }
   return st == BACKEND_OK;
}

/* Median device time of reps launches of what, each wait limited. */
static double timeKernel(Measuring *m, const char *what, Kernel *k, const KernelArg *args, int nargs, bool dbl,
                         size_t global, size_t local, int reps, char *err, size_t errlen) {
   const Backend *be = Session_backend(m->s);
   Context *ctx = Session_context(m->s);
   double times[32];
   if (refuseIfStuck(m, err, errlen))
      return -1;
   for (int i = 0; i < 2; i++)
      if (be->launch(ctx, k, args, nargs, dbl, 1, &global, &local, NULL, err, errlen) != BACKEND_OK)
         return -1;
   if (!peakFinish(m, what, err, errlen))
      return -1;
   for (int i = 0; i < reps && i < 32; i++) {
      Event *ev = NULL;
      if (be->launch(ctx, k, args, nargs, dbl, 1, &global, &local, &ev, err, errlen) != BACKEND_OK)
         return -1;
      if (!peakFinish(m, what, err, errlen)) {
         if (!m->stuck_on[0])
            be->releaseEvent(ev);
         return -1;
      }
      times[i] = be->eventMs(ev);
      be->releaseEvent(ev);
   }
   return Util_median(times, reps);
}

/* The median time of k(out, seed) over enough work-items to fill every compute unit many
 * times over (their count into *global), out one element of each; -1 on failure. */
static double timeFilling(Measuring *m, const char *what, Kernel *k, KernelArg seed, bool dbl, size_t *global,
                          char *err, size_t errlen) {
   const DeviceInfo *dev = Session_device(m->s);
   size_t local = dev->limits.max_wg >= 256 ? 256 : dev->limits.max_wg;
   size_t g = (size_t)(dev->compute_units ? dev->compute_units : 1) * 2048;
   g = (g + local - 1) / local * local;
   *global = g;
   Buffer *out = peakAlloc(m, g * (dbl ? 8 : 4), err, errlen);
   if (!out)
      return -1;
   KernelArg args[2] = {{.kind = ARG_BUFFER, .buffer = out}, seed};
   double ms = timeKernel(m, what, k, args, 2, dbl, g, local, 7, err, errlen);
   peakFree(m, out);
   return ms;
}

static double measureFma(Measuring *m, bool dbl, char *err, size_t errlen) {
   enum { CHAINS = 32 }; /* 8 chains of 4 lanes */
   char defines[256];
   peakDefines(dbl, "", defines, sizeof defines);
   Kernel *k = peakKernel(m, defines, "gt_peak_fma", err, errlen);
   size_t global = 0;
   const char *what = dbl ? "FP64 multiply-add" : "FP32 multiply-add";
   double ms = k ? timeFilling(m, what, k, (KernelArg){.kind = ARG_REAL, .real = 0.5}, dbl, &global, err, errlen) : -1;
   if (ms <= 0)
      return -1;
   return 2.0 * CHAINS * FMA_ITERS * (double)global / (ms * 1e6);
}

/* The mma.sync micro-kernels (peak.cl: gt_peak_mma_*), one program for the types: each
 * entry's peak kind, its name in messages, and the k of its m16n8 shape. */
static const struct {
   PeakKind kind;
   const char *entry, *what;
   int k;
} mmaKinds[] = {{PEAK_TF32, "gt_peak_mma_tf32", "mma.sync tf32", 8},
                {PEAK_F16, "gt_peak_mma_f16", "mma.sync half", 16},
                {PEAK_BF16, "gt_peak_mma_bf16", "mma.sync bf16", 16},
                {PEAK_FP8, "gt_peak_mma_e4m3", "mma.sync e4m3", 32}};

/* One mma.sync rate in GFLOPS; -1 on failure. fp8: the program has the e4m3 entry. */
static double measureMma(Measuring *m, int which, bool fp8, char *err, size_t errlen) {
   const DeviceInfo *dev = Session_device(m->s);
   enum { MMAS = 8, WARP = 32 };
   char defines[256];
   peakDefines(false, fp8 ? "-DGT_TENSOR_PTX=1 -DGT_MMA_FP8=1" : "-DGT_TENSOR_PTX=1", defines, sizeof defines);
   Kernel *k = peakKernel(m, defines, mmaKinds[which].entry, err, errlen);
   if (!k)
      return -1;
   /* 32 warps per multiprocessor: enough to keep each of its tensor cores busy. */
   size_t local = 256, global = (size_t)(dev->compute_units ? dev->compute_units : 1) * 1024;
   Buffer *out = peakAlloc(m, global * 4, err, errlen);
   if (!out)
      return -1;
   KernelArg args[2] = {{.kind = ARG_BUFFER, .buffer = out}, {.kind = ARG_INT, .i = 1}};
   double ms = timeKernel(m, mmaKinds[which].what, k, args, 2, false, global, local, 7, err, errlen);
   peakFree(m, out);
   if (ms <= 0)
      return -1;
   double flopsPerMma = 2.0 * 16 * 8 * mmaKinds[which].k;
   return flopsPerMma * MMAS * MMA_ITERS * (double)(global / WARP) / (ms * 1e6);
}

/* The wgmma micro-kernels (peak.cl: gt_peak_wgmma_*), one program for the four types:
 * each entry's peak kind, its name in messages, and the k of its m64n256 shape (32 bytes
 * of the type). */
static const struct {
   PeakKind kind;
   const char *entry, *what;
   int k;
} wgmmaKinds[] = {{PEAK_TF32, "gt_peak_wgmma_tf32", "wgmma tf32", 8},
                  {PEAK_F16, "gt_peak_wgmma_f16", "wgmma half", 16},
                  {PEAK_BF16, "gt_peak_wgmma_bf16", "wgmma bf16", 16},
                  {PEAK_FP8, "gt_peak_wgmma_e4m3", "wgmma e4m3", 32}};

/* One wgmma rate in GFLOPS; -1 on failure. */
static double measureWgmma(Measuring *m, int which, char *err, size_t errlen) {
   const DeviceInfo *dev = Session_device(m->s);
   /* 24 warpgroups a multiprocessor in all: a whole number of waves whether 1, 2, 3, 4 or 6
    * of them fit one at a time (3 do: 154 registers a thread, 41 KiB of shared memory). At
    * 1980 MHz and the H200's 4096 bfloat16 flops a clock per multiprocessor, about 3 ms a
    * launch in every type (k doubles as the rate does). */
   enum { WGMMAS = 4, WARPGROUP = 128, PER_UNIT = 24 };
   char defines[256];
   peakDefines(false, "-DGT_ARCH_SPECIFIC=1 -DGT_WGMMA_PEAK=1", defines, sizeof defines);
   Kernel *k = peakKernel(m, defines, wgmmaKinds[which].entry, err, errlen);
   if (!k)
      return -1;
   size_t local = WARPGROUP, global = (size_t)(dev->compute_units ? dev->compute_units : 1) * PER_UNIT * WARPGROUP;
   Buffer *out = peakAlloc(m, global * 4, err, errlen);
   if (!out)
      return -1;
   KernelArg args[2] = {{.kind = ARG_BUFFER, .buffer = out}, {.kind = ARG_INT, .i = 1}};
   double ms = timeKernel(m, wgmmaKinds[which].what, k, args, 2, false, global, local, 7, err, errlen);
   peakFree(m, out);
   if (ms <= 0)
      return -1;
   double flopsPerWgmma = 2.0 * 64 * 256 * wgmmaKinds[which].k;
   return flopsPerWgmma * WGMMAS * WGMMA_ITERS * (double)(global / WARPGROUP) / (ms * 1e6);
}

/* Hopper's wgmma: an sm_90 device through a backend that compiles for sm_90a. */
static bool hasWgmma(Session *s) {
   const DeviceInfo *dev = Session_device(s);
   return dev->tensor_ptx && Backend_can(Session_backend(s), BACKEND_CAP_ARCH_SPECIFIC) &&
          strncmp(dev->arch, "sm_90", 5) == 0;
}

/* "what: why" added to the peaks' list of what was not measured (its first line of why). */
static void notMeasured(Measuring *m, const char *what, const char *why) {
   char *list = m->out->not_measured;
   size_t used = strlen(list);
   snprintf(list + used, sizeof m->out->not_measured - used, "%s%s ceiling: %.*s", used ? "; " : "", what,
            (int)strcspn(why, "\n"), why);
}

/* The wgmma rates where the device has them; each failure leaves its rate 0 and is named
 * (the other peaks stand). */
static void measureWgmmaAll(Measuring *m, Observer *obs) {
   if (!hasWgmma(m->s))
      return;
   for (int i = 0; i < (int)(sizeof wgmmaKinds / sizeof wgmmaKinds[0]); i++) {
      char err[512] = "";
      double g = measureWgmma(m, i, err, sizeof err);
      if (obs)
         Observer_sample(obs);
      if (g > 0)
         m->out->wgmma_gflops[wgmmaKinds[i].kind] = g;
      else
         notMeasured(m, wgmmaKinds[i].what, err);
   }
}

/* The mma.sync rates, where the device has tensor cores (FP8's from sm_89: Ada, Hopper);
 * each failure leaves its rate 0 and is named (the other peaks stand). */
static void measureTensor(Measuring *m) {
   const DeviceInfo *dev = Session_device(m->s);
   if (!dev->tensor_ptx) /* the device's, even where GEMMTOP_DEVICE_LIMITS took it from kernels */
      return;
   bool fp8 = dev->limits.tensor_sm >= Types_of(PRECISION_E4M3)->tensor_sm;
   for (int i = 0; i < (int)(sizeof mmaKinds / sizeof mmaKinds[0]); i++) {
      if (mmaKinds[i].kind == PEAK_FP8 && !fp8)
         continue;
      char err[512] = "";
      double g = measureMma(m, i, fp8, err, sizeof err);
      if (g > 0)
         m->out->gflops[mmaKinds[i].kind] = g;
      else
         notMeasured(m, mmaKinds[i].what, err);
   }
}

/* A streaming buffer, far larger than any cache: 256 MiB, or a quarter of the largest buffer
 * on small devices. */
static size_t streamingBytes(const DeviceInfo *dev) {
   size_t bytes = (size_t)256 << 20;
   return bytes > dev->max_alloc / 4 ? dev->max_alloc / 4 : bytes;
}

static double measureCopy(Measuring *m, char *err, size_t errlen) {
   const DeviceInfo *dev = Session_device(m->s);
   const Backend *be = Session_backend(m->s);
   char defines[256];
   peakDefines(false, "", defines, sizeof defines);
   Kernel *k = peakKernel(m, defines, "gt_peak_copy", err, errlen);
   if (!k)
      return -1;
   size_t bytes = streamingBytes(dev) / 4096 * 4096;
   size_t local = dev->limits.max_wg >= 256 ? 256 : dev->limits.max_wg;
   size_t global = bytes / 16;
   global = global / local * local;
   bytes = global * 16;
   Buffer *src = peakAlloc(m, bytes, err, errlen);
   Buffer *dst = src ? peakAlloc(m, bytes, err, errlen) : NULL;
   if (!dst) {
      peakFree(m, src);
      return -1;
   }
   /* Real data in the source: some devices are quicker on never-written pages. */
   unsigned char *host = malloc(bytes);
   double ms = -1;
   if (host) {
      for (size_t i = 0; i < bytes; i++)
         host[i] = (unsigned char)(i * 2654435761u >> 24);
      if (be->write(Session_context(m->s), src, host, bytes, err, errlen) == BACKEND_OK) {
         KernelArg args[2] = {{.kind = ARG_BUFFER, .buffer = dst}, {.kind = ARG_BUFFER, .buffer = src}};
         ms = timeKernel(m, "copy", k, args, 2, false, global, local, 9, err, errlen);
      }
      free(host);
   }
   peakFree(m, src);
   peakFree(m, dst);
   if (ms <= 0)
      return -1;
   return 2.0 * (double)bytes / (ms * 1e6);
}

/* gt_peak_read over a buffer of `bytes` filled with real data, global work-items each
 * reading READ_ITERS elements wrapped by mask: bytes read per second, -1 on failure. */
static double timeReads(Measuring *m, const char *what, size_t bytes, size_t global, unsigned mask, unsigned skew,
                        char *err, size_t errlen) {
   const Backend *be = Session_backend(m->s);
   const DeviceInfo *dev = Session_device(m->s);
   char defines[256];
   peakDefines(false, "", defines, sizeof defines);
   Kernel *k = peakKernel(m, defines, "gt_peak_read", err, errlen);
   if (!k)
      return -1;
   /* A power of two: the runs of a group then never straddle the working set's end. */
   size_t local = 256;
   while (local > dev->limits.max_wg)
      local /= 2;
   global = global / local * local;
   skew = skew / local * local; /* runs stay whole: a multiple of the group, as the mask is */
   Buffer *src = peakAlloc(m, bytes, err, errlen);
   Buffer *out = src ? peakAlloc(m, global * 4, err, errlen) : NULL;
   if (!out) {
      peakFree(m, src);
      return -1;
   }
   float *host = malloc(bytes);
   double ms = -1;
   if (host) {
      for (size_t i = 0; i < bytes / 4; i++)
         host[i] = (float)(i % 1021) * 0.25f; /* small: sums stay finite, never -1 */
      if (be->write(Session_context(m->s), src, host, bytes, err, errlen) == BACKEND_OK) {
         KernelArg args[5] = {{.kind = ARG_BUFFER, .buffer = out},
                              {.kind = ARG_BUFFER, .buffer = src},
                              {.kind = ARG_INT, .i = (int)mask},
                              {.kind = ARG_INT, .i = (int)skew},
                              {.kind = ARG_REAL, .real = -1}};
         ms = timeKernel(m, what, k, args, 5, false, global, local, 9, err, errlen);
      }
      free(host);
   }
   peakFree(m, src);
   peakFree(m, out);
   if (ms <= 0)
      return -1;
   return 16.0 * READ_ITERS * (double)global / (ms * 1e6);
}

/* Streaming reads from a buffer far larger than the caches, each byte once: the read
 * bandwidth of global memory (a GEMM mostly reads). */
static double measureRead(Measuring *m, char *err, size_t errlen) {
   const DeviceInfo *dev = Session_device(m->s);
   size_t global = streamingBytes(dev) / 16 / READ_ITERS;
   global = global / 256 * 256;
   if (global == 0) {
      snprintf(err, errlen, "the largest buffer is too small for a streaming read");
      return -1;
   }
   return timeReads(m, "read", global * READ_ITERS * 16, global, ~0u, 0, err, errlen);
}

/* Reads of a working set of half the L2 (a power of two), over and over: the L2's read
 * bandwidth; 0 when the device does not say its L2's size. On a CPU the figure is that of
 * the last-level cache PoCL reports. */
static double measureL2(Measuring *m, char *err, size_t errlen) {
   const DeviceInfo *dev = Session_device(m->s);
   if (dev->l2_bytes < 2 * 16 * 1024) {
      snprintf(err, errlen, "the device reports %s", dev->l2_bytes ? "an L2 under 32 KiB" : "no L2 cache size");
      return -1;
   }
   size_t set = 16 * 1024; /* bytes: the largest power of two up to half the L2 */
   while (set * 4 <= dev->l2_bytes && set < ((size_t)1 << 30))
      set *= 2;
   /* Each element read 64 times a launch (8 rounds of a grid 8 times the set), each time by
    * another group: a group's rounds are READ_ITERS runs an eighth of the set apart. */
   size_t global = 8 * set / 16;
   return timeReads(m, "L2", set, global, (unsigned)(set / 16 - 1), (unsigned)(set / 16 / READ_ITERS), err, errlen);
}

/* Local-memory bandwidth (bytes per second): reads from a tile without conflicts; -1 on
 * failure. A CPU has no local memory of its own (PoCL keeps the tile in its caches): the
 * figure is then those caches'. */
static double measureLocal(Measuring *m, char *err, size_t errlen) {
   char defines[256];
   peakDefines(false, "", defines, sizeof defines);
   Kernel *k = peakKernel(m, defines, "gt_peak_local", err, errlen);
   size_t global = 0;
   double ms = k ? timeFilling(m, "local-memory", k, (KernelArg){.kind = ARG_INT, .i = 7}, false, &global, err, errlen)
                 : -1;
   if (ms <= 0)
      return -1;
   return 16.0 * LOCAL_ITERS * (double)global / (ms * 1e6);
}

/* An empty kernel's launch, in microseconds of device time; -1 on failure. */
static double measureLaunch(Measuring *m, char *err, size_t errlen) {
   char defines[256];
   peakDefines(false, "", defines, sizeof defines);
   Kernel *k = peakKernel(m, defines, "gt_peak_empty", err, errlen);
   if (!k)
      return -1;
   Buffer *out = peakAlloc(m, 4, err, errlen);
   if (!out)
      return -1;
   KernelArg args[1] = {{.kind = ARG_BUFFER, .buffer = out}};
   double ms = timeKernel(m, "empty launch", k, args, 1, false, 1, 1, 15, err, errlen);
   peakFree(m, out);
   return ms > 0 ? ms * 1e3 : -1;
}

/* The clocks the driver reports while the micro-kernels run (NVML on NVIDIA, sysfs on AMD),
 * sampled between them: the figures are only comparable at the same clocks. */
static void sample(Observer *o) {
   if (o)
      Observer_sample(o);
}

/* An extra ceiling (0 unknown): its figure, or 0 with what and why named. */
static double extra(Measuring *m, const char *what, double figure, const char *why) {
   if (figure > 0)
      return figure;
   if (figure < 0)
      notMeasured(m, what, why);
   return 0;
}

static void writeCache(Session *s, const Peaks *p) {
   char path[2300], text[2048];
   if (!cachePath(Session_device(s), Session_backend(s)->name, path, sizeof path, true))
      return;
   snprintf(text, sizeof text,
            "fp32_gflops %.6g\nfp64_gflops %.6g\ncopy_gbps %.6g\nmeasured %s\ntensor_tf32_gflops %.6g\n"
            "tensor_f16_gflops %.6g\ntensor_bf16_gflops %.6g\ntensor_fp8_gflops %.6g\nlocal_gbps %.6g\n"
            "launch_us %.6g\nread_gbps %.6g\nl2_gbps %.6g\nsm_mhz %.6g\nmem_mhz %.6g\nwgmma_tf32_gflops %.6g\n"
            "wgmma_f16_gflops %.6g\nwgmma_bf16_gflops %.6g\nwgmma_fp8_gflops %.6g\ntensor_sm_mhz %.6g\n"
            "not_measured %s\nseconds %.3g\nl2_reads spread\n",
            p->gflops[PEAK_FP32], p->gflops[PEAK_FP64], p->copy_gbps, p->measured_at, p->gflops[PEAK_TF32],
            p->gflops[PEAK_F16], p->gflops[PEAK_BF16], p->gflops[PEAK_FP8], p->local_gbps, p->launch_us, p->read_gbps,
            p->l2_gbps, p->sm_mhz, p->mem_mhz, p->wgmma_gflops[PEAK_TF32], p->wgmma_gflops[PEAK_F16],
            p->wgmma_gflops[PEAK_BF16], p->wgmma_gflops[PEAK_FP8], p->tensor_sm_mhz, p->not_measured, p->seconds);
   Util_writeFileAtomic(path, text, strlen(text));
}

bool Peaks_contradict(const Peaks *p, char *why, size_t whylen) {
   char unused[16];
   if (!why || whylen < sizeof unused) { /* only whether: the words go nowhere */
      why = unused;
      whylen = sizeof unused;
   }
   why[0] = '\0';
   if (!p || !p->known)
      return false;
   /* 5%: two figures of the same rate measured a moment apart differ that much on a quiet
    * machine at most. */
   const double fp32 = p->gflops[PEAK_FP32], fp64 = p->gflops[PEAK_FP64];
   size_t n = 0;
   if (fp64 > fp32 * 1.05)
      n += (size_t)snprintf(why + n, whylen - n, "FP64 (%.1f GFLOPS) above FP32 (%.1f)", fp64, fp32);
   static const PeakKind tensors[] = {PEAK_TF32, PEAK_F16, PEAK_BF16};
   for (size_t i = 0; i < sizeof tensors / sizeof *tensors && n < whylen; i++)
      if (p->gflops[tensors[i]] > 0 && p->gflops[tensors[i]] * 1.05 < fp32)
         n += (size_t)snprintf(why + n, whylen - n, "%sa tensor rate (%.1f GFLOPS) below FP32 (%.1f)", n ? "; " : "",
                               p->gflops[tensors[i]], fp32);
   if (p->l2_gbps > 0 && p->read_gbps > 0 && p->l2_gbps * 1.05 < p->read_gbps && n < whylen)
      n += (size_t)snprintf(why + n, whylen - n, "%sthe L2 (%.1f GB/s) slower than memory (%.1f)", n ? "; " : "",
                            p->l2_gbps, p->read_gbps);
   if (n && n < whylen)
      snprintf(why + n, whylen - n, ": no device does that, so the measurement was disturbed (another load, changing "
               "clocks); measure again on a quiet machine before trusting %% of peak");
   return n > 0;
}

double Peaks_expectedSeconds(const DeviceInfo *dev, const Peaks *cached) {
   if (cached && cached->known && cached->seconds > 0)
      return cached->seconds;
   return dev && dev->type == DEVICE_CPU ? 60 : 5;
}

bool Peaks_measure(Session *s, const Catalog *cat, Peaks *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   Measuring m = {.s = s, .cat = cat, .limit_ms = PEAK_LAUNCH_LIMIT_MS, .out = out};
   const double t0 = Util_nowMs();
   const DeviceInfo *dev = Session_device(s);
   Observer *obs = Session_observer(s, NULL);
   if (obs)
      Observer_begin(obs);
   /* FP32's rate and the copy bandwidth are the roof itself: without them nothing is kept.
    * The long-proven ceilings first, the tensor cores' last: a launch abandoned stops
    * everything after it, and the ceilings measured before it are kept. */
   char why[512] = "";
   out->gflops[PEAK_FP32] = measureFma(&m, false, why, sizeof why);
   sample(obs);
   if (out->gflops[PEAK_FP32] <= 0) {
      snprintf(err, errlen, "FP32 multiply-add ceiling: %s", why);
      return false;
   }
   if (dev->limits.fp64) {
      out->gflops[PEAK_FP64] = measureFma(&m, true, why, sizeof why);
      if (out->gflops[PEAK_FP64] <= 0) {
         snprintf(err, errlen, "FP64 multiply-add ceiling: %s", why);
         return false;
      }
   }
   out->copy_gbps = measureCopy(&m, why, sizeof why);
   sample(obs);
   if (out->copy_gbps <= 0) {
      snprintf(err, errlen, "copy ceiling: %s", why);
      return false;
   }
   /* The rest are extras: a device that fails one keeps the others (0 means unknown). */
   out->local_gbps = extra(&m, "local-memory", measureLocal(&m, why, sizeof why), why);
   out->launch_us = extra(&m, "empty launch", measureLaunch(&m, why, sizeof why), why);
   sample(obs);
   out->read_gbps = extra(&m, "read", measureRead(&m, why, sizeof why), why);
   sample(obs);
   out->l2_gbps = extra(&m, "L2", measureL2(&m, why, sizeof why), why);
   sample(obs);
   /* The clocks of the peaks so far, then those of the tensor micro-kernels apart: they
    * draw the most power, and the clock they run at is their ceiling's. */
   if (obs) {
      Observation o;
      Observer_end(obs, 1, 0, 0, &o);
      out->sm_mhz = isfinite(o.sm_mhz) ? o.sm_mhz : 0;
      out->mem_mhz = isfinite(o.mem_mhz) ? o.mem_mhz : 0;
      Observer_begin(obs);
   }
   measureTensor(&m);
   sample(obs);
   measureWgmmaAll(&m, obs);
   if (obs) {
      Observation o;
      Observer_end(obs, 1, 0, 0, &o);
      bool tensor = out->gflops[PEAK_TF32] > 0 || out->gflops[PEAK_BF16] > 0 || out->wgmma_gflops[PEAK_BF16] > 0;
      out->tensor_sm_mhz = tensor && isfinite(o.sm_mhz) ? o.sm_mhz : 0;
   }
   time_t now = time(NULL);
   struct tm tm;
   localtime_r(&now, &tm);
   strftime(out->measured_at, sizeof out->measured_at, "%Y-%m-%d %H:%M", &tm);
   out->known = true;
   out->seconds = (Util_nowMs() - t0) / 1000;
   writeCache(s, out);
   return true;
}

/* A kernel built for sm_90a (`arch:`) reaches the tensor cores through wgmma. */
static bool usesWgmma(const KernelInfo *k) { return k && k->tensor && k->arch[0]; }

double Peaks_for(const Peaks *peaks, Precision p, const KernelInfo *k, bool emulated) {
   if (!peaks || !peaks->known || emulated)
      return 0;
   const TypeTraits *t = Types_of(p);
   bool tensor = k && k->tensor;
   /* FP32 inputs on wgmma (3xTF32) keep the FP32 peak, as on mma.sync: the type's tensor_peak. */
   if (usesWgmma(k) && t->tensor_peak != t->peak)
      return peaks->wgmma_gflops[t->tensor_peak];
   return peaks->gflops[tensor ? t->tensor_peak : t->peak];
}

double Peaks_hardwareFor(const Peaks *peaks, Precision p, const KernelInfo *k, bool emulated, const char **label) {
   const TypeTraits *t = Types_of(p);
   if (!emulated && usesWgmma(k) && t->tensor_peak == t->peak && t->peak == PEAK_FP32) {
      *label = "3xTF32 (TF32 wgmma / 3)";
      return peaks && peaks->known ? peaks->wgmma_gflops[PEAK_TF32] / 3 : 0;
   }
   *label = Peaks_label(p, k, emulated);
   return Peaks_for(peaks, p, k, emulated);
}

double Peaks_copyShare(const Peaks *peaks, const Problem *p, double ms, double *read_share) {
   if (read_share)
      *read_share = 0;
   if (!peaks || !peaks->known || peaks->copy_gbps <= 0 || !(ms > 0))
      return 0;
   const double gbps = Ablate_bytes(p, 0) / (ms * 1e6);
   if (read_share && peaks->read_gbps > 0)
      *read_share = gbps / peaks->read_gbps;
   return gbps / peaks->copy_gbps;
}

const char *Peaks_label(Precision p, const KernelInfo *k, bool emulated) {
   const TypeTraits *t = Types_of(p);
   bool tensor = k && k->tensor && !emulated;
   if (tensor && usesWgmma(k) && t->tensor_peak != t->peak) {
      static const char *const wgmma[PEAK_KINDS] = {[PEAK_TF32] = "TF32 wgmma", [PEAK_F16] = "half wgmma",
                                                    [PEAK_BF16] = "bfloat16 wgmma", [PEAK_FP8] = "FP8 wgmma"};
      if (wgmma[t->tensor_peak])
         return wgmma[t->tensor_peak];
   }
   return PeakKind_label(tensor ? t->tensor_peak : t->peak);
}
