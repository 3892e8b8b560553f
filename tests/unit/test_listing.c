/* Listings of compiled code: the instruction counts of the inspect pane, checked on real
 * listings against an independent count (POSIX regular expressions over the same text)
 * and on random listings whose counts are known by construction; splitting into lines;
 * the preprocessor's output kept to the kernel's own lines.
 *
 * Listings: tests/unit/listings/gfx906_mygemm02_tiled.txt is hipRTC + llvm-objdump's real
 * output (`gemmtop inspect --backend hip --arch gfx906 --kernel mygemm02_tiled`);
 * pocl_x86_mygemm02_excerpt.txt 250 lines of what `gemmtop inspect --kernel
 * mygemm02_tiled` shows on PoCL (its x86-64 work-group function); the PTX
 * and SASS files are written in the exact form NVIDIA's compilers print (this machine has
 * no NVIDIA compiler), for the same kernel with TS=4. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/run/listing.h"
#include "core/analyse/preproc.h"
#include "base/util.h"
#include "testing.h"

static char *fixture(const char *name) {
   char path[1024];
   snprintf(path, sizeof path, "%s/tests/unit/listings/%s", GEMMTOP_SOURCE_DIR, name);
   char *t = Util_readFile(path, NULL);
   if (!t)
      fail_msg("cannot read %s", path);
   return t;
}

/* Lines of text matching the extended regular expression re. */
static int grepCount(const char *text, const char *re) {
   regex_t rx;
   if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) != 0)
      fail_msg("bad regex %s", re);
   int n = 0;
   char line[1024];
   for (const char *p = text; *p;) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) : strlen(p);
      snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
      if (regexec(&rx, line, 0, NULL, 0) == 0)
         n++;
      p = nl ? nl + 1 : p + len;
   }
   regfree(&rx);
   return n;
}

static void test_ptx(void **state) {
   (void)state;
   char *t = fixture("ptx_tiled_ts4.ptx");
   assert_int_equal(Listing_kind("PTX", t), LISTING_PTX);
   assert_int_equal(Listing_kind("program binary (text)", t), LISTING_PTX);
   ListingStats s;
   Listing_count(t, LISTING_PTX, &s);
   const char *pred = "^[[:space:]]*(@!?%p[0-9]+[[:space:]]+)?";
   char re[256];
   snprintf(re, sizeof re, "%s[a-z][a-z0-9_.]*([[:space:]].*)?;[[:space:]]*$", pred);
   assert_int_equal(s.instructions, grepCount(t, re));
   snprintf(re, sizeof re, "%s(fma|mad)\\.[a-z.]*f(16|32|64)[[:space:]]", pred);
   assert_int_equal(s.fma, grepCount(t, re));
   assert_int_equal(s.shared_loads, grepCount(t, "^[[:space:]]*ld\\.shared"));
   assert_int_equal(s.shared_stores, grepCount(t, "^[[:space:]]*st\\.shared"));
   assert_int_equal(s.global_loads, grepCount(t, "^[[:space:]]*ld\\.global"));
   assert_int_equal(s.global_stores, grepCount(t, "^[[:space:]]*st\\.global"));
   assert_int_equal(s.barriers, grepCount(t, "^[[:space:]]*(bar|barrier)\\.sync"));
   /* The tile loop of TS=4: four multiply-adds from local memory, integer mad not counted. */
   assert_true(s.fma >= 4 && s.shared_loads >= 8 && s.barriers == 2);
   assert_true(grepCount(t, "mad\\.lo\\.s32") > 0);
   assert_int_equal(s.lines, grepCount(t, ".*"));
   char sum[512];
   Listing_summary(&s, sum, sizeof sum);
   char want[64];
   snprintf(want, sizeof want, "%d instructions: %d FMA, %d shared loads", s.instructions, s.fma, s.shared_loads);
   if (strncmp(sum, want, strlen(want)))
      fail_msg("summary '%s' does not start with '%s'", sum, want);
   free(t);
}

static void test_amd(void **state) {
   (void)state;
   char *t = fixture("gfx906_mygemm02_tiled.txt");
   assert_int_equal(Listing_kind("ISA", t), LISTING_AMD);
   assert_int_equal(Listing_kind("", t), LISTING_AMD);
   ListingStats s;
   Listing_count(t, LISTING_AMD, &s);
   assert_int_equal(s.instructions, grepCount(t, "^[[:space:]]+[a-z][a-z0-9]*_[a-z0-9_]+([[:space:]]|$)"));
   assert_int_equal(s.fma, grepCount(t, "^[[:space:]]+v_(fma|fmac|mac|mad|pk_fma)_f"));
   assert_int_equal(s.shared_loads, grepCount(t, "^[[:space:]]+ds_(read|load)"));
   assert_int_equal(s.shared_stores, grepCount(t, "^[[:space:]]+ds_(write|store)"));
   assert_int_equal(s.global_loads, grepCount(t, "^[[:space:]]+(global|buffer|flat)_load"));
   assert_int_equal(s.global_stores, grepCount(t, "^[[:space:]]+(global|buffer|flat)_store"));
   assert_int_equal(s.barriers, grepCount(t, "^[[:space:]]+s_barrier([[:space:]]|$)"));
   /* Tiling: LDS reads feed the multiply-adds; two barriers per tile. */
   assert_true(s.fma > 0 && s.shared_loads > 0 && s.shared_stores > 0 && s.barriers == 2);
   char sum[512];
   Listing_summary(&s, sum, sizeof sum);
   assert_non_null(strstr(sum, "LDS loads"));
   free(t);
}

static void test_sass(void **state) {
   (void)state;
   char *t = fixture("sass_tiled_excerpt.txt");
   ListingStats s;
   Listing_count(t, Listing_kind("SASS", t), &s);
   assert_int_equal(s.kind, LISTING_SASS);
   assert_int_equal(s.instructions, grepCount(t, "^[[:space:]]*/\\*[0-9a-f]{4}\\*/[[:space:]]+(@!?P[0-9T]+[[:space:]]+)?[A-Z]"));
   assert_int_equal(s.fma, grepCount(t, "\\*/[[:space:]]+(@!?P[0-9]+[[:space:]]+)?[DH]?FFMA|\\*/[[:space:]]+DFMA"));
   assert_int_equal(s.shared_loads, grepCount(t, "\\*/[[:space:]]+LDS[ .]"));
   assert_int_equal(s.shared_stores, grepCount(t, "\\*/[[:space:]]+STS[ .]"));
   assert_int_equal(s.global_loads, grepCount(t, "\\*/[[:space:]]+LDG[ .]"));
   assert_int_equal(s.global_stores, grepCount(t, "\\*/[[:space:]]+STG[ .]"));
   assert_int_equal(s.local_loads, grepCount(t, "\\*/[[:space:]]+LDL[ .]"));
   assert_int_equal(s.local_stores, grepCount(t, "\\*/[[:space:]]+STL[ .]"));
   assert_int_equal(s.barriers, grepCount(t, "\\*/[[:space:]]+BAR[ .]"));
   free(t);
}

static void test_cpu(void **state) {
   (void)state;
   char *t = fixture("pocl_x86_mygemm02_excerpt.txt");
   assert_int_equal(Listing_kind("CPU code (PoCL, group 32x32x1)", t), LISTING_CPU);
   ListingStats s;
   Listing_count(t, LISTING_CPU, &s);
   assert_int_equal(s.instructions, grepCount(t, "^[[:space:]]*[0-9a-f]+:[[:space:]]+[a-z]"));
   assert_int_equal(s.fma, grepCount(t, "^[[:space:]]*[0-9a-f]+:[[:space:]]+v?f(n?m(add|sub)|mla|mls)"));
   assert_true(s.fma > 0);
   /* A CPU has no shared or global memory of its own to count. */
   assert_int_equal(s.shared_loads + s.shared_stores + s.global_loads + s.global_stores, 0);
   char sum[256], want[64];
   Listing_summary(&s, sum, sizeof sum);
   snprintf(want, sizeof want, "%d instructions: %d FMA", s.instructions, s.fma);
   assert_string_equal(sum, want);
   free(t);
}

/* Random listings: counts known by construction, lines in a random order among lines
 * that are no instructions. */
typedef struct Gen_ {
   const char *line;
   int what; /* 0 other instruction, 1 fma, 2 shared load, 3 shared store, 4 global load, 5 global store,
                6 barrier, 7 spill load, 8 spill store, -1 not an instruction */
} Gen;

static const Gen ptxGen[] = {
    {"\tfma.rn.f32 \t%f1, %f2, %f3, %f4;", 1},   {"\tfma.rn.f64 \t%fd1, %fd2, %fd3, %fd4;", 1},
    {"\tmad.lo.s32 \t%r1, %r2, %r3, %r4;", 0},   {"\tld.shared.v4.f32 \t{%f1, %f2, %f3, %f4}, [%r5];", 2},
    {"\tst.shared.f32 \t[%r7], %f12;", 3},       {"\tld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd3];", 4},
    {"\t@%p1 st.global.f32 \t[%rd1], %f25;", 5}, {"\tbar.sync \t0;", 6},
    {"\tld.local.u32 \t%r9, [%rd2];", 7},        {"\tst.local.u32 \t[%rd2], %r9;", 8},
    {"\t@!%p2 bra \t$L__BB0_2;", 0},             {"\tadd.s32 \t%r39, %r39, 1;", 0},
    {"$L__BB0_2:", -1},                          {"\t.reg .f32 \t%f<32>;", -1},
    {"// a comment", -1},                        {"", -1},
    {"{", -1},                                   {"\t.shared .align 4 .b8 Asub[4096];", -1},
};
static const Gen amdGen[] = {
    {"\tv_fmac_f32_e32 v5, v7, v8                  // 000000001B3C: 760A1107", 1},
    {"\tv_fma_f64 v[2:3], v[4:5], v[6:7], v[2:3]", 1},
    {"\tv_mad_u64_u32 v[7:8], s[10:11], v9, s1, v[0:1]", 0},
    {"\tds_read2_b32 v[12:13], v11 offset1:32", 2},
    {"\tds_read_b128 v[20:23], v5", 2},
    {"\tds_write_b32 v12, v7", 3},
    {"\tglobal_load_dword v7, v[5:6], off", 4},
    {"\tglobal_store_dword v[0:1], v2, off", 5},
    {"\ts_barrier", 6},
    {"\tscratch_load_dword v1, off, s0", 7},
    {"\tscratch_store_dword off, v1, s0", 8},
    {"\ts_waitcnt lgkmcnt(0)", 0},
    {"0000000000001a00 <gemm>:", -1},
    {"Disassembly of section .text:", -1},
    {"", -1},
};
static const Gen sassGen[] = {
    {"        /*0100*/                   FFMA R12, R13, R17, R12 ;     /* 0x000000110d0c7223 */", 1},
    {"        /*0110*/               @P0 DFMA R2, R4, R6, R2 ;         /* 0x0000000604027228 */", 1},
    {"        /*0120*/                   LDS.128 R12, [R9] ;           /* 0x000000000x0c7984 */", 2},
    {"        /*0130*/                   STS [R9], R6 ;                /* 0x0000000609007388 */", 3},
    {"        /*0140*/                   LDG.E.CONSTANT R8, desc[UR4][R4.64] ; /* 0x0 */", 4},
    {"        /*0150*/                   STG.E desc[UR4][R2.64], R5 ;  /* 0x0000000502007986 */", 5},
    {"        /*0160*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ; /* 0x0000000000007b1d */", 6},
    {"        /*0170*/                   LDL R12, [R1] ;               /* 0x0000000001007983 */", 7},
    {"        /*0180*/                   STL [R1], R12 ;               /* 0x0000000c01007387 */", 8},
    {"        /*0190*/                   IMAD R1, R2, R3, R4 ;         /* 0x0 */", 0},
    {"                                                                 /* 0x000fe40000000800 */", -1},
    {"\t\tFunction : gemm", -1},
};

static const Gen cpuGen[] = {
    {"    23f9:      \tvfmadd213ps\t-16(%rdi,%r15,4), %xmm7, %xmm3 # xmm3 = (xmm7 * xmm3) + mem", 1},
    {"    346e:      \tvfmadd231ps\t%xmm21, %xmm5, %xmm2", 1},
    {"     a10:      \tfmla\tv0.4s, v1.4s, v2.4s", 1},
    {"    1000:      \tpushq\t%rbp", 0},
    {"    1011:      \tsubq\t$640, %rsp              # imm = 0x280", 0},
    {"    2470:      \tvmovups\t(%rdi,%r15,4), %xmm4", 0},
    {"0000000000001000 <_pocl_kernel_gemm>:", -1},
    {"", -1},
};

static void randomListing(const Gen *g, int ng, ListingKind kind, unsigned seed) {
   srand(seed);
   int n = 50 + rand() % 400, want[9] = {0}, instr = 0;
   size_t cap = (size_t)n * 100 + 1;
   char *text = malloc(cap);
   assert_non_null(text);
   size_t o = 0;
   for (int i = 0; i < n; i++) {
      const Gen *e = &g[rand() % ng];
      o += (size_t)snprintf(text + o, cap - o, "%s\n", e->line);
      if (e->what >= 0) {
         instr++;
         want[e->what]++;
      }
   }
   ListingStats s;
   Listing_count(text, kind, &s);
   if (s.instructions != instr || s.fma != want[1] || s.shared_loads != want[2] || s.shared_stores != want[3] ||
       s.global_loads != want[4] || s.global_stores != want[5] || s.barriers != want[6] || s.local_loads != want[7] ||
       s.local_stores != want[8] || s.lines != n)
      fail_msg("%s seed %u: got %d instr %d fma %d/%d shared %d/%d global %d bar, want %d %d %d/%d %d/%d %d",
               Listing_kindName(kind), seed, s.instructions, s.fma, s.shared_loads, s.shared_stores, s.global_loads,
               s.global_stores, s.barriers, instr, want[1], want[2], want[3], want[4], want[5], want[6]);
   free(text);
}

static void test_random(void **state) {
   (void)state;
   unsigned seed = (unsigned)time(NULL);
   for (unsigned i = 0; i < 50; i++) {
      randomListing(ptxGen, (int)(sizeof ptxGen / sizeof ptxGen[0]), LISTING_PTX, seed + i);
      randomListing(amdGen, (int)(sizeof amdGen / sizeof amdGen[0]), LISTING_AMD, seed + 1000 + i);
      randomListing(sassGen, (int)(sizeof sassGen / sizeof sassGen[0]), LISTING_SASS, seed + 2000 + i);
      randomListing(cpuGen, (int)(sizeof cpuGen / sizeof cpuGen[0]), LISTING_CPU, seed + 3000 + i);
   }
}

static void test_split(void **state) {
   (void)state;
   srand((unsigned)time(NULL));
   for (int round = 0; round < 50; round++) {
      int n = 1 + rand() % 60;
      char lines[60][40], text[60 * 41 + 1];
      size_t o = 0;
      bool finalNewline = rand() % 2;
      for (int i = 0; i < n; i++) {
         int len = rand() % 30;
         for (int j = 0; j < len; j++)
            lines[i][j] = (char)('a' + rand() % 26);
         lines[i][len] = '\0';
         o += (size_t)sprintf(text + o, "%s%s", lines[i], i < n - 1 || finalNewline ? "\n" : "");
      }
      size_t *starts;
      int got = Listing_split(text, &starts);
      /* Nothing after the last '\n' is no line. */
      int want = n - (!finalNewline && !lines[n - 1][0]);
      assert_int_equal(got, want);
      for (int i = 0; i < want; i++) {
         char out[64];
         Listing_line(text, starts, got, i, out, sizeof out);
         assert_string_equal(out, lines[i]);
      }
      char out[8] = "x";
      Listing_line(text, starts, got, got, out, sizeof out);
      assert_string_equal(out, "");
      free(starts);
   }
   size_t *starts;
   assert_int_equal(Listing_split("", &starts), 0);
   free(starts);
   /* Tabs go to the next multiple of 8; the output is cut to its size. */
   assert_int_equal(Listing_split("\tab\tc\n", &starts), 1);
   char out[64];
   Listing_line("\tab\tc\n", starts, 1, 0, out, sizeof out);
   assert_string_equal(out, "        ab      c");
   Listing_line("\tab\tc\n", starts, 1, 0, out, 5);
   assert_string_equal(out, "    ");
   free(starts);
}

static void test_keep_file(void **state) {
   (void)state;
   const char *cpp = "# 1 \"k.cl\"\n"
                     "# 1 \"<built-in>\"\n"
                     "int builtin;\n"
                     "# 1 \"k.cl\"\n"
                     "typedef float real;\n"
                     "# 40 \"k.cl\"\n"
                     "# 1 \"mygemm.cl\"\n"
                     "__kernel void gemm(void) {\n"
                     "\n"
                     "\n"
                     "\n"
                     "   real a[16];\n"
                     "# 12 \"mygemm.cl\" 3\n"
                     "}\n";
   char *out = Preproc_keepFile(cpp, "mygemm.cl");
   assert_non_null(out);
   assert_string_equal(out, "__kernel void gemm(void) {\n\n   real a[16];\n}\n");
   free(out);
   out = Preproc_keepFile(cpp, "other.cl");
   assert_string_equal(out, "");
   free(out);
}

/* The real preprocessor (when installed) on a real kernel: a random tile size replaces TS. */
static void test_preprocess_kernel(void **state) {
   (void)state;
   char path[1024];
   snprintf(path, sizeof path, "%s/kernels/mygemm02_tiled.cl", GEMMTOP_SOURCE_DIR);
   char *body = Util_readFile(path, NULL);
   snprintf(path, sizeof path, "%s/kernels/helpers/prelude.h", GEMMTOP_SOURCE_DIR);
   char *prelude = Util_readFile(path, NULL);
   assert_non_null(body);
   assert_non_null(prelude);
   srand((unsigned)time(NULL));
   int ts = 2 + rand() % 200;
   char defines[128], err[256], want[64];
   snprintf(defines, sizeof defines, "-DTS=%d -DTRANSA=0 -DTRANSB=0 -DDOUBLE=%d", ts, rand() % 2);
   char *out = Preproc_kernel(prelude, body, "mygemm02_tiled.cl", defines, err, sizeof err);
   if (!out) {
      free(body);
      free(prelude);
      /* Only a missing cpp is a reason to skip; one that is there must preprocess the kernel. */
      if (system("command -v cpp >/dev/null 2>&1") == 0)
         fail_msg("cpp is installed but the kernel was not preprocessed: %s", err);
      SKIP_BECAUSE("the C preprocessor (cpp) is not installed: the kernel after cpp is not checked");
   }
   snprintf(want, sizeof want, "Asub[%d][%d]", ts, ts);
   assert_non_null(strstr(out, want));
   assert_non_null(strstr(out, "__kernel void gemm"));
   assert_null(strstr(out, "[TS]"));     /* substituted */
   assert_null(strstr(out, "/*@gemmtop")); /* comments gone */
   assert_null(strstr(out, "typedef"));  /* the prelude's lines are not the kernel's */
   ListingStats s;
   Listing_count(out, Listing_kind("OpenCL C after the preprocessor", out), &s);
   assert_int_equal(s.kind, LISTING_SOURCE);
   assert_int_equal(s.instructions, 0);
   free(out);
   free(body);
   free(prelude);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_ptx),       cmocka_unit_test(test_amd),       cmocka_unit_test(test_sass),      cmocka_unit_test(test_cpu),
       cmocka_unit_test(test_random),    cmocka_unit_test(test_split),     cmocka_unit_test(test_keep_file),
       cmocka_unit_test(test_preprocess_kernel),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
