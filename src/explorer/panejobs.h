/* The panes' jobs (panejobs.c): the bank pane's trace and the inspect pane's reading of
 * the compiled code, each for the configuration measured, while its pane is shown. */
#ifndef GEMMTOP_PANEJOBS_H
#define GEMMTOP_PANEJOBS_H

#include "explorer/workerjob.h"

typedef struct BanksJobState_ {
   bool want;        /* the pane is shown (mailbox) */
   bool ready;       /* out waits for the UI */
   WorkerBanks out;
   bool done;        /* the current configuration has been traced */
} BanksJobState;

typedef struct InspectJobState_ {
   bool want;                    /* the pane is shown (mailbox) */
   char backend[16], arch[32];   /* its target ("": the device) */
   bool ready;                   /* out waits for the UI */
   WorkerInspect out;
   bool done;                    /* the current configuration's code has been read */
} InspectJobState;

extern const WorkerJob PaneJob_inspectOffline, PaneJob_inspect, PaneJob_banks;
void PaneJob_freeBanks(WorkerBanks *b);

#endif
