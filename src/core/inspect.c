#include "core/inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend_hip.h"
#include "core/ablate.h"
#include "core/preproc.h"
#include "base/util.h"

void Inspection_free(Inspection *in) {
   free(in->code);
   free(in->source);
   free(in->build_log);
   in->code = in->source = in->build_log = NULL;
}

static void begin(Inspection *out) {
   memset(out, 0, sizeof *out);
   out->registers = -1;
   out->private_mem = -1;
}

static long long groupItems(const Geometry *g) {
   long long n = 1;
   for (int d = 0; d < g->dims; d++)
      n *= (long long)g->local[d];
   return n;
}

/* ---- CUDA's code through NVRTC ---- */

/* SASS through cuobjdump, when it is installed. */
static char *sassOf(const char *cubin, size_t size) {
   char dir[] = "/tmp/gemmtop-inspect-XXXXXX";
   if (!mkdtemp(dir))
      return NULL;
   char path[128], cmd[512];
   snprintf(path, sizeof path, "%s/k.cubin", dir);
   char *out = NULL;
   if (Util_writeFileAtomic(path, cubin, size)) {
      /* On PATH, else the newest toolkit under /usr/local. */
      snprintf(cmd, sizeof cmd,
               "t=$(command -v cuobjdump || ls -d /usr/local/cuda/bin/cuobjdump /usr/local/cuda-*/bin/cuobjdump "
               "2>/dev/null | tail -n 1); [ -n \"$t\" ] && \"$t\" -sass %s 2>/dev/null",
               path);
      out = Util_capture(cmd);
      unlink(path);
   }
   rmdir(dir);
   return out;
}

/* k with defines through NVRTC for arch: the CUBIN when want_cubin (its build log, with
 * ptxas's figures, in *log), then the PTX. On failure nothing but *log is left to free. */
static BackendStatus nvrtcCode(const Catalog *cat, const KernelInfo *k, const char *defines, const char *arch,
                               bool want_cubin, char **cubin, size_t *cubinLen, char **ptx, char **log, char *err,
                               size_t errlen) {
   *cubin = *ptx = *log = NULL;
   *cubinLen = 0;
   char *source = Session_sourceNamed(cat, true, k->source, k->path);
   char *ptxLog = NULL;
   size_t ptxLen = 0;
   BackendStatus st = !source     ? BACKEND_ERR_OTHER
                      : want_cubin ? Cuda_compileOnly(source, defines, arch, false, cubin, cubinLen, log, err, errlen)
                                   : BACKEND_OK;
   if (!source)
      snprintf(err, errlen, "out of host memory");
   if (st == BACKEND_OK)
      st = Cuda_compileOnly(source, defines, arch, true, ptx, &ptxLen, &ptxLog, err, errlen);
   free(source);
   free(ptxLog);
   if (st != BACKEND_OK) {
      free(*cubin);
      free(*ptx);
      *cubin = *ptx = NULL;
   }
   return st;
}

/* The target NVRTC compiles for: arch, with the "a" of an arch-specific kernel (sm_90a). */
static void cudaCodeArch(const char *defines, const char *arch, char *out, size_t len) {
   bool specific = Cuda_archSpecific(defines) && arch[strlen(arch) - 1] != 'a';
   snprintf(out, len, "%s%s", arch, specific ? "a" : "");
}

/* The code asked for from NVRTC's CUBIN and PTX (both freed): SASS through cuobjdump when
 * it is there, else PTX. */
static void pickCudaCode(InspectCode want, char *cubin, size_t cubinLen, char *ptx, Inspection *out) {
   if (want == INSPECT_CODE_SASS) {
      out->code = sassOf(cubin, cubinLen);
      snprintf(out->code_kind, sizeof out->code_kind, "SASS");
      if (!out->code)
         snprintf(out->warning, sizeof out->warning, "SASS needs cuobjdump (CUDA toolkit) on PATH; showing PTX instead");
   }
   if (want != INSPECT_CODE_NONE && !out->code) {
      out->code = ptx;
      ptx = NULL;
      snprintf(out->code_kind, sizeof out->code_kind, "PTX");
   }
   free(ptx);
   free(cubin);
}

/* ---- what every path finishes with ---- */

/* The kernel as the compiler reads it: the preludes and the kernel through the C
 * preprocessor with these defines; without cpp, the source as compiled with the defines
 * said above it. */
static void readSource(const Catalog *cat, const KernelInfo *k, const char *defines, bool cuda_prelude,
                       Inspection *out) {
   const char *p1 = cuda_prelude && cat->prelude_cuda ? cat->prelude_cuda : "", *p2 = cat->prelude ? cat->prelude : "";
   size_t plen = strlen(p1) + strlen(p2) + 2;
   char *pre = malloc(plen);
   const char *path = k->path[0] ? k->path : "kernel.cl", *base = strrchr(path, '/');
   char err[512] = "";
   if (pre) {
      snprintf(pre, plen, "%s\n%s", p1, p2);
      out->source = Preproc_kernel(pre, k->source, base ? base + 1 : path, defines, err, sizeof err);
      free(pre);
   }
   if (out->source) {
      snprintf(out->source_kind, sizeof out->source_kind, "%s after the preprocessor",
               cuda_prelude ? "the kernel (CUDA prelude)" : "OpenCL C");
      return;
   }
   size_t n = strlen(defines) + strlen(k->source) + 64;
   out->source = malloc(n);
   if (out->source)
      snprintf(out->source, n, "// compiled with %s\n%s", defines, k->source);
   snprintf(out->source_kind, sizeof out->source_kind, "OpenCL C source (%s)", err);
}

/* The occupancy from the resources, the counts from the code, or why there is none
 * (where: the backend and the platform that gave none; pocl: the device is PoCL's). */
static void finish(const InspectRequest *rq, const char *where, bool pocl, Inspection *out) {
   out->ok = true;
   out->occ = Occupancy_estimate(Occupancy_arch(out->arch), out->registers, out->local_mem, out->group_items);
   if (out->code) {
      out->assembly = true;
      if (!out->code_kind[0])
         snprintf(out->code_kind, sizeof out->code_kind, "code");
      Listing_count(out->code, Listing_kind(out->code_kind, out->code), &out->stats);
   } else if (out->note[0]) {
      /* said already */
   } else if (rq->code == INSPECT_CODE_NONE) {
      snprintf(out->note, sizeof out->note, "no code was asked for");
   } else if (pocl) {
      snprintf(out->note, sizeof out->note,
               "the device gives no assembly here: PoCL's CPU code needs llvm-objdump (Debian: apt-get install llvm)");
   } else {
      snprintf(out->note, sizeof out->note, "the device gives no assembly (%s)", where);
   }
}

/* ---- registers from PTX ---- */

/* NVIDIA's OpenCL reports registers in its build log, and leaves none when its own JIT
 * cache answered the build: the PTX it built is then loaded by a backend that can say
 * them (the CUDA driver), or, failing that, read by ptxas when it is installed. */
static void resourcesFromPtx(const char *ptx, const char *entry, Inspection *out) {
   BuildInfo info = {.registers = -1, .private_mem = -1, .local_mem = -1};
   char err[512] = "";
   for (int i = 0; i < Backend_count() && info.registers < 0; i++) {
      const Backend *b = Backend_at(i);
      if (b->ptxResources && b->ptxResources(ptx, entry, &info, err, sizeof err) == BACKEND_OK && info.registers >= 0) {
         snprintf(out->registers_from, sizeof out->registers_from, "the %s driver loading the PTX", b->title);
         out->registers = info.registers;
         if (info.private_mem >= 0)
            out->private_mem = info.private_mem;
         return;
      }
   }
   PtxasInfo pi;
   if (Ptxas_ofPtx(ptx, entry, &pi)) {
      out->ptxas = pi;
      out->registers = pi.registers;
      if (out->private_mem < 0)
         out->private_mem = pi.stack_bytes;
      snprintf(out->registers_from, sizeof out->registers_from, "ptxas on the PTX");
   }
}

/* ---- on a device ---- */

RunStatus Inspect_onDevice(Session *s, const InspectRequest *rq, Inspection *out) {
   begin(out);
   const Backend *be = Session_backend(s);
   const DeviceInfo *dev = Session_device(s);
   const KernelInfo *k = rq->kernel;
   RunResult *r = calloc(1, sizeof *r);
   if (!r) {
      snprintf(out->message, sizeof out->message, "out of host memory");
      return RUN_OUT_OF_MEMORY;
   }
   bool want = rq->code != INSPECT_CODE_NONE;
   /* On NVIDIA the PTX is also where the registers come from when the build log is silent. */
   bool nvidia = dev->vendor_kind == VENDOR_NVIDIA;
   RunStatus st = Session_compileAblated(s, k, rq->values, rq->problem, rq->ablate, r,
                                         want || nvidia ? &out->code : NULL, out->code_kind, sizeof out->code_kind);
   out->build_log = r->build_log;
   r->build_log = NULL;
   if (st != RUN_OK) {
      Util_copy(out->message, sizeof out->message, r->message);
      RunResult_free(r);
      free(r);
      return st;
   }
   snprintf(out->target, sizeof out->target, "%s %s", be->name, dev->name);
   Util_copy(out->arch, sizeof out->arch, dev->arch);
   Ptxas_parse(out->build_log, k->entry, &out->ptxas);
   out->registers = r->registers >= 0 ? r->registers : out->ptxas.found ? out->ptxas.registers : -1;
   out->local_mem = (r->local_mem >= 0 ? r->local_mem : r->geo.localmem) + r->geo.dynamic_smem;
   out->private_mem = r->private_mem;
   out->group_items = groupItems(&r->geo);
   if (out->registers < 0 && out->code && strstr(out->code_kind, "PTX"))
      resourcesFromPtx(out->code, k->entry, out);
   if (!want) {
      free(out->code);
      out->code = NULL;
      out->code_kind[0] = '\0';
   }
   /* A CUDA program is kept as CUBIN, which is not text: NVRTC again, same defines. */
   if (want && !out->code && Backend_can(be, BACKEND_CAP_OFFLINE_PTX) && dev->arch[0]) {
      char *cubin, *ptx, *log, err[512];
      size_t cubinLen;
      if (nvrtcCode(rq->catalog, k, r->defines, dev->arch, rq->code == INSPECT_CODE_SASS, &cubin, &cubinLen, &ptx,
                    &log, err, sizeof err) == BACKEND_OK) {
         pickCudaCode(rq->code, cubin, cubinLen, ptx, out);
         cudaCodeArch(r->defines, dev->arch, out->code_arch, sizeof out->code_arch);
      }
      free(log);
   }
   if (rq->source)
      readSource(rq->catalog, k, r->defines, Backend_can(be, BACKEND_CAP_CUDA_PRELUDE), out);
   char where[384];
   snprintf(where, sizeof where, "%s, %s", be->name, dev->platform);
   finish(rq, where, dev->is_pocl, out);
   RunResult_free(r);
   free(r);
   return RUN_OK;
}

/* ---- without a device ---- */

/* The configuration's launch for a kind of GPU and its defines (ablation included);
 * false with the refusal in out->message (the kernel's target, then the limits). */
static bool offlineLaunch(const InspectRequest *rq, const ConfigTarget *target, const DeviceLimits *lim,
                          const char *what, const char *arch, Geometry *g, char *defines, size_t defineslen,
                          Inspection *out) {
   char msg[1536];
   if (!Config_targetOk(rq->kernel, target, msg, sizeof msg)) {
      snprintf(out->message, sizeof out->message, "refused: %s", msg);
      return false;
   }
   if (!Config_check(rq->kernel, rq->values, rq->problem, lim, g, msg, sizeof msg)) {
      snprintf(out->message, sizeof out->message, "refused (limits of a %s GPU: %s): %s", arch, what, msg);
      return false;
   }
   Config_defines(rq->kernel, rq->values, rq->problem, g, defines, defineslen);
   Ablate_appendDefines(rq->ablate, defines, defineslen);
   return true;
}

/* An NVIDIA GPU of that architecture ("sm_90") through CUDA: 1024 work-items, warp 32,
 * 48 KiB of static shared memory, more when opted in (dynamic); whether it runs PTX
 * tensor instructions is the devices' own rule (Device_classify). */
static DeviceLimits cudaArchLimits(const char *arch) {
   DeviceInfo d = {.limits = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .fp64 = true, .warp = 32,
                              .dynamic_smem = true},
                   .inline_ptx = true};
   snprintf(d.arch, sizeof d.arch, "%s", arch);
   Device_classify(&d);
   static const struct {
      const char *prefix;
      unsigned long long optin;
   } optin[] = {{"sm_90", 232448}, {"sm_80", 166912}, {"sm_86", 101376}, {"sm_89", 101376}, {"sm_75", 65536}};
   for (size_t i = 0; i < sizeof optin / sizeof optin[0]; i++)
      if (!strncmp(arch, optin[i].prefix, strlen(optin[i].prefix)))
         d.limits.local_mem_optin = optin[i].optin;
   return d.limits;
}

/* NVRTC (BACKEND_CAP_OFFLINE_PTX) for sm_XX, with NVIDIA's limits. */
static RunStatus offlineCuda(const char *arch, const InspectRequest *rq, Inspection *out) {
   DeviceLimits lim = cudaArchLimits(arch);
   ConfigTarget target = {.backend = "CUDA", .arch_specific = true, .dynamic_smem = lim.dynamic_smem, .arch = arch,
                          .nvidia = true};
   Geometry g;
   char defines[1024];
   if (!offlineLaunch(rq, &target, &lim, "1024 work-items, 48 KiB static shared", arch, &g, defines, sizeof defines,
                      out))
      return RUN_INVALID;
   char *cubin, *ptx, err[512] = "";
   size_t cubinLen;
   if (nvrtcCode(rq->catalog, rq->kernel, defines, arch, true, &cubin, &cubinLen, &ptx, &out->build_log, err,
                 sizeof err) != BACKEND_OK) {
      Util_copy(out->message, sizeof out->message, err);
      return RUN_COMPILE_ERROR;
   }
   cudaCodeArch(defines, arch, out->code_arch, sizeof out->code_arch);
   snprintf(out->target, sizeof out->target, "cuda %s (NVRTC, no device needed)", out->code_arch);
   /* the occupancy tables know sm_90, which sm_90a is */
   snprintf(out->arch, sizeof out->arch, "%.*s", (int)strcspn(arch, "a"), arch);
   Ptxas_parse(out->build_log, rq->kernel->entry, &out->ptxas);
   /* NVRTC's log held no ptxas report on the H100 machine (its NVRTC, CUDA 13.0): ptxas
    * itself on the PTX then, where it is installed. */
   if (!out->ptxas.found && ptx && Ptxas_ofPtx(ptx, rq->kernel->entry, &out->ptxas))
      snprintf(out->registers_from, sizeof out->registers_from, "ptxas on the PTX");
   out->registers = out->ptxas.found ? out->ptxas.registers : -1;
   out->local_mem = (out->ptxas.found ? out->ptxas.shared_bytes : g.localmem) + g.dynamic_smem;
   out->private_mem = out->ptxas.found ? out->ptxas.stack_bytes : -1;
   out->group_items = groupItems(&g);
   pickCudaCode(rq->code, cubin, cubinLen, ptx, out);
   if (rq->source)
      readSource(rq->catalog, rq->kernel, defines, true, out);
   return RUN_OK;
}

/* hipRTC (BACKEND_CAP_OFFLINE_ISA) for gfxNNN, with AMD's limits (1024 work-items, 64 KiB LDS, wave64). */
static RunStatus offlineHip(const char *arch, const InspectRequest *rq, Inspection *out) {
   DeviceLimits lim = {.max_wg = 1024, .max_wi = {1024, 1024, 1024}, .local_mem = 65536, .fp64 = true, .warp = 64};
   ConfigTarget target = {.backend = "HIP", .arch = arch, .amd = true};
   Geometry g;
   char defines[1024];
   if (!offlineLaunch(rq, &target, &lim, "1024 work-items, 64 KiB LDS", arch, &g, defines, sizeof defines, out))
      return RUN_INVALID;
   char *source = Session_sourceNamed(rq->catalog, true, rq->kernel->source, rq->kernel->path);
   char *code = NULL, err[512] = "out of host memory";
   size_t size = 0;
   BackendStatus st = source ? Hip_compileOnly(source, defines, arch, &code, &size, &out->build_log, err, sizeof err)
                             : BACKEND_ERR_OTHER;
   free(source);
   if (st != BACKEND_OK) {
      Util_copy(out->message, sizeof out->message, err);
      return RUN_COMPILE_ERROR;
   }
   snprintf(out->target, sizeof out->target, "hip %s (hipRTC, no device needed)", arch);
   /* The processor of a full target id ("gfx90a:sramecc+:xnack-"): occupancy goes by it. */
   snprintf(out->arch, sizeof out->arch, "%.*s", (int)strcspn(arch, ":"), arch);
   HipResources hr;
   if (Hip_resources(code, size, &hr)) {
      out->registers = hr.vgprs;
      out->local_mem = hr.lds_bytes;
      out->private_mem = hr.scratch_bytes;
      snprintf(out->resources, sizeof out->resources, "VGPRs %d, SGPRs %d, spills %d VGPR / %d SGPR, scratch %ld B",
               hr.vgprs, hr.sgprs, hr.vgpr_spills, hr.sgpr_spills, hr.scratch_bytes);
   } else {
      out->local_mem = g.localmem;
      snprintf(out->resources, sizeof out->resources,
               "resource counts need llvm-readelf (Debian: apt-get install llvm)");
   }
   out->group_items = groupItems(&g);
   if (rq->code != INSPECT_CODE_NONE) {
      out->code = Hip_disassemble(code, size, out->arch);
      snprintf(out->code_kind, sizeof out->code_kind, "ISA");
      if (!out->code)
         snprintf(out->note, sizeof out->note, "AMD ISA needs llvm-objdump (Debian: apt-get install llvm)");
   }
   free(code);
   if (rq->source)
      readSource(rq->catalog, rq->kernel, defines, true, out);
   return RUN_OK;
}

RunStatus Inspect_offline(const Backend *be, const char *arch, const InspectRequest *rq, Inspection *out) {
   begin(out);
   RunStatus st;
   if (Backend_can(be, BACKEND_CAP_OFFLINE_PTX)) {
      st = offlineCuda(arch, rq, out);
   } else if (Backend_can(be, BACKEND_CAP_OFFLINE_ISA)) {
      st = offlineHip(arch, rq, out);
   } else {
      snprintf(out->message, sizeof out->message, "the %s backend does not compile without a device", be->title);
      return RUN_INVALID;
   }
   if (st == RUN_OK)
      finish(rq, be->name, false, out);
   return st;
}
