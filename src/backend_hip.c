/* The HIP backend, compile side: hipRTC (inside Debian's libamdhip64) compiles the kernel
 * file through the same prelude as CUDA for any AMD target, with no AMD GPU present; LLVM's
 * tools read the code object: llvm-readelf --notes for VGPR/SGPR/spill/LDS counts and
 * llvm-objdump for the ISA. Loaded at run time, so gemmtop builds without ROCm.
 * (Running on AMD GPUs through the HIP module API is not in this build: no AMD device was
 * available to test it; `list devices --backend hip` says so.) */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend_hip.h"
#include "util.h"

typedef struct _hiprtcProgram *hiprtcProgram;
static struct {
   bool tried;
   void *lib;
   int (*create)(hiprtcProgram *, const char *, const char *, int, const char *const *, const char *const *);
   int (*compile)(hiprtcProgram, int, const char *const *);
   int (*logSize)(hiprtcProgram, size_t *);
   int (*log)(hiprtcProgram, char *);
   int (*codeSize)(hiprtcProgram, size_t *);
   int (*code)(hiprtcProgram, char *);
   int (*destroy)(hiprtcProgram *);
   const char *(*errorString)(int);
} rtc;

static bool loadRtc(void) {
   if (rtc.tried)
      return rtc.create != NULL;
   rtc.tried = true;
   const char *env = getenv("GEMMTOP_HIPRTC");
   const char *names[] = {env && *env ? env : "libhiprtc.so", "libhiprtc.so.6", "libamdhip64.so", "libamdhip64.so.6",
                          "libamdhip64.so.5", NULL};
   for (int i = 0; names[i] && !rtc.lib; i++) {
      void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
      if (h && dlsym(h, "hiprtcCreateProgram"))
         rtc.lib = h;
      else if (h)
         dlclose(h);
   }
   if (!rtc.lib)
      return false;
   rtc.create = dlsym(rtc.lib, "hiprtcCreateProgram");
   rtc.compile = dlsym(rtc.lib, "hiprtcCompileProgram");
   rtc.logSize = dlsym(rtc.lib, "hiprtcGetProgramLogSize");
   rtc.log = dlsym(rtc.lib, "hiprtcGetProgramLog");
   rtc.codeSize = dlsym(rtc.lib, "hiprtcGetCodeSize");
   rtc.code = dlsym(rtc.lib, "hiprtcGetCode");
   rtc.destroy = dlsym(rtc.lib, "hiprtcDestroyProgram");
   rtc.errorString = dlsym(rtc.lib, "hiprtcGetErrorString");
   if (!rtc.compile || !rtc.logSize || !rtc.log || !rtc.codeSize || !rtc.code || !rtc.destroy) {
      rtc.create = NULL;
      return false;
   }
   return true;
}

bool Hip_available(char *err, size_t errlen) {
   if (loadRtc())
      return true;
   snprintf(err, errlen, "HIP backend: hipRTC not found (libamdhip64.so; on Debian: apt-get install libamdhip64-dev)");
   return false;
}

BackendStatus Hip_compileOnly(const char *source, const char *options, const char *arch, char **out, size_t *outlen,
                              char **log, char *err, size_t errlen) {
   *out = *log = NULL;
   if (!Hip_available(err, errlen))
      return BACKEND_ERR_NO_RUNTIME;
   char *buf = strdup(options ? options : "");
   const char *opts[128];
   char archopt[64];
   snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
   int n = 0;
   opts[n++] = archopt;
   opts[n++] = "-O3";
   for (char *save = NULL, *tok = strtok_r(buf, " \t", &save); tok && n < 126; tok = strtok_r(NULL, " \t", &save))
      opts[n++] = tok;
   hiprtcProgram prog;
   int r = rtc.create(&prog, source, "kernel.cl", 0, NULL, NULL);
   if (r != 0) {
      free(buf);
      snprintf(err, errlen, "hiprtcCreateProgram failed (%d)", r);
      return BACKEND_ERR_OTHER;
   }
   r = rtc.compile(prog, n, opts);
   free(buf);
   size_t loglen = 0;
   rtc.logSize(prog, &loglen);
   *log = calloc(loglen + 1, 1);
   if (*log && loglen)
      rtc.log(prog, *log);
   if (r != 0) {
      snprintf(err, errlen, "the kernel did not compile (hipRTC: %s); the build log follows",
               rtc.errorString ? rtc.errorString(r) : "error");
      rtc.destroy(&prog);
      return BACKEND_ERR_COMPILE;
   }
   size_t size = 0;
   rtc.codeSize(prog, &size);
   *out = malloc(size ? size : 1);
   if (*out)
      rtc.code(prog, *out);
   *outlen = size;
   rtc.destroy(&prog);
   return *out ? BACKEND_OK : BACKEND_ERR_OUT_OF_MEMORY;
}

/* Runs an LLVM tool on the code object; its output, malloc'ed, or NULL. */
static char *llvmTool(const char *tool, const char *args, const char *code, size_t size) {
   char dir[] = "/tmp/gemmtop-hip-XXXXXX";
   if (!mkdtemp(dir))
      return NULL;
   char path[128];
   snprintf(path, sizeof path, "%s/k.co", dir);
   char *out = NULL;
   if (Util_writeFileAtomic(path, code, size)) {
      const char *versions[] = {"", "-19", "-18", "-17", "-16", "-15", "-14", NULL};
      for (int v = 0; versions[v] && !out; v++) {
         char cmd[512];
         snprintf(cmd, sizeof cmd, "%s%s %s %s 2>/dev/null", tool, versions[v], args, path);
         out = Util_capture(cmd);
      }
      unlink(path);
   }
   rmdir(dir);
   return out;
}

static long noteValue(const char *notes, const char *key) {
   const char *p = notes ? strstr(notes, key) : NULL;
   if (!p)
      return -1;
   p += strlen(key);
   while (*p == ':' || *p == ' ')
      p++;
   return strtol(p, NULL, 10);
}

bool Hip_resources(const char *code, size_t size, HipResources *out) {
   memset(out, 0, sizeof *out);
   char *notes = llvmTool("llvm-readelf", "--notes", code, size);
   if (!notes)
      return false;
   out->vgprs = (int)noteValue(notes, ".vgpr_count");
   out->sgprs = (int)noteValue(notes, ".sgpr_count");
   out->vgpr_spills = (int)noteValue(notes, ".vgpr_spill_count");
   out->sgpr_spills = (int)noteValue(notes, ".sgpr_spill_count");
   out->lds_bytes = noteValue(notes, ".group_segment_fixed_size");
   out->scratch_bytes = noteValue(notes, ".private_segment_fixed_size");
   free(notes);
   out->found = out->vgprs >= 0;
   return out->found;
}

char *Hip_disassemble(const char *code, size_t size, const char *arch) {
   char args[64];
   snprintf(args, sizeof args, "-d --mcpu=%s", arch);
   return llvmTool("llvm-objdump", args, code, size);
}
