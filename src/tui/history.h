/* The configurations tried in this session, each with its latest figures, for the
 * history chart. A configuration measured again updates its entry. */
#ifndef GEMMTOP_UI_HISTORY_H
#define GEMMTOP_UI_HISTORY_H

#include <stdbool.h>

#include "core/model/catalog.h"
#include "core/model/problem.h"

#define HISTORY_MAX 64

typedef enum { HIST_OK = 0, HIST_NOT_VERIFIED, HIST_FAILED } HistoryState;

typedef struct HistoryEntry_ {
   char backend[16];
   int device;
   char kernel[64];
   long long values[KERNEL_MAX_PARAMS];
   int nvalues;
   Problem problem;
   char params[160];     /* "TSN=16 TSM=16", for the label */
   double gflops;        /* the latest rolling median (0 when it never ran) */
   double median_ms;
   HistoryState state;
   char why[64];         /* "compile error", "invalid", ... when it did not run */
   unsigned ablate;      /* AblateFlag bits: an ablated run, labelled, never the best */
   bool emulated;        /* tensor instructions emulated (no tensor cores): never the best */
   bool stored;          /* from the results store: measured in an earlier session */
   unsigned long seq;    /* order of first appearance */
} HistoryEntry;

typedef struct History_ {
   HistoryEntry items[HISTORY_MAX]; /* oldest first */
   int count;
   unsigned long clock;
} History;

void History_init(History *h);
/* Adds e or updates the entry of the same configuration; returns its index. When full,
 * the oldest entry goes. */
int History_update(History *h, const HistoryEntry *e);
int History_find(const History *h, const HistoryEntry *e);
/* The entry with the most GFLOPS among those that ran and verified, ablated and emulated ones never;
 * -1 if none. */
int History_best(const History *h);
/* The largest GFLOPS of any entry (0 if none). */
double History_maxGflops(const History *h);
bool History_sameConfig(const HistoryEntry *a, const HistoryEntry *b);

#endif
