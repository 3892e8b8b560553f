/* PoCL's program binaries ("poclbin"): they carry the program's files, among them the
 * machine code PoCL built for each kernel and work-group size (a shared object, the CPU's
 * own instructions). This finds one, so that the inspect pane can show the code a CPU
 * device really runs. A pure function over the bytes. */
#ifndef GEMMTOP_POCLBIN_H
#define GEMMTOP_POCLBIN_H

#include <stdbool.h>
#include <stddef.h>

/* Whether bin is a PoCL program binary. */
bool Poclbin_is(const unsigned char *bin, size_t size);

/* The kernel shared object stored in bin: a file entry "/KERNEL/SIZES/KERNEL.so" (a
 * 32-bit little-endian length, the path, a 32-bit size, then an ELF image). One built for
 * a work-group size is preferred to the generic one ("/0-0-0/"). Returns false when there
 * is none; else its offset and length in bin, and its path. */
bool Poclbin_findKernel(const unsigned char *bin, size_t size, size_t *offset, size_t *length, char *path,
                        size_t pathlen);

#endif
