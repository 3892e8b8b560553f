/* What the compare pane (draw_compare.c) keeps between frames: the configuration pinned
 * with C and its figures. */
#ifndef GEMMTOP_UI_DRAW_COMPARE_H
#define GEMMTOP_UI_DRAW_COMPARE_H

#include <stdbool.h>

#include "core/analyse/banks.h"
#include "core/analyse/inspect.h"
#include "explorer/worker.h"

/* The configuration pinned for the compare pane (C): its figures as last measured. */
typedef struct Pinned_ {
   bool set;
   WorkerConfig config;       /* kernel, values, problem, ablation */
   char label[256];
   bool measured;             /* its figures below were taken */
   double gflops, median_ms;
   bool verified;
   int registers;             /* the build's, -1 not reported */
   long long local_mem;
   bool have_banks;           /* its bank table (site names in names) */
   int nsites;
   BankSiteStats sites[BANKS_MAX_SITES];
   bool have_code;            /* its instruction counts and occupancy (the inspect pane's target) */
   Inspection code;           /* the fixed fields only: its texts are not kept */
} Pinned;

#endif
