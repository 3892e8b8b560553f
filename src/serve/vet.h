/* What a class server checks in a student's kernel file before anything compiles it.
 * The measuring child compiles as the server's account, and a compiler that includes a
 * file prints its lines in the errors it returns: a kernel that includes a path could
 * read another student's submission or any file the server may read. A kernel file is
 * one file (gemmtop adds its helpers itself), so every way of reaching another file in
 * the preprocessor is refused: the directives include, include_next, import and embed,
 * the tests __has_include and __has_embed, and the trigraph and digraph spellings of '#'
 * that could hide them. */
#ifndef GEMMTOP_VET_H
#define GEMMTOP_VET_H

#include <stdbool.h>
#include <stddef.h>

/* False with why (naming the line) when text reaches for another file. */
bool Vet_kernelSource(const char *text, size_t len, char *why, size_t whylen);

#endif
