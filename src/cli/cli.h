/* What the commands share: the selection, the session, the catalog, output files. Each
 * command is an entry (CommandEntry, options.h) in its own file: cli.c has the
 * explorer's, list, run, explain and cache; cli_X.c the others. */
#ifndef GEMMTOP_CLI_H
#define GEMMTOP_CLI_H

#include "cli/options.h"
#include "base/outfile.h"
#include "core/run/select.h"
#include "core/run/session.h"

/* sweep --simulate FILE: strategies compared on a recorded space (cli_simulate.c). */
int Cli_simulate(const CommandArgs *o);
/* cli_lesson.c: list lessons. */
int Cli_listLessons(const CommandArgs *o);
/* run --server: the run measured on a class server (cli_class.c). */
int Cli_runRemote(const CommandArgs *o);
/* --server, else $GEMMTOP_SERVER; NULL: none (measure here). */
const char *Cli_server(const CommandArgs *o);
/* Whether s ends in suffix. */
bool Cli_endsWith(const char *s, const char *suffix);

/* What the options select: backend, device, kernel, preset, --set values, problem. */
Selection Cli_selection(const CommandArgs *o);

/* gemmtop bench --frontier (cli_frontier.c): every type's path, speed beside error. */
int Cli_frontier(const CommandArgs *o);

/* Opens the device that --backend and --device name (or the best one). On failure prints
 * why and sets *exit_code (2 for a usage error such as an unknown device, 1 otherwise). */
Session *Cli_openSession(const CommandArgs *o, const Catalog *cat, int *exit_code);

/* The backend that compiles for --arch without a device (inspect, export-kernel); NULL,
 * with the message printed (a usage error), when --backend names none that can. */
const Backend *Cli_offlineBackend(const CommandArgs *o);
/* explain --arch: a time taken on another device (--judge-ms, --device-file) judged
 * without it (cli_judge.c). Returns the exit code. */
int Cli_explainOffline(const CommandArgs *o);

/* --compute-units describes the device an --arch target stands for; without --arch the
 * device's own count is used: false, with the message printed (what: "a compile", "an
 * export"), when it is given alone. */
bool Cli_computeUnitsFit(const CommandArgs *o, const char *what);

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
int Cli_checkScalars(const CommandArgs *o, const Problem *p, bool random_inputs);

/* The kernel, its parameter values and the problem that the options (and preset) name.
 * Returns 0, or 2 with the message printed. */
int Cli_resolveConfig(const CommandArgs *o, const Catalog *cat, const KernelInfo **kernel, long long *values,
                      Problem *problem);

#endif
