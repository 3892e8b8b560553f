/* The explorer's start, main loop and end. The device and the configuration are chosen as
 * the command line chooses them (core/run/select.h), with plain messages while the terminal
 * is still ordinary; then the worker thread (explorer/worker.h) owns the device and this
 * thread owns the screen, never waiting for the device. */
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/rng.h"
#include "core/results/store.h"
#include "base/util.h"
#include "tui/app.h"
#include "tui/draw_lesson.h"
#include "tui/prefs.h"
#include "tui/terminal.h"

static void freeUi(Ui *ui) {
   Panes_free(Panes_shipped(), ui);
   Store_close(ui->store);
   Catalog_free(&ui->cat);
   free(ui->list);
   free(ui->devices);
   free(ui->remembered);
   free(ui->has_remembered);
   free(ui->setup.devices);
   ShapeSuites_free(&ui->setup.suites);
   if (ui->presets.loaded)
      PresetList_free(&ui->presets.list);
   free(ui->presets.match);
   LogBuf_free(&ui->log);
   free(ui);
}

static Ui *newUi(const UiStart *start) {
   Ui *ui = calloc(1, sizeof *ui);
   if (!ui)
      return NULL;
   ui->start = *start;
   ui->paint.utf8 = !start->ascii && Screen_utf8Locale();
   const char *term = getenv("TERM");
   ui->paint.color = !start->no_color && !(term && !strcmp(term, "dumb"));
   ui->bars = ui->paint.utf8 ? CHART_BLOCKS : CHART_ASCII;
   ui->spark = ui->paint.utf8 ? CHART_BRAILLE : CHART_ASCII;
   ui->zoom = -1;
   ui->saved_stderr = ui->stderr_read = -1;
   LogBuf_init(&ui->log, 4000);
   History_init(&ui->hist);
   if (!Panes_start(Panes_shipped(), ui)) {
      freeUi(ui);
      return NULL;
   }
   return ui;
}

/* The kernels, and where the presets are. Returns 0 or the exit code (message printed). */
static int openCatalog(Ui *ui) {
   char err[1024];
   if (!Select_loadCatalog(&ui->cat, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return 1;
   }
   if (ui->cat.warnings[0])
      fprintf(stderr, "gemmtop: some kernel files were skipped:\n%s", ui->cat.warnings);
   Util_copy(ui->kernels_dir, sizeof ui->kernels_dir, ui->cat.dir);
   Preset_defaultDir(ui->cat.dir, ui->presets_dir, sizeof ui->presets_dir);
   char real[PATH_MAX];
   if (realpath(ui->presets_dir, real))
      Util_copy(ui->presets_dir, sizeof ui->presets_dir, real);
   return 0;
}

/* The device: the one named, or with neither backend nor device named the best of any
 * backend (a GPU of the first backend that has one, before PoCL). Returns 0 or the exit
 * code. */
static int chooseDevice(Ui *ui) {
   const Selection *sel = &ui->start.sel;
   char err[1536] = "";
   DeviceInfo *devs = NULL;
   int ndev = 0;
   const Backend *be;
   if (!sel->backend && !sel->device) {
      be = Select_defaultBackend(&devs, &ndev, err, sizeof err);
   } else {
      be = Select_backend(sel->backend, err, sizeof err);
      if (!be) {
         fprintf(stderr, "gemmtop: %s\n", err);
         return 2;
      }
      ndev = Backend_listDevices(be, &devs, err, sizeof err);
   }
   if (ndev <= 0) {
      fprintf(stderr,
              "gemmtop: no device to measure on (%s backend): %s\n"
              "the explorer needs a device of some backend; 'gemmtop list devices' shows what each finds\n",
              sel->backend ? be->name : "any", err[0] ? err : "none found");
      free(devs);
      return 1;
   }
   int dev = Device_pick(devs, ndev, sel->device, err, sizeof err);
   if (dev < 0) {
      fprintf(stderr, "gemmtop: %s backend: %s\n", be->title, err);
      free(devs);
      return 2;
   }
   ui->devices = devs;
   ui->ndevices = ndev;
   ui->device = dev;
   Util_copy(ui->backend, sizeof ui->backend, be->name);
   return 0;
}

/* Whether the device chosen can compile and run kernel k (an sm_90a kernel cannot run on
 * PoCL); why not in why. */
static bool runsHere(const Ui *ui, const KernelInfo *k, char *why, size_t whylen) {
   const Backend *be = Select_backend(ui->backend, why, whylen);
   if (!be)
      return false;
   const ConfigTarget t = Session_targetFor(be, &ui->devices[ui->device]);
   return Config_targetOk(k, &t, why, whylen);
}

/* The starting configuration: options > preset > preferences > the first variant.
 * A saved kernel the device refuses is not restored: the explorer opens on the first one it
 * runs and says why (restore_note). Returns 0 or the exit code. */
static int startConfig(Ui *ui, const UiPrefs *prefs) {
   const Selection *given = &ui->start.sel;
   Selection sel = *given;
   bool fromPrefs = false;
   if (!sel.kernel && !sel.preset) {
      const KernelInfo *pk = prefs->kernel[0] ? Catalog_find(&ui->cat, prefs->kernel) : NULL;
      char why[600] = "";
      if (pk && !pk->hidden && runsHere(ui, pk, why, sizeof why)) {
         sel.kernel = pk->name;
         fromPrefs = true;
      } else {
         for (int i = 0; i < ui->cat.count && !sel.kernel; i++)
            if (!ui->cat.kernels[i].hidden && runsHere(ui, &ui->cat.kernels[i], NULL, 0))
               sel.kernel = ui->cat.kernels[i].name;
         if (pk && !pk->hidden && sel.kernel)
            snprintf(ui->restore_note, sizeof ui->restore_note,
                     "the kernel saved last, %s, cannot run on this device (%s); opened on %s instead", pk->name, why,
                     sel.kernel);
      }
      if (!sel.kernel) {
         fprintf(stderr, "gemmtop: no kernel to show in %s\n", ui->cat.dir);
         return 1;
      }
   }
   Resolved r;
   char err[1536];
   if (!Select_resolve(&sel, &ui->cat, &r, err, sizeof err) || !Select_checkScalars(given, &r.problem, true, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return 2;
   }
   const KernelInfo *k = r.kernel;
   ui->kernel = (int)(k - ui->cat.kernels);
   memcpy(ui->values, r.values, sizeof ui->values);
   ui->problem = r.problem;
   if (fromPrefs)
      for (int i = 0; i < prefs->nparams; i++) {
         int pi = KernelInfo_paramIndex(k, prefs->params[i].name);
         if (pi >= 0 && !Select_sets(given, prefs->params[i].name) &&
             KernelParam_valueIndex(&k->params[pi], prefs->params[i].value) >= 0)
            ui->values[pi] = prefs->params[i].value;
      }
   /* With no size asked for, one that answers quickly on this kind of device. */
   if (!given->has_m && !given->has_n && !given->has_k && !r.preset_sized) {
      int size = ui->devices[ui->device].type == DEVICE_CPU ? 512 : 2048;
      ui->problem.m = ui->problem.n = ui->problem.k = size;
   }
   return 0;
}

/* The panes, the focus and the compile-ahead mode from the preferences; the per-kernel
 * memory of values. Returns 0 or the exit code. */
static int startPanes(Ui *ui, const UiPrefs *prefs) {
   ui->visible = prefs->has_panes ? prefs->panes : PANES_DEFAULT;
   if (!ui->visible)
      ui->visible = PANES_DEFAULT;
   ui->focus = prefs->focus >= 0 ? prefs->focus : PANE_KERNEL;
   AheadMode am = AHEAD_AUTO;
   if (prefs->ahead[0] && AheadMode_parse(prefs->ahead, &am))
      ui->ahead_mode = am;
   ui->remembered = calloc((size_t)ui->cat.count, sizeof *ui->remembered);
   ui->has_remembered = calloc((size_t)ui->cat.count, sizeof *ui->has_remembered);
   Ui_buildList(ui);
   if (!ui->remembered || !ui->has_remembered || !ui->list) {
      fprintf(stderr, "gemmtop: out of memory\n");
      return 1;
   }
   memcpy(ui->remembered[ui->kernel], ui->values, sizeof ui->values);
   ui->has_remembered[ui->kernel] = true;
   return 0;
}

/* The worker, measuring the starting configuration at once, and the compile-ahead pool
 * (aerr says why there is none). Returns 0 or the exit code. */
static int startWorker(Ui *ui, char *aerr, size_t aerrlen) {
   WorkerInit wi;
   memset(&wi, 0, sizeof wi);
   wi.kernels_dir = ui->kernels_dir;
   wi.backend = ui->backend;
   wi.device = ui->device;
   Util_copy(wi.config.kernel, sizeof wi.config.kernel, Ui_kernel(ui)->name);
   memcpy(wi.config.values, ui->values, sizeof ui->values);
   wi.config.problem = ui->problem;
   wi.config.ablate = ui->ablate;
   Util_copy(wi.config.limits, sizeof wi.config.limits, ui->limits);
   /* In a lesson the vendor BLAS is timed on request (F7): its first call cannot be
    * interrupted (a minute on a CPU device while the library compiles) and would hold up
    * the class's next step. */
   wi.vendor = !ui->start.lesson;
   wi.banks = ui->start.banks;
   wi.bank_width = ui->start.bank_width;
   wi.simd_width = ui->simd_width = ui->start.simd_width;
   wi.seed = ui->start.has_seed ? ui->start.seed : Rng_freshSeed();
   wi.store = ui->start.store;
   wi.no_store = ui->start.no_store;
   wi.server = ui->start.server;
   char err[1024];
   ui->worker = Worker_start(&wi, err, sizeof err);
   if (!ui->worker) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return 1;
   }
   /* On a class server the server compiles: compiling ahead here would only take the CPU. */
   if (ui->start.server)
      snprintf(aerr, aerrlen, "the class server %s compiles and measures", ui->start.server);
   else
      ui->ahead = Ahead_start(ui->kernels_dir, Ahead_defaultThreads(), aerr, aerrlen);
   /* A sweep waits for the pool's compile of its next configuration, not compiling it twice. */
   Worker_setAhead(ui->worker, ui->ahead);
   return 0;
}

static void greet(Ui *ui, const UiPrefs *prefs, const char *aerr) {
   if (prefs->warnings[0])
      Ui_log(ui, LOG_WARN, "%s", prefs->warnings);
   if (ui->cat.warnings[0])
      Ui_log(ui, LOG_WARN, "some kernel files were skipped:\n%s", ui->cat.warnings);
   if (ui->cat.notes[0])
      Ui_log(ui, LOG_INFO, "kernels replaced by a later folder's:\n%s", ui->cat.notes);
   Ui_log(ui, LOG_INFO, "gemmtop %s: %d kernel variants from %s; F1 or ? for help", GEMMTOP_VERSION, ui->cat.count,
          ui->kernels_dir);
   ui->kernels_sig = Ui_kernelsSignature(ui->kernels_dir);
   ui->next_watch = Util_nowMs() + 1000;
   if (!ui->ahead)
      Ui_log(ui, LOG_WARN, "compile ahead is off: %s", aerr);
   if (ui->restore_note[0]) {
      Ui_log(ui, LOG_WARN, "%s", ui->restore_note);
      Ui_flash(ui, ST_WARN, "%s", ui->restore_note);
   }
   ui->dirty = true;
}

static void mainLoop(Ui *ui) {
   double lastSpin = 0, lastKey = 0;
   while (!ui->quit) {
      int sig = Screen_signal();
      if (sig) {
         ui->exit_code = sig == SIGINT ? 0 : 128 + sig;
         break;
      }
      Ui_pollWorker(ui);
      AheadUi_update(ui);
      Screen_pollStderr(ui);
      Ui_watchKernels(ui);
      double now = Util_nowMs();
      if (Ui_busy(ui) && now - lastSpin >= 100) {
         lastSpin = now;
         ui->frame++;
         ui->dirty = true;
      }
      if (ui->flash[0] && now > ui->flash_until) {
         ui->flash[0] = '\0';
         ui->dirty = true;
      }
      if (ui->dirty) {
         ui->dirty = false;
         Draw_screen(ui);
      }
      /* A figure on its way is drawn as soon as it comes: the target is 0.1 s from a key
       * to a verified figure when the program is cached. */
      WorkerState ws = ui->snap.state;
      bool coming = ws == WS_WAITING || ws == WS_PREPARING || ws == WS_COMPILING || ws == WS_VERIFYING ||
                    now - lastKey < 1000;
      timeout(coming ? 10 : 100);
      int ch = getch();
      if (ch == ERR)
         continue;
      lastKey = Util_nowMs();
      Keys_handle(ui, ch);
      ui->dirty = true;
   }
}

static void savePrefs(Ui *ui) {
   if (!ui->have_prefs_path)
      return;
   UiPrefs p;
   Prefs_init(&p);
   const bool teaching = LessonPane_lesson(LessonPane_of(&ui->panes)) != NULL;
   p.panes = teaching && ui->prefs_visible ? ui->prefs_visible : ui->visible;
   p.focus = ui->focus;
   const KernelInfo *k = Ui_kernel(ui);
   Util_copy(p.kernel, sizeof p.kernel, k->name);
   for (int i = 0; i < k->nparams; i++) {
      Util_copy(p.params[i].name, sizeof p.params[i].name, k->params[i].name);
      p.params[i].value = ui->values[i];
   }
   p.nparams = k->nparams;
   /* A lesson's kernel is the lesson's, not the user's: the kernel saved before it stays. */
   if (teaching) {
      UiPrefs before;
      Prefs_init(&before);
      Prefs_load(&before, ui->prefs_path);
      memcpy(p.kernel, before.kernel, sizeof p.kernel);
      memcpy(p.params, before.params, sizeof p.params);
      p.nparams = before.nparams;
   }
   Util_copy(p.ahead, sizeof p.ahead, AheadMode_name((AheadMode)ui->ahead_mode));
   char err[1200];
   if (!Prefs_save(&p, ui->prefs_path, err, sizeof err))
      fprintf(stderr, "gemmtop: preferences not saved: %s\n", err);
}

/* What keeps the worker from stopping at once, for the messages on leaving: its last
 * activity and why that cannot be cut short. */
static void describeBusy(const WorkerSnapshot *sn, char *out, size_t len) {
   const char *why = sn->state == WS_VENDOR      ? " (on its first call the vendor library compiles its kernels, "
                                                   "which cannot be interrupted)"
                     : sn->state == WS_COMPILING ? " (a compile cannot be interrupted)"
                                                 : " (a launch on the device cannot be interrupted)";
   snprintf(out, len, "%s%s", sn->activity[0] ? sn->activity : WorkerState_name(sn->state), why);
}

/* Gives the terminal back, saves the preferences and stops the threads. A compile ahead
 * is not waited for (nothing of it is needed), nor is the worker after a few seconds
 * (saying what it is busy with): the process then ends without cleaning up. */
static int finish(Ui *ui) {
   Screen_stop();
   Screen_releaseStderr(ui);
   savePrefs(ui);
   int code = ui->exit_code;
   Worker_setAhead(ui->worker, NULL);
   bool aheadStopped = Ahead_stop(ui->ahead, 100);
   ui->ahead = NULL;
   bool workerStopped = Worker_stop(ui->worker, 300);
   char busy[400];
   /* The vendor library's first call compiles its kernels and cannot be cut short; no
    * figure of it is kept and no record is being written meanwhile: not waited for. */
   unsigned long seen = 0;
   if (!workerStopped)
      Worker_snapshot(ui->worker, &ui->snap, &seen); /* its state now, not as last drawn */
   if (!workerStopped && aheadStopped && ui->snap.state == WS_VENDOR) {
      fprintf(stderr, "gemmtop: leaving without waiting for the vendor BLAS (its first call compiles its kernels, "
                      "which cannot be interrupted; nothing of it is kept)\n");
      fflush(NULL);
      _exit(code);
   }
   if (!workerStopped && aheadStopped) {
      /* Said before the wait, so that the pause has a reason on the screen. */
      describeBusy(&ui->snap, busy, sizeof busy);
      fprintf(stderr, "gemmtop: waiting up to 5 s: the worker is still %s\n", busy);
      workerStopped = Worker_stop(ui->worker, 4700);
   }
   if (!workerStopped || !aheadStopped) {
      if (!workerStopped && aheadStopped) {
         fprintf(stderr, "gemmtop: leaving without waiting for it\n");
      } else if (!workerStopped) {
         describeBusy(&ui->snap, busy, sizeof busy);
         fprintf(stderr, "gemmtop: leaving without waiting for the worker, which is still %s\n", busy);
      }
      fflush(NULL);
      _exit(code);
   }
   ui->worker = NULL;
   freeUi(ui);
   return code;
}

int Ui_main(const UiStart *start) {
   setlocale(LC_ALL, "");
   if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
      fprintf(stderr, "gemmtop: the explorer needs a terminal; 'gemmtop run' measures one configuration without one\n");
      return 2;
   }
   char why[256];
   if (!Terminal_usable(why, sizeof why)) {
      fprintf(stderr,
              "gemmtop: the explorer cannot draw on this terminal: %s; set TERM to your terminal's type (e.g. "
              "TERM=xterm-256color), or use the command line ('gemmtop run', 'gemmtop sweep'; see 'gemmtop --help')\n",
              why);
      return 2;
   }
   Ui *ui = newUi(start);
   if (!ui) {
      fprintf(stderr, "gemmtop: out of memory\n");
      return 1;
   }
   UiPrefs prefs;
   Prefs_init(&prefs);
   int rc = openCatalog(ui);
   if (!rc)
      rc = chooseDevice(ui);
   if (!rc) {
      ui->have_prefs_path = Prefs_path(ui->prefs_path, sizeof ui->prefs_path);
      if (ui->have_prefs_path)
         Prefs_load(&prefs, ui->prefs_path);
      rc = startConfig(ui, &prefs);
   }
   if (!rc)
      rc = startPanes(ui, &prefs);
   unsigned panesBefore = ui->visible;
   if (!rc && start->lesson) {
      PaneCtx ctx;
      PaneHost_context(ui, PANE_LESSON, &ctx);
      rc = LessonPane_begin(&ctx, LessonPane_of(&ui->panes));
      /* The lesson pane in the place of the history (the ladder is the lesson's history)
       * and of the log (4 shows it), so that the step's text has room at 80x24; the
       * preferences keep the panes as they were. */
      ui->visible = (ui->visible | PANE_BIT(PANE_LESSON)) & ~(PANE_BIT(PANE_HISTORY) | PANE_BIT(PANE_LOG));
   }
   char aerr[256] = "";
   if (!rc)
      rc = startWorker(ui, aerr, sizeof aerr);
   if (rc) {
      freeUi(ui);
      return rc;
   }
   Screen_installSignals();
   Screen_start(ui);
   Screen_captureStderr(ui);
   greet(ui, &prefs, aerr);
   ui->prefs_visible = panesBefore;
   mainLoop(ui);
   return finish(ui);
}
