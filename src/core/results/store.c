/* The results store (store.h) on SQLite. Three rules shape this file:
 *  - Nothing is written to a file before it has been recognised as a gemmtop store of a
 *    schema this program knows and SQLite's quick_check passes: the header is read with
 *    plain read() first, and the store is opened read-write only after that.
 *  - A new store never appears half-made: it is built under a temporary name in the same
 *    folder, then linked into place (link() refuses to replace a file that another
 *    process made meanwhile, whose store is then used).
 *  - Every write is one BEGIN IMMEDIATE transaction, in WAL mode with a busy timeout, so
 *    that several processes may add records at once and none is lost. */
/* F_OFD_SETLK: a lock that belongs to its open file description, not to the process. */
#define _GNU_SOURCE
#include "core/results/store.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/sql.h"
#include "base/util.h"

#ifndef GEMMTOP_VERSION
#define GEMMTOP_VERSION "unknown"
#endif

/* "GMTP": PRAGMA application_id, so that another program's SQLite file is recognised. */
#define STORE_APPLICATION_ID 0x474d5450
/* Ten writers on two busy cores wait for each other: a generous wait before giving up. */
#define STORE_BUSY_MS 15000
/* Up to this size every page is checked on opening (PRAGMA quick_check). */
#define STORE_FULL_CHECK_BYTES (32ll << 20)

struct Store_ {
   sqlite3 *db;
   char path[1024];
};

/* ---- the schema: migration i takes a store from user_version i-1 to i ---- */

static const char *const migrations[STORE_SCHEMA_VERSION] = {
    /* 1: the results table and its indexes. Figures that are unknown are NULL. */
    "CREATE TABLE results ("
    " id INTEGER PRIMARY KEY,"
    " time INTEGER NOT NULL, origin TEXT NOT NULL, version TEXT NOT NULL,"
    " backend TEXT NOT NULL, device TEXT NOT NULL, driver TEXT NOT NULL, arch TEXT NOT NULL,"
    " kernel TEXT NOT NULL, kernel_hash TEXT NOT NULL, params TEXT NOT NULL,"
    " m INTEGER NOT NULL, n INTEGER NOT NULL, k INTEGER NOT NULL,"
    " precision TEXT NOT NULL, input_type TEXT NOT NULL, compute_type TEXT NOT NULL, output_type TEXT NOT NULL,"
    " layout TEXT NOT NULL, alpha REAL NOT NULL, beta REAL NOT NULL,"
    " outcome TEXT NOT NULL, reason TEXT NOT NULL,"
    " verified INTEGER NOT NULL, emulated INTEGER NOT NULL, cold_l2 INTEGER NOT NULL, reps INTEGER NOT NULL,"
    " median_ms REAL, min_ms REAL, max_ms REAL, spread_pct REAL, gflops REAL, compile_ms REAL, max_rel_err REAL,"
    " obs_known INTEGER NOT NULL, obs_source TEXT NOT NULL,"
    " sm_mhz REAL, sm_mhz_min REAL, sm_mhz_start REAL, mem_mhz REAL, power_w REAL, temp_c REAL,"
    " energy_j REAL, gflops_per_w REAL, throttled INTEGER NOT NULL, throttle_reason TEXT NOT NULL,"
    " sweep_key TEXT NOT NULL);"
    "CREATE INDEX results_sweep ON results(sweep_key) WHERE sweep_key <> '';"
    "CREATE INDEX results_kernel ON results(kernel, m, n, k);"
    "CREATE INDEX results_device ON results(device);"
    "CREATE INDEX results_time ON results(time);",
    /* 2: the FP8 types' scaling ("tensor", "block"; "" for the types without scales). */
    "ALTER TABLE results ADD COLUMN scaling TEXT NOT NULL DEFAULT '';",
    /* 3: who asked for it, on a shared server (gemmtop serve: the roster's name); "" elsewhere. */
    "ALTER TABLE results ADD COLUMN user TEXT NOT NULL DEFAULT '';",
};

/* The columns in insert order (the id is the row's own). */
static const char insertSql[] =
    "INSERT INTO results (time, origin, version, backend, device, driver, arch, kernel, kernel_hash, params,"
    " m, n, k, precision, input_type, compute_type, output_type, layout, alpha, beta, outcome, reason,"
    " verified, emulated, cold_l2, reps, median_ms, min_ms, max_ms, spread_pct, gflops, compile_ms, max_rel_err,"
    " obs_known, obs_source, sm_mhz, sm_mhz_min, sm_mhz_start, mem_mhz, power_w, temp_c, energy_j, gflops_per_w,"
     " throttled, throttle_reason, sweep_key, scaling, user) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
    "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

#define SELECT_COLUMNS                                                                                             \
   "SELECT id, time, origin, version, backend, device, driver, arch, kernel, kernel_hash, params,"                \
   " m, n, k, precision, layout, alpha, beta, outcome, reason, verified, emulated, cold_l2, reps,"                \
   " median_ms, min_ms, max_ms, spread_pct, gflops, compile_ms, max_rel_err, obs_known, obs_source, sm_mhz,"      \
   " sm_mhz_min, sm_mhz_start, mem_mhz, power_w, temp_c, energy_j, gflops_per_w, throttled, throttle_reason,"    \
   " sweep_key, "
static const char selectSql[] = SELECT_COLUMNS "scaling, user FROM results";
/* Stores of schemas 1 and 2 (salvaged as they are, never migrated) lack the later columns. */
static const char selectSqlV1[] = SELECT_COLUMNS "'', '' FROM results";
static const char selectSqlV2[] = SELECT_COLUMNS "scaling, '' FROM results";

/* ---- records ---- */

void StoreRecord_init(StoreRecord *r, const char *origin) {
   memset(r, 0, sizeof *r);
   r->time = (long long)time(NULL);
   Util_copy(r->origin, sizeof r->origin, origin ? origin : "");
   Util_copy(r->version, sizeof r->version, GEMMTOP_VERSION);
   Problem_setDefaults(&r->problem);
   r->median_ms = r->min_ms = r->max_ms = r->spread_pct = NAN;
   r->gflops = r->compile_ms = r->max_rel_err = NAN;
   Observation_clear(&r->obs);
}

void StoreFilter_init(StoreFilter *f) {
   memset(f, 0, sizeof *f);
   f->precision = -1;
}

/* ---- opening ---- */

bool Store_defaultPath(char *out, size_t outlen) {
   const char *env = getenv("GEMMTOP_STORE");
   const char *xdg = getenv("XDG_DATA_HOME");
   const char *home = getenv("HOME");
   int n;
   if (env && *env)
      n = snprintf(out, outlen, "%s", env);
   else if (xdg && *xdg)
      n = snprintf(out, outlen, "%s/gemmtop/results.db", xdg);
   else if (home && *home)
      n = snprintf(out, outlen, "%s/.local/share/gemmtop/results.db", home);
   else
      return false;
   return n > 0 && (size_t)n < outlen;
}

static unsigned long readBig32(const unsigned char *p) {
   return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

/* The advice every refusal ends with. */
#define STORE_ELSEWHERE "give another file with --store FILE (or --no-store)"

/* What a failed SQLite call means for the store, in words and with advice: a full disk, a
 * place this user may not write, a lock held too long and an I/O error are not a corrupt
 * store, and following a corrupt store's advice would move a healthy one away. */
static void folderOf(const char *path, char *dir, size_t len);

/* Why this user may not write the store or make its -wal and -shm beside it: an errno, or 0. */
static int notWritable(const char *path) {
   char dir[1024];
   folderOf(path, dir, sizeof dir);
   if (access(path, W_OK) != 0 && errno != ENOENT)
      return errno;
   return access(dir, W_OK) != 0 ? errno : 0;
}

static void describe(sqlite3 *db, int rc, const char *path, char *err, size_t errlen) {
   int sys = db ? sqlite3_system_errno(db) : 0;
   const char *what = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
   int primary = rc & 0xff;
   /* SQLite's errno may be a later call's: a place this user may not write says so itself. */
   int denied = primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY || primary == SQLITE_PERM ||
                        primary == SQLITE_IOERR ? notWritable(path) : 0;
   if (denied)
      sys = denied, primary = SQLITE_READONLY;
   if (primary == SQLITE_FULL || sys == ENOSPC || sys == EDQUOT)
      snprintf(err, errlen,
               "results store %s: the disk that holds it is full (%s); nothing in it was lost: free some space, "
               "or %s",
               path, sys ? strerror(sys) : what, STORE_ELSEWHERE);
   else if (primary == SQLITE_READONLY || primary == SQLITE_PERM || sys == EROFS || sys == EACCES || sys == EPERM)
      snprintf(err, errlen,
               "results store %s cannot be written by this user here (%s): results are not recorded in it (reading "
               "it works: gemmtop results list --store %s); %s",
               path, sys ? strerror(sys) : what, path, STORE_ELSEWHERE);
   else if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
      snprintf(err, errlen,
               "results store %s stayed locked by another process for %d s (%s); nothing was written: run again "
               "when it is done, or %s",
               path, STORE_BUSY_MS / 1000, what, STORE_ELSEWHERE);
   else if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB)
      snprintf(err, errlen,
               "results store %s is corrupt (%s); it was left as it is. Its readable rows can be saved into a new "
               "store with: gemmtop results import %s --store NEW.db; or %s",
               path, what, path, STORE_ELSEWHERE);
   else if (primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN)
      snprintf(err, errlen,
               "results store %s cannot be %s (%s%s%s); it was left as it is: check the disk and the file, or %s",
               path, primary == SQLITE_CANTOPEN ? "opened" : "read or written (an I/O error)", what,
               sys ? ": " : "", sys ? strerror(sys) : "", STORE_ELSEWHERE);
   else
      snprintf(err, errlen, "results store %s: %s", path, what);
}

typedef enum { HEADER_NEW, HEADER_STORE, HEADER_REFUSED } HeaderVerdict;

/* The file's first 100 bytes (SQLite's header), read through SQLite's own file layer and
 * never with open()/close(): closing any descriptor of a file drops every POSIX lock this
 * process holds on it, a connection of this process (the explorer has two) among them, and
 * another process would then take itself for the last one, checkpoint and delete the WAL
 * that connection still writes to. SQLite's layer keeps such a descriptor open until the
 * process's last lock on the file is gone. Returns the bytes read, or -1 with err set. */
static int readHeader(const char *path, unsigned char h[100], char *err, size_t errlen) {
   sqlite3 *db = NULL;
   int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
   sqlite3_file *file = NULL;
   if (rc == SQLITE_OK)
      rc = sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file);
   if (rc != SQLITE_OK || !file || !file->pMethods) {
      int sys = db ? sqlite3_system_errno(db) : 0;
      snprintf(err, errlen, "results store %s: cannot read it: %s", path,
               sys ? strerror(sys) : db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
      sqlite3_close(db);
      return -1;
   }
   sqlite3_int64 size = 0;
   int got = 100;
   if (file->pMethods->xFileSize(file, &size) == SQLITE_OK && size < 100)
      got = (int)size;
   memset(h, 0, 100);
   rc = got > 0 ? file->pMethods->xRead(file, h, got, 0) : SQLITE_OK;
   sqlite3_close(db);
   if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) {
      describe(NULL, rc, path, err, errlen);
      return -1;
   }
   return got;
}

/* Recognises the file before anything could write to it. HEADER_NEW: absent or empty. */
static HeaderVerdict checkHeader(const char *path, char *err, size_t errlen) {
   struct stat st;
   if (stat(path, &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR)
         return HEADER_NEW; /* the folder, or the file, is made (or said why not) */
      snprintf(err, errlen, "results store %s: cannot read it: %s", path, strerror(errno));
      return HEADER_REFUSED;
   }
   if (S_ISDIR(st.st_mode)) {
      snprintf(err, errlen, "results store %s is a folder; give a file (e.g. %s/results.db)", path, path);
      return HEADER_REFUSED;
   }
   if (!S_ISREG(st.st_mode)) {
      /* A FIFO would block the open, a device would be read without end. */
      snprintf(err, errlen, "results store %s is not a regular file (a %s); it was left as it is: %s", path,
               Util_fileKind(st.st_mode), STORE_ELSEWHERE);
      return HEADER_REFUSED;
   }
   if (st.st_size == 0)
      return HEADER_NEW;
   unsigned char h[100];
   int got = readHeader(path, h, err, errlen);
   if (got < 0)
      return HEADER_REFUSED;
   if (got < (int)sizeof h || memcmp(h, "SQLite format 3", 16) != 0) {
      snprintf(err, errlen,
               "results store %s is not a SQLite file (corrupt, or another program's); it was left as it is: move it "
               "away, or %s",
               path, STORE_ELSEWHERE);
      return HEADER_REFUSED;
   }
   unsigned long app = readBig32(h + 68), version = readBig32(h + 60);
   if (app != STORE_APPLICATION_ID) {
      snprintf(err, errlen,
               "results store %s is a SQLite database but not a gemmtop store (application_id %#lx, a store's is "
               "%#x); it was left as it is: %s",
               path, app, STORE_APPLICATION_ID, STORE_ELSEWHERE);
      return HEADER_REFUSED;
   }
   if (version > STORE_SCHEMA_VERSION) {
      snprintf(err, errlen,
               "results store %s has schema version %lu, newer than this gemmtop (%s) knows (%d): it was left as it "
               "is; use a newer gemmtop, or %s",
               path, version, GEMMTOP_VERSION, STORE_SCHEMA_VERSION, STORE_ELSEWHERE);
      return HEADER_REFUSED;
   }
   return HEADER_STORE;
}

static bool exec(sqlite3 *db, const char *sql, const char *path, char *err, size_t errlen) {
   int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
   if (rc == SQLITE_OK)
      return true;
   describe(db, sqlite3_extended_errcode(db), path, err, errlen);
   return false;
}

/* Brings the schema from user_version to STORE_SCHEMA_VERSION in one transaction (a
 * process that got there first leaves nothing to do). */
static bool migrate(sqlite3 *db, const char *path, char *err, size_t errlen) {
   if (!exec(db, "BEGIN IMMEDIATE", path, err, errlen))
      return false;
   long long have = Sql_number(db, "PRAGMA user_version");
   bool ok = have >= 0 && exec(db,
                               "CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, time INTEGER NOT "
                               "NULL, gemmtop TEXT NOT NULL)",
                               path, err, errlen);
   if (have < 0)
      describe(db, sqlite3_extended_errcode(db), path, err, errlen);
   for (long long v = have + 1; ok && v <= STORE_SCHEMA_VERSION; v++) {
      char sql[256];
      ok = exec(db, migrations[v - 1], path, err, errlen);
      snprintf(sql, sizeof sql,
               "INSERT INTO migrations VALUES (%lld, %lld, '%s'); PRAGMA user_version = %lld; "
               "PRAGMA application_id = %d",
               v, (long long)time(NULL), GEMMTOP_VERSION, v, STORE_APPLICATION_ID);
      ok = ok && exec(db, sql, path, err, errlen);
   }
   if (ok && exec(db, "COMMIT", path, err, errlen))
      return true;
   sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
   return false;
}

/* Opens name (a path, or a "file:" URI) for the store at path (named in messages). */
static sqlite3 *openNamed(const char *name, const char *path, int flags, char *err, size_t errlen) {
   sqlite3 *db = NULL;
   int rc = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, NULL);
   if (rc != SQLITE_OK) {
      describe(db, rc, path, err, errlen);
      sqlite3_close(db);
      return NULL;
   }
   sqlite3_busy_timeout(db, STORE_BUSY_MS);
   return db;
}

static sqlite3 *openDb(const char *path, int flags, char *err, size_t errlen) {
   return openNamed(path, path, flags, err, errlen);
}

static void folderOf(const char *path, char *dir, size_t len) {
   Util_copy(dir, len, path);
   char *slash = strrchr(dir, '/');
   if (!slash)
      Util_copy(dir, len, ".");
   else if (slash == dir)
      dir[1] = '\0';
   else
      *slash = '\0';
}

/* Makes a new store at path: built under a temporary name, then linked into place. A
 * store that another process linked there first is kept (and used). */
static bool create(const char *path, char *err, size_t errlen) {
   char dir[1024], tmp[1100];
   folderOf(path, dir, sizeof dir);
   errno = 0;
   struct stat st;
   bool made = Util_mkdirs(dir);
   if (!made || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
      snprintf(err, errlen, "results store %s: cannot create the folder %s: %s", path, dir,
               made ? "a file of that name is in the way" : strerror(errno));
      return false;
   }
   snprintf(tmp, sizeof tmp, "%s.new-%ld", path, (long)getpid());
   unlink(tmp);
   sqlite3 *db = openDb(tmp, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err, errlen);
   bool ok = db && migrate(db, path, err, errlen) && exec(db, "PRAGMA journal_mode = WAL", path, err, errlen);
   if (db && sqlite3_close(db) != SQLITE_OK)
      ok = false;
   if (!db && access(dir, W_OK) != 0)
      snprintf(err, errlen, "results store %s: the folder %s is not writable: %s", path, dir, strerror(errno));
   if (ok && link(tmp, path) != 0 && errno != EEXIST) {
      /* No hard links here (some shared file systems): a rename, when no store came meanwhile. */
      if (access(path, F_OK) == 0 || rename(tmp, path) != 0) {
         ok = access(path, F_OK) == 0;
         if (!ok)
            snprintf(err, errlen, "results store %s: cannot create it: %s", path, strerror(errno));
      }
   }
   unlink(tmp);
   return ok;
}

/* A store that passed the header check: quick_check, application_id and user_version
 * read through SQLite (a WAL may hold a newer header), then, to write, migrated and put in
 * WAL mode. */
static bool checkOpened(sqlite3 *db, const char *path, bool writing, char *err, size_t errlen) {
   /* quick_check reads every page: for a large store (a quarter of a second at this size)
    * the schema and the last page of the results (where a cut file ends, and where a
    * record is added) are read instead. */
   struct stat fst;
   bool whole = stat(path, &fst) != 0 || fst.st_size <= STORE_FULL_CHECK_BYTES;
   sqlite3_stmt *st = NULL;
   int rc = sqlite3_prepare_v2(db,
                               whole ? "PRAGMA quick_check"
                                     : "SELECT 'ok' FROM (SELECT max(id) FROM results)",
                               -1, &st, NULL);
   const char *verdict = NULL;
   if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
      verdict = (const char *)sqlite3_column_text(st, 0);
   if (!verdict) {
      /* The check could not run: a full disk, a lock, a read-only place, or damage. */
      describe(db, sqlite3_extended_errcode(db), path, err, errlen);
      sqlite3_finalize(st);
      return false;
   }
   if (strcmp(verdict, "ok") != 0) {
      char why[256];
      Util_copy(why, sizeof why, verdict);
      sqlite3_finalize(st);
      snprintf(err, errlen,
               "results store %s is corrupt (%s); it was left as it is. Its readable rows can be saved into a new "
               "store with: gemmtop results import %s --store NEW.db; or %s",
               path, why, path, STORE_ELSEWHERE);
      return false;
   }
   sqlite3_finalize(st);
   long long app = Sql_number(db, "PRAGMA application_id"), version = Sql_number(db, "PRAGMA user_version");
   if (app != STORE_APPLICATION_ID) {
      snprintf(err, errlen, "results store %s is not a gemmtop store (application_id %#llx); it was left as it is",
               path, (unsigned long long)app);
      return false;
   }
   if (version > STORE_SCHEMA_VERSION) {
      snprintf(err, errlen,
               "results store %s has schema version %lld, newer than this gemmtop (%s) knows (%d): it was left as it "
               "is; use a newer gemmtop, or %s",
               path, version, GEMMTOP_VERSION, STORE_SCHEMA_VERSION, STORE_ELSEWHERE);
      return false;
   }
   if (!writing) {
      if (version < STORE_SCHEMA_VERSION) {
         snprintf(err, errlen,
                  "results store %s has schema version %lld and is read-only here: a gemmtop that may write to it "
                  "brings it to version %d",
                  path, version, STORE_SCHEMA_VERSION);
         return false;
      }
      return true;
   }
   if (version < STORE_SCHEMA_VERSION && !migrate(db, path, err, errlen))
      return false;
   long long wal = Sql_number(db, "SELECT journal_mode = 'wal' FROM pragma_journal_mode");
   /* In WAL mode NORMAL loses nothing when a process is killed (only a power cut may take
    * the last commits), and a commit costs no fsync: the explorer's worker records with
    * the UI waiting on its lock. */
   return (wal == 1 || exec(db, "PRAGMA journal_mode = WAL", path, err, errlen)) &&
          exec(db, "PRAGMA synchronous = NORMAL", path, err, errlen);
}

/* The path of the default store when path is NULL; false with err set when there is none. */
static const char *resolvePath(const char *path, char def[1024], char *err, size_t errlen) {
   if (path)
      return path;
   if (!Store_defaultPath(def, 1024)) {
      snprintf(err, errlen, "no place for the results store: set HOME, XDG_DATA_HOME or GEMMTOP_STORE");
      return NULL;
   }
   return def;
}

static Store *newStore(const char *path, char *err, size_t errlen) {
   Store *s = calloc(1, sizeof *s);
   if (!s)
      snprintf(err, errlen, "out of host memory");
   else
      Util_copy(s->path, sizeof s->path, path);
   return s;
}

Store *Store_open(const char *path, char *err, size_t errlen) {
   char def[1024];
   if (!(path = resolvePath(path, def, err, errlen)))
      return NULL;
   HeaderVerdict v = checkHeader(path, err, errlen);
   /* Twice: an empty file may appear where a new store was being linked. */
   for (int tries = 0; v == HEADER_NEW && tries < 2; tries++) {
      struct stat st;
      /* An empty file (touched) holds nothing: it is made a store in place. */
      bool empty = stat(path, &st) == 0;
      if (!empty && !create(path, err, errlen))
         return NULL;
      if (empty) {
         sqlite3 *db = openDb(path, SQLITE_OPEN_READWRITE, err, errlen);
         bool ok = db && migrate(db, path, err, errlen);
         sqlite3_close(db);
         if (!ok)
            return NULL;
      }
      v = checkHeader(path, err, errlen);
   }
   if (v != HEADER_STORE) {
      if (v == HEADER_NEW)
         snprintf(err, errlen, "results store %s: cannot create it: it stays empty", path);
      return NULL;
   }
   Store *s = newStore(path, err, errlen);
   if (!s)
      return NULL;
   s->db = openDb(path, SQLITE_OPEN_READWRITE, err, errlen);
   /* SQLite falls back to reading a file this user may not write: said here, not at the
    * first record. */
   if (s->db && sqlite3_db_readonly(s->db, "main") == 1) {
      describe(s->db, SQLITE_READONLY, path, err, errlen);
      Store_close(s);
      return NULL;
   }
   if (!s->db || !checkOpened(s->db, path, true, err, errlen)) {
      Store_close(s);
      return NULL;
   }
   return s;
}

/* Whether a -wal with frames is beside the store. With none (or an empty one, which a
 * writer that failed on a full disk leaves), the file alone holds every committed row. */
static bool hasWal(const char *path) {
   char wal[1100];
   struct stat st;
   snprintf(wal, sizeof wal, "%s-wal", path);
   return stat(wal, &st) == 0 && st.st_size > 0;
}

/* A URI for path ("file:" with the characters a URI reserves escaped), with the query q. */
static void fileUri(const char *path, const char *q, char *out, size_t len) {
   size_t n = (size_t)snprintf(out, len, "file:");
   for (const unsigned char *c = (const unsigned char *)path; *c && n + 4 < len; c++)
      n += (size_t)(strchr("?#%", *c) || *c < 0x20 || *c >= 0x7f
                        ? snprintf(out + n, len - n, "%%%02X", *c)
                        : snprintf(out + n, len - n, "%c", *c));
   snprintf(out + n, len - n, "?%s", q);
}

/* Opens path to read only, through a URI with query q. */
static sqlite3 *openReading(const char *path, const char *q, char *err, size_t errlen) {
   char uri[3200];
   fileUri(path, q, uri, sizeof uri);
   sqlite3 *db = openNamed(uri, path, SQLITE_OPEN_READONLY, err, errlen);
   if (db && !checkOpened(db, path, false, err, errlen)) {
      sqlite3_close(db);
      db = NULL;
   }
   return db;
}

Store *Store_openReadOnly(const char *path, char *err, size_t errlen) {
   char def[1024];
   if (!(path = resolvePath(path, def, err, errlen)))
      return NULL;
   HeaderVerdict v = checkHeader(path, err, errlen);
   if (v == HEADER_NEW) {
      snprintf(err, errlen, "results store %s: %s", path, access(path, F_OK) == 0 ? "it is empty" : "no such file");
      return NULL;
   }
   if (v != HEADER_STORE)
      return NULL;
   Store *s = newStore(path, err, errlen);
   if (!s)
      return NULL;
   s->db = openReading(path, "mode=ro", err, errlen);
   /* SQLite reads a WAL-mode file only where it can open or make its -shm: not in a folder
    * this user may not write, nor on a full disk. With no frames in a -wal the file holds
    * every committed row and nobody is in the middle of a write, so it is read as
    * immutable (a writer that starts meanwhile may add rows this reading does not see). */
   char first[1024];
   Util_copy(first, sizeof first, err);
   if (!s->db && !hasWal(path) && !strstr(err, "corrupt") && !(s->db = openReading(path, "mode=ro&immutable=1", err, errlen)))
      Util_copy(err, errlen, first);
   if (!s->db) {
      Store_close(s);
      return NULL;
   }
   return s;
}

void Store_close(Store *s) {
   if (!s)
      return;
   sqlite3_close(s->db);
   free(s);
}

const char *Store_path(const Store *s) { return s->path; }

/* ---- adding ---- */

static void bindRecord(sqlite3_stmt *st, const StoreRecord *r) {
   const Problem *p = &r->problem;
   const Observation *o = &r->obs;
   char layout[3];
   Problem_layoutName(p, layout);
   int i = 1;
   sqlite3_bind_int64(st, i++, r->time);
   const char *texts[] = {r->origin, r->version, r->backend, r->device, r->driver, r->arch, r->kernel, r->kernel_hash,
                          r->params};
   for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
      sqlite3_bind_text(st, i++, texts[t], -1, SQLITE_TRANSIENT);
   sqlite3_bind_int(st, i++, p->m);
   sqlite3_bind_int(st, i++, p->n);
   sqlite3_bind_int(st, i++, p->k);
   sqlite3_bind_text(st, i++, Precision_name(p->precision), -1, SQLITE_STATIC);
   sqlite3_bind_text(st, i++, Precision_inputType(p->precision), -1, SQLITE_STATIC);
   sqlite3_bind_text(st, i++, Precision_computeType(p->precision), -1, SQLITE_STATIC);
   sqlite3_bind_text(st, i++, Precision_outputType(p->precision), -1, SQLITE_STATIC);
   sqlite3_bind_text(st, i++, layout, 2, SQLITE_TRANSIENT);
   sqlite3_bind_double(st, i++, p->alpha);
   sqlite3_bind_double(st, i++, p->beta);
   sqlite3_bind_text(st, i++, r->outcome, -1, SQLITE_TRANSIENT);
   sqlite3_bind_text(st, i++, r->reason, -1, SQLITE_TRANSIENT);
   sqlite3_bind_int(st, i++, r->verified);
   sqlite3_bind_int(st, i++, r->emulated);
   sqlite3_bind_int(st, i++, r->cold_l2);
   sqlite3_bind_int(st, i++, r->reps);
   const double figures[] = {r->median_ms, r->min_ms, r->max_ms, r->spread_pct, r->gflops, r->compile_ms,
                             r->max_rel_err};
   for (size_t f = 0; f < sizeof figures / sizeof figures[0]; f++)
      Sql_bindReal(st, i++, figures[f]);
   sqlite3_bind_int(st, i++, o->known);
   sqlite3_bind_text(st, i++, o->source, -1, SQLITE_TRANSIENT);
   const double seen[] = {o->sm_mhz, o->sm_mhz_min, o->sm_mhz_start, o->mem_mhz, o->power_w, o->temp_c, o->energy_j,
                          o->gflops_per_w};
   for (size_t f = 0; f < sizeof seen / sizeof seen[0]; f++)
      Sql_bindReal(st, i++, seen[f]);
   sqlite3_bind_int(st, i++, o->throttled);
   sqlite3_bind_text(st, i++, o->throttle_reason, -1, SQLITE_TRANSIENT);
   sqlite3_bind_text(st, i++, r->sweep_key, -1, SQLITE_TRANSIENT);
   sqlite3_bind_text(st, i++, Problem_scaled(p) ? Scaling_name(p->scaling) : "", -1, SQLITE_STATIC);
   sqlite3_bind_text(st, i++, r->user, -1, SQLITE_TRANSIENT);
}

struct StoreBatch_ {
   Store *s;
   sqlite3_stmt *insert;
   long long added;
};

StoreBatch *Store_begin(Store *s, char *err, size_t errlen) {
   StoreBatch *b = calloc(1, sizeof *b);
   if (!b) {
      snprintf(err, errlen, "out of host memory");
      return NULL;
   }
   b->s = s;
   if (!exec(s->db, "BEGIN IMMEDIATE", s->path, err, errlen)) {
      free(b);
      return NULL;
   }
   if (sqlite3_prepare_v2(s->db, insertSql, -1, &b->insert, NULL) != SQLITE_OK) {
      describe(s->db, sqlite3_extended_errcode(s->db), s->path, err, errlen);
      sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
      free(b);
      return NULL;
   }
   return b;
}

bool Store_batchAdd(StoreBatch *b, StoreRecord *r, char *err, size_t errlen) {
   sqlite3_reset(b->insert);
   bindRecord(b->insert, r);
   if (sqlite3_step(b->insert) != SQLITE_DONE) {
      describe(b->s->db, sqlite3_extended_errcode(b->s->db), b->s->path, err, errlen);
      r->id = 0;
      return false;
   }
   r->id = sqlite3_last_insert_rowid(b->s->db);
   b->added++;
   return true;
}

bool Store_end(StoreBatch *b, bool commit, char *err, size_t errlen) {
   if (!b)
      return false;
   sqlite3_finalize(b->insert);
   bool ok = commit && exec(b->s->db, "COMMIT", b->s->path, err, errlen);
   if (!ok)
      sqlite3_exec(b->s->db, "ROLLBACK", NULL, NULL, NULL);
   free(b);
   return ok;
}

bool Store_add(Store *s, StoreRecord *r, int n, char *err, size_t errlen) {
   StoreBatch *b = Store_begin(s, err, errlen);
   bool ok = b != NULL;
   for (int i = 0; ok && i < n; i++)
      ok = Store_batchAdd(b, &r[i], err, errlen);
   if (Store_end(b, ok, err, errlen))
      return true;
   for (int i = 0; i < n; i++)
      r[i].id = 0;
   return false;
}

/* ---- reading ---- */

static void readRecord(sqlite3_stmt *st, StoreRecord *r) {
   StoreRecord_init(r, "");
   int i = 0;
   r->id = sqlite3_column_int64(st, i++);
   r->time = sqlite3_column_int64(st, i++);
   struct {
      char *out;
      size_t len;
   } texts[] = {{r->origin, sizeof r->origin}, {r->version, sizeof r->version},   {r->backend, sizeof r->backend},
                {r->device, sizeof r->device}, {r->driver, sizeof r->driver},     {r->arch, sizeof r->arch},
                {r->kernel, sizeof r->kernel}, {r->kernel_hash, sizeof r->kernel_hash}, {r->params, sizeof r->params}};
   for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
      Sql_text(st, i++, texts[t].out, texts[t].len);
   Problem *p = &r->problem;
   p->m = sqlite3_column_int(st, i++);
   p->n = sqlite3_column_int(st, i++);
   p->k = sqlite3_column_int(st, i++);
   const char *prec = (const char *)sqlite3_column_text(st, i++);
   if (!prec || !Precision_parse(prec, &p->precision))
      p->precision = PRECISION_FLOAT;
   const char *layout = (const char *)sqlite3_column_text(st, i++);
   if (layout)
      Problem_parseLayout(p, layout);
   p->alpha = sqlite3_column_double(st, i++);
   p->beta = sqlite3_column_double(st, i++);
   Sql_text(st, i++, r->outcome, sizeof r->outcome);
   Sql_text(st, i++, r->reason, sizeof r->reason);
   r->verified = sqlite3_column_int(st, i++) != 0;
   r->emulated = sqlite3_column_int(st, i++) != 0;
   r->cold_l2 = sqlite3_column_int(st, i++) != 0;
   r->reps = sqlite3_column_int(st, i++);
   double *figures[] = {&r->median_ms, &r->min_ms, &r->max_ms, &r->spread_pct, &r->gflops, &r->compile_ms,
                        &r->max_rel_err};
   for (size_t f = 0; f < sizeof figures / sizeof figures[0]; f++)
      *figures[f] = Sql_real(st, i++);
   Observation *o = &r->obs;
   o->known = sqlite3_column_int(st, i++) != 0;
   Sql_text(st, i++, o->source, sizeof o->source);
   double *seen[] = {&o->sm_mhz, &o->sm_mhz_min, &o->sm_mhz_start, &o->mem_mhz, &o->power_w, &o->temp_c,
                     &o->energy_j, &o->gflops_per_w};
   for (size_t f = 0; f < sizeof seen / sizeof seen[0]; f++)
      *seen[f] = Sql_real(st, i++);
   o->throttled = sqlite3_column_int(st, i++) != 0;
   Sql_text(st, i++, o->throttle_reason, sizeof o->throttle_reason);
   Sql_text(st, i++, r->sweep_key, sizeof r->sweep_key);
   const char *scaling = (const char *)sqlite3_column_text(st, i++);
   if (!scaling || !Scaling_parse(scaling, &p->scaling))
      p->scaling = SCALING_TENSOR;
   Sql_text(st, i++, r->user, sizeof r->user);
}

/* The WHERE clause of f, its parameters bound in the same order by bindFilter. */
static void filterSql(const StoreFilter *f, char *sql, size_t len) {
   snprintf(sql, len, "%s WHERE 1", selectSql);
   struct {
      bool on;
      const char *clause;
   } parts[] = {
       {f->device != NULL, " AND instr(lower(device), lower(?)) > 0"},
       {f->kernel != NULL, " AND kernel = ?"},
       {f->origin != NULL, " AND origin = ?"},
       {f->sweep_key != NULL, " AND sweep_key = ?"},
       {f->user != NULL, " AND user = ?"},
       {f->m > 0, " AND m = ?"},
       {f->n > 0, " AND n = ?"},
       {f->k > 0, " AND k = ?"},
       {f->precision >= 0, " AND precision = ?"},
       {f->since > 0, " AND time >= ?"},
       {f->until > 0, " AND time <= ?"},
       {f->ok_only, " AND verified = 1 AND emulated = 0"},
   };
   for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
      if (parts[i].on)
         strncat(sql, parts[i].clause, len - strlen(sql) - 1);
   strncat(sql, " ORDER BY id", len - strlen(sql) - 1);
}

static void bindFilter(sqlite3_stmt *st, const StoreFilter *f) {
   int i = 1;
   const char *texts[] = {f->device, f->kernel, f->origin, f->sweep_key, f->user};
   for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
      if (texts[t])
         sqlite3_bind_text(st, i++, texts[t], -1, SQLITE_TRANSIENT);
   const int sizes[] = {f->m, f->n, f->k};
   for (size_t t = 0; t < 3; t++)
      if (sizes[t] > 0)
         sqlite3_bind_int(st, i++, sizes[t]);
   if (f->precision >= 0)
      sqlite3_bind_text(st, i++, Precision_name((Precision)f->precision), -1, SQLITE_STATIC);
   if (f->since > 0)
      sqlite3_bind_int64(st, i++, f->since);
   if (f->until > 0)
      sqlite3_bind_int64(st, i++, f->until);
}

bool Store_query(Store *s, const StoreFilter *f, StoreRowFn fn, void *ctx, char *err, size_t errlen) {
   StoreFilter any;
   if (!f) {
      StoreFilter_init(&any);
      f = &any;
   }
   char sql[2048];
   filterSql(f, sql, sizeof sql);
   sqlite3_stmt *st = NULL;
   if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
      describe(s->db, sqlite3_extended_errcode(s->db), s->path, err, errlen);
      return false;
   }
   bindFilter(st, f);
   StoreRecord *r = malloc(sizeof *r);
   int rc = SQLITE_NOMEM;
   while (r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
      readRecord(st, r);
      if (!fn(r, ctx)) {
         rc = SQLITE_DONE;
         break;
      }
   }
   bool ok = rc == SQLITE_DONE;
   if (!ok && r)
      describe(s->db, sqlite3_extended_errcode(s->db), s->path, err, errlen);
   else if (!ok)
      snprintf(err, errlen, "out of host memory");
   free(r);
   sqlite3_finalize(st);
   return ok;
}

/* ---- salvage ---- */

/* Steps st (rows with id >= from, in id order) once. */
static int seek(sqlite3_stmt *st, long long from) {
   sqlite3_reset(st);
   sqlite3_bind_int64(st, 1, from);
   return sqlite3_step(st);
}

/* After a failed read at from: the smallest id past it from which reading works again
 * (a damaged page holds a run of ids; the search brackets it, then halves the bracket),
 * or -1 when nothing past it can be read. */
static long long readableAfter(sqlite3_stmt *st, long long from) {
   long long lo = from, hi = -1;
   for (long long jump = 1; jump > 0 && jump <= (1ll << 50); jump *= 2) {
      int rc = seek(st, from + jump);
      if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
         hi = from + jump;
         break;
      }
      lo = from + jump;
   }
   if (hi < 0)
      return -1;
   while (hi - lo > 1) {
      long long mid = lo + (hi - lo) / 2;
      int rc = seek(st, mid);
      if (rc == SQLITE_ROW || rc == SQLITE_DONE)
         hi = mid;
      else
         lo = mid;
   }
   return hi;
}

bool Store_salvage(const char *path, StoreRowFn fn, void *ctx, StoreSalvage *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   if (checkHeader(path, err, errlen) != HEADER_STORE)
      return false;
   char uri[3200];
   /* A damaged store is only read: with no -wal, as immutable (no -shm is made beside it). */
   fileUri(path, hasWal(path) ? "mode=ro" : "mode=ro&immutable=1", uri, sizeof uri);
   sqlite3 *db = openNamed(uri, path, SQLITE_OPEN_READONLY, err, errlen);
   if (!db)
      return false;
   char sql[sizeof selectSql + 64];
   long long version = Sql_number(db, "PRAGMA user_version");
   snprintf(sql, sizeof sql, "%s WHERE id >= ? ORDER BY id",
            version < 2 ? selectSqlV1 : version < 3 ? selectSqlV2 : selectSql);
   sqlite3_stmt *st = NULL;
   if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
      snprintf(err, errlen, "results store %s: its table of results cannot be read (%s): no row can be saved from it",
               path, sqlite3_errmsg(db));
      sqlite3_close(db);
      return false;
   }
   StoreRecord *r = malloc(sizeof *r);
   long long from = LLONG_MIN / 2;
   bool stopped = !r;
   int rc = r ? seek(st, from) : SQLITE_NOMEM;
   while (!stopped && rc != SQLITE_DONE) {
      if (rc == SQLITE_ROW) {
         readRecord(st, r);
         out->saved++;
         from = r->id + 1;
         stopped = !fn(r, ctx);
         rc = stopped ? SQLITE_DONE : sqlite3_step(st);
         continue;
      }
      if (rc == SQLITE_NOMEM)
         break;
      out->damaged++;
      from = readableAfter(st, from);
      if (from < 0)
         break;
      rc = seek(st, from);
   }
   if (!r)
      snprintf(err, errlen, "out of host memory");
   free(r);
   sqlite3_finalize(st);
   sqlite3_close(db);
   return r != NULL && rc != SQLITE_NOMEM;
}

/* ---- sweeps running ---- */

int Store_sweepBegin(const Store *s, const char *key, bool *another) {
   *another = false;
   char path[1100];
   snprintf(path, sizeof path, "%s.sweeps", s->path);
   /* Not the store: a file of its own (closing it never touches the store's locks). */
   int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
   if (fd < 0)
      return -1; /* a place this user may not write: nothing is recorded there either */
   unsigned long long h = Util_hash(UTIL_HASH_INIT, key, strlen(key));
   struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = (off_t)(h % (1ull << 40)), .l_len = 1};
   if (fcntl(fd, F_OFD_SETLK, &lk) == 0)
      return fd;
   *another = errno == EAGAIN || errno == EACCES;
   close(fd);
   return -1;
}

void Store_sweepEnd(int handle) {
   if (handle >= 0)
      close(handle);
}

/* ---- the sweep key ---- */

void Store_sweepKey(const char *device, const char *backend, const char *compiler, const char *kernel_hash,
                    const Problem *p, const long long *base, int nparams, unsigned free_mask, bool cold_l2,
                    char out[33]) {
   /* Two FNV-1a 64 hashes (different starts) of one canonical text: 128 bits. The free
    * parameters' base values only order a sweep, so they are not part of its space. */
   char text[4096];
   char layout[3];
   Problem_layoutName(p, layout);
   int n = snprintf(text, sizeof text, "gemmtop sweep 1\n%s\n%s\n%s\n%d %d %d %s %s %a %a\n%u %d\n", device ? device : "",
                    backend ? backend : "", kernel_hash ? kernel_hash : "", p->m, p->n, p->k,
                    Precision_name(p->precision), layout, p->alpha, p->beta, free_mask, cold_l2);
   if (Problem_scaled(p) && n > 0 && (size_t)n < sizeof text) /* the types before FP8 keep their keys */
      n += snprintf(text + n, sizeof text - (size_t)n, "scaling %s\n", Scaling_name(p->scaling));
   if (compiler && compiler[0] && n > 0 && (size_t)n < sizeof text) /* NVRTC's sweeps keep their keys */
      n += snprintf(text + n, sizeof text - (size_t)n, "compiler %s\n", compiler);
   for (int i = 0; i < nparams && n > 0 && (size_t)n < sizeof text; i++)
      n += snprintf(text + n, sizeof text - (size_t)n, (free_mask >> i) & 1 ? "*\n" : "%lld\n", base[i]);
   size_t len = n > 0 && (size_t)n < sizeof text ? (size_t)n : strlen(text);
   unsigned long long a = Util_hash(UTIL_HASH_INIT, text, len);
   unsigned long long b = Util_hash(UTIL_HASH_INIT ^ 0x9e3779b97f4a7c15ull, text, len);
   snprintf(out, 33, "%016llx%016llx", a, b);
}
