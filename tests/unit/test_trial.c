/* One trial (core/run/trial.c) on the real device (PoCL): a refused configuration stops
 * before any input is made and its observers hear why; simulated limits are named in the
 * refusal; held inputs are made once per problem and seed and reused; the caller's and
 * the session's inputs are the ones run; the hooks see the steps in order, with the
 * compile's figures before the run and in the result after it, and a false keepGoing
 * cancels; the vendor library is timed beside a real run only; every run that ends is
 * verified. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "core/run/ablate.h"
#include "core/run/trial.h"
#include "testing.h"

static Catalog g_cat;
static Session *g_s;
static const KernelInfo *g_k;

static int setupAll(void **state) {
   (void)state;
   char err[1024];
   const char *env = getenv("GEMMTOP_KERNELS");
   if (!Catalog_load(&g_cat, env && *env ? env : GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err)) {
      fprintf(stderr, "cannot load kernels: %s\n", err);
      return -1;
   }
   int dev = Testing_poclDevice(err, sizeof err);
   g_s = dev >= 0 ? Session_open(Backend_opencl(), dev, &g_cat, err, sizeof err) : NULL;
   g_k = Catalog_find(&g_cat, "mygemm01_naive");
   if (!g_s || !g_k) {
      fprintf(stderr, "%s\n", g_s ? "no kernel mygemm01_naive" : err);
      return -1;
   }
   return 0;
}

static int teardownAll(void **state) {
   (void)state;
   Session_close(g_s);
   Catalog_free(&g_cat);
   return 0;
}

/* What the observers and hooks saw, in order. */
typedef struct Seen_ {
   char order[64];          /* "s" store, "l" log, per outcome told */
   TrialStep stopped_at;
   RunStatus status;
   TrialStep before[8];
   int nbefore;
   char defines_before_run[1024];
   int keep_going_left;     /* keepGoing answers true this many times, then false (-1: always) */
} Seen;

static void storeObserver(void *ctx, const TrialRequest *rq, const TrialOutcome *out) {
   Seen *seen = ctx;
   strcat(seen->order, "s");
   seen->stopped_at = out->stopped_at;
   seen->status = out->result->status;
}

static void logObserver(void *ctx, const TrialRequest *rq, const TrialOutcome *out) { strcat(((Seen *)ctx)->order, "l"); }

static void beforeHook(void *ctx, TrialStep next, const TrialRequest *rq, const TrialOutcome *out) {
   Seen *seen = ctx;
   if (seen->nbefore < 8)
      seen->before[seen->nbefore++] = next;
   if (next == TRIAL_RUN)
      snprintf(seen->defines_before_run, sizeof seen->defines_before_run, "%s", out->result->defines);
}

static bool keepGoingHook(void *ctx) {
   Seen *seen = ctx;
   if (seen->keep_going_left < 0)
      return true;
   return seen->keep_going_left-- > 0;
}

/* A random problem the naive kernel takes with TSM = TSN = 8: sides multiples of 8. */
static Problem randomProblem(Rng *rng) {
   Problem p;
   Problem_setDefaults(&p);
   p.m = 8 * (1 + (int)Rng_below(rng, 8));
   p.n = 8 * (1 + (int)Rng_below(rng, 8));
   p.k = 1 + (int)Rng_below(rng, 64);
   return p;
}

static void naiveValues(long long *values, long long tile) {
   KernelInfo_defaults(g_k, values);
   for (int i = 0; i < g_k->nparams; i++)
      if (!strcmp(g_k->params[i].name, "TSM") || !strcmp(g_k->params[i].name, "TSN"))
         values[i] = tile;
}

static TrialRequest heldRequest(const long long *values, const Problem *p, uint64_t seed, Inputs *held, bool *have,
                                Seen *seen) {
   TrialRequest rq = {.kernel = g_k, .values = values, .problem = p, .inputs_from = TRIAL_INPUTS_HELD, .seed = seed,
                      .held = held, .have_held = have,
                      .run = {.reps = 2, .warmup = 0, .verify = true},
                      .observers = {{storeObserver, seen}, {logObserver, seen}}, .nobservers = 2,
                      .hooks = {beforeHook, keepGoingHook, seen}};
   return rq;
}

static void test_refused_before_inputs(void **state) {
   (void)state;
   Rng rng;
   uint64_t seed = Rng_freshSeed();
   Rng_seed(&rng, seed);
   long long values[KERNEL_MAX_PARAMS];
   naiveValues(values, 8);
   Problem p = randomProblem(&rng);
   p.m += 1 + (int)Rng_below(&rng, 7); /* no longer a multiple of TSM */
   Inputs held;
   bool have = false;
   Seen seen = {.keep_going_left = -1};
   TrialRequest rq = heldRequest(values, &p, seed, &held, &have, &seen);
   RunResult *r = calloc(1, sizeof *r);
   TrialOutcome out;
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_INVALID);
   assert_int_equal(out.stopped_at, TRIAL_CHECK);
   assert_non_null(strstr(r->message, "M must be a multiple of TSM"));
   assert_false(have);           /* no inputs made for a refused configuration */
   assert_null(out.inputs);
   assert_string_equal(seen.order, "sl"); /* each observer told once, in order */
   assert_int_equal(seen.stopped_at, TRIAL_CHECK);
   assert_int_equal(seen.nbefore, 1);
   assert_int_equal(seen.before[0], TRIAL_CHECK);
   assert_int_equal(r->reps, 0);
   RunResult_free(r);
   free(r);
}

static void test_simulated_limits_are_named(void **state) {
   (void)state;
   Rng rng;
   uint64_t seed = Rng_freshSeed();
   Rng_seed(&rng, seed);
   long long values[KERNEL_MAX_PARAMS];
   naiveValues(values, 8); /* 64 work-items a group */
   Problem p = randomProblem(&rng);
   Inputs held;
   bool have = false;
   Seen seen = {.keep_going_left = -1};
   TrialRequest rq = heldRequest(values, &p, seed, &held, &have, &seen);
   rq.limits = "max_wg=32";
   RunResult *r = calloc(1, sizeof *r);
   TrialOutcome out;
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_INVALID);
   assert_non_null(strstr(r->message, "this device allows 32"));
   assert_non_null(strstr(r->message, "(simulated limits: max_wg=32)"));
   rq.limits = "max_wg=banana";
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_INVALID);
   assert_int_equal(out.stopped_at, TRIAL_CHECK);
   assert_false(have);
   /* Limits that the configuration meets: it runs, verified. */
   rq.limits = "max_wg=64";
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_OK);
   assert_true(r->verified_run && r->verify.ok);
   if (have)
      Inputs_free(&held);
   RunResult_free(r);
   free(r);
}

static void test_held_inputs_made_once_per_problem_and_seed(void **state) {
   (void)state;
   Rng rng;
   uint64_t seed = Rng_freshSeed();
   Rng_seed(&rng, seed);
   long long values[KERNEL_MAX_PARAMS];
   naiveValues(values, 8);
   Problem p = randomProblem(&rng);
   Inputs held;
   bool have = false;
   Seen seen = {.keep_going_left = -1};
   TrialRequest rq = heldRequest(values, &p, seed, &held, &have, &seen);
   RunResult *r = calloc(1, sizeof *r);
   TrialOutcome out;
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_OK);
   assert_true(out.made_inputs && have);
   assert_ptr_equal(out.inputs, &held);
   assert_true(r->verified_run && r->verify.ok);
   assert_int_equal(out.stopped_at, TRIAL_DONE);
   unsigned long generation = held.generation;
   /* The same problem and seed: the same inputs, not made again. */
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_OK);
   assert_false(out.made_inputs);
   assert_int_equal(held.generation, generation);
   /* Another seed: made again from it. */
   rq.seed = seed + 1 + Rng_below(&rng, 1000);
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_OK);
   assert_true(out.made_inputs);
   assert_true(held.seed == rq.seed);
   assert_true(r->verified_run && r->verify.ok);
   Inputs_free(&held);
   RunResult_free(r);
   free(r);
}

static void test_given_and_session_inputs_are_run(void **state) {
   (void)state;
   Rng rng;
   uint64_t seed = Rng_freshSeed();
   Rng_seed(&rng, seed);
   long long values[KERNEL_MAX_PARAMS];
   naiveValues(values, 8);
   Problem p = randomProblem(&rng);
   Inputs given;
   assert_true(Inputs_random(&given, &p, seed));
   TrialRequest rq = {.kernel = g_k, .values = values, .problem = &p, .inputs_from = TRIAL_INPUTS_GIVEN,
                      .inputs = &given, .run = {.reps = 1, .verify = true}};
   RunResult *r = calloc(1, sizeof *r);
   TrialOutcome out;
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_OK);
   assert_ptr_equal(out.inputs, &given);
   assert_false(out.made_inputs);
   assert_true(r->verified_run && r->verify.ok);
   rq.inputs_from = TRIAL_INPUTS_SESSION;
   rq.seed = seed;
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_OK);
   assert_ptr_equal(out.inputs, Session_inputs(g_s, &p, seed));
   assert_true(r->verified_run && r->verify.ok);
   Inputs_free(&given);
   RunResult_free(r);
   free(r);
}

static void test_steps_in_order_and_cancelled_between(void **state) {
   (void)state;
   Rng rng;
   uint64_t seed = Rng_freshSeed();
   Rng_seed(&rng, seed);
   long long values[KERNEL_MAX_PARAMS];
   naiveValues(values, 8);
   Problem p = randomProblem(&rng);
   Inputs held;
   bool have = false;
   Seen seen = {.keep_going_left = -1};
   TrialRequest rq = heldRequest(values, &p, seed, &held, &have, &seen);
   rq.compile_apart = true;
   RunResult *r = calloc(1, sizeof *r);
   TrialOutcome out;
   Session_forgetPrograms(g_s); /* the trial's compile is then not a lookup in memory */
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_OK);
   /* The result gives the trial's compile, not the run's lookup of its program. */
   assert_false(r->cached_memory);
   assert_true(r->compile_ms > 0 || r->cached);
   const TrialStep expected[] = {TRIAL_CHECK, TRIAL_INPUTS, TRIAL_COMPILE, TRIAL_RUN};
   assert_int_equal(seen.nbefore, 4);
   for (int i = 0; i < 4; i++)
      assert_int_equal(seen.before[i], expected[i]);
   assert_non_null(strstr(seen.defines_before_run, "TSM=8")); /* the compile's, before the run */
   assert_true(r->verified_run && r->verify.ok);
   /* keepGoing false after the inputs: cancelled there, nothing run, the observers told. */
   Seen stop = {.keep_going_left = 0};
   rq.observers[0].ctx = rq.observers[1].ctx = rq.hooks.ctx = &stop;
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_CANCELLED);
   assert_int_equal(out.stopped_at, TRIAL_INPUTS);
   assert_string_equal(stop.order, "sl");
   assert_int_equal(stop.status, RUN_CANCELLED);
   assert_int_equal(r->reps, 0);
   /* ... and after the compile's wait for the pool: cancelled at the compile. */
   Seen later = {.keep_going_left = 1};
   rq.observers[0].ctx = rq.observers[1].ctx = rq.hooks.ctx = &later;
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_CANCELLED);
   assert_int_equal(out.stopped_at, TRIAL_COMPILE);
   assert_int_equal(r->reps, 0);
   Inputs_free(&held);
   RunResult_free(r);
   free(r);
}

static void test_vendor_beside_a_real_run_only(void **state) {
   (void)state;
   Rng rng;
   uint64_t seed = Rng_freshSeed();
   Rng_seed(&rng, seed);
   long long values[KERNEL_MAX_PARAMS];
   naiveValues(values, 8);
   Problem p = randomProblem(&rng);
   VendorResult *v = calloc(1, sizeof *v);
   RunOptions vo = {.reps = 1, .verify = true};
   TrialRequest rq = {.kernel = g_k, .values = values, .problem = &p, .inputs_from = TRIAL_INPUTS_SESSION,
                      .seed = seed, .run = {.reps = 1, .verify = true}, .vendor = &vo, .vendor_result = v};
   RunResult *r = calloc(1, sizeof *r);
   TrialOutcome out;
   assert_int_equal(Trial_run(g_s, &rq, r, &out), RUN_OK);
   assert_true(out.vendor_ran); /* the library's own status says whether it is here */
   rq.run.ablate = ABLATE_NO_FMA;
   Trial_run(g_s, &rq, r, &out);
   assert_false(out.vendor_ran); /* an ablated run is not a GEMM: not compared */
   RunResult_free(r);
   free(r);
   free(v);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_refused_before_inputs),
       cmocka_unit_test(test_simulated_limits_are_named),
       cmocka_unit_test(test_held_inputs_made_once_per_problem_and_seed),
       cmocka_unit_test(test_given_and_session_inputs_are_run),
       cmocka_unit_test(test_steps_in_order_and_cancelled_between),
       cmocka_unit_test(test_vendor_beside_a_real_run_only),
   };
   return cmocka_run_group_tests(tests, setupAll, teardownAll);
}
