/* Search strategies (src/core/sweep/search.c) on synthetic spaces: a grid of power-of-two
 * parameters with a rule that drops part of it, some configurations that fail, and a
 * landscape with one sharp optimum. Every strategy proposes only the space's
 * configurations, none twice, every one in the end, with many proposals outstanding and
 * outcomes told in any order; a seed gives the same proposals again; a replay stops at
 * its budget; and the adaptive strategies reach the optimum within a bound that random
 * search rarely meets. The seeds of the bound test are fixed (a bound over random seeds
 * could fail by chance); the others are fresh and printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "core/sweep/search.h"

#define NP 5

static uint64_t g_seed;

/* Values 2^0..2^(nv-1) for each of NP parameters, the configurations whose exponents sum
 * above maxsum dropped (a rule), listed in a shuffled order. The landscape: a peak at
 * exponents opt[], GFLOPS falling with the squared distance; every 7th configuration
 * fails to compile. */
static void makeSpace(SweepSpace *sp, int nv, int maxsum, const int *opt, uint64_t seed) {
   memset(sp, 0, sizeof *sp);
   int total = 1;
   for (int p = 0; p < NP; p++)
      total *= nv;
   sp->cands = calloc((size_t)total, sizeof *sp->cands);
   assert_non_null(sp->cands);
   for (int code = 0; code < total; code++) {
      int e[NP], sum = 0, c = code;
      for (int p = 0; p < NP; p++) {
         e[p] = c % nv;
         c /= nv;
         sum += e[p];
      }
      if (sum > maxsum) {
         sp->invalid++;
         continue;
      }
      SweepCandidate *sc = &sp->cands[sp->count++];
      double d2 = 0;
      for (int p = 0; p < NP; p++) {
         sc->values[p] = 1ll << e[p];
         d2 += (double)(e[p] - opt[p]) * (e[p] - opt[p]);
      }
      sc->outcome = code % 7 == 3 && d2 > 0 ? SWEEP_COMPILE : SWEEP_OK;
      sc->gflops = sc->outcome == SWEEP_OK ? 1000 * exp(-d2 / 6) + 1 : 0;
   }
   Rng r;
   Rng_seed(&r, seed);
   for (int i = sp->count - 1; i > 0; i--) {
      int j = (int)Rng_below(&r, (uint64_t)i + 1);
      SweepCandidate t = sp->cands[i];
      sp->cands[i] = sp->cands[j];
      sp->cands[j] = t;
   }
}

/* Asks in batches of `outstanding`, tells each batch in reverse order: every proposal a
 * candidate, none twice, all of them in the end, then none. */
static void exhaust(SearchStrategy st, const SweepSpace *sp, uint64_t seed, int outstanding, int *order) {
   Search *s = Search_new(st, sp, NP, seed);
   assert_non_null(s);
   char *seen = calloc((size_t)sp->count, 1);
   int asked = 0, batch[64];
   for (;;) {
      int nb = 0;
      while (nb < outstanding) {
         int i = Search_ask(s);
         if (i < 0)
            break;
         if (i >= sp->count)
            fail_msg("%s proposed %d of %d candidates (seed %llu)", SearchStrategy_name(st), i, sp->count,
                     (unsigned long long)seed);
         if (seen[i])
            fail_msg("%s proposed candidate %d twice (seed %llu)", SearchStrategy_name(st), i,
                     (unsigned long long)seed);
         seen[i] = 1;
         if (order)
            order[asked] = i;
         asked++;
         batch[nb++] = i;
      }
      if (nb == 0)
         break;
      while (nb-- > 0)
         Search_tell(s, batch[nb], sp->cands[batch[nb]].outcome, sp->cands[batch[nb]].gflops);
   }
   assert_int_equal(asked, sp->count);
   assert_int_equal(Search_asked(s), sp->count);
   assert_int_equal(Search_told(s), sp->count);
   assert_int_equal(Search_ask(s), -1);
   double best;
   int b = Search_best(s, &best);
   assert_true(b >= 0 && best == sp->cands[b].gflops);
   free(seen);
   Search_free(s);
}

static void test_every_strategy_proposes_each_once(void **state) {
   int opt[NP] = {1, 2, 1, 2, 0};
   SweepSpace sp;
   makeSpace(&sp, 3, 7, opt, g_seed);
   print_message("# seed %llu: %d valid, %d invalid\n", (unsigned long long)g_seed, sp.count, sp.invalid);
   for (int st = 0; st < SEARCH_STRATEGIES; st++) {
      exhaust((SearchStrategy)st, &sp, g_seed + (uint64_t)st, 1, NULL);
      exhaust((SearchStrategy)st, &sp, g_seed + (uint64_t)st, 16, NULL); /* outstanding proposals */
   }
   SweepSpace_free(&sp);
}

/* The starting configuration (candidate 0) first; exhaustive in the space's order. */
static void test_first_and_exhaustive_order(void **state) {
   int opt[NP] = {0, 0, 0, 0, 0};
   SweepSpace sp;
   makeSpace(&sp, 3, 6, opt, g_seed);
   int *order = malloc(sizeof *order * (size_t)sp.count);
   for (int st = 0; st < SEARCH_STRATEGIES; st++) {
      exhaust((SearchStrategy)st, &sp, g_seed, 4, order);
      assert_int_equal(order[0], 0);
      if (st == SEARCH_EXHAUSTIVE)
         for (int i = 0; i < sp.count; i++)
            assert_int_equal(order[i], i);
   }
   free(order);
   SweepSpace_free(&sp);
}

/* The same seed, the same proposals; another seed, others. */
static void test_seed_reproducible(void **state) {
   int opt[NP] = {2, 1, 0, 2, 1};
   SweepSpace sp;
   makeSpace(&sp, 3, 6, opt, g_seed);
   int *a = malloc(sizeof *a * (size_t)sp.count), *b = malloc(sizeof *b * (size_t)sp.count);
   for (int st = SEARCH_RANDOM; st < SEARCH_STRATEGIES; st++) {
      exhaust((SearchStrategy)st, &sp, g_seed, 3, a);
      exhaust((SearchStrategy)st, &sp, g_seed, 3, b);
      assert_memory_equal(a, b, sizeof *a * (size_t)sp.count);
      exhaust((SearchStrategy)st, &sp, g_seed ^ 0x5555, 3, b);
      if (!memcmp(a, b, sizeof *a * (size_t)sp.count))
         fail_msg("%s: seeds %llu and %llu gave the same order", SearchStrategy_name((SearchStrategy)st),
                  (unsigned long long)g_seed, (unsigned long long)(g_seed ^ 0x5555));
   }
   free(a);
   free(b);
   SweepSpace_free(&sp);
}

/* A replay stops at its budget, or at the space's best. */
static void test_replay_budget(void **state) {
   int opt[NP] = {3, 2, 3, 1, 3};
   SweepSpace sp;
   makeSpace(&sp, 4, 12, opt, g_seed);
   for (int st = 0; st < SEARCH_STRATEGIES; st++) {
      SearchReplay r;
      assert_true(Search_replay((SearchStrategy)st, &sp, NP, g_seed, 17, &r));
      assert_true(r.evals <= 17 && r.evals > 0);
      assert_true(r.reached <= r.best && r.reached > 0);
      assert_true(r.evals99 < 0 || r.evals99 <= r.evals);
      assert_true(Search_replay((SearchStrategy)st, &sp, NP, g_seed, 0, &r));
      assert_true(r.evals95 > 0 && r.evals99 >= r.evals95 && r.reached == r.best);
   }
   /* Nothing verified: nothing to reach. */
   for (int i = 0; i < sp.count; i++)
      sp.cands[i].outcome = SWEEP_WRONG;
   SearchReplay r;
   assert_false(Search_replay(SEARCH_RANDOM, &sp, NP, g_seed, 0, &r));
   SweepSpace_free(&sp);
}

static int compareInt(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* A smooth landscape of 4^5 = 1024 points (fewer after the rule) with one optimum: each
 * adaptive strategy's median over 9 seeds to reach it is within a tenth of the space.
 * Random search needs a tenth or less in 1 run of 10, so a median of 9 runs within it
 * about once in 1,000. */
static void test_adaptive_beat_random(void **state) {
   int opt[NP] = {2, 1, 3, 2, 1};
   SweepSpace sp;
   makeSpace(&sp, 4, 12, opt, 12345);
   int bound = sp.count / 10;
   for (int st = SEARCH_RANDOM; st < SEARCH_STRATEGIES; st++) {
      int evals[9];
      for (int seed = 0; seed < 9; seed++) {
         SearchReplay r;
         assert_true(Search_replay((SearchStrategy)st, &sp, NP, 1000 + (uint64_t)seed, 0, &r));
         evals[seed] = r.evals99;
      }
      qsort(evals, 9, sizeof *evals, compareInt);
      print_message("# %-8s evaluations to the optimum of %d: median %d (%d to %d)\n",
                    SearchStrategy_name((SearchStrategy)st), sp.count, evals[4], evals[0], evals[8]);
      if (st == SEARCH_RANDOM)
         assert_true(evals[4] > bound);
      else if (evals[4] > bound)
         fail_msg("%s needs a median %d evaluations, over %d", SearchStrategy_name((SearchStrategy)st), evals[4],
                  bound);
   }
   SweepSpace_free(&sp);
}

static void test_names(void **state) {
   for (int st = 0; st < SEARCH_STRATEGIES; st++) {
      SearchStrategy back;
      assert_true(SearchStrategy_parse(SearchStrategy_name((SearchStrategy)st), &back));
      assert_int_equal(back, st);
      assert_non_null(strstr(SearchStrategy_list(), SearchStrategy_name((SearchStrategy)st)));
   }
   SearchStrategy x;
   assert_false(SearchStrategy_parse("annealing", &x));
   assert_false(SearchStrategy_parse("", &x));
}

/* One configuration listed twice (a drawn space can) is proposed once. */
static void test_duplicates(void **state) {
   SweepSpace sp = {.count = 4};
   sp.cands = calloc(4, sizeof *sp.cands);
   long long v[4][2] = {{1, 2}, {2, 2}, {1, 2}, {2, 4}};
   for (int i = 0; i < 4; i++) {
      sp.cands[i].values[0] = v[i][0];
      sp.cands[i].values[1] = v[i][1];
   }
   for (int st = 0; st < SEARCH_STRATEGIES; st++) {
      Search *s = Search_new((SearchStrategy)st, &sp, 2, g_seed);
      int n = 0;
      for (int i; (i = Search_ask(s)) >= 0; n++) {
         assert_int_not_equal(i, 2);
         Search_tell(s, i, SWEEP_OK, 10.0 + i);
      }
      assert_int_equal(n, 3);
      Search_free(s);
   }
   SweepSpace_free(&sp);
}

int main(void) {
   g_seed = Rng_freshSeed();
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_every_strategy_proposes_each_once),
       cmocka_unit_test(test_first_and_exhaustive_order),
       cmocka_unit_test(test_seed_reproducible),
       cmocka_unit_test(test_replay_budget),
       cmocka_unit_test(test_adaptive_beat_random),
       cmocka_unit_test(test_names),
       cmocka_unit_test(test_duplicates),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
