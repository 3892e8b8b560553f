/* On a class server (served.c): each configuration measured there once, and `J`'s
 * submission of the configuration on screen to an assignment. */
#ifndef GEMMTOP_SERVED_H
#define GEMMTOP_SERVED_H

#include "explorer/workerjob.h"

typedef struct SubmitJobState_ {
   bool req;             /* submit the current configuration (mailbox) */
   char assignment[48];  /* to this assignment */
} SubmitJobState;

extern const WorkerJob Served_submitJob;
/* The configuration measured on the server once, verified, with its place in the queue
 * shown while it waits; the vendor BLAS there. */
void Served_round(Worker *w, const KernelInfo *k, const WorkerConfig *cfg, unsigned long serial, const char *name);
void Served_vendor(Worker *w);

#endif
