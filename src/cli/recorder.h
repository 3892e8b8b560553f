/* The commands' side of the results store (core/results/store.h): `gemmtop run`, `sweep` and
 * `bench` open it once (--store FILE, $GEMMTOP_STORE or the default; --no-store: not at
 * all) and add each measurement as soon as it is known. A store that cannot be opened or
 * written never stops a command: it measures and prints as usual, and says once on
 * stderr why nothing (more) was recorded. */
#ifndef GEMMTOP_RECORDER_H
#define GEMMTOP_RECORDER_H

#include "cli/options.h"
#include "core/results/record.h"
#include "core/results/store.h"

typedef struct Recorder_ {
   Store *store;        /* NULL: nothing is recorded */
   bool said;           /* why nothing is recorded was said */
   int added;
} Recorder;

/* Opens the store the options name (nothing with --no-store). */
void Recorder_open(Recorder *rec, const CommandArgs *o);
/* Adds n records in one transaction; a failure is said once and stops the recording. */
void Recorder_add(Recorder *rec, StoreRecord *r, int n);
void Recorder_close(Recorder *rec);

#endif
