/* A class server's assignments, submissions and boards (docs/class.md): the "class"
 * verbs, a submission taken and judged, the board written, what a restarted server had
 * queued. The daemon around them is serve.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/textbuf.h"
#include "base/util.h"
#include "core/catalog.h"
#include "core/select.h"
#include "serve/board.h"
#include "serve/serve_int.h"
#include "serve/vet.h"

/* Judges a submission: every size of its assignment, rounds launches each on fresh
 * inputs, each verified; the vendor library on the same size; all recorded. */
void ClassCmd_judge(Request *r, int slot) {
   Submission *s = &r->sub;
   MeasureJob j = Serve_jobOn(r, slot);
   double logG = 0, logP = 0, worst = 0;
   int nsizes = 0, npct = 0;
   bool ok = true;
   s->detail[0] = s->reason[0] = '\0';
   char sizes[sizeof r->asg.sizes];
   Util_copy(sizes, sizeof sizes, r->asg.sizes);
   for (char *save = NULL, *item = strtok_r(sizes, ",", &save); item && ok; item = strtok_r(NULL, ",", &save)) {
      if (sscanf(item, "%dx%dx%d", &j.problem.m, &j.problem.n, &j.problem.k) != 3)
         continue;
      Measurer *m = Measurer_new(&j);
      SweepCandidate c;
      memset(&c, 0, sizeof c);
      memcpy(c.values, r->values, sizeof r->values);
      if (!m) {
         ok = false;
         snprintf(s->reason, sizeof s->reason, "out of memory on the server");
         break;
      }
      Measurer_judge(m, r->values, r->nvalues, r->asg.rounds, NULL, &c);
      Serve_recordCandidate(r, &j, &c, "submit");
      size_t used = strlen(s->detail);
      if (c.outcome != SWEEP_OK) {
         ok = false;
         snprintf(s->reason, sizeof s->reason, "%s: %s: %s", item, SweepOutcome_name(c.outcome), c.reason);
         snprintf(s->detail + used, sizeof s->detail - used, "%s: %s\n", item, SweepOutcome_name(c.outcome));
         Measurer_free(m);
         break;
      }
      char vendor[256];
      double vg = Measurer_vendor(m, vendor, sizeof vendor);
      Measurer_free(m);
      Serve_recordVendor(r, &j, vg, vendor);
      logG += log(c.gflops);
      worst = fmax(worst, c.max_rel_err);
      nsizes++;
      if (vg > 0) {
         logP += log(100.0 * c.gflops / vg);
         npct++;
         snprintf(s->detail + used, sizeof s->detail - used, "%s: %.2f GFLOPS, %s %.2f (%.1f%%), error %.2g\n", item,
                  c.gflops, vendor, vg, 100.0 * c.gflops / vg, c.max_rel_err);
      } else
         snprintf(s->detail + used, sizeof s->detail - used, "%s: %.2f GFLOPS (no vendor figure: %s), error %.2g\n",
                  item, c.gflops, vendor, c.max_rel_err);
   }
   s->verified = ok && nsizes > 0;
   s->gflops = s->verified ? exp(logG / nsizes) : NAN;
   s->pct = s->verified && npct == nsizes ? exp(logP / npct) : NAN;
   s->max_rel_err = s->verified ? worst : NAN;
   Util_copy(s->device, sizeof s->device, Srv.slots[slot].info.name);
}

/* ---- assignments, submissions and boards ---- */

static bool validName(const char *name) {
   size_t n = strlen(name);
   if (n == 0 || n >= CLASS_NAME_MAX || name[0] == '.' || name[0] == '-')
      return false;
   for (size_t i = 0; i < n; i++)
      if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
            (name[i] >= '0' && name[i] <= '9') || name[i] == '_' || name[i] == '-' || name[i] == '.'))
         return false;
   return true;
}

static int byStep(const void *a, const void *b) {
   return ((const BoardStep *)a)->step - ((const BoardStep *)b)->step;
}

/* The ladder of the kernel an assignment starts from (the server's kernels): its steps in
 * order, into steps (at most max); *ladder's name "" when there is none. */
static void ladderOf(const Assignment *a, BoardLadder *ladder, BoardStep *steps, int max) {
   memset(ladder, 0, sizeof *ladder);
   ladder->steps = steps;
   Catalog cat;
   char err[512];
   if (!a->kernel[0] || !Catalog_load(&cat, Srv.kernels, err, sizeof err))
      return;
   const KernelInfo *start = Catalog_find(&cat, a->kernel);
   if (start && start->ladder[0]) {
      Util_copy(ladder->name, sizeof ladder->name, start->ladder);
      for (int i = 0; i < cat.count && ladder->nsteps < max; i++) {
         const KernelInfo *k = &cat.kernels[i];
         if (strcmp(k->ladder, start->ladder) != 0 || k->hidden)
            continue;
         BoardStep *st = &steps[ladder->nsteps++];
         st->step = k->step;
         Util_copy(st->kernel, sizeof st->kernel, k->name);
         Util_copy(st->title, sizeof st->title, k->title);
      }
      qsort(steps, (size_t)ladder->nsteps, sizeof *steps, byStep);
   }
   Catalog_free(&cat);
}

#define BOARD_MAX_STEPS 64

void ClassCmd_writeBoard(const Assignment *a) {
   if (!Srv.o.board_dir)
      return;
   pthread_mutex_lock(&Srv.lock);
   Assignment now;
   int n = 0;
   Submission *subs = ClassDb_get(Srv.classdb, a->name, &now) ? ClassDb_submissions(Srv.classdb, a->name, (uid_t)-1, NULL, &n)
                                                            : NULL;
   pthread_mutex_unlock(&Srv.lock);
   BoardViewer anyone = {.uid = (uid_t)-1, .names_shown = Srv.o.names_shown};
   BoardStep steps[BOARD_MAX_STEPS];
   BoardLadder ladder;
   ladderOf(&now, &ladder, steps, BOARD_MAX_STEPS);
   char *page = Board_render(&now, subs, n, &anyone, &ladder, BOARD_HTML);
   char path[1200];
   snprintf(path, sizeof path, "%s/%s.html", Srv.o.board_dir, a->name);
   if (!page || !Util_writeFileAtomic(path, page, strlen(page)))
      Serve_log("board page %s not written: %s", path, page ? strerror(errno) : "out of memory");
   free(page);
   free(subs);
}

/* A kernel's values: its defaults, then sets ("A=1,B=2" or "-"), through the catalog of
 * folders. False with why. */
static bool resolveValues(const char *folders, const char *kernel, const char *sets, long long *values, int *n,
                          char *why, size_t whylen) {
   Catalog cat;
   if (!Catalog_load(&cat, folders, why, whylen))
      return false;
   char copy[256];
   Util_copy(copy, sizeof copy, strcmp(sets, "-") ? sets : "");
   const char *list[KERNEL_MAX_PARAMS];
   int nsets = 0;
   for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && nsets < KERNEL_MAX_PARAMS;
        t = strtok_r(NULL, ",", &save))
      list[nsets++] = t;
   Selection sel = {.kernel = kernel, .sets = list, .nsets = nsets};
   Problem_setDefaults(&sel.problem);
   Resolved res;
   bool ok = Catalog_find(&cat, kernel) && Select_resolve(&sel, &cat, &res, why, whylen);
   if (!Catalog_find(&cat, kernel))
      snprintf(why, whylen, "no kernel %s on the server", kernel);
   if (ok) {
      memcpy(values, res.values, sizeof res.values);
      *n = res.kernel->nparams;
   }
   Catalog_free(&cat);
   return ok;
}

/* A submission's request: its source in a folder of its own, its values resolved. */
static Request *judgeRequest(const RosterEntry *who, const Assignment *a, const Submission *s, const char *source,
                             size_t len, char *why, size_t whylen) {
   Request *r = calloc(1, sizeof *r);
   if (!r) {
      snprintf(why, whylen, "out of memory on the server");
      return NULL;
   }
   r->kind = REQ_JUDGE;
   r->who = *who;
   r->asg = *a;
   r->sub = *s;
   r->device = -1;
   atomic_init(&r->cancel, 0);
   snprintf(r->sub_dir, sizeof r->sub_dir, "%s/submission-%lld", Srv.uploads, s->id);
   char path[1400];
   snprintf(path, sizeof path, "%s/%s", r->sub_dir, s->file);
   /* Vetted again as it is compiled: a source a restarted server had queued was vetted by
    * the version that took it. */
   char *text = malloc(len + 1);
   if (!text) {
      snprintf(why, whylen, "out of memory on the server");
      free(r);
      return NULL;
   }
   memcpy(text, source, len);
   text[len] = '\0';
   bool vetted = Vet_kernelSource(text, &len, why, whylen);
   if (vetted && ((mkdir(r->sub_dir, 0700) != 0 && errno != EEXIST) || !Util_writeFileAtomic(path, text, len))) {
      snprintf(why, whylen, "the server cannot keep the file: %s", strerror(errno));
      vetted = false;
   }
   free(text);
   if (!vetted) {
      free(r);
      return NULL;
   }
   MeasureJob *j = &r->job;
   Problem_setDefaults(&j->problem);
   if (!Precision_parse(a->precision, &j->problem.precision))
      j->problem.precision = PRECISION_FLOAT;
   Util_copy(j->kernel, sizeof j->kernel, s->kernel);
   Serve_folders(r->sub_dir, j->kernels_dir, sizeof j->kernels_dir);
   j->reps = 1;
   j->warmup = 3;
   j->timeout_s = Srv.o.request_s;
   j->cold_l2 = a->cold_l2;
   sscanf(a->sizes, "%dx%dx%d", &j->problem.m, &j->problem.n, &j->problem.k);
   if (!resolveValues(j->kernels_dir, s->kernel, s->sets, r->values, &r->nvalues, why, whylen)) {
      Serve_removeTree(r->sub_dir);
      free(r);
      return NULL;
   }
   return r;
}

/* "submit ASSIGNMENT SETS" after a file: recorded, judged in turn, answered. */
bool ClassCmd_submit(Conn *c, const char *args) {
   char name[CLASS_NAME_MAX], sets[256] = "-", why[1024];
   if (sscanf(args, "%47s %255s", name, sets) < 1)
      return Serve_say(c, "error a submission names its assignment");
   Assignment a;
   pthread_mutex_lock(&Srv.lock);
   bool known = ClassDb_get(Srv.classdb, name, &a);
   long long stored = ClassDb_bytesOf(Srv.classdb, c->who.uid);
   pthread_mutex_unlock(&Srv.lock);
   if (!known)
      return Serve_say(c, "error there is no assignment %s on this server ('gemmtop class list' shows them)", name);
   if (!a.open)
      return Serve_say(c, "error assignment %s is closed: it takes no more submissions", name);
   if (!c->file[0])
      return Serve_say(c, "error a submission sends its kernel file first");
   char path[1400];
   snprintf(path, sizeof path, "%s/%s", c->dir, c->file);
   size_t len = 0;
   char *source = Util_readUserFile(path, UTIL_MAX_KERNEL_BYTES, &len, why, sizeof why);
   if (!source)
      return Serve_say(c, "error %s", why);
   KernelInfo k;
   memset(&k, 0, sizeof k);
   bool parsed = KernelInfo_parse(&k, source, c->file, why, sizeof why);
   Submission s;
   memset(&s, 0, sizeof s);
   if (parsed) {
      Util_copy(s.kernel, sizeof s.kernel, k.name);
      Util_copy(s.ladder, sizeof s.ladder, k.ladder);
      s.step = k.step;
   }
   KernelInfo_free(&k);
   bool ok = parsed;
   if (!ok)
      ; /* why says what is wrong with its metadata */
   else if (stored + (long long)len > (long long)Srv.o.quota_mb << 20) {
      snprintf(why, sizeof why,
               "refused: your submissions on this server hold %lld KB and this one is %zu KB; the quota is %d MB a "
               "student (ask the lecturer)",
               stored >> 10, len >> 10, Srv.o.quota_mb);
      ok = false;
   } else if (Serve_diskFull(why, sizeof why))
      ok = false;
   Request *r = NULL;
   if (ok) {
      Util_copy(s.assignment, sizeof s.assignment, name);
      s.uid = c->who.uid;
      Util_copy(s.user, sizeof s.user, c->who.name);
      s.time = (long long)time(NULL);
      Util_copy(s.file, sizeof s.file, c->file);
      Util_copy(s.sets, sizeof s.sets, sets);
      s.gflops = s.pct = s.max_rel_err = NAN;
      /* the configuration is checked before the submission is kept */
      long long values[KERNEL_MAX_PARAMS];
      int nvalues = 0;
      char folders[2400];
      Serve_folders(c->dir, folders, sizeof folders);
      ok = resolveValues(folders, s.kernel, sets, values, &nvalues, why, sizeof why);
      if (ok) {
         pthread_mutex_lock(&Srv.lock);
         ok = ClassDb_submit(Srv.classdb, &s, source, len, why, sizeof why);
         pthread_mutex_unlock(&Srv.lock);
      }
      if (ok && !(r = judgeRequest(&c->who, &a, &s, source, len, why, sizeof why)))
         ok = false;
   }
   free(source);
   if (!ok)
      return Serve_say(c, "error %s", why);
   Serve_log("submit user=%s uid=%lu assignment=%s id=%lld kernel=%s file=%s", c->who.account,
           (unsigned long)c->who.uid, name, s.id, s.kernel, s.file);
   if (!Serve_say(c, "submitted %lld", s.id))
      return false;
   if (!Serve_enqueue(r, why, sizeof why)) {
      /* Refused now (the student's limit, a stopping server): recorded as such, so that a
       * restart does not judge it behind the student's back. */
      Serve_removeTree(r->sub_dir);
      s.verified = false;
      s.gflops = s.pct = s.max_rel_err = NAN;
      snprintf(s.reason, sizeof s.reason, "%s", why);
      char err[512];
      pthread_mutex_lock(&Srv.lock);
      if (!ClassDb_judged(Srv.classdb, &s, err, sizeof err))
         Serve_log("class records error: %s", err);
      pthread_mutex_unlock(&Srv.lock);
      free(r);
      return Serve_say(c, "error %s (submission %lld is not judged: submit it again)", why, s.id);
   }
   if (!Serve_await(c, r))
      return false;
   char text[2048];
   if (r->sub.verified)
      snprintf(text, sizeof text, "submission %lld to %s: verified, %.2f GFLOPS%s\n%s", s.id, name, r->sub.gflops,
               isfinite(r->sub.pct) ? "" : " (no vendor figure)", r->sub.detail);
   else
      snprintf(text, sizeof text, "submission %lld to %s: not verified: %s\n%s", s.id, name, r->sub.reason,
               r->sub.detail);
   bool verified = r->sub.verified;
   if (isfinite(r->sub.pct)) {
      char pct[64];
      snprintf(pct, sizeof pct, "%.1f%% of the vendor library\n", r->sub.pct);
      strncat(text, pct, sizeof text - strlen(text) - 1);
   }
   free(r);
   return Serve_say(c, "judged %d", verified) && Serve_sayText(c, text);
}

/* class assign NAME KERNEL SETS SIZES PRECISION ROUNDS COLD */
static bool classAssign(Conn *c, const char *args) {
   Assignment a;
   memset(&a, 0, sizeof a);
   int cold = 0;
   char why[1024];
   if (sscanf(args, "%47s %63s %255s %255s %15s %d %d", a.name, a.kernel, a.sets, a.sizes, a.precision, &a.rounds,
              &cold) != 7)
      return Serve_say(c, "error assign NAME KERNEL|- SETS|- SIZES PRECISION ROUNDS COLD");
   if (!validName(a.name))
      return Serve_say(c, "error an assignment's name is letters, digits, '_', '-', '.', under %d characters",
                 CLASS_NAME_MAX);
   Precision prec;
   if (!Precision_parse(a.precision, &prec))
      return Serve_say(c, "error unknown precision %s", a.precision);
   if (a.rounds < 1 || a.rounds > SERVE_MAX_ROUNDS)
      return Serve_say(c, "error rounds: 1 to %d", SERVE_MAX_ROUNDS);
   char sizes[sizeof a.sizes];
   Util_copy(sizes, sizeof sizes, a.sizes);
   int nsizes = 0;
   for (char *save = NULL, *t = strtok_r(sizes, ",", &save); t; t = strtok_r(NULL, ",", &save), nsizes++) {
      int m, n, k;
      char tail;
      if (sscanf(t, "%dx%dx%d%c", &m, &n, &k, &tail) != 3 || m < 1 || n < 1 || k < 1)
         return Serve_say(c, "error a size is MxNxK: '%.40s'", t);
      if (m > Srv.o.max_size || n > Srv.o.max_size || k > Srv.o.max_size)
         return Serve_say(c, "error %s is larger than this server takes (at most %d)", t, Srv.o.max_size);
   }
   if (!nsizes)
      return Serve_say(c, "error an assignment has at least one size");
   if (strcmp(a.kernel, "-")) {
      long long values[KERNEL_MAX_PARAMS];
      int n = 0;
      if (!resolveValues(Srv.kernels, a.kernel, a.sets, values, &n, why, sizeof why))
         return Serve_say(c, "error %s", why);
   } else
      a.kernel[0] = '\0';
   if (!strcmp(a.sets, "-"))
      a.sets[0] = '\0';
   a.cold_l2 = cold != 0;
   pthread_mutex_lock(&Srv.lock);
   bool ok = ClassDb_assign(Srv.classdb, &a, why, sizeof why);
   pthread_mutex_unlock(&Srv.lock);
   if (!ok)
      return Serve_say(c, "error %s", why);
   Serve_log("assign user=%s name=%s sizes=%s precision=%s rounds=%d", c->who.account, a.name, a.sizes, a.precision,
           a.rounds);
   a.open = true;
   ClassCmd_writeBoard(&a);
   char text[512];
   snprintf(text, sizeof text, "assignment %s published: %s in %s, %d judged launch%s a size%s", a.name, a.sizes,
            a.precision, a.rounds, a.rounds == 1 ? "" : "es", a.cold_l2 ? ", L2 cold" : "");
   return Serve_sayText(c, text);
}

static bool classSetOpen(Conn *c, const char *name, bool open) {
   Assignment a;
   char why[512];
   pthread_mutex_lock(&Srv.lock);
   bool known = ClassDb_get(Srv.classdb, name, &a);
   bool ok = known && ClassDb_setOpen(Srv.classdb, name, open, why, sizeof why);
   pthread_mutex_unlock(&Srv.lock);
   if (!known)
      return Serve_say(c, "error there is no assignment %s", name);
   if (!ok)
      return Serve_say(c, "error %s", why);
   Serve_log("%s user=%s name=%s", open ? "reopen" : "close", c->who.account, name);
   ClassCmd_writeBoard(&a);
   char text[128];
   snprintf(text, sizeof text, "assignment %s %s", name, open ? "open again" : "closed: no more submissions");
   return Serve_sayText(c, text);
}

static bool classList(Conn *c) {
   pthread_mutex_lock(&Srv.lock);
   int n = 0;
   Assignment *all = ClassDb_list(Srv.classdb, &n);
   pthread_mutex_unlock(&Srv.lock);
   TextBuf t = {0};
   TextBuf_put(&t, "%-20s %-7s %-10s %6s  %-28s %s\n", "assignment", "state", "precision", "rounds", "sizes",
               "starting kernel");
   for (int i = 0; i < n; i++)
      TextBuf_put(&t, "%-20s %-7s %-10s %6d  %-28s %s%s%s%s\n", all[i].name, all[i].open ? "open" : "closed",
                  all[i].precision, all[i].rounds, all[i].sizes, all[i].kernel[0] ? all[i].kernel : "-",
                  all[i].sets[0] ? " (" : "", all[i].sets, all[i].sets[0] ? ")" : "");
   if (!n)
      TextBuf_put(&t, "(no assignments yet: 'gemmtop class assign' publishes one)\n");
   free(all);
   char *text = TextBuf_finish(&t);
   bool ok = text ? Serve_sayText(c, text) : Serve_say(c, "error out of memory on the server");
   free(text);
   return ok;
}

/* class board NAME FORMAT: what this client may see of it. */
static bool classBoard(Conn *c, const char *name, const char *format) {
   BoardFormat f;
   if (!Board_parseFormat(format, &f))
      return Serve_say(c, "error a board's format is table, csv, json or html");
   Assignment a;
   int n = 0;
   pthread_mutex_lock(&Srv.lock);
   bool known = ClassDb_get(Srv.classdb, name, &a);
   Submission *subs = known ? ClassDb_submissions(Srv.classdb, name, (uid_t)-1, NULL, &n) : NULL;
   pthread_mutex_unlock(&Srv.lock);
   if (!known)
      return Serve_say(c, "error there is no assignment %s ('gemmtop class list' shows them)", name);
   BoardViewer v = {.uid = c->who.uid, .lecturer = c->who.lecturer, .names_shown = Srv.o.names_shown};
   BoardStep steps[BOARD_MAX_STEPS];
   BoardLadder ladder;
   ladderOf(&a, &ladder, steps, BOARD_MAX_STEPS);
   char *text = Board_render(&a, subs, n, &v, &ladder, f);
   free(subs);
   bool ok = text ? Serve_sayText(c, text) : Serve_say(c, "error out of memory on the server");
   free(text);
   return ok;
}

/* class mine NAME: this student's own submissions, with why each was refused. */
static bool classMine(Conn *c, const char *name) {
   int n = 0;
   pthread_mutex_lock(&Srv.lock);
   Submission *subs = ClassDb_submissions(Srv.classdb, name, c->who.uid, NULL, &n);
   pthread_mutex_unlock(&Srv.lock);
   TextBuf t = {0};
   for (int i = 0; i < n; i++) {
      const Submission *s = &subs[i];
      TextBuf_put(&t, "#%lld %s %s %s: ", s->id, s->assignment, s->file, s->sets[0] && strcmp(s->sets, "-") ? s->sets : "");
      if (!strcmp(s->state, "queued"))
         TextBuf_put(&t, "waiting to be judged\n");
      else if (s->verified)
         TextBuf_put(&t, "verified, %.2f GFLOPS%s\n%s", s->gflops, "", s->detail);
      else
         TextBuf_put(&t, "not verified: %s\n", s->reason);
   }
   if (!n)
      TextBuf_put(&t, "(no submissions of yours%s%s)\n", name[0] ? " to " : "", name);
   free(subs);
   char *text = TextBuf_finish(&t);
   bool ok = text ? Serve_sayText(c, text) : Serve_say(c, "error out of memory on the server");
   free(text);
   return ok;
}

/* class export NAME: every submission's source and a CSV of them, for the lecturer. */
static bool classExport(Conn *c, const char *name) {
   int n = 0;
   Assignment a;
   pthread_mutex_lock(&Srv.lock);
   bool known = ClassDb_get(Srv.classdb, name, &a);
   Submission *subs = known ? ClassDb_submissions(Srv.classdb, name, (uid_t)-1, NULL, &n) : NULL;
   pthread_mutex_unlock(&Srv.lock);
   if (!known)
      return Serve_say(c, "error there is no assignment %s", name);
   TextBuf t = {0};
   TextBuf_put(&t, "id,account_uid,student,time,file,kernel,sets,state,verified,gflops,pct_vendor,max_rel_err,"
                   "waited_s,device,reason\n");
   bool ok = true;
   for (int i = 0; i < n && ok; i++) {
      const Submission *s = &subs[i];
      TextBuf_put(&t, "%lld,%lu,\"%s\",%lld,%s,%s,\"%s\",%s,%d,%.6g,%.4g,%.3g,%.2f,\"%s\",\"", s->id,
                  (unsigned long)s->uid, s->user, s->time, s->file, s->kernel, s->sets, s->state, s->verified,
                  s->gflops, s->pct, s->max_rel_err, s->waited_s, s->device);
      for (const char *q = s->reason; *q; q++)
         TextBuf_put(&t, "%s", *q == '"' ? "\"\"" : (char[]){*q, 0});
      TextBuf_put(&t, "\"\n");
      size_t len = 0;
      pthread_mutex_lock(&Srv.lock);
      char *source = ClassDb_source(Srv.classdb, s->id, &len);
      pthread_mutex_unlock(&Srv.lock);
      if (source) {
         char file[160];
         snprintf(file, sizeof file, "%lld-%s", s->id, s->file);
         ok = Serve_say(c, "file %s %zu", file, len) && Lines_write(c->fd, source, len);
      }
      free(source);
   }
   free(subs);
   char *csv = TextBuf_finish(&t);
   if (ok && csv)
      ok = Serve_say(c, "file submissions.csv %zu", strlen(csv)) && Lines_write(c->fd, csv, strlen(csv));
   free(csv);
   Serve_log("export user=%s name=%s submissions=%d", c->who.account, name, n);
   return ok && Serve_say(c, "end");
}

/* class status: the devices, the queue, and (for the lecturer) who waits. */
static bool classStatus(Conn *c) {
   TextBuf t = {0};
   pthread_mutex_lock(&Srv.lock);
   TextBuf_put(&t, "gemmtop serve %s on %s: %d device%s, %d request%s waiting, %lld MB free\n", GEMMTOP_VERSION,
               Srv.socket_path, Srv.nslots, Srv.nslots == 1 ? "" : "s", Srv.queue.n, Srv.queue.n == 1 ? "" : "s", Serve_freeMb());
   for (int i = 0; i < Srv.nslots; i++)
      TextBuf_put(&t, "device %d: %s (%s)\n", i, Srv.slots[i].info.name, Srv.be->name);
   TextBuf_put(&t, "limits: size %d, %.0f s a request, %d in flight a student, quota %d MB\n", Srv.o.max_size,
               Srv.o.request_s, Srv.o.in_flight, Srv.o.quota_mb);
   for (int i = 0; i < Srv.nload; i++) {
      if (!Srv.load[i].in_flight || (!c->who.lecturer && Srv.load[i].uid != c->who.uid))
         continue;
      RosterEntry e;
      if (Roster_find(&Srv.roster, Srv.load[i].uid, &e) || c->who.lecturer)
         TextBuf_put(&t, "%s: %d in flight\n", Srv.load[i].uid == c->who.uid ? "you" : e.name, Srv.load[i].in_flight);
   }
   pthread_mutex_unlock(&Srv.lock);
   char *text = TextBuf_finish(&t);
   bool ok = text ? Serve_sayText(c, text) : Serve_say(c, "error out of memory on the server");
   free(text);
   return ok;
}

/* "class VERB ARGS": the lecturer's verbs refuse anyone else. */
bool ClassCmd_dispatch(Conn *c, const char *args) {
   char verb[16] = "", name[CLASS_NAME_MAX] = "", format[16] = "table";
   int used = 0;
   sscanf(args, "%15s %n", verb, &used);
   const char *rest = args + used;
   sscanf(rest, "%47s %15s", name, format);
   static const char *const lecturers[] = {"assign", "close", "open", "export"};
   for (size_t i = 0; i < sizeof lecturers / sizeof lecturers[0]; i++)
      if (!strcmp(verb, lecturers[i]) && !c->who.lecturer)
         return Serve_say(c, "error only a lecturer may %s assignments (you are %s, account %s)", verb, c->who.name,
                    c->who.account);
   if (!strcmp(verb, "assign"))
      return classAssign(c, rest);
   if (!strcmp(verb, "close") || !strcmp(verb, "open"))
      return classSetOpen(c, name, !strcmp(verb, "open"));
   if (!strcmp(verb, "list"))
      return classList(c);
   if (!strcmp(verb, "board"))
      return classBoard(c, name, format);
   if (!strcmp(verb, "mine"))
      return classMine(c, name);
   if (!strcmp(verb, "export"))
      return classExport(c, name);
   if (!strcmp(verb, "status"))
      return classStatus(c);
   return Serve_say(c, "error unknown class request '%.20s': assign, close, open, list, board, mine, export, status", verb);
}

/* Submissions a stopped server had taken and not judged: judged now, as orphans. */
void ClassCmd_resume(void) {
   int n = 0;
   Submission *subs = ClassDb_submissions(Srv.classdb, "", (uid_t)-1, "queued", &n);
   for (int i = 0; i < n; i++) {
      Assignment a;
      size_t len = 0;
      char why[512] = "its source or its assignment is gone";
      char *source = ClassDb_source(Srv.classdb, subs[i].id, &len);
      RosterEntry who;
      if (!Roster_find(&Srv.roster, subs[i].uid, &who)) {
         memset(&who, 0, sizeof who);
         who.uid = subs[i].uid;
         Util_copy(who.name, sizeof who.name, subs[i].user);
         snprintf(who.account, sizeof who.account, "%lu", (unsigned long)subs[i].uid);
      }
      Request *r = source && ClassDb_get(Srv.classdb, subs[i].assignment, &a)
                       ? judgeRequest(&who, &a, &subs[i], source, len, why, sizeof why)
                       : NULL;
      free(source);
      if (!r) {
         Submission s = subs[i];
         s.verified = false;
         snprintf(s.reason, sizeof s.reason, "could not be judged after the server restarted: %s", why);
         ClassDb_judged(Srv.classdb, &s, why, sizeof why);
         continue;
      }
      r->orphan = true;
      r->queued_ms = Util_nowMs();
      FairQueue_push(&Srv.queue, r->who.uid, -1, r);
      StudentLoad *l = Serve_loadOf(r->who.uid);
      if (l)
         l->in_flight++;
      Serve_log("resume submission id=%lld user=%s", subs[i].id, subs[i].user);
   }
   free(subs);
}

