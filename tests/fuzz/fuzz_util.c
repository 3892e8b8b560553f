/* Shared by the harnesses: a private temporary file for the readers that take a path. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void removeTemp(void);
static char tempPath[64];

static void removeTemp(void) {
   if (tempPath[0])
      unlink(tempPath);
}

const char *Fuzz_tempFile(const uint8_t *data, size_t size) {
   if (!tempPath[0]) {
      const char *dir = getenv("TMPDIR");
      snprintf(tempPath, sizeof tempPath, "%s/gemmtop-fuzz-XXXXXX", dir && strlen(dir) < 32 ? dir : "/tmp");
      int fd = mkstemp(tempPath);
      if (fd < 0)
         abort();
      close(fd);
      atexit(removeTemp);
   }
   FILE *f = fopen(tempPath, "wb");
   if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
      abort();
   return tempPath;
}
