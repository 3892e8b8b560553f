/* A class server's own records: the assignments a lecturer publishes and every
 * submission with its source, in one SQLite file beside the results store
 * (STATE/class.db). The measurements themselves go to the results store; here is what
 * a board needs, and what a restarted server must still judge (submissions "queued"). */
#ifndef GEMMTOP_CLASSDB_H
#define GEMMTOP_CLASSDB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CLASS_NAME_MAX 48

typedef struct Assignment_ {
   char name[CLASS_NAME_MAX];
   char kernel[64];          /* where students start (a kernel of the server's), "" none */
   char sets[256];           /* its values, "TS=32 WPT=8" ("" the defaults) */
   char sizes[256];          /* "512,1024x512x256": the sizes every submission is judged on */
   char precision[16];
   int rounds;               /* judged launches per size, each on fresh inputs */
   bool cold_l2;
   bool open;
   long long created, closed; /* Unix seconds (closed 0 while open) */
} Assignment;

typedef struct Submission_ {
   long long id;
   char assignment[CLASS_NAME_MAX];
   uid_t uid;
   char user[64];            /* the roster's name when it was submitted */
   long long time;
   char file[80];            /* the file's name as sent */
   char kernel[64];          /* the kernel its metadata names */
   char ladder[32];          /* and the ladder and step it says it is ("" and 0: none) */
   int step;
   char sets[256];
   char state[12];           /* "queued", "judged" */
   bool verified;            /* every judged launch on every size was right */
   double gflops;            /* the geometric mean over the sizes (NaN: none) */
   double pct;               /* of the vendor library, geometric mean (NaN: unknown) */
   double max_rel_err;
   double waited_s;
   char device[128];
   char detail[1024];        /* per size: "512: 12.3 GFLOPS (CLBlast 20.1)" lines */
   char reason[256];         /* why it is not verified, or "" */
} Submission;

typedef struct ClassDb_ ClassDb;

ClassDb *ClassDb_open(const char *path, char *err, size_t errlen);
void ClassDb_close(ClassDb *db);
/* A new assignment; false (err says) when the name is taken. */
bool ClassDb_assign(ClassDb *db, const Assignment *a, char *err, size_t errlen);
bool ClassDb_setOpen(ClassDb *db, const char *name, bool open, char *err, size_t errlen);
bool ClassDb_get(ClassDb *db, const char *name, Assignment *a);
/* Every assignment, oldest first (malloc'ed; *n of them). */
Assignment *ClassDb_list(ClassDb *db, int *n);
/* A submission as "queued" with its source: s->id set. */
bool ClassDb_submit(ClassDb *db, Submission *s, const char *source, size_t len, char *err, size_t errlen);
/* Its outcome: state "judged" and the figures. */
bool ClassDb_judged(ClassDb *db, const Submission *s, char *err, size_t errlen);
/* The submissions of an assignment ("" every one), of uid ((uid_t)-1 everyone's), of a
 * state (NULL any), oldest first (malloc'ed; *n of them). */
Submission *ClassDb_submissions(ClassDb *db, const char *assignment, uid_t uid, const char *state, int *n);
/* A submission's source (malloc'ed, NUL-terminated), NULL when there is none. */
char *ClassDb_source(ClassDb *db, long long id, size_t *len);
/* The bytes of source uid has stored (a quota's part). */
long long ClassDb_bytesOf(ClassDb *db, uid_t uid);

#endif
