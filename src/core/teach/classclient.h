/* A client's side of a class server's requests that are not measurements (serve/serve.h):
 * "class ..." and "submit ..." lines, sent after a kernel file when there is one, and the
 * answer read to its end: "text" lines, the place in the queue while a submission waits,
 * "file" blocks (an export), "judged", then "end" or "error". For `gemmtop submit` and
 * `gemmtop class` and the explorer's submit key. */
#ifndef GEMMTOP_CLASSCLIENT_H
#define GEMMTOP_CLASSCLIENT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ClassReply_ {
   void (*text)(void *ctx, const char *line);           /* a line of the answer */
   void (*wait)(void *ctx, int position, double waited); /* a submission's place (1 next, 0 judged now) */
   void (*note)(void *ctx, const char *line);           /* "submission 12 taken" */
   /* An exported file; false with why stops the answer. NULL: files are refused. */
   bool (*file)(void *ctx, const char *name, const char *data, size_t len, char *why, size_t whylen);
   void *ctx;
} ClassReply;

/* Sends line (after file's contents, when file is given) to the server at server and
 * reads the answer. 0: answered to its end (*judged: 1 or 0 after a submission, -1
 * else); 1: the server refused (why) or was lost; 2: file cannot be read (why). */
int ClassClient_ask(const char *server, const char *file, const char *line, const ClassReply *reply, int *judged,
                    char *why, size_t whylen);

#endif
