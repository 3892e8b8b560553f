/* Small helpers shared by every module. */
#ifndef GEMMTOP_UTIL_H
#define GEMMTOP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Reads a whole file into a NUL-terminated malloc'ed buffer; NULL on failure (errno set). */
char *Util_readFile(const char *path, size_t *len);
/* Reads a file from a folder a user fills (kernels, presets, lessons, shapes, prefs):
 * only a regular file (a FIFO would block, a link to /dev/zero would be read without
 * end) of at most max bytes, NUL-terminated. NULL with why saying what it is instead. */
char *Util_readUserFile(const char *path, size_t max, size_t *len, char *why, size_t whylen);
/* The most a file of each kind that users write may have. */
#define UTIL_MAX_KERNEL_BYTES (4u << 20)
#define UTIL_MAX_TEXT_BYTES (1u << 20) /* presets, lessons, shapes, preferences */
/* "regular file", "folder", "FIFO", "character device", ... for a stat() mode. */
const char *Util_fileKind(unsigned mode);
/* Writes atomically: temporary file in the same folder, then rename; a symbolic link is
 * followed, anything but a regular file refused (outfile.h). False with errno set. */
bool Util_writeFileAtomic(const char *path, const void *data, size_t len);
/* mkdir -p */
bool Util_mkdirs(const char *path);
/* Copies at most outlen-1 bytes and always terminates. */
void Util_copy(char *out, size_t outlen, const char *src);
/* Copies src whole, or returns false (copying nothing) when it does not fit: for parsers,
 * which refuse a value that is too long rather than cut it. */
bool Util_copyWhole(char *out, size_t outlen, const char *src);
/* The first byte of text[0, len) that a text file of gemmtop's (metadata, presets) must not
 * hold: a NUL, a control character other than tab, newline and carriage return, or a C1
 * control (U+0080 to U+009F, in UTF-8 or as a raw 8-bit byte; the control's own byte) (a
 * terminal would act on ESC, BEL or CSI when the text is listed). Returns its offset, or
 * len when there is none; *line (may be NULL) is its line, from 1. */
size_t Util_findControl(const char *text, size_t len, int *line);
/* Appends line and a newline to the list in buf (warnings: one per line). When buf is full
 * the list ends with a line saying that more were left out, never a cut line. */
void Util_appendLine(char *buf, size_t size, const char *line);
/* "NUL", "ESC", "BEL", "DEL", "0x01" or "U+009B" (a C1 control's byte): how a message
 * names the byte c. */
void Util_controlName(unsigned char c, char out[8]);
/* Trims leading and trailing white space in place; returns s moved past leading space. */
char *Util_trim(char *s);
/* Runs a shell command and returns what it printed on stdout (malloc'ed), or NULL when it
 * failed, printed nothing or could not be started. */
char *Util_capture(const char *command);
/* Monotonic clock in milliseconds. */
double Util_nowMs(void);
/* ts = now + ms on CLOCK_MONOTONIC, for pthread_cond_timedwait on a condvar set to that clock. */
struct timespec;
void Util_deadline(struct timespec *ts, double ms_from_now);
/* $XDG_CONFIG_HOME/gemmtop or ~/.config/gemmtop (kind "config"), likewise "cache". */
bool Util_userDir(const char *kind, char *out, size_t outlen);
/* A shipped data folder (lessons, shapes): $env when set, else folder beside the first of
 * the kernel folders (share/gemmtop/FOLDER), as a real path (no "kernels/.." detour: it is
 * shown to users). False when there is none. */
/* The names of dir's files ending in ext (".lesson"), sorted, so that what is loaded never
 * depends on readdir's order: the count (at most max) into names (each malloc'ed), 0 when
 * the folder cannot be read. */
int Util_filesEndingIn(const char *dir, const char *ext, char **names, int max);
bool Util_shippedDir(const char *kernels_dir, const char *folder, const char *env, char *out, size_t outlen);
/* Folder of the running executable. */
bool Util_exeDir(char *out, size_t outlen);
/* 64-bit FNV-1a, continued from h (start with UTIL_HASH_INIT). */
#define UTIL_HASH_INIT 0xcbf29ce484222325ull
unsigned long long Util_hash(unsigned long long h, const void *data, size_t len);
/* Median of n values (sorts a copy). */
double Util_median(const double *v, int n);
double Util_percentile(const double *v, int n, double q);

/* in with every control character but tab and line breaks in caret form (ESC as "^[",
 * C1 ones, in UTF-8 or as raw bytes, as "M-^["): text from a store, a file or a person
 * that another program or user wrote, made safe to print on a terminal. Cut to fit
 * outlen (never inside a UTF-8 character); returns out. */
const char *Util_visible(const char *in, char *out, size_t outlen);
/* The caret form of the control character at s (ESC "^[", BEL "^G", DEL "^?"; a C1 one,
 * UTF-8 C2 80..9F or a raw 8-bit byte 80..9F, which terminals also obey, "M-^["): how many
 * bytes of s it takes, or 0 when s starts with no control (tab and line breaks are none). */
int Util_controlForm(const char *s, char out[6]);
/* The length of the valid UTF-8 sequence of two to four bytes at s (at most left of
 * them), or 0: its continuation bytes (0x80 to 0xBF) are letters, never C1 controls. */
int Util_utf8Len(const char *s, size_t left);
/* Util_visible of the whole of in, malloc'ed (NULL when out of memory). */
char *Util_visibleDup(const char *in);
/* One CSV field into f (control characters in caret form, as Util_visible), quoted (quotes doubled) when it holds a comma, a quote or a line
 * break, then ',' or, for the last field of a row, '\n'. */
void Util_csvField(FILE *f, const char *s, bool last);
/* Splits one CSV line (its line break already cut off) into at most max fields, in place:
 * quotes are taken off and "" becomes ". Returns how many fields; a quoted field followed
 * by anything but a comma ends the line there. */
int Util_csvSplit(char *line, char **fields, int max);
/* Up to max whole numbers separated by spaces, from the start of p; returns how many were
 * read (a word that is not a number ends them). */
int Util_readInts(const char *p, long long *values, int max);

#endif
