#include "serve/fairq.h"

#include <stdlib.h>
#include <string.h>

void FairQueue_init(FairQueue *q) {
   memset(q, 0, sizeof *q);
}

void FairQueue_free(FairQueue *q) {
   free(q->items);
   free(q->turns);
   memset(q, 0, sizeof *q);
}

bool FairQueue_push(FairQueue *q, uid_t student, int device, void *payload) {
   if (q->n == q->cap) {
      int cap = q->cap ? 2 * q->cap : 16;
      FairItem *items = realloc(q->items, (size_t)cap * sizeof *items);
      if (!items)
         return false;
      q->items = items;
      q->cap = cap;
   }
   q->items[q->n++] = (FairItem){.student = student, .device = device, .seq = ++q->seq, .payload = payload};
   return true;
}

/* The turn student last had (0: never). */
static unsigned long servedAt(const FairQueue *q, uid_t student) {
   for (int i = 0; i < q->nturns; i++)
      if (q->turns[i].student == student)
         return q->turns[i].served;
   return 0;
}

static void noteTurn(FairQueue *q, uid_t student, unsigned long turn) {
   for (int i = 0; i < q->nturns; i++)
      if (q->turns[i].student == student) {
         q->turns[i].served = turn;
         return;
      }
   if (q->nturns == q->capturns) {
      int cap = q->capturns ? 2 * q->capturns : 16;
      void *turns = realloc(q->turns, (size_t)cap * sizeof *q->turns);
      if (!turns)
         return; /* the student counts as never served: still fair to the others */
      q->turns = turns;
      q->capturns = cap;
   }
   q->turns[q->nturns].student = student;
   q->turns[q->nturns++].served = turn;
}

/* The index of the request taken next for device (-2: any device) given the turns in
 * served (one per item's student, parallel to items), or -1. Items are in arrival order,
 * so a student's first eligible item is its oldest. */
static int pick(const FairItem *items, int n, const unsigned long *served, int device) {
   int best = -1;
   for (int i = 0; i < n; i++) {
      if (device != -2 && items[i].device >= 0 && items[i].device != device)
         continue;
      if (best < 0 || served[i] < served[best])
         best = i; /* equal turns: the earlier item (its student waited longer) */
   }
   return best;
}

static void removeAt(FairQueue *q, int i) {
   memmove(q->items + i, q->items + i + 1, (size_t)(q->n - i - 1) * sizeof *q->items);
   q->n--;
}

void *FairQueue_pop(FairQueue *q, int device) {
   unsigned long *served = malloc((size_t)(q->n ? q->n : 1) * sizeof *served);
   if (!served)
      return NULL;
   for (int i = 0; i < q->n; i++)
      served[i] = servedAt(q, q->items[i].student);
   int i = pick(q->items, q->n, served, device);
   free(served);
   if (i < 0)
      return NULL;
   void *payload = q->items[i].payload;
   noteTurn(q, q->items[i].student, ++q->turn);
   removeAt(q, i);
   return payload;
}

bool FairQueue_remove(FairQueue *q, void *payload) {
   for (int i = 0; i < q->n; i++)
      if (q->items[i].payload == payload) {
         removeAt(q, i);
         return true;
      }
   return false;
}

int FairQueue_position(const FairQueue *q, const void *payload) {
   int n = q->n, at = 0;
   FairItem *items = malloc((size_t)(n ? n : 1) * sizeof *items);
   unsigned long *served = malloc((size_t)(n ? n : 1) * sizeof *served);
   if (!items || !served) {
      free(items);
      free(served);
      return 1;
   }
   memcpy(items, q->items, (size_t)n * sizeof *items);
   for (int i = 0; i < n; i++)
      served[i] = servedAt(q, items[i].student);
   /* The pops that would happen, on a copy, until payload's turn. */
   for (unsigned long turn = q->turn + 1; n > 0; turn++) {
      int i = pick(items, n, served, -2);
      at++;
      if (items[i].payload == payload)
         break;
      uid_t who = items[i].student;
      memmove(items + i, items + i + 1, (size_t)(n - i - 1) * sizeof *items);
      memmove(served + i, served + i + 1, (size_t)(n - i - 1) * sizeof *served);
      n--;
      for (int j = 0; j < n; j++)
         if (items[j].student == who)
            served[j] = turn;
      if (n == 0)
         at = 0;
   }
   free(items);
   free(served);
   return at;
}

int FairQueue_countOf(const FairQueue *q, uid_t student) {
   int count = 0;
   for (int i = 0; i < q->n; i++)
      count += q->items[i].student == student;
   return count;
}
