#include "core/analyse/inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/run/ablate.h"
#include "core/analyse/preproc.h"
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

/* ---- through a backend's offline compiler ---- */

/* What to ask an offline compile for; on a device (resources known) the listing alone. */
static OfflineListing listingOf(InspectCode want, bool on_device) {
   return want == INSPECT_CODE_NONE   ? OFFLINE_LIST_NONE
          : want == INSPECT_CODE_SASS ? OFFLINE_LIST_MACHINE
          : on_device                 ? OFFLINE_LIST_ONLY
                                      : OFFLINE_LIST_DEFAULT;
}

/* k with defines through be's offline compiler for arch (be->offline non-NULL). On failure
 * only code->log is left to free (OfflineCode_free). */
static BackendStatus offlineCode(const Backend *be, const Catalog *cat, const KernelInfo *k, const char *defines,
                                 const char *arch, InspectCode want, bool on_device, OfflineCode *code, char *err,
                                 size_t errlen) {
   memset(code, 0, sizeof *code);
   char *source = Session_sourceNamed(cat, Backend_can(be, BACKEND_CAP_CUDA_PRELUDE), k->source, k->path);
   if (!source) {
      snprintf(err, errlen, "out of host memory");
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   BackendStatus st = be->offline->compile(source, defines, arch, k->entry, listingOf(want, on_device), code, err, errlen);
   free(source);
   return st;
}

/* The listing of an offline compile, taken into out (code->code is then out's). */
static void takeListing(OfflineCode *code, Inspection *out) {
   out->code = code->code;
   code->code = NULL;
   Util_copy(out->code_kind, sizeof out->code_kind, code->code_kind);
   Util_copy(out->code_arch, sizeof out->code_arch, code->code_arch);
   Util_copy(out->note, sizeof out->note, code->note);
   Util_copy(out->warning, sizeof out->warning, code->warning);
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

static RunStatus inspectOnDevice(Session *s, const InspectRequest *rq, Inspection *out) {
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
   /* A program that is not text (CUDA keeps CUBIN): the backend's offline compiler again,
    * the same defines, for the device's architecture. */
   if (want && !out->code && be->offline && dev->arch[0]) {
      OfflineCode code;
      char err[512];
      if (offlineCode(be, rq->catalog, k, r->defines, dev->arch, rq->code, true, &code, err, sizeof err) == BACKEND_OK)
         takeListing(&code, out);
      OfflineCode_free(&code);
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

static RunStatus inspectOffline(const Backend *be, const char *arch, const InspectRequest *rq, Inspection *out) {
   begin(out);
   const BackendOffline *off = be->offline;
   if (!off) {
      snprintf(out->message, sizeof out->message, "the %s backend does not compile without a device", be->title);
      return RUN_INVALID;
   }
   DeviceInfo dev;
   off->device(arch, &dev);
   if (rq->compute_units) /* a persistent grid's size (CUS): its stream-K paths are compiled only past 1 */
      dev.compute_units = dev.limits.compute_units = rq->compute_units;
   ConfigTarget target = Session_targetFor(be, &dev);
   target.arch = arch;
   Geometry g;
   char defines[1024];
   if (!offlineLaunch(rq, &target, &dev.limits, off->limits_text, arch, &g, defines, sizeof defines, out))
      return RUN_INVALID;
   OfflineCode code;
   char err[512] = "";
   if (offlineCode(be, rq->catalog, rq->kernel, defines, arch, rq->code, false, &code, err, sizeof err) != BACKEND_OK) {
      Util_copy(out->message, sizeof out->message, err);
      out->build_log = code.log;
      return RUN_COMPILE_ERROR;
   }
   out->build_log = code.log;
   code.log = NULL;
   snprintf(out->target, sizeof out->target, "%s %s (%s, no device needed)", be->name, code.code_arch,
            code.compiler[0] ? code.compiler : off->compiler);
   Util_copy(out->arch, sizeof out->arch, code.arch);
   out->ptxas = code.ptxas;
   out->registers = code.registers;
   out->private_mem = code.private_mem;
   out->local_mem = (code.local_mem >= 0 ? code.local_mem : g.localmem) + g.dynamic_smem;
   out->group_items = groupItems(&g);
   out->geo = g;
   Util_copy(out->registers_from, sizeof out->registers_from, code.registers_from);
   Util_copy(out->resources, sizeof out->resources, code.resources);
   takeListing(&code, out);
   OfflineCode_free(&code);
   if (rq->source)
      readSource(rq->catalog, rq->kernel, defines, Backend_can(be, BACKEND_CAP_CUDA_PRELUDE), out);
   finish(rq, be->name, false, out);
   return RUN_OK;
}

/* ---- an ablated kernel against the real one ---- */

/* The real kernel's code counted beside an ablated one's, so that Ablate_loopKept can say
 * whether the compiler kept the loop. The real build is the one its runs made (a cache load). */
static void countReal(const InspectRequest *rq, Inspection *out, Session *s, const Backend *be, const char *arch) {
   if (!rq->ablate || !out->ok || !out->assembly)
      return;
   InspectRequest real = *rq;
   real.ablate = 0;
   real.source = false;
   real.code = INSPECT_CODE_DEFAULT;
   Inspection *in = calloc(1, sizeof *in);
   if (!in)
      return;
   RunStatus st = s ? inspectOnDevice(s, &real, in) : inspectOffline(be, arch, &real, in);
   if (st == RUN_OK && in->ok && in->assembly) {
      out->have_real = true;
      out->real_stats = in->stats;
   }
   Inspection_free(in);
   free(in);
}

RunStatus Inspect_onDevice(Session *s, const InspectRequest *rq, Inspection *out) {
   RunStatus st = inspectOnDevice(s, rq, out);
   if (st == RUN_OK)
      countReal(rq, out, s, NULL, NULL);
   return st;
}

RunStatus Inspect_offline(const Backend *be, const char *arch, const InspectRequest *rq, Inspection *out) {
   RunStatus st = inspectOffline(be, arch, rq, out);
   if (st == RUN_OK)
      countReal(rq, out, NULL, be, arch);
   return st;
}
