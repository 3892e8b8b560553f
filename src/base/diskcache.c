#include "base/diskcache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "base/util.h"

/* An entry: a text header naming what it was built from, a blank line, the contents.
 *   GTCACHE2
 *   what: program
 *   source: <fnv-1a of the source> <its length>
 *   options: -DTS=16 ...
 *   device: ...
 *   driver: ...
 *   size: <bytes of contents>
 *   check: <fnv-1a of the contents>
 * Entries of the first format (GTCACHE1, no header) are silent misses. */
static const char MAGIC[] = "GTCACHE2\n";
#define FIELD_MAX 1024

bool DiskCache_enabled(void) {
   const char *off = getenv("GEMMTOP_NO_DISK_CACHE");
   return !(off && *off && strcmp(off, "0") != 0);
}

static unsigned long long keyOf(const DiskCacheId *id) {
   const char *parts[] = {id->what, id->source, id->options, id->device, id->driver};
   unsigned long long h = UTIL_HASH_INIT;
   for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
      h = Util_hash(h, parts[i] ? parts[i] : "", strlen(parts[i] ? parts[i] : "") + 1);
   return h;
}

static bool pathOf(const char *backend, const DiskCacheId *id, const char *suffix, char *out, size_t len, bool create) {
   char dir[3072];
   if (!Util_userDir("cache", dir, sizeof dir))
      return false;
   char sub[3200];
   snprintf(sub, sizeof sub, "%s/%s", dir, backend);
   if (create && !Util_mkdirs(sub))
      return false;
   return snprintf(out, len, "%s/%016llx%s", sub, keyOf(id), suffix) < (int)len;
}

/* The header's identity lines, each value on one line and bounded. */
static void identity(const DiskCacheId *id, char *out, size_t len) {
   const char *src = id->source ? id->source : "";
   int n = snprintf(out, len, "%swhat: %s\nsource: %016llx %zu\n", MAGIC, id->what ? id->what : "",
                    Util_hash(UTIL_HASH_INIT, src, strlen(src)), strlen(src));
   const char *names[] = {"options", "device", "driver"};
   const char *values[] = {id->options, id->device, id->driver};
   for (size_t f = 0; f < 3 && n >= 0 && (size_t)n < len; f++) {
      n += snprintf(out + n, len - (size_t)n, "%s: ", names[f]);
      const char *value = values[f] ? values[f] : "";
      for (const char *v = value; *v && (size_t)n + 2 < len && v - value < FIELD_MAX; v++)
         out[n++] = *v == '\n' ? ' ' : *v;
      if ((size_t)n + 1 < len)
         out[n++] = '\n';
      out[n] = '\0';
   }
}

/* The first line where two headers differ, for the message. */
static void firstDifference(const char *stored, const char *wanted, char *out, size_t len) {
   while (*wanted) {
      int ls = (int)strcspn(stored, "\n"), lw = (int)strcspn(wanted, "\n");
      if (ls != lw || memcmp(stored, wanted, (size_t)ls) != 0) {
         snprintf(out, len, "stored '%.*s', wanted '%.*s'", ls > 160 ? 160 : ls, stored, lw > 160 ? 160 : lw, wanted);
         return;
      }
      stored += ls + (stored[ls] == '\n');
      wanted += lw + 1;
   }
   snprintf(out, len, "the header differs");
}

static unsigned char *miss(const char *path, char *data, const char *why) {
   fprintf(stderr, "gemmtop: cache: %s %s; compiling afresh\n", path, why);
   free(data);
   return NULL;
}

unsigned char *DiskCache_load(const char *backend, const DiskCacheId *id, size_t *size) {
   char path[4096];
   if (!DiskCache_enabled() || !pathOf(backend, id, ".bin", path, sizeof path, false))
      return NULL;
   size_t len = 0;
   char *data = Util_readFile(path, &len);
   if (!data)
      return NULL;
   if (len < sizeof MAGIC - 1 || memcmp(data, MAGIC, sizeof MAGIC - 1) != 0) {
      free(data); /* absent header: the first format, or not ours */
      return NULL;
   }
   char wanted[4 * FIELD_MAX + 256];
   identity(id, wanted, sizeof wanted);
   size_t idlen = strlen(wanted);
   if (len < idlen || memcmp(data, wanted, idlen) != 0) {
      char why[512];
      const char *end = strstr(data, "\n\n");
      if (end)
         data[end - data + 1] = '\0';
      firstDifference(data, wanted, why, sizeof why);
      char said[700];
      snprintf(said, sizeof said, "holds a %s built from something else (%s)", id->what ? id->what : "program", why);
      return miss(path, data, said);
   }
   size_t stored = 0;
   unsigned long long check = 0;
   int used = 0;
   if (sscanf(data + idlen, "size: %zu\ncheck: %16llx\n\n%n", &stored, &check, &used) != 2 || used == 0)
      return miss(path, data, "has a damaged header");
   size_t header = idlen + (size_t)used;
   if (stored != len - header)
      return miss(path, data, "is truncated or overlong");
   if (Util_hash(UTIL_HASH_INIT, data + header, stored) != check)
      return miss(path, data, "is damaged (its checksum does not match)");
   memmove(data, data + header, stored);
   data[stored] = '\0'; /* a text entry (a log, PTX) reads as a C string; the file's NUL was past it */
   *size = stored;
   return (unsigned char *)data;
}

bool DiskCache_store(const char *backend, const DiskCacheId *id, const void *data, size_t size) {
   static atomic_bool warned;
   char path[4096];
   if (!DiskCache_enabled())
      return false;
   bool ok = pathOf(backend, id, ".bin", path, sizeof path, true);
   char head[4 * FIELD_MAX + 256];
   identity(id, head, sizeof head);
   size_t idlen = strlen(head);
   snprintf(head + idlen, sizeof head - idlen, "size: %zu\ncheck: %016llx\n\n", size,
            Util_hash(UTIL_HASH_INIT, data, size));
   size_t hlen = strlen(head);
   unsigned char *buf = ok ? malloc(hlen + size) : NULL;
   if (buf) {
      memcpy(buf, head, hlen);
      memcpy(buf + hlen, data, size);
      ok = Util_writeFileAtomic(path, buf, hlen + size);
      free(buf);
   }
   if (!ok && !atomic_exchange(&warned, true)) {
      char dir[3072] = "(no HOME or XDG_CACHE_HOME)";
      Util_userDir("cache", dir, sizeof dir);
      fprintf(stderr, "gemmtop: cache: cannot keep compiled programs in %s/%s: %s\n", dir, backend, strerror(errno));
   }
   return ok;
}

int DiskCache_lock(const char *backend, const DiskCacheId *id) {
   char path[4096];
   if (!DiskCache_enabled() || !pathOf(backend, id, ".lock", path, sizeof path, true))
      return -1;
   int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
   if (fd < 0)
      return -1;
   while (flock(fd, LOCK_EX) != 0)
      if (errno != EINTR) {
         close(fd);
         return -1;
      }
   return fd;
}

void DiskCache_unlock(int lock) {
   if (lock >= 0)
      close(lock); /* closing releases the flock */
}

/* "<16 hex>.bin", and what a killed writer leaves: "<16 hex>.bin.tmp.PID.N" and locks. */
static bool isEntry(const char *name) { return strlen(name) == 20 && !strcmp(name + 16, ".bin"); }
static bool isLeftover(const char *name) {
   size_t n = strlen(name);
   return (n > 24 && !strncmp(name + 16, ".bin.tmp.", 9)) || (n == 21 && !strcmp(name + 16, ".lock"));
}

int DiskCache_clear(const char *const *folders, int nfolders, char *dir_out, size_t dirlen, int *temporaries) {
   char dir[3072];
   if (!Util_userDir("cache", dir, sizeof dir))
      return -1;
   if (dir_out)
      Util_copy(dir_out, dirlen, dir);
   int removed = 0, leftovers = 0;
   for (int b = 0; b < nfolders; b++) {
      char sub[3200];
      snprintf(sub, sizeof sub, "%s/%s", dir, folders[b]); /* each backend keeps its own folder */
      DIR *d = opendir(sub);
      if (!d)
         continue;
      struct dirent *e;
      while ((e = readdir(d))) {
         bool entry = isEntry(e->d_name);
         if (!entry && !isLeftover(e->d_name))
            continue;
         char path[4096];
         snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
         if (unlink(path) == 0) {
            removed += entry;
            leftovers += !entry && !strstr(e->d_name, ".lock");
         }
      }
      closedir(d);
   }
   if (temporaries)
      *temporaries = leftovers;
   return removed;
}
