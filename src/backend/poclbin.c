#include "backend/poclbin.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

bool Poclbin_is(const unsigned char *bin, size_t size) { return bin && size >= 8 && !memcmp(bin, "poclbin", 8); }

static uint32_t le32(const unsigned char *p) {
   return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool contains(const unsigned char *p, size_t n, const char *s) {
   size_t k = strlen(s);
   for (size_t i = 0; i + k <= n; i++)
      if (!memcmp(p + i, s, k))
         return true;
   return false;
}

bool Poclbin_findKernel(const unsigned char *bin, size_t size, size_t *offset, size_t *length, char *path,
                        size_t pathlen) {
   if (!Poclbin_is(bin, size))
      return false;
   bool found = false, specialised = false;
   for (size_t i = 0; i + 4 < size; i++) {
      if (bin[i + 4] != '/')
         continue;
      uint32_t pl = le32(bin + i);
      if (pl < 5 || pl > 512 || i + 4 + pl + 4 + 4 > size)
         continue;
      const unsigned char *p = bin + i + 4;
      if (memcmp(p + pl - 3, ".so", 3) != 0 || memchr(p, '\0', pl))
         continue;
      size_t at = i + 4 + pl + 4;
      uint32_t len = le32(bin + i + 4 + pl);
      if (len < 4 || at + len > size || memcmp(bin + at, "\x7f" "ELF", 4) != 0)
         continue;
      bool spec = !contains(p, pl, "/0-0-0/");
      if (!found || (spec && !specialised)) {
         found = true;
         specialised = spec;
         *offset = at;
         *length = len;
         if (pathlen)
            snprintf(path, pathlen, "%.*s", (int)pl, (const char *)p);
      }
      i = at + len - 1;
   }
   return found;
}
