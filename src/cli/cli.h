/* The non-interactive commands: list, run, cache. Each returns the process exit code. */
#ifndef GEMMTOP_CLI_H
#define GEMMTOP_CLI_H

#include "cli/options.h"
#include "base/outfile.h"
#include "core/select.h"
#include "core/session.h"

int Cli_list(const Options *o);
int Cli_run(const Options *o);
/* gemmtop explain: run, then what limits it (core/limiter.h). */
int Cli_explain(const Options *o);
int Cli_cache(const Options *o);
int Cli_inspect(const Options *o);
int Cli_sweep(const Options *o);
/* sweep --simulate FILE: strategies compared on a recorded space (cli_simulate.c). */
int Cli_simulate(const Options *o);
int Cli_bench(const Options *o);
/* gemmtop results list|best|compare|export|import (cli_results.c). */
int Cli_results(const Options *o);
/* cli_lesson.c: gemmtop lesson [NAME], and list lessons. Cli_lesson lists the lessons (0),
 * refuses an unknown name (2, the valid ones said), or returns CLI_LESSON_START for a
 * lesson that exists: the explorer is then started on it (main.c). */
#define CLI_LESSON_START (-1)
int Cli_lesson(const Options *o);
int Cli_listLessons(const Options *o);
/* gemmtop export-kernel: the configuration as files that build and run without gemmtop
 * (cli_export.c, core/export.h). */
int Cli_exportKernel(const Options *o);
/* gemmtop tune --shapes SUITE: each shape swept over the candidate kernels, then the
 * dispatch table and the kernels a program ships (cli_tune.c). */
int Cli_tune(const Options *o);
/* The class server (cli_class.c): the daemon, a run measured on it, a submission, and the
 * assignments, boards and records. */
int Cli_serve(const Options *o);
int Cli_runRemote(const Options *o);
int Cli_submit(const Options *o);
int Cli_class(const Options *o);
/* --server, else $GEMMTOP_SERVER; NULL: none (measure here). */
const char *Cli_server(const Options *o);
/* Whether s ends in suffix. */
bool Cli_endsWith(const char *s, const char *suffix);

/* What the options select: backend, device, kernel, preset, --set values, problem. */
Selection Cli_selection(const Options *o);

/* gemmtop bench --frontier (cli_frontier.c): every type's path, speed beside error. */
int Cli_frontier(const Options *o);

/* Opens the device that --backend and --device name (or the best one). On failure prints
 * why and sets *exit_code (2 for a usage error such as an unknown device, 1 otherwise). */
Session *Cli_openSession(const Options *o, const Catalog *cat, int *exit_code);

/* The backend that compiles for --arch without a device (inspect, export-kernel); NULL,
 * with the message printed (a usage error), when --backend names none that can. */
const Backend *Cli_offlineBackend(const Options *o);

/* As gnulib's close_stdout, run at exit: output that could not be written (a full disk,
 * a closed file) is an error even when it sat in the buffer until the end: a message and
 * exit status 1. A standard output closed from the start, with nothing written, is none. */
void Cli_closeStdout(void);
/* Ends the process now, after Cli_closeStdout, without the runtime's clean-up: after an
 * abandoned launch (Session_stuck), which the clean-up would wait for. */
void Cli_leave(int code);

/* Opens a file named by an option (--save, --out) before any work, so that a wrong place
 * is said at once: 0 with *f open, else the exit code (2 refused, 1 failed) with the
 * message printed. A NULL path opens nothing (*f NULL, 0). */
int Cli_openOutput(const char *option, const char *path, unsigned flags, OutFile **f);

/* Loads the catalog from its default place; prints why on failure, and the files skipped. */
bool Cli_loadCatalog(Catalog *cat);

/* alpha and beta as the device sees them: finite and within the precision's range, and
 * with random inputs (in [-1, 1)) unable to overflow the result. 0, or 2 with a message
 * naming the option (or the preset) that set them. */
int Cli_checkScalars(const Options *o, const Problem *p, bool random_inputs);

/* The kernel, its parameter values and the problem that the options (and preset) name.
 * Returns 0, or 2 with the message printed. */
int Cli_resolveConfig(const Options *o, const Catalog *cat, const KernelInfo **kernel, long long *values,
                      Problem *problem);

#endif
