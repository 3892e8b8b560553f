/* The access-count model of a configuration: global loads and stores, and local-memory
 * reads, per multiply-add, from the kernel's `reuse:` and `local_reuse:` metadata (how many
 * multiply-adds each element loaded serves) and the problem. A lesson shows it beside
 * the measured speed: the why of a step. Pure: no device. docs/kernel-guide.md. */
#ifndef GEMMTOP_TRAFFIC_H
#define GEMMTOP_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/device.h"
#include "core/model/catalog.h"
#include "core/model/problem.h"

typedef struct TrafficModel_ {
   bool known;               /* the kernel states `reuse:` */
   long long reuse_a, reuse_b;
   double loads_per_fma;     /* global loads of A and B elements per multiply-add */
   double stores_per_fma;    /* C written once per element: 1/K */
   double c_loads_per_fma;   /* C read once per element when beta != 0: 1/K, else 0 */
   bool local_known;         /* `local_reuse:` given */
   long long local_reuse_a, local_reuse_b;
   double local_reads_per_fma;
   double flops_per_byte;    /* 2 flops per multiply-add over the global bytes it moves */
   bool no_a, no_b;          /* an ablation switched the A or B loads off (Traffic_ablate) */
} TrafficModel;

/* False with err when an expression cannot be evaluated or is below 1; out->known false
 * (and true returned) when the kernel has no model. */
bool Traffic_model(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                   TrafficModel *out, char *err, size_t errlen);
/* The model of an ablated run (core/run/ablate.h): no-a and no-b take the A or the B loads out
 * of the global traffic; the other switches leave the counts as they are. */
void Traffic_ablate(TrafficModel *t, unsigned ablate, const Problem *p);
/* "global 0.0625 loads + 0.0010 stores per multiply-add (A 1/32, B 1/32); local 0.5 reads" */
void Traffic_describe(const TrafficModel *t, char *out, size_t outlen);

#endif
