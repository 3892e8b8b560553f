/* A job of the explorer's worker loop (worker.c's table): whether it is due now, and the
 * job itself, both called with the worker's mu held. Each job's file has a header of its
 * own beside it with the job's state (one member of the Worker) and its entries. */
#ifndef GEMMTOP_WORKERJOB_H
#define GEMMTOP_WORKERJOB_H

#include <stdbool.h>

#include "explorer/worker.h"

typedef struct WorkerJob_ {
   const char *name;
   bool (*due)(const Worker *w);
   void (*run)(Worker *w);
} WorkerJob;

#endif
