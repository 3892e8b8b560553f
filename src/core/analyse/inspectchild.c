/* Inspect_offline in a child process (inspect.h): the parent writes a fixed-size request
 * to the child's stdin; the child (`gemmtop __inspect-child`, this same executable, so
 * the structs have the same layout) loads the catalog, compiles offline and writes the
 * status, the Inspection's fixed fields and then its texts, each as a length and its
 * bytes. */
#include "core/analyse/inspect.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "base/children.h"

typedef struct ChildRequest_ {
   char kernels_dir[2048];
   char kernel[64];
   long long values[KERNEL_MAX_PARAMS];
   Problem problem;
   unsigned ablate;
   InspectCode code;
   bool source;
   char backend[16], arch[32];
} ChildRequest;

#define NO_TEXT SIZE_MAX

static bool writeText(FILE *f, const char *t) {
   size_t n = t ? strlen(t) : NO_TEXT;
   return fwrite(&n, sizeof n, 1, f) == 1 && (!t || fwrite(t, 1, n, f) == n);
}

static bool readText(FILE *f, char **out) {
   size_t n;
   *out = NULL;
   if (fread(&n, sizeof n, 1, f) != 1)
      return false;
   if (n == NO_TEXT)
      return true;
   if (n > (size_t)1 << 30 || !(*out = malloc(n + 1)))
      return false;
   if (fread(*out, 1, n, f) != n)
      return false;
   (*out)[n] = '\0';
   return true;
}

int Inspect_childMain(void) {
   ChildRequest rq;
   if (fread(&rq, sizeof rq, 1, stdin) != 1)
      return 2;
   Inspection in;
   memset(&in, 0, sizeof in);
   RunStatus st = RUN_INVALID;
   Catalog cat;
   const KernelInfo *k = NULL;
   const Backend *be = Backend_byName(rq.backend);
   if (!Catalog_load(&cat, rq.kernels_dir, in.message, sizeof in.message)) {
      memset(&cat, 0, sizeof cat);
   } else if (!(k = Catalog_find(&cat, rq.kernel))) {
      snprintf(in.message, sizeof in.message, "no kernel named %s in %s", rq.kernel, rq.kernels_dir);
   } else if (!be) {
      snprintf(in.message, sizeof in.message, "the %s backend is not built in", rq.backend);
   } else {
      InspectRequest r = {.catalog = &cat, .kernel = k, .values = rq.values, .problem = &rq.problem,
                          .ablate = rq.ablate, .code = rq.code, .source = rq.source};
      st = Inspect_offline(be, rq.arch, &r, &in);
   }
   int s = (int)st;
   bool ok = fwrite(&s, sizeof s, 1, stdout) == 1 && fwrite(&in, sizeof in, 1, stdout) == 1 &&
             writeText(stdout, in.build_log) && writeText(stdout, in.code) && writeText(stdout, in.source) &&
             writeText(stdout, in.occ.limited_by);
   ok = fflush(stdout) == 0 && ok;
   Inspection_free(&in);
   if (k || cat.count)
      Catalog_free(&cat);
   return ok ? 0 : 1;
}

/* Occupancy's limited_by points at a string literal: the same text here. */
static const char *staticName(const char *s) {
   static const char *const names[] = {"registers", "local memory", "work-items", "group slots", "unknown"};
   for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
      if (!strcmp(s, names[i]))
         return names[i];
   return s ? "?" : NULL;
}

/* Reads the child's answer; false when it is cut short. */
static bool readAnswer(FILE *f, RunStatus *st, Inspection *out) {
   int s;
   Inspection got;
   if (fread(&s, sizeof s, 1, f) != 1 || fread(&got, sizeof got, 1, f) != 1)
      return false;
   got.build_log = got.code = got.source = NULL; /* the child's pointers mean nothing here */
   got.occ.limited_by = NULL;
   char *limit = NULL;
   bool ok = readText(f, &got.build_log) && readText(f, &got.code) && readText(f, &got.source) &&
             readText(f, &limit);
   got.occ.limited_by = staticName(limit);
   free(limit);
   *out = got;
   *st = (RunStatus)s;
   return ok;
}

RunStatus Inspect_offlineApart(const char *kernels_dir, const char *backend, const char *arch,
                               const InspectRequest *rq, Inspection *out) {
   memset(out, 0, sizeof *out);
   ChildRequest req;
   memset(&req, 0, sizeof req);
   Util_copy(req.kernels_dir, sizeof req.kernels_dir, kernels_dir);
   Util_copy(req.kernel, sizeof req.kernel, rq->kernel->name);
   memcpy(req.values, rq->values, sizeof req.values);
   req.problem = *rq->problem;
   req.ablate = rq->ablate;
   req.code = rq->code;
   req.source = rq->source;
   Util_copy(req.backend, sizeof req.backend, backend);
   Util_copy(req.arch, sizeof req.arch, arch);
   int in[2] = {-1, -1}, outp[2] = {-1, -1};
   if (pipe(in) != 0 || pipe(outp) != 0) {
      snprintf(out->message, sizeof out->message, "cannot start a process to compile for %s: %s", arch,
               strerror(errno));
      for (int i = 0; i < 2; i++) {
         if (in[i] >= 0) close(in[i]);
         if (outp[i] >= 0) close(outp[i]);
      }
      return RUN_DEVICE_ERROR;
   }
   const int parentEnds[2] = {in[1], outp[0]};
   char why[512];
   pid_t pid = Children_spawn(INSPECT_CHILD, in[0], outp[1], parentEnds, why, sizeof why);
   close(in[0]);
   close(outp[1]);
   if (pid < 0) {
      close(in[1]);
      close(outp[0]);
      snprintf(out->message, sizeof out->message, "cannot start a process to compile for %s: %s", arch, why);
      return RUN_DEVICE_ERROR;
   }
   /* The request fits a pipe's buffer: written whole before the answer is read. A child
    * that died early makes the write fail (EPIPE), not this process. */
   void (*old)(int) = signal(SIGPIPE, SIG_IGN);
   bool sent = write(in[1], &req, sizeof req) == (ssize_t)sizeof req;
   close(in[1]);
   signal(SIGPIPE, old);
   FILE *f = fdopen(outp[0], "rb");
   RunStatus st = RUN_DEVICE_ERROR;
   bool got = sent && f && readAnswer(f, &st, out);
   if (f)
      fclose(f);
   else
      close(outp[0]);
   int status = 0;
   while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
   }
   if (!got) {
      Inspection_free(out);
      memset(out, 0, sizeof *out);
      snprintf(out->message, sizeof out->message, "the process compiling for %s ended without an answer (%s %d)",
               arch, WIFSIGNALED(status) ? "signal" : "exit", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
      return RUN_DEVICE_ERROR;
   }
   return st;
}
