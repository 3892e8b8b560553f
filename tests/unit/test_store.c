/* Unit tests for src/core/results/store.c on real SQLite files in a temporary folder: every field
 * of a record back as it went in, the filters, ten processes adding at once (nothing
 * lost), files that must be refused and left byte for byte as they were (random bytes, a
 * truncated store, another program's SQLite file, a newer schema), unwritable places, the
 * schema's migrations, the sweep key, and the records made of measurements (record.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/model/catalog.h"
#include "core/results/record.h"
#include "base/rng.h"
#include "core/results/store.h"
#include "base/util.h"
#include "testing.h"

#define WRITERS 10
#define RECORDS_EACH 25

static char g_dir[256];
static uint64_t g_seed;
static Rng g_rng;

static void pathIn(char *out, size_t len, const char *name) { snprintf(out, len, "%s/%s", g_dir, name); }

static void removeTree(const char *dir) {
   DIR *d = opendir(dir);
   if (!d)
      return;
   struct dirent *e;
   char p[1024];
   while ((e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
         continue;
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      struct stat st;
      if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
         chmod(p, 0755);
         removeTree(p);
         rmdir(p);
      } else {
         unlink(p);
      }
   }
   closedir(d);
}

static int groupSetup(void **state) {
   const char *t = getenv("TMPDIR");
   snprintf(g_dir, sizeof g_dir, "%s/gemmtop-store-XXXXXX", t && *t ? t : "/tmp");
   if (!mkdtemp(g_dir))
      return -1;
   g_seed = Testing_seed("test_store");
   Rng_seed(&g_rng, g_seed);
   /* Never the user's own store. */
   unsetenv("GEMMTOP_STORE");
   setenv("XDG_DATA_HOME", g_dir, 1);
   return 0;
}

static int groupTeardown(void **state) {
   removeTree(g_dir);
   rmdir(g_dir);
   return 0;
}

static int testTeardown(void **state) {
   removeTree(g_dir);
   return 0;
}

/* The file's bytes as a hash and a size: what "left untouched" is checked against. */
static unsigned long long fileHash(const char *path, size_t *size) {
   size_t len = 0;
   char *data = Util_readFile(path, &len);
   assert_non_null(data);
   unsigned long long h = Util_hash(UTIL_HASH_INIT, data, len);
   free(data);
   *size = len;
   return h;
}

static void writeBytes(const char *path, const void *data, size_t len) {
   FILE *f = fopen(path, "wb");
   assert_non_null(f);
   assert_int_equal(fwrite(data, 1, len, f), len);
   assert_int_equal(fclose(f), 0);
}

/* A record with every field set to something that is not its default. */
static void fullRecord(StoreRecord *r, int i) {
   StoreRecord_init(r, "sweep");
   r->time = 1700000000 + i;
   Util_copy(r->version, sizeof r->version, "9.8.7");
   Util_copy(r->backend, sizeof r->backend, "CUDA");
   snprintf(r->device, sizeof r->device, "NVIDIA H100 80GB HBM3 #%d", i);
   Util_copy(r->driver, sizeof r->driver, "580.65.06");
   Util_copy(r->arch, sizeof r->arch, "sm_90");
   Util_copy(r->kernel, sizeof r->kernel, "myGEMM6");
   Util_copy(r->kernel_hash, sizeof r->kernel_hash, "0123456789abcdef");
   snprintf(r->params, sizeof r->params, "TSM=%d TSN=64 WPTM=8", 32 + i);
   r->problem = (Problem){.m = 100 + i, .n = 200, .k = 300, .precision = PRECISION_BF16, .trans_a = true,
                          .trans_b = false, .alpha = 1.5, .beta = -0.25};
   Util_copy(r->outcome, sizeof r->outcome, "wrong");
   Util_copy(r->reason, sizeof r->reason, "max relative error 3e-2 at C[4,5], \"quoted\"\nsecond line");
   r->verified = false;
   r->emulated = true;
   r->cold_l2 = true;
   r->reps = 17;
   r->median_ms = 1.25, r->min_ms = 1.0, r->max_ms = 2.5, r->spread_pct = 3.5;
   r->gflops = 12345.5, r->compile_ms = 456.0, r->max_rel_err = 0.03;
   Observation *o = &r->obs;
   o->known = true;
   Util_copy(o->source, sizeof o->source, "NVML");
   o->sm_mhz = 1755, o->sm_mhz_min = 1500, o->sm_mhz_start = 1980, o->mem_mhz = 2619;
   o->power_w = 650.5, o->temp_c = 71, o->energy_j = 0.125, o->gflops_per_w = 18.9;
   o->throttled = true;
   Util_copy(o->throttle_reason, sizeof o->throttle_reason, "clock fell 1980 -> 1500 MHz");
   Util_copy(r->sweep_key, sizeof r->sweep_key, "00112233445566778899aabbccddeeff");
}

typedef struct Rows_ {
   StoreRecord r[64];
   int n;
} Rows;

static bool collect(const StoreRecord *r, void *ctx) {
   Rows *rows = ctx;
   if (rows->n < 64)
      rows->r[rows->n] = *r;
   rows->n++;
   return true;
}

static void test_round_trip_every_field(void **state) {
   char path[512], err[1024] = "";
   pathIn(path, sizeof path, "sub/folder/results.db");
   Store *s = Store_open(path, err, sizeof err);
   assert_non_null(s);
   assert_string_equal(Store_path(s), path);
   StoreRecord in[2];
   fullRecord(&in[0], 0);
   /* The second: every figure unknown, which must come back unknown, not 0. */
   StoreRecord_init(&in[1], "run");
   assert_true(Store_add(s, in, 2, err, sizeof err));
   assert_true(in[0].id > 0 && in[1].id == in[0].id + 1);
   Rows rows = {0};
   assert_true(Store_query(s, NULL, collect, &rows, err, sizeof err));
   assert_int_equal(rows.n, 2);
   const StoreRecord *a = &in[0], *b = &rows.r[0];
   assert_int_equal(b->id, a->id);
   assert_int_equal(b->time, a->time);
   const char *fields[][2] = {{a->origin, b->origin},   {a->version, b->version},         {a->backend, b->backend},
                              {a->device, b->device},   {a->driver, b->driver},           {a->arch, b->arch},
                              {a->kernel, b->kernel},   {a->kernel_hash, b->kernel_hash}, {a->params, b->params},
                              {a->outcome, b->outcome}, {a->reason, b->reason},           {a->sweep_key, b->sweep_key},
                              {a->obs.source, b->obs.source}, {a->obs.throttle_reason, b->obs.throttle_reason}};
   for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
      assert_string_equal(fields[i][1], fields[i][0]);
   assert_true(Problem_same(&a->problem, &b->problem));
   assert_int_equal(b->problem.precision, PRECISION_BF16);
   assert_true(b->problem.trans_a && !b->problem.trans_b);
   assert_true(b->verified == a->verified && b->emulated && b->cold_l2 && b->obs.known && b->obs.throttled);
   assert_int_equal(b->reps, 17);
   const double figures[][2] = {{a->median_ms, b->median_ms},   {a->min_ms, b->min_ms},
                                {a->max_ms, b->max_ms},         {a->spread_pct, b->spread_pct},
                                {a->gflops, b->gflops},         {a->compile_ms, b->compile_ms},
                                {a->max_rel_err, b->max_rel_err}, {a->obs.sm_mhz, b->obs.sm_mhz},
                                {a->obs.sm_mhz_min, b->obs.sm_mhz_min}, {a->obs.sm_mhz_start, b->obs.sm_mhz_start},
                                {a->obs.mem_mhz, b->obs.mem_mhz}, {a->obs.power_w, b->obs.power_w},
                                {a->obs.temp_c, b->obs.temp_c}, {a->obs.energy_j, b->obs.energy_j},
                                {a->obs.gflops_per_w, b->obs.gflops_per_w}};
   for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
      assert_true(figures[i][0] == figures[i][1]);
   const StoreRecord *u = &rows.r[1];
   assert_string_equal(u->origin, "run");
   assert_string_equal(u->version, in[1].version);
   assert_true(isnan(u->median_ms) && isnan(u->gflops) && isnan(u->max_rel_err) && isnan(u->obs.power_w));
   assert_false(u->obs.known);
   Store_close(s);
}

static void test_filters(void **state) {
   char err[1024] = "";
   /* NULL: the default place, inside the test's XDG_DATA_HOME. */
   Store *s = Store_open(NULL, err, sizeof err);
   assert_non_null(s);
   char expect[512];
   pathIn(expect, sizeof expect, "gemmtop/results.db");
   assert_string_equal(Store_path(s), expect);
   StoreRecord r[4];
   for (int i = 0; i < 4; i++)
      fullRecord(&r[i], i);
   Util_copy(r[1].kernel, sizeof r[1].kernel, "other");
   Util_copy(r[2].origin, sizeof r[2].origin, "bench");
   r[2].verified = true, r[2].emulated = false;
   r[3].problem.precision = PRECISION_DOUBLE;
   r[3].sweep_key[0] = '\0';
   assert_true(Store_add(s, r, 4, err, sizeof err));
   struct {
      StoreFilter f;
      int expect;
   } cases[12];
   for (int i = 0; i < 12; i++)
      StoreFilter_init(&cases[i].f), cases[i].expect = 0;
   cases[0].expect = 4;
   cases[1].f.device = "h100 80gb hbm3 #2", cases[1].expect = 1; /* a substring, any case */
   cases[2].f.kernel = "other", cases[2].expect = 1;
   cases[3].f.origin = "bench", cases[3].expect = 1;
   cases[4].f.sweep_key = "00112233445566778899aabbccddeeff", cases[4].expect = 3;
   cases[5].f.m = 101, cases[5].expect = 1;
   cases[6].f.n = 200, cases[6].f.k = 300, cases[6].expect = 4;
   cases[7].f.precision = PRECISION_DOUBLE, cases[7].expect = 1;
   cases[8].f.since = 1700000002, cases[8].expect = 2;
   cases[9].f.until = 1700000000, cases[9].expect = 1;
   cases[10].f.ok_only = true, cases[10].expect = 1;
   cases[11].f.kernel = "nothing like it", cases[11].expect = 0;
   for (int i = 0; i < 12; i++) {
      Rows rows = {0};
      assert_true(Store_query(s, &cases[i].f, collect, &rows, err, sizeof err));
      if (rows.n != cases[i].expect)
         fail_msg("filter case %d: %d rows, expected %d", i, rows.n, cases[i].expect);
   }
   Store_close(s);
}

/* One writer: RECORDS_EACH records, each its own transaction, tagged with the writer. */
static int writer(const char *path, int w) {
   char err[1024];
   Store *s = Store_open(path, err, sizeof err);
   if (!s) {
      fprintf(stderr, "writer %d: %s\n", w, err);
      return 1;
   }
   for (int i = 0; i < RECORDS_EACH; i++) {
      StoreRecord r;
      fullRecord(&r, i);
      snprintf(r.params, sizeof r.params, "writer=%d record=%d", w, i);
      if (!Store_add(s, &r, 1, err, sizeof err)) {
         fprintf(stderr, "writer %d: %s\n", w, err);
         Store_close(s);
         return 1;
      }
   }
   Store_close(s);
   return 0;
}

typedef struct Seen_ {
   bool got[WRITERS][RECORDS_EACH];
   long long ids[WRITERS * RECORDS_EACH + 1];
   int n;
} Seen;

static bool noteSeen(const StoreRecord *r, void *ctx) {
   Seen *seen = ctx;
   int w, i;
   if (sscanf(r->params, "writer=%d record=%d", &w, &i) == 2 && w >= 0 && w < WRITERS && i >= 0 && i < RECORDS_EACH)
      seen->got[w][i] = true;
   if (seen->n <= WRITERS * RECORDS_EACH)
      seen->ids[seen->n] = r->id;
   seen->n++;
   return true;
}

/* Ten processes open (and create: none exists yet) the same store and add at once. */
static void test_ten_writers_lose_nothing(void **state) {
   char path[512], err[1024];
   pathIn(path, sizeof path, "shared/results.db");
   pid_t pids[WRITERS];
   for (int w = 0; w < WRITERS; w++) {
      pids[w] = fork();
      assert_true(pids[w] >= 0);
      if (pids[w] == 0)
         _exit(writer(path, w));
   }
   for (int w = 0; w < WRITERS; w++) {
      int status;
      assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
         fail_msg("writer %d failed (status %#x)", w, status);
   }
   Store *s = Store_open(path, err, sizeof err);
   assert_non_null(s);
   Seen *seen = calloc(1, sizeof *seen);
   assert_non_null(seen);
   assert_true(Store_query(s, NULL, noteSeen, seen, err, sizeof err));
   assert_int_equal(seen->n, WRITERS * RECORDS_EACH);
   for (int w = 0; w < WRITERS; w++)
      for (int i = 0; i < RECORDS_EACH; i++)
         if (!seen->got[w][i])
            fail_msg("writer %d's record %d is missing", w, i);
   /* Oldest first, every id once. */
   for (int i = 1; i < seen->n; i++)
      assert_true(seen->ids[i] > seen->ids[i - 1]);
   free(seen);
   Store_close(s);
   /* No temporary store left behind by the writers that lost the race to create it. */
   char dir[512];
   pathIn(dir, sizeof dir, "shared");
   DIR *d = opendir(dir);
   assert_non_null(d);
   struct dirent *e;
   while ((e = readdir(d)))
      if (strstr(e->d_name, ".new-"))
         fail_msg("left behind: %s", e->d_name);
   closedir(d);
}

/* A child forked before this process holds any connection (a fork must not carry SQLite's
 * state into a child), that waits for a byte on its pipe and then runs writer(). */
typedef struct Waiting_ {
   pid_t pid;
   int go;
} Waiting;

static Waiting forkWaitingWriter(const char *path, int w) {
   int fds[2];
   assert_int_equal(pipe(fds), 0);
   Waiting c = {.pid = fork()};
   assert_true(c.pid >= 0);
   if (c.pid == 0) {
      close(fds[1]);
      char b;
      _exit(read(fds[0], &b, 1) == 1 ? writer(path, w) : 3);
   }
   close(fds[0]);
   c.go = fds[1];
   return c;
}

static void startWriter(Waiting *c) {
   assert_int_equal(write(c->go, "g", 1), 1);
   close(c->go);
}

static void waitWriter(const Waiting *c, const char *who) {
   int status;
   assert_int_equal(waitpid(c->pid, &status, 0), c->pid);
   if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      fail_msg("%s failed (status %#x)", who, status);
}

static void addAs(Store *s, int w, int from, int to) {
   char err[1024];
   for (int i = from; i < to; i++) {
      StoreRecord r;
      fullRecord(&r, i);
      snprintf(r.params, sizeof r.params, "writer=%d record=%d", w, i);
      if (!Store_add(s, &r, 1, err, sizeof err))
         fail_msg("writer %d record %d: %s", w, i, err);
   }
}

/* Issue 33: a process with a connection that opens the store a second time (the explorer:
 * its worker, then its UI's history) must keep its locks. Before, the second open read the
 * header with open()/close(), and closing any descriptor of a file drops every POSIX lock
 * the process holds on it: another process then closed its connection believing it was the
 * last, checkpointed and deleted the WAL that the first connection still wrote to, and
 * every later commit of that connection was lost (or corrupted the store on its close). */
static void test_second_open_keeps_the_locks(void **state) {
   char path[512], wal[600], err[1024];
   pathIn(path, sizeof path, "locks/results.db");
   snprintf(wal, sizeof wal, "%s-wal", path);
   Waiting b = forkWaitingWriter(path, 1), c = forkWaitingWriter(path, 2);
   Store *first = Store_open(path, err, sizeof err);
   if (!first)
      fail_msg("%s", err);
   addAs(first, 0, 0, 1);
   struct stat before, after;
   assert_int_equal(stat(wal, &before), 0);
   Store *second = Store_open(path, err, sizeof err);
   if (!second)
      fail_msg("%s", err);
   /* Another process adds its records and closes its connection. */
   startWriter(&b);
   waitWriter(&b, "the writer that closes");
   if (stat(wal, &after) != 0)
      fail_msg("%s was deleted while this process had two connections open", wal);
   assert_true(after.st_ino == before.st_ino);
   /* Then this process and another one write at once, and the second connection too. */
   startWriter(&c);
   addAs(first, 0, 1, RECORDS_EACH);
   waitWriter(&c, "the concurrent writer");
   addAs(second, 3, 0, RECORDS_EACH);
   Store_close(second);
   Store_close(first);
   /* Every committed record is there, and the file is whole. */
   Store *s = Store_open(path, err, sizeof err);
   assert_non_null(s);
   Seen *seen = calloc(1, sizeof *seen);
   assert_non_null(seen);
   assert_true(Store_query(s, NULL, noteSeen, seen, err, sizeof err));
   Store_close(s);
   for (int w = 0; w < 4; w++)
      for (int i = 0; i < RECORDS_EACH; i++)
         if (!seen->got[w][i])
            fail_msg("writer %d's committed record %d is missing (%d rows in all)", w, i, seen->n);
   assert_int_equal(seen->n, 4 * RECORDS_EACH);
   free(seen);
   sqlite3 *db;
   assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
   sqlite3_stmt *st;
   assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
   assert_int_equal(sqlite3_step(st), SQLITE_ROW);
   assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
   sqlite3_finalize(st);
   sqlite3_close(db);
}

/* Store_open must refuse path with a message containing each of words, and leave it as it was. */
static void expectRefused(const char *path, const char *const *words, int nwords) {
   size_t before_len, after_len;
   unsigned long long before = fileHash(path, &before_len);
   char err[1024] = "";
   Store *s = Store_open(path, err, sizeof err);
   if (s)
      fail_msg("%s was opened as a store", path);
   print_message("# refused: %s\n", err);
   assert_non_null(strstr(err, path));
   for (int i = 0; i < nwords; i++)
      if (!strstr(err, words[i]))
         fail_msg("message '%s' does not say '%s'", err, words[i]);
   unsigned long long after = fileHash(path, &after_len);
   assert_int_equal(after_len, before_len);
   assert_true(after == before);
}

static void test_random_bytes_refused(void **state) {
   char path[512];
   pathIn(path, sizeof path, "random.db");
   unsigned char junk[8192];
   for (size_t i = 0; i < sizeof junk; i++)
      junk[i] = (unsigned char)Rng_next(&g_rng);
   writeBytes(path, junk, sizeof junk);
   const char *words[] = {"not a SQLite file", "left as it is", "--store"};
   expectRefused(path, words, 3);
}

/* A real store with enough records for many pages, cut in half. */
static void test_truncated_store_refused(void **state) {
   char path[512], err[1024];
   pathIn(path, sizeof path, "cut.db");
   Store *s = Store_open(path, err, sizeof err);
   assert_non_null(s);
   StoreRecord *r = calloc(200, sizeof *r);
   assert_non_null(r);
   for (int i = 0; i < 200; i++)
      fullRecord(&r[i], i);
   assert_true(Store_add(s, r, 200, err, sizeof err));
   free(r);
   Store_close(s);
   struct stat st;
   assert_int_equal(stat(path, &st), 0);
   assert_true(st.st_size > 8 * 4096);
   assert_int_equal(truncate(path, st.st_size / 2), 0);
   const char *words[] = {"corrupt", "left as it is"};
   expectRefused(path, words, 2);
}

static void test_foreign_sqlite_refused(void **state) {
   char path[512];
   pathIn(path, sizeof path, "other.db");
   sqlite3 *db;
   assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
   assert_int_equal(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (42);", NULL, NULL, NULL), SQLITE_OK);
   sqlite3_close(db);
   const char *words[] = {"not a gemmtop store", "application_id"};
   expectRefused(path, words, 2);
}

static void test_newer_schema_refused(void **state) {
   char path[512], err[1024];
   pathIn(path, sizeof path, "future.db");
   Store *s = Store_open(path, err, sizeof err);
   assert_non_null(s);
   Store_close(s);
   sqlite3 *db;
   assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
   char sql[64];
   snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION + 7);
   assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
   sqlite3_close(db);
   char newer[32], ours[32];
   snprintf(newer, sizeof newer, "schema version %d", STORE_SCHEMA_VERSION + 7);
   snprintf(ours, sizeof ours, "knows (%d)", STORE_SCHEMA_VERSION);
   const char *words[] = {newer, ours, "newer gemmtop"};
   expectRefused(path, words, 3);
}

/* Something in the way of the folder: said, whoever runs the test (root included). */
static void test_unmakeable_folder(void **state) {
   char blocker[512], path[600], err[1024] = "";
   pathIn(blocker, sizeof blocker, "plainfile");
   writeBytes(blocker, "x", 1);
   snprintf(path, sizeof path, "%s/results.db", blocker);
   assert_null(Store_open(path, err, sizeof err));
   print_message("# refused: %s\n", err);
   assert_non_null(strstr(err, "cannot create the folder"));
   assert_non_null(strstr(err, blocker));
}

static void test_readonly_folder(void **state) {
   if (geteuid() == 0)
      SKIP_BECAUSE("running as root, whom a read-only folder does not stop (test_unmakeable_folder covers root)");
   char dir[512], path[600], err[1024] = "";
   pathIn(dir, sizeof dir, "locked");
   assert_int_equal(mkdir(dir, 0555), 0);
   snprintf(path, sizeof path, "%s/results.db", dir);
   Store *s = Store_open(path, err, sizeof err);
   chmod(dir, 0755);
   assert_null(s);
   print_message("# refused: %s\n", err);
   assert_non_null(strstr(err, "not writable"));
}

/* The v1 schema as version 1 of gemmtop wrote it, frozen here: a store made then must open
 * with every later version, its rows intact. */
static const char v1Schema[] =
    "CREATE TABLE results (id INTEGER PRIMARY KEY, time INTEGER NOT NULL, origin TEXT NOT NULL, version TEXT NOT NULL,"
    " backend TEXT NOT NULL, device TEXT NOT NULL, driver TEXT NOT NULL, arch TEXT NOT NULL, kernel TEXT NOT NULL,"
    " kernel_hash TEXT NOT NULL, params TEXT NOT NULL, m INTEGER NOT NULL, n INTEGER NOT NULL, k INTEGER NOT NULL,"
    " precision TEXT NOT NULL, input_type TEXT NOT NULL, compute_type TEXT NOT NULL, output_type TEXT NOT NULL,"
    " layout TEXT NOT NULL, alpha REAL NOT NULL, beta REAL NOT NULL, outcome TEXT NOT NULL, reason TEXT NOT NULL,"
    " verified INTEGER NOT NULL, emulated INTEGER NOT NULL, cold_l2 INTEGER NOT NULL, reps INTEGER NOT NULL,"
    " median_ms REAL, min_ms REAL, max_ms REAL, spread_pct REAL, gflops REAL, compile_ms REAL, max_rel_err REAL,"
    " obs_known INTEGER NOT NULL, obs_source TEXT NOT NULL, sm_mhz REAL, sm_mhz_min REAL, sm_mhz_start REAL,"
    " mem_mhz REAL, power_w REAL, temp_c REAL, energy_j REAL, gflops_per_w REAL, throttled INTEGER NOT NULL,"
    " throttle_reason TEXT NOT NULL, sweep_key TEXT NOT NULL);"
    "CREATE TABLE migrations (version INTEGER PRIMARY KEY, time INTEGER NOT NULL, gemmtop TEXT NOT NULL);"
    "INSERT INTO migrations VALUES (1, 1700000000, '0.1.0');"
    "INSERT INTO results VALUES (7, 1700000000, 'run', '0.1.0', 'OpenCL', 'cpu-haswell', '6.0', '', 'myGEMM1', "
    "'feedfacefeedface', 'TS=16', 64, 64, 64, 'float', 'float', 'float', 'float', 'NN', 1, 0, 'ok', '', 1, 0, 0, 10,"
    " 0.5, 0.4, 0.6, 1.0, 1.048576, 12, 1e-7, 0, '', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, '', '');"
    "PRAGMA application_id = 0x474d5450; PRAGMA user_version = 1;";

static void test_migrations_from_v1(void **state) {
   char path[512], err[1024];
   pathIn(path, sizeof path, "v1.db");
   sqlite3 *db;
   assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
   assert_int_equal(sqlite3_exec(db, v1Schema, NULL, NULL, NULL), SQLITE_OK);
   sqlite3_close(db);
   Store *s = Store_open(path, err, sizeof err);
   if (!s)
      fail_msg("a v1 store was refused: %s", err);
   Rows rows = {0};
   assert_true(Store_query(s, NULL, collect, &rows, err, sizeof err));
   assert_int_equal(rows.n, 1);
   assert_int_equal(rows.r[0].id, 7);
   assert_string_equal(rows.r[0].kernel, "myGEMM1");
   assert_true(rows.r[0].verified && rows.r[0].gflops == 1.048576 && isnan(rows.r[0].obs.sm_mhz));
   StoreRecord more;
   fullRecord(&more, 1);
   assert_true(Store_add(s, &more, 1, err, sizeof err));
   assert_int_equal(more.id, 8);
   Store_close(s);
   /* Brought to the current version, each step noted. */
   assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
   sqlite3_stmt *st;
   assert_int_equal(sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM migrations), user_version FROM pragma_user_version",
                                       -1, &st, NULL), SQLITE_OK);
   assert_int_equal(sqlite3_step(st), SQLITE_ROW);
   assert_int_equal(sqlite3_column_int(st, 0), STORE_SCHEMA_VERSION);
   assert_int_equal(sqlite3_column_int(st, 1), STORE_SCHEMA_VERSION);
   sqlite3_finalize(st);
   sqlite3_close(db);
}

/* A new store runs every migration from an empty file, and is in WAL mode. */
static void test_new_store_is_migrated(void **state) {
   char path[512], err[1024];
   pathIn(path, sizeof path, "fresh.db");
   writeBytes(path, "", 0); /* an empty file (touched) becomes a store */
   Store *s = Store_open(path, err, sizeof err);
   assert_non_null(s);
   Store_close(s);
   sqlite3 *db;
   assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
   sqlite3_stmt *st;
   assert_int_equal(sqlite3_prepare_v2(db,
                                       "SELECT (SELECT group_concat(version) FROM migrations), "
                                       "(SELECT user_version FROM pragma_user_version), "
                                       "(SELECT journal_mode FROM pragma_journal_mode), "
                                       "(SELECT application_id FROM pragma_application_id)",
                                       -1, &st, NULL),
                    SQLITE_OK);
   assert_int_equal(sqlite3_step(st), SQLITE_ROW);
   char steps[64] = "";
   for (int v = 1; v <= STORE_SCHEMA_VERSION; v++)
      snprintf(steps + strlen(steps), sizeof steps - strlen(steps), "%s%d", v > 1 ? "," : "", v);
   assert_string_equal((const char *)sqlite3_column_text(st, 0), steps);
   assert_int_equal(sqlite3_column_int(st, 1), STORE_SCHEMA_VERSION);
   assert_string_equal((const char *)sqlite3_column_text(st, 2), "wal");
   assert_int_equal(sqlite3_column_int(st, 3), 0x474d5450);
   sqlite3_finalize(st);
   sqlite3_close(db);
}

static void test_sweep_key(void **state) {
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = 256;
   long long base[3] = {32, 8, 4}, other[3] = {16, 8, 4};
   char a[33], b[33], c[33], d[33], e[33];
   Store_sweepKey("cpu", "OpenCL", "", "0123456789abcdef", &p, base, 3, 0x1, false, a);
   assert_int_equal(strlen(a), 32);
   assert_int_equal(strspn(a, "0123456789abcdef"), 32);
   /* A free parameter's starting value only orders the sweep: the same space. */
   Store_sweepKey("cpu", "OpenCL", "", "0123456789abcdef", &p, other, 3, 0x1, false, b);
   assert_string_equal(a, b);
   /* A fixed one, cold L2, another problem: another space. */
   Store_sweepKey("cpu", "OpenCL", "", "0123456789abcdef", &p, other, 3, 0x2, false, c);
   Store_sweepKey("cpu", "OpenCL", "", "0123456789abcdef", &p, base, 3, 0x1, true, d);
   p.k = 512;
   Store_sweepKey("cpu", "OpenCL", "", "0123456789abcdef", &p, base, 3, 0x1, false, e);
   assert_string_not_equal(a, c);
   assert_string_not_equal(a, d);
   assert_string_not_equal(a, e);
   /* The runtime's own compiler (no name, or none) keeps the key; another compiler's
    * kernels (GEMMTOP_CUDA_COMPILER=nvcc) are another space. */
   char f[33], g[33];
   p.k = 256;
   Store_sweepKey("cpu", "OpenCL", NULL, "0123456789abcdef", &p, base, 3, 0x1, false, f);
   Store_sweepKey("cpu", "OpenCL", "nvcc", "0123456789abcdef", &p, base, 3, 0x1, false, g);
   assert_string_equal(a, f);
   assert_string_not_equal(a, g);
}

static const char *KERNEL_TEXT = "/*@gemmtop\n"
                                 "name: tiled\n"
                                 "param: TS = 16 in 4, 8, 16, 32 ; tile size\n"
                                 "param: WPT = 1 in 1, 2, 4, 8 ; work per thread\n"
                                 "global: N, M / WPT\n"
                                 "local: TS, TS / WPT\n"
                                 "*/\n"
                                 "__kernel void gemm() {}\n";

/* A run, a failed run, a vendor timing and a sweep's configuration as records, and back. */
static void test_records_of_measurements(void **state) {
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, KERNEL_TEXT, "tiled.cl", err, sizeof err));
   char hash[17], again[17];
   KernelInfo_hash(&k, hash);
   assert_int_equal(strspn(hash, "0123456789abcdef"), 16);
   k.source[strlen(k.source) - 2] = ' '; /* one character of the file changed */
   KernelInfo_hash(&k, again);
   assert_string_not_equal(hash, again);
   /* Params as formatted read back, and only those of this kernel in its order. */
   long long values[KERNEL_MAX_PARAMS] = {32, 4}, back[KERNEL_MAX_PARAMS];
   char params[64];
   KernelInfo_formatParams(&k, values, params, sizeof params);
   assert_true(Record_parseParams(&k, params, back));
   assert_true(back[0] == 32 && back[1] == 4);
   const char *wrong[] = {"TS=32", "WPT=4 TS=32", "TS=32 WPT=4 X=1", "TS=x WPT=4", ""};
   for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++)
      if (Record_parseParams(&k, wrong[i], back))
         fail_msg("'%s' was read as tiled's parameters", wrong[i]);

   DeviceInfo dev;
   memset(&dev, 0, sizeof dev);
   Util_copy(dev.name, sizeof dev.name, "Some GPU");
   Util_copy(dev.driver, sizeof dev.driver, "1.2.3");
   Util_copy(dev.arch, sizeof dev.arch, "sm_80");
   RecordPlace at = {"CUDA", &dev};
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = 64;
   RunResult *r = calloc(1, sizeof *r);
   assert_non_null(r);
   Observation_clear(&r->obs);
   r->reps = 10, r->median_ms = 2, r->min_ms = 1.5, r->max_ms = 3, r->spread_pct = 4, r->gflops = 0.26;
   r->compile_ms = 50, r->verified_run = true, r->verify.ok = true, r->verify.max_rel_err = 1e-7;
   StoreRecord rec;
   Record_fromRun(&rec, "run", &at, &k, values, &p, RUN_OK, r);
   assert_string_equal(rec.origin, "run");
   assert_string_equal(rec.kernel, "tiled");
   assert_string_equal(rec.kernel_hash, again);
   assert_string_equal(rec.params, "TS=32 WPT=4");
   assert_string_equal(rec.device, "Some GPU");
   assert_string_equal(rec.driver, "1.2.3");
   assert_string_equal(rec.outcome, "ok");
   assert_true(rec.verified && !rec.emulated && rec.reps == 10 && rec.median_ms == 2 && rec.max_rel_err == 1e-7);
   /* A compile error: its message, and no figure made up. */
   r->verified_run = false;
   Util_copy(r->message, sizeof r->message, "does not compile: expected ';'");
   Record_fromRun(&rec, "run", &at, &k, values, &p, RUN_COMPILE_ERROR, r);
   assert_string_equal(rec.outcome, SweepOutcome_name(SWEEP_COMPILE));
   assert_string_equal(rec.reason, "does not compile: expected ';'");
   assert_true(!rec.verified && rec.reps == 0 && isnan(rec.median_ms) && isnan(rec.gflops) && isnan(rec.max_rel_err));
   free(r);
   VendorResult v = {.status = RUN_OK, .name = "cuBLAS 13.0.0", .reps = 5, .median_ms = 1, .gflops = 0.5,
                     .verified = true};
   Observation_clear(&v.obs);
   Record_fromVendor(&rec, &at, &p, &v);
   assert_string_equal(rec.origin, "vendor");
   assert_string_equal(rec.kernel, "cuBLAS 13.0.0");
   assert_true(rec.verified && rec.gflops == 0.5 && rec.params[0] == '\0');
   /* A sweep's configuration, and back as the resumed sweep sees it. */
   SweepCandidate c = {.values = {8, 2}, .outcome = SWEEP_WRONG, .reason = "max rel err 0.5"};
   Record_fromCandidate(&rec, "sweep", &at, &k, &p, &c, false, true, "00112233445566778899aabbccddeeff");
   assert_true(!rec.verified && rec.cold_l2 && isnan(rec.gflops));
   assert_string_equal(rec.sweep_key, "00112233445566778899aabbccddeeff");
   SweepCandidate out;
   memset(&out, 0, sizeof out);
   Record_toCandidate(&rec, &out);
   assert_int_equal(out.outcome, SWEEP_WRONG);
   assert_string_equal(out.reason, "max rel err 0.5");
   KernelInfo_free(&k);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test_teardown(test_round_trip_every_field, testTeardown),
       cmocka_unit_test_teardown(test_filters, testTeardown),
       cmocka_unit_test_teardown(test_ten_writers_lose_nothing, testTeardown),
       cmocka_unit_test_teardown(test_second_open_keeps_the_locks, testTeardown),
       cmocka_unit_test_teardown(test_random_bytes_refused, testTeardown),
       cmocka_unit_test_teardown(test_truncated_store_refused, testTeardown),
       cmocka_unit_test_teardown(test_foreign_sqlite_refused, testTeardown),
       cmocka_unit_test_teardown(test_newer_schema_refused, testTeardown),
       cmocka_unit_test_teardown(test_unmakeable_folder, testTeardown),
       cmocka_unit_test_teardown(test_readonly_folder, testTeardown),
       cmocka_unit_test_teardown(test_migrations_from_v1, testTeardown),
       cmocka_unit_test_teardown(test_new_store_is_migrated, testTeardown),
       cmocka_unit_test_teardown(test_sweep_key, testTeardown),
       cmocka_unit_test_teardown(test_records_of_measurements, testTeardown),
   };
   return cmocka_run_group_tests(tests, groupSetup, groupTeardown);
}
