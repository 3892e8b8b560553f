/* The non-interactive commands: list, run, cache. Each returns the process exit code. */
#ifndef GEMMTOP_CLI_H
#define GEMMTOP_CLI_H

#include "cli/options.h"
#include "core/outfile.h"
#include "core/session.h"

int Cli_list(const Options *o);
int Cli_run(const Options *o);
int Cli_cache(const Options *o);
int Cli_inspect(const Options *o);
int Cli_sweep(const Options *o);
int Cli_bench(const Options *o);

/* Shared with the explorer: picks the device named by --device, or the best one
 * (a GPU before an accelerator before a CPU). Returns the index or -1 (message in err). */
int Cli_pickDevice(const DeviceInfo *devs, int count, const char *want, char *err, size_t errlen);

/* With no --backend: OpenCL's devices, unless OpenCL has no GPU and CUDA or then HIP has
 * one (a GPU before PoCL's CPU device). Sets *devs (malloc'ed) and *count; with none at
 * all, count is 0 and err says what each backend found. Returns the backend chosen. */
const Backend *Cli_defaultBackend(DeviceInfo **devs, int *count, char *err, size_t errlen);

/* Opens the device that --backend and --device name (or the best one). On failure prints
 * why and sets *exit_code (2 for a usage error such as an unknown device, 1 otherwise). */
Session *Cli_openSession(const Options *o, const Catalog *cat, int *exit_code);

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

/* Loads the catalog from its default place; prints why on failure. */
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
