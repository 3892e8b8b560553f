/* The registry of backends: the one list of them, looked up by name, and the messages
 * that say what a backend found and can do. */
#include "backend/backend.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The order is the default's: OpenCL (any vendor's GPU, or PoCL), then CUDA, then HIP. */
static const Backend *(*const registry[])(void) = {Backend_opencl, Backend_cuda, Backend_hip};
#define NBACKENDS ((int)(sizeof registry / sizeof registry[0]))

int Backend_count(void) { return NBACKENDS; }

const Backend *Backend_at(int i) { return i >= 0 && i < NBACKENDS ? registry[i]() : NULL; }

const Backend *Backend_byName(const char *name) {
   for (int i = 0; name && i < NBACKENDS; i++) {
      const Backend *be = registry[i]();
      if (!strcasecmp(name, be->name) || (be->alias && !strcasecmp(name, be->alias)))
         return be;
   }
   return NULL;
}

void Backend_names(char *out, size_t len) {
   size_t used = 0;
   out[0] = '\0';
   for (int i = 0; i < NBACKENDS && used < len; i++)
      used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "", registry[i]()->name);
}

int Backend_listDevices(const Backend *be, DeviceInfo **out, char *err, size_t errlen) {
   char why[768] = "";
   int n = be->findDevices(out, why, sizeof why);
   if (n > 0)
      return n;
   const Backend *first = registry[0]();
   char instead[256] = "";
   if (be != first && be->offline && be->offline->present())
      snprintf(instead, sizeof instead, "; run with --backend %s, or compile without a GPU: 'gemmtop inspect --backend %s "
               "--arch %s'", first->name, be->name, be->offline->arch_example);
   else if (be != first)
      snprintf(instead, sizeof instead, "; run with --backend %s", first->name);
   snprintf(err, errlen, "%s backend: %s%s", be->title, why[0] ? why : "no device", instead);
   return 0;
}

void Backend_describeCaps(const Backend *be, char *out, size_t len) {
   size_t used = 0;
   out[0] = '\0';
#define ADD(...) (used < len ? used += (size_t)snprintf(out + used, len - used, __VA_ARGS__) : 0)
   if (be->offline)
      ADD("%scompiles for %s architectures without a GPU (%s)", used ? ", " : "", be->offline->arch_prefix,
          be->offline->listings);
   if (be->caps & BACKEND_CAP_CUDA_PRELUDE)
      ADD("%skernels as CUDA C++", used ? ", " : "");
   if (be->caps & BACKEND_CAP_REGISTERS)
      ADD("%sreports registers", used ? ", " : "");
   if (be->caps & BACKEND_CAP_ARCH_SPECIFIC)
      ADD("%ssm_90a kernels with TMA tensor maps", used ? ", " : "");
   if (be->programCode)
      ADD("%sshows compiled code where the device gives it", used ? ", " : "");
   if (be->vendorGemm)
      ADD("%svendor GEMM %s", used ? ", " : "", be->vendor_library);
#undef ADD
}

void OfflineCode_free(OfflineCode *c) {
   free(c->log);
   free(c->code);
   c->log = c->code = NULL;
}

const char *Backend_statusName(BackendStatus s) {
   switch (s) {
   case BACKEND_OK: return "ok";
   case BACKEND_ERR_NO_RUNTIME: return "no runtime";
   case BACKEND_ERR_DEVICE: return "device error";
   case BACKEND_ERR_COMPILE: return "compile error";
   case BACKEND_ERR_OUT_OF_MEMORY: return "out of memory";
   case BACKEND_ERR_LAUNCH: return "launch failed";
   case BACKEND_ERR_TIMEOUT: return "timed out";
   case BACKEND_ERR_UNSUPPORTED: return "not supported";
   default: return "error";
   }
}
