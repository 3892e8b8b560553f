/* NumPy .npy reading and writing.  Format: "\x93NUMPY", major, minor, header length
 * (2 bytes little-endian in 1.0, 4 bytes in 2.0 and 3.0), then an ASCII (3.0: UTF-8)
 * Python dict literal such as
 *    {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces and ended by '\n', then the raw data.
 * The header is parsed by hand with every index bounds-checked: a corrupt file gives a
 * message, never a crash. */
#include "core/model/npy.h"

#include "base/lowprec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
/* numpy itself refuses headers over 10000 bytes by default; ours are < 128. */
#define NPY_MAX_HEADER 65536

static void setError(char *err, size_t errlen, const char *fmt, ...) {
   if (!err || errlen == 0)
      return;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(err, errlen, fmt, ap);
   va_end(ap);
}

static bool hostIsLittleEndian(void) {
   const uint16_t one = 1;
   unsigned char b;
   memcpy(&b, &one, 1);
   return b == 1;
}

static void byteswap(void *data, size_t count, size_t elsize) {
   unsigned char *p = data;
   for (size_t i = 0; i < count; i++, p += elsize) {
      for (size_t a = 0, b = elsize - 1; a < b; a++, b--) {
         unsigned char t = p[a];
         p[a] = p[b];
         p[b] = t;
      }
   }
}

/* ---------- header parsing ---------- */

typedef struct {
   const char *s;
   size_t len, pos;
} Cursor;

typedef struct {
   bool have_descr, have_fortran, have_shape;
   char descr[32];
   bool descr_is_list; /* structured dtype: [('a', '<f4'), ...] */
   bool fortran_order;
   int ndim;
   size_t shape[3]; /* only the first min(ndim, 3) are kept */
   bool shape_overflow;
} Header;

static void skipSpace(Cursor *c) {
   while (c->pos < c->len && (c->s[c->pos] == ' ' || c->s[c->pos] == '\t' || c->s[c->pos] == '\n' || c->s[c->pos] == '\r'))
      c->pos++;
}

static bool accept(Cursor *c, char ch) {
   skipSpace(c);
   if (c->pos < c->len && c->s[c->pos] == ch) {
      c->pos++;
      return true;
   }
   return false;
}

static bool peekIs(Cursor *c, char ch) {
   skipSpace(c);
   return c->pos < c->len && c->s[c->pos] == ch;
}

/* A Python string literal in single or double quotes (no escapes needed here); copies at
 * most outlen-1 characters, reports the full length. */
static bool parseString(Cursor *c, char *out, size_t outlen, size_t *full) {
   skipSpace(c);
   if (c->pos >= c->len || (c->s[c->pos] != '\'' && c->s[c->pos] != '"'))
      return false;
   char q = c->s[c->pos++];
   size_t start = c->pos;
   while (c->pos < c->len && c->s[c->pos] != q) {
      if (c->s[c->pos] == '\\')
         c->pos++; /* skip the escaped character */
      c->pos++;
   }
   if (c->pos >= c->len)
      return false;
   size_t n = c->pos - start;
   c->pos++; /* closing quote */
   if (full)
      *full = n;
   if (out && outlen) {
      size_t m = n < outlen - 1 ? n : outlen - 1;
      memcpy(out, c->s + start, m);
      out[m] = '\0';
   }
   return true;
}

static bool parseWord(Cursor *c, const char *word) {
   skipSpace(c);
   size_t n = strlen(word);
   if (c->len - c->pos < n || memcmp(c->s + c->pos, word, n) != 0)
      return false;
   c->pos += n;
   return true;
}

/* A non-negative integer, with an optional Python 2 'L' suffix. */
static bool parseSize(Cursor *c, size_t *out, bool *overflow) {
   skipSpace(c);
   size_t start = c->pos, v = 0;
   while (c->pos < c->len && c->s[c->pos] >= '0' && c->s[c->pos] <= '9') {
      unsigned d = (unsigned)(c->s[c->pos] - '0');
      if (v > (SIZE_MAX - d) / 10)
         *overflow = true;
      else
         v = v * 10 + d;
      c->pos++;
   }
   if (c->pos == start)
      return false;
   if (c->pos < c->len && (c->s[c->pos] == 'L' || c->s[c->pos] == 'l'))
      c->pos++;
   *out = v;
   return true;
}

static bool parseShape(Cursor *c, Header *h) {
   if (!accept(c, '('))
      return false;
   h->ndim = 0;
   for (;;) {
      if (accept(c, ')'))
         return true;
      size_t v;
      if (!parseSize(c, &v, &h->shape_overflow))
         return false;
      if (h->ndim < 3)
         h->shape[h->ndim] = v;
      if (h->ndim < 1000000)
         h->ndim++;
      if (accept(c, ','))
         continue;
      return accept(c, ')');
   }
}

/* Skips a value of a key we do not use: string, True/False/None, number, or a bracketed
 * group (tuple, list, dict) with nesting. */
static bool skipValue(Cursor *c) {
   skipSpace(c);
   if (c->pos >= c->len)
      return false;
   char ch = c->s[c->pos];
   if (ch == '\'' || ch == '"')
      return parseString(c, NULL, 0, NULL);
   if (ch == '(' || ch == '[' || ch == '{') {
      int depth = 0;
      while (c->pos < c->len) {
         ch = c->s[c->pos];
         if (ch == '\'' || ch == '"') {
            if (!parseString(c, NULL, 0, NULL))
               return false;
            continue;
         }
         if (ch == '(' || ch == '[' || ch == '{')
            depth++;
         else if (ch == ')' || ch == ']' || ch == '}')
            depth--;
         c->pos++;
         if (depth == 0)
            return true;
      }
      return false;
   }
   size_t start = c->pos;
   while (c->pos < c->len && c->s[c->pos] != ',' && c->s[c->pos] != '}')
      c->pos++;
   return c->pos > start;
}

/* Returns NULL on success, else a short description of what is wrong. */
static const char *parseHeader(const char *s, size_t len, Header *h) {
   memset(h, 0, sizeof *h);
   Cursor c = {s, len, 0};
   if (!accept(&c, '{'))
      return "header is not a Python dict";
   for (;;) {
      if (accept(&c, '}'))
         break;
      char key[32];
      size_t keylen;
      if (!parseString(&c, key, sizeof key, &keylen))
         return "header dict has a malformed key";
      if (!accept(&c, ':'))
         return "header dict lacks a ':'";
      if (keylen == 5 && !strcmp(key, "descr")) {
         if (peekIs(&c, '[')) {
            h->descr_is_list = true;
            if (!skipValue(&c))
               return "malformed 'descr'";
         } else {
            size_t dlen;
            if (!parseString(&c, h->descr, sizeof h->descr, &dlen))
               return "malformed 'descr'";
            if (dlen >= sizeof h->descr) /* show a long one shortened */
               memcpy(h->descr + sizeof h->descr - 4, "...", 4);
         }
         h->have_descr = true;
      } else if (keylen == 13 && !strcmp(key, "fortran_order")) {
         if (parseWord(&c, "True"))
            h->fortran_order = true;
         else if (parseWord(&c, "False"))
            h->fortran_order = false;
         else
            return "malformed 'fortran_order'";
         h->have_fortran = true;
      } else if (keylen == 5 && !strcmp(key, "shape")) {
         if (!parseShape(&c, h))
            return "malformed 'shape'";
         h->have_shape = true;
      } else {
         if (!skipValue(&c))
            return "header dict has a malformed value";
      }
      if (accept(&c, ','))
         continue;
      if (accept(&c, '}'))
         break;
      return "header dict is malformed";
   }
   skipSpace(&c);
   while (c.pos < c.len && c.s[c.pos] == '\0')
      c.pos++;
   if (c.pos != c.len)
      return "unexpected text after the header dict";
   if (!h->have_descr || !h->have_fortran || !h->have_shape)
      return "header lacks 'descr', 'fortran_order' or 'shape'";
   return NULL;
}

/* ---------- reading ---------- */

static const char *typeName(size_t elsize) {
   return elsize == 1 ? "uint8" : elsize == 2 ? "float16" : elsize == 8 ? "float64" : "float32";
}

static bool readExact(FILE *f, void *buf, size_t n, size_t *got) {
   size_t r = n ? fread(buf, 1, n, f) : 0;
   if (got)
      *got = r;
   return r == n;
}

/* The magic, the version and the header's length: false with the reason in err. */
static bool readPreamble(FILE *f, const char *path, size_t *hlen, size_t *preamble, char *err, size_t errlen) {
   unsigned char pre[12];
   size_t got;
   readExact(f, pre, 10, &got);
   if (got < NPY_MAGIC_LEN || memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
      if (ferror(f))
         setError(err, errlen, "%s: read error: %s", path, strerror(errno));
      else
         setError(err, errlen, "%s: not a .npy file (bad magic: it does not start with \\x93NUMPY)", path);
      return false;
   }
   if (got < 10) {
      setError(err, errlen, "%s: truncated .npy file (it ends inside the preamble)", path);
      return false;
   }
   unsigned major = pre[6], minor = pre[7];
   if (major == 1) {
      *hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
      *preamble = 10;
   } else if (major == 2 || major == 3) {
      if (!readExact(f, pre + 10, 2, NULL)) {
         setError(err, errlen, "%s: truncated .npy file (it ends inside the preamble)", path);
         return false;
      }
      *hlen = (size_t)pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
      *preamble = 12;
   } else {
      setError(err, errlen, "%s: unsupported .npy format version %u.%u (1.0, 2.0 and 3.0 are read)", path, major, minor);
      return false;
   }
   if (*hlen > NPY_MAX_HEADER) {
      setError(err, errlen, "%s: .npy header too long (%zu bytes; at most %d accepted)", path, *hlen, NPY_MAX_HEADER);
      return false;
   }
   return true;
}

/* The header dict of hlen bytes, parsed into h. */
static bool readHeader(FILE *f, const char *path, size_t hlen, Header *h, char *err, size_t errlen) {
   char *header = malloc(hlen + 1);
   if (!header) {
      setError(err, errlen, "%s: out of memory", path);
      return false;
   }
   size_t got;
   bool ok = readExact(f, header, hlen, &got);
   if (!ok) {
      setError(err, errlen, "%s: truncated .npy file (header of %zu bytes, only %zu present)", path, hlen, got);
   } else {
      header[hlen] = '\0';
      const char *why = parseHeader(header, hlen, h);
      if (why)
         setError(err, errlen, "%s: bad .npy header: %s", path, why);
      ok = !why;
   }
   free(header);
   return ok;
}

/* The element size of the header's dtype (little-endian float16, float32 or float64);
 * 0 with the reason in err. */
static size_t elementSize(const Header *h, const char *path, char *err, size_t errlen) {
   if (h->descr_is_list) {
      setError(err, errlen, "%s: unsupported dtype (a structured array); '<f2', '<f4' or '<f8' is needed", path);
      return 0;
   }
   const char *d = h->descr;
   char order = d[0];
   if (order == '<' || order == '>' || order == '=' || order == '|')
      d++;
   else
      order = '=';
   size_t elsize = !strcmp(d, "f4") ? 4 : !strcmp(d, "f8") ? 8 : !strcmp(d, "f2") ? 2 : !strcmp(d, "u1") ? 1 : 0;
   if (!elsize) {
      setError(err, errlen,
               "%s: unsupported dtype '%s'; '<f2', '<f4' or '<f8' (float16, float32 or float64) is needed, or '|u1' "
               "(uint8: FP8 patterns)", path, h->descr);
      return 0;
   }
   if (elsize > 1 && (order == '>' || ((order == '=' || order == '|') && !hostIsLittleEndian()))) {
      setError(err, errlen, "%s: unsupported dtype '%s' (big-endian); little-endian '<f2', '<f4' or '<f8' is needed",
               path, h->descr);
      return 0;
   }
   return elsize;
}

/* Rows and columns of a 1-D or 2-D shape whose bytes fit in a size_t. */
static bool shapeOf(const Header *h, size_t elsize, const char *path, size_t *rows, size_t *cols, char *err,
                    size_t errlen) {
   if (h->ndim == 0) {
      setError(err, errlen, "%s: a 0-D array (a scalar); a 1-D or 2-D array is needed", path);
      return false;
   }
   if (h->ndim > 2) {
      setError(err, errlen, "%s: a %d-D array; only 1-D and 2-D arrays are supported", path, h->ndim);
      return false;
   }
   *rows = h->shape[0];
   *cols = h->ndim == 2 ? h->shape[1] : 1;
   if (h->shape_overflow || (*cols && *rows > SIZE_MAX / *cols) || (*cols && *rows && *rows * *cols > SIZE_MAX / elsize)) {
      setError(err, errlen, "%s: array shape too large", path);
      return false;
   }
   return true;
}

/* A column-major (Fortran-order) array's elements in row-major order: element (i, j) is
 * at j*rows + i. NULL when out of memory (data is then left as it is). */
static void *rowMajor(const void *data, size_t rows, size_t cols, size_t elsize) {
   unsigned char *rm = malloc(rows * cols * elsize);
   if (!rm)
      return NULL;
   const unsigned char *src = data;
   for (size_t i = 0; i < rows; i++)
      for (size_t j = 0; j < cols; j++)
         memcpy(rm + (i * cols + j) * elsize, src + (j * rows + i) * elsize, elsize);
   return rm;
}

/* The data after the header, nbytes of it (the file's size checked first when known). */
static void *readData(FILE *f, const char *path, const Header *h, size_t elsize, size_t nbytes, long long have,
                      char *err, size_t errlen) {
   char shape[64];
   if (h->ndim == 1)
      snprintf(shape, sizeof shape, "(%zu,)", (size_t)h->shape[0]);
   else
      snprintf(shape, sizeof shape, "(%zu, %zu)", (size_t)h->shape[0], (size_t)h->shape[1]);
   if (have >= 0 && (unsigned long long)have < nbytes) {
      setError(err, errlen, "%s: truncated data: shape %s of %s needs %zu bytes, the file has %llu", path, shape,
               typeName(elsize), nbytes, (unsigned long long)have);
      return NULL;
   }
   void *data = malloc(nbytes ? nbytes : 1);
   if (!data) {
      setError(err, errlen, "%s: out of memory for %zu bytes", path, nbytes);
      return NULL;
   }
   size_t got;
   if (!readExact(f, data, nbytes, &got)) {
      if (ferror(f))
         setError(err, errlen, "%s: read error: %s", path, strerror(errno));
      else
         setError(err, errlen, "%s: truncated data: shape %s of %s needs %zu bytes, the file has %zu", path, shape,
                  typeName(elsize), nbytes, got);
      free(data);
      return NULL;
   }
   return data;
}

bool Npy_read(const char *path, NpyArray *out, char *err, size_t errlen) {
   if (!out) {
      setError(err, errlen, "%s: no output array", path ? path : "(null)");
      return false;
   }
   memset(out, 0, sizeof *out);
   if (!path) {
      setError(err, errlen, "(null): no file name");
      return false;
   }
   FILE *f = fopen(path, "rb");
   if (!f) {
      setError(err, errlen, "%s: %s", path, strerror(errno));
      return false;
   }
   struct stat st;
   bool know_size = false;
   if (fstat(fileno(f), &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
         setError(err, errlen, "%s: is a directory, not a .npy file", path);
         fclose(f);
         return false;
      }
      know_size = S_ISREG(st.st_mode);
   }
   size_t hlen = 0, preamble = 0, elsize = 0, rows = 0, cols = 0;
   Header h;
   void *data = NULL;
   if (readPreamble(f, path, &hlen, &preamble, err, errlen) && readHeader(f, path, hlen, &h, err, errlen) &&
       (elsize = elementSize(&h, path, err, errlen)) != 0 && shapeOf(&h, elsize, path, &rows, &cols, err, errlen)) {
      long long have = !know_size                                      ? -1
                       : (unsigned long long)st.st_size > preamble + hlen ? (long long)(st.st_size - (off_t)(preamble + hlen))
                                                                       : 0;
      data = readData(f, path, &h, elsize, rows * cols * elsize, have, err, errlen);
   }
   fclose(f);
   if (!data)
      return false;
   if (!hostIsLittleEndian())
      byteswap(data, rows * cols, elsize);
   if (h.fortran_order && h.ndim == 2 && rows > 1 && cols > 1) {
      void *rm = rowMajor(data, rows, cols, elsize);
      free(data);
      if (!rm) {
         setError(err, errlen, "%s: out of memory for %zu bytes", path, rows * cols * elsize);
         return false;
      }
      data = rm;
   }
   out->ndim = h.ndim;
   out->shape[0] = rows;
   out->shape[1] = cols;
   out->is_double = elsize == 8;
   out->is_half = elsize == 2;
   out->is_bytes = elsize == 1;
   out->data = data;
   return true;
}

/* ---------- writing ---------- */

bool Npy_writeTo(OutFile *f, const void *data, size_t rows, size_t cols, NpyType type, char *err, size_t errlen) {
   size_t elsize = type == NPY_FLOAT64 ? 8 : type == NPY_FLOAT16 ? 2 : type == NPY_UINT8 ? 1 : 4;
   if ((cols && rows > SIZE_MAX / cols) || (rows && cols && rows * cols > SIZE_MAX / elsize)) {
      setError(err, errlen, "array shape too large");
      OutFile_discard(f);
      return false;
   }
   size_t count = rows * cols, nbytes = count * elsize;
   if (count && !data) {
      setError(err, errlen, "no data to write");
      OutFile_discard(f);
      return false;
   }

   /* Header: dict, spaces, '\n'; the data starts at a multiple of 64 bytes. */
   char dict[160];
   int dl = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu), }",
                     elsize == 8 ? "<f8" : elsize == 2 ? "<f2" : elsize == 1 ? "|u1" : "<f4", rows, cols);
   if (dl < 0 || (size_t)dl >= sizeof dict) {
      setError(err, errlen, "cannot format the .npy header");
      OutFile_discard(f);
      return false;
   }
   size_t total = 10 + (size_t)dl + 1;
   total = (total + 63) / 64 * 64;
   size_t hlen = total - 10;
   unsigned char head[256];
   memcpy(head, NPY_MAGIC, NPY_MAGIC_LEN);
   head[6] = 1;
   head[7] = 0;
   head[8] = (unsigned char)(hlen & 0xff);
   head[9] = (unsigned char)(hlen >> 8);
   memcpy(head + 10, dict, (size_t)dl);
   memset(head + 10 + dl, ' ', total - 10 - (size_t)dl);
   head[total - 1] = '\n';

   /* Short writes leave the stream's error, which OutFile_commit reports. */
   FILE *out = OutFile_stream(f);
   fwrite(head, 1, total, out);
   if (hostIsLittleEndian()) {
      if (nbytes)
         fwrite(data, 1, nbytes, out);
   } else {
      /* swap through a bounded buffer */
      unsigned char buf[1 << 14];
      const unsigned char *src = data;
      for (size_t left = nbytes; left && !ferror(out);) {
         size_t n = left < sizeof buf ? left : sizeof buf;
         memcpy(buf, src, n);
         byteswap(buf, n / elsize, elsize);
         fwrite(buf, 1, n, out);
         src += n;
         left -= n;
      }
   }
   return OutFile_commit(f, err, errlen);
}

bool Npy_writeAs(const char *path, const void *data, size_t rows, size_t cols, NpyType type, char *err,
                 size_t errlen) {
   OutFile *f;
   if (OutFile_open(path, 0, &f, err, errlen) != OUTFILE_OK)
      return false;
   bool ok = Npy_writeTo(f, data, rows, cols, type, err, errlen);
   if (!ok && err && errlen && strncmp(err, path, strlen(path)) != 0) {
      char why[512];
      snprintf(why, sizeof why, "%s", err);
      setError(err, errlen, "%s: %s", path, why);
   }
   return ok;
}

bool Npy_write(const char *path, const void *data, size_t rows, size_t cols, bool is_double, char *err,
               size_t errlen) {
   return Npy_writeAs(path, data, rows, cols, is_double ? NPY_FLOAT64 : NPY_FLOAT32, err, errlen);
}

bool NpyArray_convert(NpyArray *a, bool to_double) {
   if (!a)
      return false;
   if (a->is_double == to_double && !a->is_half && !a->is_bytes)
      return true;
   size_t count = a->shape[0] * a->shape[1];
   if (count && !a->data)
      return false;
   void *nd = malloc(count ? count * (to_double ? sizeof(double) : sizeof(float)) : 1);
   if (!nd)
      return false;
   for (size_t i = 0; i < count; i++) {
      double v = NpyArray_at(a, i);
      if (to_double)
         ((double *)nd)[i] = v;
      else
         ((float *)nd)[i] = (float)v;
   }
   free(a->data);
   a->data = nd;
   a->is_double = to_double;
   a->is_half = a->is_bytes = false;
   return true;
}

double NpyArray_at(const NpyArray *a, size_t i) {
   if (a->is_half)
      return LowPrec_halfToFloat(((const uint16_t *)a->data)[i]);
   if (a->is_bytes)
      return ((const uint8_t *)a->data)[i];
   return a->is_double ? ((const double *)a->data)[i] : (double)((const float *)a->data)[i];
}

void NpyArray_free(NpyArray *a) {
   if (!a)
      return;
   free(a->data);
   memset(a, 0, sizeof *a);
}
