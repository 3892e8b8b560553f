/* What a class server checks in a student's kernel file before anything compiles it.
 * The measuring child compiles as the server's account, and a compiler that includes a
 * file prints its lines in the errors it returns: a kernel that includes a path could
 * read another student's submission or any file the server may read. A kernel file is
 * one file (gemmtop adds its helpers itself), so every way of reaching another file in
 * the preprocessor is refused: the directives include, include_next, import and embed,
 * the tests __has_include and __has_embed (also when a paste could build them), the
 * pragmas that test or load a file, and #line, which renames the file the messages
 * quote. The text is vetted as the compilers read it (after their phases 1 and 2: line
 * ends, line splices), and what compilers read in different ways (a lone carriage
 * return, a backslash followed by blanks, trigraphs, raw strings, digit separators) is
 * refused with the line and what to write instead. */
#ifndef GEMMTOP_VET_H
#define GEMMTOP_VET_H

#include <stdbool.h>
#include <stddef.h>

/* text[0, *len) with Windows line ends made Unix ones in place (*len shrinks, and the
 * text stays NUL-terminated when it was), then vetted: false with why (naming the line)
 * when it reaches for another file or could be read in two ways. The server keeps and
 * compiles the text as it is after this call, so that the compiler reads what was vetted. */
bool Vet_kernelSource(char *text, size_t *len, char *why, size_t whylen);

/* A client's "file NAME BYTES" line, the kernel file it sends next: its name (at least 80
 * bytes of room) a plain file name ending in .cl, its size at most UTIL_MAX_KERNEL_BYTES;
 * false with why, quoting what was sent. */
bool Vet_fileLine(const char *line, char *name, size_t namelen, size_t *len, char *why, size_t whylen);

#endif
