/* gemmtop lesson [NAME] and gemmtop list lessons: the lessons (core/teach/lesson.h), shipped and
 * the user's own; a valid NAME is left to main.c, which starts the explorer on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/outfile.h"
#include "core/teach/laddermerge.h"
#include "core/teach/lesson.h"
#include "core/teach/lessonprep.h"
#include "core/model/preset.h"
#include "base/util.h"

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
   /* The steps' kernels say which lessons need a Hopper GPU. */
   Catalog cat;
   PresetList presets;
   char dir[1024], err[256];
   const bool kernels = Cli_loadCatalog(&cat);
   if (kernels) {
      Preset_defaultDir(cat.dir, dir, sizeof dir);
      PresetList_load(&presets, dir, err, sizeof err);
   }
   fprintf(out, "%-*s  steps  title\n", w, "lesson");
   for (int i = 0; i < list->count; i++) {
      const Lesson *l = &list->items[i];
      fprintf(out, "%-*s  %5d  %s", w, l->name, l->nsteps, l->title);
      const char *needs = kernels ? Lesson_needs(l, &presets, &cat) : NULL;
      if (needs)
         fprintf(out, "  (needs %s)", needs);
      if (l->user)
         fprintf(out, "  (yours%s: %s)", l->replaces_shipped ? ", replacing the shipped one" : "", l->path);
      fputc('\n', out);
   }
   if (kernels) {
      PresetList_free(&presets);
      Catalog_free(&cat);
   }
}

int Cli_listLessons(const CommandArgs *o) {
   (void)o;
   LessonList list;
   if (!loadLessons(&list))
      return 1;
   printList(stdout, &list);
   LessonList_free(&list);
   return 0;
}

/* "2 min 5 s", "40 s". */
static void fmtSeconds(double sec, char *out, size_t len) {
   if (sec >= 90)
      snprintf(out, len, "%d min %d s", (int)(sec / 60), (int)sec % 60);
   else
      snprintf(out, len, "%.0f s", sec);
}

/* The progress bar of --prepare on stderr when it is a terminal, else one line a step;
 * with the time left once a step has shown the pace (or the record says it). */
static void prepareProgress(void *ctx, int done, int total, const char *what, double left_s) {
   const bool tty = *(const bool *)ctx;
   char left[48] = "";
   if (left_s >= 0 && done < total) {
      char t[32];
      fmtSeconds(left_s, t, sizeof t);
      snprintf(left, sizeof left, ", about %s left", t);
   }
   if (!tty) {
      fprintf(stderr, "gemmtop: prepare: %d/%d %s%s\n", done, total, what, left);
      return;
   }
   int width = 30, filled = total ? done * width / total : width;
   fprintf(stderr, "\r[%.*s%.*s] %d/%d %-34.34s%-22.22s", filled, "##############################", width - filled,
           "..............................", done, total, what, left);
   if (done == total)
      fputc('\n', stderr);
}

/* gemmtop lesson NAME --prepare: every step made ready as its first visit would make it
 * (core/teach/lessonprep.h), at the size the explorer gives it on this device, so that the
 * class starts warm. */
static int prepare(const CommandArgs *o, const Lesson *lesson) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   int rc;
   Session *s = Cli_openSession(o, &cat, &rc);
   if (!s) {
      Catalog_free(&cat);
      return rc;
   }
   char dir[1024], err[256];
   PresetList presets;
   Preset_defaultDir(cat.dir, dir, sizeof dir);
   PresetList_load(&presets, dir, err, sizeof err);
   const DeviceInfo *dev = Session_device(s);
   const int asked[3] = {o->shape->has_m ? o->shape->problem.m : 0, o->shape->has_n ? o->shape->problem.n : 0,
                         o->shape->has_k ? o->shape->problem.k : 0};
   LessonSize size;
   Lesson_size(lesson, asked, dev->type == DEVICE_CPU, LESSON_CPU_SIZE, &size);
   /* Up front: how long, by the last prepare here, else what a step costs. */
   char when[64], t[32];
   const double recorded = LessonPrep_recorded(s, lesson, when, sizeof when);
   if (recorded >= 0) {
      fmtSeconds(recorded, t, sizeof t);
      printf("preparing lesson %s on %s: about %s from a cold cache, as a prepare here took (%s; steps already "
             "compiled take seconds)\n", lesson->name, dev->name, t, when);
   } else {
      printf("preparing lesson %s on %s: %d steps, each a compile and a first launch: from a few seconds to two "
             "minutes a step on a laptop's CPU, less on a GPU (no earlier prepare here to go by; the progress line "
             "gives the time left)\n", lesson->name, dev->name, lesson->nsteps);
   }
   fflush(stdout);
   bool tty = isatty(fileno(stderr));
   LessonPrepStep *steps = calloc((size_t)lesson->nsteps, sizeof *steps);
   if (!steps) {
      fprintf(stderr, "gemmtop: out of memory\n");
      PresetList_free(&presets);
      Session_close(s);
      Catalog_free(&cat);
      return 1;
   }
   double t0 = Util_nowMs();
   int failed = LessonPrep_run(s, &cat, &presets, lesson, &size, 0, prepareProgress, &tty, steps);
   int ready = 0, refused = 0;
   for (int i = 0; i < lesson->nsteps; i++) {
      ready += steps[i].outcome == PREP_READY;
      refused += steps[i].outcome == PREP_REFUSED_BY_STEP || steps[i].outcome == PREP_REFUSED_BY_DEVICE;
   }
   fmtSeconds((Util_nowMs() - t0) / 1000, t, sizeof t);
   printf("lesson %s prepared on %s (%s) in %s: %d step%s ready (compiled, launched once, verified), %d refused, "
          "%d failed\n", lesson->name, dev->name, Session_backend(s)->name, t, ready, ready == 1 ? "" : "s", refused,
          failed);
   for (int i = 0; i < lesson->nsteps; i++) {
      const LessonPrepStep *st = &steps[i];
      printf("  %2d %-32s %dx%dx%d %5.1f s  %s%s\n", i + 1, lesson->steps[i].preset, st->m, st->n, st->k, st->seconds,
             st->outcome == PREP_READY               ? "ready"
             : st->outcome == PREP_REFUSED_BY_STEP   ? "refused under the step's simulated limits, as the lesson means: "
             : st->outcome == PREP_REFUSED_BY_DEVICE ? "refused by this device: "
                                                     : "FAILED: ",
             st->outcome == PREP_READY ? "" : st->why);
   }
   free(steps);
   PresetList_free(&presets);
   Session_close(s);
   Catalog_free(&cat);
   return failed ? 1 : 0;
}

/* gemmtop lesson NAME --merge FILE...: the class's exports side by side, written beside them
 * as lesson-NAME-class.md, .csv and .svg (never over a file), the table printed. */
static int merge(const CommandArgs *o, const Lesson *lesson) {
   static MergedLadder m; /* large: kept off the stack */
   LadderMerge_init(&m, lesson);
   for (int i = 0; i < o->lesson->nmerge; i++) {
      char why[1024];
      size_t len;
      char *text = Util_readUserFile(o->lesson->merge[i], 4u << 20, &len, why, sizeof why);
      if (!text) {
         fprintf(stderr, "gemmtop: --merge %s: %s\n", o->lesson->merge[i], why);
         return 2;
      }
      bool ok = LadderMerge_add(&m, text, len, o->lesson->merge[i], why, sizeof why);
      free(text);
      if (!ok) {
         fprintf(stderr, "gemmtop: --merge: %s\n", why);
         return 2;
      }
   }
   char *texts[3] = {LadderMerge_markdown(&m), LadderMerge_csv(&m), LadderMerge_svg(&m)};
   static const char *const ext[] = {".md", ".csv", ".svg"};
   char stem[128], base[1000], err[1400] = "out of memory";
   snprintf(stem, sizeof stem, "lesson-%s-class", lesson->name);
   bool ok = texts[0] && texts[1] && texts[2] &&
             OutFile_writeSet(stem, (const char *const *)texts, ext, 3, base, sizeof base, err, sizeof err);
   if (ok)
      printf("%s\nwrote %s.md, %s.csv and %s.svg (%d ladders of %d steps)\n", texts[0], base, base, base, m.ndev,
             m.nsteps);
   else
      fprintf(stderr, "gemmtop: the merged ladder is not written: %s\n", err);
   for (int e = 0; e < 3; e++)
      free(texts[e]);
   return ok ? 0 : 1;
}

/* gemmtop lesson [NAME]: no name lists the lessons (0), an unknown one is refused (2, the
 * valid ones said), one that exists starts the explorer on it (CLI_START_EXPLORER: main.c). */
static int execLesson(const CommandArgs *o) {
   LessonList list;
   if (!loadLessons(&list))
      return 1;
   if (o->npositional == 0 && o->lesson->nmerge) {
      fprintf(stderr, "gemmtop: --merge puts a lesson's ladders side by side: name the lesson ('gemmtop lesson NAME "
                      "--merge FILE.csv ...')\n");
      LessonList_free(&list);
      return 2;
   }
   if (o->npositional == 0 && o->lesson->prepare) {
      fprintf(stderr, "gemmtop: --prepare compiles a lesson's steps: name it ('gemmtop lesson NAME --prepare'); the "
                      "lessons are:");
      for (int i = 0; i < list.count; i++)
         fprintf(stderr, "%s %s", i ? "," : "", list.items[i].name);
      fputc('\n', stderr);
      LessonList_free(&list);
      return 2;
   }
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
   if (o->lesson->nmerge && o->lesson->prepare) {
      fprintf(stderr, "gemmtop: --merge and --prepare: one at a time (merge the class's ladders, or compile the "
                      "steps)\n");
      LessonList_free(&list);
      return 2;
   }
   if (o->lesson->nmerge) {
      int rc = merge(o, LessonList_find(&list, name));
      LessonList_free(&list);
      return rc;
   }
   if (o->lesson->prepare) {
      int rc = prepare(o, LessonList_find(&list, name));
      LessonList_free(&list);
      return rc;
   }
   LessonList_free(&list);
   return CLI_START_EXPLORER;
}

const CommandEntry Cli_lessonCommand = {
    .name = "lesson",
    .groups = IN_GROUP(SELECTION) | IN_GROUP(SHAPE) | IN_GROUP(TIMING) | IN_GROUP(OUTPUT) | IN_GROUP(BANKS) |
              IN_GROUP(LESSON) | IN_GROUP(CLASS) | IN_GROUP(GENERAL),
    .words = "[NAME]",
    .summary = "teach a ladder step by step in the explorer; no NAME lists the lessons",
    .max_positional = 1,
    .exec = execLesson,
};
