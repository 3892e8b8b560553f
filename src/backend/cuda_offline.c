/* The CUDA backend without a GPU (Backend.offline): NVRTC compiles for a named sm_XX,
 * ptxas's report gives the resources, cuobjdump the SASS when it is installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend_cuda.h"
#include "base/util.h"

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

/* An NVIDIA GPU of that architecture ("sm_90"): 1024 work-items, warp 32, 48 KiB of static
 * shared memory, more when opted in (dynamic); whether it runs PTX tensor instructions is
 * the devices' own rule (Device_classify). */
static void cudaDevice(const char *arch, DeviceInfo *d) {
   memset(d, 0, sizeof *d);
   d->limits = (DeviceLimits){.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .fp64 = true,
                              .warp = 32, .dynamic_smem = true};
   d->type = DEVICE_GPU;
   d->inline_ptx = true;
   snprintf(d->arch, sizeof d->arch, "%s", arch);
   snprintf(d->vendor, sizeof d->vendor, "NVIDIA Corporation");
   Device_classify(d);
   static const struct {
      const char *prefix;
      unsigned long long optin;
   } optin[] = {{"sm_90", 232448}, {"sm_80", 166912}, {"sm_86", 101376}, {"sm_89", 101376}, {"sm_75", 65536}};
   for (size_t i = 0; i < sizeof optin / sizeof optin[0]; i++)
      if (!strncmp(arch, optin[i].prefix, strlen(optin[i].prefix)))
         d->limits.local_mem_optin = optin[i].optin;
}

/* The CUBIN when SASS is wanted or resources are (its build log has ptxas's figures), then
 * the PTX; SASS through cuobjdump when it is there, else the PTX. */
static BackendStatus compile(const char *source, const char *options, const char *arch, const char *entry,
                             OfflineListing want, OfflineCode *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   out->registers = -1;
   out->private_mem = out->local_mem = -1;
   char *cubin = NULL, *ptx = NULL, *ptxLog = NULL;
   size_t cubinLen = 0, ptxLen = 0;
   /* The CUBIN is for SASS and for ptxas's report of the resources: not for the PTX alone. */
   BackendStatus st = want == OFFLINE_LIST_ONLY
                         ? BACKEND_OK
                         : Cuda_compileOnly(source, options, arch, false, &cubin, &cubinLen, &out->log, err, errlen);
   if (st == BACKEND_OK)
      st = Cuda_compileOnly(source, options, arch, true, &ptx, &ptxLen, want == OFFLINE_LIST_ONLY ? &out->log : &ptxLog,
                            err, errlen);
   free(ptxLog);
   if (st != BACKEND_OK) {
      free(cubin);
      free(ptx);
      return st;
   }
   if (Cuda_nvccWanted())
      snprintf(out->compiler, sizeof out->compiler, "nvcc, GEMMTOP_CUDA_COMPILER");
   bool specific = Cuda_archSpecific(options) && arch[strlen(arch) - 1] != 'a';
   snprintf(out->code_arch, sizeof out->code_arch, "%s%s", arch, specific ? "a" : "");
   /* the occupancy tables know sm_90, which sm_90a is */
   snprintf(out->arch, sizeof out->arch, "%.*s", (int)strcspn(arch, "a"), arch);
   Ptxas_parse(out->log, entry, &out->ptxas);
   /* NVRTC's log held no ptxas report on the H100 machine (its NVRTC, CUDA 13.0): ptxas
    * itself on the PTX then, where it is installed. */
   if (!out->ptxas.found && want != OFFLINE_LIST_ONLY && Ptxas_ofPtx(ptx, entry, &out->ptxas))
      snprintf(out->registers_from, sizeof out->registers_from, "ptxas on the PTX");
   if (out->ptxas.found) {
      out->registers = out->ptxas.registers;
      out->local_mem = out->ptxas.shared_bytes;
      out->private_mem = out->ptxas.stack_bytes;
   }
   if (want == OFFLINE_LIST_MACHINE) {
      out->code = sassOf(cubin, cubinLen);
      snprintf(out->code_kind, sizeof out->code_kind, "SASS");
      if (!out->code)
         snprintf(out->warning, sizeof out->warning, "SASS needs cuobjdump (CUDA toolkit) on PATH; showing PTX instead");
   }
   if (want != OFFLINE_LIST_NONE && !out->code) {
      out->code = ptx;
      ptx = NULL;
      snprintf(out->code_kind, sizeof out->code_kind, "PTX");
   }
   free(ptx);
   free(cubin);
   return BACKEND_OK;
}

static const OfflineTarget targets[] = {{"sm_90", "H100"}, {"sm_80", "A100"}, {NULL, NULL}};

const BackendOffline Cuda_offline = {
    .compiler = "NVRTC",
    .arch_prefix = "sm_",
    .arch_example = "sm_90",
    .listings = "PTX, SASS",
    .limits_text = "1024 work-items, 48 KiB static shared",
    .targets = targets,
    .present = Cuda_nvrtcPresent,
    .device = cudaDevice,
    .compile = compile,
};
