/* Bank analysis "as compiled": the trace records a kernel's local-memory accesses as the
 * source writes them, one scalar per LDS_LOAD/LDS_STORE; a compiler merges a work-item's
 * neighbouring scalar accesses of one site into one 8- or 16-byte access (NVCC's
 * LDS.64/LDS.128, AMD's ds_read_b128), and the hardware then serves fewer, wider requests
 * (docs/banks-ncu.md: the loads of myGEMM steps 2, 3, 5 and DCU steps 4-6). This module
 * regroups a trace into those wider accesses, so that BankAnalysis_run can count both
 * views. Pure functions; no device.
 *
 * The rule (docs/banks.md, "As compiled"): a site's accesses merge by a factor F (2 or 4,
 * F * width at most 16 bytes and at most the widest local access of the compiled code)
 * when every work-item's executions of the site fall into runs of F accesses at
 * consecutive addresses, the first aligned to F * width, each run made of the next
 * executions of the site with those addresses (before the first address comes round
 * again), and when every work-item forms its runs at the same executions: a vectoriser
 * merges one instruction for all lanes or for none. */
#ifndef GEMMTOP_BANKS_COMPILED_H
#define GEMMTOP_BANKS_COMPILED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/analyse/banks.h"

/* The widest local-memory load and store that the compiled code makes, which caps the
 * merging; where they come from. */
typedef struct BankWidths_ {
   unsigned load_max, store_max; /* bytes */
   bool from_code;               /* read from the compiled code (else the rule's 16 bytes) */
   char source[200];             /* "PTX: ld.shared up to 16 B (v4.f32), st.shared up to 4 B" */
} BankWidths;

/* The rule alone: up to 16 bytes, said so. why says why there is no code ("PoCL's CPU code
 * says nothing of a GPU's local accesses"). */
void BankWidths_rule(BankWidths *w, const char *why);
/* The widths from compiled code: PTX (ld.shared / st.shared, .v2 / .v4, the type's size)
 * or AMD GCN/CDNA ISA (ds_read_bN / ds_write_bN, ds_load / ds_store). kind names the code
 * ("PTX", "ISA"). False, w untouched, when the code has no local access of either form. */
bool BankWidths_fromCode(const char *code, const char *kind, BankWidths *w);

/* What the regrouping did to one site. */
typedef struct BankMerge_ {
   unsigned factor;              /* accesses merged into one (1: none) */
   unsigned width;               /* bytes per access as compiled */
} BankMerge;

/* out: t with every site's accesses regrouped as compiled under w; merges[site] says how.
 * out's records of a merged site carry the first access's address, the merged width, and
 * as seq the run's rank among the work-item's runs. False only when out of memory. Free
 * out with Trace_free. */
bool BankTrace_asCompiled(const Trace *t, const BankWidths *w, Trace *out, BankMerge merges[BANKS_MAX_SITES],
                          char *err, size_t errlen);

/* Both views of one trace under one model: as written, and as compiled. */
typedef struct BankViews_ {
   BankAnalysis source, compiled;
   BankWidths widths;
   BankMerge merges[BANKS_MAX_SITES];
} BankViews;

/* Analyses t as written and as compiled (widths from code when code is not NULL and
 * names local accesses, else the rule; why_no_code says why there was none). Free with
 * BankViews_free. False with a message when out of memory or the model is invalid. */
bool BankViews_run(BankViews *v, const Trace *t, const BankModel *m, const char *code, const char *kind,
                   const char *why_no_code, char *err, size_t errlen);
void BankViews_free(BankViews *v);

#endif
