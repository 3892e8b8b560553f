/* Lines of text over a descriptor (a pipe or a socket): the measuring child's answers,
 * gemmtop serve's requests and replies. A line longer than the buffer is dropped whole,
 * never cut, and a reader waits only until its deadline. */
#ifndef GEMMTOP_LINES_H
#define GEMMTOP_LINES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define LINES_MAX 8192

typedef struct LineReader_ {
   int fd;
   char buf[LINES_MAX];
   size_t have;      /* read, not yet taken */
   bool overlong;    /* the line being read is longer than buf: dropped up to its newline */
} LineReader;

void LineReader_init(LineReader *r, int fd);
/* One line (without its newline) into line, waiting until deadline (Util_nowMs; a
 * deadline of 0 waits as long as it takes). cancel, when given, is looked at every
 * 100 ms. 1: a line; 0: the other end closed (or an error); -1: none in time; -2: cancelled;
 * LINES_TOO_LONG: a line longer than LINES_MAX - 1 bytes began, which is never cut: said at
 * once (its sender may be waiting for an answer), and dropped up to its newline by the
 * next call. */
#define LINES_TOO_LONG (-3)
int LineReader_next(LineReader *r, char *line, size_t len, double deadline, const atomic_int *cancel);
/* Exactly len bytes (after the lines taken so far), by the deadline: a file's contents
 * that follow a line announcing them. */
bool LineReader_bytes(LineReader *r, char *out, size_t len, double deadline);
/* The lines already read and not yet taken are whole: true when one is waiting. */
bool LineReader_pending(const LineReader *r);

/* A connection to the Unix socket at path (close-on-exec), or -1 with why. */
int Lines_connect(const char *path, char *why, size_t whylen);

/* All of text, through EINTR and short writes; false when the other end is gone. */
bool Lines_write(int fd, const char *text, size_t len);
/* A formatted line (the caller ends it with \n). */
bool Lines_printf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
