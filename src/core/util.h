/* Small helpers shared by every module. */
#ifndef GEMMTOP_UTIL_H
#define GEMMTOP_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/* Reads a whole file into a NUL-terminated malloc'ed buffer; NULL on failure (errno set). */
char *Util_readFile(const char *path, size_t *len);
/* Writes atomically: temporary file in the same folder, then rename; a symbolic link is
 * followed, anything but a regular file refused (outfile.h). False with errno set. */
bool Util_writeFileAtomic(const char *path, const void *data, size_t len);
/* mkdir -p */
bool Util_mkdirs(const char *path);
/* Copies at most outlen-1 bytes and always terminates. */
void Util_copy(char *out, size_t outlen, const char *src);
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
/* Folder of the running executable. */
bool Util_exeDir(char *out, size_t outlen);
/* 64-bit FNV-1a, continued from h (start with UTIL_HASH_INIT). */
#define UTIL_HASH_INIT 0xcbf29ce484222325ull
unsigned long long Util_hash(unsigned long long h, const void *data, size_t len);
/* Median of n values (sorts a copy). */
double Util_median(const double *v, int n);
double Util_percentile(const double *v, int n, double q);

#endif
