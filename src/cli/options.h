/* Command-line options: one table says, for every option, its spelling, its value and
 * range, its help and the commands that take it; parsing, --help and the man-page test
 * all read it. Options is what they resolve to. */
#ifndef GEMMTOP_OPTIONS_H
#define GEMMTOP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/backend.h"
#include "core/catalog.h"
#include "core/preset.h"
#include "core/problem.h"

#define OPTIONS_MAX_SETS 32
#define OPTIONS_MAX_POSITIONAL 64
#define OPTIONS_MAX_SIZES 16       /* bench --sizes */
#define OPTIONS_MAX_BENCH_SIZE 65536

typedef enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } OutputFormat;

/* One bench size: M, N and K (a square size has all three equal). */
typedef struct BenchSize_ {
   int m, n, k;
} BenchSize;

typedef struct Options_ {
   const char *backend;      /* NULL: opencl */
   const char *device;       /* NULL: the best device */
   const char *kernel;
   const char *preset;
   const char *sets[OPTIONS_MAX_SETS];
   int nsets;
   Problem problem;
   bool has_m, has_n, has_k, has_precision, has_layout, has_alpha, has_beta;
   int reps, warmup;
   double max_seconds;
   OutputFormat format;
   uint64_t seed;
   bool has_seed;
   const char *a_path, *b_path, *c_path, *out_path;
   bool no_verify;
   unsigned ablate;          /* run: AblateFlag bits (--ablate no-a,no-b,no-fma,const-store) */
   bool no_color, ascii, measure;
   bool prepare;             /* lesson: compile every step ahead instead of teaching */
   bool vendor;              /* run: also time the vendor library (CLBlast, cuBLAS) */
   bool cold_l2;             /* run, bench, sweep: time with the L2 cache cold (core/coldl2.h) */
   const char *arch;         /* inspect: compile for this target (sm_90, gfx906) without a device */
   const char *code;         /* inspect: ptx, sass, isa, none */
   int budget;               /* sweep: configurations to try (0: default) */
   bool exhaustive;          /* sweep: every valid configuration */
   const char *sizes;        /* bench: "1024,2048,4096" */
   const char *save;         /* sweep, bench: results file (.csv or .json) */
   const char *store;        /* run, sweep, bench, explorer, results: the results store file (NULL: Store_defaultPath) */
   bool no_store;            /* record nothing in the results store */
   bool fresh;               /* sweep: measure again what the store already has for this sweep */
   const char *reference;    /* bench: another backend whose vendor BLAS is also timed (cuda: cuBLAS) */
   int save_presets;         /* sweep: save the best N as presets */
   int rounds;               /* bench: rounds of libraries and configurations in turn (median) */
   double timeout;           /* sweep: seconds one launch may take before the configuration is dropped */
   int jobs;                 /* sweep: parallel compiles (0: one per core) */
   bool mpi;                 /* sweep: one rank per GPU under mpirun or srun (cli/mpisweep.h) */
   const char *mpi_simulate; /* sweep --mpi: ranks answer with the times recorded in this --save file */
   const char *site;         /* banks: the access site to draw (index or name) */
   int warp, iteration;      /* banks: warp (flat over traced groups) and execution of the grid */
   bool has_warp, has_iteration;
   int groups;               /* banks: work-groups to trace (0: 1) */
   int banks, bank_width, simd_width; /* banks: model overrides (0: the device's model) */
   bool as_compiled;         /* banks: also count the accesses as the compiler merges them */
   const char *strategy;     /* sweep: the search strategy's name (NULL: a random sample, or all with --exhaustive) */
   double time_budget;       /* sweep: stop proposing after this many seconds (0: no limit) */
   const char *simulate;     /* sweep: replay a recorded space (a --save file) instead of measuring */
   const char *strategies;   /* sweep --simulate: "all" or names, comma-separated */
   int repeat;               /* sweep --simulate: seeds per strategy */
   int nsize_list;           /* --size: the sizes given (more than one: sweep only) */
   int size_list[OPTIONS_MAX_SIZES][3]; /* M, N, K of each */
   /* results (cli_results.c): filters, the other side of a comparison, files */
   const char *filter_device, *filter_size, *origin, *since, *until;
   const char *against, *against_since, *against_until;
   const char *results_format; /* export: csv, jsonl, t4; import: t4, clblast */
   const char *results_out;  /* export: the file (NULL: standard output) */
   bool ok_only, force;
   int limit;                /* list: the newest N rows (0: all) */
   bool has_limit;
   const char *positional[OPTIONS_MAX_POSITIONAL];
   int npositional;
} Options;

/* The commands; the explorer is gemmtop with none. */
typedef enum {
   COMMAND_EXPLORER,
   COMMAND_LIST,
   COMMAND_RUN,
   COMMAND_INSPECT,
   COMMAND_SWEEP,
   COMMAND_BENCH,
   COMMAND_BANKS,
   COMMAND_CACHE,
   COMMAND_RESULTS,
   COMMAND_LESSON,
   COMMAND_COUNT
} CommandId;

typedef struct CommandSpec_ {
   const char *name;         /* "" for the explorer */
   const char *words;        /* the words it takes besides options, as usage shows them */
   const char *summary;
   int max_positional;       /* words that are not options */
} CommandSpec;

typedef enum {
   OPT_FLAG,                 /* no value: a bool */
   OPT_INT,                  /* a whole number in [min, max] (an int) */
   OPT_REAL,                 /* a finite number in [min, max], or (min, max] with above_min (a double) */
   OPT_TEXT,                 /* a word that is not empty (a const char *) */
   OPT_CHOICE,               /* one of choices, "a|b|c" (a const char *, unless apply stores it) */
} OptionKind;

typedef struct OptionSpec_ OptionSpec;

/* Stores a value that the generic kinds cannot (or checks more): 0, or 2 with a message. */
typedef int (*OptionApply)(Options *o, const OptionSpec *spec, const char *value, char *err, size_t errlen);

struct OptionSpec_ {
   const char *name;         /* the long spelling without "--", or NULL */
   char letter;              /* the short spelling (-m), or 0 */
   const char *value;        /* the value's name in help ("N", "NAME"); NULL for a flag */
   OptionKind kind;
   double min, max;          /* OPT_INT, OPT_REAL */
   bool above_min;           /* OPT_REAL: min itself is not valid */
   const char *choices;      /* OPT_CHOICE */
   size_t field;             /* offsetof the Options field the generic kinds set */
   size_t given;             /* offsetof a bool set when the option is given, or 0 */
   OptionApply apply;        /* instead of the generic store, or NULL */
   unsigned commands;        /* 1u << CommandId for each command that takes it */
   const char *help;         /* one line; the range and the default are added to it */
   const char *dflt;         /* the default as help shows it, or NULL; for OPT_INT a plain
                                number is also where parsing starts */
   const char *elsewhere;    /* said when a command that does not take it is given it */
};

/* The tables (for --help, the man-page test): count rows each. */
const OptionSpec *Options_table(size_t *count);
const CommandSpec *Options_commands(void);
/* The command named name (argv[1]), or -1. */
int Options_findCommand(const char *name);
/* A command's name for messages: "run", or "the explorer". */
const char *Options_commandLabel(CommandId command);

/* Parses argv from index first for command ("run"; "" or NULL: the explorer). Returns 0
 * ok, 2 usage error (message printed to stderr), 1 when --help or --version was handled
 * (printed to stdout; exit 0). */
int Options_parse(Options *o, int argc, char **argv, int first, const char *command);
/* The same, with the usage error's message in err instead of on stderr. */
int Options_parseQuiet(Options *o, int argc, char **argv, int first, const char *command, char *err, size_t errlen);

/* gemmtop --help: the commands and the explorer's options. */
void Options_usage(FILE *out);
/* gemmtop COMMAND --help: that command's options, from the table. */
void Options_commandUsage(FILE *out, CommandId command);

/* bench --sizes "1024,2048,64x64x128": every comma-separated size, read whole: a square
 * size N or an MxNxK triple, each number 1 to OPTIONS_MAX_BENCH_SIZE; NULL text gives the
 * default. Returns the count (at most max), or -1 with a message saying what is wrong and
 * what would be valid. */
int Options_parseSizes(const char *text, BenchSize *sizes, int max, char *err, size_t errlen);

/* --size "1024", "2048,4096" or "4096x4096x1024,512": square sizes or MxNxK triples,
 * comma-separated, each 1 to max. Returns the count (at most maxn), or -1 with a message. */
int Options_parseSizeList(const char *text, int (*mnk)[3], int maxn, int max, char *err, size_t errlen);

/* sweep --strategies "all" or "anneal,bayes": a bit per SearchStrategy in *mask. False
 * with a message naming what would be valid. */
bool Options_parseStrategies(const char *text, unsigned *mask, char *err, size_t errlen);

#endif
