/* What a front end asks for, and how it is found: the backend and its devices (the one
 * named is then Device_pick's), the kernel catalog, and the kernel's configuration (the
 * preset, then the --set values, then the problem fields given explicitly). The command
 * line and the explorer both go through here, so that they choose alike and say the
 * same things. Nothing is printed: a failure leaves its message in err (without the
 * "gemmtop: " prefix) for the front end to show. */
#ifndef GEMMTOP_SELECT_H
#define GEMMTOP_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"
#include "core/model/catalog.h"
#include "core/model/preset.h"
#include "core/model/problem.h"
#include "core/run/session.h"

typedef struct Selection_ {
   const char *backend;      /* NULL: opencl (the explorer: the best of any backend) */
   const char *device;       /* NULL: the best device; else an index or part of a name */
   const char *kernel;       /* NULL: the preset's */
   const char *preset;       /* a name, or a file (with a '/' or ".preset") */
   const char *const *sets;  /* "PARAM=VALUE", nsets of them, applied after the preset */
   int nsets;
   Problem problem;          /* its fields given explicitly (has_*) override the preset's */
   bool has_m, has_n, has_k, has_precision, has_layout, has_alpha, has_beta, has_scaling;
} Selection;

/* The kernel, its parameter values and the problem that a selection resolves to. */
typedef struct Resolved_ {
   const KernelInfo *kernel;
   long long values[KERNEL_MAX_PARAMS];
   Problem problem;
   bool preset_sized;        /* the preset set M, N or K */
} Resolved;

/* Loads the catalog from its default place. Files that were skipped are listed in
 * cat->warnings for the caller to show. */
bool Select_loadCatalog(Catalog *cat, char *err, size_t errlen);

/* The backend named (NULL: the first of the registry, OpenCL); NULL with err when there
 * is none of that name. */
const Backend *Select_backend(const char *name, char *err, size_t errlen);

/* Whether one of the devices is a GPU. */
bool Select_hasGpu(const DeviceInfo *devs, int n);

/* With no backend named: the devices of the first backend in the registry that has a
 * GPU, else the first backend's (PoCL's CPU device). Sets *devs (malloc'ed) and *count;
 * with none at all, count is 0 and err says what each backend found. Returns the backend
 * chosen. */
const Backend *Select_defaultBackend(DeviceInfo **devs, int *count, char *err, size_t errlen);

/* Opens the device that sel's backend and device name (or the best one). On failure err
 * says why and *exit_code is 2 for a usage error (an unknown backend or device), else 1. */
Session *Select_openSession(const Selection *sel, const Catalog *cat, int *exit_code, char *err, size_t errlen);

/* A preset by name (shipped or the user's) or by file. */
bool Select_loadPreset(const char *preset, const Catalog *cat, Preset *out, char *err, size_t errlen);

/* The kernel (sel's, else the preset's), its values (defaults < preset < --set) and the
 * problem (defaults < preset < explicit fields). Returns false with err on bad input
 * (a usage error: exit code 2). */
bool Select_resolve(const Selection *sel, const Catalog *cat, Resolved *out, char *err, size_t errlen);
/* The problem's fields given explicitly (has_*) over p: what a preset's or the defaults'
 * problem becomes (Select_resolve, and bench's presets). */
void Select_applyProblem(const Selection *sel, Problem *p);

/* alpha and beta as the device sees them: finite and within the precision's range, and
 * with random inputs (in [-1, 1)) unable to overflow the result. False with err naming
 * the option (or the preset) that set them: a usage error. */
bool Select_checkScalars(const Selection *sel, const Problem *p, bool random_inputs, char *err, size_t errlen);

/* Whether a --set of sel names this parameter. */
bool Select_sets(const Selection *sel, const char *param);

#endif
