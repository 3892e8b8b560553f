/* Compiled-code listings (PTX, SASS, AMD ISA, or source when the device gives no
 * assembly): what kind a text is, its lines, and counts of the instructions a GEMM lesson
 * talks about (FMA, shared/LDS and global loads and stores, barriers), taken from the
 * text itself. Pure functions, no I/O. */
#ifndef GEMMTOP_LISTING_H
#define GEMMTOP_LISTING_H

#include <stdbool.h>
#include <stddef.h>

/* LISTING_CPU: llvm-objdump of the code PoCL builds for a CPU (x86-64, AArch64). */
typedef enum { LISTING_PTX, LISTING_SASS, LISTING_AMD, LISTING_CPU, LISTING_SOURCE, LISTING_OTHER } ListingKind;

typedef struct ListingStats_ {
   ListingKind kind;
   int lines;
   int instructions;              /* lines that hold one instruction (0 for source) */
   int fma;                       /* floating-point fused multiply-adds (fma, mad, mac) */
   int shared_loads, shared_stores; /* local memory: ld.shared / LDS / ds_read (not on a CPU) */
   int global_loads, global_stores;
   int local_loads, local_stores; /* per-thread memory (spills): ld.local / LDL / scratch */
   int barriers;
} ListingStats;

/* From the kind a backend names ("PTX", "SASS", "ISA", "OpenCL C source ...") and,
 * when that is vague, from the text. */
ListingKind Listing_kind(const char *kind_name, const char *text);
const char *Listing_kindName(ListingKind k);

/* Counts over the whole text; an instruction is counted once, by its mnemonic. */
void Listing_count(const char *text, ListingKind kind, ListingStats *out);

/* "412 instructions: 128 FMA, 64 shared loads, ..." (or "N lines of source"). */
void Listing_summary(const ListingStats *s, char *out, size_t outlen);

/* Offsets of the starts of the lines of text (a final line without '\n' included);
 * returns how many, or -1 when out of memory. *starts is malloc'ed (free it). */
int Listing_split(const char *text, size_t **starts);

/* Copies line i (without its '\n', tabs expanded to 8 columns) into out. */
void Listing_line(const char *text, const size_t *starts, int nlines, int i, char *out, size_t outlen);

#endif
