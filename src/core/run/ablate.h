/* Ablation: switches that take one kind of work out of a kernel (the global loads of A or
 * B, the multiply-adds, the computed store of C), so that the change in time shows what
 * limits it. The kernel side is in kernels/helpers/prelude.h (GT_LOAD_A, GT_FMA, ...). An
 * ablated run computes a wrong C on purpose: it is never verified and never stands for a
 * real result. */
#ifndef GEMMTOP_ABLATE_H
#define GEMMTOP_ABLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model/problem.h"

typedef enum {
   ABLATE_NO_A = 1u << 0,        /* no global loads of A */
   ABLATE_NO_B = 1u << 1,        /* no global loads of B */
   ABLATE_NO_FMA = 1u << 2,      /* no floating-point multiply-adds */
   ABLATE_CONST_STORE = 1u << 3, /* C gets a constant (1.25) */
   ABLATE_ALL = 0xfu,
} AblateFlag;

#define ABLATE_CONSTANT 1.25
#define ABLATE_VALID_NAMES "no-a, no-b, no-fma, const-store (or none)"

/* Parses "no-a,no-fma" (any order, any combination; "none" or "" is 0). False with a
 * message naming the bad word and the valid ones. */
bool Ablate_parse(const char *s, unsigned *mask, char *err, size_t errlen);
/* "no-a,no-fma", or "none" for 0. */
void Ablate_name(unsigned mask, char *out, size_t outlen);
/* The compiler defines: "-DGT_ABLATE_NO_A=1 ...", "" for 0. */
void Ablate_defines(unsigned mask, char *out, size_t outlen);
/* defines + " " + the compiler defines of mask (nothing for 0): the text every path
 * (a run, a compile ahead, inspect) compiles, so that they share one program. */
void Ablate_appendDefines(unsigned mask, char *defines, size_t len);
/* The next setting in the explorer's cycle: none, no-a, no-b, no-fma, const-store,
 * no-a,no-b (loads off), then none again. */
unsigned Ablate_next(unsigned mask);
/* Global-memory bytes the ablated kernel still moves, counted as Problem_bytes counts
 * them (A and B read once, C written, C read when beta != 0; const-store keeps that read). */
double Ablate_bytes(const Problem *p, unsigned mask);
/* The rate the multiply-add units are fed at: every multiply-add takes one element of A
 * and one of B from registers or local memory, 2*M*N*K elements in all. */
double Ablate_coreBytes(const Problem *p);

/* Is the loop being optimised out? (the MAGMA log's question): an ablated kernel's compiled
 * code against the real kernel's. The loop is judged gone when the ablated code has under a
 * quarter of the real code's instructions, when the multiply-adds vanished though no-fma was
 * not asked, or when every load vanished though an operand's loads were kept. False then;
 * words says what was counted either way ("4750 of the real kernel's 4818 instructions
 * (99%), 3 of its 51 FMA: the loop runs"). */
struct ListingStats_;
bool Ablate_loopKept(const struct ListingStats_ *real, const struct ListingStats_ *ablated, unsigned ablate,
                     char *words, size_t len);

#endif
