/* What the unit tests share: a skip that says why, and the device the tests that run
 * kernels use. Include after <cmocka.h>. */
#ifndef GEMMTOP_TESTING_H
#define GEMMTOP_TESTING_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "base/rng.h"

/* Skips the running test, saying why: tests/run_all.sh counts skips apart from passes and
 * counts a skip with no "# SKIP: reason" line as a failure. */
#define SKIP_BECAUSE(...)                                                                                              \
   do {                                                                                                                \
      print_message("# SKIP: " __VA_ARGS__);                                                                           \
      print_message("\n");                                                                                             \
      skip();                                                                                                          \
   } while (0)

/* The OpenCL index of PoCL's CPU device, or -1 with err saying why. The tests that run
 * kernels run there, whatever the machine's default device: what they promise (how long
 * a run takes, a vendor BLAS to interrupt, the CPU code in the inspect pane) is PoCL's,
 * and a GPU that the machine prefers must not change it. PoCL is a test dependency
 * (scripts/deps.sh test). */
static inline int Testing_poclDevice(char *err, size_t errlen) {
   DeviceInfo *devs = NULL;
   char why[512] = "";
   int n = Backend_opencl()->findDevices(&devs, why, sizeof why);
   int found = -1;
   for (int i = 0; i < n && found < 0; i++)
      if (devs[i].type == DEVICE_CPU && devs[i].is_pocl)
         found = i;
   if (found < 0)
      snprintf(err, errlen, "no PoCL CPU device among %d OpenCL device(s)%s%s (install pocl-opencl-icd: sh scripts/deps.sh test)",
               n > 0 ? n : 0, why[0] ? ": " : "", why);
   free(devs);
   return found;
}

/* The seed of a test's random values, printed under `who`: GEMMTOP_TEST_SEED=<seed>
 * replays a run (with GEMMTOP_TEST_FILTER=<test>, one test alone, e.g. over many seeds);
 * else a fresh one, so that every run draws new inputs. */
static inline uint64_t Testing_seed(const char *who) {
   const char *env = getenv("GEMMTOP_TEST_SEED");
   const uint64_t seed = env && *env ? strtoull(env, NULL, 0) : Rng_freshSeed();
   printf("%s: seed %" PRIu64 " (GEMMTOP_TEST_SEED=%" PRIu64 " replays it)\n", who, seed, seed);
   return seed;
}

#endif
