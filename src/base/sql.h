/* What the two SQLite files (the results store, core/results/store.c, and a class server's
 * records, serve/classdb.c) read and write alike: a one-row query's number, and the
 * columns a record leaves empty (NULL for a figure not known, NaN when read back). */
#ifndef GEMMTOP_SQL_H
#define GEMMTOP_SQL_H

#include <sqlite3.h>
#include <stddef.h>

/* The first column of a one-row statement (a PRAGMA, a count) as a number; -1 when it
 * cannot be prepared or gives no row. */
long long Sql_number(sqlite3 *db, const char *sql);
/* v into parameter i, or NULL when v is not finite (a figure not measured). */
void Sql_bindReal(sqlite3_stmt *st, int i, double v);
/* Column i as a double, NaN for NULL. */
double Sql_real(sqlite3_stmt *st, int i);
/* Column i as text into out (cut to outlen, "" for NULL). */
void Sql_text(sqlite3_stmt *st, int i, char *out, size_t outlen);

#endif
