/* A class board: each student's best verified submission to an assignment, ranked, as a
 * terminal table, CSV, JSON or a web page with a chart for the projector. Pure: from the
 * assignment, its submissions and who looks, to text. What a viewer may see is decided
 * here and only here: a lecturer sees every name; anyone else (and the page, which anyone
 * may load) sees names only when the server shows them, else "student N" (numbered by
 * first submission) and their own row marked; no one sees a source. */
#ifndef GEMMTOP_BOARD_H
#define GEMMTOP_BOARD_H

#include <stdbool.h>
#include <sys/types.h>

#include "serve/classdb.h"

typedef enum { BOARD_TABLE, BOARD_CSV, BOARD_JSON, BOARD_HTML } BoardFormat;

typedef struct BoardViewer_ {
   uid_t uid;             /* (uid_t)-1: nobody in particular (the page) */
   bool lecturer;
   bool names_shown;      /* the server shows names to everyone (serve --board-names shown) */
} BoardViewer;

typedef struct BoardRow_ {
   int rank;              /* 1..; 0: nothing verified yet */
   uid_t uid;
   char name[64];         /* as this viewer may see it */
   bool you;
   double gflops, pct;    /* the best verified submission's (NaN: none) */
   double max_rel_err;
   int submissions, verified;
   char kernel[64];
   long long id, time;    /* the best one */
} BoardRow;

/* A step of the ladder the assignment starts from (the server's kernels): the board shows
 * the class's best verified submission of each step, by the ladder and step the
 * submitted file's metadata names. */
typedef struct BoardStep_ {
   int step;
   char kernel[64];
   char title[128];
} BoardStep;

typedef struct BoardLadder_ {
   char name[32];            /* "" none */
   const BoardStep *steps;
   int nsteps;
} BoardLadder;

/* The rows for viewer, ranked (malloc'ed, *n of them). */
BoardRow *Board_rows(const Submission *subs, int nsubs, const BoardViewer *viewer, int *n);
/* The board as text in format (malloc'ed), NULL when out of memory. */
char *Board_render(const Assignment *a, const Submission *subs, int nsubs, const BoardViewer *viewer,
                   const BoardLadder *ladder, BoardFormat format);
/* The best verified submission of each step of ladder (NULL where none), into best. */
void Board_ladderBest(const Submission *subs, int nsubs, const BoardLadder *ladder, const Submission **best);
bool Board_parseFormat(const char *word, BoardFormat *out);

#endif
