/* PoCL program binaries: the kernel's shared object is found among the files the binary
 * carries (random binaries built in PoCL's layout: length, path, size, bytes), the one
 * built for a work-group size preferred to the generic one; broken entries are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/poclbin.h"

typedef struct Buf_ {
   unsigned char *d;
   size_t n, cap;
} Buf;

static void put(Buf *b, const void *p, size_t n) {
   if (b->n + n > b->cap) {
      b->cap = (b->n + n) * 2;
      b->d = realloc(b->d, b->cap);
      assert_non_null(b->d);
   }
   memcpy(b->d + b->n, p, n);
   b->n += n;
}

static void put32(Buf *b, uint32_t v) {
   unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
   put(b, x, 4);
}

static void junk(Buf *b, size_t n) {
   for (size_t i = 0; i < n; i++) {
      unsigned char c = (unsigned char)(rand() & 0xff);
      put(b, &c, 1);
   }
}

/* A file entry; returns the offset of its data. */
static size_t entry(Buf *b, const char *path, size_t size, bool elf) {
   put32(b, (uint32_t)strlen(path));
   put(b, path, strlen(path));
   put32(b, (uint32_t)size);
   size_t at = b->n;
   if (elf) {
      put(b, "\x7f" "ELF", 4);
      junk(b, size - 4);
   } else {
      junk(b, size);
   }
   return at;
}

static void test_random_binaries(void **state) {
   (void)state;
   srand((unsigned)time(NULL));
   for (int round = 0; round < 200; round++) {
      Buf b = {0};
      put(&b, "poclbin", 8);
      junk(&b, 16 + (size_t)(rand() % 64));
      entry(&b, "/program.bc", 100 + (size_t)(rand() % 1000), false);
      bool haveGeneric = rand() % 2, haveSpec = rand() % 2, specFirst = rand() % 2;
      int gx = 1 << (rand() % 6), gy = 1 << (rand() % 6);
      char spec[64];
      snprintf(spec, sizeof spec, "/gemm/%d-%d-1-goffs0-smallgrid/gemm.so", gx, gy);
      size_t gAt = 0, sAt = 0, gLen = 50 + (size_t)(rand() % 3000), sLen = 50 + (size_t)(rand() % 3000);
      if (haveSpec && specFirst)
         sAt = entry(&b, spec, sLen, true);
      if (haveGeneric)
         gAt = entry(&b, "/gemm/0-0-0/gemm.so", gLen, true);
      if (haveSpec && !specFirst)
         sAt = entry(&b, spec, sLen, true);
      junk(&b, (size_t)(rand() % 32));
      size_t off = 0, len = 0;
      char path[128];
      bool found = Poclbin_findKernel(b.d, b.n, &off, &len, path, sizeof path);
      if (haveSpec) {
         assert_true(found);
         assert_int_equal(off, sAt);
         assert_int_equal(len, sLen);
         assert_string_equal(path, spec);
      } else if (haveGeneric) {
         assert_true(found);
         assert_int_equal(off, gAt);
         assert_int_equal(len, gLen);
         assert_string_equal(path, "/gemm/0-0-0/gemm.so");
      } else {
         assert_false(found);
      }
      /* Cut inside the last shared object: that entry is refused. */
      if (found && b.n > 8) {
         size_t cut = off + len - 1;
         size_t o2, l2;
         char p2[128];
         if (Poclbin_findKernel(b.d, cut, &o2, &l2, p2, sizeof p2))
            assert_true(o2 + l2 <= cut);
      }
      free(b.d);
   }
}

static void test_not_pocl(void **state) {
   (void)state;
   size_t off, len;
   char path[64];
   const char *ptx = "//\n.version 8.4\n.target sm_90\n";
   assert_false(Poclbin_is((const unsigned char *)ptx, strlen(ptx)));
   assert_false(Poclbin_findKernel((const unsigned char *)ptx, strlen(ptx), &off, &len, path, sizeof path));
   assert_false(Poclbin_findKernel(NULL, 0, &off, &len, path, sizeof path));
   /* A .so entry whose bytes are no ELF image is no kernel. */
   Buf b = {0};
   put(&b, "poclbin", 8);
   entry(&b, "/gemm/0-0-0/gemm.so", 64, false);
   assert_true(Poclbin_is(b.d, b.n));
   assert_false(Poclbin_findKernel(b.d, b.n, &off, &len, path, sizeof path));
   free(b.d);
}

int main(void) {
   const struct CMUnitTest tests[] = {cmocka_unit_test(test_random_binaries), cmocka_unit_test(test_not_pocl)};
   return cmocka_run_group_tests(tests, NULL, NULL);
}
