#include "core/diskcache.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h" /* the registry: one cache folder per backend */
#include "core/util.h"

/* A stored program starts with this magic and its length, so a truncated file is a miss. */
static const char MAGIC[8] = "GTCACHE1";

bool DiskCache_enabled(void) {
   const char *off = getenv("GEMMTOP_NO_DISK_CACHE");
   return !(off && *off && strcmp(off, "0") != 0);
}

static bool pathOf(const char *backend, unsigned long long key, char *out, size_t len, bool create) {
   char dir[3072];
   if (!Util_userDir("cache", dir, sizeof dir))
      return false;
   char sub[3200];
   snprintf(sub, sizeof sub, "%s/%s", dir, backend);
   if (create && !Util_mkdirs(sub))
      return false;
   return snprintf(out, len, "%s/%016llx.bin", sub, key) < (int)len;
}

unsigned char *DiskCache_load(const char *backend, unsigned long long key, size_t *size) {
   char path[4096];
   if (!DiskCache_enabled() || !pathOf(backend, key, path, sizeof path, false))
      return NULL;
   size_t len = 0;
   char *data = Util_readFile(path, &len);
   if (!data)
      return NULL;
   unsigned long long stored;
   if (len < sizeof MAGIC + sizeof stored || memcmp(data, MAGIC, sizeof MAGIC) != 0) {
      free(data);
      return NULL;
   }
   memcpy(&stored, data + sizeof MAGIC, sizeof stored);
   size_t header = sizeof MAGIC + sizeof stored;
   if (stored != len - header) {
      free(data);
      return NULL;
   }
   memmove(data, data + header, stored);
   *size = stored;
   return (unsigned char *)data;
}

bool DiskCache_store(const char *backend, unsigned long long key, const void *data, size_t size) {
   char path[4096];
   if (!DiskCache_enabled() || !pathOf(backend, key, path, sizeof path, true))
      return false;
   unsigned long long stored = size;
   size_t header = sizeof MAGIC + sizeof stored;
   unsigned char *buf = malloc(header + size);
   if (!buf)
      return false;
   memcpy(buf, MAGIC, sizeof MAGIC);
   memcpy(buf + sizeof MAGIC, &stored, sizeof stored);
   memcpy(buf + header, data, size);
   bool ok = Util_writeFileAtomic(path, buf, header + size);
   free(buf);
   return ok;
}

int DiskCache_clear(char *dir_out, size_t dirlen) {
   char dir[3072];
   if (!Util_userDir("cache", dir, sizeof dir))
      return -1;
   if (dir_out)
      Util_copy(dir_out, dirlen, dir);
   int removed = 0;
   for (int b = 0; b < Backend_count(); b++) {
      char sub[3200];
      snprintf(sub, sizeof sub, "%s/%s", dir, Backend_at(b)->name); /* each backend keeps its own folder */
      DIR *d = opendir(sub);
      if (!d)
         continue;
      struct dirent *e;
      while ((e = readdir(d))) {
         size_t n = strlen(e->d_name);
         if (n < 5 || strcmp(e->d_name + n - 4, ".bin"))
            continue;
         char path[4096];
         snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
         if (unlink(path) == 0)
            removed++;
      }
      closedir(d);
   }
   return removed;
}
