/* Output of the command line: table, CSV or JSON (one object per line, schema 2: a run's
 * freivalds_ratio is Freivalds' check alone, beside outlier_ratio, and emulated is null for
 * a run refused before its geometry; schema 1 held the larger ratio in freivalds_ratio). */
#ifndef GEMMTOP_REPORT_H
#define GEMMTOP_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "cli/options.h"
#include "core/analyse/limiter.h"
#include "core/run/peaks.h"
#include "core/model/preset.h"
#include "core/model/shapes.h"
#include "core/run/session.h"

#define REPORT_SCHEMA 2

/* 'list devices': the CSV header (nothing for the other formats), then each backend's
 * devices: best is the default (-1: none of these), peaks one per device (known == false
 * where not measured) or NULL; the table also names the backend and what it can do, or
 * with n == 0 says why it has no device. */
void Report_devicesHeader(FILE *out, OutputFormat f);
void Report_backendDevices(FILE *out, OutputFormat f, const Backend *be, const DeviceInfo *devs, int n, int best,
                           const Peaks *peaks, const char *why);
void Report_kernels(FILE *out, OutputFormat f, const Catalog *cat);
void Report_presets(FILE *out, OutputFormat f, const PresetList *list);
/* The shape suites (one line each), or with one suite its shapes (one line each). */
void Report_shapeSuites(FILE *out, OutputFormat f, const ShapeSuites *suites, const char *dir);
void Report_shapes(FILE *out, OutputFormat f, const ShapeSuite *suite);
/* What limits a run (gemmtop explain): lines after the run's table, a JSON object on a
 * line of its own ({"schema", "limits": {...}}), or a CSV header and row. */
void Report_limits(FILE *out, OutputFormat f, const LimiterInputs *in, const Limiter *l);
void Report_run(FILE *out, OutputFormat f, const char *backend, const DeviceInfo *dev, const KernelInfo *k,
                const long long *values, const Problem *p, uint64_t seed, const RunOptions *ro, const RunResult *r,
                const Peaks *peaks, const VendorResult *vendor);
/* Writes s as a JSON string literal. */
void Report_jsonString(FILE *out, const char *s);

#endif
