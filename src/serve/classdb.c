#include "serve/classdb.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/sql.h"
#include "base/util.h"

struct ClassDb_ {
   sqlite3 *db;
   char path[1024];
};

/* Schema 1. The application id tells a class file from a results store or anything else. */
#define CLASS_APP_ID 0x474d5443 /* "GMTC" */
static const char schema[] =
    "CREATE TABLE IF NOT EXISTS assignments (name TEXT PRIMARY KEY, kernel TEXT NOT NULL, sets TEXT NOT NULL,"
    " sizes TEXT NOT NULL, precision TEXT NOT NULL, rounds INTEGER NOT NULL, cold_l2 INTEGER NOT NULL,"
    " open INTEGER NOT NULL, created INTEGER NOT NULL, closed INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS submissions (id INTEGER PRIMARY KEY, assignment TEXT NOT NULL, uid INTEGER NOT NULL,"
    " user TEXT NOT NULL, time INTEGER NOT NULL, file TEXT NOT NULL, kernel TEXT NOT NULL, ladder TEXT NOT NULL,"
    " step INTEGER NOT NULL, sets TEXT NOT NULL,"
    " source BLOB NOT NULL, state TEXT NOT NULL, verified INTEGER NOT NULL, gflops REAL, pct REAL,"
    " max_rel_err REAL, waited_s REAL, device TEXT NOT NULL, detail TEXT NOT NULL, reason TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS submissions_of ON submissions(assignment, uid);";

static bool exec(ClassDb *c, const char *sql, char *err, size_t errlen) {
   char *msg = NULL;
   if (sqlite3_exec(c->db, sql, NULL, NULL, &msg) == SQLITE_OK)
      return true;
   snprintf(err, errlen, "class records %s: %s", c->path, msg ? msg : sqlite3_errmsg(c->db));
   sqlite3_free(msg);
   return false;
}

ClassDb *ClassDb_open(const char *path, char *err, size_t errlen) {
   ClassDb *c = calloc(1, sizeof *c);
   if (!c) {
      snprintf(err, errlen, "out of memory");
      return NULL;
   }
   Util_copy(c->path, sizeof c->path, path);
   if (sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL) !=
       SQLITE_OK) {
      snprintf(err, errlen, "class records %s: %s", path, c->db ? sqlite3_errmsg(c->db) : "cannot open");
      ClassDb_close(c);
      return NULL;
   }
   sqlite3_busy_timeout(c->db, 10000);
   long long app = Sql_number(c->db, "PRAGMA application_id");
   long long tables = Sql_number(c->db, "SELECT count(*) FROM sqlite_master");
   if (app < 0 || tables < 0) {
      snprintf(err, errlen, "class records %s is not an SQLite file gemmtop can read (%s): it was left as it is", path,
               sqlite3_errmsg(c->db));
      ClassDb_close(c);
      return NULL;
   }
   if (tables > 0 && app != CLASS_APP_ID) {
      snprintf(err, errlen, "%s is an SQLite file but not a gemmtop class's records: it was left as it is", path);
      ClassDb_close(c);
      return NULL;
   }
   char set[64];
   snprintf(set, sizeof set, "PRAGMA application_id = %d; PRAGMA user_version = 1;", CLASS_APP_ID);
   if (!exec(c, "PRAGMA journal_mode = WAL", err, errlen) || !exec(c, schema, err, errlen) ||
       !exec(c, set, err, errlen)) {
      ClassDb_close(c);
      return NULL;
   }
   return c;
}

void ClassDb_close(ClassDb *c) {
   if (!c)
      return;
   sqlite3_close(c->db);
   free(c);
}

static sqlite3_stmt *prepare(ClassDb *c, const char *sql, char *err, size_t errlen) {
   sqlite3_stmt *st = NULL;
   if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
      if (err)
         snprintf(err, errlen, "class records %s: %s", c->path, sqlite3_errmsg(c->db));
      sqlite3_finalize(st);
      return NULL;
   }
   return st;
}

static bool done(ClassDb *c, sqlite3_stmt *st, char *err, size_t errlen) {
   int rc = sqlite3_step(st);
   if (rc != SQLITE_DONE && err)
      snprintf(err, errlen, "class records %s: %s", c->path, sqlite3_errmsg(c->db));
   sqlite3_finalize(st);
   return rc == SQLITE_DONE;
}

bool ClassDb_assign(ClassDb *c, const Assignment *a, char *err, size_t errlen) {
   Assignment had;
   if (ClassDb_get(c, a->name, &had)) {
      snprintf(err, errlen, "assignment %s exists already (published %s); pick another name", a->name,
               had.open ? "and open" : "and closed");
      return false;
   }
   sqlite3_stmt *st = prepare(c, "INSERT INTO assignments VALUES (?,?,?,?,?,?,?,1,?,0)", err, errlen);
   if (!st)
      return false;
   sqlite3_bind_text(st, 1, a->name, -1, SQLITE_STATIC);
   sqlite3_bind_text(st, 2, a->kernel, -1, SQLITE_STATIC);
   sqlite3_bind_text(st, 3, a->sets, -1, SQLITE_STATIC);
   sqlite3_bind_text(st, 4, a->sizes, -1, SQLITE_STATIC);
   sqlite3_bind_text(st, 5, a->precision, -1, SQLITE_STATIC);
   sqlite3_bind_int(st, 6, a->rounds);
   sqlite3_bind_int(st, 7, a->cold_l2);
   sqlite3_bind_int64(st, 8, (long long)time(NULL));
   return done(c, st, err, errlen);
}

bool ClassDb_setOpen(ClassDb *c, const char *name, bool open, char *err, size_t errlen) {
   sqlite3_stmt *st = prepare(c, "UPDATE assignments SET open = ?, closed = ? WHERE name = ?", err, errlen);
   if (!st)
      return false;
   sqlite3_bind_int(st, 1, open);
   sqlite3_bind_int64(st, 2, open ? 0 : (long long)time(NULL));
   sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
   return done(c, st, err, errlen);
}

static void readAssignment(sqlite3_stmt *st, Assignment *a) {
   memset(a, 0, sizeof *a);
   Sql_text(st, 0, a->name, sizeof a->name);
   Sql_text(st, 1, a->kernel, sizeof a->kernel);
   Sql_text(st, 2, a->sets, sizeof a->sets);
   Sql_text(st, 3, a->sizes, sizeof a->sizes);
   Sql_text(st, 4, a->precision, sizeof a->precision);
   a->rounds = sqlite3_column_int(st, 5);
   a->cold_l2 = sqlite3_column_int(st, 6) != 0;
   a->open = sqlite3_column_int(st, 7) != 0;
   a->created = sqlite3_column_int64(st, 8);
   a->closed = sqlite3_column_int64(st, 9);
}

bool ClassDb_get(ClassDb *c, const char *name, Assignment *a) {
   sqlite3_stmt *st = prepare(c, "SELECT * FROM assignments WHERE name = ?", NULL, 0);
   if (!st)
      return false;
   sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
   bool found = sqlite3_step(st) == SQLITE_ROW;
   if (found)
      readAssignment(st, a);
   sqlite3_finalize(st);
   return found;
}

Assignment *ClassDb_list(ClassDb *c, int *n) {
   *n = 0;
   sqlite3_stmt *st = prepare(c, "SELECT * FROM assignments ORDER BY created, name", NULL, 0);
   Assignment *all = NULL;
   while (st && sqlite3_step(st) == SQLITE_ROW) {
      Assignment *grown = realloc(all, (size_t)(*n + 1) * sizeof *all);
      if (!grown)
         break;
      all = grown;
      readAssignment(st, &all[(*n)++]);
   }
   sqlite3_finalize(st);
   return all;
}

bool ClassDb_submit(ClassDb *c, Submission *s, const char *source, size_t len, char *err, size_t errlen) {
   sqlite3_stmt *st = prepare(c,
                              "INSERT INTO submissions (assignment, uid, user, time, file, kernel, sets, source, state,"
                              " verified, device, detail, reason, ladder, step)"
                              " VALUES (?,?,?,?,?,?,?,?,'queued',0,'','','',?,?)",
                              err, errlen);
   if (!st)
      return false;
   sqlite3_bind_text(st, 1, s->assignment, -1, SQLITE_STATIC);
   sqlite3_bind_int64(st, 2, (long long)s->uid);
   sqlite3_bind_text(st, 3, s->user, -1, SQLITE_STATIC);
   sqlite3_bind_int64(st, 4, s->time);
   sqlite3_bind_text(st, 5, s->file, -1, SQLITE_STATIC);
   sqlite3_bind_text(st, 6, s->kernel, -1, SQLITE_STATIC);
   sqlite3_bind_text(st, 7, s->sets, -1, SQLITE_STATIC);
   sqlite3_bind_blob(st, 8, source, (int)len, SQLITE_STATIC);
   sqlite3_bind_text(st, 9, s->ladder, -1, SQLITE_STATIC);
   sqlite3_bind_int(st, 10, s->step);
   if (!done(c, st, err, errlen))
      return false;
   s->id = sqlite3_last_insert_rowid(c->db);
   Util_copy(s->state, sizeof s->state, "queued");
   return true;
}

bool ClassDb_judged(ClassDb *c, const Submission *s, char *err, size_t errlen) {
   sqlite3_stmt *st = prepare(c,
                              "UPDATE submissions SET state = 'judged', verified = ?, gflops = ?, pct = ?,"
                              " max_rel_err = ?, waited_s = ?, device = ?, detail = ?, reason = ? WHERE id = ?",
                              err, errlen);
   if (!st)
      return false;
   sqlite3_bind_int(st, 1, s->verified);
   Sql_bindReal(st, 2, s->gflops);
   Sql_bindReal(st, 3, s->pct);
   Sql_bindReal(st, 4, s->max_rel_err);
   Sql_bindReal(st, 5, s->waited_s);
   sqlite3_bind_text(st, 6, s->device, -1, SQLITE_STATIC);
   sqlite3_bind_text(st, 7, s->detail, -1, SQLITE_STATIC);
   sqlite3_bind_text(st, 8, s->reason, -1, SQLITE_STATIC);
   sqlite3_bind_int64(st, 9, s->id);
   return done(c, st, err, errlen);
}

Submission *ClassDb_submissions(ClassDb *c, const char *assignment, uid_t uid, const char *state, int *n) {
   *n = 0;
   sqlite3_stmt *st = prepare(c,
                              "SELECT id, assignment, uid, user, time, file, kernel, sets, state, verified, gflops,"
                              " pct, max_rel_err, waited_s, device, detail, reason, ladder, step FROM submissions"
                              " WHERE (?1 = '' OR assignment = ?1) AND (?2 < 0 OR uid = ?2) AND (?3 IS NULL OR state = ?3)"
                              " ORDER BY id",
                              NULL, 0);
   if (!st)
      return NULL;
   sqlite3_bind_text(st, 1, assignment, -1, SQLITE_STATIC);
   sqlite3_bind_int64(st, 2, uid == (uid_t)-1 ? -1 : (long long)uid);
   if (state)
      sqlite3_bind_text(st, 3, state, -1, SQLITE_STATIC);
   Submission *all = NULL;
   while (sqlite3_step(st) == SQLITE_ROW) {
      Submission *grown = realloc(all, (size_t)(*n + 1) * sizeof *all);
      if (!grown)
         break;
      all = grown;
      Submission *s = &all[(*n)++];
      memset(s, 0, sizeof *s);
      s->id = sqlite3_column_int64(st, 0);
      Sql_text(st, 1, s->assignment, sizeof s->assignment);
      s->uid = (uid_t)sqlite3_column_int64(st, 2);
      Sql_text(st, 3, s->user, sizeof s->user);
      s->time = sqlite3_column_int64(st, 4);
      Sql_text(st, 5, s->file, sizeof s->file);
      Sql_text(st, 6, s->kernel, sizeof s->kernel);
      Sql_text(st, 7, s->sets, sizeof s->sets);
      Sql_text(st, 8, s->state, sizeof s->state);
      s->verified = sqlite3_column_int(st, 9) != 0;
      s->gflops = Sql_real(st, 10);
      s->pct = Sql_real(st, 11);
      s->max_rel_err = Sql_real(st, 12);
      s->waited_s = Sql_real(st, 13);
      Sql_text(st, 14, s->device, sizeof s->device);
      Sql_text(st, 15, s->detail, sizeof s->detail);
      Sql_text(st, 16, s->reason, sizeof s->reason);
      Sql_text(st, 17, s->ladder, sizeof s->ladder);
      s->step = sqlite3_column_int(st, 18);
   }
   sqlite3_finalize(st);
   return all;
}

char *ClassDb_source(ClassDb *c, long long id, size_t *len) {
   sqlite3_stmt *st = prepare(c, "SELECT source FROM submissions WHERE id = ?", NULL, 0);
   char *out = NULL;
   if (!st)
      return NULL;
   sqlite3_bind_int64(st, 1, id);
   if (sqlite3_step(st) == SQLITE_ROW) {
      int n = sqlite3_column_bytes(st, 0);
      const void *b = sqlite3_column_blob(st, 0);
      out = malloc((size_t)n + 1);
      if (out) {
         if (n > 0)
            memcpy(out, b, (size_t)n);
         out[n] = '\0';
         *len = (size_t)n;
      }
   }
   sqlite3_finalize(st);
   return out;
}

long long ClassDb_bytesOf(ClassDb *c, uid_t uid) {
   sqlite3_stmt *st = prepare(c, "SELECT coalesce(sum(length(source)), 0) FROM submissions WHERE uid = ?", NULL, 0);
   long long bytes = 0;
   if (!st)
      return 0;
   sqlite3_bind_int64(st, 1, (long long)uid);
   if (sqlite3_step(st) == SQLITE_ROW)
      bytes = sqlite3_column_int64(st, 0);
   sqlite3_finalize(st);
   return bytes;
}
