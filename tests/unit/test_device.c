/* The backend registry and the device properties the rest of gemmtop asks instead of
 * names: vendor, PoCL, inline PTX tensor instructions (sm_80+), as the runtimes name
 * their devices; --device by index, kind, device or platform name; the registry's
 * lookups; and the message a backend with no device gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"

static DeviceInfo device(DeviceType type, const char *platform, const char *vendor, const char *name, const char *arch,
                         const char *version, bool inline_ptx) {
   DeviceInfo d;
   memset(&d, 0, sizeof d);
   d.type = type;
   snprintf(d.platform, sizeof d.platform, "%s", platform);
   snprintf(d.vendor, sizeof d.vendor, "%s", vendor);
   snprintf(d.name, sizeof d.name, "%s", name);
   snprintf(d.arch, sizeof d.arch, "%s", arch);
   snprintf(d.version, sizeof d.version, "%s", version);
   d.inline_ptx = inline_ptx;
   Device_classify(&d);
   return d;
}

/* As the runtimes on the machines gemmtop runs on name their devices. */
static DeviceInfo poclCpu(void) {
   return device(DEVICE_CPU, "Portable Computing Language", "AuthenticAMD", "pthread-skylake-avx512-AMD EPYC", "",
                 "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-skylake-avx512", false);
}
static DeviceInfo nvidiaOpenCl(const char *arch) {
   return device(DEVICE_GPU, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H100 80GB HBM3", arch, "OpenCL 3.0 CUDA",
                 true);
}

static void test_classify(void **state) {
   (void)state;
   DeviceInfo d = poclCpu();
   assert_true(d.is_pocl);
   assert_int_equal(d.vendor_kind, VENDOR_AMD); /* the processor's maker */
   assert_false(d.tensor_ptx);
   assert_true(d.limits.cpu); /* its kernels get GT_CPU=1 */
   d = nvidiaOpenCl("sm_90");
   assert_false(d.is_pocl);
   assert_false(d.limits.cpu);
   assert_int_equal(d.vendor_kind, VENDOR_NVIDIA);
   assert_true(d.tensor_ptx);
   d = nvidiaOpenCl("sm_80");
   assert_true(d.tensor_ptx);
   d = nvidiaOpenCl("sm_75"); /* Turing: no sm_80 mma shapes */
   assert_false(d.tensor_ptx);
   d = nvidiaOpenCl("sm_120");
   assert_true(d.tensor_ptx);
   /* The CUDA backend's device; and an NVIDIA GPU under PoCL's CUDA driver: no inline PTX. */
   d = device(DEVICE_GPU, "NVIDIA CUDA (driver API, NVRTC)", "NVIDIA Corporation", "NVIDIA A100", "sm_80",
              "sm_80, NVRTC 12.4", true);
   assert_true(d.tensor_ptx);
   d = device(DEVICE_GPU, "Portable Computing Language", "NVIDIA Corporation", "NVIDIA A100", "sm_80",
              "OpenCL 3.0 PoCL", false);
   assert_true(d.is_pocl);
   assert_int_equal(d.vendor_kind, VENDOR_NVIDIA);
   assert_false(d.tensor_ptx);
   /* AMD by its arch alone, Intel by its vendor; "Lambda" is not AMD, whatever the case. */
   d = device(DEVICE_GPU, "AMD HIP (module API, hipRTC)", "", "", "gfx90a", "gfx90a:sramecc+:xnack-", false);
   assert_int_equal(d.vendor_kind, VENDOR_AMD);
   d = device(DEVICE_GPU, "Intel(R) OpenCL Graphics", "Intel(R) Corporation", "Intel(R) Arc(TM) A770 Graphics", "",
              "OpenCL 3.0 NEO", false);
   assert_int_equal(d.vendor_kind, VENDOR_INTEL);
   assert_false(d.is_pocl);
   d = device(DEVICE_GPU, "Lambda Labs", "lambda", "Lambda GPU", "", "OpenCL 1.2", false);
   assert_int_equal(d.vendor_kind, VENDOR_OTHER);
}

static void test_pick(void **state) {
   (void)state;
   char err[1024] = "";
   DeviceInfo devs[3] = {poclCpu(), nvidiaOpenCl("sm_90"),
                         device(DEVICE_CPU, "Intel(R) CPU Runtime for OpenCL(TM) Applications", "Intel(R) Corporation",
                                "Intel(R) Xeon(R) Platinum 8480+", "", "OpenCL 3.0 (Build 0)", false)};
   for (int i = 0; i < 3; i++)
      devs[i].index = i;
   assert_int_equal(Device_pick(devs, 3, NULL, err, sizeof err), 1); /* the GPU first */
   assert_int_equal(Device_pick(devs, 3, "2", err, sizeof err), 2);
   assert_int_equal(Device_pick(devs, 3, "pocl", err, sizeof err), 0);
   assert_int_equal(Device_pick(devs, 3, "POCL", err, sizeof err), 0);
   assert_int_equal(Device_pick(devs, 3, "cpu", err, sizeof err), 0);
   assert_int_equal(Device_pick(devs, 3, "gpu", err, sizeof err), 1);
   assert_int_equal(Device_pick(devs, 3, "nvidia", err, sizeof err), 1);
   assert_int_equal(Device_pick(devs, 3, "intel", err, sizeof err), 2);
   /* The kind before the name: "amd" is the AMD device, not the first with AMD in its name. */
   assert_int_equal(Device_pick(devs, 3, "amd", err, sizeof err), 0);
   assert_int_equal(Device_pick(devs, 3, "portable computing", err, sizeof err), 0);
   assert_int_equal(Device_pick(devs, 3, "H100", err, sizeof err), 1);
   assert_int_equal(Device_pick(devs, 3, "xeon", err, sizeof err), 2);
   /* One device fewer: no GPU now, so the kind finds none and says what there is. */
   assert_int_equal(Device_pick(devs + 2, 1, "gpu", err, sizeof err), -1);
   assert_non_null(strstr(err, "no device matches 'gpu'"));
   assert_non_null(strstr(err, "[0] Intel(R) Xeon(R) Platinum 8480+ (Intel(R) CPU Runtime"));
   assert_non_null(strstr(err, "pocl, nvidia, amd, intel, cpu, gpu"));
   assert_int_equal(Device_pick(devs, 3, "9", err, sizeof err), -1);
   assert_non_null(strstr(err, "no device 9: there are 3 (0 to 2)"));
   assert_int_equal(Device_pick(devs, 3, "", err, sizeof err), -1);
   assert_int_equal(Device_pick(devs, 0, NULL, err, sizeof err), -1);
   char kinds[64];
   Device_kinds(&devs[0], kinds, sizeof kinds);
   assert_string_equal(kinds, "pocl, amd, cpu");
   Device_kinds(&devs[1], kinds, sizeof kinds);
   assert_string_equal(kinds, "nvidia, gpu");
}

/* Many devices and a short message: they are counted, not cut off in the middle. */
static void test_pick_message_fits(void **state) {
   (void)state;
   enum { N = 40 };
   DeviceInfo *devs = calloc(N, sizeof *devs);
   assert_non_null(devs);
   for (int i = 0; i < N; i++) {
      char name[64];
      snprintf(name, sizeof name, "Accelerator number %d", i);
      devs[i] = device(DEVICE_ACCELERATOR, "Some Platform", "Some vendor", name, "", "OpenCL 1.2", false);
   }
   char err[400];
   assert_int_equal(Device_pick(devs, N, "nvidia", err, sizeof err), -1);
   assert_true(strlen(err) < sizeof err - 1);
   assert_non_null(strstr(err, " more; or a kind: pocl, nvidia, amd, intel, cpu, gpu; see 'gemmtop list devices'"));
   free(devs);
}

static void test_registry(void **state) {
   (void)state;
   assert_int_equal(Backend_count(), 3);
   assert_null(Backend_at(-1));
   assert_null(Backend_at(Backend_count()));
   char names[128];
   Backend_names(names, sizeof names);
   assert_string_equal(names, "opencl, cuda, hip");
   for (int i = 0; i < Backend_count(); i++) {
      const Backend *be = Backend_at(i);
      assert_ptr_equal(Backend_byName(be->name), be);
      assert_ptr_equal(Backend_byName(be->title), be); /* any case: "CUDA" */
      assert_non_null(be->findDevices);
      assert_non_null(be->vendorGemm);
      assert_non_null(be->vendor_library);
      /* An offline compile names its target (--arch), can say whether its compiler is here,
       * describes a GPU of each architecture it offers, and compiles. */
      const BackendOffline *off = be->offline;
      if (off) {
         assert_non_null(off->compiler);
         assert_non_null(off->present);
         assert_non_null(off->device);
         assert_non_null(off->compile);
         assert_memory_equal(off->arch_example, off->arch_prefix, strlen(off->arch_prefix));
         assert_non_null(off->targets[0].arch);
         for (const OfflineTarget *t = off->targets; t->arch; t++) {
            assert_memory_equal(t->arch, off->arch_prefix, strlen(off->arch_prefix));
            DeviceInfo d;
            off->device(t->arch, &d);
            assert_string_equal(d.arch, t->arch);
            assert_int_equal(d.type, DEVICE_GPU);
            assert_true(d.vendor_kind == VENDOR_NVIDIA || d.vendor_kind == VENDOR_AMD);
            assert_true(d.limits.max_wg >= 256 && d.limits.local_mem >= 49152);
         }
      }
   }
   assert_ptr_equal(Backend_byName("cl"), Backend_opencl());
   assert_null(Backend_byName("rocm"));
   assert_null(Backend_byName(NULL));
   /* The prelude and the offline compilers are capabilities and tables, not names. */
   assert_false(Backend_opencl()->caps & BACKEND_CAP_CUDA_PRELUDE);
   assert_true(Backend_cuda()->caps & BACKEND_CAP_CUDA_PRELUDE);
   assert_true(Backend_hip()->caps & BACKEND_CAP_CUDA_PRELUDE);
   assert_null(Backend_opencl()->offline);
   assert_non_null(Backend_cuda()->offline);
   assert_non_null(Backend_hip()->offline);
   assert_false(Backend_cuda()->offline->own_llvm);
   assert_true(Backend_hip()->offline->own_llvm); /* hipRTC's LLVM beside PoCL's aborts */
   char caps[512];
   Backend_describeCaps(Backend_cuda(), caps, sizeof caps);
   assert_non_null(strstr(caps, "compiles for sm_ architectures without a GPU (PTX, SASS)"));
   assert_non_null(strstr(caps, "vendor GEMM cuBLAS"));
}

/* A backend that finds nothing, as a runtime without its GPU. */
static int findNone(DeviceInfo **out, char *err, size_t errlen) {
   *out = NULL;
   snprintf(err, errlen, "found no test device");
   return 0;
}
static bool compilerHere(void) { return true; }
static bool compilerAbsent(void) { return false; }

static void test_no_device_message(void **state) {
   (void)state;
   Backend fake = *Backend_hip();
   fake.title = "Test";
   fake.name = "test";
   fake.findDevices = findNone;
   BackendOffline off = *Backend_hip()->offline;
   off.present = compilerAbsent;
   fake.offline = &off;
   DeviceInfo *devs = NULL;
   char err[512];
   assert_int_equal(Backend_listDevices(&fake, &devs, err, sizeof err), 0);
   assert_null(devs);
   assert_string_equal(err, "Test backend: found no test device; run with --backend opencl");
   off.present = compilerHere;
   assert_int_equal(Backend_listDevices(&fake, &devs, err, sizeof err), 0);
   assert_string_equal(err, "Test backend: found no test device; run with --backend opencl, or compile without a GPU: "
                            "'gemmtop inspect --backend test --arch gfx906'");
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_classify),
       cmocka_unit_test(test_pick),
       cmocka_unit_test(test_pick_message_fits),
       cmocka_unit_test(test_registry),
       cmocka_unit_test(test_no_device_message),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
