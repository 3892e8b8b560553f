#include "tui/history.h"

#include <string.h>

void History_init(History *h) { memset(h, 0, sizeof *h); }

bool History_sameConfig(const HistoryEntry *a, const HistoryEntry *b) {
   return a->device == b->device && !strcmp(a->backend, b->backend) && !strcmp(a->kernel, b->kernel) &&
          a->nvalues == b->nvalues && !memcmp(a->values, b->values, sizeof a->values[0] * (size_t)a->nvalues) &&
          Problem_same(&a->problem, &b->problem) && a->ablate == b->ablate;
}

int History_find(const History *h, const HistoryEntry *e) {
   for (int i = 0; i < h->count; i++)
      if (History_sameConfig(&h->items[i], e))
         return i;
   return -1;
}

int History_update(History *h, const HistoryEntry *e) {
   int i = History_find(h, e);
   if (i >= 0) {
      unsigned long seq = h->items[i].seq;
      h->items[i] = *e;
      h->items[i].seq = seq;
      return i;
   }
   if (h->count == HISTORY_MAX) {
      memmove(&h->items[0], &h->items[1], sizeof h->items[0] * (HISTORY_MAX - 1));
      h->count--;
   }
   h->items[h->count] = *e;
   h->items[h->count].seq = ++h->clock;
   return h->count++;
}

int History_best(const History *h) {
   int best = -1;
   for (int i = 0; i < h->count; i++)
      if (h->items[i].state == HIST_OK && !h->items[i].ablate && !h->items[i].emulated && h->items[i].gflops > 0 &&
          (best < 0 || h->items[i].gflops > h->items[best].gflops))
         best = i;
   return best;
}

double History_maxGflops(const History *h) {
   double m = 0;
   for (int i = 0; i < h->count; i++)
      if (h->items[i].gflops > m)
         m = h->items[i].gflops;
   return m;
}
