/* HIP: Backend_hip() (backend.h) runs kernels on AMD GPUs; these compile through hipRTC for
 * AMD targets without an AMD GPU and read the code object with LLVM's tools. */
#ifndef GEMMTOP_BACKEND_HIP_H
#define GEMMTOP_BACKEND_HIP_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"

typedef struct HipResources_ {
   bool found;
   int vgprs, sgprs, vgpr_spills, sgpr_spills;
   long lds_bytes, scratch_bytes;
} HipResources;

bool Hip_available(char *err, size_t errlen);
/* Whether hipRTC can be loaded. */
bool Hip_rtcPresent(void);
/* Code object for arch ("gfx906", "gfx90a"). */
BackendStatus Hip_compileOnly(const char *source, const char *options, const char *arch, char **out, size_t *outlen,
                              char **log, char *err, size_t errlen);
/* From llvm-readelf --notes (false when LLVM's tools are not installed). */
bool Hip_resources(const char *code, size_t size, HipResources *out);
/* llvm-objdump -d --mcpu=arch; NULL when not installed. */
char *Hip_disassemble(const char *code, size_t size, const char *arch);
/* The gfx target in a hipDeviceProp_t buffer of any HIP version, found by content: target
 * gets the full id ("gfx90a:sramecc+:xnack-"), base the processor ("gfx90a"). */
bool Hip_archFromProps(const void *props, size_t size, char *target, size_t targetlen, char *base, size_t baselen);

/* The HIP backend's offline table (Backend.offline). */
extern const BackendOffline Hip_offline;

#endif
