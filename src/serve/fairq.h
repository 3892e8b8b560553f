/* The server's queue, fair across students: each device takes next the oldest request of
 * the student it has served least recently (round robin by student, not by request), so
 * a student with fifty requests waiting delays another's one by one turn at most. Plain
 * data, no locks: serve.c holds its mutex around every call. */
#ifndef GEMMTOP_FAIRQ_H
#define GEMMTOP_FAIRQ_H

#include <stdbool.h>
#include <sys/types.h>

typedef struct FairItem_ {
   uid_t student;
   int device;               /* the device it must run on, -1 any */
   unsigned long seq;        /* order of arrival (FairQueue_push sets it) */
   void *payload;
} FairItem;

typedef struct FairQueue_ {
   FairItem *items;          /* waiting, in order of arrival */
   int n, cap;
   struct {
      uid_t student;
      unsigned long served;  /* the turn it last had (0: never) */
   } *turns;
   int nturns, capturns;
   unsigned long seq, turn;
} FairQueue;

void FairQueue_init(FairQueue *q);
void FairQueue_free(FairQueue *q);
/* False when out of memory. */
bool FairQueue_push(FairQueue *q, uid_t student, int device, void *payload);
/* The next request for device (one pinned there or to none), taken out; NULL when none. */
void *FairQueue_pop(FairQueue *q, int device);
/* Takes payload out wherever it waits (a client gone); false when it is not waiting. */
bool FairQueue_remove(FairQueue *q, void *payload);
/* Where payload is in the order requests would be taken on a single device: 1 is next,
 * 0 when it is not waiting. */
int FairQueue_position(const FairQueue *q, const void *payload);
/* How many of student's requests wait. */
int FairQueue_countOf(const FairQueue *q, uid_t student);

#endif
