/* The results store: every measurement gemmtop makes (run, sweep, bench, the explorer,
 * and results imported from other tuners), kept with what makes it reproducible, in one
 * SQLite file: $XDG_DATA_HOME/gemmtop/results.db (~/.local/share/gemmtop/results.db), or
 * $GEMMTOP_STORE, or --store FILE. Writes are transactions in WAL mode with a busy
 * timeout, so several gemmtop processes may write at once. A file that is not a gemmtop
 * store, is corrupt, or has a newer schema is reported and never written to. The schema
 * has a version (PRAGMA user_version) and migrations from every older one. */
#ifndef GEMMTOP_STORE_H
#define GEMMTOP_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/observe.h"
#include "core/model/problem.h"

#define STORE_SCHEMA_VERSION 3

typedef struct StoreRecord_ {
   long long id;              /* the row's id (0 before it is added) */
   long long time;            /* Unix seconds when measured */
   char origin[16];           /* "run", "sweep", "bench", "explorer", "vendor", "t4", "clblast" */
   char version[32];          /* gemmtop's version (or the importing tool's name) */
   /* where */
   char backend[16];          /* "OpenCL", "CUDA", "HIP" */
   char device[128];
   char driver[64];
   char arch[16];
   /* what */
   char kernel[64];           /* the kernel's name; for origin "vendor" the library ("cuBLAS 13.0.0") */
   char kernel_hash[17];      /* 16 hex digits: FNV-1a 64 of the kernel file's text ("" unknown) */
   char params[512];          /* "TS=32 WPT=8", the kernel's parameters in metadata order */
   Problem problem;
   /* the outcome */
   char outcome[16];          /* SweepOutcome_name(): "ok", "invalid", "compile failed", "wrong result", "timeout", "failed" */
   char reason[256];
   bool verified;             /* ran, was checked and was right */
   bool emulated;             /* ablated or emulated: never ranked */
   bool cold_l2;
   int reps;
   double median_ms, min_ms, max_ms, spread_pct; /* NaN when it did not run */
   double gflops, compile_ms, max_rel_err;
   Observation obs;
   char sweep_key[33];        /* 32 hex digits naming a sweep's space (Store_sweepKey), "" outside sweeps */
   char user[64];             /* on a gemmtop serve server, whose request it was (the roster's name); "" else */
} StoreRecord;

/* A record with every figure unknown (NaN), the time now and the version set. */
void StoreRecord_init(StoreRecord *r, const char *origin);

typedef struct Store_ Store;

/* The default file: $GEMMTOP_STORE, else $XDG_DATA_HOME/gemmtop/results.db, else
 * ~/.local/share/gemmtop/results.db. False when no home folder is known. */
bool Store_defaultPath(char *out, size_t outlen);

/* Opens (creating it and its folder when absent) the store at path (NULL: the default).
 * NULL with a message in err when it cannot: unreadable, not a gemmtop store, corrupt,
 * a newer schema (the message names the versions), a read-only place. */
Store *Store_open(const char *path, char *err, size_t errlen);
/* Opens an existing store to read only: a store this user may read but not write (in a
 * read-only folder, another user's), for the commands that only read. Never creates one,
 * never migrates. NULL with a message as Store_open. */
Store *Store_openReadOnly(const char *path, char *err, size_t errlen);
void Store_close(Store *s);
const char *Store_path(const Store *s);

/* Adds records in one transaction (all or none); fills each r[i].id. */
bool Store_add(Store *s, StoreRecord *r, int n, char *err, size_t errlen);

/* Many records in one transaction, added one at a time (an import of any length with
 * one record in memory): all of them when Store_end commits, none when it does not. */
typedef struct StoreBatch_ StoreBatch;
StoreBatch *Store_begin(Store *s, char *err, size_t errlen);
bool Store_batchAdd(StoreBatch *b, StoreRecord *r, char *err, size_t errlen);
/* Commits (commit true) or rolls back, and frees b; false when it did not commit. */
bool Store_end(StoreBatch *b, bool commit, char *err, size_t errlen);

typedef struct StoreFilter_ {
   const char *device;        /* substring, any case; NULL any */
   const char *kernel;        /* exact name; NULL any */
   const char *origin;        /* exact; NULL any */
   const char *sweep_key;     /* exact; NULL any */
   const char *user;          /* exact; NULL any */
   int m, n, k;               /* 0 any */
   int precision;             /* a Precision, or -1 any */
   long long since, until;    /* Unix seconds, 0 open */
   bool ok_only;              /* verified and not emulated */
} StoreFilter;

/* A filter that matches everything. */
void StoreFilter_init(StoreFilter *f);

/* Calls fn for each matching record, oldest first, until it returns false. */
typedef bool (*StoreRowFn)(const StoreRecord *r, void *ctx);
bool Store_query(Store *s, const StoreFilter *f, StoreRowFn fn, void *ctx, char *err, size_t errlen);

/* What Store_salvage read of a damaged store. */
typedef struct StoreSalvage_ {
   long long saved;           /* rows read whole */
   int damaged;               /* runs of rows that could not be read (skipped) */
} StoreSalvage;

/* Reads every readable row of the gemmtop store at path, even a corrupt one, in id order,
 * skipping the runs that sit in damaged pages; the file is only read. False with err when
 * the file is not a gemmtop store or its table cannot be found at all. */
bool Store_salvage(const char *path, StoreRowFn fn, void *ctx, StoreSalvage *out, char *err, size_t errlen);

/* Marks the sweep of space key as running on this store until Store_sweepEnd, through a
 * lock of its own beside the store (FILE.sweeps; an open-file-description lock, released
 * when the process ends in any way). *another: a sweep of the same space runs already
 * (this one then gets no mark: -1). -1 also when no mark can be made (a read-only place). */
int Store_sweepBegin(const Store *s, const char *key, bool *another);
void Store_sweepEnd(int handle);

/* The key that names one sweep's space, so that running the same sweep again finds what
 * was measured: 32 hex digits over the device, backend, the kernels' compiler where it is
 * not the runtime's own (DeviceInfo.compiler; "" or NULL: none), kernel hash, problem, the
 * base values, the free parameters and the timing options that change figures (cold L2). */
void Store_sweepKey(const char *device, const char *backend, const char *compiler, const char *kernel_hash,
                    const Problem *p, const long long *base, int nparams, unsigned free_mask, bool cold_l2,
                    char out[33]);

#endif
