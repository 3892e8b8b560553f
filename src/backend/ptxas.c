#include "backend/ptxas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* The report reads, per entry function:
 *   ptxas info    : Compiling entry function 'gemm' for 'sm_90'
 *   ptxas info    : Function properties for gemm
 *   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 32 registers, used 1 barriers, 16912 bytes smem                 */
/* The advisory comes before the entry's report and names the function at its end:
 *   ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are
 *   serialized due to REASON in the function 'gemm'                                      */
static void serializedOf(const char *log, const char *entry, PtxasInfo *out) {
   static const char kSaid[] = "wgmma.mma_async instructions are serialized due to ";
   for (const char *p = strstr(log, kSaid); p; p = strstr(p + 1, kSaid)) {
      const char *reason = p + sizeof kSaid - 1, *eol = reason + strcspn(reason, "\n");
      const char *in = NULL;
      for (const char *q = strstr(reason, " in the function '"); q && q < eol; q = strstr(q + 1, " in the function '"))
         in = q;
      const char *name = in ? in + strlen(" in the function '") : NULL;
      size_t nameLen = name ? strcspn(name, "'\n") : 0;
      if (entry && (!name || nameLen != strlen(entry) || strncmp(name, entry, nameLen)))
         continue;
      const char *end = in ? in : eol;
      int len = (int)(end - reason);
      /* ptxas doubles a space here and there */
      char *w = out->wgmma_serialized;
      size_t room = sizeof out->wgmma_serialized - 1;
      for (int i = 0; i < len && room > 0; i++)
         if (!(reason[i] == ' ' && w > out->wgmma_serialized && w[-1] == ' ')) {
            *w++ = reason[i];
            room--;
         }
      *w = '\0';
      return;
   }
}

bool Ptxas_parse(const char *log, const char *entry, PtxasInfo *out) {
   memset(out, 0, sizeof *out);
   if (!log)
      return false;
   serializedOf(log, entry, out);
   const char *p = log;
   if (entry) {
      char key[160];
      snprintf(key, sizeof key, "Compiling entry function '%s'", entry);
      p = strstr(log, key);
      if (!p)
         return false;
   }
   const char *props = strstr(p, "bytes stack frame");
   if (props) {
      const char *line = props;
      while (line > log && line[-1] != '\n')
         line--;
      const char *dot = strchr(line, '.');
      if (dot && dot < props)
         sscanf(dot + 1, " %d bytes stack frame, %d bytes spill stores, %d bytes spill loads", &out->stack_bytes,
                &out->spill_stores, &out->spill_loads);
   }
   const char *used = strstr(p, "Used ");
   if (!used || sscanf(used, "Used %d registers", &out->registers) != 1)
      return false;
   const char *eol = strchr(used, '\n');
   const char *bar = strstr(used, "used ");
   if (bar && (!eol || bar < eol))
      sscanf(bar, "used %d barriers", &out->barriers);
   const char *smem = strstr(used, "bytes smem");
   if (smem && (!eol || smem < eol)) {
      const char *num = smem - 1;
      while (num > used && (num[-1] >= '0' && num[-1] <= '9'))
         num--;
      sscanf(num, "%d", &out->shared_bytes);
   }
   out->found = true;
   return true;
}

bool Ptxas_ofPtx(const char *ptx, const char *entry, PtxasInfo *out) {
   memset(out, 0, sizeof *out);
   char arch[32] = "";
   const char *target = ptx ? strstr(ptx, ".target ") : NULL;
   if (!target || sscanf(target, ".target %31[a-z0-9_]", arch) != 1 || strncmp(arch, "sm_", 3))
      return false;
   char dir[] = "/tmp/gemmtop-ptxas-XXXXXX";
   if (!mkdtemp(dir))
      return false;
   char path[128], cmd[640];
   snprintf(path, sizeof path, "%s/k.ptx", dir);
   char *report = NULL;
   if (Util_writeFileAtomic(path, ptx, strlen(ptx))) {
      snprintf(cmd, sizeof cmd,
               "t=$(command -v ptxas || ls -d /usr/local/cuda/bin/ptxas /usr/local/cuda-*/bin/ptxas 2>/dev/null | "
               "tail -n 1); [ -n \"$t\" ] && \"$t\" -v -arch=%s -o /dev/null %s 2>&1",
               arch, path);
      report = Util_capture(cmd);
      unlink(path);
   }
   rmdir(dir);
   bool ok = Ptxas_parse(report, entry, out);
   free(report);
   return ok;
}
