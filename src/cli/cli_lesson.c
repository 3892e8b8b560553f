/* gemmtop lesson [NAME] and gemmtop list lessons: the lessons (core/lesson.h), shipped and
 * the user's own; a valid NAME is left to main.c, which starts the explorer on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/outfile.h"
#include "core/laddermerge.h"
#include "core/lesson.h"
#include "core/preset.h"
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

/* The progress bar of --prepare on stderr when it is a terminal, else one line a step. */
static void prepareProgress(bool tty, int done, int total, const char *what) {
   if (!tty) {
      fprintf(stderr, "gemmtop: prepare: %d/%d %s\n", done, total, what);
      return;
   }
   int width = 30, filled = total ? done * width / total : width;
   fprintf(stderr, "\r[%.*s%.*s] %d/%d %-50.50s", filled, "##############################", width - filled,
           "..............................", done, total, what);
   if (done == total)
      fputc('\n', stderr);
}

/* One step made ready: its preset resolved, refused as the step means it (its simulated
 * limits) or compiled into the disk cache, with its bank-trace build. Returns 1 compiled,
 * 0 refused under the step's limits, 2 refused by this device, -1 failed (why says). */
static int prepareStep(Session *s, const Catalog *cat, const PresetList *presets, const LessonStep *st, char *why,
                       size_t whylen) {
   const Preset *pr = PresetList_find(presets, st->preset);
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   Problem_setDefaults(&p);
   if (!pr) {
      snprintf(why, whylen, "no preset %s", st->preset);
      return -1;
   }
   if (!Preset_resolve(pr, cat, &k, values, &p, why, whylen))
      return -1;
   DeviceLimits lim = Session_device(s)->limits;
   if (st->limits[0] && Session_simulateLimits(st->limits, &lim, why, whylen) &&
       !Config_check(k, values, &p, &lim, NULL, why, whylen))
      return 0;
   RunStatus rs = Session_precompile(s, k, values, &p, st->ablate, why, whylen);
   if (rs == RUN_INVALID)
      return 2;
   if (rs != RUN_OK)
      return -1;
   /* The bank pane traces the step: that build too (not for tensor-map kernels, whose bank
    * figures are modelled without a trace). */
   if (k->nsites > 0 && !k->ntma && !st->ablate) {
      Trace t;
      RunResult *r = calloc(1, sizeof *r);
      if (!r) {
         snprintf(why, whylen, "out of host memory");
         return -1;
      }
      rs = Session_trace(s, k, values, &p, 1, &t, r);
      if (rs != RUN_OK)
         snprintf(why, whylen, "bank trace: %s", r->message);
      Trace_free(&t);
      RunResult_free(r);
      free(r);
      if (rs != RUN_OK)
         return -1;
   }
   return 1;
}

/* gemmtop lesson NAME --prepare: every step compiled ahead on the device the options name,
 * so that the class starts warm. */
static int prepare(const Options *o, const Lesson *lesson) {
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
   bool tty = isatty(fileno(stderr));
   int compiled = 0, refused = 0, failed = 0;
   double t0 = Util_nowMs();
   char report[LESSON_MAX_STEPS][640];
   for (int i = 0; i < lesson->nsteps; i++) {
      const LessonStep *st = &lesson->steps[i];
      prepareProgress(tty, i, lesson->nsteps, st->preset);
      char why[512] = "";
      int got = prepareStep(s, &cat, &presets, st, why, sizeof why);
      compiled += got == 1;
      refused += got == 0 || got == 2;
      failed += got < 0;
      snprintf(report[i], sizeof report[i], "%2d %-32s %s%s", i + 1, st->preset,
               got == 1   ? "ready"
               : got == 0 ? "refused under the step's simulated limits, as the lesson means: "
               : got == 2 ? "refused by this device: "
                          : "FAILED: ",
               got == 1 ? "" : why);
   }
   prepareProgress(tty, lesson->nsteps, lesson->nsteps, "done");
   printf("lesson %s prepared on %s (%s) in %.1f s: %d step%s compiled, %d refused, %d failed\n", lesson->name,
          Session_device(s)->name, Session_backend(s)->name, (Util_nowMs() - t0) / 1000, compiled,
          compiled == 1 ? "" : "s", refused, failed);
   for (int i = 0; i < lesson->nsteps; i++)
      printf("  %s\n", report[i]);
   PresetList_free(&presets);
   Session_close(s);
   Catalog_free(&cat);
   return failed ? 1 : 0;
}

/* gemmtop lesson NAME --merge FILE...: the class's exports side by side, written beside them
 * as lesson-NAME-class.md, .csv and .svg (never over a file), the table printed. */
static int merge(const Options *o, const Lesson *lesson) {
   static MergedLadder m; /* large: kept off the stack */
   LadderMerge_init(&m, lesson);
   for (int i = 0; i < o->nmerge; i++) {
      char why[1024];
      size_t len;
      char *text = Util_readUserFile(o->merge[i], 4u << 20, &len, why, sizeof why);
      if (!text) {
         fprintf(stderr, "gemmtop: --merge %s: %s\n", o->merge[i], why);
         return 2;
      }
      bool ok = LadderMerge_add(&m, text, len, o->merge[i], why, sizeof why);
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

int Cli_lesson(const Options *o) {
   LessonList list;
   if (!loadLessons(&list))
      return 1;
   if (o->npositional == 0 && o->nmerge) {
      fprintf(stderr, "gemmtop: --merge puts a lesson's ladders side by side: name the lesson ('gemmtop lesson NAME "
                      "--merge FILE.csv ...')\n");
      LessonList_free(&list);
      return 2;
   }
   if (o->npositional == 0 && o->prepare) {
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
   if (o->nmerge && o->prepare) {
      fprintf(stderr, "gemmtop: --merge and --prepare: one at a time (merge the class's ladders, or compile the "
                      "steps)\n");
      LessonList_free(&list);
      return 2;
   }
   if (o->nmerge) {
      int rc = merge(o, LessonList_find(&list, name));
      LessonList_free(&list);
      return rc;
   }
   if (o->prepare) {
      int rc = prepare(o, LessonList_find(&list, name));
      LessonList_free(&list);
      return rc;
   }
   LessonList_free(&list);
   return CLI_LESSON_START;
}
