/* Waves: how a launch fills the GPU. W work-groups on U multiprocessors that each hold R of
 * them at once (the occupancy estimate, occupancy.h) run in ceil(W / (U R)) waves, the last
 * one W mod (U R) groups full: 64 tiles of a 128 x 8192 GEMM on an H100's 132
 * multiprocessors leave most of it idle, whatever each tile does. Known where the device's
 * architecture and the kernel's registers are (NVIDIA and AMD GPUs), not on a CPU. A
 * persistent grid (`work:`) is one wave or so of groups sharing out its items of work: the
 * slots are busy as far as the items fill the groups' rounds (64 tiles for 132 groups: 48%;
 * the same tiles cut into K steps, stream-K: all but a step). */
#ifndef GEMMTOP_WAVES_H
#define GEMMTOP_WAVES_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/device.h"
#include "core/model/config.h"

typedef struct Waves_ {
   bool known;
   long long groups;          /* work-groups launched */
   int units;                 /* multiprocessors (compute units) */
   int per_unit;              /* work-groups resident on one at once */
   int full;                  /* complete waves */
   double waves;              /* groups / (units * per_unit) */
   double last_fill;          /* the last wave's share of the slots (1 when the waves are whole) */
   double busy;               /* the slots' average use over all the waves: waves / ceil(waves) */
   double occupancy;          /* the same estimate's resident warps over the most a unit holds */
   long long work;            /* a persistent grid's items of work (Geometry.work); 0 when not one */
   long long rounds;          /* with work: the most items one work-group takes */
} Waves;

/* The launch g of a kernel with registers per work-item and local_mem bytes of static local
 * memory per group (as compiled) on dev; g's dynamic shared memory is added to it. */
Waves Waves_of(const DeviceInfo *dev, const Geometry *g, int registers, long long local_mem);
/* w counted by units instead of slots, for a kernel whose one group takes a unit whole (a
 * warp-specialised wgmma kernel): the hardware spreads a grid over the units before it
 * doubles up, and a second group on a unit adds no throughput, so a unit, not a slot, is
 * what idles in the tail (H200, ncu: a persistent grid of 132 such groups ran its SMs 71-85%
 * busy where two slots a unit made it half a wave, 48% busy). What is resident at once
 * stays w's. */
Waves Waves_byUnit(const Waves *w);
/* Whether one of k's groups takes a unit whole (a warp-specialised wgmma kernel: `arch:`
 * and `tensor: yes`), so that its tail counts in units (Waves_byUnit). */
bool Waves_takesUnitWhole(const KernelInfo *k);
/* "0.48 waves: 64 work-groups on 132 multiprocessors at 1 each; 48% of the slots busy", or
 * "2.33 waves: ...; the last one 33% full, 78% of the slots busy", or for a persistent grid
 * "1.00 wave: 132 work-groups ... sharing 64 items, at most 1 each; 48% of the slots busy"
 * (nothing when unknown). */
void Waves_describe(const Waves *w, char *out, size_t len);
/* Waves_describe for kernel k, and where k takes a unit whole, two or more of its groups
 * fit a unit and the units' busy share differs from the slots', the units' view after it
 * ("; by multiprocessors, one block each taking one whole: 1.00 wave, 97% busy"). Returns
 * the busy share its tail is judged by: the units' for such a kernel, else the slots'; -1
 * when w is not known. */
double Waves_describeFor(const Waves *w, const KernelInfo *k, char *out, size_t len);

#endif
