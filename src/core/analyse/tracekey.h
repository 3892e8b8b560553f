/* A sort key of trace records: two words compared in turn, then the record's place (a
 * stable order). TraceKey_of gives the order both analyses of a trace take (banks.c,
 * coalesce.c): by site, work-group and warp, then by execution (seq) and lane, so that the
 * records of one request, one warp's execution of one site, lie together, lanes in order;
 * banks_compiled.c fills the words with its own order (work-item, then seq). */
#ifndef GEMMTOP_TRACEKEY_H
#define GEMMTOP_TRACEKEY_H

#include <stddef.h>

#include "core/run/session.h"

typedef struct TraceKey_ {
   unsigned long long hi; /* site, group, warp */
   unsigned long long lo; /* seq, item */
   size_t index;          /* the record's place in its trace */
} TraceKey;

static inline TraceKey TraceKey_of(const TraceRecord *r, size_t index, unsigned simd) {
   return (TraceKey){.hi = (unsigned long long)r->site << 48 | (unsigned long long)(r->group & 0xffff) << 32 |
                           r->item / simd,
                     .lo = (unsigned long long)r->seq << 32 | r->item,
                     .index = index};
}

/* Whether two keys are of one request: the same site, group, warp and execution. */
static inline int TraceKey_sameRequest(const TraceKey *a, const TraceKey *b) {
   return a->hi == b->hi && a->lo >> 32 == b->lo >> 32;
}

/* For qsort: the order above, ties by place (a stable order). */
static inline int TraceKey_compare(const void *pa, const void *pb) {
   const TraceKey *a = pa, *b = pb;
   if (a->hi != b->hi)
      return a->hi < b->hi ? -1 : 1;
   if (a->lo != b->lo)
      return a->lo < b->lo ? -1 : 1;
   return a->index < b->index ? -1 : a->index > b->index;
}

#endif
