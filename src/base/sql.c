/* The SQLite files' shared reading and writing (sql.h). */
#include "base/sql.h"

#include <math.h>

#include "base/util.h"

long long Sql_number(sqlite3 *db, const char *sql) {
   sqlite3_stmt *st = NULL;
   long long v = -1;
   if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
      v = sqlite3_column_int64(st, 0);
   sqlite3_finalize(st);
   return v;
}

void Sql_bindReal(sqlite3_stmt *st, int i, double v) {
   if (isfinite(v))
      sqlite3_bind_double(st, i, v);
   else
      sqlite3_bind_null(st, i);
}

double Sql_real(sqlite3_stmt *st, int i) {
   return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

void Sql_text(sqlite3_stmt *st, int i, char *out, size_t outlen) {
   const unsigned char *t = sqlite3_column_text(st, i);
   Util_copy(out, outlen, t ? (const char *)t : "");
}
