#include "core/classclient.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/lines.h"
#include "base/util.h"

/* How long a client waits for a line of a class answer (a submission's "wait" lines
 * come every few seconds while it waits). */
#define CLASS_ANSWER_S 120.0

/* The answer, to its end. Its text is other people's (names on a board, a compiler's
 * words about a kernel): every control character in it is made visible before anyone
 * prints it. */
static int readAnswer(LineReader *in, const ClassReply *reply, int *judged, char *why, size_t whylen) {
   char raw[LINES_MAX], line[4 * LINES_MAX];
   for (;;) {
      int got = LineReader_next(in, raw, sizeof raw, Util_nowMs() + CLASS_ANSWER_S * 1e3, NULL);
      if (got != 1) {
         snprintf(why, whylen, "the server %s",
                  got == LINES_TOO_LONG ? "answered a line too long to take"
                  : got < 0             ? "did not answer in time"
                                        : "closed the connection");
         return 1;
      }
      Util_visible(raw, line, sizeof line);
      int position, verdict;
      double waited;
      unsigned long long len;
      char name[200];
      if (!strcmp(line, "end"))
         return 0;
      if (!strncmp(line, "text ", 5) || !strcmp(line, "text")) {
         if (reply->text)
            reply->text(reply->ctx, line[4] ? line + 5 : "");
      } else if (sscanf(line, "wait %d %lf", &position, &waited) == 2) {
         if (reply->wait)
            reply->wait(reply->ctx, position, waited);
      } else if (sscanf(line, "judged %d", &verdict) == 1) {
         *judged = verdict != 0;
      } else if (!strncmp(line, "submitted ", 10)) {
         char note[64];
         snprintf(note, sizeof note, "submission %.20s taken; it is judged in turn", line + 10);
         if (reply->note)
            reply->note(reply->ctx, note);
      } else if (!strncmp(line, "error ", 6) || !strncmp(line, "failed ", 7)) {
         snprintf(why, whylen, "%s", strchr(line, ' ') + 1);
         return 1;
      } else if (sscanf(line, "file %199s %llu", name, &len) == 2) {
         char *data = len <= (1ull << 30) ? malloc(len + 1) : NULL;
         if (!data || !LineReader_bytes(in, data, len, Util_nowMs() + CLASS_ANSWER_S * 1e3)) {
            free(data);
            snprintf(why, whylen, "the server's file %s did not arrive whole", name);
            return 1;
         }
         bool kept = reply->file && reply->file(reply->ctx, strchr(name, '/') ? "unnamed" : name, data, len, why, whylen);
         if (!reply->file)
            snprintf(why, whylen, "the server sent a file (%s) where none was asked for", name);
         free(data);
         if (!kept)
            return 1;
      }
   }
}

int ClassClient_ask(const char *server, const char *file, const char *line, const ClassReply *reply, int *judged,
                    char *why, size_t whylen) {
   *judged = -1;
   char *text = NULL;
   size_t len = 0;
   if (file && !(text = Util_readUserFile(file, UTIL_MAX_KERNEL_BYTES, &len, why, whylen)))
      return 2;
   int fd = Lines_connect(server, why, whylen);
   if (fd < 0) {
      free(text);
      return 1;
   }
   /* A server that refuses closes its end: a write then fails, it does not kill us. */
   struct sigaction ign = {.sa_handler = SIG_IGN}, old;
   sigaction(SIGPIPE, &ign, &old);
   if (text) {
      const char *base = strrchr(file, '/');
      if (Lines_printf(fd, "file %s %zu\n", base ? base + 1 : file, len))
         Lines_write(fd, text, len);
      free(text);
   }
   Lines_printf(fd, "%s\n", line);
   /* Even when sending failed: a server that refused us says why before it closes. */
   LineReader in;
   LineReader_init(&in, fd);
   int rc = readAnswer(&in, reply, judged, why, whylen);
   close(fd);
   sigaction(SIGPIPE, &old, NULL);
   return rc;
}
