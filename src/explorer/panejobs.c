/* The work that the bank and inspect panes ask of the worker while they are shown: a
 * trace of one work-group's local-memory accesses with its bank-conflict analysis, and
 * what the compiler made of the configuration (core/analyse/inspect.h); each once per
 * configuration, after its first run, and handed to the UI thread. */
#include "explorer/panejobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analyse/banks.h"
#include "base/util.h"
#include "explorer/worker_int.h"

void PaneJob_freeBanks(WorkerBanks *b) {
   if (b->analysis) {
      BankAnalysis_free(b->analysis);
      free(b->analysis);
   }
   b->analysis = NULL;
}

/* Traces one work-group of the current configuration and analyses its bank conflicts. */
static void traceBanks(Worker *w) {
   w->banks_job.done = true;
   WorkerConfig cfg = w->cur;
   unsigned long serial = w->cur_serial;
   const KernelInfo *k = Catalog_find(&w->cat, cfg.kernel);
   if (!k)
      return;
   char name[640];
   Worker_label(w, &cfg, name, sizeof name);
   Worker_setState(w, WS_TRACING, "tracing the local memory of %s", name);
   Session *s = w->session;
   int banks = w->banks, bank_width = w->bank_width, simd_width = w->simd_width;
   pthread_mutex_unlock(&w->mu);
   WorkerBanks b;
   memset(&b, 0, sizeof b);
   b.config = cfg;
   b.config_serial = serial;
   /* On an NVIDIA GPU the same trace takes the global loads of A and B too (not TMA's),
    * for the limiter: how they coalesce in the L1, the local memory's unit there. */
   const DeviceInfo *dev = Session_device(s);
   const bool loads = Limiter_loadsThroughL1(dev, k);
   Coalescing c;
   if (!(b.analysis = calloc(1, sizeof *b.analysis)))
      snprintf(b.message, sizeof b.message, "out of host memory");
   else if (BankAnalysis_ofConfig(b.analysis, s, k, cfg.values, &cfg.problem, 1, banks, bank_width, simd_width,
                                  loads ? &c : NULL, &b.traced, b.message, sizeof b.message) != RUN_OK) {
      free(b.analysis);
      b.analysis = NULL;
   } else
      b.limiter = LimiterTrace_of(b.analysis, loads ? &c : NULL, b.analysis->model.known, k, cfg.values, &b.traced,
                                  dev);
   pthread_mutex_lock(&w->mu);
   if (serial != w->cur_serial) {
      PaneJob_freeBanks(&b);
      return;
   }
   if (b.analysis)
      Worker_log(w, LOG_INFO, "%s: local memory traced (%zu accesses)", name, b.analysis->nrecords);
   else
      Worker_log(w, LOG_WARN, "%s: %s", name, b.message);
   if (w->banks_job.ready)
      PaneJob_freeBanks(&w->banks_job.out);
   w->banks_job.out = b;
   w->banks_job.ready = true;
   w->snap.banks_version++;
   Worker_publish(w);
}

void WorkerInspect_free(WorkerInspect *in) { Inspection_free(&in->inspection); }

/* Whether a shared LLVM is loaded in this process (PoCL's). hipRTC brings its own LLVM,
 * and two in one process abort at once ("Option ... registered more than once"). */
static bool llvmLoaded(void) {
   FILE *f = fopen("/proc/self/maps", "r");
   if (!f)
      return false;
   char line[1024];
   bool found = false;
   while (!found && fgets(line, sizeof line, f))
      found = strstr(line, "/libLLVM") != NULL;
   fclose(f);
   return found;
}

/* The inspection for an architecture compiled for offline (never the device); beside
 * PoCL's LLVM, hipRTC's runs in a child process of its own. */
static RunStatus inspectOffline(const char *kernels_dir, const char *backend, const char *arch,
                                const InspectRequest *rq, Inspection *ins) {
   const Backend *be = Backend_byName(backend);
   if (!be) {
      snprintf(ins->message, sizeof ins->message, "the %s backend is not built in", backend);
      return RUN_INVALID;
   }
   /* A compiler that brings its own LLVM (hipRTC) cannot share a process with PoCL's. */
   if (be->offline && be->offline->own_llvm && llvmLoaded())
      return Inspect_offlineApart(kernels_dir, backend, arch, rq, ins);
   return Inspect_offline(be, arch, rq, ins);
}

static void inspectCode(Worker *w) {
   w->inspect_job.done = true;
   WorkerConfig cfg = w->cur;
   unsigned long serial = w->cur_serial;
   const KernelInfo *k = Catalog_find(&w->cat, cfg.kernel);
   if (!k)
      return;
   char name[640];
   Worker_label(w, &cfg, name, sizeof name);
   char backend[16], arch[32];
   Util_copy(backend, sizeof backend, w->inspect_job.backend);
   Util_copy(arch, sizeof arch, w->inspect_job.arch);
   if (arch[0])
      Worker_setState(w, WS_INSPECTING, "compiling %s for %s (no device needed)", name, arch);
   else
      Worker_setState(w, WS_INSPECTING, "reading the compiled code of %s", name);
   pthread_mutex_unlock(&w->mu);
   WorkerInspect in;
   memset(&in, 0, sizeof in);
   in.config = cfg;
   in.config_serial = serial;
   Util_copy(in.arch, sizeof in.arch, arch);
   /* The program built for the run (a cache load, no compile), and the source as the
    * compiler reads it: shown where the device gives no assembly, and by v. */
   InspectRequest rq = {.catalog = &w->cat, .kernel = k, .values = cfg.values, .problem = &cfg.problem,
                        .ablate = cfg.ablate, .code = INSPECT_CODE_DEFAULT, .source = true};
   Inspection *ins = &in.inspection;
   RunStatus st;
   if (arch[0]) {
      /* Offline: the compiler only, never the device, so nothing timed is disturbed. */
      st = inspectOffline(w->kernels_dir, backend, arch, &rq, ins);
   } else {
      st = Inspect_onDevice(w->session, &rq, ins);
   }
   if (st != RUN_OK) {
      char why[sizeof ins->message];
      Util_copy(why, sizeof why, ins->message);
      snprintf(ins->message, sizeof ins->message, "%s: %s", RunStatus_name(st), why);
   }
   pthread_mutex_lock(&w->mu);
   if (serial != w->cur_serial || strcmp(arch, w->inspect_job.arch)) {
      WorkerInspect_free(&in);
      return;
   }
   if (!ins->ok)
      Worker_log(w, LOG_WARN, "%s: cannot read its code: %s", name, ins->message);
   if (w->inspect_job.ready)
      WorkerInspect_free(&w->inspect_job.out);
   w->inspect_job.out = in;
   w->inspect_job.ready = true;
   w->snap.inspect_version++;
   Worker_publish(w);
}

/* An offline target needs no run: a configuration this device refuses can still be
 * compiled for sm_90 or gfx906. */
static bool inspectOfflineDue(const Worker *w) {
   return w->phase == PH_STOPPED && w->inspect_job.want && !w->inspect_job.done && w->inspect_job.arch[0];
}

/* The inspect pane: the code of each configuration that ran, once, while shown. */
static bool inspectDue(const Worker *w) { return w->phase == PH_MEASURE && w->inspect_job.want && !w->inspect_job.done; }

/* The bank pane: one trace per verified configuration while it is shown. */
static bool banksDue(const Worker *w) {
   return w->phase == PH_MEASURE && w->banks_job.want && !w->banks_job.done && w->snap.result.verified_run;
}

/* Each runs alone on the device, never beside a timed launch; what it leaves behind
 * (other buffers, another program, cold caches) is kept out of the figures by an
 * untimed warm-up launch before the next timed round. */
static void inspectJob(Worker *w) {
   inspectCode(w);
   w->disturbed = true;
}

static void banksJob(Worker *w) {
   traceBanks(w);
   w->disturbed = true;
}

const WorkerJob PaneJob_inspectOffline = {"inspect for an offline target", inspectOfflineDue, inspectCode};
const WorkerJob PaneJob_inspect = {"inspect the code", inspectDue, inspectJob};
const WorkerJob PaneJob_banks = {"trace the banks", banksDue, banksJob};

/* ---- the UI's side ---- */

/* Whether a pane that asks the worker for extra work (banks, inspect) is shown. */
static void setWanted(Worker *w, bool *flag, bool wanted) {
   pthread_mutex_lock(&w->mu);
   *flag = wanted;
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

void Worker_setBanks(Worker *w, bool wanted) { setWanted(w, &w->banks_job.want, wanted); }

bool Worker_takeBanks(Worker *w, WorkerBanks *out) {
   pthread_mutex_lock(&w->mu);
   bool ready = w->banks_job.ready;
   if (ready) {
      *out = w->banks_job.out;
      w->banks_job.out.analysis = NULL;
      w->banks_job.ready = false;
   }
   pthread_mutex_unlock(&w->mu);
   return ready;
}

void Worker_setInspect(Worker *w, bool wanted) { setWanted(w, &w->inspect_job.want, wanted); }

void Worker_setSimdWidth(Worker *w, int simd_width) {
   pthread_mutex_lock(&w->mu);
   w->simd_width = simd_width;
   w->banks_job.done = false; /* analysed again under the new model */
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

void Worker_setInspectTarget(Worker *w, const char *backend, const char *arch) {
   pthread_mutex_lock(&w->mu);
   Util_copy(w->inspect_job.backend, sizeof w->inspect_job.backend, backend ? backend : "");
   Util_copy(w->inspect_job.arch, sizeof w->inspect_job.arch, arch ? arch : "");
   w->inspect_job.done = false;
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

bool Worker_takeInspect(Worker *w, WorkerInspect *out) {
   pthread_mutex_lock(&w->mu);
   bool ready = w->inspect_job.ready;
   if (ready) {
      *out = w->inspect_job.out;
      /* The texts are the UI's now. */
      memset(&w->inspect_job.out, 0, sizeof w->inspect_job.out);
      w->inspect_job.ready = false;
   }
   pthread_mutex_unlock(&w->mu);
   return ready;
}
