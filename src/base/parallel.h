/* Loops spread over the host's cores: pthreads that take pieces of a range until none is
 * left. The pieces are a function of the range and the grain alone, never of the thread
 * count, so a loop whose pieces write only their own outputs gives the same bits on one
 * thread or on 128 (the inputs, the verification's passes). */
#ifndef GEMMTOP_PARALLEL_H
#define GEMMTOP_PARALLEL_H

#include <stddef.h>

/* fn(ctx, begin, end) for consecutive pieces [begin, end) of [0, n), each of grain items
 * (the last may be shorter), on up to Parallel_threads() threads, the caller's one of
 * them; returns when all are done. A thread that cannot be started is no error: the
 * others take its pieces. */
typedef void (*Parallel_fn)(void *ctx, size_t begin, size_t end);
void Parallel_for(size_t n, size_t grain, Parallel_fn fn, void *ctx);

/* The threads a loop may use: the online CPUs, or what Parallel_setThreads said (tests
 * compare counts: 1 runs everything on the caller's thread). n <= 0: the CPUs again.
 * Process-wide. */
int Parallel_threads(void);
void Parallel_setThreads(int n);

#endif
