/* Integer expressions of kernel metadata: constraints, launch geometry, local memory.
 * C-like syntax: + - * / % == != < <= > >= && || ! ?: ( ), and min, max, ceil, div, pow2. */
#ifndef GEMMTOP_EXPR_H
#define GEMMTOP_EXPR_H

#include <stdbool.h>
#include <stddef.h>

/* Looks an identifier up; returns false if it is unknown. */
typedef bool (*Expr_Lookup)(void *ctx, const char *name, long long *value);

/* Evaluates text. On failure (syntax error, unknown identifier, division by zero)
 * returns false and describes the problem in err. */
bool Expr_eval(const char *text, Expr_Lookup lookup, void *ctx, long long *out, char *err, size_t errlen);

/* Texts are compiled once and kept (a sweep evaluates the same rules for every
 * configuration). false: parse every time (tests compare the two). */
void Expr_useCache(bool on);
/* Frees every compiled text and empties the table (the fuzzer compiles fresh texts for ever;
 * the table stops keeping new ones when full). Not while another thread evaluates. */
void Expr_forgetCache(void);

/* Calls fn for each identifier that text mentions (functions excluded), in order;
 * duplicates are reported once. */
void Expr_identifiers(const char *text, void (*fn)(void *ctx, const char *name), void *ctx);

#endif
