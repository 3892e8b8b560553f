/* The random inputs' generator: Philox4x32-10 against the published known answers, its
 * streams as the inputs read them (values pinned at chosen indices for a known seed, so
 * that any change of the stream is seen), the same matrices for every thread count, every
 * element made again alone (Inputs_operandAt, Inputs_operandLine) equal to the one stored,
 * the matrices made on all cores equal to the serial reference's, and the fast roundings
 * to bfloat16 and half equal to the general ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/lowprec.h"
#include "base/parallel.h"
#include "base/philox.h"
#include "base/rng.h"
#include "core/model/inputs.h"
#include "core/model/scales.h"
#include "testing.h"

static uint64_t g_seed;

static int setup(void **state) {
   (void)state;
   g_seed = Testing_seed("test_inputs");
   return 0;
}

/* The known answers of Philox4x32-10 that its authors publish with Random123. */
static void test_known_answers(void **state) {
   (void)state;
   static const struct {
      uint32_t ctr[4], key[2], out[4];
   } kat[] = {
       {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
       {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
        {0xffffffff, 0xffffffff},
        {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
       {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
        {0xa4093822, 0x299f31d0},
        {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
   };
   for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
      uint32_t out[4];
      Philox_block(kat[i].ctr, kat[i].key, out);
      assert_memory_equal(out, kat[i].out, sizeof out);
   }
}

/* A stream's words, one at a time or in runs from any offset, are the blocks' words. */
static void test_words_are_blocks(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed);
   uint32_t *run = malloc(5000 * sizeof *run);
   assert_non_null(run);
   for (int t = 0; t < 40; t++) {
      const uint64_t seed = Rng_next(&r), first = Rng_below(&r, 1ull << 40);
      const uint32_t stream = (uint32_t)Rng_below(&r, 8);
      const size_t count = (size_t)Rng_below(&r, 5000);
      Philox_words(seed, stream, first, count, run);
      for (size_t i = 0; i < count; i++) {
         const uint64_t w = first + i, b = w / 4;
         const uint32_t ctr[4] = {(uint32_t)b, (uint32_t)(b >> 32), stream, 0}, key[2] = {(uint32_t)seed,
                                                                                          (uint32_t)(seed >> 32)};
         uint32_t block[4];
         Philox_block(ctr, key, block);
         if (run[i] != block[w % 4] || Philox_word(seed, stream, w) != run[i])
            fail_msg("seed %" PRIu64 ": word %" PRIu64 " of stream %u: run 0x%08x, block 0x%08x", seed, w, stream,
                     run[i], block[w % 4]);
      }
   }
   free(run);
}

static Problem problem(const char *prec, int m, int n, int k, double beta) {
   Problem p;
   Problem_setDefaults(&p);
   p.m = m, p.n = n, p.k = k, p.beta = beta;
   assert_true(Precision_parse(prec, &p.precision));
   return p;
}

/* The values of seed 2026 at chosen indices: a change of the stream, of the mapping from
 * words to values or of the rounding shows here (and a --seed would no longer reproduce
 * an earlier run). */
static void test_pinned_values(void **state) {
   (void)state;
   Inputs in;
   Problem p = problem("float", 5, 7, 3, 0.5);
   assert_true(Inputs_random(&in, &p, 2026));
   const float *a = in.a, *b = in.b, *c0 = in.c0;
   assert_true(a[0] == 0x1.a43d1p-2f && a[11] == -0x1.c4aap-8f && b[5] == -0x1.cf0628p-2f && c0[4] == -0x1.e8cc94p-1f);
   /* the first of A is word 0 of stream 1 under the seed as key */
   uint32_t out[4];
   Philox_block((const uint32_t[4]){0, 0, 1, 0}, (const uint32_t[2]){2026, 0}, out);
   assert_true(a[0] == Philox_signed24(out[0]));
   Inputs_free(&in);

   p = problem("double", 5, 7, 3, 0.5);
   assert_true(Inputs_random(&in, &p, 2026));
   assert_true(((double *)in.a)[3] == 0x1.b3bd472d6bd78p-3 && ((double *)in.c0)[0] == -0x1.bec3b070a833p-1);
   Inputs_free(&in);

   p = problem("bfloat16", 5, 7, 3, 0.5);
   assert_true(Inputs_random(&in, &p, 2026));
   assert_int_equal(((uint16_t *)in.b)[2], 0xbf46);
   Inputs_free(&in);

   p = problem("half", 5, 7, 3, 0.5);
   assert_true(Inputs_random(&in, &p, 2026));
   assert_int_equal(((uint16_t *)in.a)[4], 0x3a04);
   Inputs_free(&in);

   p = problem("e4m3", 5, 7, 300, 0);
   p.scaling = SCALING_BLOCK;
   assert_true(Inputs_random(&in, &p, 2026));
   const uint8_t *qa = in.a;
   assert_int_equal(qa[1], 0xfb);
   assert_int_equal(qa[299], 0x6e);
   assert_true(in.sa[0] == 0x1.345ba6p-8f && in.sa[2] == 0x1.946fdp-11f && in.sb[1] == 0x1.693ba6p-12f);
   Inputs_free(&in);
}

static const char *const kTypes[] = {"float", "double", "tf32", "half", "bfloat16", "e4m3", "e5m2"};

static bool sameInputs(const Inputs *x, const Inputs *y, const Problem *p) {
   const size_t ies = Precision_inputSize(p->precision), es = Precision_size(p->precision);
   bool same = !memcmp(x->a, y->a, Problem_sizeA(p) * ies) && !memcmp(x->b, y->b, Problem_sizeB(p) * ies) &&
               (!x->c0 || !memcmp(x->c0, y->c0, Problem_sizeC(p) * es));
   if (Problem_scaled(p))
      same = same && !memcmp(x->sa, y->sa, Scales_count(p, true) * sizeof *x->sa) &&
             !memcmp(x->sb, y->sb, Scales_count(p, false) * sizeof *x->sb);
   return same;
}

/* A random problem of type t: sizes that cross the generator's pieces and FP8's blocks. */
static Problem randomProblem(Rng *r, int t) {
   Problem p = problem(kTypes[t], 1 + (int)Rng_below(r, 300), 1 + (int)Rng_below(r, 300), 1 + (int)Rng_below(r, 400),
                       Rng_below(r, 2) ? 0.0 : Rng_range(r, 0.25, 2));
   p.trans_a = Rng_below(r, 2), p.trans_b = Rng_below(r, 2);
   p.scaling = Rng_below(r, 2) ? SCALING_BLOCK : SCALING_TENSOR;
   if (Problem_scaled(&p))
      p.beta = 0;
   return p;
}

/* The matrices do not depend on how many threads made them. */
static void test_threads_make_the_same(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed + 1);
   static const int threads[] = {2, 3, 7, 0};
   for (int t = 0; t < (int)(sizeof kTypes / sizeof kTypes[0]); t++) {
      const Problem p = randomProblem(&r, t);
      const uint64_t seed = Rng_next(&r);
      Inputs one, many;
      Parallel_setThreads(1);
      assert_true(Inputs_random(&one, &p, seed));
      for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
         Parallel_setThreads(threads[i]);
         assert_true(Inputs_random(&many, &p, seed));
         if (!sameInputs(&one, &many, &p))
            fail_msg("seed %" PRIu64 ": %s %dx%dx%d: %d threads made other inputs than one", seed, kTypes[t], p.m,
                     p.n, p.k, threads[i]);
         Inputs_free(&many);
      }
      Inputs_free(&one);
   }
   Parallel_setThreads(0);
}

/* Every element made again from the seed alone is the one stored (times its scale), one
 * at a time and as a sample's line; a different seed makes other matrices. */
static void test_elements_made_again(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed + 2);
   for (int t = 0; t < (int)(sizeof kTypes / sizeof kTypes[0]); t++)
      for (int lay = 0; lay < 4; lay++) {
         Problem p = randomProblem(&r, t);
         p.m = 1 + p.m % 40, p.n = 1 + p.n % 40;
         p.trans_a = lay & 1, p.trans_b = (lay & 2) != 0;
         const uint64_t seed = Rng_next(&r);
         Inputs in, other;
         assert_true(Inputs_random(&in, &p, seed));
         const Storage kind = Types_of(p.precision)->in;
         double *line = malloc(((size_t)p.k + 1) * sizeof *line);
         assert_non_null(line);
         for (int a = 1; a >= 0; a--) {
            const size_t lines = a ? (size_t)p.m : (size_t)p.n;
            for (size_t x = 0; x < lines; x++) {
               Inputs_operandLine(&in, &p, a, x, line);
               for (size_t k = 0; k < (size_t)p.k; k++) {
                  const size_t row = a ? x : k, col = a ? k : x;
                  const size_t s = a ? Scales_storedA(&p, row, col) : Scales_storedB(&p, row, col);
                  double want = Storage_load(kind, a ? in.a : in.b, s);
                  if (Problem_scaled(&p))
                     want *= (a ? in.sa : in.sb)[a ? Scales_indexA(&p, row, col) : Scales_indexB(&p, row, col)];
                  const double at = Inputs_operandAt(&in, &p, a, row, col);
                  if (at != want || line[k] != want)
                     fail_msg("seed %" PRIu64 ": %s layout %d: op(%c)[%zu][%zu] made again %.17g (line %.17g), "
                              "stored %.17g", seed, kTypes[t], lay, a ? 'A' : 'B', row, col, at, line[k], want);
               }
            }
         }
         free(line);
         assert_true(Inputs_random(&other, &p, seed + 1));
         assert_false(sameInputs(&in, &other, &p));
         Inputs_free(&other);
         Inputs_free(&in);
      }
}

/* The matrices made on all cores (the FP8 ones in two passes: amax, then quantised) are
 * those the serial reference makes of the same drawn values: Inputs_fromValues rounds with
 * Storage_store and quantises with Scales_quantize, one element at a time. */
static void test_same_as_serial_reference(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed + 5);
   for (int t = 0; t < (int)(sizeof kTypes / sizeof kTypes[0]); t++) {
      if (!strcmp(kTypes[t], "double")) /* its drawn values are 53 bits: no float to give */
         continue;
      for (int lay = 0; lay < 4; lay++) {
         Problem p = randomProblem(&r, t);
         p.trans_a = lay & 1, p.trans_b = (lay & 2) != 0, p.beta = 0;
         const uint64_t seed = Rng_next(&r);
         Inputs made, reference;
         float *A, *B;
         assert_true(Inputs_random(&made, &p, seed));
         assert_true(Inputs_drawn(&p, seed, &A, &B));
         assert_true(Inputs_fromValues(&reference, &p, A, B, seed));
         if (!sameInputs(&made, &reference, &p))
            fail_msg("seed %" PRIu64 ": %s %dx%dx%d layout %d (%s scaling): the matrices differ from the serial "
                     "reference's", seed, kTypes[t], p.m, p.n, p.k, lay, Scaling_name(p.scaling));
         Inputs_free(&made);
         Inputs_free(&reference);
         free(A);
         free(B);
      }
   }
}

/* The values are those of the distributions: uniform in [-1, 1) (never all equal, never
 * out of range), and for FP8 each block's magnitude within [2^-4, 2^4). */
static void test_ranges(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed + 3);
   const uint64_t seed = Rng_next(&r);
   Problem p = problem("double", 64, 64, 64, 1.0);
   Inputs in;
   assert_true(Inputs_random(&in, &p, seed));
   double lo = 1, hi = -1;
   for (size_t i = 0; i < Problem_sizeA(&p); i++) {
      const double v = ((double *)in.a)[i];
      lo = fmin(lo, v), hi = fmax(hi, v);
   }
   assert_true(lo >= -1 && hi < 1 && lo < hi);
   Inputs_free(&in);
   p = problem("e4m3", 64, 256, 256, 0);
   p.scaling = SCALING_BLOCK;
   assert_true(Inputs_random(&in, &p, seed));
   for (size_t i = 0; i < Scales_count(&p, true); i++) /* amax / 448 of values below 16 */
      assert_true(in.sa[i] > 0 && in.sa[i] <= 16.0f / 448.0f * (1 + 0x1p-20f));
   Inputs_free(&in);
}

/* The float paths to bfloat16 and half give the general rounding's bits: every exponent,
 * the ties, the edges of half's range, subnormals, infinities and NaN. */
static void test_fast_rounding(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed + 4);
   static const float edges[] = {0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, 65536.0f, 0x1p-14f, 0x1.ffcp-15f,
                                 0x1p-24f, 0x1p-25f, 0x1.8p-25f, 1.0f + 0x1p-11f, 1.0f + 0x3p-11f, 1.0f + 0x1p-8f,
                                 1.0f + 0x3p-8f, INFINITY, -INFINITY, NAN, 0x1.fffffep127f, 0x1p-149f};
   for (size_t i = 0; i < sizeof edges / sizeof edges[0] + 2000000; i++) {
      float x;
      if (i < sizeof edges / sizeof edges[0]) {
         x = edges[i];
      } else {
         const uint32_t bits = (uint32_t)Rng_next(&r);
         memcpy(&x, &bits, sizeof x);
      }
      if (LowPrec_bf16FromFloat(x) != LowPrec_bf16FromDouble(x))
         fail_msg("bfloat16 of %a: 0x%04x, the general path 0x%04x", (double)x, LowPrec_bf16FromFloat(x),
                  LowPrec_bf16FromDouble(x));
      if (LowPrec_halfFromFloat(x) != LowPrec_halfFromDouble(x))
         fail_msg("half of %a: 0x%04x, the general path 0x%04x", (double)x, LowPrec_halfFromFloat(x),
                  LowPrec_halfFromDouble(x));
   }
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_known_answers),       cmocka_unit_test(test_words_are_blocks),
       cmocka_unit_test(test_pinned_values),       cmocka_unit_test(test_threads_make_the_same),
       cmocka_unit_test(test_elements_made_again), cmocka_unit_test(test_same_as_serial_reference),
       cmocka_unit_test(test_ranges),              cmocka_unit_test(test_fast_rounding),
   };
   return cmocka_run_group_tests(tests, setup, NULL);
}
