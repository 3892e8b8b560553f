/* gemmtop inspect: what the compiler made of a configuration — resources (registers,
 * spills, local/shared memory), an occupancy estimate with its limiting resource, and the
 * code (PTX, SASS). Through NVRTC it needs no GPU: --backend cuda --arch sm_90. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ablate.h"
#include "backend/backend_hip.h"
#include "cli/cli.h"
#include "core/listing.h"
#include "core/occupancy.h"
#include "core/ptxas.h"
#include "cli/report.h"
#include "core/util.h"

typedef struct Inspection_ {
   char target[64];     /* "cuda sm_90 (NVRTC 13.0)" */
   char arch[16];
   int registers;
   long long local_bytes;   /* shared / local memory per group */
   long long private_bytes; /* spills / private memory per work-item, -1 unknown */
   PtxasInfo ptxas;
   long long group_items;
   Occupancy occ;
   char code_kind[64];
   char *code;
   ListingStats stats;      /* counted from code */
   char *log;
   char extra[160];     /* backend-specific resource line */
} Inspection;

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

/* An NVIDIA GPU of that architecture ("sm_90") through CUDA: whether it runs PTX tensor
 * instructions is the devices' own rule (Device_classify); 48 KiB of static shared
 * memory, more when opted in (dynamic). */
static DeviceLimits archDeviceLimits(const char *arch) {
   DeviceInfo d = {.limits = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .fp64 = true, .warp = 32},
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

/* --ablate: the switches' defines, as Session_run compiles them. */
static void appendAblation(const Options *o, char *defines, size_t len) { Ablate_appendDefines(o->ablate, defines, len); }

static void pickCudaCode(const Options *o, char *cubin, size_t cubinLen, char *ptx, Inspection *in);

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

/* NVRTC without a device. */
static int inspectCudaOffline(const Options *o, const Catalog *cat, const KernelInfo *k, const long long *values,
                              const Problem *p, Inspection *in) {
   DeviceLimits lim = archDeviceLimits(o->arch);
   Geometry g;
   char msg[1536];
   ConfigTarget target = {.backend = "CUDA", .arch_specific = true, .dynamic_smem = true, .arch = o->arch,
                          .nvidia = true};
   if (!Config_targetOk(k, &target, msg, sizeof msg)) {
      fprintf(stderr, "gemmtop: refused: %s\n", msg);
      return 2;
   }
   if (!Config_check(k, values, p, &lim, &g, msg, sizeof msg)) {
      fprintf(stderr, "gemmtop: refused (limits of a %s GPU: 1024 work-items, 48 KiB static shared): %s\n", o->arch,
              msg);
      return 2;
   }
   char defines[1024];
   Config_defines(k, values, p, &g, defines, sizeof defines);
   appendAblation(o, defines, sizeof defines);
   char *cubin, *ptx, *log, err[512] = "";
   size_t cubinLen;
   if (nvrtcCode(cat, k, defines, o->arch, true, &cubin, &cubinLen, &ptx, &log, err, sizeof err) != BACKEND_OK) {
      fprintf(stderr, "gemmtop: %s\n%s\n", err, log ? log : "");
      free(log);
      return 1;
   }
   bool specific = Cuda_archSpecific(defines) && o->arch[strlen(o->arch) - 1] != 'a';
   snprintf(in->target, sizeof in->target, "cuda %s%s (NVRTC, no device needed)", o->arch, specific ? "a" : "");
   /* the occupancy tables know sm_90, which sm_90a is */
   snprintf(in->arch, sizeof in->arch, "%.*s", (int)strcspn(o->arch, "a"), o->arch);
   Ptxas_parse(log, k->entry, &in->ptxas);
   in->registers = in->ptxas.found ? in->ptxas.registers : -1;
   in->local_bytes = (in->ptxas.found ? in->ptxas.shared_bytes : g.localmem) + g.dynamic_smem;
   in->private_bytes = in->ptxas.found ? in->ptxas.stack_bytes : -1;
   in->group_items = 1;
   for (int d = 0; d < g.dims; d++)
      in->group_items *= (long long)g.local[d];
   in->log = log;
   pickCudaCode(o, cubin, cubinLen, ptx, in);
   return 0;
}

/* The code --code asks for from NVRTC's CUBIN and PTX (both freed): SASS through
 * cuobjdump when it is on PATH, else PTX. */
static void pickCudaCode(const Options *o, char *cubin, size_t cubinLen, char *ptx, Inspection *in) {
   const char *want = o->code ? o->code : "ptx";
   if (!strcmp(want, "sass")) {
      in->code = sassOf(cubin, cubinLen);
      snprintf(in->code_kind, sizeof in->code_kind, "SASS");
      if (!in->code) {
         fprintf(stderr, "gemmtop: --code sass needs cuobjdump (CUDA toolkit) on PATH; showing PTX instead\n");
         want = "ptx";
      }
   }
   if (!strcmp(want, "ptx")) {
      in->code = ptx;
      ptx = NULL;
      snprintf(in->code_kind, sizeof in->code_kind, "PTX");
   }
   free(ptx);
   free(cubin);
}

/* On a CUDA device the program is kept as CUBIN, which is not text: the code comes from
 * NVRTC again with the same defines, for the device's architecture. */
static void cudaDeviceCode(const Options *o, const Catalog *cat, const KernelInfo *k, const char *defines,
                           const char *arch, Inspection *in) {
   char *cubin, *ptx, *log, err[512];
   size_t cubinLen;
   bool sass = o->code && !strcmp(o->code, "sass");
   BackendStatus st = nvrtcCode(cat, k, defines, arch, sass, &cubin, &cubinLen, &ptx, &log, err, sizeof err);
   free(log);
   if (st == BACKEND_OK)
      pickCudaCode(o, cubin, cubinLen, ptx, in);
}

/* hipRTC without a device: AMD's limits (1024 work-items, 64 KiB LDS, wave64). */
static int inspectHipOffline(const Options *o, const Catalog *cat, const KernelInfo *k, const long long *values,
                             const Problem *p, Inspection *in) {
   DeviceLimits lim = {.max_wg = 1024, .max_wi = {1024, 1024, 1024}, .local_mem = 65536, .fp64 = true, .warp = 64};
   Geometry g;
   char msg[1536];
   ConfigTarget target = {.backend = "HIP", .arch = o->arch};
   if (!Config_targetOk(k, &target, msg, sizeof msg)) {
      fprintf(stderr, "gemmtop: refused: %s\n", msg);
      return 2;
   }
   if (!Config_check(k, values, p, &lim, &g, msg, sizeof msg)) {
      fprintf(stderr, "gemmtop: refused (limits of a %s GPU: 1024 work-items, 64 KiB LDS): %s\n", o->arch, msg);
      return 2;
   }
   char defines[1024];
   Config_defines(k, values, p, &g, defines, sizeof defines);
   appendAblation(o, defines, sizeof defines);
   char *source = Session_sourceNamed(cat, true, k->source, k->path);
   char *code = NULL, *log = NULL, err[512];
   size_t size = 0;
   BackendStatus st = source ? Hip_compileOnly(source, defines, o->arch, &code, &size, &log, err, sizeof err)
                             : BACKEND_ERR_OTHER;
   free(source);
   if (st != BACKEND_OK) {
      fprintf(stderr, "gemmtop: %s\n%s\n", err, log ? log : "");
      free(log);
      return 1;
   }
   snprintf(in->target, sizeof in->target, "hip %s (hipRTC, no device needed)", o->arch);
   /* The processor of a full target id ("gfx90a:sramecc+:xnack-"): occupancy goes by it. */
   snprintf(in->arch, sizeof in->arch, "%.*s", (int)strcspn(o->arch, ":"), o->arch);
   HipResources hr;
   if (Hip_resources(code, size, &hr)) {
      in->registers = hr.vgprs;
      in->local_bytes = hr.lds_bytes;
      in->private_bytes = hr.scratch_bytes;
      snprintf(in->extra, sizeof in->extra, "VGPRs %d, SGPRs %d, spills %d VGPR / %d SGPR, scratch %ld B", hr.vgprs,
               hr.sgprs, hr.vgpr_spills, hr.sgpr_spills, hr.scratch_bytes);
   } else {
      in->registers = -1;
      in->local_bytes = g.localmem;
      in->private_bytes = -1;
      snprintf(in->extra, sizeof in->extra, "resource counts need llvm-readelf (Debian: apt-get install llvm)");
   }
   in->group_items = 1;
   for (int d = 0; d < g.dims; d++)
      in->group_items *= (long long)g.local[d];
   in->log = log;
   if (!(o->code && !strcmp(o->code, "none"))) {
      in->code = Hip_disassemble(code, size, in->arch);
      snprintf(in->code_kind, sizeof in->code_kind, "ISA");
   }
   free(code);
   return 0;
}

static int inspectOnDevice(const Options *o, const Catalog *cat, const KernelInfo *k, const long long *values,
                           const Problem *p, Inspection *in) {
   int open_rc;
   Session *s = Cli_openSession(o, cat, &open_rc);
   if (!s)
      return open_rc;
   const Backend *be = Session_backend(s);
   RunResult *r = calloc(1, sizeof *r);
   int rc = 1;
   if (!r)
      goto done;
   bool want = !(o->code && !strcmp(o->code, "none"));
   RunStatus st = Session_compileAblated(s, k, values, p, o->ablate, r, want ? &in->code : NULL, in->code_kind,
                                         sizeof in->code_kind);
   if (st != RUN_OK) {
      fprintf(stderr, "gemmtop: %s%s%s\n", st == RUN_INVALID ? "refused: " : "", r->message,
              r->build_log ? r->build_log : "");
      rc = RunStatus_exitCode(st);
      goto done;
   }
   const DeviceInfo *dev = Session_device(s);
   snprintf(in->target, sizeof in->target, "%s %s", be->name, dev->name);
   snprintf(in->arch, sizeof in->arch, "%s", dev->arch);
   Ptxas_parse(r->build_log, k->entry, &in->ptxas);
   in->registers = r->registers >= 0 ? r->registers : in->ptxas.found ? in->ptxas.registers : -1;
   in->local_bytes = (r->local_mem >= 0 ? r->local_mem : r->geo.localmem) + r->geo.dynamic_smem;
   in->private_bytes = r->private_mem;
   in->group_items = 1;
   for (int d = 0; d < r->geo.dims; d++)
      in->group_items *= (long long)r->geo.local[d];
   in->log = r->build_log;
   r->build_log = NULL;
   if (want && !in->code && Backend_can(be, BACKEND_CAP_OFFLINE_PTX))
      cudaDeviceCode(o, cat, k, r->defines, dev->arch, in);
   if (o->code && !strcmp(o->code, "none")) {
      free(in->code);
      in->code = NULL;
   }
   rc = 0;
done:
   if (r)
      RunResult_free(r);
   free(r);
   Session_close(s);
   return rc;
}

static void printTable(const KernelInfo *k, const long long *values, const Inspection *in, bool show_code,
                       unsigned ablate) {
   char params[512];
   KernelInfo_formatParams(k, values, params, sizeof params);
   if (ablate) {
      char names[64];
      Ablate_name(ablate, names, sizeof names);
      printf("ABLATED    %s: the code of the ablated kernel, not the GEMM\n", names);
   }
   printf("kernel     %s  %s\n", k->name, params);
   printf("target     %s\n", in->target);
   printf("registers  %s", in->registers >= 0 ? "" : "not reported by this runtime");
   if (in->registers >= 0)
      printf("%d per work-item", in->registers);
   putchar('\n');
   if (in->ptxas.found)
      printf("spills     %d B stores, %d B loads; stack frame %d B\n", in->ptxas.spill_stores, in->ptxas.spill_loads,
             in->ptxas.stack_bytes);
   else if (in->private_bytes >= 0)
      printf("private    %lld B per work-item\n", in->private_bytes);
   if (in->extra[0])
      printf("resources  %s\n", in->extra);
   printf("local mem  %lld B per work-group (%lld work-items)\n", in->local_bytes, in->group_items);
   bool amd = !strncmp(in->arch, "gfx", 3);
   if (in->occ.known)
      printf("occupancy  %d work-groups per %s = %d of %d %s (%.0f%%), limited by %s "
             "(by registers %d, local memory %d, work-items %d, slots %d)\n",
             in->occ.groups, amd ? "compute unit" : "multiprocessor", in->occ.waves, in->occ.max_waves,
             amd ? "wavefronts" : "warps", 100 * in->occ.fraction, in->occ.limited_by, in->occ.by_registers,
             in->occ.by_local, in->occ.by_items, in->occ.by_groups);
   else
      printf("occupancy  unknown for this device (architecture %s)\n", in->arch[0] ? in->arch : "not reported");
   if (show_code && in->code) {
      char sum[512];
      Listing_summary(&in->stats, sum, sizeof sum);
      printf("counts     %s: %s\n", Listing_kindName(in->stats.kind), sum);
   }
   if (show_code) {
      if (in->code)
         printf("\n%s (%s):\n%s\n", in->code_kind, in->arch[0] ? in->arch : in->target, in->code);
      else
         printf("code       none readable here (NVIDIA's OpenCL gives PTX, PoCL its CPU code with llvm-objdump; --backend cuda --arch sm_90 gives PTX or SASS; "
                "--backend hip --arch gfx906 gives AMD ISA when LLVM's tools are installed)\n");
   }
}

static void printJson(const KernelInfo *k, const long long *values, const Inspection *in, bool show_code,
                      unsigned ablate) {
   char ablation[64];
   Ablate_name(ablate, ablation, sizeof ablation);
   printf("{\"schema\":%d,\"ablated\":%s,\"ablation\":\"%s\",\"kernel\":", REPORT_SCHEMA, ablate ? "true" : "false",
          ablation);
   Report_jsonString(stdout, k->name);
   printf(",\"params\":{");
   for (int i = 0; i < k->nparams; i++) {
      printf("%s", i ? "," : "");
      Report_jsonString(stdout, k->params[i].name);
      printf(":%lld", values[i]);
   }
   printf("},\"target\":");
   Report_jsonString(stdout, in->target);
   printf(",\"arch\":");
   Report_jsonString(stdout, in->arch);
   if (in->registers >= 0)
      printf(",\"registers\":%d", in->registers);
   if (in->ptxas.found)
      printf(",\"spill_store_bytes\":%d,\"spill_load_bytes\":%d,\"stack_bytes\":%d", in->ptxas.spill_stores,
             in->ptxas.spill_loads, in->ptxas.stack_bytes);
   printf(",\"local_mem_bytes\":%lld,\"work_group_items\":%lld", in->local_bytes, in->group_items);
   if (in->occ.known)
      printf(",\"occupancy_groups\":%d,\"occupancy_warps\":%d,\"occupancy_max_warps\":%d,\"occupancy_pct\":%.1f,"
             "\"occupancy_limited_by\":\"%s\"",
             in->occ.groups, in->occ.waves, in->occ.max_waves, 100 * in->occ.fraction, in->occ.limited_by);
   if (show_code && in->code) {
      printf(",\"code_kind\":");
      Report_jsonString(stdout, in->code_kind);
      const ListingStats *c = &in->stats;
      printf(",\"code_counts\":{\"lines\":%d,\"instructions\":%d,\"fma\":%d,\"shared_loads\":%d,"
             "\"shared_stores\":%d,\"global_loads\":%d,\"global_stores\":%d,\"spill_loads\":%d,"
             "\"spill_stores\":%d,\"barriers\":%d}",
             c->lines, c->instructions, c->fma, c->shared_loads, c->shared_stores, c->global_loads, c->global_stores,
             c->local_loads, c->local_stores, c->barriers);
      printf(",\"code\":");
      Report_jsonString(stdout, in->code);
   }
   printf("}\n");
}

/* "--backend cuda (--arch sm_90) or --backend hip (--arch gfx906)": those that compile offline. */
static void offlineBackends(char *out, size_t len) {
   size_t used = 0;
   out[0] = '\0';
   for (int i = 0; i < Backend_count() && used < len; i++) {
      const Backend *be = Backend_at(i);
      if (be->caps & (BACKEND_CAP_OFFLINE_PTX | BACKEND_CAP_OFFLINE_ISA))
         used += (size_t)snprintf(out + used, len - used, "%s--backend %s (--arch %s)", used ? " or " : "", be->name,
                                  be->arch_example);
   }
}

int Cli_inspect(const Options *o) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   int rc = Cli_resolveConfig(o, &cat, &k, values, &p);
   Inspection in;
   memset(&in, 0, sizeof in);
   if (rc == 0) {
      const Backend *be = o->backend ? Backend_byName(o->backend) : NULL;
      unsigned offline = be ? be->caps & (BACKEND_CAP_OFFLINE_PTX | BACKEND_CAP_OFFLINE_ISA) : 0;
      if (o->arch && !offline) {
         char which[256];
         offlineBackends(which, sizeof which);
         fprintf(stderr, "gemmtop: --arch compiles without a device: use it with %s\n", which);
         rc = 2;
      } else if (o->arch && strncmp(o->arch, be->arch_prefix, strlen(be->arch_prefix)) != 0) {
         fprintf(stderr, "gemmtop: --arch %s: the %s backend compiles for %s architectures (e.g. %s)\n", o->arch,
                 be->title, be->arch_prefix, be->arch_example);
         rc = 2;
      } else if (o->arch) {
         rc = offline & BACKEND_CAP_OFFLINE_PTX ? inspectCudaOffline(o, &cat, k, values, &p, &in)
                                                : inspectHipOffline(o, &cat, k, values, &p, &in);
      } else {
         rc = inspectOnDevice(o, &cat, k, values, &p, &in);
      }
   }
   if (rc == 0) {
      in.occ = Occupancy_estimate(Occupancy_arch(in.arch), in.registers, in.local_bytes, in.group_items);
      bool show = !(o->code && !strcmp(o->code, "none"));
      if (in.code)
         Listing_count(in.code, Listing_kind(in.code_kind, in.code), &in.stats);
      if (o->format == FORMAT_JSON)
         printJson(k, values, &in, show, o->ablate);
      else
         printTable(k, values, &in, show, o->ablate);
   }
   free(in.code);
   free(in.log);
   Catalog_free(&cat);
   return rc;
}
