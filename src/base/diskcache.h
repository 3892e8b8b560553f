/* Compiled programs on disk: $XDG_CACHE_HOME/gemmtop/<backend>/<key>.bin
 *
 * An entry carries what it was built from (a hash of the source, the compiler options,
 * the device and the driver) and a checksum of its contents, and a load compares them
 * with what is asked for: an entry that holds another build (a file copied or renamed,
 * a hash collision) or is damaged is a miss, said on stderr (the explorer shows stderr
 * in its log), and the program is compiled afresh. */
#ifndef GEMMTOP_DISKCACHE_H
#define GEMMTOP_DISKCACHE_H

#include <stdbool.h>
#include <stddef.h>

/* What an entry is built from; every field is part of its key and stored in it. */
typedef struct DiskCacheId_ {
   const char *what;     /* "program", "build log" */
   const char *source;   /* the whole source text (its hash and length are stored) */
   const char *options;  /* the compiler options, exactly as given */
   const char *device;   /* the device or target it was built for */
   const char *driver;   /* the driver's or compiler's version */
} DiskCacheId;

/* NULL when absent, unreadable or built from something else (a miss, never an error); the
 * data is followed by a NUL, so that a text entry reads as a C string. */
unsigned char *DiskCache_load(const char *backend, const DiskCacheId *id, size_t *size);
/* Best effort, written atomically; false when it could not be written (said once on
 * stderr per process: the folder cannot be written). */
bool DiskCache_store(const char *backend, const DiskCacheId *id, const void *data, size_t size);
/* Serialises the first build of id across threads and processes (an exclusive flock on
 * <key>.lock beside the entry), so that processes starting at once on an empty cache
 * build it once, and load it, instead of racing in the compiler's own cache (PoCL's).
 * Returns a handle for DiskCache_unlock, or -1 when no lock could be had: build anyway. */
int DiskCache_lock(const char *backend, const DiskCacheId *id);
void DiskCache_unlock(int lock);
/* Removes every cached program of the given folders (one per backend: its name), and what
 * killed writers left (*.bin.tmp.PID.N, locks); returns how many programs went
 * (*temporaries, when given, how many leftovers), -1 on error. */
int DiskCache_clear(const char *const *folders, int nfolders, char *dir_out, size_t dirlen, int *temporaries);
/* GEMMTOP_NO_DISK_CACHE=1 turns the disk cache off. */
bool DiskCache_enabled(void);

#endif
