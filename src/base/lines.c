#include "base/lines.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/util.h"

/* How often a wait looks at its cancel flag. */
#define CANCEL_POLL_MS 100

void LineReader_init(LineReader *r, int fd) {
   memset(r, 0, sizeof *r);
   r->fd = fd;
}

bool LineReader_pending(const LineReader *r) {
   return memchr(r->buf, '\n', r->have) != NULL;
}

/* Waits for input until deadline: 1 readable, -1 not in time, -2 cancelled, 0 error. */
static int waitReadable(int fd, double deadline, const atomic_int *cancel) {
   for (;;) {
      if (cancel && atomic_load(cancel))
         return -2;
      int wait = 1000000;
      if (deadline > 0) {
         double left = deadline - Util_nowMs();
         if (left <= 0)
            return -1;
         if (left < 1e6)
            wait = (int)left + 1;
      }
      if (cancel && wait > CANCEL_POLL_MS)
         wait = CANCEL_POLL_MS;
      struct pollfd pfd = {.fd = fd, .events = POLLIN};
      int got = poll(&pfd, 1, wait);
      if (got < 0 && errno != EINTR)
         return 0;
      if (got > 0)
         return 1;
   }
}

int LineReader_next(LineReader *r, char *line, size_t len, double deadline, const atomic_int *cancel) {
   for (;;) {
      char *nl = memchr(r->buf, '\n', r->have);
      if (nl) {
         size_t n = (size_t)(nl - r->buf);
         bool drop = r->overlong;
         r->overlong = false;
         if (!drop)
            snprintf(line, len, "%.*s", (int)n, r->buf);
         r->have -= n + 1;
         memmove(r->buf, nl + 1, r->have);
         if (!drop)
            return 1;
         continue;
      }
      if (r->have == sizeof r->buf) {
         bool first = !r->overlong;
         r->overlong = true; /* dropped whole: its rest goes too, up to its newline */
         r->have = 0;
         if (first)
            return LINES_TOO_LONG;
      }
      int w = waitReadable(r->fd, deadline, cancel);
      if (w != 1)
         return w;
      ssize_t got = read(r->fd, r->buf + r->have, sizeof r->buf - r->have);
      if (got < 0 && errno == EINTR)
         continue;
      if (got <= 0)
         return 0;
      r->have += (size_t)got;
   }
}

bool LineReader_bytes(LineReader *r, char *out, size_t len, double deadline) {
   size_t take = r->have < len ? r->have : len;
   memcpy(out, r->buf, take);
   r->have -= take;
   memmove(r->buf, r->buf + take, r->have);
   for (size_t done = take; done < len;) {
      if (waitReadable(r->fd, deadline, NULL) != 1)
         return false;
      ssize_t got = read(r->fd, out + done, len - done);
      if (got < 0 && errno == EINTR)
         continue;
      if (got <= 0)
         return false;
      done += (size_t)got;
   }
   return true;
}

bool Lines_write(int fd, const char *text, size_t len) {
   while (len > 0) {
      ssize_t w = write(fd, text, len);
      if (w < 0 && errno == EINTR)
         continue;
      if (w <= 0)
         return false;
      text += w;
      len -= (size_t)w;
   }
   return true;
}

bool Lines_printf(int fd, const char *fmt, ...) {
   char small[1024];
   va_list ap;
   va_start(ap, fmt);
   int n = vsnprintf(small, sizeof small, fmt, ap);
   va_end(ap);
   if (n < 0)
      return false;
   if ((size_t)n < sizeof small)
      return Lines_write(fd, small, (size_t)n);
   char *big = malloc((size_t)n + 1);
   if (!big)
      return false;
   va_start(ap, fmt);
   vsnprintf(big, (size_t)n + 1, fmt, ap);
   va_end(ap);
   bool ok = Lines_write(fd, big, (size_t)n);
   free(big);
   return ok;
}

int Lines_connect(const char *path, char *why, size_t whylen) {
   struct sockaddr_un addr = {.sun_family = AF_UNIX};
   if (strlen(path) >= sizeof addr.sun_path) {
      snprintf(why, whylen, "the socket's path %s is longer than a Unix socket's (%zu characters)", path,
               sizeof addr.sun_path - 1);
      return -1;
   }
   Util_copy(addr.sun_path, sizeof addr.sun_path, path);
   int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
   if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
      snprintf(why, whylen, "cannot reach the gemmtop server at %s: %s%s", path, strerror(errno),
               errno == ENOENT || errno == ECONNREFUSED ? " (is 'gemmtop serve' running there?)" : "");
      if (fd >= 0)
         close(fd);
      return -1;
   }
   return fd;
}
