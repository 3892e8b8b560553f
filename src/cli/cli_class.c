/* The class server from the command line: `gemmtop serve` starts it; `run --server`,
 * `submit` and `class` are its clients. The daemon is serve/serve.c; measuring on it goes
 * through the measuring child's protocol (core/sweep/measurer.h), the rest through "class" and
 * "submit" lines answered with "text" lines and "end". */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/lines.h"
#include "base/rng.h"
#include "base/util.h"
#include "core/teach/classclient.h"
#include "core/sweep/measurer.h"
#include "serve/serve.h"

const char *Cli_server(const CommandArgs *o) {
   if (o->cls && o->cls->server) /* a command without the class options: only the environment */
      return o->cls->server;
   const char *env = getenv("GEMMTOP_SERVER");
   return env && *env ? env : NULL;
}

/* ---- serve ---- */

static int execServe(const CommandArgs *o) {
   if (!o->cls->socket) {
      fprintf(stderr, "gemmtop serve: --socket PATH is needed: the Unix socket students reach (e.g. "
                      "/run/gemmtop/class.sock)\n");
      return 2;
   }
   const char *access = o->cls->socket_access ? o->cls->socket_access : "group";
   ServeOptions so = {.socket_path = o->cls->socket, .state_dir = o->cls->state, .roster = o->cls->roster,
                      .store = o->storage->path, .board_dir = o->cls->board_dir, .backend = o->sel->backend,
                      .devices = o->sel->device, .max_size = o->cls->max_size,
                      .request_s = o->cls->request_s > 0 ? o->cls->request_s : 60.0, .in_flight = o->cls->in_flight,
                      .data_mb = o->cls->child_mb, .quota_mb = o->cls->quota_mb, .min_free_mb = o->cls->min_free_mb,
                      .names_shown = o->cls->board_names && !strcmp(o->cls->board_names, "shown"),
                      .socket_mode = !strcmp(access, "owner") ? 0600 : !strcmp(access, "group") ? 0660 : 0666};
   return Serve_main(&so);
}

/* ---- run --server ---- */

/* Where a waiting request is, on the standard error, when it moves: nothing for one
 * that is taken at once. ctx: the last position said (-1 none yet). */
static void tellWait(void *ctx, int position, double waited) {
   int *last = ctx;
   if (position == *last || (position <= 1 && *last < 0 && waited < 1.0))
      return;
   bool said = *last >= 0;
   *last = position;
   int last10 = position % 10, last100 = position % 100;
   const char *suffix = last100 >= 11 && last100 <= 13 ? "th"
                        : last10 == 1                  ? "st"
                        : last10 == 2                  ? "nd"
                        : last10 == 3                  ? "rd"
                                                       : "th";
   if (position > 0)
      fprintf(stderr, "gemmtop: waiting on the server: %d%s in line (%.0f s so far)\n", position, suffix, waited);
   else if (said)
      fprintf(stderr, "gemmtop: measuring on the server (waited %.1f s)\n", waited);
}

/* The options a remote run cannot honour, refused by name. */
static int refuseRemote(const CommandArgs *o) {
   const char *what = o->io->a_path || o->io->b_path || o->io->c_path ? "--a, --b and --c (.npy inputs)"
                      : o->io->out_path                            ? "--out"
                      : o->timing->ablate                          ? "--ablate"
                      : o->timing->no_verify                       ? "--no-verify"
                      : o->storage->off                            ? "--no-store"
                                                                  : NULL;
   if (!what)
      return 0;
   fprintf(stderr, "gemmtop: %s cannot go with --server: the server makes its own inputs, verifies every "
                   "configuration and records it in its own store; run without --server for that\n", what);
   return 2;
}

int Cli_runRemote(const CommandArgs *o) {
   int rc = refuseRemote(o);
   if (rc)
      return rc;
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   if ((rc = Cli_resolveConfig(o, &cat, &k, values, &p))) {
      Catalog_free(&cat);
      return rc;
   }
   int slot = -1;
   if (o->sel->device) {
      char *end;
      long d = strtol(o->sel->device, &end, 10);
      if (end == o->sel->device || *end || d < 0) {
         fprintf(stderr, "gemmtop: --device with --server is the server's device number (0, 1, ...; 'gemmtop class "
                         "status' lists them), not '%s'\n", o->sel->device);
         Catalog_free(&cat);
         return 2;
      }
      slot = (int)d;
   }
   /* --max-seconds goes with the job: the server keeps the shorter of it and its own
    * deadline per request (0: the server's). */
   MeasureJob j = MeasureJob_forServer(Cli_server(o), slot, k, &p,
                                       o->timing->has_seed ? o->timing->seed : Rng_freshSeed(), o->timing->reps,
                                       o->timing->warmup, o->timing->max_seconds, o->timing->cold_l2);
   Measurer *m = Measurer_new(&j);
   if (!m) {
      Catalog_free(&cat);
      fprintf(stderr, "gemmtop: out of memory\n");
      return 1;
   }
   int last = -1;
   Measurer_onWait(m, tellWait, &last);
   SweepCandidate c;
   memset(&c, 0, sizeof c);
   Measurer_run(m, values, k->nparams, NULL, &c);
   int device = -1;
   double waited = Measurer_waited(m, &device);
   char vendor[256] = "";
   double vg = c.outcome == SWEEP_OK && o->timing->vendor ? Measurer_vendor(m, vendor, sizeof vendor) : 0;
   Measurer_free(m);
   char params[512];
   KernelInfo_formatParams(k, values, params, sizeof params);
   const char *outcome = SweepOutcome_name(c.outcome);
   bool ok = c.outcome == SWEEP_OK;
   if (o->output->format == FORMAT_JSON) {
      printf("{\"kernel\":\"%s\",\"params\":\"%s\",\"m\":%d,\"n\":%d,\"k\":%d,\"precision\":\"%s\",\"outcome\":\"%s\","
             "\"verified\":%s,\"gflops\":%.6g,\"median_ms\":%.6g,\"max_rel_err\":%.3g,\"waited_s\":%.3f,"
             "\"server\":\"%s\",\"device\":%d",
             k->name, params, p.m, p.n, p.k, Precision_name(p.precision), outcome, ok ? "true" : "false",
             ok ? c.gflops : 0, ok ? c.median_ms : 0, ok ? c.max_rel_err : 0, waited, j.server, device);
      if (o->timing->vendor)
         printf(",\"vendor\":\"%s\",\"vendor_gflops\":%.6g", vendor, vg);
      printf(",\"reason\":\"");
      for (const char *q = c.reason; *q; q++)
         printf(*q == '"' || *q == '\\' ? "\\%c" : "%c", *q);
      printf("\"}\n");
   } else if (o->output->format == FORMAT_CSV) {
      printf("kernel,params,m,n,k,precision,outcome,gflops,median_ms,max_rel_err,waited_s,device\n");
      printf("%s,\"%s\",%d,%d,%d,%s,%s,%.6g,%.6g,%.3g,%.3f,%d\n", k->name, params, p.m, p.n, p.k,
             Precision_name(p.precision), outcome, ok ? c.gflops : 0, ok ? c.median_ms : 0, ok ? c.max_rel_err : 0,
             waited, device);
   } else {
      printf("%s (%s), %dx%dx%d %s, on the server %s (device %d)\n", k->name, params, p.m, p.n, p.k,
             Precision_name(p.precision), j.server, device);
      if (ok)
         printf("verified: %.2f GFLOPS, median %.4g ms, max relative error %.2g; waited %.1f s for the device\n",
                c.gflops, c.median_ms, c.max_rel_err, waited);
      else
         printf("%s: %s\n", outcome, c.reason);
      if (o->timing->vendor)
         printf(vg > 0 ? "vendor %s: %.2f GFLOPS (%.1f%%)\n" : "vendor: %s\n", vendor, vg,
                vg > 0 ? 100.0 * c.gflops / vg : 0.0);
   }
   Catalog_free(&cat);
   return ok ? 0 : c.outcome == SWEEP_INVALID ? 2 : 1;
}

/* ---- the class's requests ---- */

typedef struct AskCtx_ {
   FILE *out;
   const char *dir;          /* export: where the files go */
   int files, last;
} AskCtx;

static void askText(void *ctx, const char *line) {
   fprintf(((AskCtx *)ctx)->out, "%s\n", line);
}

static void askWait(void *ctx, int position, double waited) {
   tellWait(&((AskCtx *)ctx)->last, position, waited);
}

static void askNote(void *ctx, const char *line) {
   (void)ctx;
   fprintf(stderr, "gemmtop: %s\n", line);
}

/* An exported file into the folder, never over one that exists. */
static bool askFile(void *ctx, const char *name, const char *data, size_t len, char *why, size_t whylen) {
   AskCtx *a = ctx;
   char path[2048];
   snprintf(path, sizeof path, "%s/%s", a->dir, name);
   int f = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
   bool ok = f >= 0 && Lines_write(f, data, len);
   if (!ok)
      snprintf(why, whylen, "%s not written: %s (an existing file is never replaced)", path, strerror(errno));
   if (f >= 0)
      close(f);
   a->files += ok;
   return ok;
}

/* Sends line (and before it, a file) and prints the answer. */
static int ask(const CommandArgs *o, const char *file, const char *line, FILE *out, const char *dir, int *judged) {
   const char *server = Cli_server(o);
   if (!server) {
      fprintf(stderr, "gemmtop: which server? give --server SOCKET (or set GEMMTOP_SERVER)\n");
      return 2;
   }
   AskCtx a = {.out = out, .dir = dir, .last = -1};
   ClassReply reply = {.text = askText, .wait = askWait, .note = askNote, .file = dir ? askFile : NULL, .ctx = &a};
   char why[1024];
   int verdict = -1;
   int rc = ClassClient_ask(server, file, line, &reply, &verdict, why, sizeof why);
   if (judged)
      *judged = verdict > 0;
   if (rc)
      fprintf(stderr, "gemmtop: %s%s%s\n", rc == 2 && file ? file : "", rc == 2 && file ? ": " : "", why);
   else if (dir)
      fprintf(stderr, "gemmtop: %d file%s written in %s\n", a.files, a.files == 1 ? "" : "s", dir);
   return rc;
}

/* --set values as the server takes them: "A=1,B=2", or "-". */
static void joinSets(const CommandArgs *o, char *out, size_t outlen) {
   out[0] = '\0';
   for (int i = 0; i < o->sel->nsets; i++) {
      size_t used = strlen(out);
      snprintf(out + used, outlen - used, "%s%s", i ? "," : "", o->sel->sets[i]);
   }
   if (!out[0])
      Util_copy(out, outlen, "-");
}

static int execSubmit(const CommandArgs *o) {
   if (o->npositional != 1 || !o->cls->assignment) {
      fprintf(stderr, "gemmtop submit: give the kernel file and the assignment: gemmtop submit FILE.cl --assignment "
                      "NAME [--set P=V ...] --server SOCKET\n");
      return 2;
   }
   const char *file = o->positional[0];
   if (!Cli_endsWith(file, ".cl")) {
      fprintf(stderr, "gemmtop submit: %s: a submission is an OpenCL kernel file with its metadata block (*.cl)\n",
              file);
      return 2;
   }
   for (int i = 0; i < o->sel->nsets; i++)
      if (strchr(o->sel->sets[i], ',') || strchr(o->sel->sets[i], ' ')) {
         fprintf(stderr, "gemmtop submit: --set %s: one PARAM=VALUE each\n", o->sel->sets[i]);
         return 2;
      }
   char sets[600], line[800];
   joinSets(o, sets, sizeof sets);
   snprintf(line, sizeof line, "submit %s %s", o->cls->assignment, sets);
   int judged = 0;
   int rc = ask(o, file, line, stdout, NULL, &judged);
   return rc ? rc : judged ? 0 : 1;
}

/* class assign NAME: the line the server takes, from --kernel, --set, --sizes, --precision,
 * --rounds and --cold-l2. */
static int assignLine(const CommandArgs *o, const char *name, char *line, size_t len) {
   BenchSize sizes[OPTIONS_MAX_SIZES];
   char err[512];
   int n = Options_parseSizes(o->bench->sizes ? o->bench->sizes : "1024", sizes, OPTIONS_MAX_SIZES, err, sizeof err);
   if (n <= 0) {
      fprintf(stderr, "gemmtop class assign: %s\n", err);
      return 2;
   }
   char list[256] = "";
   for (int i = 0; i < n; i++) {
      size_t used = strlen(list);
      snprintf(list + used, sizeof list - used, "%s%dx%dx%d", i ? "," : "", sizes[i].m, sizes[i].n, sizes[i].k);
   }
   char sets[600];
   joinSets(o, sets, sizeof sets);
   snprintf(line, len, "class assign %s %s %s %s %s %d %d", name, o->sel->kernel ? o->sel->kernel : "-", sets, list,
            Precision_name(o->shape->problem.precision), o->bench->rounds, o->timing->cold_l2 ? 1 : 0);
   return 0;
}

static int execClass(const CommandArgs *o) {
   static const struct {
      const char *verb;
      bool needs_name;
   } verbs[] = {{"assign", true}, {"close", true}, {"open", true},  {"list", false},
                {"board", true},  {"mine", false}, {"export", true}, {"status", false}};
   const char *verb = o->npositional > 0 ? o->positional[0] : "";
   const char *name = o->npositional > 1 ? o->positional[1] : "";
   size_t v = 0;
   while (v < sizeof verbs / sizeof verbs[0] && strcmp(verbs[v].verb, verb))
      v++;
   if (v == sizeof verbs / sizeof verbs[0]) {
      fprintf(stderr, "gemmtop class: say what: assign, close, open, list, board, mine, export or status%s%s\n",
              verb[0] ? " (not " : "", verb[0] ? verb : "");
      if (verb[0])
         fputs(")\n", stderr);
      return 2;
   }
   if (verbs[v].needs_name && !name[0]) {
      fprintf(stderr, "gemmtop class %s: name the assignment\n", verb);
      return 2;
   }
   if (strchr(name, ' ')) {
      fprintf(stderr, "gemmtop class %s: an assignment's name has no spaces\n", verb);
      return 2;
   }
   char line[1200];
   if (!strcmp(verb, "assign")) {
      int rc = assignLine(o, name, line, sizeof line);
      if (rc)
         return rc;
      return ask(o, NULL, line, stdout, NULL, NULL);
   }
   if (!strcmp(verb, "board")) {
      bool html = o->output->save != NULL;
      if (html && !Cli_endsWith(o->output->save, ".html")) {
         fprintf(stderr, "gemmtop class board --save writes the board's web page: name the file *.html (got %s)\n",
                 o->output->save);
         return 2;
      }
      const char *format = html                              ? "html"
                           : o->output->format == FORMAT_JSON ? "json"
                           : o->output->format == FORMAT_CSV  ? "csv"
                                                             : "table";
      snprintf(line, sizeof line, "class board %s %s", name, format);
      if (!html)
         return ask(o, NULL, line, stdout, NULL, NULL);
      OutFile *f = NULL;
      int rc = Cli_openOutput("--save", o->output->save, 0, &f);
      if (rc)
         return rc;
      rc = ask(o, NULL, line, OutFile_stream(f), NULL, NULL);
      char err[512];
      if (rc)
         OutFile_discard(f);
      else if (!OutFile_commit(f, err, sizeof err)) {
         fprintf(stderr, "gemmtop: --save %s\n", err);
         rc = 1;
      }
      return rc;
   }
   if (!strcmp(verb, "export")) {
      const char *dir = o->output->dir ? o->output->dir : name;
      if (!Util_mkdirs(dir)) {
         fprintf(stderr, "gemmtop class export: cannot make %s: %s\n", dir, strerror(errno));
         return 1;
      }
      snprintf(line, sizeof line, "class export %s", name);
      return ask(o, NULL, line, stdout, dir, NULL);
   }
   snprintf(line, sizeof line, "class %s %s", verb, name);
   return ask(o, NULL, line, stdout, NULL, NULL);
}

const CommandEntry Cli_serveCommand = {
    .name = "serve",
    .groups = IN_GROUP(SELECTION) | IN_GROUP(STORAGE) | IN_GROUP(CLASS) | IN_GROUP(GENERAL),
    .words = "",
    .summary = "share this host's GPUs with a class: a daemon on a Unix socket, fair and exclusive timing",
    .max_positional = 0,
    .exec = execServe,
};

const CommandEntry Cli_submitCommand = {
    .name = "submit",
    .groups = IN_GROUP(SELECTION) | IN_GROUP(CLASS) | IN_GROUP(GENERAL),
    .words = "FILE.cl",
    .summary = "submit a kernel to an assignment on a class server; judged on fresh inputs",
    .max_positional = 1,
    .exec = execSubmit,
};

const CommandEntry Cli_classCommand = {
    .name = "class",
    .groups = IN_GROUP(SELECTION) | IN_GROUP(SHAPE) | IN_GROUP(TIMING) | IN_GROUP(OUTPUT) | IN_GROUP(BENCH) |
              IN_GROUP(CLASS) | IN_GROUP(GENERAL),
    .words = "assign|close|open|list|board|mine|export|status [NAME]",
    .summary = "a class server's assignments, board and records",
    .max_positional = 2,
    .exec = execClass,
};
