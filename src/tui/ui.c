/* The explorer's start, main loop and keys. The worker thread (worker.c) owns the device;
 * this thread owns the screen and never waits for the device. */
#include "tui/ui.h"

#include "core/ablate.h"
#include "core/banks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/rng.h"
#include "tui/app.h"
#include "tui/prefs.h"
#include "tui/terminal.h"
#include "core/util.h"

/* ---- signals: handlers only set flags or restore the terminal; never draw ---- */

static volatile sig_atomic_t g_signal;
static volatile sig_atomic_t g_screenOn;
static struct termios g_termios;
static bool g_haveTermios;
static char g_reset[256];
static size_t g_resetLen;

static void onSignal(int sig) { g_signal = sig; }

/* A crash must not leave the terminal raw and in the alternate screen: tcsetattr and
 * write are async-signal-safe, the sequences were prepared beforehand. Whoever handled
 * the signal before (LLVM inside the OpenCL runtime prints a stack trace) still runs, then
 * the default action ends the process. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UI_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UI_SANITIZED 1
#endif
#endif
#ifdef UI_SANITIZED
/* The sanitizer's own handlers report faults; only aborts are ours. */
static const int g_fatal[] = {SIGABRT};
#else
static const int g_fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#endif
#define NFATAL ((int)(sizeof g_fatal / sizeof g_fatal[0]))
static struct sigaction g_prevFatal[NFATAL];

static void onFatal(int sig, siginfo_t *info, void *ctx) {
   if (g_screenOn) {
      g_screenOn = 0;
      if (g_haveTermios)
         tcsetattr(STDIN_FILENO, TCSANOW, &g_termios);
      if (g_resetLen && write(STDOUT_FILENO, g_reset, g_resetLen) < 0) {
         /* nothing more can be done here */
      }
   }
   for (int i = 0; i < NFATAL; i++) {
      if (g_fatal[i] != sig)
         continue;
      const struct sigaction *p = &g_prevFatal[i];
      if (p->sa_flags & SA_SIGINFO) {
         if (p->sa_sigaction)
            p->sa_sigaction(sig, info, ctx);
      } else if (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN && p->sa_handler) {
         p->sa_handler(sig);
      }
   }
   /* Delivered again when this handler returns, now with the default action. */
   signal(sig, SIG_DFL);
   raise(sig);
}

/* (Re)installs the fatal-signal handlers in front of whatever is there: the OpenCL
 * runtime installs its own when it first compiles, so this runs again now and then. */
static void guardFatalSignals(void) {
   for (int i = 0; i < NFATAL; i++) {
      struct sigaction cur;
      if (sigaction(g_fatal[i], NULL, &cur) != 0)
         continue;
      if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == onFatal)
         continue;
      g_prevFatal[i] = cur;
      struct sigaction fa;
      memset(&fa, 0, sizeof fa);
      fa.sa_sigaction = onFatal;
      sigemptyset(&fa.sa_mask);
      fa.sa_flags = SA_SIGINFO;
      sigaction(g_fatal[i], &fa, NULL);
   }
}

static void installSignals(void) {
   struct sigaction sa;
   memset(&sa, 0, sizeof sa);
   sa.sa_handler = onSignal;
   sigemptyset(&sa.sa_mask);
   sigaction(SIGINT, &sa, NULL);
   sigaction(SIGTERM, &sa, NULL);
   sigaction(SIGHUP, &sa, NULL);
   guardFatalSignals();
}

static void addReset(const char *cap) {
   char *s = tigetstr((char *)cap);
   if (!s || s == (char *)-1)
      return;
   size_t n = strlen(s);
   if (g_resetLen + n < sizeof g_reset) {
      memcpy(g_reset + g_resetLen, s, n);
      g_resetLen += n;
   }
}

static void restoreAtExit(void) {
   if (g_screenOn && !isendwin()) {
      endwin();
      g_screenOn = 0;
   }
}

/* ---- small helpers ---- */

void Ui_flash(Ui *ui, Style st, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(ui->flash, sizeof ui->flash, fmt, ap);
   va_end(ap);
   ui->flash_style = st;
   ui->flash_until = Util_nowMs() + 4000;
   ui->dirty = true;
}

void Ui_log(Ui *ui, LogLevel level, const char *fmt, ...) {
   char buf[2048];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof buf, fmt, ap);
   va_end(ap);
   LogBuf_add(&ui->log, level, buf);
   ui->dirty = true;
}

const KernelInfo *Ui_kernel(const Ui *ui) { return &ui->cat.kernels[ui->kernel]; }

const DeviceInfo *Ui_deviceInfo(const Ui *ui) {
   if (ui->snap.have_device)
      return &ui->snap.device;
   if (ui->device >= 0 && ui->device < ui->ndevices)
      return &ui->devices[ui->device];
   return NULL;
}

const DeviceLimits *Ui_limits(const Ui *ui) {
   static const DeviceLimits none = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .fp64 = true,
                                     .warp = 32};
   const DeviceInfo *d = Ui_deviceInfo(ui);
   return d ? &d->limits : &none;
}

const char *Ui_shortName(const KernelInfo *k) {
   size_t n = strlen(k->ladder);
   if (n && !strncmp(k->name, k->ladder, n) && k->name[n])
      return k->name[n] == '_' ? k->name + n + 1 : k->name + n;
   return k->name;
}

static void buildList(Ui *ui) {
   free(ui->list);
   ui->list = malloc(sizeof *ui->list * (size_t)(ui->cat.count ? ui->cat.count : 1));
   ui->nlist = 0;
   for (int i = 0; ui->list && i < ui->cat.count; i++)
      if (!ui->cat.kernels[i].hidden || i == ui->kernel)
         ui->list[ui->nlist++] = i;
}

int Ui_kernelRows(const Ui *ui) { return 1 + Ui_kernel(ui)->nparams + ui->nlist; }

KRowKind Ui_kernelRow(const Ui *ui, int row, int *index) {
   int np = Ui_kernel(ui)->nparams;
   if (row <= 0) {
      *index = ui->kernel;
      return KROW_VARIANT_PICK;
   }
   if (row <= np) {
      *index = row - 1;
      return KROW_PARAM;
   }
   int li = row - 1 - np;
   *index = li < ui->nlist ? ui->list[li] : ui->kernel;
   return KROW_VARIANT;
}

static int listPos(const Ui *ui, int catalog_index) {
   for (int i = 0; i < ui->nlist; i++)
      if (ui->list[i] == catalog_index)
         return i;
   return -1;
}

/* ---- the configuration ---- */

void Ui_apply(Ui *ui) {
   const KernelInfo *k = Ui_kernel(ui);
   memcpy(ui->remembered[ui->kernel], ui->values, sizeof ui->values);
   ui->has_remembered[ui->kernel] = true;
   WorkerConfig c;
   memset(&c, 0, sizeof c);
   Util_copy(c.kernel, sizeof c.kernel, k->name);
   memcpy(c.values, ui->values, sizeof c.values);
   c.problem = ui->problem;
   c.ablate = ui->ablate;
   c.ready = AheadUi_ready(ui);
   Worker_post(ui->worker, &c);
   ui->hist_cursor = -1;
   ui->dirty = true;
}

void Ui_selectKernel(Ui *ui, int idx, const long long *values) {
   if (idx < 0 || idx >= ui->cat.count)
      return;
   bool inList = ui->kcursor > Ui_kernel(ui)->nparams;
   memcpy(ui->remembered[ui->kernel], ui->values, sizeof ui->values);
   ui->has_remembered[ui->kernel] = true;
   ui->kernel = idx;
   memset(ui->values, 0, sizeof ui->values);
   if (values)
      memcpy(ui->values, values, sizeof ui->values);
   else if (ui->has_remembered[idx])
      memcpy(ui->values, ui->remembered[idx], sizeof ui->values);
   else
      KernelInfo_defaults(Ui_kernel(ui), ui->values);
   if (listPos(ui, idx) < 0)
      buildList(ui);
   /* The cursor stays on what it was on: the picker, or this variant in the list. */
   if (inList)
      ui->kcursor = 1 + Ui_kernel(ui)->nparams + listPos(ui, idx);
   else if (ui->kcursor > Ui_kernel(ui)->nparams)
      ui->kcursor = 0;
   Ui_apply(ui);
}

void Ui_setProblem(Ui *ui, const Problem *p) {
   ui->problem = *p;
   Ui_apply(ui);
}

void Ui_setDevice(Ui *ui, const char *backend, DeviceInfo *devices, int ndevices, int device) {
   if (devices != ui->devices) {
      free(ui->devices);
      ui->devices = devices;
      ui->ndevices = ndevices;
   }
   Util_copy(ui->backend, sizeof ui->backend, backend);
   ui->device = device;
   Worker_setDevice(ui->worker, backend, device);
   ui->dirty = true;
}

static void stepVariant(Ui *ui, int dir) {
   int pos = listPos(ui, ui->kernel);
   int next = pos + dir;
   if (next < 0 || next >= ui->nlist) {
      Ui_flash(ui, ST_WARN, dir < 0 ? "this is the first variant" : "this is the last variant");
      return;
   }
   Ui_selectKernel(ui, ui->list[next], NULL);
}

static int valueIndex(const KernelParam *p, long long v) {
   for (int i = 0; i < p->nvalues; i++)
      if (p->values[i] == v)
         return i;
   return -1;
}

/* Moves parameter pi to the next value in direction dir: the next valid one, or with
 * any the adjacent one even if a constraint refuses it (its reason is then shown). */
static void stepParam(Ui *ui, int pi, int dir, bool any) {
   const KernelInfo *k = Ui_kernel(ui);
   const KernelParam *p = &k->params[pi];
   int cur = valueIndex(p, ui->values[pi]);
   bool valid[KERNEL_MAX_VALUES];
   Config_validValues(k, ui->values, &ui->problem, Ui_limits(ui), pi, valid);
   for (int j = cur + dir; j >= 0 && j < p->nvalues; j += dir)
      if (any || valid[j]) {
         ui->values[pi] = p->values[j];
         Ui_apply(ui);
         return;
      }
   if (!any && cur + dir >= 0 && cur + dir < p->nvalues)
      Ui_flash(ui, ST_WARN, "%s: no valid value %s %lld here (- and + step through unavailable ones too)", p->name,
               dir < 0 ? "below" : "above", ui->values[pi]);
   else
      Ui_flash(ui, ST_WARN, "%s: %lld is its %s value", p->name, ui->values[pi], dir < 0 ? "smallest" : "largest");
}

void Ui_setParamValue(Ui *ui, int pi, int vi) {
   const KernelInfo *k = Ui_kernel(ui);
   if (pi < 0 || pi >= k->nparams || vi < 0 || vi >= k->params[pi].nvalues)
      return;
   ui->values[pi] = k->params[pi].values[vi];
   Ui_apply(ui);
}

static void restoreHistory(Ui *ui, int i) {
   if (i < 0 || i >= ui->hist.count)
      return;
   const HistoryEntry *e = &ui->hist.items[i];
   const KernelInfo *k = Catalog_find(&ui->cat, e->kernel);
   if (!k) {
      Ui_flash(ui, ST_BAD, "kernel %s is no longer in the catalog", e->kernel);
      return;
   }
   int idx = (int)(k - ui->cat.kernels);
   ui->problem = e->problem;
   ui->ablate = e->ablate;
   if (strcmp(e->backend, ui->backend) || e->device != ui->device) {
      if (!strcmp(e->backend, ui->backend) && e->device < ui->ndevices)
         Ui_setDevice(ui, ui->backend, ui->devices, ui->ndevices, e->device);
      else
         Ui_flash(ui, ST_WARN, "that configuration ran on %s device %d: choose it in setup (F2)", e->backend,
                  e->device);
   }
   int keep = ui->hist_cursor;
   Ui_selectKernel(ui, idx, e->values);
   ui->hist_cursor = keep;
   Ui_flash(ui, ST_NORMAL, "back to %s %s", e->kernel, e->params);
}

/* ---- kernel files: reload on request or when they change on disk ---- */

/* dirs: the catalog's folders, "a" or "a:b". */
static unsigned long long kernelsSignature(const char *dirs) {
   unsigned long long h = UTIL_HASH_INIT;
   const char *subs[] = {"", "/helpers"};
   for (const char *dir = dirs; *dir; dir += strcspn(dir, ":"), dir += *dir == ':')
   for (int s = 0; s < 2; s++) {
      char path[1200];
      snprintf(path, sizeof path, "%.*s%s", (int)strcspn(dir, ":"), dir, subs[s]);
      DIR *d = opendir(path);
      if (!d)
         continue;
      struct dirent *e;
      while ((e = readdir(d))) {
         size_t n = strlen(e->d_name);
         if (n < 3 || (strcmp(e->d_name + n - 3, ".cl") && strcmp(e->d_name + n - 2, ".h")))
            continue;
         char f[1500];
         struct stat st;
         snprintf(f, sizeof f, "%s/%s", path, e->d_name);
         if (stat(f, &st) != 0)
            continue;
         /* Order-independent: entries are summed. */
         unsigned long long one = Util_hash(UTIL_HASH_INIT, e->d_name, n);
         one = Util_hash(one, &st.st_mtim, sizeof st.st_mtim);
         one = Util_hash(one, &st.st_size, sizeof st.st_size);
         h += one;
      }
      closedir(d);
   }
   return h;
}

static void reloadKernels(Ui *ui, const char *why) {
   Catalog fresh;
   char err[1024];
   if (!Catalog_load(&fresh, ui->kernels_dir, err, sizeof err)) {
      Ui_log(ui, LOG_ERROR, "cannot reload the kernels: %s", err);
      return;
   }
   char name[64];
   Util_copy(name, sizeof name, Ui_kernel(ui)->name);
   long long old[KERNEL_MAX_PARAMS];
   memcpy(old, ui->values, sizeof old);
   KernelInfo oldInfo = *Ui_kernel(ui); /* names of the parameters only */
   const KernelInfo *k = Catalog_find(&fresh, name);
   int idx = k ? (int)(k - fresh.kernels) : -1;
   if (idx < 0)
      for (int i = 0; i < fresh.count && idx < 0; i++)
         if (!fresh.kernels[i].hidden)
            idx = i;
   if (idx < 0) {
      Ui_log(ui, LOG_ERROR, "the reloaded kernels folder %s has no kernel; keeping the old catalog", ui->kernels_dir);
      Catalog_free(&fresh);
      return;
   }
   long long (*rem)[KERNEL_MAX_PARAMS] = calloc((size_t)fresh.count, sizeof *rem);
   bool *has = calloc((size_t)fresh.count, sizeof *has);
   if (!rem || !has) {
      free(rem);
      free(has);
      Catalog_free(&fresh);
      return;
   }
   free(ui->remembered);
   free(ui->has_remembered);
   ui->remembered = rem;
   ui->has_remembered = has;
   /* Values carry over by parameter name where the new metadata still allows them. */
   k = &fresh.kernels[idx];
   memset(ui->values, 0, sizeof ui->values);
   KernelInfo_defaults(k, ui->values);
   if (!strcmp(k->name, name))
      for (int i = 0; i < oldInfo.nparams; i++) {
         int pi = KernelInfo_paramIndex(k, oldInfo.params[i].name);
         if (pi >= 0 && valueIndex(&k->params[pi], old[i]) >= 0)
            ui->values[pi] = old[i];
      }
   Catalog_free(&ui->cat);
   ui->cat = fresh;
   ui->kernel = idx;
   buildList(ui);
   if (ui->kcursor >= Ui_kernelRows(ui))
      ui->kcursor = 0;
   if (ui->cat.warnings[0])
      Ui_log(ui, LOG_WARN, "some kernel files were skipped:\n%s", ui->cat.warnings);
   if (ui->cat.notes[0])
      Ui_log(ui, LOG_INFO, "kernels replaced by a later folder's:\n%s", ui->cat.notes);
   Ui_log(ui, LOG_INFO, "kernels reloaded (%s): %d variants", why, ui->cat.count);
   Worker_reload(ui->worker);
   if (ui->ahead)
      Ahead_reload(ui->ahead);
   Ui_apply(ui);
}

static void watchKernels(Ui *ui) {
   double now = Util_nowMs();
   if (now < ui->next_watch)
      return;
   ui->next_watch = now + 1000;
   guardFatalSignals();
   unsigned long long sig = kernelsSignature(ui->kernels_dir);
   if (ui->kernels_sig && sig != ui->kernels_sig)
      reloadKernels(ui, "a file changed");
   ui->kernels_sig = sig;
}

/* ---- what libraries print on stderr goes to a file; its lines are shown in the log ---- */

static void captureStderr(Ui *ui) {
   ui->saved_stderr = -1;
   ui->stderr_read = -1;
   char dir[900];
   int fd = -1;
   if (Util_userDir("cache", dir, sizeof dir) && Util_mkdirs(dir)) {
      /* One file per process; removed on a clean exit, kept after a crash. */
      snprintf(ui->stderr_path, sizeof ui->stderr_path, "%s/explorer-stderr-%ld.log", dir, (long)getpid());
      fd = open(ui->stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
   }
   if (fd < 0) {
      ui->stderr_path[0] = '\0';
      fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
   }
   if (fd < 0)
      return;
   fflush(stderr);
   ui->saved_stderr = dup(STDERR_FILENO);
   dup2(fd, STDERR_FILENO);
   close(fd);
   if (ui->stderr_path[0])
      ui->stderr_read = open(ui->stderr_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

static void releaseStderr(Ui *ui) {
   if (ui->saved_stderr >= 0) {
      fflush(stderr);
      dup2(ui->saved_stderr, STDERR_FILENO);
      close(ui->saved_stderr);
      ui->saved_stderr = -1;
   }
   if (ui->stderr_read >= 0)
      close(ui->stderr_read);
   ui->stderr_read = -1;
   if (ui->stderr_path[0])
      unlink(ui->stderr_path);
}

static void pollStderr(Ui *ui) {
   if (ui->stderr_read < 0)
      return;
   char buf[4096];
   ssize_t n;
   while ((n = read(ui->stderr_read, buf, sizeof buf - 1)) > 0) {
      buf[n] = '\0';
      for (char *s = buf; *s;) {
         char *nl = strchr(s, '\n');
         size_t have = strlen(ui->stderr_partial);
         size_t take = nl ? (size_t)(nl - s) : strlen(s);
         if (have + take >= sizeof ui->stderr_partial)
            take = sizeof ui->stderr_partial - 1 - have;
         memcpy(ui->stderr_partial + have, s, take);
         ui->stderr_partial[have + take] = '\0';
         if (!nl)
            break;
         if (ui->stderr_partial[0])
            Ui_log(ui, LOG_WARN, "stderr: %s", ui->stderr_partial);
         ui->stderr_partial[0] = '\0';
         s = nl + 1;
      }
   }
}

/* ---- the worker's news ---- */

static void updateHistory(Ui *ui) {
   const WorkerSnapshot *s = &ui->snap;
   if (!s->have_config || !s->have_result || !s->have_device)
      return;
   if (s->status == RUN_INVALID || (s->nwindow == 0 && (s->status == RUN_OK || s->status == RUN_CANCELLED)))
      return;
   HistoryEntry e;
   memset(&e, 0, sizeof e);
   Util_copy(e.backend, sizeof e.backend, s->backend);
   e.device = s->device_index;
   Util_copy(e.kernel, sizeof e.kernel, s->config.kernel);
   memcpy(e.values, s->config.values, sizeof e.values);
   const KernelInfo *k = Catalog_find(&ui->cat, e.kernel);
   e.nvalues = k ? k->nparams : 0;
   if (k)
      KernelInfo_formatParams(k, e.values, e.params, sizeof e.params);
   e.problem = s->config.problem;
   e.ablate = s->config.ablate;
   e.emulated = s->geo.emulated;
   e.gflops = s->nwindow ? s->gflops : 0;
   e.median_ms = s->median_ms;
   bool verified = !s->verified_run || s->verify.ok;
   if (s->nwindow && verified)
      e.state = HIST_OK;
   else if (s->nwindow)
      e.state = HIST_NOT_VERIFIED;
   else
      e.state = HIST_FAILED;
   Util_copy(e.why, sizeof e.why, s->nwindow && !verified ? "wrong result" : RunStatus_name(s->status));
   History_update(&ui->hist, &e);
}

static void freeBanks(Ui *ui) {
   if (ui->have_banks && ui->banks.analysis) {
      BankAnalysis_free(ui->banks.analysis);
      free(ui->banks.analysis);
   }
   ui->banks.analysis = NULL;
   ui->have_banks = false;
}

/* Steps the bank pane's site (what 0), warp (1) or execution (2). */
static void stepBanks(Ui *ui, int what, int d) {
   if (!(ui->visible & PANE_BIT(PANE_BANKS))) {
      Ui_flash(ui, ST_WARN, "the bank pane is hidden: 5 shows it");
      return;
   }
   const BankAnalysis *a = ui->have_banks ? ui->banks.analysis : NULL;
   if (!a || !a->nrequests)
      return;
   if (what == 0) {
      int s = ui->bank_site;
      for (int i = 0; i < a->nsites; i++) {
         s = (s + d + a->nsites) % a->nsites;
         if (a->sites[s].requests)
            break;
      }
      ui->bank_site = s;
      ui->bank_iter = 0;
   } else if (what == 1) {
      int n = a->warps * a->groups;
      ui->bank_warp = n > 0 ? (ui->bank_warp + d + n) % n : 0;
   } else {
      ui->bank_iter += d;
   }
   Draw_clampBanks(ui);
   ui->dirty = true;
}

static void freeInspect(Ui *ui) {
   if (ui->have_inspect)
      WorkerInspect_free(&ui->inspect);
   free(ui->inspect_lines);
   ui->inspect_lines = NULL;
   ui->inspect_nlines = 0;
   ui->have_inspect = false;
}

/* Indexes the lines of the text now shown. */
static void inspectReindex(Ui *ui) {
   free(ui->inspect_lines);
   ui->inspect_lines = NULL;
   const char *text = Ui_inspectText(ui, NULL);
   ui->inspect_nlines = text ? Listing_split(text, &ui->inspect_lines) : 0;
   if (ui->inspect_nlines < 0)
      ui->inspect_nlines = 0;
}

static void pollInspect(Ui *ui) {
   bool on = (ui->visible & PANE_BIT(PANE_INSPECT)) != 0;
   if (on != ui->inspect_on) {
      ui->inspect_on = on;
      Worker_setInspect(ui->worker, on);
   }
   WorkerInspect in;
   if (!Worker_takeInspect(ui->worker, &in))
      return;
   /* A new configuration's listing starts at its top; the same one keeps its place. */
   bool same = ui->have_inspect && !strcmp(in.config.kernel, ui->inspect.config.kernel) &&
               !memcmp(in.config.values, ui->inspect.config.values, sizeof in.config.values);
   freeInspect(ui);
   ui->inspect = in;
   ui->have_inspect = true;
   inspectReindex(ui);
   if (!same)
      ui->inspect_scroll = 0;
   ui->dirty = true;
}

static void pollWorker(Ui *ui) {
   if (Worker_snapshot(ui->worker, &ui->snap, &ui->snap_seen)) {
      ui->dirty = true;
      updateHistory(ui);
   }
   if (Worker_sweep(ui->worker, ui->sweep, &ui->sweep_seen))
      ui->dirty = true;
   bool banks_on = (ui->visible & PANE_BIT(PANE_BANKS)) != 0;
   if (banks_on != ui->banks_on) {
      ui->banks_on = banks_on;
      Worker_setBanks(ui->worker, banks_on);
   }
   WorkerBanks nb;
   if (Worker_takeBanks(ui->worker, &nb)) {
      freeBanks(ui);
      ui->banks = nb;
      ui->have_banks = true;
      Draw_clampBanks(ui);
      ui->dirty = true;
   }
   pollInspect(ui);
   Worker_takeLog(ui->worker, &ui->log);
   if (ui->log.added != ui->log_seen) {
      ui->log_seen = ui->log.added;
      ui->dirty = true;
   }
}

static bool busy(const Ui *ui) {
   switch (ui->snap.state) {
   case WS_STARTING: case WS_OPENING: case WS_WAITING: case WS_PREPARING: case WS_COMPILING: case WS_VERIFYING:
   case WS_MEASURING: case WS_VENDOR: case WS_PEAKS: case WS_TRACING: case WS_SWEEPING: case WS_INSPECTING:
      return true;
   default:
      return false;
   }
}

/* ---- keys ---- */

static void focusNext(Ui *ui, int dir) {
   for (int i = 1; i <= PANE_COUNT; i++) {
      int p = ((ui->focus + dir * i) % PANE_COUNT + PANE_COUNT) % PANE_COUNT;
      if (ui->layout.shown & PANE_BIT(p)) {
         ui->focus = p;
         if (ui->zoom >= 0)
            ui->zoom = p;
         return;
      }
   }
}

static void togglePane(Ui *ui, int p) {
   ui->visible ^= PANE_BIT(p);
   if (ui->zoom == p)
      ui->zoom = -1;
   if (ui->visible & PANE_BIT(p))
      ui->focus = p;
   Layout_compute(ui->cols, ui->rows, ui->visible, ui->zoom, &ui->layout);
   if (!(ui->layout.shown & PANE_BIT(ui->focus)))
      focusNext(ui, 1);
   if (ui->visible & PANE_BIT(p) && !(ui->layout.shown & PANE_BIT(p)))
      Ui_flash(ui, ST_WARN, "no room for the %s pane at %dx%d: hide another or zoom (z)", Layout_paneName(p), ui->cols,
               ui->rows);
}

static int paneHeight(const Ui *ui, int p) {
   int h = ui->layout.pane[p].h - 1;
   return h > 1 ? h : 1;
}

static void kernelKey(Ui *ui, int ch) {
   int rows = Ui_kernelRows(ui), idx;
   KRowKind kind = Ui_kernelRow(ui, ui->kcursor, &idx);
   int page = paneHeight(ui, PANE_KERNEL) / 2;
   switch (ch) {
   case KEY_UP: case 'k': ui->kcursor--; break;
   case KEY_DOWN: case 'j': ui->kcursor++; break;
   case KEY_PPAGE: ui->kcursor -= page; break;
   case KEY_NPAGE: ui->kcursor += page; break;
   case KEY_HOME: ui->kcursor = 0; break;
   case KEY_END: ui->kcursor = rows - 1; break;
   case KEY_LEFT: case KEY_RIGHT: {
      int dir = ch == KEY_LEFT ? -1 : 1;
      if (kind == KROW_PARAM)
         stepParam(ui, idx, dir, false);
      else
         stepVariant(ui, dir);
      break;
   }
   case '-': case '+': case '=': case KEY_SLEFT: case KEY_SRIGHT: {
      int dir = ch == '-' || ch == KEY_SLEFT ? -1 : 1;
      if (kind == KROW_PARAM)
         stepParam(ui, idx, dir, true);
      else
         stepVariant(ui, dir);
      break;
   }
   case '\n': case '\r': case KEY_ENTER:
      if (kind == KROW_VARIANT)
         Ui_selectKernel(ui, idx, NULL);
      break;
   default: break;
   }
   if (ui->kcursor < 0)
      ui->kcursor = 0;
   if (ui->kcursor >= rows)
      ui->kcursor = rows - 1;
}

static void historyKey(Ui *ui, int ch) {
   int n = ui->hist.count;
   if (n == 0)
      return;
   int cur = ui->hist_cursor;
   if (cur < 0) {
      WorkerConfig *c = &ui->snap.config;
      HistoryEntry probe;
      memset(&probe, 0, sizeof probe);
      Util_copy(probe.backend, sizeof probe.backend, ui->snap.backend);
      probe.device = ui->snap.device_index;
      Util_copy(probe.kernel, sizeof probe.kernel, c->kernel);
      memcpy(probe.values, c->values, sizeof probe.values);
      const KernelInfo *k = Catalog_find(&ui->cat, c->kernel);
      probe.nvalues = k ? k->nparams : 0;
      probe.problem = c->problem;
      probe.ablate = c->ablate;
      cur = History_find(&ui->hist, &probe);
      if (cur < 0)
         cur = n - 1;
   }
   switch (ch) {
   case KEY_UP: case 'k': cur--; break;
   case KEY_DOWN: case 'j': cur++; break;
   case KEY_PPAGE: cur -= paneHeight(ui, PANE_HISTORY); break;
   case KEY_NPAGE: cur += paneHeight(ui, PANE_HISTORY); break;
   case KEY_HOME: cur = 0; break;
   case KEY_END: cur = n - 1; break;
   case '\n': case '\r': case KEY_ENTER:
      restoreHistory(ui, cur);
      return;
   default: return;
   }
   ui->hist_cursor = cur < 0 ? 0 : cur >= n ? n - 1 : cur;
}

static void logKey(Ui *ui, int ch) {
   int page = paneHeight(ui, PANE_LOG) - 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->log_scroll++; break;
   case KEY_DOWN: case 'j': ui->log_scroll--; break;
   case KEY_PPAGE: ui->log_scroll += page > 1 ? page : 1; break;
   case KEY_NPAGE: ui->log_scroll -= page > 1 ? page : 1; break;
   case KEY_HOME: ui->log_scroll = ui->log.count; break;
   case KEY_END: ui->log_scroll = 0; break;
   default: break;
   }
   if (ui->log_scroll > ui->log.count - 1)
      ui->log_scroll = ui->log.count > 0 ? ui->log.count - 1 : 0;
   if (ui->log_scroll < 0)
      ui->log_scroll = 0;
}

/* Cancels the run in progress and pauses; a sweep stops, keeping what it measured. */
static void cancel(Ui *ui) {
   bool sweeping = ui->sweep->running;
   Worker_cancel(ui->worker);
   ui->paused = true;
   if (sweeping)
      Ui_flash(ui, ST_WARN, "sweep stopped after %d of %d (what it measured stays); measuring paused: space resumes",
               ui->sweep->done, ui->sweep->total);
   else
      Ui_flash(ui, ST_WARN, "cancelled: space resumes");
}

/* The inspect pane's listing: a line, a page, its top or its end. */
static void inspectKey(Ui *ui, int ch) {
   int page = paneHeight(ui, PANE_INSPECT) - 2;
   if (page < 1)
      page = 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->inspect_scroll--; break;
   case KEY_DOWN: case 'j': ui->inspect_scroll++; break;
   case KEY_PPAGE: ui->inspect_scroll -= page; break;
   case KEY_NPAGE: ui->inspect_scroll += page; break;
   case KEY_HOME: ui->inspect_scroll = 0; break;
   case KEY_END: ui->inspect_scroll = ui->inspect_nlines; break; /* drawing keeps the last page in view */
   case 'v':
      if (!ui->have_inspect || !ui->inspect.ok)
         return;
      if (!ui->inspect.code) {
         Ui_flash(ui, ST_WARN, "no compiled code to switch to: %s", ui->inspect.note);
         return;
      }
      ui->inspect_source = !ui->inspect_source;
      ui->inspect_scroll = 0;
      inspectReindex(ui);
      return;
   default: break;
   }
   if (ui->inspect_scroll > ui->inspect_nlines - 1)
      ui->inspect_scroll = ui->inspect_nlines > 0 ? ui->inspect_nlines - 1 : 0;
   if (ui->inspect_scroll < 0)
      ui->inspect_scroll = 0;
}

static void togglePause(Ui *ui) {
   ui->paused = !ui->paused;
   Worker_setPaused(ui->worker, ui->paused);
   Ui_flash(ui, ST_NORMAL, ui->paused ? "paused: space resumes live measuring" : "measuring");
}

static void mouseEvent(Ui *ui) {
   MEVENT ev;
   if (getmouse(&ev) != OK)
      return;
   if (ui->dialog) {
      Dialog_mouse(ui, ev.x, ev.y, (ev.bstate & BUTTON1_DOUBLE_CLICKED) != 0);
      return;
   }
   int pane = -1;
   for (int p = 0; p < PANE_COUNT; p++)
      if ((ui->layout.shown & PANE_BIT(p)) && Rect_contains(ui->layout.pane[p], ev.x, ev.y))
         pane = p;
#ifdef BUTTON5_PRESSED
   if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
      int key = ev.bstate & BUTTON4_PRESSED ? KEY_UP : KEY_DOWN;
      if (pane == PANE_LOG)
         logKey(ui, key), logKey(ui, key), logKey(ui, key);
      else if (pane == PANE_INSPECT)
         inspectKey(ui, key), inspectKey(ui, key), inspectKey(ui, key);
      else if (pane == PANE_KERNEL)
         kernelKey(ui, key);
      else if (pane == PANE_HISTORY)
         historyKey(ui, key);
      return;
   }
#endif
   if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED)))
      return;
   if (pane >= 0)
      ui->focus = pane;
   for (int i = ui->nhits - 1; i >= 0; i--) {
      const Hit *h = &ui->hits[i];
      if (!Rect_contains(h->r, ev.x, ev.y))
         continue;
      switch (h->kind) {
      case HIT_VALUE: ui->kcursor = 1 + h->a; Ui_setParamValue(ui, h->a, h->b); break;
      case HIT_VARIANT: ui->kcursor = h->b; Ui_selectKernel(ui, h->a, NULL); break;
      case HIT_ROW: ui->kcursor = h->a; break;
      case HIT_HISTORY:
         ui->hist_cursor = h->a;
         if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
            restoreHistory(ui, h->a);
         break;
      case HIT_PANE: break;
      }
      return;
   }
}

static void handleKey(Ui *ui, int ch) {
   if (ch == KEY_RESIZE) {
      ui->dirty = true;
      return;
   }
   if (ch == KEY_MOUSE) {
      mouseEvent(ui);
      return;
   }
   if (ch == 3) { /* Ctrl-C arriving as a key */
      ui->quit = true;
      return;
   }
   if (ch == 12) { /* Ctrl-L */
      clearok(curscr, TRUE);
      return;
   }
   if (ui->layout.too_small) {
      if (ch == 'q' || ch == KEY_F(10))
         ui->quit = true;
      return;
   }
   if (ui->dialog) {
      Dialog_key(ui, ch);
      return;
   }
   switch (ch) {
   case KEY_F(1): case '?': case 'h': Dialog_open(ui, DLG_HELP); return;
   case KEY_F(2): case 's': Dialog_open(ui, DLG_SETUP); return;
   case KEY_F(3): case 'p': Dialog_open(ui, DLG_PRESETS); return;
   case KEY_F(4): case 'w': Dialog_open(ui, DLG_SAVE); return;
   case KEY_F(5): case 'r': reloadKernels(ui, "asked"); return;
   case KEY_F(6): case 'm':
      Worker_measurePeaks(ui->worker);
      Ui_flash(ui, ST_NORMAL, "measuring the device's peaks...");
      return;
   case KEY_F(7): case 'b':
      Worker_measureVendor(ui->worker);
      Ui_flash(ui, ST_NORMAL, "timing the vendor BLAS...");
      return;
   case KEY_F(8): case ' ': togglePause(ui); return;
   case KEY_F(9): case 'c': cancel(ui); return;
   case 27:
      if (ui->zoom >= 0)
         ui->zoom = -1;
      else if ((busy(ui) && !ui->paused) || ui->sweep->running)
         cancel(ui);
      return;
   case KEY_F(10): case 'q': ui->quit = true; return;
   case 'A': AheadUi_cycle(ui); return;
   case '\t': focusNext(ui, 1); return;
   case KEY_BTAB: focusNext(ui, -1); return;
   case '1': case '2': case '3': case '4': case '5': togglePane(ui, ch - '1'); return;
   case '7': togglePane(ui, PANE_SWEEP); return;
   case 'S': SweepView_toggle(ui); return;
   case 'X': SweepView_cycleX(ui); return;
   case 'B': SweepView_applyBest(ui); return;
   case '6': case 'i': togglePane(ui, PANE_INSPECT); return;
   case 'z':
      ui->zoom = ui->zoom >= 0 ? -1 : ui->focus;
      return;
   case ',': case '<': stepVariant(ui, -1); return;
   case '.': case '>': stepVariant(ui, 1); return;
   case '[': stepBanks(ui, 0, -1); return;
   case ']': stepBanks(ui, 0, 1); return;
   case '{': stepBanks(ui, 1, -1); return;
   case '}': stepBanks(ui, 1, 1); return;
   case '(': stepBanks(ui, 2, -1); return;
   case ')': stepBanks(ui, 2, 1); return;
   case 'a': {
      /* Ablation: none, no-a, no-b, no-fma, const-store, no-a,no-b, none again. */
      ui->ablate = Ablate_next(ui->ablate);
      Ui_apply(ui);
      char names[64];
      Ablate_name(ui->ablate, names, sizeof names);
      if (ui->ablate)
         Ui_flash(ui, ST_WARN, "ABLATED: %s: not verified, not a GEMM result (a again: next)", names);
      else
         Ui_flash(ui, ST_NORMAL, "ablation off: real, verified runs");
      return;
   }
   case 'd':
      KernelInfo_defaults(Ui_kernel(ui), ui->values);
      Ui_apply(ui);
      Ui_flash(ui, ST_NORMAL, "parameters back to their defaults");
      return;
   default: break;
   }
   switch (ui->focus) {
   case PANE_KERNEL: kernelKey(ui, ch); break;
   case PANE_HISTORY: historyKey(ui, ch); break;
   case PANE_LOG: logKey(ui, ch); break;
   case PANE_SWEEP:
      if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
         SweepView_applyBest(ui);
      else if (ch == KEY_LEFT || ch == KEY_RIGHT || ch == '-' || ch == '+')
         kernelKey(ui, ch);
      break;
   case PANE_INSPECT:
      if (ch == KEY_LEFT || ch == KEY_RIGHT || ch == '-' || ch == '+')
         kernelKey(ui, ch);
      else
         inspectKey(ui, ch);
      break;
   default:
      /* Arrows act on the kernel pane when the focused pane has no use for them. */
      if (ch == KEY_LEFT || ch == KEY_RIGHT || ch == '-' || ch == '+')
         kernelKey(ui, ch);
      break;
   }
}

/* ---- start ---- */

static bool presetSetsSize(const Options *o, const Catalog *cat) {
   if (!o->preset)
      return false;
   Preset p;
   char err[1536];
   bool found = false;
   if (strchr(o->preset, '/') || strstr(o->preset, ".preset")) {
      found = Preset_load(o->preset, &p, err, sizeof err);
   } else {
      char dir[1024];
      PresetList list;
      Preset_defaultDir(cat->dir, dir, sizeof dir);
      PresetList_load(&list, dir, err, sizeof err);
      const Preset *f = PresetList_find(&list, o->preset);
      if (f) {
         p = *f;
         found = true;
      }
      PresetList_free(&list);
   }
   return found && (p.has_m || p.has_n || p.has_k);
}

static bool setNamed(const Options *o, const char *param) {
   size_t n = strlen(param);
   for (int i = 0; i < o->nsets; i++)
      if (!strncmp(o->sets[i], param, n) && o->sets[i][n] == '=')
         return true;
   return false;
}

static void initColors(Ui *ui) {
   if (!ui->color || !has_colors()) {
      ui->color = false;
      return;
   }
   start_color();
   use_default_colors();
   init_pair(1, COLOR_BLACK, COLOR_CYAN);   /* header, keys */
   init_pair(2, COLOR_WHITE, COLOR_BLUE);   /* pane titles */
   init_pair(3, COLOR_BLACK, COLOR_GREEN);  /* the focused pane's title */
   init_pair(4, COLOR_CYAN, -1);            /* labels */
   init_pair(5, COLOR_GREEN, -1);
   init_pair(6, COLOR_RED, -1);
   init_pair(7, COLOR_YELLOW, -1);
   init_pair(8, COLOR_BLUE, -1);            /* bars */
   init_pair(9, COLOR_BLACK, COLOR_YELLOW); /* the selected value */
   init_pair(10, COLOR_WHITE, COLOR_BLACK); /* dialogs */
}

static void startScreen(Ui *ui) {
   if (tcgetattr(STDIN_FILENO, &g_termios) == 0)
      g_haveTermios = true;
   initscr();
   g_screenOn = 1;
   atexit(restoreAtExit);
   cbreak();
   noecho();
   nonl();
   keypad(stdscr, TRUE);
   set_escdelay(25);
   curs_set(0);
   timeout(100);
   initColors(ui);
   mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED
#ifdef BUTTON5_PRESSED
                 | BUTTON4_PRESSED | BUTTON5_PRESSED
#endif
             ,
             NULL);
   mouseinterval(200);
   g_resetLen = 0;
   addReset("sgr0");
   addReset("cnorm");
   addReset("rmkx");
   addReset("rmcup");
   const char *mouseOff = "\033[?1000l\033[?1002l\033[?1006l\r\n";
   if (g_resetLen + strlen(mouseOff) < sizeof g_reset) {
      memcpy(g_reset + g_resetLen, mouseOff, strlen(mouseOff));
      g_resetLen += strlen(mouseOff);
   }
   getmaxyx(stdscr, ui->rows, ui->cols);
}

static void stopScreen(void) {
   if (g_screenOn) {
      endwin();
      g_screenOn = 0;
   }
}

static bool isUtf8Locale(void) {
   const char *cs = nl_langinfo(CODESET);
   return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

static void freeUi(Ui *ui) {
   Catalog_free(&ui->cat);
   free(ui->list);
   free(ui->devices);
   free(ui->remembered);
   free(ui->has_remembered);
   free(ui->setup.devices);
   if (ui->presets.loaded)
      PresetList_free(&ui->presets.list);
   LogBuf_free(&ui->log);
   free(ui->sweep);
   free(ui);
}

static void savePrefs(Ui *ui) {
   if (!ui->have_prefs_path)
      return;
   UiPrefs p;
   Prefs_init(&p);
   p.panes = ui->visible;
   p.focus = ui->focus;
   const KernelInfo *k = Ui_kernel(ui);
   Util_copy(p.kernel, sizeof p.kernel, k->name);
   for (int i = 0; i < k->nparams; i++) {
      Util_copy(p.params[i].name, sizeof p.params[i].name, k->params[i].name);
      p.params[i].value = ui->values[i];
   }
   p.nparams = k->nparams;
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

int Ui_main(const Options *o) {
   setlocale(LC_ALL, "");
   if (o->npositional > 0) {
      fprintf(stderr, "gemmtop: unexpected argument '%s'; see 'gemmtop --help'\n", o->positional[0]);
      return 2;
   }
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
   Ui *ui = calloc(1, sizeof *ui);
   if (!ui) {
      fprintf(stderr, "gemmtop: out of memory\n");
      return 1;
   }
   ui->opts = o;
   ui->utf8 = !o->ascii && isUtf8Locale();
   const char *term = getenv("TERM");
   ui->color = !o->no_color && !(term && !strcmp(term, "dumb"));
   ui->bars = ui->utf8 ? CHART_BLOCKS : CHART_ASCII;
   ui->spark = ui->utf8 ? CHART_BRAILLE : CHART_ASCII;
   ui->zoom = -1;
   ui->hist_cursor = -1;
   ui->saved_stderr = ui->stderr_read = -1;
   LogBuf_init(&ui->log, 4000);
   History_init(&ui->hist);
   ui->sweep = calloc(1, sizeof *ui->sweep);
   if (!ui->sweep) {
      fprintf(stderr, "gemmtop: out of memory\n");
      freeUi(ui);
      return 1;
   }

   /* Catalog and device, with plain messages while the terminal is still ordinary. */
   if (!Cli_loadCatalog(&ui->cat)) {
      freeUi(ui);
      return 1;
   }
   Util_copy(ui->kernels_dir, sizeof ui->kernels_dir, ui->cat.dir);
   Preset_defaultDir(ui->cat.dir, ui->presets_dir, sizeof ui->presets_dir);
   char real[PATH_MAX];
   if (realpath(ui->presets_dir, real))
      Util_copy(ui->presets_dir, sizeof ui->presets_dir, real);
   char err[1536] = "";
   DeviceInfo *devs = NULL;
   int ndev = 0;
   const Backend *be;
   if (!o->backend && !o->device) {
      /* The best device of any backend: a GPU (OpenCL, else CUDA, else HIP) before PoCL. */
      be = Cli_defaultBackend(&devs, &ndev, err, sizeof err);
   } else {
      be = o->backend ? Backend_byName(o->backend) : Backend_at(0);
      if (!be) {
         char names[128];
         Backend_names(names, sizeof names);
         fprintf(stderr, "gemmtop: unknown backend '%s'; available: %s\n", o->backend, names);
         freeUi(ui);
         return 2;
      }
      ndev = Backend_listDevices(be, &devs, err, sizeof err);
   }
   if (ndev <= 0) {
      fprintf(stderr,
              "gemmtop: no device to measure on (%s backend): %s\n"
              "the explorer needs a device of some backend; 'gemmtop list devices' shows what each finds\n",
              o->backend ? be->name : "any", err[0] ? err : "none found");
      free(devs);
      freeUi(ui);
      return 1;
   }
   int dev = Cli_pickDevice(devs, ndev, o->device, err, sizeof err);
   if (dev < 0) {
      fprintf(stderr, "gemmtop: %s backend: %s\n", be->title, err);
      free(devs);
      freeUi(ui);
      return 2;
   }
   ui->devices = devs;
   ui->ndevices = ndev;
   ui->device = dev;
   Util_copy(ui->backend, sizeof ui->backend, be->name);

   /* Preferences, then the starting configuration: options > preset > preferences. */
   UiPrefs prefs;
   Prefs_init(&prefs);
   ui->have_prefs_path = Prefs_path(ui->prefs_path, sizeof ui->prefs_path);
   if (ui->have_prefs_path)
      Prefs_load(&prefs, ui->prefs_path);
   Options oo = *o;
   bool fromPrefs = false;
   if (!o->kernel && !o->preset) {
      const KernelInfo *pk = prefs.kernel[0] ? Catalog_find(&ui->cat, prefs.kernel) : NULL;
      if (pk && !pk->hidden) {
         oo.kernel = pk->name;
         fromPrefs = true;
      } else {
         for (int i = 0; i < ui->cat.count && !oo.kernel; i++)
            if (!ui->cat.kernels[i].hidden)
               oo.kernel = ui->cat.kernels[i].name;
      }
      if (!oo.kernel) {
         fprintf(stderr, "gemmtop: no kernel to show in %s\n", ui->cat.dir);
         freeUi(ui);
         return 1;
      }
   }
   const KernelInfo *k = NULL;
   memset(ui->values, 0, sizeof ui->values);
   int rc = Cli_resolveConfig(&oo, &ui->cat, &k, ui->values, &ui->problem);
   if (rc) {
      freeUi(ui);
      return rc;
   }
   ui->kernel = (int)(k - ui->cat.kernels);
   if (fromPrefs)
      for (int i = 0; i < prefs.nparams; i++) {
         int pi = KernelInfo_paramIndex(k, prefs.params[i].name);
         if (pi >= 0 && !setNamed(o, prefs.params[i].name) && valueIndex(&k->params[pi], prefs.params[i].value) >= 0)
            ui->values[pi] = prefs.params[i].value;
      }
   if (!o->has_m && !o->has_n && !o->has_k && !presetSetsSize(o, &ui->cat)) {
      int size = devs[dev].type == DEVICE_CPU ? 512 : 2048;
      ui->problem.m = ui->problem.n = ui->problem.k = size;
   }
   ui->visible = prefs.has_panes ? prefs.panes : PANES_DEFAULT;
   if (!ui->visible)
      ui->visible = PANES_DEFAULT;
   ui->focus = prefs.focus >= 0 ? prefs.focus : PANE_KERNEL;
   AheadMode am = AHEAD_AUTO;
   if (prefs.ahead[0] && AheadMode_parse(prefs.ahead, &am))
      ui->ahead_mode = am;
   ui->remembered = calloc((size_t)ui->cat.count, sizeof *ui->remembered);
   ui->has_remembered = calloc((size_t)ui->cat.count, sizeof *ui->has_remembered);
   buildList(ui);
   if (!ui->remembered || !ui->has_remembered || !ui->list) {
      fprintf(stderr, "gemmtop: out of memory\n");
      freeUi(ui);
      return 1;
   }

   WorkerInit wi;
   memset(&wi, 0, sizeof wi);
   wi.kernels_dir = ui->kernels_dir;
   wi.backend = ui->backend;
   wi.device = ui->device;
   Util_copy(wi.config.kernel, sizeof wi.config.kernel, k->name);
   memcpy(wi.config.values, ui->values, sizeof ui->values);
   wi.config.problem = ui->problem;
   wi.vendor = true;
   wi.seed = o->has_seed ? o->seed : Rng_freshSeed();
   ui->worker = Worker_start(&wi, err, sizeof err);
   if (!ui->worker) {
      fprintf(stderr, "gemmtop: %s\n", err);
      freeUi(ui);
      return 1;
   }
   memcpy(ui->remembered[ui->kernel], ui->values, sizeof ui->values);
   ui->has_remembered[ui->kernel] = true;
   char aerr[256] = "";
   ui->ahead = Ahead_start(ui->kernels_dir, Ahead_defaultThreads(), aerr, sizeof aerr);
   /* A sweep waits for the pool's compile of its next configuration, not compiling it twice. */
   Worker_setAhead(ui->worker, ui->ahead);

   installSignals();
   startScreen(ui);
   captureStderr(ui);
   if (prefs.warnings[0])
      Ui_log(ui, LOG_WARN, "%s", prefs.warnings);
   if (ui->cat.warnings[0])
      Ui_log(ui, LOG_WARN, "some kernel files were skipped:\n%s", ui->cat.warnings);
   if (ui->cat.notes[0])
      Ui_log(ui, LOG_INFO, "kernels replaced by a later folder's:\n%s", ui->cat.notes);
   Ui_log(ui, LOG_INFO, "gemmtop %s: %d kernel variants from %s; F1 or ? for help", GEMMTOP_VERSION, ui->cat.count,
          ui->kernels_dir);
   ui->kernels_sig = kernelsSignature(ui->kernels_dir);
   ui->next_watch = Util_nowMs() + 1000;
   if (!ui->ahead)
      Ui_log(ui, LOG_WARN, "compile ahead is off: %s", aerr);
   ui->dirty = true;

   double lastSpin = 0, lastKey = 0;
   while (!ui->quit) {
      if (g_signal) {
         ui->exit_code = g_signal == SIGINT ? 0 : 128 + g_signal;
         break;
      }
      pollWorker(ui);
      AheadUi_update(ui);
      pollStderr(ui);
      watchKernels(ui);
      double now = Util_nowMs();
      if (busy(ui) && now - lastSpin >= 100) {
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
      handleKey(ui, ch);
      ui->dirty = true;
   }

   stopScreen();
   releaseStderr(ui);
   savePrefs(ui);
   int code = ui->exit_code;
   /* A compile ahead is not waited for (nothing of it is needed), nor is a launch
    * already on the device, after a moment: the process then ends without cleaning up. */
   Worker_setAhead(ui->worker, NULL);
   bool aheadStopped = Ahead_stop(ui->ahead, 100);
   ui->ahead = NULL;
   bool workerStopped = Worker_stop(ui->worker, 300);
   char busy[400];
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
   freeBanks(ui);
   freeInspect(ui);
   freeUi(ui);
   return code;
}
