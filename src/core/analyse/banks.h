/* Bank-conflict analysis of a kernel's own local-memory trace (Session_trace) under a
 * bank model of the device: requests, wavefronts (passes through the banks), the ideal
 * number, conflicts per access site, and one request drawn as a lanes x banks grid.
 * Pure functions over a Trace; no OpenCL, no ncurses. docs/banks.md explains the model. */
#ifndef GEMMTOP_BANKS_H
#define GEMMTOP_BANKS_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"
#include "core/analyse/coalesce.h"
#include "core/run/session.h"

#define BANKS_MAX_BANKS 64
#define BANKS_MAX_LANES 64   /* the widest SIMD: an AMD wave64 */
#define BANKS_MAX_SITES 16   /* as KERNEL_MAX_SITES and the tracing build */

typedef struct BankModel_ {
   char name[32];            /* "NVIDIA", "AMD GCN/CDNA", "default", "custom" */
   int banks;
   int bank_width;           /* bytes per bank word */
   int simd_width;           /* lanes of a warp / wavefront */
   bool known;               /* known right for the device; otherwise shown as "assumed" */
   bool pair_merge;          /* NVIDIA: an 8- or 16-byte load whose active lanes agree in pairs
                                (lane n and n^1, or n and n^2, same address) is served in phases
                                twice as wide (measured on an H100 with Nsight Compute) */
   char source[320];         /* where the model comes from, or why it is assumed */
} BankModel;

/* 32 banks x 4 bytes, warp 32; accesses of W > 4 bytes in phases of 128/W lanes, twice
 * that for loads whose lanes agree in pairs (pair_merge). */
BankModel BankModel_nvidia(void);
/* GCN/CDNA LDS: 32 banks x 4 bytes; a wave64's 4-byte access in two halves of 32 lanes. */
BankModel BankModel_amd(int simd_width);
/* Elsewhere: 32 x 4 and the given SIMD width (32 when <= 0), labelled assumed. */
BankModel BankModel_default(int simd_width);
/* Picks the model from the device: type, vendor/platform/name, architecture, warp width. */
BankModel BankModel_forDevice(const DeviceInfo *dev);
/* A model by name: "nvidia", "amd" (wavefronts of simd_width, 0: 64) or "default"; false for
 * another name. */
bool BankModel_named(const char *name, int simd_width, BankModel *out);
/* --banks, --bank-width, --simd-width (0: keep). A change makes the model "custom" and
 * assumed. False with a message when a value is out of range. */
bool BankModel_override(BankModel *m, int banks, int bank_width, int simd_width, char *err, size_t errlen);
/* Lanes served together in one phase for an access of width bytes:
 * (banks * bank_width) / max(width, bank_width), at least 1, at most the SIMD width. */
int BankModel_phaseLanes(const BankModel *m, unsigned width);
/* "32 banks x 4 B, SIMD 32" */
void BankModel_describe(const BankModel *m, char *out, size_t outlen);

/* One request: the accesses of one warp for one execution (seq) of one site in one group. */
typedef struct BankRequest_ {
   unsigned site;
   unsigned group;
   unsigned warp;            /* within its group */
   unsigned seq;             /* the execution (the work-items' own count of that site) */
   bool store;
   unsigned width;           /* bytes per lane (the widest in the request) */
   int lanes;                /* lanes that took part */
   bool paired;              /* served in double-width phases (pair_merge) */
   int wavefronts;           /* passes through the banks, summed over phases */
   int ideal;                /* the fewest passes the same data could take */
   size_t first, count;      /* its records in BankAnalysis.records */
} BankRequest;

typedef struct BankSiteStats_ {
   long long requests;
   long long load_requests, store_requests;
   long long wavefronts;
   long long ideal;
   long long conflicts;      /* wavefronts - ideal */
   long long conflicted;     /* requests with at least one conflict */
   long long accesses;       /* records (lane accesses) */
   double worst_degree;      /* max over requests of wavefronts / ideal (1 = conflict-free) */
   double avg_degree;        /* wavefronts / ideal over all requests */
   unsigned width;           /* bytes per access (the widest seen) */
} BankSiteStats;

typedef struct BankAnalysis_ {
   BankModel model;
   BankSiteStats sites[BANKS_MAX_SITES];
   int nsites;               /* 1 + the highest site that made an access (0: none) */
   BankSiteStats total;
   int groups;               /* work-groups traced */
   size_t wg_size;           /* work-items per group */
   int warps;                /* warps per group: ceil(wg_size / simd_width) */
   size_t dropped;           /* records lost over the trace's capacity */
   TraceRecord *records;     /* the trace, sorted by site, group, warp, seq, lane; addresses
                                made relative to their group's bank-aligned base */
   size_t nrecords;
   unsigned *base;           /* per group: the address subtracted (lowest, rounded down to
                                banks * bank_width); 0 for a group with no access */
   BankRequest *requests;    /* sorted by site, group, warp, seq */
   size_t nrequests;
} BankAnalysis;

/* Analyses t under m (copies what it needs: t may be freed after). False only when out of
 * memory or the model is invalid (message in err). Free with BankAnalysis_free. */
bool BankAnalysis_run(BankAnalysis *a, const Trace *t, const BankModel *m, char *err, size_t errlen);
/* A configuration traced on the session's device (Session_trace: its first `groups`
 * work-groups, on a small problem of its shape, the one traced into *traced) and analysed
 * under the device's bank model with the overrides (BankModel_override; 0 keeps the
 * model's own). With loads, the trace takes the global loads of A and B too (on a problem
 * of at least 256 each way) and *loads says how they coalesce (requests 0 where the
 * kernel loads them another way). RUN_OK with *a filled; else the status with why ("the
 * trace failed: ...", "the bank model: ...", "the analysis failed: ..."), *a left empty. */
RunStatus BankAnalysis_ofConfig(BankAnalysis *a, Session *s, const KernelInfo *k, const long long *values,
                                const Problem *p, int groups, int banks, int bank_width, int simd_width,
                                Coalescing *loads, Problem *traced, char *why, size_t whylen);
void BankAnalysis_free(BankAnalysis *a);
/* Executions of (site, warp of group): how many requests, in seq order. */
int BankAnalysis_executions(const BankAnalysis *a, unsigned site, unsigned group, unsigned warp);
/* The n-th execution (0-based) of (site, group, warp), or NULL. */
const BankRequest *BankAnalysis_request(const BankAnalysis *a, unsigned site, unsigned group, unsigned warp, int n);
/* Whether a site made any access. */
bool BankAnalysis_hasSite(const BankAnalysis *a, unsigned site);

/* One request drawn as lanes x banks. Every cell that a lane touches holds the pass
 * (0-based wavefront within the lane's phase) in which that bank serves the lane's word:
 * how many distinct words of that bank lower lanes of the same phase asked for first.
 * Lanes reading the same word share its pass (a broadcast is free). */
typedef struct BankGrid_ {
   int lanes;                /* rows: the SIMD width */
   int banks;                /* columns */
   int lanes_per_phase;
   int phases;
   bool paired;              /* phases doubled: the load's lanes agree in pairs (pair_merge) */
   int wavefronts, ideal;
   int phase_wavefronts[BANKS_MAX_LANES];
   unsigned site, group, warp, seq;
   bool store;
   unsigned width;
   bool active[BANKS_MAX_LANES];
   unsigned address[BANKS_MAX_LANES];                 /* byte offset from the group's base */
   short pass[BANKS_MAX_LANES][BANKS_MAX_BANKS];      /* -1: the lane does not touch that bank */
   bool shared[BANKS_MAX_LANES][BANKS_MAX_BANKS];     /* a lower lane of the phase asked for the same word */
   int max_pass;             /* the highest pass in the grid (-1 when empty) */
} BankGrid;

bool BankAnalysis_grid(const BankAnalysis *a, const BankRequest *r, BankGrid *g);
/* The character for a cell without colour: '.' for -1, then 1-9, a-z, A-Z, '#' beyond. */
char BankGrid_glyph(int pass);

#endif
