/* gemmtop lesson [NAME] and gemmtop list lessons: the lessons (core/lesson.h), shipped and
 * the user's own; a valid NAME is left to main.c, which starts the explorer on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/lesson.h"

/* The lessons, with a message on stderr when none can be read. Returns false then. */
static bool loadLessons(LessonList *list) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return false;
   char dir[1024], err[256];
   bool shipped = Lesson_defaultDir(cat.dir, dir, sizeof dir);
   Catalog_free(&cat);
   LessonList_load(list, shipped ? dir : NULL, err, sizeof err);
   if (list->warnings[0])
      fprintf(stderr, "gemmtop: lessons:\n%s", list->warnings);
   if (!list->count) {
      fprintf(stderr, "gemmtop: no lessons found in %s or $XDG_CONFIG_HOME/gemmtop/lessons\n", dir);
      LessonList_free(list);
      return false;
   }
   return true;
}

static void printList(FILE *out, const LessonList *list) {
   int w = 6;
   for (int i = 0; i < list->count; i++)
      if ((int)strlen(list->items[i].name) > w)
         w = (int)strlen(list->items[i].name);
   fprintf(out, "%-*s  steps  title\n", w, "lesson");
   for (int i = 0; i < list->count; i++) {
      const Lesson *l = &list->items[i];
      fprintf(out, "%-*s  %5d  %s", w, l->name, l->nsteps, l->title);
      if (l->user)
         fprintf(out, "  (yours%s: %s)", l->replaces_shipped ? ", replacing the shipped one" : "", l->path);
      fputc('\n', out);
   }
}

int Cli_listLessons(const Options *o) {
   (void)o;
   LessonList list;
   if (!loadLessons(&list))
      return 1;
   printList(stdout, &list);
   LessonList_free(&list);
   return 0;
}

int Cli_lesson(const Options *o) {
   LessonList list;
   if (!loadLessons(&list))
      return 1;
   if (o->npositional == 0) {
      printList(stdout, &list);
      printf("\n'gemmtop lesson NAME' teaches one in the explorer (n, N: next and previous step; L: choose)\n");
      LessonList_free(&list);
      return 0;
   }
   const char *name = o->positional[0];
   if (!LessonList_find(&list, name)) {
      fprintf(stderr, "gemmtop: no lesson '%s'; the lessons are:", name);
      for (int i = 0; i < list.count; i++)
         fprintf(stderr, "%s %s", i ? "," : "", list.items[i].name);
      fprintf(stderr, " ('gemmtop list lessons' describes them)\n");
      LessonList_free(&list);
      return 2;
   }
   LessonList_free(&list);
   return CLI_LESSON_START;
}
