/* Compiled programs on disk: $XDG_CACHE_HOME/gemmtop/<backend>/<key>.bin */
#ifndef GEMMTOP_DISKCACHE_H
#define GEMMTOP_DISKCACHE_H

#include <stdbool.h>
#include <stddef.h>

/* NULL when absent or unreadable (a miss, never an error). */
unsigned char *DiskCache_load(const char *backend, unsigned long long key, size_t *size);
/* Best effort, written atomically; false when it could not be written. */
bool DiskCache_store(const char *backend, unsigned long long key, const void *data, size_t size);
/* Removes every cached program; returns how many files went, -1 on error. */
int DiskCache_clear(char *dir_out, size_t dirlen);
/* GEMMTOP_NO_DISK_CACHE=1 turns the disk cache off. */
bool DiskCache_enabled(void);

#endif
