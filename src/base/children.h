/* Child processes of this program, by name. Some work runs in a child process of the same
 * executable (a sweep's measuring, so that a launch that never ends can be abandoned; an
 * offline compile whose compiler cannot share the process). The layer that starts such a
 * child names it; main() (and any test binary that spawns one) registers what each name
 * runs, so that no layer depends on the program's command line. */
#ifndef GEMMTOP_CHILDREN_H
#define GEMMTOP_CHILDREN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef int (*ChildMain)(void);

/* name runs fn in a child started by Children_spawn(name, ...). At most 8 names. */
void Children_register(const char *name, ChildMain fn);

/* In main(), first: when argv asks for a registered child ("__NAME-child"), runs it and
 * returns true with its exit code in *rc. */
bool Children_dispatch(int argc, char **argv, int *rc);

/* Starts this program as the child name, its standard input and output the descriptors
 * given (duplicated there; close_in_child are closed in the child too, -1 none). Returns
 * its pid, or -1 with why. */
pid_t Children_spawn(const char *name, int child_stdin, int child_stdout, const int close_in_child[2], char *why,
                     size_t whylen);

#endif
