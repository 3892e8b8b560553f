/* Fuzzes the reader of the class's ladder exports (src/core/laddermerge.c, `gemmtop lesson
 * NAME --merge`): the input is a student's CSV, merged into a lesson of two steps. One it
 * takes makes a Markdown table and an SVG in which nothing of the student's text is markup,
 * a control character or a byte of no UTF-8 character (the page would run it, the terminal
 * obey it, the SVG not load), and a CSV without a control character; a refusal names the
 * file. */
#include "fuzz.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "core/laddermerge.h"
#include "core/lesson.h"

/* Text fit to show: no control character, every byte part of a UTF-8 character. */
static void checkShown(const char *text) {
   size_t n = strlen(text);
   if (Util_findControl(text, n, NULL) < n)
      abort();
   for (size_t i = 0; i < n;) {
      if ((unsigned char)text[i] < 0x80) {
         i++;
         continue;
      }
      int len = Util_utf8Len(text + i, n - i);
      if (!len)
         abort();
      i += (size_t)len;
   }
}

int Fuzz_merge(const uint8_t *data, size_t size) {
   static Lesson lesson;
   static bool parsed;
   static MergedLadder m;
   char err[1024] = "";
   const char *two = "title = Two steps\nstep = 01-naive\ntitle = Naive\nstep = 02-tiled\n";
   if (!parsed && !(parsed = Lesson_parse(two, strlen(two), "/x/two.lesson", &lesson, err, sizeof err)))
      abort();
   char *text = malloc(size + 1); /* a file's text has a NUL after it, as files are read */
   if (!text)
      return 0;
   memcpy(text, data, size);
   text[size] = '\0';
   LadderMerge_init(&m, &lesson);
   if (!LadderMerge_add(&m, text, size, "eve.csv", err, sizeof err)) {
      if (strncmp(err, "eve.csv", 7) != 0)
         abort();
      free(text);
      return 0;
   }
   free(text);
   if (Util_findControl((const char *)data, size, NULL) < size)
      abort(); /* a NUL or a control character in a student's file is refused, naming its line */
   char *md = LadderMerge_markdown(&m), *csv = LadderMerge_csv(&m), *svg = LadderMerge_svg(&m);
   if (!md || !csv || !svg)
      abort();
   checkShown(md);
   checkShown(svg);
   if (Util_findControl(csv, strlen(csv), NULL) < strlen(csv))
      abort(); /* the CSV keeps the student's bytes, never a control */
   if (strstr(md, "<") || strstr(svg, "<script") || strstr(svg, "<img"))
      abort(); /* the Markdown has no tag of its own: any '<' would be a student's */
   free(md);
   free(csv);
   free(svg);
   return 0;
}

FUZZ_ENTRY(Fuzz_merge)
