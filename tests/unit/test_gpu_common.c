/* What the CUDA and HIP backends share (gpu_common.c), on a runtime made up here that
 * records every call: kernel arguments as the launch receives them, the grid from global
 * and local sizes, timing events created, recorded in order and always destroyed (also
 * when a call fails), every failure reported; and the column-major call that cuBLAS and
 * rocBLAS make for a row-major problem, checked by computing it on random matrices. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/gpu_common.h"
#include "base/rng.h"

static Rng g_rng;

/* ---- the made-up runtime ---- */

struct Buffer_ {
   unsigned long long address;
};

typedef struct FakeEvent_ {
   int recorded_at; /* the call number of its record, -1 before */
} FakeEvent;

static struct {
   int calls;
   int created, destroyed;
   int fail_create_at;  /* fail the n-th eventCreate (1-based), 0 never */
   int fail_launch;     /* the launch's result */
   int fail_sync;
   unsigned grid[3], block[3];
   GpuArg seen[16];
   int launched_at;
   int attr_values[GPU_ATTR_COUNT];
   int fail_attr;       /* this attribute's query fails */
   int holds, held_at, fail_hold; /* the holding kernel's launches, the last one's call, its result */
   unsigned long long hold_ticket, hold_limit;
   volatile unsigned long long counter; /* the hold's page-locked counter */
   unsigned long long counter_at_end;   /* the counter when the last end event was recorded */
} fake;
static int fakeHoldKernel; /* the holding kernel's address */

enum { FAKE_OUT_OF_MEMORY = 2, FAKE_OTHER_ERROR = 7 };

static const char *fakeError(int r) { return r == FAKE_OUT_OF_MEMORY ? "out of memory" : "a fake failure"; }
static int fakeDeviceAttribute(int *v, int which, int device) {
   (void)device;
   if (which == 100 + fake.fail_attr)
      return FAKE_OTHER_ERROR;
   *v = fake.attr_values[which - 100];
   return 0;
}
static int fakeFuncAttribute(int *v, int which, void *fn) {
   (void)fn;
   if (which == GPU_FUNC_LOCAL_BYTES)
      return FAKE_OTHER_ERROR; /* not every runtime says it */
   *v = 1000 + which;
   return 0;
}
static int fakeEventCreate(GpuEvent *ev) {
   fake.calls++;
   if (++fake.created == fake.fail_create_at) {
      fake.created--;
      *ev = NULL;
      return FAKE_OTHER_ERROR;
   }
   FakeEvent *e = malloc(sizeof *e);
   assert_non_null(e);
   e->recorded_at = -1;
   *ev = e;
   return 0;
}
static int fakeEventRecord(GpuEvent ev, GpuStream stream) {
   assert_ptr_equal(stream, (GpuStream)&fake);
   fake.counter_at_end = fake.counter;
   ((FakeEvent *)ev)->recorded_at = ++fake.calls;
   return 0;
}
static int fakeEventSynchronize(GpuEvent ev) {
   assert_true(((FakeEvent *)ev)->recorded_at > 0);
   return fake.fail_sync;
}
static int fakeEventElapsed(float *ms, GpuEvent start, GpuEvent end) {
   *ms = (float)(((FakeEvent *)end)->recorded_at - ((FakeEvent *)start)->recorded_at) / 4;
   return 0;
}
static int fakeEventDestroy(GpuEvent ev) {
   assert_non_null(ev);
   fake.destroyed++;
   free(ev);
   return 0;
}
static int fakeLaunch(void *fn, const unsigned grid[3], const unsigned block[3], GpuStream stream, void **params) {
   assert_ptr_equal(stream, (GpuStream)&fake);
   if (fn == &fakeHoldKernel) {
      assert_true(grid[0] == 1 && grid[1] == 1 && grid[2] == 1 && block[0] == 1 && block[1] == 1 && block[2] == 1);
      assert_int_equal(*(unsigned long long *)params[0], (unsigned long long)(uintptr_t)&fake.counter);
      fake.hold_ticket = *(unsigned long long *)params[1];
      fake.hold_limit = *(unsigned long long *)params[2];
      fake.holds++;
      fake.held_at = ++fake.calls;
      return fake.fail_hold;
   }
   assert_ptr_equal(fn, (void *)&g_rng);
   memcpy(fake.grid, grid, sizeof fake.grid);
   memcpy(fake.block, block, sizeof fake.block);
   for (int i = 0; i < 3; i++)
      memcpy(&fake.seen[i], params[i], sizeof fake.seen[i]);
   fake.launched_at = ++fake.calls;
   return fake.fail_launch;
}
static void fakeBufferArg(const Buffer *b, GpuArg *slot) { slot->ptr = b->address; }

static const GpuRuntime rt = {
    .name = "Fake",
    .cache = "fake",
    .out_of_memory = FAKE_OUT_OF_MEMORY,
    .attr = {100, 101, 102, 103, 104, 105, 106, 107},
    .errorString = fakeError,
    .deviceAttribute = fakeDeviceAttribute,
    .funcAttribute = fakeFuncAttribute,
    .eventCreate = fakeEventCreate,
    .eventRecord = fakeEventRecord,
    .eventSynchronize = fakeEventSynchronize,
    .eventElapsed = fakeEventElapsed,
    .eventDestroy = fakeEventDestroy,
    .launchKernel = fakeLaunch,
    .bufferArg = fakeBufferArg,
};

static int setup(void **state) {
   (void)state;
   memset(&fake, 0, sizeof fake);
   return 0;
}

static BackendStatus launch(Buffer *buf, double real, bool real_double, int dims, const size_t *global,
                            const size_t *local, Event **ev, char *err, size_t errlen) {
   KernelArg args[3] = {{.kind = ARG_BUFFER, .buffer = buf}, {.kind = ARG_INT, .i = -7}, {.kind = ARG_REAL, .real = real}};
   return Gpu_launch(&rt, &fake, NULL, &g_rng, args, 3, real_double, dims, global, local, ev, err, errlen);
}

/* ---- tests ---- */

static void test_arguments_and_grid(void **state) {
   (void)state;
   Buffer buf = {.address = 0xdead0000beefull + Rng_below(&g_rng, 1 << 20)};
   double real = Rng_range(&g_rng, -4, 4);
   size_t global[2] = {64 * (1 + Rng_below(&g_rng, 8)), 32}, local[2] = {16, 8};
   char err[256] = "";
   Event *ev = NULL;
   assert_int_equal(launch(&buf, real, false, 2, global, local, &ev, err, sizeof err), BACKEND_OK);
   assert_int_equal(fake.seen[0].ptr, buf.address);
   assert_int_equal(fake.seen[1].i, -7);
   assert_true(fake.seen[2].f == (float)real); /* the precision's type: a float */
   assert_int_equal(fake.block[0], 16);
   assert_int_equal(fake.block[1], 8);
   assert_int_equal(fake.block[2], 1);
   assert_int_equal(fake.grid[0], global[0] / 16);
   assert_int_equal(fake.grid[1], 4);
   assert_int_equal(fake.grid[2], 1);
   /* The launch between its two events, and their time from the device's clock. */
   assert_non_null(ev);
   FakeEvent *start = ev->start, *end = ev->end;
   assert_true(start->recorded_at < fake.launched_at && fake.launched_at < end->recorded_at);
   assert_true(Gpu_eventMs(ev) == (end->recorded_at - start->recorded_at) / 4.0);
   Gpu_releaseEvent(ev);
   assert_int_equal(fake.created, 2);
   assert_int_equal(fake.destroyed, 2);
   /* Double precision; no events asked; no local size: blocks of up to 256. */
   size_t big[1] = {1024}, small[1] = {100};
   assert_int_equal(launch(&buf, real, true, 1, big, NULL, NULL, err, sizeof err), BACKEND_OK);
   assert_true(fake.seen[2].d == real);
   assert_int_equal(fake.block[0], 256);
   assert_int_equal(fake.grid[0], 4);
   assert_int_equal(launch(&buf, real, true, 1, small, NULL, NULL, err, sizeof err), BACKEND_OK);
   assert_int_equal(fake.block[0], 100);
   assert_int_equal(fake.grid[0], 1);
   assert_int_equal(fake.created, 2);
}

static void test_failures(void **state) {
   (void)state;
   Buffer buf = {.address = 0x1000};
   size_t global[1] = {300}, local[1] = {64};
   char err[256] = "";
   Event *ev = NULL;
   /* A size that does not divide: said, nothing launched, no event made. */
   assert_int_equal(launch(&buf, 1, false, 1, global, NULL, &ev, err, sizeof err), BACKEND_ERR_LAUNCH);
   assert_string_equal(err, "global size 300 is not a multiple of the block size 256");
   assert_int_equal(launch(&buf, 1, false, 1, global, local, &ev, err, sizeof err), BACKEND_ERR_LAUNCH);
   assert_int_equal(launch(&buf, 1, false, 4, global, local, &ev, err, sizeof err), BACKEND_ERR_LAUNCH);
   assert_int_equal(fake.launched_at, 0);
   assert_int_equal(fake.created, 0);
   /* The second event cannot be made: the first is destroyed, the launch not made. */
   global[0] = 256;
   fake.fail_create_at = 2;
   assert_int_equal(launch(&buf, 1, false, 1, global, local, &ev, err, sizeof err), BACKEND_ERR_LAUNCH);
   assert_non_null(strstr(err, "creating timing events failed: a fake failure (7)"));
   assert_null(ev);
   assert_int_equal(fake.launched_at, 0);
   assert_int_equal(fake.destroyed, fake.created);
   /* The launch fails: out of memory stays that, the rest is a launch failure; no event left. */
   fake.fail_create_at = 0;
   fake.fail_launch = FAKE_OUT_OF_MEMORY;
   assert_int_equal(launch(&buf, 1, false, 1, global, local, &ev, err, sizeof err), BACKEND_ERR_OUT_OF_MEMORY);
   assert_string_equal(err, "launching the kernel failed: out of memory (2)");
   fake.fail_launch = FAKE_OTHER_ERROR;
   assert_int_equal(launch(&buf, 1, false, 1, global, local, &ev, err, sizeof err), BACKEND_ERR_LAUNCH);
   assert_null(ev);
   assert_int_equal(fake.destroyed, fake.created);
   /* Too many arguments for the parameter array. */
   KernelArg many[17];
   memset(many, 0, sizeof many);
   for (int i = 0; i < 17; i++)
      many[i].kind = ARG_INT;
   assert_int_equal(Gpu_launch(&rt, &fake, NULL, &g_rng, many, 17, false, 1, global, local, NULL, err, sizeof err),
                    BACKEND_ERR_LAUNCH);
   assert_non_null(strstr(err, "too many kernel arguments"));
   /* Waiting for an event that fails says what was waited for. */
   fake.fail_launch = 0;
   Event *e = Gpu_eventStart(&rt, &fake, NULL, err, sizeof err);
   assert_non_null(e);
   assert_int_equal(Gpu_eventStop(e, &fake, err, sizeof err), BACKEND_OK);
   fake.fail_sync = FAKE_OTHER_ERROR;
   double ms = 0;
   assert_int_equal(Gpu_eventWait(e, &ms, "waiting for the library", err, sizeof err), BACKEND_ERR_OTHER);
   assert_string_equal(err, "waiting for the library failed: a fake failure (7)");
   assert_true(ms == -1);
   assert_true(Gpu_eventMs(e) == -1);
   Gpu_releaseEvent(e);
   assert_int_equal(fake.destroyed, fake.created);
}

/* A timed launch behind a hold: the holding kernel first, then the start event, the
 * kernel and the end event, and only then the release, so the pair times the device's
 * work alone. Tickets grow; a late release of an older one frees nothing early. */
static void test_hold(void **state) {
   (void)state;
   GpuHold hold = {.fn = &fakeHoldKernel, .counter = (unsigned long long)(uintptr_t)&fake.counter,
                   .host = &fake.counter, .limit_ns = 1000 + Rng_below(&g_rng, 1000000)};
   Buffer buf = {.address = 0xbeef0000ull + Rng_below(&g_rng, 1 << 20)};
   KernelArg args[3] = {{.kind = ARG_BUFFER, .buffer = &buf}, {.kind = ARG_INT, .i = 3}, {.kind = ARG_REAL, .real = 1}};
   size_t global[1] = {256 * (1 + Rng_below(&g_rng, 4))}, local[1] = {256};
   char err[256] = "";
   const int rounds = 2 + (int)Rng_below(&g_rng, 4);
   for (int i = 1; i <= rounds; i++) {
      Event *ev = NULL;
      assert_int_equal(Gpu_launch(&rt, &fake, &hold, &g_rng, args, 3, false, 1, global, local, &ev, err, sizeof err),
                       BACKEND_OK);
      FakeEvent *start = ev->start, *end = ev->end;
      assert_int_equal(fake.holds, i);
      assert_true(fake.hold_ticket == (unsigned long long)i && fake.hold_limit == hold.limit_ns);
      assert_true(fake.held_at < start->recorded_at && start->recorded_at < fake.launched_at &&
                  fake.launched_at < end->recorded_at);
      assert_true(fake.counter_at_end < (unsigned long long)i); /* still held when the end was queued */
      assert_true(fake.counter == (unsigned long long)i);      /* released after it */
      Gpu_releaseEvent(ev);
      assert_true(fake.counter == (unsigned long long)i);
   }
   /* Started, never stopped: releasing the pair releases the hold; an older ticket
    * released after a newer one leaves the counter where it is. */
   Event *older = Gpu_eventStart(&rt, &fake, &hold, err, sizeof err);
   Event *newer = Gpu_eventStart(&rt, &fake, &hold, err, sizeof err);
   assert_true(older && newer && older->ticket + 1 == newer->ticket);
   assert_true(fake.counter < older->ticket);
   const unsigned long long last = newer->ticket;
   Gpu_releaseEvent(newer);
   assert_true(fake.counter == last);
   Gpu_releaseEvent(older);
   assert_true(fake.counter == last);
   /* A hold that fails to launch is left out: the pair still times, nothing to release. */
   fake.fail_hold = FAKE_OTHER_ERROR;
   const int holds = fake.holds;
   Event *e = Gpu_eventStart(&rt, &fake, &hold, err, sizeof err);
   assert_non_null(e);
   assert_true(e->ticket == 0 && e->hold == NULL && hold.ticket == last && fake.holds == holds + 1);
   assert_int_equal(Gpu_eventStop(e, &fake, err, sizeof err), BACKEND_OK);
   assert_true(fake.counter == last);
   Gpu_releaseEvent(e);
   /* No kernel: no hold. */
   GpuHold none = {0};
   e = Gpu_eventStart(&rt, &fake, &none, err, sizeof err);
   assert_true(e && e->ticket == 0 && fake.holds == holds + 1);
   Gpu_releaseEvent(e);
   assert_int_equal(fake.destroyed, fake.created);
}

/* A profiler is told by any of the variables the tools set, each alone; none: no profiler. */
static void test_profiler_injected(void **state) {
   (void)state;
   const char *vars[] = {"CUDA_INJECTION64_PATH", "NV_NSIGHT_INJECTION_TRANSPORT_TYPE", "NV_TPS_LAUNCH_TOKEN"};
   const int n = (int)(sizeof vars / sizeof vars[0]);
   for (int i = 0; i < n; i++)
      unsetenv(vars[i]);
   assert_false(Gpu_profilerInjected());
   const int pick = (int)Rng_below(&g_rng, (uint64_t)n);
   for (int i = 0; i < n; i++) {
      const int v = (pick + i) % n;
      setenv(vars[v], "uds", 1);
      assert_true(Gpu_profilerInjected());
      setenv(vars[v], "", 1); /* set but empty: not a tool */
      assert_false(Gpu_profilerInjected());
      unsetenv(vars[v]);
   }
}

static void test_limits_and_kernel_info(void **state) {
   (void)state;
   int want[GPU_ATTR_COUNT] = {1024, 1024, 1024, 64, 49152, 64, 1410000, 108};
   memcpy(fake.attr_values, want, sizeof want);
   fake.fail_attr = -1;
   DeviceInfo d;
   memset(&d, 0, sizeof d);
   Gpu_describeLimits(&rt, 0, &d);
   assert_int_equal(d.type, DEVICE_GPU);
   assert_int_equal(d.compute_units, 108);
   assert_int_equal(d.clock_mhz, 1410);
   assert_int_equal(d.limits.max_wg, 1024);
   assert_int_equal(d.limits.max_wi[2], 64);
   assert_int_equal(d.limits.local_mem, 49152);
   assert_int_equal(d.limits.warp, 64);
   /* An attribute the runtime does not give: 0 (nothing fits), and a warp of 32. */
   fake.fail_attr = GPU_ATTR_WARP_SIZE;
   Gpu_describeLimits(&rt, 0, &d);
   assert_int_equal(d.limits.warp, 32);
   fake.fail_attr = GPU_ATTR_MAX_THREADS_PER_BLOCK;
   Gpu_describeLimits(&rt, 0, &d);
   assert_int_equal(d.limits.max_wg, 0);
   BuildInfo info = {.registers = -1, .private_mem = -1, .local_mem = -1};
   Gpu_kernelInfo(&rt, NULL, &info);
   assert_int_equal(info.registers, 1000 + GPU_FUNC_NUM_REGS);
   assert_int_equal(info.local_mem, 1000 + GPU_FUNC_SHARED_BYTES);
   assert_int_equal(info.max_wg_for_kernel, 1000 + GPU_FUNC_MAX_THREADS);
   assert_int_equal(info.private_mem, -1); /* not given: still unknown */
}

/* ---- registers of PTX that another runtime built (NVIDIA's OpenCL, issue 13) ---- */

static struct {
   const char *image;   /* what load received */
   char entry[32];
   int loads, unloads;
   int fail_load, fail_function;
} fakeModule;

static int fakeLoad(void **module, const void *image) {
   fakeModule.image = image;
   fakeModule.loads++;
   if (fakeModule.fail_load)
      return fakeModule.fail_load;
   *module = &fakeModule;
   return 0;
}
static int fakeFunction(void **fn, void *module, const char *entry) {
   assert_ptr_equal(module, &fakeModule);
   snprintf(fakeModule.entry, sizeof fakeModule.entry, "%s", entry);
   *fn = NULL;
   return fakeModule.fail_function;
}
static int fakeUnload(void *module) {
   assert_ptr_equal(module, &fakeModule);
   fakeModule.unloads++;
   return 0;
}

/* The PTX that NVIDIA's OpenCL built for myGEMM step 2 (TS=4), as its program binary
 * gives it: loaded whole, the entry found, its attributes reported, the module unloaded
 * also when the entry is not there; a driver that refuses the PTX is said. */
static void test_registers_from_ptx(void **state) {
   (void)state;
   FILE *f = fopen(GEMMTOP_SOURCE_DIR "/tests/unit/listings/ptx_tiled_ts4.ptx", "rb");
   assert_non_null(f);
   static char ptx[65536];
   size_t n = fread(ptx, 1, sizeof ptx - 1, f);
   fclose(f);
   ptx[n] = '\0';
   assert_non_null(strstr(ptx, ".entry gemm("));
   const GpuModuleOps ops = {fakeLoad, fakeFunction, fakeUnload};
   BuildInfo info = {.registers = -1, .private_mem = -1, .local_mem = -1};
   char err[256] = "";
   memset(&fakeModule, 0, sizeof fakeModule);
   assert_int_equal(Gpu_moduleResources(&rt, &ops, ptx, "gemm", &info, err, sizeof err), BACKEND_OK);
   assert_ptr_equal(fakeModule.image, ptx);
   assert_string_equal(fakeModule.entry, "gemm");
   assert_int_equal(info.registers, 1000 + GPU_FUNC_NUM_REGS);
   assert_int_equal(info.local_mem, 1000 + GPU_FUNC_SHARED_BYTES);
   assert_int_equal(info.private_mem, -1); /* the fake runtime does not say it */
   assert_int_equal(fakeModule.unloads, 1);
   /* No such entry: an error, and the module still unloaded. */
   fakeModule.fail_function = FAKE_OTHER_ERROR;
   info.registers = -1;
   assert_int_equal(Gpu_moduleResources(&rt, &ops, ptx, "nothere", &info, err, sizeof err), BACKEND_ERR_OTHER);
   assert_non_null(strstr(err, "finding the kernel in the PTX"));
   assert_int_equal(info.registers, -1);
   assert_int_equal(fakeModule.unloads, 2);
   /* The driver refuses the PTX: said, nothing to unload. */
   fakeModule.fail_function = 0;
   fakeModule.fail_load = FAKE_OTHER_ERROR;
   assert_int_equal(Gpu_moduleResources(&rt, &ops, ptx, "gemm", &info, err, sizeof err), BACKEND_ERR_OTHER);
   assert_non_null(strstr(err, "loading the PTX"));
   assert_int_equal(fakeModule.unloads, 2);
}

static void test_split_options(void **state) {
   (void)state;
   char buf[] = "-DTS=16  -DWPT=8\t-DDOUBLE=0 ";
   const char *opts[4];
   assert_int_equal(Gpu_splitOptions(buf, opts, 4), 3);
   assert_string_equal(opts[0], "-DTS=16");
   assert_string_equal(opts[2], "-DDOUBLE=0");
   char more[] = "-DA=1 -DB=2 -DC=3";
   assert_int_equal(Gpu_splitOptions(more, opts, 2), -1); /* refused, not cut short */
}

/* ---- the vendor GEMM's call ---- */

/* BLAS's column-major GEMM, as cuBLAS and rocBLAS define it: element (i, j) of an
 * untransposed X is X[i + j * ld]. */
static void colGemm(bool ta, bool tb, int m, int n, int k, double alpha, const double *A, int lda, const double *B,
                    int ldb, double beta, double *C, int ldc) {
   for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
         double s = 0;
         for (int l = 0; l < k; l++)
            s += (ta ? A[l + i * lda] : A[i + l * lda]) * (tb ? B[j + l * ldb] : B[l + j * ldb]);
         C[i + j * ldc] = alpha * s + beta * C[i + j * ldc];
      }
}

static void test_column_major(void **state) {
   (void)state;
   for (int layout = 0; layout < 4; layout++) {
      BackendGemm p = {.m = 1 + (int)Rng_below(&g_rng, 9), .n = 1 + (int)Rng_below(&g_rng, 9),
                   .k = 1 + (int)Rng_below(&g_rng, 9), .precision = PRECISION_DOUBLE, .trans_a = layout & 2,
                   .trans_b = layout & 1, .alpha = Rng_range(&g_rng, -2, 2), .beta = Rng_range(&g_rng, -2, 2)};
      size_t na = (size_t)p.m * p.k, nb = (size_t)p.k * p.n, nc = (size_t)p.m * p.n;
      double *A = malloc(na * sizeof *A), *B = malloc(nb * sizeof *B), *C = malloc(nc * sizeof *C),
             *want = malloc(nc * sizeof *want);
      assert_true(A && B && C && want);
      for (size_t i = 0; i < na; i++) A[i] = Rng_range(&g_rng, -1, 1);
      for (size_t i = 0; i < nb; i++) B[i] = Rng_range(&g_rng, -1, 1);
      for (size_t i = 0; i < nc; i++) C[i] = want[i] = Rng_range(&g_rng, -1, 1);
      /* The row-major problem, as problem.h stores its operands. */
      for (int i = 0; i < p.m; i++)
         for (int j = 0; j < p.n; j++) {
            double s = 0;
            for (int l = 0; l < p.k; l++)
               s += (p.trans_a ? A[l * p.m + i] : A[i * p.k + l]) * (p.trans_b ? B[j * p.k + l] : B[l * p.n + j]);
            want[i * p.n + j] = p.alpha * s + p.beta * want[i * p.n + j];
         }
      GpuGemmCall g = Gpu_columnMajor(&p);
      colGemm(g.trans_first, g.trans_second, g.m, g.n, g.k, p.alpha, B, g.ld_first, A, g.ld_second, p.beta, C, g.ld_c);
      for (size_t i = 0; i < nc; i++)
         assert_true(fabs(C[i] - want[i]) <= 1e-12 * (1 + fabs(want[i])));
      free(A);
      free(B);
      free(C);
      free(want);
   }
}

int main(void) {
   uint64_t seed = Rng_freshSeed();
   printf("# seed %llu\n", (unsigned long long)seed);
   Rng_seed(&g_rng, seed);
   const struct CMUnitTest tests[] = {
       cmocka_unit_test_setup(test_arguments_and_grid, setup),
       cmocka_unit_test_setup(test_failures, setup),
       cmocka_unit_test_setup(test_hold, setup),
       cmocka_unit_test(test_profiler_injected),
       cmocka_unit_test_setup(test_limits_and_kernel_info, setup),
       cmocka_unit_test_setup(test_registers_from_ptx, setup),
       cmocka_unit_test(test_split_options),
       cmocka_unit_test(test_column_major),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
