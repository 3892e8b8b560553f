/* The explorer's log: a bounded list of lines (oldest dropped first), each with a level
 * and the time it was added. Build logs arrive as one text and are split into lines. */
#ifndef GEMMTOP_UI_LOGBUF_H
#define GEMMTOP_UI_LOGBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <time.h>

typedef enum { LOG_INFO = 0, LOG_GOOD, LOG_WARN, LOG_ERROR, LOG_BUILD } LogLevel;

typedef struct LogLine_ {
   LogLevel level;
   time_t when;
   int first;          /* 1 for the first line of an entry (it shows the time) */
   char *text;
} LogLine;

typedef struct LogBuf_ {
   LogLine *ring;     /* a ring of cap lines */
   int cap, start, count;
   unsigned long added; /* lines ever added: tells a reader that something changed */
} LogBuf;

void LogBuf_init(LogBuf *b, int cap);
void LogBuf_free(LogBuf *b);
/* Adds text (split at newlines, trailing blank lines dropped, tabs as spaces). */
void LogBuf_add(LogBuf *b, LogLevel level, const char *text);
void LogBuf_addf(LogBuf *b, LogLevel level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same with the arguments as a va_list: for the explorer's own log functions. */
void LogBuf_addv(LogBuf *b, LogLevel level, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/* Line i, 0 the oldest kept. */
const LogLine *LogBuf_line(const LogBuf *b, int i);
/* Moves every line of src to the end of dst (src is left empty). */
void LogBuf_move(LogBuf *dst, LogBuf *src);
void LogBuf_clear(LogBuf *b);
/* A build log with the compiler's name for the source ("/tmp/.../tempfile_x.cl:36:22",
 * "<source>:36", "default_program(36)") replaced by file, so messages point at the kernel
 * file (the engine keeps its line numbers). malloc'ed. */
char *LogBuf_renameSource(const char *log, const char *file);

#endif
