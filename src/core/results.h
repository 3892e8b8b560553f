/* Rows of the results store, gathered and ranked: the best verified result per device,
 * kernel and size (with the vendor library's figure beside it), and two sets of rows
 * compared configuration by configuration. gemmtop results (cli/cli_results.c) prints
 * them; core/resultfmt.h writes and reads them as files. */
#ifndef GEMMTOP_RESULTS_H
#define GEMMTOP_RESULTS_H

#include <stdbool.h>

#include "backend/device.h"
#include "core/catalog.h"
#include "core/shapes.h"
#include "core/store.h"

/* Rows in memory (Store_query's callback adds them). */
typedef struct ResultSet_ {
   StoreRecord *rows;
   int n, cap;
   bool out_of_memory;
} ResultSet;

/* A StoreRowFn: adds r to the ResultSet ctx; false (stop) when memory runs out. */
bool ResultSet_addRow(const StoreRecord *r, void *ctx);
void ResultSet_free(ResultSet *s);

/* A row that ranks: it ran, was verified, was not ablated or emulated, has a figure. */
bool Results_ranks(const StoreRecord *r);

typedef struct ResultBest_ {
   int row;                  /* the best row of its group (an index into the set) */
   int vendor;               /* the vendor library's best row on the same device and problem, or -1 */
   double pct_of_vendor;     /* NaN when there is no vendor row */
} ResultBest;

/* One ResultBest per device, kernel and problem (sizes, type, layout) that has a row that
 * ranks, highest GFLOPS first within it; vendor rows are not ranked but are what the
 * others are a percentage of. Ordered by device, then problem, then GFLOPS (best first).
 * Returns the count (*out malloc'd), or -1 out of memory. */
int Results_best(const ResultSet *s, ResultBest **out);

typedef struct ResultPair_ {
   int a, b;                 /* the best row of each side for one kernel, parameters and problem, or -1 */
   double ratio;             /* b's GFLOPS / a's; NaN unless both */
} ResultPair;

/* Per kernel, parameters (in any order: "TSM=8 TSN=16" is "TSN=16 TSM=8") and problem:
 * the best ranking row of side a and of side b
 * (rows of the one set, side[i] 0 for a, 1 for b, other values in neither). Ordered by
 * kernel, problem and parameters. Returns the count (*out malloc'd), or -1. */
int Results_compare(const ResultSet *s, const unsigned char *side, ResultPair **out);

/* A shape suite's dispatch table (results export --format dispatch): for each shape, the
 * best ranking row of s at its size (s holds one device's rows of one type: the caller's
 * filter), or -1, and the vendor library's best there. */
typedef struct DispatchEntry_ {
   int row, vendor;
   double pct_of_vendor;      /* NaN without a vendor row */
} DispatchEntry;
void Results_dispatch(const ResultSet *s, const ShapeSuite *suite, DispatchEntry *out);

/* What a row must be to stand for a configuration a program can run today (gemmtop tune's
 * dispatch table, bench --best): measured on this device (its exact name) through this
 * backend, of the problem's type (and FP8 scaling) and layout, timed with the L2 as asked;
 * its kernel in the catalog with the text it was measured with (the file's hash) and its
 * parameters valid at its size on the device; and taken by keep when given (values: its
 * parameters). The vendor library's rows of that device, backend and problem stay too, for
 * the percentages. */
typedef struct ResultsScope_ {
   const Catalog *cat;
   const char *device, *backend;
   const DeviceLimits *limits;
   Problem problem;           /* type, scaling and layout; the sizes are each row's own */
   bool cold_l2;
   bool (*keep)(void *ctx, const StoreRecord *r, const KernelInfo *k, const long long *values);
   void *ctx;
} ResultsScope;
/* Drops the rows of s that scope does not take, keeping the others in their order. */
void Results_keepScope(ResultSet *s, const ResultsScope *scope);
/* Each shape's best configuration in scope: the rows of store st that scope takes, into set
 * (the caller frees it), and Results_dispatch over them into e[suite->count]. False with
 * err when the store cannot be read or memory runs out. */
bool Results_shapeBest(Store *st, const ResultsScope *scope, const ShapeSuite *suite, ResultSet *set,
                       DispatchEntry *e, char *err, size_t errlen);

/* Whether an imported row is already in the store: the same origin, device, kernel,
 * parameters, problem and time figure (an import run twice adds nothing). */
unsigned long long Results_importKey(const StoreRecord *r);

#endif
