/* Measurements as results-store records (store.h): the one place where a run, a vendor
 * library's timing or a sweep's configuration becomes a StoreRecord, so that `gemmtop
 * run`, `sweep`, `bench` and the explorer record the same fields the same way. And back:
 * a stored record as a sweep's configuration, for a sweep that resumes. */
#ifndef GEMMTOP_RECORD_H
#define GEMMTOP_RECORD_H

#include "core/model/catalog.h"
#include "core/run/session.h"
#include "core/results/store.h"
#include "core/sweep/sweep.h"

/* Where a measurement was made: the backend's name ("OpenCL") and the device. */
typedef struct RecordPlace_ {
   const char *backend;
   const DeviceInfo *dev;
} RecordPlace;

/* The outcome's name (SweepOutcome_name) of a run that ended with st. */
const char *Record_outcomeOf(RunStatus st);

/* A kernel's run (Session_run) with values on p that ended with st. */
void Record_fromRun(StoreRecord *out, const char *origin, const RecordPlace *at, const KernelInfo *k,
                    const long long *values, const Problem *p, RunStatus st, const RunResult *r);
/* A vendor library's timing (Session_vendor) on p: origin "vendor", the library as kernel. */
void Record_fromVendor(StoreRecord *out, const RecordPlace *at, const Problem *p, const VendorResult *v);
/* A sweep's tried configuration; sweep_key names the sweep (Store_sweepKey), "" none. */
void Record_fromCandidate(StoreRecord *out, const char *origin, const RecordPlace *at, const KernelInfo *k,
                          const Problem *p, const SweepCandidate *c, bool emulated, bool cold_l2,
                          const char *sweep_key);
/* The sweep key of k's space around base on p (Store_sweepKey with k's hash). */
void Record_sweepKey(const RecordPlace *at, const KernelInfo *k, const Problem *p, const long long *base,
                     unsigned free_mask, bool cold_l2, char out[33]);
/* Reads a record's params ("TS=32 WPT=8", KernelInfo_formatParams) into values; false
 * when they are not exactly k's parameters in k's order. */
bool Record_parseParams(const KernelInfo *k, const char *params, long long *values);
/* Fills c's outcome, reason and figures from a stored record of it. */
void Record_toCandidate(const StoreRecord *r, SweepCandidate *c);

#endif
