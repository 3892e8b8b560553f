#include "base/util.h"

#include "base/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <ctype.h>

char *Util_readFile(const char *path, size_t *len) {
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   size_t cap = 65536, n = 0;
   char *buf = malloc(cap);
   if (!buf) {
      fclose(f);
      return NULL;
   }
   for (;;) {
      if (n + 1 >= cap) {
         char *nb = realloc(buf, cap * 2);
         if (!nb) {
            free(buf);
            fclose(f);
            errno = ENOMEM;
            return NULL;
         }
         buf = nb;
         cap *= 2;
      }
      size_t got = fread(buf + n, 1, cap - n - 1, f);
      n += got;
      if (got == 0)
         break;
   }
   int bad = ferror(f);
   fclose(f);
   if (bad) {
      free(buf);
      errno = EIO;
      return NULL;
   }
   buf[n] = '\0';
   if (len)
      *len = n;
   return buf;
}

const char *Util_fileKind(unsigned mode) {
   switch (mode & S_IFMT) {
   case S_IFREG: return "regular file";
   case S_IFDIR: return "folder";
   case S_IFIFO: return "FIFO";
   case S_IFCHR: return "character device";
   case S_IFBLK: return "block device";
   case S_IFSOCK: return "socket";
   case S_IFLNK: return "symbolic link";
   default: return "special file";
   }
}

char *Util_readUserFile(const char *path, size_t max, size_t *len, char *why, size_t whylen) {
   /* O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
   int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
   struct stat st;
   if (fd < 0 || fstat(fd, &st) != 0) {
      snprintf(why, whylen, "%s", strerror(errno));
      if (fd >= 0)
         close(fd);
      return NULL;
   }
   if (!S_ISREG(st.st_mode)) {
      snprintf(why, whylen, "not a regular file (a %s)", Util_fileKind(st.st_mode));
      close(fd);
      return NULL;
   }
   if ((unsigned long long)st.st_size > max) {
      snprintf(why, whylen, "%lld bytes, more than the %zu a file of this kind may have", (long long)st.st_size, max);
      close(fd);
      return NULL;
   }
   /* The buffer fits the file as fstat saw it (plus room to see it end), not the limit: a
    * limit of megabytes a file made every read of a small one map and clear that much under
    * AddressSanitizer. It grows, up to the limit, only if the file grows while being read. */
   size_t cap = (size_t)st.st_size + 4096 < max + 1 ? (size_t)st.st_size + 4096 : max + 1;
   char *buf = malloc(cap);
   size_t n = 0;
   ssize_t got = 1;
   while (buf && n <= max) {
      if (n == cap) {
         size_t more = cap * 2 < max + 1 ? cap * 2 : max + 1;
         char *grown = realloc(buf, more);
         if (!grown) {
            free(buf);
            buf = NULL;
            break;
         }
         buf = grown;
         cap = more;
      }
      if ((got = read(fd, buf + n, cap - n)) <= 0)
         break;
      n += (size_t)got;
   }
   int readErr = got < 0 ? errno : 0;
   close(fd);
   if (!buf || readErr || n > max) {
      snprintf(why, whylen, "%s", !buf ? "out of memory" : readErr ? strerror(readErr) : "it grew while being read, past the size a file of this kind may have");
      free(buf);
      return NULL;
   }
   buf[n] = '\0';
   if (len)
      *len = n;
   return buf;
}

bool Util_writeFileAtomic(const char *path, const void *data, size_t len) {
   char err[64];
   return OutFile_write(path, data, len, err, sizeof err);
}

bool Util_mkdirs(const char *path) {
   char buf[4096];
   Util_copy(buf, sizeof buf, path);
   for (char *p = buf + 1; *p; p++) {
      if (*p == '/') {
         *p = '\0';
         if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return false;
         *p = '/';
      }
   }
   return mkdir(buf, 0755) == 0 || errno == EEXIST;
}

bool Util_copyWhole(char *out, size_t outlen, const char *src) {
   size_t n = strlen(src);
   if (n >= outlen)
      return false;
   memcpy(out, src, n + 1);
   return true;
}

int Util_utf8Len(const char *text, size_t left) {
   const unsigned char *s = (const unsigned char *)text;
   int n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
   if (!n || (size_t)n > left)
      return 0;
   for (int i = 1; i < n; i++)
      if ((s[i] & 0xc0) != 0x80)
         return 0;
   /* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
   if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) || (s[0] == 0xf0 && s[1] < 0x90) ||
       (s[0] == 0xf4 && s[1] >= 0x90))
      return 0;
   return n;
}

/* The C1 control (U+0080 to U+009F, which terminals obey like ESC sequences) at s: 2 for
 * its UTF-8 form, 1 for a raw 8-bit byte outside any UTF-8 sequence, else 0. */
static int c1At(const unsigned char *s, size_t left) {
   if (left >= 2 && s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
      return 2;
   return s[0] >= 0x80 && s[0] <= 0x9f ? 1 : 0;
}

size_t Util_findControl(const char *text, size_t len, int *line) {
   const unsigned char *t = (const unsigned char *)text;
   int at = 1;
   size_t i = 0;
   for (; i < len; i++) {
      unsigned char c = t[i];
      if (c == '\n')
         at++;
      else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
         break;
      else if (c >= 0x80) {
         int c1 = c1At(t + i, len - i);
         if (c1) {
            i += (size_t)c1 - 1; /* the control's own byte, which Util_controlName names */
            break;
         }
         int n = Util_utf8Len(text + i, len - i);
         if (n)
            i += (size_t)n - 1;
      }
   }
   if (line)
      *line = at;
   return i;
}

void Util_appendLine(char *buf, size_t size, const char *line) {
   static const char more[] = "(more left out)\n";
   size_t n = strlen(buf);
   if (n >= sizeof more - 1 && !strcmp(buf + n - (sizeof more - 1), more))
      return; /* already full */
   if (n + strlen(line) + 1 + sizeof more <= size) {
      snprintf(buf + n, size - n, "%s\n", line);
      return;
   }
   /* Room for it is always kept: lines are added only while it still fits after them. */
   snprintf(buf + n, size - n, "%s", more);
}

void Util_controlName(unsigned char c, char out[8]) {
   static const char *names[] = {[0] = "NUL", [7] = "BEL", [8] = "BS", [0x1b] = "ESC"};
   if (c < sizeof names / sizeof names[0] && names[c])
      snprintf(out, 8, "%s", names[c]);
   else if (c == 0x7f)
      snprintf(out, 8, "DEL");
   else if (c >= 0x80 && c <= 0x9f)
      snprintf(out, 8, "U+%04X", c);
   else
      snprintf(out, 8, "0x%02x", c);
}

void Util_copy(char *out, size_t outlen, const char *src) {
   if (!outlen)
      return;
   size_t n = strlen(src);
   if (n >= outlen)
      n = outlen - 1;
   memcpy(out, src, n);
   out[n] = '\0';
}

char *Util_trim(char *s) {
   while (isspace((unsigned char)*s))
      s++;
   size_t n = strlen(s);
   while (n > 0 && isspace((unsigned char)s[n - 1]))
      s[--n] = '\0';
   return s;
}

char *Util_capture(const char *command) {
   FILE *f = popen(command, "r");
   if (!f)
      return NULL;
   size_t cap = 1 << 16, n = 0;
   char *buf = malloc(cap);
   while (buf) {
      if (n + 4096 > cap) {
         char *nb = realloc(buf, cap * 2);
         if (!nb)
            break;
         buf = nb;
         cap *= 2;
      }
      size_t got = fread(buf + n, 1, cap - n - 1, f);
      if (!got)
         break;
      n += got;
   }
   int rc = pclose(f);
   if (!buf || rc != 0 || n == 0) {
      free(buf);
      return NULL;
   }
   buf[n] = '\0';
   return buf;
}

void Util_deadline(struct timespec *ts, double ms_from_now) {
   clock_gettime(CLOCK_MONOTONIC, ts);
   long long ns = ts->tv_nsec + (long long)(ms_from_now * 1e6);
   ts->tv_sec += (time_t)(ns / 1000000000);
   ts->tv_nsec = (long)(ns % 1000000000);
}

double Util_nowMs(void) {
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

bool Util_userDir(const char *kind, char *out, size_t outlen) {
   const char *xdg = getenv(!strcmp(kind, "cache") ? "XDG_CACHE_HOME" : "XDG_CONFIG_HOME");
   const char *home = getenv("HOME");
   int n;
   if (xdg && *xdg)
      n = snprintf(out, outlen, "%s/gemmtop", xdg);
   else if (home && *home)
      n = snprintf(out, outlen, "%s/%s/gemmtop", home, !strcmp(kind, "cache") ? ".cache" : ".config");
   else
      return false;
   return n > 0 && (size_t)n < outlen;
}

bool Util_exeDir(char *out, size_t outlen) {
   char buf[4096];
   ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
   if (n <= 0)
      return false;
   buf[n] = '\0';
   char *slash = strrchr(buf, '/');
   if (!slash)
      return false;
   *slash = '\0';
   Util_copy(out, outlen, buf);
   return true;
}

unsigned long long Util_hash(unsigned long long h, const void *data, size_t len) {
   const unsigned char *p = data;
   for (size_t i = 0; i < len; i++) {
      h ^= p[i];
      h *= 0x100000001b3ull;
   }
   return h;
}

static int compareDouble(const void *a, const void *b) {
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

double Util_percentile(const double *v, int n, double q) {
   if (n <= 0)
      return 0;
   double *s = malloc(sizeof *s * (size_t)n);
   if (!s)
      return v[0];
   memcpy(s, v, sizeof *s * (size_t)n);
   qsort(s, (size_t)n, sizeof *s, compareDouble);
   double pos = q * (n - 1);
   int lo = (int)pos;
   int hi = lo + 1 < n ? lo + 1 : lo;
   double r = s[lo] + (s[hi] - s[lo]) * (pos - lo);
   free(s);
   return r;
}

double Util_median(const double *v, int n) { return Util_percentile(v, n, 0.5); }

int Util_controlForm(const char *text, char out[6]) {
   const unsigned char *s = (const unsigned char *)text;
   if ((s[0] < 0x20 && s[0] != '\t' && s[0] != '\n' && s[0] != '\r') || s[0] == 0x7f) {
      snprintf(out, 6, "^%c", s[0] == 0x7f ? '?' : s[0] + '@');
      return 1;
   }
   int c1 = c1At(s, s[0] ? 2 : 1);
   if (c1) {
      snprintf(out, 6, "M-^%c", s[c1 - 1] - 0x80 + '@');
      return c1;
   }
   return 0;
}

/* How many bytes of s are one character that is shown as it is (a whole UTF-8 sequence). */
static int plainChar(const unsigned char *s) {
   int n = Util_utf8Len((const char *)s, 4);
   return n ? n : 1;
}

const char *Util_visible(const char *in, char *out, size_t outlen) {
   size_t n = 0;
   const unsigned char *s = (const unsigned char *)in;
   while (*s && n + 1 < outlen) {
      char form[6];
      int used = Util_controlForm((const char *)s, form);
      const char *piece = used ? form : (const char *)s;
      size_t plen = used ? strlen(form) : (size_t)plainChar(s);
      if (n + plen >= outlen)
         break;
      memcpy(out + n, piece, plen);
      n += plen;
      s += used ? (size_t)used : plen;
   }
   out[n] = '\0';
   return out;
}

char *Util_visibleDup(const char *in) {
   size_t cap = 4 * strlen(in) + 1; /* a raw C1 byte, the longest growth, becomes "M-^[" */
   char *out = malloc(cap);
   return out ? (char *)Util_visible(in, out, cap) : NULL;
}

void Util_csvField(FILE *f, const char *s, bool last) {
   bool quote = strpbrk(s, ",\"\n\r") != NULL;
   if (quote)
      fputc('"', f);
   for (const unsigned char *c = (const unsigned char *)s; *c;) {
      char form[6];
      int used = Util_controlForm((const char *)c, form);
      if (used) { /* never a byte a terminal would obey, when the file is shown */
         fputs(form, f);
         c += used;
         continue;
      }
      if (quote && *c == '"')
         fputc('"', f);
      int plain = plainChar(c);
      fwrite(c, 1, (size_t)plain, f);
      c += plain;
   }
   if (quote)
      fputc('"', f);
   fputc(last ? '\n' : ',', f);
}

int Util_csvSplit(char *line, char **fields, int max) {
   int n = 0;
   char *p = line;
   while (n < max) {
      char *out = p;
      fields[n++] = p;
      if (*p == '"') {
         char *q = p + 1;
         for (;;) {
            if (!*q)
               break;
            if (*q == '"' && q[1] == '"') {
               *out++ = '"';
               q += 2;
            } else if (*q == '"') {
               q++;
               break;
            } else {
               *out++ = *q++;
            }
         }
         p = q;
      } else {
         while (*p && *p != ',')
            *out++ = *p++;
      }
      char sep = *p;
      *out = '\0';
      if (sep != ',')
         return n;
      p++;
   }
   return n;
}

bool Util_shippedDir(const char *kernels_dir, const char *folder, const char *env, char *out, size_t outlen) {
   const char *given = getenv(env);
   if (given && *given)
      return Util_copyWhole(out, outlen, given);
   snprintf(out, outlen, "%.*s/../%s", (int)strcspn(kernels_dir, ":"), kernels_dir, folder);
   struct stat st;
   if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode))
      return false;
   char *real = realpath(out, NULL);
   if (real && strlen(real) < outlen)
      Util_copy(out, outlen, real);
   free(real);
   return true;
}

static int compareNames(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int Util_filesEndingIn(const char *dir, const char *ext, char **names, int max) {
   DIR *d = opendir(dir);
   if (!d)
      return 0;
   const size_t elen = strlen(ext);
   int n = 0;
   struct dirent *e;
   while ((e = readdir(d)) && n < max) {
      const size_t len = strlen(e->d_name);
      if (len > elen && !strcmp(e->d_name + len - elen, ext) && (names[n] = strdup(e->d_name)))
         n++;
   }
   closedir(d);
   qsort(names, (size_t)n, sizeof *names, compareNames);
   return n;
}

int Util_readInts(const char *p, long long *values, int max) {
   int n = 0;
   for (char *end; n < max; n++, p = end) {
      values[n] = strtoll(p, &end, 10);
      if (end == p)
         break;
   }
   return n;
}
