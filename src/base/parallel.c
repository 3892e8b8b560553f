#include "base/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

/* More threads than this are never started: past it a loop over memory gains nothing. */
#define PARALLEL_MAX_THREADS 256
#define PARALLEL_STACK ((size_t)512 << 10)

static atomic_int threadsWanted; /* 0: the online CPUs */

void Parallel_setThreads(int n) { atomic_store(&threadsWanted, n > 0 ? n : 0); }

int Parallel_threads(void) {
   int n = atomic_load(&threadsWanted);
   if (n <= 0) {
      long cpus = sysconf(_SC_NPROCESSORS_ONLN);
      n = cpus < 1 ? 1 : cpus > PARALLEL_MAX_THREADS ? PARALLEL_MAX_THREADS : (int)cpus;
   }
   return n > PARALLEL_MAX_THREADS ? PARALLEL_MAX_THREADS : n;
}

typedef struct Loop_ {
   size_t n, grain, pieces;
   Parallel_fn fn;
   void *ctx;
   atomic_size_t next;
} Loop;

static void *drain(void *arg) {
   Loop *l = arg;
   for (size_t p; (p = atomic_fetch_add(&l->next, 1)) < l->pieces;) {
      const size_t begin = p * l->grain, end = begin + l->grain < l->n ? begin + l->grain : l->n;
      l->fn(l->ctx, begin, end);
   }
   return NULL;
}

void Parallel_for(size_t n, size_t grain, Parallel_fn fn, void *ctx) {
   if (n == 0)
      return;
   if (grain == 0)
      grain = 1;
   Loop l = {.n = n, .grain = grain, .pieces = (n + grain - 1) / grain, .fn = fn, .ctx = ctx};
   atomic_init(&l.next, 0);
   size_t threads = (size_t)Parallel_threads();
   if (threads > l.pieces)
      threads = l.pieces;
   pthread_t tid[PARALLEL_MAX_THREADS];
   size_t started = 0;
   /* Small stacks: the loops keep a few KiB on theirs, and a process with a data limit (a
    * class server's measuring child) must not spend it on reserved stacks. */
   pthread_attr_t attr;
   const bool sized = threads > 1 && pthread_attr_init(&attr) == 0;
   if (sized)
      pthread_attr_setstacksize(&attr, PARALLEL_STACK);
   while (started + 1 < threads && pthread_create(&tid[started], sized ? &attr : NULL, drain, &l) == 0)
      started++;
   if (sized)
      pthread_attr_destroy(&attr);
   drain(&l);
   for (size_t t = 0; t < started; t++)
      pthread_join(tid[t], NULL);
}
