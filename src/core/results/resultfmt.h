/* The results store's rows as files, and other tuners' files as rows:
 *  - written: CSV (one header line, one row per result), JSON Lines (one object per
 *    result, the same keys) and Kernel Tuner's T4 results format (schema 1.0.0: one
 *    object with schema_version and results[]; gemmtop's own context of each result,
 *    which T4 has no place for, in an extra "gemmtop" object that the schema allows);
 *  - read: T4 files (Kernel Tuner's, or gemmtop's own) and the JSON files CLBlast's
 *    tuners (clblast_tuner_xgemm ...) write, parsed with cJSON.
 * Nothing here touches the store; core/results/results.h ranks and compares rows. */
#ifndef GEMMTOP_RESULTFMT_H
#define GEMMTOP_RESULTFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/results/results.h"
#include "core/results/store.h"

typedef enum {
   RESULT_FORMAT_CSV,
   RESULT_FORMAT_JSONL,
   RESULT_FORMAT_T4,
   RESULT_FORMAT_CLBLAST,
   RESULT_FORMAT_COUNT
} ResultFormat;

#define RESULT_T4_VERSION "1.0.0"

/* "csv", "jsonl", "t4", "clblast". */
const char *ResultFormat_name(ResultFormat f);
bool ResultFormat_parse(const char *name, ResultFormat *out);
/* "CSV", "JSON Lines", "Kernel Tuner T4", "CLBlast tuner", for messages. */
const char *ResultFormat_title(ResultFormat f);

/* Writes rows as they come: begin, one row per record, end (T4 is one JSON object, so
 * its rows are only a valid file once end has written the closing brackets). */
typedef struct ResultWriter_ {
   FILE *out;
   ResultFormat format;
   long rows;
} ResultWriter;

/* False for a format that is only read (clblast). */
bool ResultWriter_begin(ResultWriter *w, FILE *out, ResultFormat f);
/* A suite's dispatch table (Results_dispatch) as a C header or a JSON object: each shape's
 * best verified configuration (kernel, the kernel file's hash, parameters, layout, GFLOPS, %
 * of the vendor library), for a program to choose its kernel by shape. NULL out of memory. */
char *ResultFmt_dispatch(bool json, const ResultSet *s, const ShapeSuite *suite, const DispatchEntry *e);
void ResultWriter_row(ResultWriter *w, const StoreRecord *r);
void ResultWriter_end(ResultWriter *w);

/* What a file does not say about its results and the user does: a Kernel Tuner T4 file
 * names no device, kernel or problem. Any of these also replaces what a file says. */
typedef struct ImportLabels_ {
   const char *device;      /* NULL: from the file */
   const char *kernel;      /* NULL: from the file */
   int m, n, k;             /* 0: from the file */
   int precision;           /* a Precision, or -1: from the file */
} ImportLabels;

/* Each row of an imported file, as it is read; false stops the import (it then fails). */
typedef bool (*ImportRowFn)(StoreRecord *r, void *ctx);

/* Reads text as ResultImport_parse does, handing each row to fn as soon as it is read and
 * checked: a long file (1 MiB or more) is parsed one element of its results at a time, so
 * memory holds the text and one element, and the time grows with the file's length. A
 * refusal can come after rows were handed over: the caller adds them in one transaction
 * and keeps none when this returns false. *rows (may be NULL): how many were handed over. */
bool ResultImport_each(const char *name, const char *text, size_t len, const ResultFormat *format,
                       const ImportLabels *labels, long long file_time, ImportRowFn fn, void *ctx, long *rows,
                       ResultFormat *found, char *err, size_t errlen);

/* Reads text (len bytes and a NUL after them: the whole of the file named name) as *format, or, with format
 * NULL, as whichever of T4 and CLBlast it is (*found says which). file_time (Unix
 * seconds) dates the rows of a file that gives no times. Returns the rows (malloc'd,
 * *n of them, origin "t4" or "clblast"), or NULL with err naming the file and what is
 * wrong where: the line and column of bad JSON, the field ("results[3].time") of a bad
 * value, the format the file is when it is not the one asked for. */
StoreRecord *ResultImport_parse(const char *name, const char *text, size_t len, const ResultFormat *format,
                                const ImportLabels *labels, long long file_time, int *n, ResultFormat *found,
                                char *err, size_t errlen);

/* "2026-03-31T14:05:09Z" (UTC) for Unix seconds t. */
void ResultFmt_isoTime(long long t, char out[32]);
/* "2026-03-31T14:05:09", optionally with fractional seconds and "Z" or "+HH:MM"; also a
 * bare "2026-03-31". False when it is none of these. */
bool ResultFmt_parseTime(const char *s, long long *t);

#endif
