/* The kernel as the compiler reads it after the preprocessor: the parameters' -D values
 * substituted, the prelude's macros expanded, comments gone. Shown by the inspect pane
 * where the device gives no assembly (PoCL). Runs the host's C preprocessor (cpp). */
#ifndef GEMMTOP_PREPROC_H
#define GEMMTOP_PREPROC_H

#include <stddef.h>

/* prelude: the text put before body (the catalog's prelude); defines: "-DNAME=VALUE ..."
 * as Config_defines writes them; file: the kernel's file name, whose lines are kept.
 * Returns a malloc'ed text, or NULL with err. */
char *Preproc_kernel(const char *prelude, const char *body, const char *file, const char *defines, char *err,
                     size_t errlen);

/* The lines of cpp output that come from file, without line markers or runs of blank
 * lines (a pure function, tested). Returns a malloc'ed text, NULL when out of memory. */
char *Preproc_keepFile(const char *cpp_output, const char *file);

#endif
