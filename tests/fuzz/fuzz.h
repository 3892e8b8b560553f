/* The fuzz harnesses: each takes one input and drives one parser through gemmtop's own
 * entry points. libFuzzer calls them through LLVMFuzzerTestOneInput (built with
 * FUZZ_LIBFUZZER by `make fuzz`); tests/unit/test_fuzz_replay.c calls them directly on every
 * kept crash (tests/fuzz/regressions/) in the ordinary suite. docs/fuzzing.md says more. */
#ifndef GEMMTOP_FUZZ_H
#define GEMMTOP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int Fuzz_expr(const uint8_t *data, size_t size);
int Fuzz_metadata(const uint8_t *data, size_t size);
int Fuzz_preset(const uint8_t *data, size_t size);
int Fuzz_npy(const uint8_t *data, size_t size);
int Fuzz_tuners(const uint8_t *data, size_t size);
int Fuzz_serve(const uint8_t *data, size_t size);
int Fuzz_roster(const uint8_t *data, size_t size);
int Fuzz_merge(const uint8_t *data, size_t size);
int Fuzz_shapes(const uint8_t *data, size_t size);

/* Writes data to a private temporary file (the same one each call) and returns its path:
 * the preset, .npy and roster readers take a path. Aborts if it cannot. */
const char *Fuzz_tempFile(const uint8_t *data, size_t size);

#ifdef FUZZ_LIBFUZZER
#define FUZZ_ENTRY(fn)                                                                                                \
   int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                                                       \
   int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fn(data, size); }
#else
#define FUZZ_ENTRY(fn)
#endif

#endif
