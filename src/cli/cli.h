/* The non-interactive commands: list, run, cache. Each returns the process exit code. */
#ifndef GEMMTOP_CLI_H
#define GEMMTOP_CLI_H

#include "cli/options.h"
#include "core/select.h"
#include "core/session.h"

int Cli_list(const Options *o);
int Cli_run(const Options *o);
int Cli_cache(const Options *o);
int Cli_inspect(const Options *o);
int Cli_sweep(const Options *o);
int Cli_bench(const Options *o);

/* What the options select: backend, device, kernel, preset, --set values, problem. */
Selection Cli_selection(const Options *o);

/* Opens the device that --backend and --device name (or the best one). On failure prints
 * why and sets *exit_code (2 for a usage error such as an unknown device, 1 otherwise). */
Session *Cli_openSession(const Options *o, const Catalog *cat, int *exit_code);

/* Loads the catalog from its default place; prints why on failure, and the files skipped. */
bool Cli_loadCatalog(Catalog *cat);

/* The kernel, its parameter values and the problem that the options (and preset) name.
 * Returns 0, or 2 with the message printed. */
int Cli_resolveConfig(const Options *o, const Catalog *cat, const KernelInfo **kernel, long long *values,
                      Problem *problem);

#endif
