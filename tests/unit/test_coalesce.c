/* The coalescing of global loads on traces built by hand: a wavefront per 128-byte line that
 * a phase of lanes touches (a warp for 4-byte loads, a half-warp for 8, a quarter for 16),
 * hit or miss, as Nsight Compute counts the L1's data-stage wavefronts on an H200. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/analyse/coalesce.h"

#define BASE 0x40000u /* a line-aligned global address */
#define MAX 4096

static TraceRecord g_records[MAX];

static Trace traceOf(size_t n) { return (Trace){.records = g_records, .count = n, .groups = 1, .wg_size = 64}; }

/* One warp request of operand `site`: lane l of `lanes` loads `width` bytes at BASE + addr(l). */
static size_t request(size_t n, unsigned site, unsigned warp, unsigned seq, unsigned width, int lanes,
                      unsigned (*addr)(int lane)) {
   for (int l = 0; l < lanes; l++)
      g_records[n++] = (TraceRecord){.site = site, .width = width, .item = warp * 32 + (unsigned)l, .seq = seq,
                                     .address = BASE + addr(l), .global = true};
   return n;
}

static unsigned contiguous4(int l) { return 4u * (unsigned)l; }
static unsigned sameWord(int l) { (void)l; return 64; }
static unsigned rowsApart(int l) { return 4096u * (unsigned)(l / 4) + 4u * (unsigned)(l % 4); } /* 8 rows of 16 B */
static unsigned stride32(int l) { return 32u * (unsigned)(l % 16); } /* 8-byte loads, 16 addresses 32 B apart */
static unsigned contiguous16(int l) { return 16u * (unsigned)l; }

/* A warp of floats side by side: one line, ideal; one word for all: one line, a broadcast. */
static void test_coalesced_and_broadcast(void **state) {
   (void)state;
   size_t n = request(0, COALESCE_A, 0, 0, 4, 32, contiguous4);
   n = request(n, COALESCE_B, 0, 0, 4, 32, sameWord);
   Trace t = traceOf(n);
   Coalescing c;
   char err[256];
   assert_true(Coalescing_of(&t, 32, &c, err, sizeof err));
   assert_int_equal(c.sites[COALESCE_A].requests, 1);
   assert_int_equal(c.sites[COALESCE_A].wavefronts, 1);
   assert_int_equal(c.sites[COALESCE_A].sectors, 4);
   assert_true(c.sites[COALESCE_A].ratio == 1.0);
   /* 128 bytes asked (a broadcast counts per lane), one line: the ideal too. */
   assert_int_equal(c.sites[COALESCE_B].wavefronts, 1);
   assert_int_equal(c.sites[COALESCE_B].sectors, 1);
   assert_true(c.total.ratio == 1.0 && c.total.requests == 2);
}

/* A fragment's pattern: 8 rows of 16 bytes, each in its own line: 8 wavefronts for 128 bytes. */
static void test_rows_apart(void **state) {
   (void)state;
   Trace t = traceOf(request(0, COALESCE_A, 0, 0, 4, 32, rowsApart));
   Coalescing c;
   char err[256];
   assert_true(Coalescing_of(&t, 32, &c, err, sizeof err));
   assert_int_equal(c.total.wavefronts, 8);
   assert_int_equal(c.total.sectors, 8);
   assert_true(c.total.ratio == 8.0);
}

/* 8-byte loads go in half-warps: 16 addresses 32 bytes apart are 4 lines in each half, 8 for
 * the request's 256 bytes (DCU step 1's B on the H200); 16-byte loads in quarters: a warp of
 * them side by side is 4 lines, the ideal. */
static void test_phases_by_width(void **state) {
   (void)state;
   size_t n = request(0, COALESCE_B, 0, 0, 8, 32, stride32);
   n = request(n, COALESCE_A, 1, 0, 16, 32, contiguous16);
   Trace t = traceOf(n);
   Coalescing c;
   char err[256];
   assert_true(Coalescing_of(&t, 32, &c, err, sizeof err));
   assert_int_equal(Coalescing_phaseLanes(8, 32), 16);
   assert_int_equal(Coalescing_phaseLanes(16, 32), 8);
   assert_int_equal(Coalescing_phaseLanes(2, 32), 32);
   assert_int_equal(c.sites[COALESCE_B].wavefronts, 8);
   assert_int_equal(c.sites[COALESCE_B].sectors, 16);
   assert_true(c.sites[COALESCE_B].ratio == 4.0);
   assert_int_equal(c.sites[COALESCE_A].wavefronts, 4);
   assert_true(c.sites[COALESCE_A].ratio == 1.0);
   assert_int_equal(c.sites[COALESCE_A].width, 16);
}

/* Executions and warps are requests of their own; half a warp active fills half a line. */
static void test_requests_apart(void **state) {
   (void)state;
   size_t n = request(0, COALESCE_A, 0, 0, 4, 32, contiguous4);
   n = request(n, COALESCE_A, 0, 1, 4, 32, contiguous4);
   n = request(n, COALESCE_A, 1, 0, 4, 16, contiguous4);
   Trace t = traceOf(n);
   Coalescing c;
   char err[256];
   assert_true(Coalescing_of(&t, 32, &c, err, sizeof err));
   assert_int_equal(c.total.requests, 3);
   assert_int_equal(c.total.wavefronts, 3);
   assert_int_equal(c.total.accesses, 80);
   assert_true(c.total.ratio == 3 / (320.0 / 128)); /* 1.2: the half warp's line half used */
}

/* Local records are not global loads: a trace without any says so. */
static void test_no_global_loads(void **state) {
   (void)state;
   g_records[0] = (TraceRecord){.site = 0, .width = 4, .address = 128};
   Trace t = traceOf(1);
   Coalescing c;
   char err[256] = "";
   assert_false(Coalescing_of(&t, 32, &c, err, sizeof err));
   assert_non_null(strstr(err, "no global load"));
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_coalesced_and_broadcast), cmocka_unit_test(test_rows_apart),
       cmocka_unit_test(test_phases_by_width), cmocka_unit_test(test_requests_apart),
       cmocka_unit_test(test_no_global_loads),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
