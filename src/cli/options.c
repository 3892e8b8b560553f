/* Command-line options as one table (options.h): each row is an option, with its
 * spelling, its value and range, its help and the commands that take it. The parser
 * reads argv left to right as getopt_long did (options and other words in any order,
 * "--" ends the options, "--name=value", "-m64", "-Uh", a long option by a unique
 * prefix) and refuses, naming the option, what its row does not allow: a command that
 * does not take it, a missing or empty value, a number out of its range. */
#include "cli/options.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/ablate.h"
#include "core/run/ahead.h"
#include "core/analyse/banks.h"
#include "core/sweep/search.h"

#define CMD(c) (1u << COMMAND_##c)
#define EVERY ((1u << COMMAND_COUNT) - 1)
/* The commands that build a configuration (kernel, parameters, problem) on a device. */
/* run and explain: one run (explain adds what limits it). */
#define RUNS (CMD(RUN) | CMD(EXPLAIN))
#define CONFIG (CMD(EXPLORER) | RUNS | CMD(INSPECT) | CMD(SWEEP) | CMD(BENCH) | CMD(BANKS) | CMD(EXPORT) | CMD(TUNE))
#define SHAPE (CONFIG & ~CMD(BENCH) & ~CMD(TUNE)) /* bench's sizes are --sizes, tune's a suite's */
#define TIMED (RUNS | CMD(SWEEP) | CMD(BENCH) | CMD(TUNE))
/* The commands whose measurements go to the results store (core/results/store.h). */
#define STORED (RUNS | CMD(SWEEP) | CMD(BENCH) | CMD(EXPLORER))
#define STORE_READERS (STORED | CMD(RESULTS) | CMD(TUNE)) /* tune keeps its sweeps there: no --no-store */
#define MAX_SIZE (1 << 20)
#define MAX_SECONDS 86400.0
#define BENCH_DEFAULT_SIZES "1024,2048,4096"
#define F(field) offsetof(Options, field)
/* A value in a message: whole up to 48 characters, then cut with "...". */
#define SHOWN(v) (int)(strlen(v) > 48 ? 45 : strlen(v)), (v), (strlen(v) > 48 ? "..." : "")

/* The commands, each defined with its groups of options in its own file (options.h). */
static const CommandEntry *const commands[COMMAND_COUNT] = {
    [COMMAND_EXPLORER] = &Cli_explorerCommand, [COMMAND_LIST] = &Cli_listCommand,
    [COMMAND_RUN] = &Cli_runCommand,           [COMMAND_INSPECT] = &Cli_inspectCommand,
    [COMMAND_SWEEP] = &Cli_sweepCommand,       [COMMAND_BENCH] = &Cli_benchCommand,
    [COMMAND_BANKS] = &Cli_banksCommand,       [COMMAND_CACHE] = &Cli_cacheCommand,
    [COMMAND_RESULTS] = &Cli_resultsCommand,   [COMMAND_LESSON] = &Cli_lessonCommand,
    [COMMAND_EXPORT] = &Cli_exportCommand,     [COMMAND_EXPLAIN] = &Cli_explainCommand,
    [COMMAND_SERVE] = &Cli_serveCommand,       [COMMAND_SUBMIT] = &Cli_submitCommand,
    [COMMAND_CLASS] = &Cli_classCommand,       [COMMAND_TUNE] = &Cli_tuneCommand,
};

static const char *const groupTitles[GROUP_COUNT] = {
    [GROUP_SELECTION] = "selection: kernel, configuration, device",
    [GROUP_SHAPE] = "problem",
    [GROUP_TIMING] = "running, timing, checking",
    [GROUP_IO] = "input and output files (.npy)",
    [GROUP_OUTPUT] = "output",
    [GROUP_STORAGE] = "the results store",
    [GROUP_INSPECT] = "inspect",
    [GROUP_SWEEP] = "sweep",
    [GROUP_BENCH] = "bench",
    [GROUP_BANKS] = "banks: trace and model",
    [GROUP_RESULTS] = "results: filters, comparison, files",
    [GROUP_LIST] = "list",
    [GROUP_LESSON] = "lesson",
    [GROUP_CLASS] = "class server: serve, submit, class",
    [GROUP_GENERAL] = "general",
};

const char *Options_groupTitle(OptionGroup g) { return g < GROUP_COUNT ? groupTitles[g] : "?"; }

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(err, errlen, fmt, ap);
   va_end(ap);
   return 2;
}

/* ---- the options that the generic kinds cannot store ---- */

static int applyMerge(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   if (o->lesson.nmerge == OPTIONS_MAX_SETS)
      return fail(err, errlen, "--merge %.*s%s: at most %d ladders at once", SHOWN(v), OPTIONS_MAX_SETS);
   o->lesson.merge[o->lesson.nmerge++] = v;
   return 0;
}

static int applySet(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   const char *eq = strchr(v, '=');
   if (!eq || eq == v)
      return fail(err, errlen, "--set '%.*s%s': write PARAM=VALUE, e.g. --set TSM=32", SHOWN(v));
   if (o->sel.nsets == OPTIONS_MAX_SETS)
      return fail(err, errlen, "--set %.*s%s: at most %d --set options", SHOWN(v), OPTIONS_MAX_SETS);
   o->sel.sets[o->sel.nsets++] = v;
   return 0;
}

/* One size or MxNxK, or (for sweep, checked once the command is known) a list of them. */
static int applySize(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   int n = Options_parseSizeList(v, o->shape.size_list, OPTIONS_MAX_SIZES, MAX_SIZE, err, errlen);
   if (n < 0)
      return 2;
   o->shape.nsize_list = n;
   o->shape.problem.m = o->shape.size_list[0][0];
   o->shape.problem.n = o->shape.size_list[0][1];
   o->shape.problem.k = o->shape.size_list[0][2];
   o->shape.has_m = o->shape.has_n = o->shape.has_k = true;
   return 0;
}

static int applyStrategies(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   unsigned mask;
   if (!Options_parseStrategies(v, &mask, err, errlen))
      return 2;
   o->sweep.strategies = v;
   return 0;
}

static int applyPrecision(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   if (!Precision_parse(v, &o->shape.problem.precision))
      return fail(err, errlen, "--%s '%.*s%s': use float, double, tf32, half, bfloat16, e4m3 or e5m2", s->name, SHOWN(v));
   return 0;
}

static int applyScaling(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   if (!Scaling_parse(v, &o->shape.problem.scaling))
      return fail(err, errlen, "--%s '%.*s%s': use tensor (one scale for A and one for B) or block (one per 1x128 "
                  "slice of A and per 128x128 block of B)", s->name, SHOWN(v));
   return 0;
}

static int applyLayout(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   if (!Problem_parseLayout(&o->shape.problem, v))
      return fail(err, errlen, "--layout '%.*s%s': use NN, NT, TN or TT", SHOWN(v));
   return 0;
}

static int applyFormat(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   o->output.format = !strcmp(v, "json") ? FORMAT_JSON : !strcmp(v, "csv") ? FORMAT_CSV : FORMAT_TABLE;
   return 0;
}

static int applySeed(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   char *end;
   errno = 0;
   unsigned long long x = strtoull(v, &end, 0);
   /* strtoull takes "-1" as 2^64-1: a sign is refused, not wrapped. */
   if (end == v || *end || errno || strchr(v, '-'))
      return fail(err, errlen, "--seed '%.*s%s': use a whole number from 0 to %llu", SHOWN(v), (unsigned long long)UINT64_MAX);
   o->timing.seed = x;
   return 0;
}

static int applyAblate(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   return Ablate_parse(v, &o->timing.ablate, err, errlen) ? 0 : 2;
}

static int applySizes(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   BenchSize sizes[OPTIONS_MAX_SIZES];
   if (Options_parseSizes(v, sizes, OPTIONS_MAX_SIZES, err, errlen) < 0)
      return 2;
   o->bench.sizes = v;
   return 0;
}

/* The registry decides which backends there are. */
static int applyReference(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   char names[128];
   Backend_names(names, sizeof names);
   if (!Backend_byName(v))
      return fail(err, errlen, "--reference '%.*s%s': use one of %s", SHOWN(v), names);
   o->bench.reference = v;
   return 0;
}

static int applyVendorOutput(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   o->timing.vendor_bf16 = !strcmp(v, "bfloat16");
   return 0;
}

static int applyVerifyOn(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   o->timing.verify_on = !strcmp(v, "device") ? VERIFY_ON_DEVICE : !strcmp(v, "host") ? VERIFY_ON_HOST : VERIFY_ON_AUTO;
   return 0;
}

static int applyBankModel(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   o->banks.model = v;
   return 0;
}

static int applyBankWidth(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   o->banks.bank_width = (int)strtol(v, NULL, 10);
   return 0;
}

/* results --size: N, or MxNxK as run, sweep and bench write a size (M,N,K too); each 1 to
 * MAX_SIZE. */
static int applyResultsSize(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   int dims[3], n = 0;
   for (const char *p = v;; n++) {
      char *end;
      errno = 0;
      long long x = strtoll(p, &end, 10);
      if (n == 3 || end == p || errno || x < 1 || x > MAX_SIZE || (*end && *end != ',' && *end != 'x'))
         return fail(err, errlen, "--size '%.*s%s': use N or MxNxK, whole numbers from 1 to %d", SHOWN(v), MAX_SIZE);
      dims[n] = (int)x;
      if (!*end)
         break;
      p = end + 1;
   }
   if (n != 0 && n != 2)
      return fail(err, errlen, "--size '%.*s%s': use N or MxNxK, whole numbers from 1 to %d", SHOWN(v), MAX_SIZE);
   o->results.filter_size = v;
   o->shape.problem.m = dims[0];
   o->shape.problem.n = n ? dims[1] : dims[0];
   o->shape.problem.k = n ? dims[2] : dims[0];
   o->shape.has_m = o->shape.has_n = o->shape.has_k = true;
   return 0;
}

/* --since, --until: a real day, YYYY-MM-DD. */
static int applyDate(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) {
   int y, m, d, used = 0;
   static const int days[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
   bool shaped = strlen(v) == 10 && sscanf(v, "%4d-%2d-%2d%n", &y, &m, &d, &used) == 3 && used == 10 && v[4] == '-' &&
                 v[7] == '-';
   bool leap = shaped && (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
   if (!shaped || y < 1970 || m < 1 || m > 12 || d < 1 || d > days[m - 1] || (m == 2 && d == 29 && !leap))
      return fail(err, errlen, "--%s '%.*s%s' is not a date: use YYYY-MM-DD, e.g. 2026-03-31", s->name, SHOWN(v));
   *(const char **)((char *)o + s->field) = v;
   return 0;
}

/* --help and --version: the parser prints them (it knows the command). */
static int applyHelp(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) { return 1; }
static int applyVersion(Options *o, const OptionSpec *s, const char *v, char *err, size_t errlen) { return 1; }

/* ---- the table ---- */

static const OptionSpec table[] = {
    {.group = GROUP_SELECTION, .name = "backend", .value = "opencl|cuda|hip", .kind = OPT_TEXT, .field = F(sel.backend),
     .commands = CONFIG | CMD(LIST) | CMD(LESSON) | CMD(SERVE), .help = "the runtime",
     .dflt = "opencl; the explorer takes a CUDA or HIP GPU when OpenCL has none"},
    {.group = GROUP_SELECTION, .name = "device", .value = "N|NAME|KIND", .kind = OPT_TEXT, .field = F(sel.device),
     .commands = CONFIG | CMD(LESSON) | CMD(SERVE),
     .help = "device index, part of its (platform's) name, or a kind: pocl, nvidia, amd, intel, cpu or gpu; "
             "'gemmtop list devices' shows them (serve: a comma-separated list, a queue each)",
     .dflt = "the best GPU, else the CPU"},
    {.group = GROUP_SELECTION, .name = "kernel", .value = "NAME", .kind = OPT_TEXT, .field = F(sel.kernel),
     .commands = CONFIG | CMD(RESULTS) | CMD(CLASS),
     .help = "kernel variant, as 'gemmtop list kernels' shows them"},
    {.group = GROUP_SELECTION, .name = "preset", .value = "NAME|FILE", .kind = OPT_TEXT, .field = F(sel.preset), .commands = CONFIG,
     .help = "a preset by name ('gemmtop list presets') or a .preset file; the options below override it"},
    {.group = GROUP_SELECTION, .name = "set", .value = "PARAM=VALUE", .kind = OPT_TEXT, .apply = applySet,
     .commands = CONFIG | CMD(SUBMIT) | CMD(CLASS),
     .help = "set a kernel parameter; repeatable, up to 32 times"},
    {.group = GROUP_SHAPE, .letter = 'm', .value = "M", .kind = OPT_INT, .min = 1, .max = MAX_SIZE, .field = F(shape.problem.m),
     .given = F(shape.has_m), .commands = SHAPE | CMD(LESSON), .help = "rows of C", .dflt = "1024",
     .elsewhere = "bench takes its sizes from --sizes, tune from --shapes"},
    {.group = GROUP_SHAPE, .letter = 'n', .value = "N", .kind = OPT_INT, .min = 1, .max = MAX_SIZE, .field = F(shape.problem.n),
     .given = F(shape.has_n), .commands = SHAPE | CMD(LESSON), .help = "columns of C", .dflt = "1024",
     .elsewhere = "bench takes its sizes from --sizes, tune from --shapes"},
    {.group = GROUP_SHAPE, .letter = 'k', .value = "K", .kind = OPT_INT, .min = 1, .max = MAX_SIZE, .field = F(shape.problem.k),
     .given = F(shape.has_k), .commands = SHAPE | CMD(LESSON), .help = "the inner dimension", .dflt = "1024",
     .elsewhere = "bench takes its sizes from --sizes, tune from --shapes"},
    {.group = GROUP_SHAPE, .name = "size", .value = "S|MxNxK", .kind = OPT_TEXT, .apply = applySize, .commands = SHAPE | CMD(LESSON),
     .help = "M, N and K at once (1 to 1048576 each); sweep takes a list, e.g. 1024,2048,4096x4096x1024, and "
             "reports the best per size and across them",
     .dflt = "1024; the explorer 2048 on a GPU, 512 on a CPU",
     .elsewhere = "bench takes its sizes from --sizes, tune from --shapes"},
    {.group = GROUP_SHAPE, .name = "precision", .value = "TYPE", .kind = OPT_TEXT, .apply = applyPrecision, .given = F(shape.has_precision),
     .commands = CONFIG | CMD(RESULTS) | CMD(CLASS),
     .help = "float, double, tf32, half, bfloat16, e4m3 or e5m2; from tf32 on: A and B of that type, FP32 "
             "accumulation, C in FP32; e4m3 and e5m2 (FP8) come with scales (--scaling)",
     .dflt = "float"},
    {.group = GROUP_SHAPE, .name = "scaling", .value = "tensor|block", .kind = OPT_TEXT, .apply = applyScaling,
     .given = F(shape.has_scaling), .commands = CONFIG,
     .help = "the FP8 types' FP32 scales: one for A and one for B, or one per 1x128 slice of A's rows and per "
             "128x128 block of B (DeepGEMM's block scaling)",
     .dflt = "tensor"},
    {.group = GROUP_SHAPE, .name = "layout", .value = "NN|NT|TN|TT", .kind = OPT_TEXT, .apply = applyLayout, .given = F(shape.has_layout),
     .commands = CONFIG, .help = "op(A) and op(B): N as stored, T transposed; storage is row-major", .dflt = "NN"},
    {.group = GROUP_SHAPE, .name = "alpha", .value = "A", .kind = OPT_REAL, .min = -DBL_MAX, .max = DBL_MAX, .field = F(shape.problem.alpha),
     .given = F(shape.has_alpha), .commands = CONFIG, .help = "C = alpha*op(A)*op(B) + beta*C", .dflt = "1"},
    {.group = GROUP_SHAPE, .name = "beta", .value = "B", .kind = OPT_REAL, .min = -DBL_MAX, .max = DBL_MAX, .field = F(shape.problem.beta),
     .given = F(shape.has_beta), .commands = CONFIG, .help = "C = alpha*op(A)*op(B) + beta*C", .dflt = "0"},
    {.group = GROUP_TIMING, .name = "reps", .value = "R", .kind = OPT_INT, .min = 1, .max = 1024, .field = F(timing.reps), .commands = TIMED,
     .help = "timed launches", .dflt = "10"},
    {.group = GROUP_TIMING, .name = "warmup", .value = "W", .kind = OPT_INT, .min = 0, .max = MAX_SIZE, .field = F(timing.warmup),
     .commands = TIMED, .help = "untimed launches before the timed ones", .dflt = "2"},
    {.group = GROUP_TIMING, .name = "max-seconds", .value = "S", .kind = OPT_REAL, .min = 0, .above_min = true, .max = MAX_SECONDS,
     .field = F(timing.max_seconds), .commands = RUNS | CMD(BENCH),
     .help = "stop timing after S seconds, once at least one launch is timed; a launch still running after S "
             "seconds is abandoned",
     .elsewhere = "sweep's limit is --timeout"},
    {.group = GROUP_TIMING, .name = "seed", .value = "S", .kind = OPT_TEXT, .apply = applySeed, .given = F(timing.has_seed),
     .commands = TIMED | CMD(EXPLORER) | CMD(LESSON), .help = "random inputs from this seed", .dflt = "fresh each run"},
    {.group = GROUP_IO, .name = "a", .value = "A.npy", .kind = OPT_TEXT, .field = F(io.a_path), .commands = RUNS,
     .help = "A from a NumPy file, as stored: the transposed shape for T"},
    {.group = GROUP_IO, .name = "b", .value = "B.npy", .kind = OPT_TEXT, .field = F(io.b_path), .commands = RUNS,
     .help = "B from a NumPy file, as stored: the transposed shape for T"},
    {.group = GROUP_IO, .name = "a-scale", .value = "SA.npy", .kind = OPT_TEXT, .field = F(io.a_scale_path),
     .commands = RUNS,
     .help = "e4m3, e5m2: the scales of A given as FP8 patterns (--a of uint8): float32, 1x1 or M x ceil(K/128) "
             "with --scaling block"},
    {.group = GROUP_IO, .name = "b-scale", .value = "SB.npy", .kind = OPT_TEXT, .field = F(io.b_scale_path),
     .commands = RUNS,
     .help = "e4m3, e5m2: the scales of B given as FP8 patterns (--b of uint8): float32, 1x1 or ceil(K/128) x "
             "ceil(N/128) with --scaling block"},
    {.group = GROUP_IO, .name = "c", .value = "C.npy", .kind = OPT_TEXT, .field = F(io.c_path), .commands = RUNS,
     .help = "C from a NumPy file; read when beta is not 0"},
    {.group = GROUP_IO, .name = "out", .value = "C.npy", .kind = OPT_TEXT, .field = F(io.out_path), .commands = RUNS,
     .help = "write the result C to a NumPy file"},
    {.group = GROUP_OUTPUT, .name = "format", .value = "table|csv|json", .kind = OPT_CHOICE, .choices = "table|csv|json",
     .apply = applyFormat,
     .commands = CMD(LIST) | RUNS | CMD(INSPECT) | CMD(SWEEP) | CMD(BENCH) | CMD(BANKS) | CMD(CLASS),
     .help = "output; json is one object per line", .dflt = "table"},
    {.group = GROUP_TIMING, .name = "no-verify", .kind = OPT_FLAG, .field = F(timing.no_verify), .commands = RUNS,
     .help = "skip the verification run", .elsewhere = "sweep and bench verify every configuration"},
    {.group = GROUP_TIMING, .name = "verify-on", .value = "auto|device|host", .kind = OPT_CHOICE,
     .choices = "auto|device|host", .apply = applyVerifyOn, .commands = RUNS | CMD(BENCH),
     .help = "where C is checked: on the device by gemmtop's own kernels, only vectors read back (device; on the "
             "host when the device has no FP64), or C read back and checked on the host (host); auto: the device "
             "unless it is the host's processor",
     .dflt = "auto"},
    {.group = GROUP_TIMING, .name = "ablate", .value = "LIST", .kind = OPT_TEXT, .apply = applyAblate, .commands = RUNS | CMD(INSPECT),
     .help = "switch work off to see what limits the kernel; LIST is any of no-a, no-b (global loads of A, B), "
             "no-fma (multiply-adds), const-store (C gets 1.25), comma-separated; the result is labelled "
             "ablated and not verified",
     .elsewhere = "sweep and bench rank real, verified results only; in the explorer, press a"},
    {.group = GROUP_TIMING, .name = "cold-l2", .kind = OPT_FLAG, .field = F(timing.cold_l2),
     .commands = RUNS | CMD(BENCH) | CMD(SWEEP) | CMD(CLASS) | CMD(TUNE),
     .help = "time each launch with the L2 cache cold (a rotation through copies of A and B that exceed twice "
             "the L2, or a flush between launches); the default times a warm L2, as repeated launches find it",
     .elsewhere = "in the explorer, the run settings (S) have it"},
    {.group = GROUP_TIMING, .name = "judge-ms", .value = "MS", .kind = OPT_REAL, .min = 0, .above_min = true,
     .max = MAX_SECONDS * 1000, .field = F(timing.judge_ms), .commands = CMD(EXPLAIN),
     .help = "judge a time taken elsewhere (a profiler's duration of one launch, in milliseconds) instead of this "
             "run's: the limiter's shares are of that time; the run still compiles, checks and times the kernel, "
             "and its own figure is kept beside"},
    {.group = GROUP_TIMING, .name = "judge-mhz", .value = "MHZ", .kind = OPT_REAL, .min = 0, .above_min = true,
     .max = 100000, .field = F(timing.judge_mhz), .commands = CMD(EXPLAIN),
     .help = "with --judge-ms: the SM clock that time was taken at (a profiler's, which may differ from this run's): "
             "the compute ceiling is scaled to it"},
    {.group = GROUP_TIMING, .name = "bank-ratio", .value = "R", .kind = OPT_REAL, .min = 1, .max = 64,
     .field = F(timing.bank_ratio), .commands = CMD(EXPLAIN),
     .help = "with --judge-ms and --arch: the local-memory conflicts measured where that time was taken "
             "(wavefronts over the ideal, as gemmtop banks gives them there): without a device no trace is taken"},
    {.group = GROUP_TIMING, .name = "load-ratio", .value = "R", .kind = OPT_REAL, .min = 1, .max = 64,
     .field = F(timing.load_ratio), .commands = CMD(EXPLAIN),
     .help = "with --judge-ms and --arch: how the global loads of A and B coalesced where that time was taken (the "
             "L1's wavefronts over their bytes / 128, as gemmtop banks --coalescing gives it there)"},
    {.group = GROUP_TIMING, .name = "store-wavefronts", .value = "W", .kind = OPT_REAL, .min = 0, .above_min = true,
     .max = 64, .field = F(timing.store_wavefronts), .commands = CMD(EXPLAIN),
     .help = "with --judge-ms and --arch: the local-memory store wavefronts per multiply-add of a bank trace taken "
             "there (its store sites' wavefronts over the traced groups' multiply-adds)"},
    {.group = GROUP_TIMING, .name = "vendor", .kind = OPT_FLAG, .field = F(timing.vendor), .commands = RUNS,
     .help = "also time the vendor BLAS (CLBlast, cuBLAS, cuBLASLt for FP8, rocBLAS) and give % of it",
     .elsewhere = "bench always times the vendor BLAS"},
    {.group = GROUP_TIMING, .name = "vendor-output", .value = "float|bfloat16", .kind = OPT_CHOICE,
     .choices = "float|bfloat16", .apply = applyVendorOutput, .commands = RUNS | CMD(BENCH),
     .help = "the vendor library's C for the FP8 types: float, gemmtop's C, or bfloat16 as torch._scaled_mm "
             "returns it (cuBLASLt, beta 0; verified with its rounding counted)",
     .dflt = "float"},
    {.group = GROUP_LESSON, .name = "prepare", .kind = OPT_FLAG, .field = F(lesson.prepare), .commands = CMD(LESSON),
     .help = "do each step's first visit ahead on this device (compile, one verified launch, its bank trace), "
             "saying how long first, so that the class starts warm; then exit"},
    {.group = GROUP_LESSON, .name = "merge", .value = "FILE.csv", .kind = OPT_TEXT, .apply = applyMerge,
     .commands = CMD(LESSON),
     .help = "the class's ladder exports (E in the lesson, on each student's machine) side by side, each device "
             "normalised to its own step 1: lesson-NAME-class.md, .csv, .svg here; repeatable, up to 32"},
    {.group = GROUP_LIST, .name = "measure", .kind = OPT_FLAG, .field = F(list.measure), .commands = CMD(LIST),
     .help = "list devices: measure each device's peak GFLOPS and memory bandwidth (seconds per device)"},
    {.group = GROUP_INSPECT, .name = "arch", .value = "sm_XX|gfxNNN", .kind = OPT_TEXT, .field = F(inspect.arch),
     .commands = CMD(INSPECT) | CMD(EXPORT) | CMD(EXPLAIN),
     .help = "compile for this target, no device needed (with --backend cuda or hip); export-kernel: write for "
             "it (--backend cuda); explain: judge --judge-ms on the device of --device-file, without it"},
    {.group = GROUP_INSPECT, .name = "compute-units", .value = "N", .kind = OPT_INT, .min = 1, .max = 4096,
     .field = F(inspect.compute_units), .commands = CMD(INSPECT) | CMD(EXPORT),
     .help = "with --arch: the multiprocessors of the device meant (132 on an H100 SXM), which size a persistent "
             "grid (CUS): inspect compiles, export-kernel writes for that many"},
    {.group = GROUP_INSPECT, .name = "device-file", .value = "FILE", .kind = OPT_TEXT, .field = F(inspect.device_file),
     .commands = CMD(EXPLAIN),
     .help = "with --arch: the device meant, as the line 'gemmtop list devices --format json --measure' printed "
             "for it there (its multiprocessors, L2 and measured ceilings)"},
    {.group = GROUP_INSPECT, .name = "code", .value = "ptx|sass|isa|none", .kind = OPT_CHOICE, .choices = "ptx|sass|isa|none",
     .field = F(inspect.code), .commands = CMD(INSPECT), .help = "which code to print",
     .dflt = "what the backend gives: PTX for CUDA and NVIDIA's OpenCL, ISA for HIP"},
    {.group = GROUP_SWEEP, .name = "budget", .value = "N", .kind = OPT_INT, .min = 1, .max = MAX_SIZE, .field = F(sweep.budget),
     .commands = CMD(SWEEP) | CMD(EXPLORER) | CMD(TUNE),
     .help = "try N valid configurations (sweep: as --strategy proposes them; tune: N a shape, shared among the "
             "candidate kernels)",
     .dflt = "40; the explorer's sweep 24"},
    {.group = GROUP_SWEEP, .name = "exhaustive", .kind = OPT_FLAG, .field = F(sweep.exhaustive),
     .commands = CMD(SWEEP) | CMD(EXPLORER) | CMD(TUNE),
     .help = "try every valid configuration"},
    {.group = GROUP_SWEEP, .name = "strategy", .value = "NAME", .kind = OPT_CHOICE, .choices = "exhaustive|random|anneal|genetic|bayes",
     .field = F(sweep.strategy), .commands = CMD(SWEEP) | CMD(EXPLORER) | CMD(TUNE),
     .help = "how to search: exhaustive (in order), random, anneal (simulated annealing), genetic, bayes "
             "(Gaussian process, expected improvement); the last three learn from what was measured",
     .dflt = "random; exhaustive with --exhaustive"},
    {.group = GROUP_SWEEP, .name = "time-budget", .value = "S", .kind = OPT_REAL, .min = 0, .above_min = true, .max = MAX_SECONDS,
     .field = F(sweep.time_budget), .commands = CMD(SWEEP) | CMD(TUNE),
     .help = "propose no configuration after S seconds (with --budget, whichever ends first; tune: S a shape, "
             "shared among the candidate kernels)"},
    {.group = GROUP_SWEEP, .name = "simulate", .value = "FILE|store", .kind = OPT_TEXT, .field = F(sweep.simulate), .commands = CMD(SWEEP),
     .help = "replay a recorded space (a --save file of an exhaustive sweep, or the results store's measurements "
             "that --kernel, --size, --precision and --device select) instead of measuring, and compare "
             "strategies: evaluations to reach 95% and 99% of its best"},
    {.group = GROUP_SWEEP, .name = "strategies", .value = "all|LIST", .kind = OPT_TEXT, .apply = applyStrategies, .commands = CMD(SWEEP),
     .help = "--simulate: the strategies to compare, comma-separated", .dflt = "--strategy, else all"},
    {.group = GROUP_SWEEP, .name = "repeat", .value = "R", .kind = OPT_INT, .min = 1, .max = 1000, .field = F(sweep.repeat),
     .commands = CMD(SWEEP), .help = "--simulate: seeds per strategy (--seed, --seed+1, ...; --seed default 1)",
     .dflt = "10"},
    {.group = GROUP_SWEEP, .name = "timeout", .value = "S", .kind = OPT_REAL, .min = 0, .above_min = true, .max = MAX_SECONDS,
     .field = F(sweep.timeout), .commands = CMD(SWEEP) | CMD(EXPLORER) | CMD(TUNE),
     .help = "drop a configuration whose launch takes longer than S seconds", .dflt = "5 on a GPU, 30 on a CPU"},
    {.group = GROUP_SWEEP, .name = "jobs", .value = "N", .kind = OPT_INT, .min = 1, .max = AHEAD_MAX_THREADS, .field = F(sweep.jobs),
     .commands = CMD(SWEEP) | CMD(TUNE),
     .help = "compile N configurations at a time", .dflt = "one per core, at most 16"},
    {.group = GROUP_SWEEP, .name = "mpi", .kind = OPT_FLAG, .field = F(sweep.mpi), .commands = CMD(SWEEP),
     .help = "started with mpirun or srun: one rank per GPU measures, rank 0 hands out the configurations, "
             "stores and reports (docs/mpi.md)"},
    {.group = GROUP_SWEEP, .name = "mpi-simulate", .value = "FILE", .kind = OPT_TEXT, .field = F(sweep.mpi_simulate), .commands = CMD(SWEEP),
     .help = "with --mpi: the ranks launch nothing and answer with the times of a sweep's --save file, to "
             "measure how many configurations rank 0 hands out per second"},
    {.group = GROUP_SWEEP, .name = "save-presets", .value = "N", .kind = OPT_INT, .min = 1, .max = 1000, .field = F(sweep.save_presets),
     .commands = CMD(SWEEP), .help = "save the best N as presets in your config folder"},
    {.group = GROUP_SHAPE, .name = "shapes", .value = "SUITE|FILE.shapes", .kind = OPT_TEXT, .field = F(shape.shapes),
     .commands = CMD(BENCH) | CMD(SWEEP) | CMD(RESULTS) | CMD(TUNE),
     .help = "the shapes of a suite (gemmtop list shapes): bench reports each and the suite's weighted geometric mean "
             "of % of the vendor library; sweep finds the best per shape and one good across them; results export "
             "--format dispatch writes the best stored configuration per shape (a C header, or JSON); tune sweeps "
             "each shape and writes that table with the kernels",
     .elsewhere = "run and the explorer take one size (-m, -n, -k, --size)"},
    {.group = GROUP_BENCH, .name = "sizes", .value = "N,N,...", .kind = OPT_TEXT, .apply = applySizes,
     .commands = CMD(BENCH) | CMD(CLASS),
     .help = "the sizes, at most 16: N for a square problem or MxNxK (e.g. 64x64x128), each number 1 to 65536",
     .dflt = BENCH_DEFAULT_SIZES,
     .elsewhere = "the other commands take --size"},
    {.group = GROUP_OUTPUT, .name = "dir", .value = "DIR", .kind = OPT_TEXT, .field = F(output.dir),
     .commands = CMD(EXPORT) | CMD(CLASS) | CMD(TUNE),
     .help = "the folder to write the kernel, its launcher and a Makefile into (class export: the submissions' "
             "sources and a CSV of them; tune: the dispatch table, and each shape's kernel in DIR/LABEL); made when "
             "absent, files there are never overwritten (tune takes only a new or empty folder)",
     .dflt = "KERNEL-export (tune: SUITE-tune, the first name free) in the current folder"},
    {.group = GROUP_OUTPUT, .name = "save", .value = "FILE.csv|FILE.json", .kind = OPT_TEXT, .field = F(output.save),
     .commands = CMD(SWEEP) | CMD(BENCH) | CMD(EXPLAIN) | CMD(CLASS),
     .help = "write every result to a file (explain: the roofline as an SVG image, FILE.svg; class board: the "
             "board's web page, FILE.html)"},
    {.group = GROUP_STORAGE, .name = "store", .value = "FILE", .kind = OPT_TEXT, .field = F(storage.path),
     .commands = STORE_READERS | CMD(SERVE),
     .help = "record the results in (results: read them from) this store (an SQLite file, made when absent)",
     .dflt = "$GEMMTOP_STORE, else $XDG_DATA_HOME/gemmtop/results.db"},
    {.group = GROUP_STORAGE, .name = "no-store", .kind = OPT_FLAG, .field = F(storage.off), .commands = STORED,
     .help = "record nothing in the results store"},
    {.group = GROUP_STORAGE, .name = "fresh", .kind = OPT_FLAG, .field = F(storage.fresh), .commands = CMD(SWEEP) | CMD(TUNE),
     .help = "measure every configuration again, also those that the store has from an earlier run of the "
             "same sweep"},
    {.group = GROUP_BENCH, .name = "reference", .value = "cuda|opencl|hip", .kind = OPT_TEXT, .apply = applyReference,
     .commands = CMD(BENCH),
     .help = "also time that backend's vendor BLAS on the same device and give % of it, e.g. cuBLAS beside "
             "an OpenCL run"},
    {.group = GROUP_BENCH, .name = "frontier", .kind = OPT_FLAG, .field = F(bench.frontier), .commands = CMD(BENCH),
     .help = "one set of float32 inputs through every type (FP32, 3xTF32, tf32, bfloat16, half, e4m3, e5m2 with "
             "per-tensor and block scales) and its vendor library: speed beside the error against the float64 "
             "product; --save FILE.svg draws it"},
    {.group = GROUP_BENCH, .name = "best", .kind = OPT_FLAG, .field = F(bench.best), .commands = CMD(BENCH),
     .help = "with --shapes: a column of each shape's best configuration in the results store (gemmtop tune's), "
             "measured on this device, backend, type and layout with the kernel's file as it is now"},
    {.group = GROUP_BENCH, .name = "rounds", .value = "R", .kind = OPT_INT, .min = 1, .max = 32, .field = F(bench.rounds),
     .commands = CMD(BENCH) | CMD(CLASS),
     .help = "rounds in which the libraries and the configurations take turns; figures are medians over them "
             "(class assign: judged launches per size, each on fresh inputs; default 5)",
     .dflt = "3"},
    {.group = GROUP_BANKS, .name = "site", .value = "N|NAME", .kind = OPT_TEXT, .field = F(banks.site), .commands = CMD(BANKS),
     .help = "draw one request of this access site as lanes x banks"},
    {.group = GROUP_BANKS, .name = "warp", .value = "W", .kind = OPT_INT, .min = 0, .max = MAX_SIZE, .field = F(banks.warp),
     .given = F(banks.has_warp), .commands = CMD(BANKS), .help = "the warp of that request, counted over the traced groups",
     .dflt = "0"},
    {.group = GROUP_BANKS, .name = "iteration", .value = "I", .kind = OPT_INT, .min = 0, .max = MAX_SIZE, .field = F(banks.iteration),
     .given = F(banks.has_iteration), .commands = CMD(BANKS), .help = "which execution of that site by that warp",
     .dflt = "0, the first"},
    {.group = GROUP_BANKS, .name = "groups", .value = "G", .kind = OPT_INT, .min = 1, .max = 1024, .field = F(banks.groups),
     .commands = CMD(BANKS), .help = "work-groups to trace", .dflt = "1"},
    {.group = GROUP_BANKS, .name = "bank-model", .value = "nvidia|amd|default", .kind = OPT_CHOICE,
     .choices = "nvidia|amd|default", .apply = applyBankModel, .commands = CMD(BANKS),
     .help = "trace under this vendor's bank model instead of the device's: on a laptop's PoCL, nvidia counts "
             "the wavefronts an NVIDIA GPU would serve", .dflt = "the device's"},
    {.group = GROUP_BANKS, .name = "banks", .value = "B", .kind = OPT_INT, .min = 1, .max = BANKS_MAX_BANKS, .field = F(banks.count),
     .commands = CMD(BANKS) | CMD(EXPLORER) | CMD(LESSON), .help = "override the device's number of banks",
     .dflt = "the device's"},
    {.group = GROUP_BANKS, .name = "bank-width", .value = "4|8", .kind = OPT_CHOICE, .choices = "4|8", .apply = applyBankWidth,
     .commands = CMD(BANKS) | CMD(EXPLORER) | CMD(LESSON), .help = "override the device's bank width in bytes",
     .dflt = "the device's"},
    {.group = GROUP_BANKS, .name = "simd-width", .value = "S", .kind = OPT_INT, .min = 1, .max = BANKS_MAX_LANES, .field = F(banks.simd_width),
     .commands = CMD(BANKS) | CMD(EXPLORER) | CMD(LESSON),
     .help = "override the device's warp or wavefront width (64: an AMD wavefront)", .dflt = "the device's"},
    {.group = GROUP_BANKS, .name = "as-compiled", .kind = OPT_FLAG, .field = F(banks.as_compiled), .commands = CMD(BANKS),
     .help = "beside the accesses as the source writes them, count them as compiled: a work-item's neighbouring "
             "scalar accesses of a site merged into 8- or 16-byte ones (widths from the compiled code where the "
             "device gives it, else the rule of docs/banks.md)"},
    {.group = GROUP_BANKS, .name = "coalescing", .kind = OPT_FLAG, .field = F(banks.coalescing), .commands = CMD(BANKS),
     .help = "also trace the global loads of A and B (on a problem of at least 256 each way) and count the L1 "
             "wavefronts an NVIDIA GPU serves them in: one per 128-byte line that each phase of lanes touches"},
    /* results: the same names as above where they mean the same thing to a user; a row
       of its own where the value differs (a substring, M,N,K, another set of formats). */
    {.group = GROUP_RESULTS, .name = "device", .value = "TEXT", .kind = OPT_TEXT, .field = F(results.filter_device), .commands = CMD(RESULTS),
     .help = "rows whose device name holds TEXT (any case); import: the device of a T4 file, which does not "
             "name one"},
    {.group = GROUP_RESULTS, .name = "size", .value = "N|MxNxK", .kind = OPT_TEXT, .apply = applyResultsSize, .commands = CMD(RESULTS),
     .help = "rows of this size (N: M, N and K all N; M,N,K also taken); import: the size of a T4 file's results"},
    {.group = GROUP_RESULTS, .name = "type", .value = "TYPE", .kind = OPT_TEXT, .apply = applyPrecision, .given = F(shape.has_precision),
     .commands = CMD(RESULTS), .help = "the same as --precision"},
    {.group = GROUP_RESULTS, .name = "origin", .value = "run|sweep|bench|explorer|vendor|t4|clblast", .kind = OPT_CHOICE,
     .choices = "run|sweep|bench|explorer|vendor|t4|clblast", .field = F(results.origin), .commands = CMD(RESULTS),
     .help = "rows that came from this command, the vendor library or an import"},
    {.group = GROUP_RESULTS, .name = "since", .value = "YYYY-MM-DD", .kind = OPT_TEXT, .apply = applyDate, .field = F(results.since),
     .commands = CMD(RESULTS), .help = "rows measured on or after this day (UTC)"},
    {.group = GROUP_RESULTS, .name = "until", .value = "YYYY-MM-DD", .kind = OPT_TEXT, .apply = applyDate, .field = F(results.until),
     .commands = CMD(RESULTS), .help = "rows measured on or before this day (UTC)"},
    {.group = GROUP_RESULTS, .name = "ok", .kind = OPT_FLAG, .field = F(results.ok_only), .commands = CMD(RESULTS),
     .help = "only verified results that were not ablated or emulated"},
    {.group = GROUP_RESULTS, .name = "limit", .value = "N", .kind = OPT_INT, .min = 0, .max = 100000000, .field = F(results.limit),
     .given = F(results.has_limit), .commands = CMD(RESULTS), .help = "list: the newest N rows; 0 all",
     .dflt = "50"},
    {.group = GROUP_RESULTS, .name = "against", .value = "TEXT", .kind = OPT_TEXT, .field = F(results.against), .commands = CMD(RESULTS),
     .help = "compare: the other device (part of its name)"},
    {.group = GROUP_RESULTS, .name = "against-since", .value = "YYYY-MM-DD", .kind = OPT_TEXT, .apply = applyDate, .field = F(results.against_since),
     .commands = CMD(RESULTS), .help = "compare: the other side is the same device from this day"},
    {.group = GROUP_RESULTS, .name = "against-until", .value = "YYYY-MM-DD", .kind = OPT_TEXT, .apply = applyDate, .field = F(results.against_until),
     .commands = CMD(RESULTS), .help = "compare: the other side is the same device until this day"},
    {.group = GROUP_RESULTS, .name = "format", .value = "csv|jsonl|t4|clblast|dispatch", .kind = OPT_CHOICE, .choices = "csv|jsonl|t4|clblast|dispatch",
     .field = F(results.format), .commands = CMD(RESULTS),
     .help = "export: csv, jsonl, t4 (Kernel Tuner's results) or dispatch (with --shapes: the best per shape, a C "
             "header); import: t4 or clblast (CLBlast's tuner)",
     .dflt = "export csv; import: what the file is"},
    {.group = GROUP_RESULTS, .name = "out", .value = "FILE", .kind = OPT_TEXT, .field = F(results.out), .commands = CMD(RESULTS),
     .help = "export: write to FILE", .dflt = "standard output"},
    {.group = GROUP_RESULTS, .name = "force", .kind = OPT_FLAG, .field = F(results.force), .commands = CMD(RESULTS),
     .help = "export: replace FILE when it exists"},
    {.group = GROUP_OUTPUT, .name = "no-color", .kind = OPT_FLAG, .field = F(output.no_color), .commands = CMD(EXPLORER) | CMD(LESSON),
     .help = "no colours; the NO_COLOR variable does the same"},
    {.group = GROUP_OUTPUT, .name = "ascii", .letter = 'U', .kind = OPT_FLAG, .field = F(output.ascii), .commands = CMD(EXPLORER) | CMD(LESSON),
     .help = "ASCII instead of Unicode box drawing"},
    {.group = GROUP_CLASS, .name = "server", .value = "SOCKET", .kind = OPT_TEXT, .field = F(cls.server),
     .commands = CMD(EXPLORER) | CMD(LESSON) | CMD(RUN) | CMD(SWEEP) | CMD(BENCH) | CMD(SUBMIT) | CMD(CLASS),
     .help = "measure on a class server (gemmtop serve) through its Unix socket instead of a device here; the "
             "kernel's file is sent with the request (the explorer and lessons: each configuration once, the "
             "device here, the CPU by default, only traces and inspects)", .dflt = "$GEMMTOP_SERVER"},
    {.group = GROUP_CLASS, .name = "socket", .value = "PATH", .kind = OPT_TEXT, .field = F(cls.socket), .commands = CMD(SERVE),
     .help = "the Unix socket to listen on (e.g. /run/gemmtop/class.sock); a stale one is replaced, any other file "
             "is left as it is"},
    {.group = GROUP_CLASS, .name = "state", .value = "DIR", .kind = OPT_TEXT, .field = F(cls.state), .commands = CMD(SERVE),
     .help = "the server's folder: assignments and submissions (class.db), the results store, uploads, serve.log",
     .dflt = "$XDG_DATA_HOME/gemmtop/serve"},
    {.group = GROUP_CLASS, .name = "roster", .value = "FILE", .kind = OPT_TEXT, .field = F(cls.roster), .commands = CMD(SERVE),
     .help = "who may use the server: a line per person, 'ACCOUNT NAME' ('lecturer ACCOUNT NAME' for lecturers); "
             "ACCOUNT is a login or a uid", .dflt = "anyone who can open the socket, named by login"},
    {.group = GROUP_CLASS, .name = "board-dir", .value = "DIR", .kind = OPT_TEXT, .field = F(cls.board_dir), .commands = CMD(SERVE),
     .help = "write each assignment's board as a web page (NAME.html) here, again after every judged submission"},
    {.group = GROUP_CLASS, .name = "board-names", .value = "shown|hidden", .kind = OPT_CHOICE, .choices = "shown|hidden",
     .field = F(cls.board_names), .commands = CMD(SERVE),
     .help = "students' names on the board for everyone, or 'student N' (each sees their own; lecturers see all)",
     .dflt = "hidden"},
    {.group = GROUP_CLASS, .name = "socket-access", .value = "owner|group|everyone", .kind = OPT_CHOICE,
     .choices = "owner|group|everyone", .field = F(cls.socket_access), .commands = CMD(SERVE),
     .help = "who may open the socket (its permissions; the roster then decides who is served)", .dflt = "group"},
    {.group = GROUP_CLASS, .name = "max-size", .value = "N", .kind = OPT_INT, .min = 1, .max = 65536, .field = F(cls.max_size),
     .commands = CMD(SERVE), .help = "the largest M, N or K a request may ask", .dflt = "4096"},
    {.group = GROUP_CLASS, .name = "request-seconds", .value = "S", .kind = OPT_REAL, .min = 0, .above_min = true,
     .max = 3600, .field = F(cls.request_s), .commands = CMD(SERVE),
     .help = "a request's compile and measuring may take this long; then its process is killed", .dflt = "60"},
    {.group = GROUP_CLASS, .name = "in-flight", .value = "N", .kind = OPT_INT, .min = 1, .max = 64, .field = F(cls.in_flight),
     .commands = CMD(SERVE), .help = "requests one student may have waiting or running; more are refused",
     .dflt = "4"},
    {.group = GROUP_CLASS, .name = "child-memory", .value = "MB", .kind = OPT_INT, .min = 64, .max = 1048576,
     .field = F(cls.child_mb), .commands = CMD(SERVE),
     .help = "the data a measuring process may allocate (RLIMIT_DATA)", .dflt = "16384"},
    {.group = GROUP_CLASS, .name = "quota", .value = "MB", .kind = OPT_INT, .min = 1, .max = 1048576, .field = F(cls.quota_mb),
     .commands = CMD(SERVE), .help = "the sources one student's submissions may hold on the server", .dflt = "16"},
    {.group = GROUP_CLASS, .name = "min-free", .value = "MB", .kind = OPT_INT, .min = 0, .max = 1048576,
     .field = F(cls.min_free_mb), .commands = CMD(SERVE),
     .help = "with less free disk than this where the server keeps its records, it takes nothing new and says why",
     .dflt = "256"},
    {.group = GROUP_CLASS, .name = "assignment", .value = "NAME", .kind = OPT_TEXT, .field = F(cls.assignment),
     .commands = CMD(SUBMIT) | CMD(EXPLORER) | CMD(LESSON),
     .help = "the assignment to submit to ('gemmtop class list' shows them; the explorer: J submits)"},
    {.group = GROUP_GENERAL, .name = "help", .letter = 'h', .kind = OPT_FLAG, .apply = applyHelp, .commands = EVERY, .help = "this help"},
    {.group = GROUP_GENERAL, .name = "version", .kind = OPT_FLAG, .apply = applyVersion, .commands = EVERY, .help = "the version"},
};

const OptionSpec *Options_table(size_t *count) {
   *count = sizeof table / sizeof table[0];
   return table;
}

const CommandEntry *const *Options_commands(void) { return commands; }

CommandArgs Options_args(const Options *o, CommandId command) {
   unsigned g = commands[command]->groups;
#define IF_DECLARED(group, field) ((g & GROUP_BIT(group)) ? &o->field : NULL)
   CommandArgs a = {
       .sel = IF_DECLARED(GROUP_SELECTION, sel),
       .shape = IF_DECLARED(GROUP_SHAPE, shape),
       .timing = IF_DECLARED(GROUP_TIMING, timing),
       .io = IF_DECLARED(GROUP_IO, io),
       .output = IF_DECLARED(GROUP_OUTPUT, output),
       .storage = IF_DECLARED(GROUP_STORAGE, storage),
       .inspect = IF_DECLARED(GROUP_INSPECT, inspect),
       .sweep = IF_DECLARED(GROUP_SWEEP, sweep),
       .bench = IF_DECLARED(GROUP_BENCH, bench),
       .banks = IF_DECLARED(GROUP_BANKS, banks),
       .results = IF_DECLARED(GROUP_RESULTS, results),
       .list = IF_DECLARED(GROUP_LIST, list),
       .lesson = IF_DECLARED(GROUP_LESSON, lesson),
       .cls = IF_DECLARED(GROUP_CLASS, cls),
       .positional = o->positional,
       .npositional = o->npositional,
   };
#undef IF_DECLARED
   return a;
}

int Options_findCommand(const char *name) {
   for (int c = 1; c < COMMAND_COUNT; c++)
      if (!strcmp(name, commands[c]->name))
         return c;
   return -1;
}

const char *Options_commandLabel(CommandId command) {
   return command == COMMAND_EXPLORER ? "the explorer" : commands[command]->name;
}

/* ---- parsing ---- */

typedef struct Parser_ {
   Options *o;
   CommandId command;
   int argc;
   char **argv;
   int i;            /* the word being read */
   char *err;
   size_t errlen;
} Parser;

static void spellingOf(const OptionSpec *s, bool short_form, char *out, size_t len) {
   if (s->name && !short_form)
      snprintf(out, len, "--%s", s->name);
   else
      snprintf(out, len, "-%c", s->letter);
}

/* "'gemmtop run', 'gemmtop inspect' and the explorer". */
static void commandList(unsigned mask, char *out, size_t len) {
   int n = 0, total = 0;
   for (int c = 0; c < COMMAND_COUNT; c++)
      total += (mask >> c) & 1;
   out[0] = '\0';
   for (int c = 1; c <= COMMAND_COUNT; c++) {
      int id = c % COMMAND_COUNT; /* the explorer last */
      if (!((mask >> id) & 1))
         continue;
      size_t used = strlen(out);
      const char *sep = n == 0 ? "" : n == total - 1 ? " and " : ", ";
      if (id == COMMAND_EXPLORER)
         snprintf(out + used, len - used, "%sthe explorer", sep);
      else
         snprintf(out + used, len - used, "%s'gemmtop %s'", sep, commands[id]->name);
      n++;
   }
}

static int refuseCommand(Parser *p, const OptionSpec *s, const char *spelling) {
   char takers[256];
   commandList(s->commands, takers, sizeof takers);
   char here[64];
   if (p->command == COMMAND_EXPLORER)
      snprintf(here, sizeof here, "the explorer");
   else
      snprintf(here, sizeof here, "'gemmtop %s'", commands[p->command]->name);
   return fail(p->err, p->errlen, "%s is for %s, not for %s%s%s", spelling, takers, here, s->elsewhere ? "; " : "",
               s->elsewhere ? s->elsewhere : "");
}

/* "a|b|c" as "a, b or c". */
static void choiceList(const char *choices, char *out, size_t len) {
   out[0] = '\0';
   const char *p = choices;
   while (*p) {
      size_t n = strcspn(p, "|"), used = strlen(out);
      const char *sep = used == 0 ? "" : p[n] ? ", " : " or ";
      snprintf(out + used, len - used, "%s%.*s", sep, (int)n, p);
      p += n + (p[n] == '|');
   }
}

static bool isChoice(const char *choices, const char *v) {
   size_t len = strlen(v);
   for (const char *p = choices; *p;) {
      size_t n = strcspn(p, "|");
      if (n == len && !strncmp(p, v, n))
         return true;
      p += n + (p[n] == '|');
   }
   return false;
}

/* "1 to 1024", "more than 0, at most 86400", "a finite number". */
static void rangeText(const OptionSpec *s, char *out, size_t len) {
   if (s->kind == OPT_REAL && s->min == -DBL_MAX && s->max == DBL_MAX)
      snprintf(out, len, "a finite number");
   else if (s->above_min)
      snprintf(out, len, "more than %g, at most %g", s->min, s->max);
   else
      snprintf(out, len, "%.0f to %.0f", s->min, s->max);
}

static int checkNumber(Parser *p, const OptionSpec *s, const char *spelling, const char *v, double *out) {
   char *end, range[96];
   errno = 0;
   double x = s->kind == OPT_INT ? (double)strtoll(v, &end, 10) : strtod(v, &end);
   rangeText(s, range, sizeof range);
   if (end == v || *end || (s->kind == OPT_INT && errno == ERANGE))
      return fail(p->err, p->errlen, "%s '%.*s%s' is not a %s: use %s", spelling, SHOWN(v),
                  s->kind == OPT_INT ? "whole number" : "number", range);
   bool inside = isfinite(x) && (s->above_min ? x > s->min : x >= s->min) && x <= s->max;
   if (!inside)
      return fail(p->err, p->errlen, "%s %.*s%s: use %s", spelling, SHOWN(v), range);
   *out = x;
   return 0;
}

/* Checks value against the row's kind and stores it. */
static int store(Parser *p, const OptionSpec *s, const char *spelling, const char *v) {
   char *base = (char *)p->o;
   double x = 0;
   if (s->kind != OPT_FLAG && !*v)
      return fail(p->err, p->errlen, "%s needs a value (%s), not an empty word", spelling, s->value);
   if ((s->kind == OPT_INT || s->kind == OPT_REAL) && checkNumber(p, s, spelling, v, &x))
      return 2;
   if (s->kind == OPT_CHOICE && !isChoice(s->choices, v)) {
      char list[128];
      choiceList(s->choices, list, sizeof list);
      return fail(p->err, p->errlen, "%s '%.*s%s': use %s", spelling, SHOWN(v), list);
   }
   if (s->apply) {
      int rc = s->apply(p->o, s, v, p->err, p->errlen);
      if (rc)
         return rc;
   } else if (s->kind == OPT_FLAG) {
      *(bool *)(base + s->field) = true;
   } else if (s->kind == OPT_INT) {
      *(int *)(base + s->field) = (int)x;
   } else if (s->kind == OPT_REAL) {
      *(double *)(base + s->field) = x;
   } else {
      *(const char **)(base + s->field) = v;
   }
   if (s->given)
      *(bool *)(base + s->given) = true;
   return 0;
}

/* A word that is an option rather than a value: "--size", "-m", "-U"; not "-1" or "-". */
static bool looksLikeOption(const char *w) {
   return w[0] == '-' && ((w[1] == '-' && w[2]) || (w[1] >= 'a' && w[1] <= 'z') || (w[1] >= 'A' && w[1] <= 'Z'));
}

/* The value of the option at argv[p->i]: inline ("--x=v", "-m64") or the next word. */
static int takeValue(Parser *p, const OptionSpec *s, const char *spelling, const char *inline_value,
                     const char **value) {
   if (inline_value) {
      *value = inline_value;
      return 0;
   }
   if (p->i + 1 >= p->argc)
      return fail(p->err, p->errlen, "%s is missing its value (%s)", spelling, s->value);
   const char *next = p->argv[p->i + 1];
   if (looksLikeOption(next))
      return fail(p->err, p->errlen, "%s is missing its value (%s): the next word, '%.*s%s', is an option", spelling,
                  s->value, SHOWN(next));
   p->i++;
   *value = next;
   return 0;
}

static int handle(Parser *p, const OptionSpec *s, bool short_form, const char *inline_value) {
   char spelling[64];
   spellingOf(s, short_form, spelling, sizeof spelling);
   if (!((s->commands >> p->command) & 1))
      return refuseCommand(p, s, spelling);
   const char *v = "";
   if (s->kind == OPT_FLAG && inline_value)
      return fail(p->err, p->errlen, "%s takes no value (got '%.*s%s')", spelling, SHOWN(inline_value));
   if (s->kind != OPT_FLAG && takeValue(p, s, spelling, inline_value, &v))
      return 2;
   int rc = store(p, s, spelling, v);
   if (rc == 1 && s->apply == applyHelp) {
      if (p->command == COMMAND_EXPLORER)
         Options_usage(stdout);
      else
         Options_commandUsage(stdout, p->command);
   } else if (rc == 1) {
      printf("gemmtop %s\n", GEMMTOP_VERSION);
   }
   return rc;
}

/* The row named name (len characters) for this command: rows may share a name when no
 * command takes both (results --size is M,N,K, run --size one number); a command that
 * takes neither is told about the first. */
static const OptionSpec *rowNamed(const Parser *p, const char *name, size_t len) {
   const OptionSpec *first = NULL;
   for (size_t r = 0; r < sizeof table / sizeof table[0]; r++) {
      const OptionSpec *s = &table[r];
      if (!s->name || strlen(s->name) != len || strncmp(s->name, name, len) != 0)
         continue;
      if ((s->commands >> p->command) & 1)
         return s;
      if (!first)
         first = s;
   }
   return first;
}

/* "--name", "--name=value", or a unique prefix of a name. */
static int longOption(Parser *p, const char *word) {
   size_t len = strcspn(word, "=");
   const char *inline_value = word[len] == '=' ? word + len + 1 : NULL;
   const OptionSpec *found = rowNamed(p, word, len);
   int matches = found ? 1 : 0;
   char candidates[256] = "";
   for (size_t r = 0; r < sizeof table / sizeof table[0] && !found; r++) {
      const char *name = table[r].name;
      if (!name || strncmp(name, word, len) != 0 || rowNamed(p, name, strlen(name)) != &table[r])
         continue; /* one candidate per name */
      size_t used = strlen(candidates);
      snprintf(candidates + used, sizeof candidates - used, "%s--%s", matches ? ", " : "", name);
      matches++;
   }
   if (matches == 1 && !found) /* the one prefix match */
      for (size_t r = 0; r < sizeof table / sizeof table[0] && !found; r++)
         if (table[r].name && !strncmp(table[r].name, word, len))
            found = rowNamed(p, table[r].name, strlen(table[r].name));
   if (matches == 0)
      return fail(p->err, p->errlen, "unknown option --%.*s%s", (int)(len > 48 ? 45 : len), word, len > 48 ? "..." : "");
   if (matches > 1)
      return fail(p->err, p->errlen, "option --%.*s is ambiguous: %s", (int)len, word, candidates);
   return handle(p, found, false, inline_value);
}

/* "-m 64", "-m64", "-Uh". */
static int shortOptions(Parser *p, const char *letters) {
   for (const char *c = letters; *c; c++) {
      const OptionSpec *s = NULL;
      for (size_t r = 0; r < sizeof table / sizeof table[0] && !s; r++)
         if (table[r].letter && table[r].letter == *c)
            s = &table[r];
      if (!s)
         return fail(p->err, p->errlen, "unknown option -%c", *c);
      bool rest = s->kind != OPT_FLAG && c[1];
      int rc = handle(p, s, true, rest ? c + 1 : NULL);
      if (rc || rest)
         return rc;
   }
   return 0;
}

static int checkPositionals(Parser *p) {
   const CommandEntry *c = commands[p->command];
   if (p->o->npositional <= c->max_positional)
      return 0;
   const char *extra = p->o->positional[c->max_positional];
   if (c->max_positional == 0)
      return fail(p->err, p->errlen, "%s takes no argument '%.*s%s'", p->command == COMMAND_EXPLORER ? "the explorer" : c->name,
                  SHOWN(extra));
   return fail(p->err, p->errlen, "%s takes at most %d argument%s (%s): '%.*s%s' is one too many", c->name,
               c->max_positional, c->max_positional == 1 ? "" : "s", c->words, SHOWN(extra));
}

/* The defaults: a number option whose default is a plain number starts from it. */
static void setDefaults(Options *o) {
   memset(o, 0, sizeof *o);
   Problem_setDefaults(&o->shape.problem);
   for (size_t r = 0; r < sizeof table / sizeof table[0]; r++) {
      const OptionSpec *s = &table[r];
      char *end;
      long v = s->dflt ? strtol(s->dflt, &end, 10) : 0;
      if (s->kind == OPT_INT && !s->apply && s->dflt && end != s->dflt && !*end)
         *(int *)((char *)o + s->field) = (int)v;
   }
   const char *nc = getenv("NO_COLOR");
   o->output.no_color = nc && *nc;
}

int Options_parseQuiet(Options *o, int argc, char **argv, int first, const char *command, char *err, size_t errlen) {
   int id = command && *command ? Options_findCommand(command) : COMMAND_EXPLORER;
   setDefaults(o);
   err[0] = '\0';
   if (id < 0)
      return fail(err, errlen, "unknown command '%s'", command);
   Parser p = {.o = o, .command = (CommandId)id, .argc = argc, .argv = argv, .err = err, .errlen = errlen};
   bool options_ended = false;
   for (p.i = first; p.i < argc; p.i++) {
      const char *w = argv[p.i];
      int rc = 0;
      if (options_ended || w[0] != '-' || w[1] == '\0') {
         if (o->npositional == OPTIONS_MAX_POSITIONAL)
            return fail(err, errlen, "too many arguments: at most %d ('%.*s%s' is one more)", OPTIONS_MAX_POSITIONAL,
                        SHOWN(w));
         o->positional[o->npositional++] = w;
      } else if (!strcmp(w, "--")) {
         options_ended = true;
      } else if (w[1] == '-') {
         rc = longOption(&p, w + 2);
      } else {
         rc = shortOptions(&p, w + 1);
      }
      if (rc)
         return rc;
   }
   if (o->shape.nsize_list > 1 && p.command != COMMAND_SWEEP)
      return fail(err, errlen, "--size takes one size (S or MxNxK) here; a list is for 'gemmtop sweep' (bench takes "
                               "--sizes)");
   return checkPositionals(&p);
}

int Options_parse(Options *o, int argc, char **argv, int first, const char *command) {
   char err[1024];
   int rc = Options_parseQuiet(o, argc, argv, first, command, err, sizeof err);
   if (rc == 2) {
      bool named = command && *command && Options_findCommand(command) >= 0;
      fprintf(stderr, "gemmtop: %s\nsee 'gemmtop%s%s --help'\n", err, named ? " " : "", named ? command : "");
   }
   return rc;
}

static bool parseOneSize(const char *p, size_t len, int max, int *mnk);

int Options_parseSizes(const char *text, BenchSize *sizes, int max, char *err, size_t errlen) {
   const char *p = text ? text : BENCH_DEFAULT_SIZES;
   int n = 0, total = 1;
   for (const char *q = p; *q; q++)
      total += *q == ',';
   if (total > max) {
      fail(err, errlen, "--sizes: at most %d sizes, not %d", max, total);
      return -1;
   }
   for (;;) {
      size_t len = strcspn(p, ",");
      int mnk[3];
      if (!len || !parseOneSize(p, len, OPTIONS_MAX_BENCH_SIZE, mnk)) {
         fail(err, errlen,
              "--sizes: '%.*s%s' is not a size: use N or MxNxK, whole numbers from 1 to %d, comma-separated (e.g. "
              "%s,64x64x128)",
              (int)(len > 48 ? 45 : len), p, len > 48 ? "..." : "", OPTIONS_MAX_BENCH_SIZE, BENCH_DEFAULT_SIZES);
         return -1;
      }
      sizes[n++] = (BenchSize){.m = mnk[0], .n = mnk[1], .k = mnk[2], .weight = 1};
      if (!p[len])
         return n;
      p += len + 1;
   }
}

/* "4096" or "4096x4096x1024" at p (len characters) into mnk; false when it is neither. */
static bool parseOneSize(const char *p, size_t len, int max, int *mnk) {
   const char *q = p, *stop = p + len;
   int parts = 0;
   for (;;) {
      char *end;
      errno = 0;
      long long v = *q >= '0' && *q <= '9' ? strtoll(q, &end, 10) : 0;
      if (v < 1 || v > max || errno || end > stop || parts == 3)
         return false;
      mnk[parts++] = (int)v;
      if (end == stop)
         break;
      if (*end != 'x')
         return false;
      q = end + 1;
   }
   if (parts == 2)
      return false;
   if (parts == 1)
      mnk[1] = mnk[2] = mnk[0];
   return true;
}

int Options_parseSizeList(const char *text, int (*mnk)[3], int maxn, int max, char *err, size_t errlen) {
   int n = 0, total = 1;
   for (const char *q = text; *q; q++)
      total += *q == ',';
   if (total > maxn) {
      fail(err, errlen, "--size: at most %d sizes, not %d", maxn, total);
      return -1;
   }
   for (const char *p = text;; n++) {
      size_t len = strcspn(p, ",");
      if (!len || !parseOneSize(p, len, max, mnk[n])) {
         fail(err, errlen, "--size: '%.*s%s' is not a size: use S or MxNxK, whole numbers from 1 to %d "
                           "(sweep: comma-separated, e.g. 1024,2048,4096x4096x1024)",
              (int)(len > 48 ? 45 : len), p, len > 48 ? "..." : "", max);
         return -1;
      }
      if (!p[len])
         return n + 1;
      p += len + 1;
   }
}

bool Options_parseStrategies(const char *text, unsigned *mask, char *err, size_t errlen) {
   *mask = 0;
   if (!strcmp(text, "all")) {
      *mask = (1u << SEARCH_STRATEGIES) - 1;
      return true;
   }
   for (const char *p = text;;) {
      size_t len = strcspn(p, ",");
      char name[32];
      SearchStrategy st;
      snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
      if (!len || len >= sizeof name || !SearchStrategy_parse(name, &st)) {
         fail(err, errlen, "--strategies: '%.*s%s' is not a strategy: use all, or names of %s, comma-separated",
              (int)(len > 48 ? 45 : len), p, len > 48 ? "..." : "", SearchStrategy_list());
         return false;
      }
      *mask |= 1u << st;
      if (!p[len])
         return true;
      p += len + 1;
   }
}

/* ---- help ---- */

#define HELP_COLUMN 29
#define HELP_WIDTH 100

/* The help of a row with its range and default: "timed launches (1 to 1024; default 10)". */
static void describe(const OptionSpec *s, char *out, size_t len) {
   char range[96] = "";
   if (s->kind == OPT_INT || (s->kind == OPT_REAL && !(s->min == -DBL_MAX && s->max == DBL_MAX)))
      rangeText(s, range, sizeof range);
   snprintf(out, len, "%s%s%s%s%s%s", s->help, range[0] || s->dflt ? " (" : "", range,
            range[0] && s->dflt ? "; " : "", s->dflt ? "default " : "", s->dflt ? s->dflt : "");
   if (range[0] || s->dflt)
      snprintf(out + strlen(out), len - strlen(out), ")");
}

/* Words of text from column at, wrapped at HELP_WIDTH. */
static void printWrapped(FILE *out, const char *text, int at) {
   int col = at;
   const char *p = text;
   while (*p) {
      size_t word = strcspn(p, " ");
      if (col > at && col + 1 + (int)word > HELP_WIDTH) {
         fprintf(out, "\n%*s", at, "");
         col = at;
      } else if (col > at) {
         fputc(' ', out);
         col++;
      }
      fprintf(out, "%.*s", (int)word, p);
      col += (int)word;
      p += word;
      while (*p == ' ')
         p++;
   }
   fputc('\n', out);
}

static void printOption(FILE *out, const OptionSpec *s) {
   char spell[96], text[1024];
   if (s->letter && s->name)
      snprintf(spell, sizeof spell, "-%c, --%s", s->letter, s->name);
   else if (s->name)
      snprintf(spell, sizeof spell, "--%s", s->name);
   else
      snprintf(spell, sizeof spell, "-%c", s->letter);
   if (s->value)
      snprintf(spell + strlen(spell), sizeof spell - strlen(spell), " %s", s->value);
   describe(s, text, sizeof text);
   int used = fprintf(out, "  %s", spell);
   if (used + 1 >= HELP_COLUMN)
      fprintf(out, "\n%*s", HELP_COLUMN, "");
   else
      fprintf(out, "%*s", HELP_COLUMN - used, "");
   printWrapped(out, text, HELP_COLUMN);
}

/* A command's options under the headings of its groups, in the table's order within each. */
static void printOptionsOf(FILE *out, CommandId command) {
   bool first = true;
   for (int g = 0; g < GROUP_COUNT; g++) {
      bool heading = false;
      for (size_t r = 0; r < sizeof table / sizeof table[0]; r++) {
         if (table[r].group != (OptionGroup)g || !((table[r].commands >> command) & 1))
            continue;
         if (!heading)
            fprintf(out, "%s%s:\n", first ? "" : "\n", groupTitles[g]);
         heading = true;
         first = false;
         printOption(out, &table[r]);
      }
   }
}

static const char EXIT_STATUS[] =
    "\nexit status: 0 success, 1 a run failed or did not verify, 2 usage error or refused configuration\n";

/* "gemmtop list [devices|kernels|presets] [options]" */
static void usageLine(CommandId c, char *out, size_t len) {
   const CommandEntry *cs = commands[c];
   snprintf(out, len, "gemmtop%s%s%s%s [options]", cs->name[0] ? " " : "", cs->name, cs->words[0] ? " " : "",
            cs->words);
}

void Options_usage(FILE *out) {
   char line[128];
   int width = 0;
   for (int c = 0; c < COMMAND_COUNT; c++) {
      usageLine((CommandId)c, line, sizeof line);
      width = (int)strlen(line) > width ? (int)strlen(line) : width;
   }
   for (int c = 0; c < COMMAND_COUNT; c++) {
      usageLine((CommandId)c, line, sizeof line);
      fprintf(out, "%s %-*s  %s\n", c ? "      " : "usage:", width, line, commands[c]->summary);
   }
   fputs("\n'gemmtop COMMAND --help' lists the options of that command.\n\noptions of the explorer:\n", out);
   printOptionsOf(out, COMMAND_EXPLORER);
   fputs(EXIT_STATUS, out);
}

void Options_commandUsage(FILE *out, CommandId command) {
   char line[128];
   usageLine(command, line, sizeof line);
   fprintf(out, "usage: %s\n%s\n\noptions:\n", line, commands[command]->summary);
   printOptionsOf(out, command);
   fputs(EXIT_STATUS, out);
}
