/* Kernel metadata parsing, constraint evaluation and the shipped catalog. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalog.h"
#include "core/config.h"

static const char *TILED =
    "// comment before\n"
    "/*@gemmtop\n"
    "name: tiled\n"
    "title: Tiling\n"
    "ladder: mygemm\n"
    "step: 2\n"
    "about: first line\n"
    "about: second line\n"
    "# a comment\n"
    "param: TS = 16 in 4, 8, 16, 32 ; tile size\n"
    "param: WPT = 1 in 1, 2, 4, 8 ; work per thread\n"
    "require: M % TS == 0 ; M must be a multiple of TS\n"
    "require: TS % WPT == 0 ; TS must be a multiple of WPT\n"
    "global: N, M / WPT\n"
    "local: TS, TS / WPT\n"
    "localmem: 2 * TS * TS * REAL_SIZE\n"
    "operands: A=N B=T\n"
    "sites: 0=Asub store, 1=Bsub store, 3=Bsub load\n"
    "*/\n"
    "__kernel void gemm() {}\n";

static DeviceLimits gpuLimits(void) {
   DeviceLimits l = {.max_wg = 256, .max_wi = {256, 256, 64}, .local_mem = 32768, .fp64 = true, .warp = 32};
   return l;
}

static Problem square(int n) {
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = n;
   return p;
}

static void test_parse_tiled(void **state) {
   (void)state;
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, TILED, "kernels/tiled.cl", err, sizeof err));
   assert_string_equal(k.name, "tiled");
   assert_string_equal(k.title, "Tiling");
   assert_string_equal(k.ladder, "mygemm");
   assert_int_equal(k.step, 2);
   assert_string_equal(k.about, "first line second line");
   assert_int_equal(k.nparams, 2);
   assert_string_equal(k.params[0].name, "TS");
   assert_int_equal(k.params[0].def, 16);
   assert_int_equal(k.params[0].nvalues, 4);
   assert_int_equal(k.params[0].values[3], 32);
   assert_string_equal(k.params[0].description, "tile size");
   assert_int_equal(k.nrules, 2);
   assert_string_equal(k.rules[1].expr, "TS % WPT == 0");
   assert_string_equal(k.rules[1].message, "TS must be a multiple of WPT");
   assert_int_equal(k.dims, 2);
   assert_string_equal(k.local[1], "TS / WPT");
   assert_false(k.operands_any);
   assert_false(k.a_trans);
   assert_true(k.b_trans);
   assert_int_equal(k.nsites, 4);
   assert_string_equal(k.sites[3], "Bsub load");
   assert_string_equal(k.entry, "gemm");
   assert_false(k.tune); /* no tune: line */
   assert_true(k.gpu_run); /* no gpu_run: line: it has run on a GPU */
   KernelInfo_free(&k);
   /* gpu_run: no marks a kernel written and compiled offline only */
   assert_true(KernelInfo_parse(&k, "/*@gemmtop\nname: fresh\ngpu_run: no\nglobal: N\nlocal: 1\n*/\n", "fresh.cl", err,
                                sizeof err));
   assert_false(k.gpu_run);
   KernelInfo_free(&k);
}

static void expectParseError(const char *text, const char *fragment) {
   KernelInfo k;
   char err[512] = "";
   if (KernelInfo_parse(&k, text, "bad.cl", err, sizeof err))
      fail_msg("'%.70s...' parses; wanted a message with '%s'", text, fragment);
   if (!strstr(err, fragment))
      fail_msg("message '%s' lacks '%s'", err, fragment);
}

static void test_parse_errors(void **state) {
   (void)state;
   expectParseError("__kernel void gemm() {}", "no '/*@gemmtop'");
   expectParseError("/*@gemmtop\nglobal: N\nlocal: 1\n", "not closed");
   expectParseError("/*@gemmtop\nparam: TS = 16 in 4, 8\nglobal: N\nlocal: 1\n*/", "bad.cl:2: param TS: default 16 is not among");
   expectParseError("/*@gemmtop\nparam: TS 16\nglobal: N\nlocal: 1\n*/", "bad.cl:2: param");
   expectParseError("/*@gemmtop\nparam: TS = 4 in 4, x\nglobal: N\nlocal: 1\n*/", "not an integer");
   expectParseError("/*@gemmtop\ncolour: blue\nglobal: N\nlocal: 1\n*/", "bad.cl:2: unknown key 'colour'");
   expectParseError("/*@gemmtop\nglobal: N, M\nlocal: 16\n*/", "different numbers of dimensions");
   expectParseError("/*@gemmtop\ntitle: x\n*/", "'global:' and 'local:' are required");
   expectParseError("/*@gemmtop\noperands: A=X\nglobal: N\nlocal: 1\n*/", "operands");
   expectParseError("/*@gemmtop\nparam: TS = 4 in 4\nparam: TS = 4 in 4\nglobal: N\nlocal: 1\n*/", "declared twice");
   expectParseError("/*@gemmtop\ntune: maybe\nglobal: N\nlocal: 1\n*/", "bad.cl:2: tune: 'maybe' is not yes or no");
   expectParseError("/*@gemmtop\ngpu_run: soon\nglobal: N\nlocal: 1\n*/", "gpu_run: 'soon' is not yes or no");
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, "/*@gemmtop\ntune: yes\nglobal: N\nlocal: 1\n*/", "t.cl", err, sizeof err));
   assert_true(k.tune); /* a candidate of gemmtop tune */
   KernelInfo_free(&k);
}

/* `accumulate:`: the FP8 tensor core's accumulator and its promotion interval, an expression
 * of the parameters, in the geometry where the PTX runs (verification reads it there); the
 * emulation sums in FP32 and says nothing; what does not parse is refused with the forms. */
static const char *ACCUMULATING =
    "/*@gemmtop\n"
    "param: PROMOTE = 1 in 0, 1, 2\n"
    "precisions: e4m3 e5m2\n"
    "tensor: yes\n"
    "accumulate: fp8-tensor-core PROMOTE * 128\n"
    "global: N, M\n"
    "local: 1, 1\n"
    "*/\n";

static void test_accumulate(void **state) {
   (void)state;
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, ACCUMULATING, "acc.cl", err, sizeof err));
   assert_string_equal(k.accumulate, "PROMOTE * 128");
   Problem p = square(256);
   p.precision = PRECISION_E4M3;
   DeviceLimits l = gpuLimits();
   Geometry g;
   for (long long promote = 0; promote <= 2; promote++) {
      l.tensor_ptx = true, l.tensor_sm = 90;
      assert_true(Config_check(&k, &promote, &p, &l, &g, err, sizeof err));
      assert_true(g.fp8_accumulator);
      assert_int_equal(g.promote_interval, promote * 128);
      l.tensor_ptx = false; /* emulated: FP32 sums */
      assert_true(Config_check(&k, &promote, &p, &l, &g, err, sizeof err));
      assert_false(g.fp8_accumulator);
   }
   KernelInfo_free(&k);
   /* the default, and FP32 said in words */
   assert_true(KernelInfo_parse(&k, TILED, "tiled.cl", err, sizeof err));
   assert_string_equal(k.accumulate, "");
   KernelInfo_free(&k);
   assert_true(KernelInfo_parse(&k, "/*@gemmtop\naccumulate: fp32\nglobal: N\nlocal: 1\n*/\n", "f.cl", err, sizeof err));
   assert_string_equal(k.accumulate, "");
   KernelInfo_free(&k);
   expectParseError("/*@gemmtop\naccumulate: fp16\nglobal: N\nlocal: 1\n*/", "'fp16' is not an accumulator");
   expectParseError("/*@gemmtop\naccumulate: fp8-tensor-core\nglobal: N\nlocal: 1\n*/", "needs the promotion interval");
   /* an interval below 0 is refused when the configuration is checked */
   assert_true(KernelInfo_parse(&k, "/*@gemmtop\nprecisions: e4m3\ntensor: yes\naccumulate: fp8-tensor-core 0 - 1\n"
                                    "global: N\nlocal: 1\n*/\n", "neg.cl", err, sizeof err));
   l.tensor_ptx = true, l.tensor_sm = 90;
   assert_false(Config_check(&k, NULL, &p, &l, &g, err, sizeof err));
   assert_non_null(strstr(err, "a promotion interval is 0 (never) or more"));
   KernelInfo_free(&k);
}

static void test_check_passes_and_geometry(void **state) {
   (void)state;
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, TILED, "tiled.cl", err, sizeof err));
   long long v[2] = {16, 4};
   Problem p = square(256);
   DeviceLimits l = gpuLimits();
   Geometry g;
   assert_true(Config_check(&k, v, &p, &l, &g, err, sizeof err));
   assert_int_equal(g.global[0], 256);
   assert_int_equal(g.global[1], 64);
   assert_int_equal(g.local[0], 16);
   assert_int_equal(g.local[1], 4);
   assert_int_equal(g.localmem, 2 * 16 * 16 * 4);
   assert_true(g.trans_b);
   assert_false(g.pad);
   p.precision = PRECISION_DOUBLE;
   assert_true(Config_check(&k, v, &p, &l, &g, err, sizeof err));
   assert_int_equal(g.localmem, 2 * 16 * 16 * 8);
   char defs[256];
   Config_defines(&k, v, &p, &g, defs, sizeof defs);
   assert_string_equal(defs, "-DTS=16 -DWPT=4 -DTRANSA=0 -DTRANSB=1 -DDOUBLE=1");
   KernelInfo_free(&k);
}

/* A split-K kernel's workspace and fix-up launch: sizes from expressions, the fix-up skipped
 * where its global size is 0, CUS from the device (given to the kernel), and the metadata
 * that does not hang together refused. */
static const char *SPLIT =
    "/*@gemmtop\n"
    "param: SPLIT = 2 in 1, 2, 4 ; ways\n"
    "global: N * CUS, M, SPLIT\n"
    "local: 8, 4, 1\n"
    "workspace: SPLIT > 1 ? SPLIT * M * N * REAL_SIZE : 0\n"
    "fixup: gemm_fixup\n"
    "fixup_global: SPLIT > 1 ? N / 4 : 0, M\n"
    "fixup_local: 16, 4\n"
    "*/\n";

static void test_workspace_and_fixup(void **state) {
   (void)state;
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, SPLIT, "split.cl", err, sizeof err));
   assert_string_equal(k.fixup_entry, "gemm_fixup");
   assert_int_equal(k.fixup_dims, 2);
   long long v[1] = {4};
   Problem p = square(256);
   DeviceLimits l = gpuLimits();
   l.compute_units = 132;
   Geometry g;
   assert_true(Config_check(&k, v, &p, &l, &g, err, sizeof err));
   assert_true(g.has_workspace);
   assert_int_equal(g.workspace, 4LL * 256 * 256 * 4);
   assert_int_equal(g.fixup_dims, 2);
   assert_int_equal(g.fixup_global[0], 64);
   assert_int_equal(g.fixup_global[1], 256);
   assert_int_equal(g.fixup_local[0], 16);
   assert_int_equal(g.global[0], 256 * 132);
   assert_int_equal(g.cus, 132);
   char defs[256];
   Config_defines(&k, v, &p, &g, defs, sizeof defs);
   if (!strstr(defs, "-DCUS=132"))
      fail_msg("defines '%s' lack -DCUS=132", defs);
   v[0] = 1; /* no split: a workspace argument of 0 bytes, no fix-up launch */
   assert_true(Config_check(&k, v, &p, &l, &g, err, sizeof err));
   assert_true(g.has_workspace);
   assert_int_equal(g.workspace, 0);
   assert_int_equal(g.fixup_dims, 0);
   l.compute_units = 0; /* not known: one */
   assert_true(Config_check(&k, v, &p, &l, &g, err, sizeof err));
   assert_int_equal(g.cus, 1);
   KernelInfo_free(&k);
   /* a fix-up group past the device's limit is refused before compiling */
   l = gpuLimits();
   l.max_wi[0] = 8;
   v[0] = 2;
   assert_true(KernelInfo_parse(&k, SPLIT, "split.cl", err, sizeof err));
   assert_false(Config_check(&k, v, &p, &l, &g, err, sizeof err));
   if (!strstr(err, "fix-up launch in dimension 0"))
      fail_msg("message '%s' lacks the fix-up", err);
   KernelInfo_free(&k);
   expectParseError("/*@gemmtop\nglobal: N\nlocal: 1\nfixup: f\nfixup_global: N\nfixup_local: 1\n*/",
                    "give 'workspace:' its bytes");
   expectParseError("/*@gemmtop\nglobal: N\nlocal: 1\nworkspace: 4\nfixup: f\n*/",
                    "'fixup:' needs both 'fixup_global:' and 'fixup_local:'");
   expectParseError("/*@gemmtop\nglobal: N\nlocal: 1\nworkspace: 4\nfixup_global: N\nfixup_local: 1\n*/",
                    "'fixup:' needs both");
   expectParseError("/*@gemmtop\nglobal: N\nlocal: 1\nworkspace: 4\nfixup: f\nfixup_global: N, M\nfixup_local: 1\n*/",
                    "different numbers of dimensions");
   expectParseError("/*@gemmtop\nglobal: N\nlocal: 1\nworkspace: 4\nfixup: f-g\n*/", "must be an entry name");
}

/* `bound: memory` marks a kernel that streams an operand at the memory's speed (its runs are
 * put against the copy bandwidth); compute, or no key, is the rest; anything else is refused. */
static void test_bound(void **state) {
   (void)state;
   static const struct {
      const char *line;
      bool memory;
   } cases[] = {{"bound: memory\n", true}, {"bound: compute\n", false}, {"", false}};
   for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
      char text[256];
      snprintf(text, sizeof text, "/*@gemmtop\n%sglobal: N\nlocal: 1\n*/\n", cases[i].line);
      KernelInfo k;
      char err[512];
      assert_true(KernelInfo_parse(&k, text, "bound.cl", err, sizeof err));
      assert_int_equal(k.memory_bound, cases[i].memory);
      KernelInfo_free(&k);
   }
   expectParseError("/*@gemmtop\nbound: disk\nglobal: N\nlocal: 1\n*/", "bound: 'disk' is not a limit");
   expectParseError("/*@gemmtop\nbound: disk\nglobal: N\nlocal: 1\n*/", "memory or compute");
}

static void expectRefusal(const KernelInfo *k, long long *v, const Problem *p, const DeviceLimits *l,
                          const char *fragment) {
   char err[1024] = "";
   assert_false(Config_check(k, v, p, l, NULL, err, sizeof err));
   if (!strstr(err, fragment))
      fail_msg("message '%s' lacks '%s'", err, fragment);
}

static void test_refusals_name_rule_and_valid_values(void **state) {
   (void)state;
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, TILED, "tiled.cl", err, sizeof err));
   DeviceLimits l = gpuLimits();
   Problem p = square(256);
   /* 32x32 = 1024 work-items on a device of 256. */
   long long v[2] = {32, 1};
   expectRefusal(&k, v, &p, &l, "needs 1024 work-items per group (32 x 32); this device allows 256");
   expectRefusal(&k, v, &p, &l, "valid TS: 4, 8, 16");
   /* ... and WPT=4 would fix it too. */
   expectRefusal(&k, v, &p, &l, "valid WPT: 4, 8");
   /* A size that doesn't divide. */
   long long v2[2] = {16, 1};
   p.m = 200;
   expectRefusal(&k, v2, &p, &l, "M must be a multiple of TS (rule M % TS == 0 fails with M=200, TS=16)");
   expectRefusal(&k, v2, &p, &l, "valid TS: 4, 8");
   /* Local memory: 2*32*32*8 = 16 KiB in double with WPT=8 (32x4 group) on 8 KiB. */
   p = square(256);
   p.precision = PRECISION_DOUBLE;
   l.local_mem = 8192;
   long long v3[2] = {32, 8};
   expectRefusal(&k, v3, &p, &l, "needs 16384 bytes of local memory per group; this device has 8192");
   /* No double support. */
   l = gpuLimits();
   l.fp64 = false;
   expectRefusal(&k, v2, &p, &l, "no double-precision support");
   /* A rule no single parameter change can fix. */
   l = gpuLimits();
   p = square(256);
   p.m = 7;
   expectRefusal(&k, v2, &p, &l, "no single parameter change fixes this");
   KernelInfo_free(&k);
}

static void test_valid_values(void **state) {
   (void)state;
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, TILED, "tiled.cl", err, sizeof err));
   DeviceLimits l = gpuLimits();
   Problem p = square(96);
   long long v[2] = {16, 2};
   bool ok[KERNEL_MAX_VALUES];
   Config_validValues(&k, v, &p, &l, 0, ok);
   /* TS in {4, 8, 16, 32}: 96 % 32 != 0, and all others divide 96 and fit. */
   assert_true(ok[0]);
   assert_true(ok[1]);
   assert_true(ok[2]);
   assert_false(ok[3]);
   KernelInfo_free(&k);
}

static void test_padding_rounds_sizes(void **state) {
   (void)state;
   const char *text = "/*@gemmtop\nparam: T = 32 in 16, 32\npad: M=T N=T K=8\nrequire: M % T == 0\nglobal: N, M\n"
                      "local: T, 8\n*/\n";
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, text, "pad.cl", err, sizeof err));
   assert_string_equal(k.name, "pad");
   DeviceLimits l = gpuLimits();
   Problem p = square(1);
   p.m = 97;
   p.n = 33;
   p.k = 5;
   long long v[1] = {32};
   Geometry g;
   assert_true(Config_check(&k, v, &p, &l, &g, err, sizeof err));
   assert_int_equal(g.m, 128);
   assert_int_equal(g.n, 64);
   assert_int_equal(g.k, 8);
   assert_true(g.pad);
   assert_int_equal(g.global[0], 64);
   KernelInfo_free(&k);
}

static void test_set_param(void **state) {
   (void)state;
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, TILED, "tiled.cl", err, sizeof err));
   long long v[2];
   KernelInfo_defaults(&k, v);
   assert_int_equal(v[0], 16);
   assert_true(Config_setParam(&k, v, "TS=32", err, sizeof err));
   assert_int_equal(v[0], 32);
   assert_false(Config_setParam(&k, v, "TS=12", err, sizeof err));
   assert_non_null(strstr(err, "TS takes 4, 8, 16, 32"));
   assert_false(Config_setParam(&k, v, "XY=1", err, sizeof err));
   assert_non_null(strstr(err, "its parameters: TS, WPT"));
   assert_false(Config_setParam(&k, v, "TS", err, sizeof err));
   assert_int_equal(v[0], 32);
   KernelInfo_free(&k);
}

/* Every shipped variant parses, and its defaults pass on a GPU-like device (1024
 * work-items, 48 KiB of local memory) at 1024, in float and in double. */
static void test_shipped_catalog(void **state) {
   (void)state;
   Catalog cat;
   char err[512];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   if (cat.warnings[0])
      fail_msg("kernel files with bad metadata:\n%s", cat.warnings);
   assert_true(cat.count >= 1);
   assert_non_null(cat.prelude);
   assert_non_null(cat.helpers);
   DeviceLimits l = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .fp64 = true, .warp = 32};
   int visible = 0;
   for (int i = 0; i < cat.count; i++) {
      const KernelInfo *k = &cat.kernels[i];
      if (k->hidden)
         continue;
      visible++;
      long long v[KERNEL_MAX_PARAMS];
      KernelInfo_defaults(k, v);
      char msg[1024];
      /* a Hopper kernel (arch: sm_90a) takes no double and an H100's opt-in shared memory */
      DeviceLimits h = l;
      h.local_mem_optin = 232448;
      h.dynamic_smem = true;
      /* float and double (a Hopper kernel: float), or each type of a kernel that takes no float
       * (the tensor ladder) */
      bool takesFloat = k->precisions & PRECISION_BIT(PRECISION_FLOAT);
      for (int prec = 0; prec < PRECISION_COUNT; prec++) {
         if (!(k->precisions & PRECISION_BIT(prec)) || (k->arch[0] && prec == PRECISION_DOUBLE) ||
             (takesFloat && prec > PRECISION_DOUBLE))
            continue;
         Problem p = square(1024);
         p.precision = (Precision)prec;
         if (!Config_check(k, v, &p, k->arch[0] ? &h : &l, NULL, msg, sizeof msg))
            fail_msg("defaults of %s refused at 1024 in %s on a 1024-work-item, 48 KiB GPU: %s", k->name,
                     Precision_name(p.precision), msg);
      }
      /* FP8 wgmma sums in the tensor core's own accumulator, and a kernel that uses it says
       * so (verification allows for it); FP8 mma.sync sums in FP32 registers */
      const bool fp8_wgmma = k->tensor && k->arch[0] && (k->precisions & PRECISION_BIT(PRECISION_E4M3));
      if (fp8_wgmma != (k->accumulate[0] != '\0'))
         fail_msg("%s: accumulate '%s', an FP8 wgmma kernel: %s", k->name, k->accumulate, fp8_wgmma ? "yes" : "no");
      if (i > 0 && cat.kernels[i - 1].ladder[0] && !strcmp(cat.kernels[i - 1].ladder, k->ladder))
         assert_true(cat.kernels[i - 1].step <= k->step);
   }
   assert_true(visible >= 1);
   /* gemmtop tune's candidates by default: each shipped one that says so is visible, and
    * the FP32, mma.sync and wgmma paths all have one */
   unsigned tuned = 0;
   for (int i = 0; i < cat.count; i++)
      if (cat.kernels[i].tune) {
         assert_false(cat.kernels[i].hidden);
         tuned |= cat.kernels[i].precisions;
      }
   assert_true(tuned & PRECISION_BIT(PRECISION_FLOAT));
   assert_true(tuned & PRECISION_BIT(PRECISION_HALF));
   assert_true(tuned & PRECISION_BIT(PRECISION_BF16));
   Catalog_free(&cat);
}

/* Launch geometry a device cannot take is refused with the reason, before any launch:
 * a global size of 2^63 - 16 used to reach PoCL, which aborted. */
static void test_launch_limits(void **state) {
   (void)state;
   static const struct {
      const char *meta, *fragment;
   } cases[] = {
       {"global: 9223372036854775792, 16\nlocal: 16, 16\n", "at most 2147483647 can be launched"},
       {"global: 34359738368\nlocal: 16\n", "makes 2147483648 work-groups of 16"},
       {"global: 9223372036854775807 + M\nlocal: 1\n", "cannot evaluate global size '9223372036854775807 + M'"},
       {"pad: M=2147483648\nglobal: N\nlocal: 1\n", "goes past 2147483647, the largest size"},
       {"pad: N=9223372036854775807\nglobal: N\nlocal: 1\n", "goes past 2147483647"},
       {"global: N\nlocal: 1\nlocalmem: 0 - 4\n", "cannot be negative"},
       {"require: M * 9223372036854775807 > 0 ; big\nglobal: N\nlocal: 1\n",
        "cannot evaluate rule 'M * 9223372036854775807 > 0': overflow: 64 * 9223372036854775807"},
       {"require: (0-9223372036854775807-1) / (0-1) > 0\nglobal: N\nlocal: 1\n", "cannot evaluate rule"},
   };
   DeviceLimits l = gpuLimits();
   Problem p = square(64);
   for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      char text[512], err[1024] = "";
      snprintf(text, sizeof text, "/*@gemmtop\nname: limits\n%s*/\n", cases[i].meta);
      KernelInfo k;
      if (!KernelInfo_parse(&k, text, "limits.cl", err, sizeof err))
         fail_msg("case %zu does not parse: %s", i, err);
      long long v[1] = {0};
      expectRefusal(&k, v, &p, &l, cases[i].fragment);
      KernelInfo_free(&k);
   }
}

/* The shipped kernels that index with 32-bit int refuse matrices of more than 2^31
 * elements (they fit in an 80 GB GPU's memory); the size_t ones take them. */
static void test_int_indexed_kernels_refuse_large_matrices(void **state) {
   (void)state;
   Catalog cat;
   char err[1024];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   DeviceLimits l = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .fp64 = true, .warp = 32};
   static const struct {
      const char *kernel;
      int m, n, k;
      bool passes;
   } cases[] = {
       {"mygemm01_naive", 65536, 65536, 1, false}, {"mygemm01_naive", 32768, 65536, 1, true},
       {"mygemm01_naive", 4096, 16, 1048576, false}, {"fast02_warptile", 65536, 128, 65536, false},
       {"fast02_warptile", 32768, 128, 65536, true},  {"general_any", 65536, 65536, 1, true},
   };
   for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      const KernelInfo *k = Catalog_find(&cat, cases[i].kernel);
      assert_non_null(k);
      long long v[KERNEL_MAX_PARAMS];
      KernelInfo_defaults(k, v);
      Problem p = square(1);
      p.m = cases[i].m, p.n = cases[i].n, p.k = cases[i].k;
      bool ok = Config_check(k, v, &p, &l, NULL, err, sizeof err);
      if (ok != cases[i].passes || (!ok && !strstr(err, "32-bit int")))
         fail_msg("%s at %dx%dx%d: %s", cases[i].kernel, p.m, p.n, p.k, ok ? "passes" : err);
   }
   Catalog_free(&cat);
}

/* Nothing in the metadata is cut: a value longer than its field is refused naming the
 * limit (a 256-character rule used to be cut and enforced weakened), and so are control
 * bytes, which 'gemmtop list kernels' would send to the terminal. */
static void test_parse_refuses_instead_of_cutting(void **state) {
   (void)state;
   char rule[300], text[1200];
   memset(rule, ' ', sizeof rule);
   memcpy(rule, "M > 0", 5);
   memcpy(rule + 270, "&& M < 0", 8);
   rule[278] = '\0';
   snprintf(text, sizeof text, "/*@gemmtop\nrequire: %s ; never\nglobal: N\nlocal: 1\n*/", rule);
   expectParseError(text, "bad.cl:2: require: the rule is 278 characters long; at most 255");
   snprintf(text, sizeof text, "/*@gemmtop\ntitle: %0*d\nglobal: N\nlocal: 1\n*/", 130, 0);
   expectParseError(text, "bad.cl:2: title is 130 characters long; at most 127");
   snprintf(text, sizeof text, "/*@gemmtop\nglobal: N, %0*d\nlocal: 1, 1\n*/", 140, 0);
   expectParseError(text, "global: expression 2 is 140 characters long; at most 127");
   snprintf(text, sizeof text, "/*@gemmtop\nparam: %0*d = 1 in 1\nglobal: N\nlocal: 1\n*/", 40, 0);
   expectParseError(text, "not an identifier");
   snprintf(text, sizeof text, "/*@gemmtop\nparam: P%0*d = 1 in 1\nglobal: N\nlocal: 1\n*/", 40, 0);
   expectParseError(text, "the param name is 41 characters long; at most 31");
   char longline[1100];
   memset(longline, 'x', 1050);
   longline[1050] = '\0';
   snprintf(text, sizeof text, "/*@gemmtop\nabout: %s\n*/", longline);
   expectParseError(text, "bad.cl:2: line of 1057 characters; at most 1023");
   expectParseError("/*@gemmtop\ntitle: red \033[31m\nglobal: N\nlocal: 1\n*/", "bad.cl:2: control character ESC");
   expectParseError("/*@gemmtop\nglobal: N\nlocal: 1\nabout: ring\007\n*/", "bad.cl:4: control character BEL");
   expectParseError("/*@gemmtop\nstep: two\nglobal: N\nlocal: 1\n*/", "step 'two' is not a number");
   expectParseError("/*@gemmtop\nsites: x=load\nglobal: N\nlocal: 1\n*/", "should be INDEX=name");
   expectParseError("/*@gemmtop\nparam: T = 99999999999999999999 in 1\nglobal: N\nlocal: 1\n*/", "not an integer");
   /* 2048 characters of about: in all, no more. */
   char many[3000] = "/*@gemmtop\nglobal: N\nlocal: 1\n";
   for (int i = 0; i < 25; i++)
      snprintf(many + strlen(many), sizeof many - strlen(many), "about: %0*d\n", 90, i);
   strcat(many, "*/");
   expectParseError(many, "about: the lines come to over 2047 characters in all");
}

/* Writes text as dir/name. */
static void writeFile(const char *dir, const char *name, const char *text, size_t len) {
   char path[512];
   snprintf(path, sizeof path, "%s/%s", dir, name);
   FILE *f = fopen(path, "wb");
   assert_non_null(f);
   assert_int_equal(fwrite(text, 1, len, f), len);
   fclose(f);
}

/* Later folders override earlier ones whatever order the file system lists files in; in
 * one folder the first file in name order keeps a name; a NUL byte is refused with its line. */
static void test_later_folders_override(void **state) {
   (void)state;
   char user[] = "/tmp/gemmtop-test-kernels-XXXXXX";
   assert_non_null(mkdtemp(user));
   static const char mine[] = "/*@gemmtop\nname: general_any\ntitle: %s\nglobal: N, M\nlocal: 1, 1\n*/\n";
   char text[256];
   /* Created in the opposite of name order. */
   snprintf(text, sizeof text, mine, "second in name order");
   writeFile(user, "b_second.cl", text, strlen(text));
   snprintf(text, sizeof text, mine, "first in name order");
   writeFile(user, "a_first.cl", text, strlen(text));
   static const char nul[] = "/*@gemmtop\nname: with_nul\nglobal: N\n\0local: 1\n*/\n";
   writeFile(user, "c_nul.cl", nul, sizeof nul - 1);
   char dirs[600], err[1024];
   snprintf(dirs, sizeof dirs, "%s/kernels:%s", GEMMTOP_SOURCE_DIR, user);
   Catalog cat;
   assert_true(Catalog_load(&cat, dirs, err, sizeof err));
   const KernelInfo *k = Catalog_find(&cat, "general_any");
   assert_non_null(k);
   assert_string_equal(k->title, "first in name order");
   assert_non_null(strstr(cat.notes, "kernel general_any: "));
   assert_non_null(strstr(cat.notes, "/a_first.cl replaces " GEMMTOP_SOURCE_DIR "/kernels/general_any.cl"));
   assert_non_null(strstr(cat.warnings, "/b_second.cl: the name general_any is taken by"));
   assert_non_null(strstr(cat.warnings, "/c_nul.cl:4: NUL byte"));
   assert_null(Catalog_find(&cat, "with_nul"));
   assert_non_null(Catalog_find(&cat, "mygemm01_naive")); /* the rest of the shipped folder */
   Catalog_free(&cat);
   /* A folder that cannot be read, and too many folders, are refused by name. */
   snprintf(dirs, sizeof dirs, "%s/kernels:%s/nosuch", GEMMTOP_SOURCE_DIR, user);
   assert_false(Catalog_load(&cat, dirs, err, sizeof err));
   assert_non_null(strstr(err, "/nosuch"));
   snprintf(dirs, sizeof dirs, "%s:%s:%s:%s:%s:%s:%s:%s:%s", user, user, user, user, user, user, user, user, user);
   assert_false(Catalog_load(&cat, dirs, err, sizeof err));
   assert_non_null(strstr(err, "more than 8 kernel folders"));
   /* No folder with the helpers. */
   assert_false(Catalog_load(&cat, user, err, sizeof err));
   assert_non_null(strstr(err, "has helpers/prelude.h"));
   snprintf(text, sizeof text, "rm -rf '%s'", user);
   assert_int_equal(system(text), 0);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_parse_tiled),
       cmocka_unit_test(test_parse_errors),
       cmocka_unit_test(test_accumulate), cmocka_unit_test(test_check_passes_and_geometry),
       cmocka_unit_test(test_refusals_name_rule_and_valid_values),
       cmocka_unit_test(test_valid_values),
       cmocka_unit_test(test_padding_rounds_sizes),
       cmocka_unit_test(test_set_param),
       cmocka_unit_test(test_shipped_catalog),
       cmocka_unit_test(test_launch_limits),
       cmocka_unit_test(test_parse_refuses_instead_of_cutting),
       cmocka_unit_test(test_later_folders_override),
       cmocka_unit_test(test_int_indexed_kernels_refuse_large_matrices),
       cmocka_unit_test(test_workspace_and_fixup), cmocka_unit_test(test_bound),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
