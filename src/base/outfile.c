#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

struct OutFile_ {
   FILE *stream;
   char shown[PATH_MAX];  /* the name the user gave, for messages */
   char target[PATH_MAX]; /* where it lands once links are followed */
   char tmp[PATH_MAX];    /* the temporary file; "" when written in place */
   int write_errno;       /* why OutFile_write's write fell short; 0 none */
};

/* Follows symbolic links from path (also a dangling one: its target is created) to the
 * name that is really written. *exists says whether that name exists, with st its kind. */
static bool followLinks(const char *path, char *out, size_t outlen, struct stat *st, bool *exists, char *err,
                        size_t errlen) {
   char cur[PATH_MAX];
   if (strlen(path) >= sizeof cur) {
      snprintf(err, errlen, "%s: the name is too long", path);
      return false;
   }
   Util_copy(cur, sizeof cur, path);
   for (int hops = 0; hops < 40; hops++) {
      if (lstat(cur, st) != 0) {
         if (errno != ENOENT) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            return false;
         }
         *exists = false;
         Util_copy(out, outlen, cur);
         return true;
      }
      if (!S_ISLNK(st->st_mode)) {
         *exists = true;
         Util_copy(out, outlen, cur);
         return true;
      }
      char link[PATH_MAX];
      ssize_t n = readlink(cur, link, sizeof link - 1);
      if (n < 0) {
         snprintf(err, errlen, "%s: cannot read the link: %s", path, strerror(errno));
         return false;
      }
      link[n] = '\0';
      char next[PATH_MAX];
      const char *slash = strrchr(cur, '/');
      int len = link[0] == '/' || !slash ? snprintf(next, sizeof next, "%s", link)
                                         : snprintf(next, sizeof next, "%.*s/%s", (int)(slash - cur), cur, link);
      if (len < 0 || (size_t)len >= sizeof next) {
         snprintf(err, errlen, "%s: the link's target name is too long", path);
         return false;
      }
      Util_copy(cur, sizeof cur, next);
   }
   snprintf(err, errlen, "%s: %s", path, strerror(ELOOP));
   return false;
}

static const char *kindOf(mode_t m) {
   return S_ISDIR(m)    ? "a folder"
          : S_ISFIFO(m) ? "a FIFO"
          : S_ISCHR(m)  ? "a character device"
          : S_ISBLK(m)  ? "a block device"
          : S_ISSOCK(m) ? "a socket"
                        : "not a regular file";
}

/* A new file beside target, named target.tmp.PID.N (what `gemmtop cache clear` and a
 * killed writer's leftovers are recognised by), with the old file's permissions. */
static int createTemporary(OutFile *f, const struct stat *old, bool exists, char *err, size_t errlen) {
   static atomic_uint serial;
   int fd = -1;
   for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
      int n = snprintf(f->tmp, sizeof f->tmp, "%s.tmp.%ld.%u", f->target, (long)getpid(), atomic_fetch_add(&serial, 1));
      if (n < 0 || (size_t)n >= sizeof f->tmp) {
         snprintf(err, errlen, "%s: the name is too long", f->shown);
         return -1;
      }
      fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0 && errno != EEXIST)
         break;
   }
   if (fd < 0) {
      const char *slash = strrchr(f->target, '/');
      snprintf(err, errlen, "%s: cannot create a file in %.*s: %s", f->shown, slash ? (int)(slash - f->target) : 1,
               slash ? (slash == f->target ? "/" : f->target) : ".", strerror(errno));
      f->tmp[0] = '\0';
      return -1;
   }
   if (exists)
      (void)fchmod(fd, old->st_mode & 07777);
   return fd;
}

OutFileStatus OutFile_open(const char *path, unsigned flags, OutFile **out, char *err, size_t errlen) {
   *out = NULL;
   if (!path || !*path) {
      snprintf(err, errlen, "no file name given");
      return OUTFILE_REFUSED;
   }
   OutFile *f = calloc(1, sizeof *f);
   if (!f) {
      snprintf(err, errlen, "%s: out of memory", path);
      return OUTFILE_FAILED;
   }
   Util_copy(f->shown, sizeof f->shown, path);
   struct stat st;
   bool exists = false;
   if (!followLinks(path, f->target, sizeof f->target, &st, &exists, err, errlen)) {
      free(f);
      return OUTFILE_FAILED;
   }
   int fd;
   if (exists && !S_ISREG(st.st_mode)) {
      bool stream = S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode);
      if (!stream || !(flags & OUTFILE_STREAM_OK)) {
         snprintf(err, errlen, "%s is %s; gemmtop writes this only to a regular file (or a link to one), which it "
                  "replaces when complete", path, kindOf(st.st_mode));
         free(f);
         errno = S_ISDIR(st.st_mode) ? EISDIR : ENOTSUP;
         return OUTFILE_REFUSED;
      }
      fd = open(f->target, O_WRONLY | O_CLOEXEC);
      if (fd < 0)
         snprintf(err, errlen, "%s: %s", path, strerror(errno));
   } else {
      fd = createTemporary(f, &st, exists, err, errlen);
   }
   f->stream = fd >= 0 ? fdopen(fd, "w") : NULL;
   if (!f->stream) {
      int e = errno;
      if (fd >= 0) {
         snprintf(err, errlen, "%s: %s", path, strerror(e));
         close(fd);
      }
      if (f->tmp[0])
         unlink(f->tmp);
      free(f);
      errno = e;
      return OUTFILE_FAILED;
   }
   *out = f;
   return OUTFILE_OK;
}

FILE *OutFile_stream(OutFile *f) { return f->stream; }

/* Why an earlier write of the stream failed, when the caller did not keep errno: a full
 * disk would otherwise read as "Input/output error". A temporary file is removed anyway, so
 * one more byte is written at its end: a full disk refuses it again (ENOSPC), as a spent
 * quota does (EDQUOT). EIO when that says nothing. */
static int lostWriteError(const OutFile *f) {
   if (f->write_errno)
      return f->write_errno;
   if (f->tmp[0]) {
      const int fd = fileno(f->stream);
      const off_t end = lseek(fd, 0, SEEK_END);
      if (end >= 0 && pwrite(fd, "", 1, end) < 0 && errno != EINTR)
         return errno;
   }
   return EIO;
}

bool OutFile_commit(OutFile *f, char *err, size_t errlen) {
   int e = 0;
   if (fflush(f->stream) != 0)
      e = errno;
   else if (ferror(f->stream))
      e = lostWriteError(f);
   /* A regular file's data reaches the disk before its name replaces the old one. */
   if (!e && f->tmp[0] && fsync(fileno(f->stream)) != 0 && errno != EINVAL && errno != EROFS)
      e = errno;
   if (fclose(f->stream) != 0 && !e)
      e = errno;
   if (!e && f->tmp[0] && rename(f->tmp, f->target) != 0)
      e = errno;
   if (e) {
      snprintf(err, errlen, "%s: cannot write: %s", f->shown, strerror(e));
      if (f->tmp[0])
         unlink(f->tmp);
   }
   free(f);
   errno = e;
   return e == 0;
}

void OutFile_discard(OutFile *f) {
   if (!f)
      return;
   fclose(f->stream);
   if (f->tmp[0])
      unlink(f->tmp);
   free(f);
}

bool OutFile_write(const char *path, const void *data, size_t len, char *err, size_t errlen) {
   OutFile *f;
   if (OutFile_open(path, 0, &f, err, errlen) != OUTFILE_OK)
      return false;
   if (len && fwrite(data, 1, len, f->stream) < len) /* the stream's error, and its cause, for commit */
      f->write_errno = errno;
   return OutFile_commit(f, err, errlen);
}

bool OutFile_freeName(const char *stem, const char *const *ext, int n, char *base, size_t baselen) {
   for (int k = 1; k < 1000; k++) {
      if (k == 1)
         snprintf(base, baselen, "%s", stem);
      else
         snprintf(base, baselen, "%s-%d", stem, k);
      bool taken = false;
      for (int e = 0; e < n && !taken; e++) {
         char path[PATH_MAX];
         struct stat st;
         snprintf(path, sizeof path, "%s%s", base, ext[e]);
         taken = lstat(path, &st) == 0 || errno != ENOENT;
      }
      if (!taken)
         return true;
   }
   return false;
}

bool OutFile_writeSet(const char *stem, const char *const *texts, const char *const *ext, int n, char *base,
                      size_t baselen, char *err, size_t errlen) {
   if (!OutFile_freeName(stem, ext, n, base, baselen)) {
      snprintf(err, errlen, "%s%s to %s-999%s all exist here: move some away", stem, ext[0], stem, ext[0]);
      return false;
   }
   for (int e = 0; e < n; e++) {
      char path[PATH_MAX];
      snprintf(path, sizeof path, "%s%s", base, ext[e]);
      if (!OutFile_write(path, texts[e], strlen(texts[e]), err, errlen))
         return false;
   }
   return true;
}
