/* A class that follows along: each student runs the same lesson on their own machine and
 * exports their ladder (E: lesson-NAME.csv); `gemmtop lesson NAME --merge FILE...` puts the
 * exports side by side, each device's steps normalised to its own step 1, as one table
 * (Markdown, CSV) and one SVG, so a lecturer can show how the same ideas pay on different
 * hardware. Pure functions: the files' text in, the texts out. */
#ifndef GEMMTOP_LADDERMERGE_H
#define GEMMTOP_LADDERMERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/lesson.h"

#define LADDER_MERGE_MAX 32

typedef struct MergedLadder_ {
   char title[128];
   int nsteps;
   char labels[LESSON_MAX_STEPS][160]; /* the lesson's steps, as its exports name them */
   int ndev;
   struct MergedDevice_ {
      char name[64];                   /* the file's name without .csv ("alice") */
      char device[160];
      char date[40];
      double gflops[LESSON_MAX_STEPS]; /* 0: no figure */
      char mark[LESSON_MAX_STEPS][8];  /* "abl", "emu", "refused", "" (a verified figure) */
   } dev[LADDER_MERGE_MAX];
} MergedLadder;

/* The lesson's steps, no device yet. */
void LadderMerge_init(MergedLadder *m, const Lesson *lesson);
/* One export (a ladder CSV's whole text, len bytes, from the file at path): refused with the
 * file, the line and what is wrong when it is not a ladder CSV, holds a NUL or a control
 * character, is of another lesson (its step labels differ), or one too many. What it holds
 * is escaped in each text made of it (HTML in the Markdown, XML in the SVG). */
bool LadderMerge_add(MergedLadder *m, const char *text, size_t len, const char *path, char *err, size_t errlen);
/* Device d's step over its own step 1 (both verified figures, neither ablated nor emulated);
 * 0 when either is missing. */
double LadderMerge_vsFirst(const MergedLadder *m, int d, int step);
/* malloc'ed texts; NULL when out of memory. */
char *LadderMerge_markdown(const MergedLadder *m);
char *LadderMerge_csv(const MergedLadder *m);
char *LadderMerge_svg(const MergedLadder *m);

#endif
