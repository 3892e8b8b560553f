/* Files that gemmtop writes for the user (--out, --save, presets, preferences), written
 * so that nothing is lost or replaced that should not be:
 *  - a regular file (or an absent one) is written into a temporary file in the same
 *    folder, renamed over the target only once every byte is written, flushed and closed
 *    without error: a failed write leaves the old file as it was;
 *  - a symbolic link is followed: its target is written and the link stays a link;
 *  - a FIFO or a character device (/dev/stdout, /dev/null) is written in place when the
 *    caller streams text (OUTFILE_STREAM_OK), else refused; a folder, a block device or
 *    a socket is always refused.
 * Every write, the final flush and the close are checked. */
#ifndef GEMMTOP_OUTFILE_H
#define GEMMTOP_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum {
   OUTFILE_OK = 0,
   OUTFILE_REFUSED,  /* not a kind of file that may be written (a usage error) */
   OUTFILE_FAILED,   /* the system refused: no such folder, no permission, disk full... */
} OutFileStatus;

/* Flags for OutFile_open. */
#define OUTFILE_STREAM_OK 1u /* FIFOs and character devices are written in place */

typedef struct OutFile_ OutFile;

/* Opens path for writing (see above). On failure *out is NULL and err says why, naming
 * the file. */
OutFileStatus OutFile_open(const char *path, unsigned flags, OutFile **out, char *err, size_t errlen);
/* The stream to write to; errors on it are found by OutFile_commit. */
FILE *OutFile_stream(OutFile *f);
/* Flushes, checks every write, closes, and renames the temporary file over the target.
 * Frees f. False with err (naming the file and the error) when anything failed; the
 * target is then untouched (a stream target has what was written). */
bool OutFile_commit(OutFile *f, char *err, size_t errlen);
/* Gives up: removes the temporary file, leaves the target as it was. Frees f. */
void OutFile_discard(OutFile *f);

/* The whole of data into path, as above without streams. False with err on failure. */
bool OutFile_write(const char *path, const void *data, size_t len, char *err, size_t errlen);
/* The first of stem, stem-2, ... stem-999 (into base) for which none of the n paths base +
 * ext[e] exists: a name free for a set of files, or (one empty extension) for a folder.
 * False when every name is taken. */
bool OutFile_freeName(const char *stem, const char *const *ext, int n, char *base, size_t baselen);
/* A set of files that belong together (a ladder's .md, .csv and .svg) in the current folder,
 * under the first name free for all of them: stem, stem-2, ... stem-999; none is ever
 * replaced. n texts, each with its extension; *base gets the name used. False with err
 * when every name is taken or a write failed. */
bool OutFile_writeSet(const char *stem, const char *const *texts, const char *const *ext, int n, char *base,
                      size_t baselen, char *err, size_t errlen);

#endif
