/* The HIP backend without a GPU (Backend.offline): hipRTC compiles for a named gfxNNN, and
 * LLVM's tools read the code object's resources and ISA. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend_hip.h"

/* The processor of a full target id ("gfx90a" of "gfx90a:sramecc+:xnack-"): what occupancy
 * and the device model go by. */
static void processorOf(const char *arch, char *out, size_t len) {
   snprintf(out, len, "%.*s", (int)strcspn(arch, ":"), arch);
}

/* An AMD GPU of that architecture: 1024 work-items, 64 KiB of LDS, wave64. */
static void hipDevice(const char *arch, DeviceInfo *d) {
   memset(d, 0, sizeof *d);
   d->limits = (DeviceLimits){.max_wg = 1024, .max_wi = {1024, 1024, 1024}, .local_mem = 65536, .fp64 = true,
                              .warp = 64};
   d->type = DEVICE_GPU;
   processorOf(arch, d->arch, sizeof d->arch);
   snprintf(d->vendor, sizeof d->vendor, "Advanced Micro Devices, Inc.");
   Device_classify(d);
}

static BackendStatus compile(const char *source, const char *options, const char *arch, const char *entry,
                             OfflineListing want, OfflineCode *out, char *err, size_t errlen) {
   (void)entry; /* the code object's notes are of its one kernel */
   memset(out, 0, sizeof *out);
   out->registers = -1;
   out->private_mem = out->local_mem = -1;
   char *code = NULL;
   size_t size = 0;
   BackendStatus st = Hip_compileOnly(source, options, arch, &code, &size, &out->log, err, errlen);
   if (st != BACKEND_OK)
      return st;
   snprintf(out->code_arch, sizeof out->code_arch, "%s", arch);
   processorOf(arch, out->arch, sizeof out->arch);
   HipResources hr;
   if (Hip_resources(code, size, &hr)) {
      out->registers = hr.vgprs;
      out->local_mem = hr.lds_bytes;
      out->private_mem = hr.scratch_bytes;
      snprintf(out->resources, sizeof out->resources, "VGPRs %d, SGPRs %d, spills %d VGPR / %d SGPR, scratch %ld B",
               hr.vgprs, hr.sgprs, hr.vgpr_spills, hr.sgpr_spills, hr.scratch_bytes);
   } else {
      snprintf(out->resources, sizeof out->resources,
               "resource counts need llvm-readelf (Debian: apt-get install llvm)");
   }
   if (want != OFFLINE_LIST_NONE) {
      out->code = Hip_disassemble(code, size, out->arch);
      snprintf(out->code_kind, sizeof out->code_kind, "ISA");
      if (!out->code)
         snprintf(out->note, sizeof out->note, "AMD ISA needs llvm-objdump (Debian: apt-get install llvm)");
   }
   free(code);
   return BACKEND_OK;
}

static const OfflineTarget targets[] = {{"gfx906", "MI50, the DCU's"}, {"gfx90a", "MI210"}, {NULL, NULL}};

const BackendOffline Hip_offline = {
    .compiler = "hipRTC",
    .arch_prefix = "gfx",
    .arch_example = "gfx906",
    .listings = "ISA",
    .limits_text = "1024 work-items, 64 KiB LDS",
    .own_llvm = true,
    .targets = targets,
    .present = Hip_rtcPresent,
    .device = hipDevice,
    .compile = compile,
};
