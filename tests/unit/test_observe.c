/* The observers (backend/observe.h) without a GPU: a made-up NVML (fake_nvml.c, loaded
 * from beside this test through $GEMMTOP_NVML) scripted with clocks, power and an energy
 * counter, a clock that the test moves, and a made-up sysfs tree for amdgpu. Checked: the
 * throttling warning when the clock falls and when the driver names a reason, energy per
 * GEMM and GFLOPS per watt from the counter, unknown energy below the counter's window,
 * the device matched by PCI bus id (and the fallback), an absent library, and no observer
 * for PoCL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/observe.h"
#include "cli/report.h"
#include "fake_nvml.h"

static char g_fake[PATH_MAX];
static FakeNvmlScriptFn *g_script;
static FakeNvmlCallsFn *g_calls;
static double g_now; /* the observer's clock, in ms: the test moves it */

static double testClock(void *arg) {
   (void)arg;
   return g_now;
}

static DeviceInfo gpu(VendorKind vendor, const char *pci) {
   DeviceInfo d;
   memset(&d, 0, sizeof d);
   snprintf(d.name, sizeof d.name, "%s", vendor == VENDOR_NVIDIA ? "NVIDIA H100 80GB HBM3" : "AMD Instinct MI100");
   d.type = DEVICE_GPU;
   d.vendor_kind = vendor;
   snprintf(d.pci_bus_id, sizeof d.pci_bus_id, "%s", pci);
   return d;
}

/* One GPU at 0000:65:00.0, the SM clock falling from 1980 to 1755 MHz, 100 mJ per read. */
static FakeNvmlScript fallingClock(void) {
   FakeNvmlScript s = {.count = 1, .pci_bus_id = "0000:65:00.0", .mem_mhz = 2619, .temp_c = 71};
   const unsigned sm[] = {1980, 1980, 1755, 1755, 1755};
   memcpy(s.sm_mhz, sm, sizeof sm);
   s.nsm = 5;
   s.power_mw[0] = 600000;
   s.npower = 1;
   for (int i = 0; i < 5; i++)
      s.energy_mj[i] = 5000000 + 100 * (unsigned long long)i;
   s.nenergy = 5;
   return s;
}

static Observer *openScripted(const FakeNvmlScript *s, const DeviceInfo *d, char *why, size_t whylen) {
   g_script(s);
   Observer *o = Observer_open(d, why, whylen);
   if (o)
      Observer_useClock(o, testClock, NULL);
   return o;
}

/* begin at 0 ms, a sample every step ms (launches - 1 of them), end: launches reads. */
static void observe(Observer *o, int launches, double step, double flops, double gflops, Observation *out) {
   g_now = 0;
   Observer_begin(o);
   for (int i = 1; i < launches; i++) {
      g_now += step;
      Observer_sample(o);
   }
   g_now += step;
   Observer_end(o, launches, flops, gflops, out);
}

/* The clock a judgement takes: none from a cleared observation or a driver that gave no
 * clock, else the median. */
static void test_sm_clock_of_an_observation(void **state) {
   (void)state;
   Observation o;
   Observation_clear(&o);
   assert_true(Observation_smMhz(&o) == 0);
   o.known = true; /* power, say, but no clock */
   assert_true(Observation_smMhz(&o) == 0);
   o.sm_mhz = 1755;
   assert_true(Observation_smMhz(&o) == 1755);
   o.known = false;
   assert_true(Observation_smMhz(&o) == 0);
}

static void test_clock_fall_is_throttling(void **state) {
   (void)state;
   char why[256];
   FakeNvmlScript s = fallingClock();
   DeviceInfo d = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   Observer *o = openScripted(&s, &d, why, sizeof why);
   assert_non_null(o);
   assert_non_null(strstr(Observer_describe(o), "by PCI bus id"));
   assert_string_equal(g_calls()->asked_pci, "0000:65:00.0");
   Observation ob;
   observe(o, 4, 50, 2e9, 0, &ob); /* 4 launches over 200 ms: 5 reads */
   assert_true(ob.known);
   assert_string_equal(ob.source, "NVML");
   assert_float_equal(ob.sm_mhz_start, 1980, 1e-9);
   assert_float_equal(ob.sm_mhz_min, 1755, 1e-9);
   assert_float_equal(ob.sm_mhz, 1755, 1e-9); /* the median of 1980 1980 1755 1755 1755 */
   assert_float_equal(ob.mem_mhz, 2619, 1e-9);
   assert_float_equal(ob.temp_c, 71, 1e-9);
   assert_true(ob.throttled);
   assert_string_equal(ob.throttle_reason, "clock fell 1980 -> 1755 MHz");
   /* 400 mJ over 4 launches in 200 ms: 0.1 J each, 2 W; 2 GFLOP / 0.1 J = 20 GFLOPS/W */
   assert_float_equal(ob.energy_j, 0.1, 1e-12);
   assert_float_equal(ob.power_w, 2.0, 1e-9);
   assert_float_equal(ob.gflops_per_w, 20.0, 1e-9);
   Observer_close(o);
}

static void test_steady_clock_is_not_throttling(void **state) {
   (void)state;
   char why[256];
   FakeNvmlScript s = fallingClock();
   const unsigned sm[] = {1980, 1965, 1980}; /* one boost step: not a fall */
   memcpy(s.sm_mhz, sm, sizeof sm);
   s.nsm = 3;
   s.reasons = 0x1; /* idle: a state, not throttling */
   DeviceInfo d = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   Observer *o = openScripted(&s, &d, why, sizeof why);
   assert_non_null(o);
   Observation ob;
   observe(o, 10, 20, 2e9, 0, &ob);
   assert_false(ob.throttled);
   assert_string_equal(ob.throttle_reason, "");
   Observer_close(o);
}

static void test_driver_reason_is_throttling(void **state) {
   (void)state;
   char why[256];
   FakeNvmlScript s = fallingClock();
   s.sm_mhz[0] = 1755;
   s.nsm = 1;
   s.reasons = 0x4 | 0x20; /* software power cap, software thermal slowdown */
   DeviceInfo d = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   Observer *o = openScripted(&s, &d, why, sizeof why);
   assert_non_null(o);
   Observation ob;
   observe(o, 10, 20, 2e9, 0, &ob);
   assert_true(ob.throttled);
   assert_string_equal(ob.throttle_reason, "power cap, thermal");
   Observer_close(o);
}

/* A window shorter than the counter's resolution: no energy per GEMM, the sampled power. */
static void test_short_window_has_no_energy(void **state) {
   (void)state;
   char why[256];
   FakeNvmlScript s = fallingClock();
   const unsigned mw[] = {500000, 700000};
   memcpy(s.power_mw, mw, sizeof mw);
   s.npower = 2;
   DeviceInfo d = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   Observer *o = openScripted(&s, &d, why, sizeof why);
   assert_non_null(o);
   Observation ob;
   observe(o, 2, 20, 2e9, 3000, &ob); /* 40 ms: below OBSERVE_MIN_ENERGY_MS */
   assert_true(isnan(ob.energy_j));
   /* reads: 500, 700, 700 W */
   assert_float_equal(ob.power_w, (500.0 + 700 + 700) / 3, 1e-9);
   assert_float_equal(ob.gflops_per_w, 3000 / ob.power_w, 1e-9);
   Observer_close(o);
}

/* Without an energy counter, power and GFLOPS/W come from the power samples alone. */
static void test_no_counter(void **state) {
   (void)state;
   char why[256];
   FakeNvmlScript s = fallingClock();
   s.nenergy = 0;
   DeviceInfo d = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   Observer *o = openScripted(&s, &d, why, sizeof why);
   assert_non_null(o);
   Observation ob;
   observe(o, 20, 50, 2e9, 1200, &ob);
   assert_true(isnan(ob.energy_j));
   assert_float_equal(ob.power_w, 600, 1e-9);
   assert_float_equal(ob.gflops_per_w, 2, 1e-9);
   Observer_close(o);
}

/* Samples closer than OBSERVE_SAMPLE_MS do not read the driver. */
static void test_sampling_is_rate_limited(void **state) {
   (void)state;
   char why[256];
   FakeNvmlScript s = fallingClock();
   DeviceInfo d = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   Observer *o = openScripted(&s, &d, why, sizeof why);
   assert_non_null(o);
   g_now = 0;
   Observer_begin(o);
   for (int i = 0; i < 1000; i++) {
      g_now += 0.001; /* a microsecond a launch: a whole millisecond in all */
      Observer_sample(o);
   }
   Observation ob;
   Observer_end(o, 1000, 2e9, 0, &ob);
   assert_int_equal(g_calls()->sm, 2); /* begin and end */
   Observer_close(o);
}

static void test_matching(void **state) {
   (void)state;
   char why[256];
   FakeNvmlScript s = fallingClock();
   /* No PCI bus id from the runtime, one GPU: that one, said so. */
   DeviceInfo d = gpu(VENDOR_NVIDIA, "");
   Observer *o = openScripted(&s, &d, why, sizeof why);
   assert_non_null(o);
   assert_non_null(strstr(Observer_describe(o), "only GPU"));
   Observer_close(o);
   /* No PCI bus id and two GPUs: none, rather than the wrong one. */
   s.count = 2;
   assert_null(openScripted(&s, &d, why, sizeof why));
   assert_non_null(strstr(why, "several GPUs"));
   /* A PCI bus id that NVML does not know, among two GPUs: none. */
   d = gpu(VENDOR_NVIDIA, "0000:b3:00.0");
   assert_null(openScripted(&s, &d, why, sizeof why));
   assert_non_null(strstr(why, "PCI bus id"));
   /* NVML that does not initialise (no driver running). NVML is set up once per library
    * path: the same file by another spelling makes it start again. */
   char again[PATH_MAX + 8];
   snprintf(again, sizeof again, "%s", g_fake);
   char *slash = strrchr(again, '/');
   memmove(slash + 2, slash, strlen(slash) + 1);
   memcpy(slash, "/.", 2);
   setenv("GEMMTOP_NVML", again, 1);
   s = fallingClock();
   s.init_result = 9;
   d = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   assert_null(openScripted(&s, &d, why, sizeof why));
   assert_non_null(strstr(why, "did not initialise"));
   setenv("GEMMTOP_NVML", g_fake, 1);
}

static void test_absent_library_and_pocl(void **state) {
   (void)state;
   char why[256];
   setenv("GEMMTOP_NVML", "/nonexistent/libnvidia-ml.so.1", 1);
   DeviceInfo d = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   assert_null(Observer_open(&d, why, sizeof why));
   assert_non_null(strstr(why, "NVML not found"));
   setenv("GEMMTOP_NVML", g_fake, 1);
   /* PoCL on a CPU (even an AMD one): no observer, whatever the libraries. */
   DeviceInfo cpu = gpu(VENDOR_AMD, "");
   cpu.type = DEVICE_CPU;
   cpu.is_pocl = true;
   assert_null(Observer_open(&cpu, why, sizeof why));
   FakeNvmlScript s = fallingClock();
   DeviceInfo pocl_gpu = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   pocl_gpu.is_pocl = true; /* PoCL's CUDA driver: not observed */
   assert_null(openScripted(&s, &pocl_gpu, why, sizeof why));
}

/* ---- amdgpu's hwmon files ---- */

static char g_root[PATH_MAX];

static void writeFile(const char *dir, const char *name, const char *text) {
   char path[PATH_MAX * 2];
   snprintf(path, sizeof path, "%s/%s", dir, name);
   FILE *f = fopen(path, "w");
   assert_non_null(f);
   fputs(text, f);
   fclose(f);
}

static void makeDirs(const char *path) {
   char buf[PATH_MAX];
   snprintf(buf, sizeof buf, "%s", path);
   for (char *p = buf + 1; *p; p++)
      if (*p == '/') {
         *p = '\0';
         mkdir(buf, 0755);
         *p = '/';
      }
   mkdir(buf, 0755);
}

/* A card's hwmon folder under dir (a PCI device's folder) with the sensor files. */
static void makeHwmon(const char *device, const char *name, bool energy) {
   char hw[PATH_MAX];
   snprintf(hw, sizeof hw, "%s/hwmon/hwmon3", device);
   makeDirs(hw);
   writeFile(hw, "name", name);
   writeFile(hw, "freq1_input", "1502000000\n");
   writeFile(hw, "freq2_input", "1200000000\n");
   writeFile(hw, "power1_average", "187000000\n");
   writeFile(hw, "temp1_input", "64000\n");
   if (energy)
      writeFile(hw, "energy1_input", "7000000\n");
}

static void test_amdgpu_sysfs(void **state) {
   (void)state;
   char why[256], dir[PATH_MAX * 2];
   snprintf(g_root, sizeof g_root, "%s/gemmtop-sysfs-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
   assert_non_null(mkdtemp(g_root));
   setenv("GEMMTOP_SYSFS_ROOT", g_root, 1);
   DeviceInfo d = gpu(VENDOR_AMD, "0000:03:00.0");
   assert_null(Observer_open(&d, why, sizeof why)); /* an empty tree */
   assert_non_null(strstr(why, "no amdgpu sensors"));

   snprintf(dir, sizeof dir, "%s/bus/pci/devices/0000:03:00.0", g_root);
   makeHwmon(dir, "amdgpu\n", false);
   Observer *o = Observer_open(&d, why, sizeof why);
   assert_non_null(o);
   assert_non_null(strstr(Observer_describe(o), "by PCI bus id"));
   Observer_useClock(o, testClock, NULL);
   Observation ob;
   observe(o, 10, 20, 2e9, 935, &ob);
   assert_true(ob.known);
   assert_string_equal(ob.source, "sysfs");
   assert_float_equal(ob.sm_mhz, 1502, 1e-9);
   assert_float_equal(ob.mem_mhz, 1200, 1e-9);
   assert_float_equal(ob.power_w, 187, 1e-9);
   assert_float_equal(ob.temp_c, 64, 1e-9);
   assert_true(isnan(ob.energy_j)); /* no energy file */
   assert_float_equal(ob.gflops_per_w, 5, 1e-9);
   assert_false(ob.throttled);
   Observer_close(o);

   /* No PCI bus id: the only amdgpu card under class/drm (a drm connector and another
    * driver's hwmon are not cards). */
   snprintf(dir, sizeof dir, "%s/class/drm/card1/device", g_root);
   makeHwmon(dir, "amdgpu\n", true);
   snprintf(dir, sizeof dir, "%s/class/drm/card0/device", g_root);
   makeHwmon(dir, "nvme\n", false);
   snprintf(dir, sizeof dir, "%s/class/drm/card1-DP-1/device", g_root);
   makeHwmon(dir, "amdgpu\n", false);
   d = gpu(VENDOR_AMD, "");
   o = Observer_open(&d, why, sizeof why);
   assert_non_null(o);
   assert_non_null(strstr(Observer_describe(o), "only GPU"));
   Observer_close(o);
   /* Two amdgpu cards and no PCI bus id: none. */
   snprintf(dir, sizeof dir, "%s/class/drm/card2/device", g_root);
   makeHwmon(dir, "amdgpu\n", false);
   assert_null(Observer_open(&d, why, sizeof why));
   assert_non_null(strstr(why, "several GPUs"));
   char cmd[PATH_MAX + 16];
   snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_root);
   assert_int_equal(system(cmd), 0);
}

/* ---- what `gemmtop run` prints of it ---- */

static char *report(OutputFormat format, const RunResult *r) {
   static KernelInfo k;
   snprintf(k.name, sizeof k.name, "mygemm01_naive");
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = 1024;
   DeviceInfo d = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   RunOptions ro = {.reps = r->reps, .warmup = 1};
   char *text = NULL;
   size_t len = 0;
   FILE *f = open_memstream(&text, &len);
   assert_non_null(f);
   Report_run(f, format, "cuda", &d, &k, NULL, &p, 1, &ro, r, NULL, NULL);
   fclose(f);
   return text;
}

static void test_run_report(void **state) {
   (void)state;
   char why[256];
   FakeNvmlScript s = fallingClock();
   DeviceInfo d = gpu(VENDOR_NVIDIA, "0000:65:00.0");
   Observer *o = openScripted(&s, &d, why, sizeof why);
   assert_non_null(o);
   RunResult *r = calloc(1, sizeof *r);
   assert_non_null(r);
   r->status = RUN_OK;
   r->reps = 4;
   r->median_ms = r->min_ms = r->max_ms = 1;
   r->gflops = 2147;
   r->cold_l2 = true;
   snprintf(r->cold_l2_method, sizeof r->cold_l2_method, "rotating 3 copies of A and B");
   observe(o, 4, 50, 2e9, r->gflops, &r->obs);
   Observer_close(o);
   char *table = report(FORMAT_TABLE, r);
   assert_non_null(strstr(table, "launches after 1 warm-up, cold L2)"));
   assert_non_null(strstr(table, "cold L2    rotating 3 copies of A and B"));
   assert_non_null(strstr(table, "driver     1755 MHz SM (1980 at the start), 2619 MHz memory, 2 W, 71 C, 0.1 J per GEMM, "
                                 "20.0 GFLOPS/W  (NVML)"));
   assert_non_null(strstr(table, "THROTTLED  clock fell 1980 -> 1755 MHz"));
   free(table);
   char *json = report(FORMAT_JSON, r);
   assert_non_null(strstr(json, "\"energy_j\":0.1,"));
   assert_non_null(strstr(json, "\"gflops_per_w\":20,"));
   assert_non_null(strstr(json, "\"throttled\":true,\"throttle_reason\":\"clock fell 1980 -> 1755 MHz\""));
   assert_non_null(strstr(json, "\"l2\":\"cold\",\"cold_l2\":true"));
   free(json);
   /* Nothing observed: no driver line in the table, null in JSON, warm L2 said. */
   Observation_clear(&r->obs);
   r->cold_l2 = false;
   r->cold_l2_method[0] = '\0';
   table = report(FORMAT_TABLE, r);
   assert_null(strstr(table, "driver "));
   assert_null(strstr(table, "n/a"));
   assert_non_null(strstr(table, "warm L2)"));
   free(table);
   json = report(FORMAT_JSON, r);
   assert_non_null(strstr(json, "\"sm_mhz\":null,"));
   assert_non_null(strstr(json, "\"energy_j\":null,"));
   assert_non_null(strstr(json, "\"l2\":\"warm\",\"cold_l2\":false,\"cold_l2_method\":null"));
   free(json);
   free(r);
}

int main(void) {
   /* The made-up NVML lies beside this program. */
   char self[PATH_MAX];
   ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
   if (n <= 0)
      return 1;
   self[n] = '\0';
   *strrchr(self, '/') = '\0';
   snprintf(g_fake, sizeof g_fake, "%s/libfake_nvml.so", self);
   void *lib = dlopen(g_fake, RTLD_NOW | RTLD_LOCAL);
   if (!lib) {
      fprintf(stderr, "cannot load %s: %s (make %s)\n", g_fake, dlerror(), g_fake);
      return 1;
   }
   *(void **)&g_script = dlsym(lib, "FakeNvml_script");
   *(void **)&g_calls = dlsym(lib, "FakeNvml_calls");
   if (!g_script || !g_calls)
      return 1;
   setenv("GEMMTOP_NVML", g_fake, 1);
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_sm_clock_of_an_observation),
       cmocka_unit_test(test_clock_fall_is_throttling), cmocka_unit_test(test_steady_clock_is_not_throttling),
       cmocka_unit_test(test_driver_reason_is_throttling), cmocka_unit_test(test_short_window_has_no_energy),
       cmocka_unit_test(test_no_counter), cmocka_unit_test(test_sampling_is_rate_limited),
       cmocka_unit_test(test_matching), cmocka_unit_test(test_absent_library_and_pocl),
       cmocka_unit_test(test_amdgpu_sysfs), cmocka_unit_test(test_run_report),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
