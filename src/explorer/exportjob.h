/* `K`'s job (exportjob.c): the configuration on screen exported into a new folder. */
#ifndef GEMMTOP_EXPORTJOB_H
#define GEMMTOP_EXPORTJOB_H

#include "explorer/workerjob.h"

typedef struct ExportJobState_ {
   bool req;          /* export cfg's kernel (mailbox) */
   WorkerConfig cfg;  /* what the screen showed when K was pressed */
} ExportJobState;

extern const WorkerJob ExportJob_entry;

#endif
