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
#include "core/model/catalog.h"
#include "core/model/preset.h"
#include "core/model/problem.h"
#include "core/run/session.h"

#define OPTIONS_MAX_SETS 32
#define OPTIONS_MAX_POSITIONAL 64
#define OPTIONS_MAX_SIZES 16       /* bench --sizes */
#define OPTIONS_MAX_BENCH_SIZE 65536

typedef enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } OutputFormat;

/* One bench size: M, N and K (a square size has all three equal); from a shape suite, its
 * label and weight ("" and 1 for --sizes). */
typedef struct BenchSize_ {
   int m, n, k;
   char label[48];
   double weight;
} BenchSize;

/* The options, grouped by concern: a command's code reads the groups it takes (the table
 * in options.c says which options each command takes, and --help lists them by group). */
typedef struct SelectionOptions_ {
   const char *backend;      /* NULL: opencl */
   const char *device;       /* NULL: the best device */
   const char *kernel;
   const char *preset;
   const char *sets[OPTIONS_MAX_SETS];
   int nsets;
} SelectionOptions;

typedef struct ShapeOptions_ {
   Problem problem;
   bool has_m, has_n, has_k, has_precision, has_layout, has_alpha, has_beta, has_scaling;
   int nsize_list;           /* --size: the sizes given (more than one: sweep only) */
   int size_list[OPTIONS_MAX_SIZES][3]; /* M, N, K of each */
   const char *shapes;       /* bench, sweep, tune --shapes: a suite's name or file (core/model/shapes.h) */
} ShapeOptions;

typedef struct TimingOptions_ {
   int reps, warmup;
   double max_seconds;
   uint64_t seed;
   bool has_seed;
   bool no_verify;
   VerifyOn verify_on;       /* run, bench: where C is checked (--verify-on) */
   unsigned ablate;          /* run: AblateFlag bits (--ablate no-a,no-b,no-fma,const-store) */
   bool vendor;              /* run: also time the vendor library (CLBlast, cuBLAS, cuBLASLt) */
   bool vendor_bf16;         /* run --vendor, bench: the vendor library writes C in bfloat16 (--vendor-output) */
   bool cold_l2;             /* run, bench, sweep: time with the L2 cache cold (core/run/coldl2.h) */
   double judge_ms;          /* explain: judge this time (another tool's, e.g. a profiler's) instead of the run's; 0 none */
   double judge_mhz;         /* explain --judge-ms: the SM clock that time was taken at; 0 unknown */
   double bank_ratio;        /* explain --judge-ms: local-memory conflicts measured elsewhere (wavefronts over the
                                ideal); 0 none */
   double load_ratio;        /* explain --judge-ms: the coalescing of the global loads measured elsewhere (the L1's
                                wavefronts over their bytes / 128); 0 none */
   double store_wavefronts;  /* explain --judge-ms: local-memory store wavefronts per multiply-add (a bank trace's
                                taken there); 0 none */
} TimingOptions;

typedef struct InputOptions_ {
   const char *a_path, *b_path, *c_path, *out_path; /* run: .npy inputs and the result */
   const char *a_scale_path, *b_scale_path;         /* run: the FP8 patterns' scales */
} InputOptions;

typedef struct OutputOptions_ {
   OutputFormat format;
   bool no_color, ascii;
   const char *save;         /* sweep, bench: results file (.csv or .json) */
   const char *dir;          /* export-kernel, tune: the folder of the files written */
} OutputOptions;

typedef struct StorageOptions_ {
   const char *path;         /* run, sweep, bench, explorer, results: the results store file (NULL: Store_defaultPath) */
   bool off;                 /* record nothing in the results store */
   bool fresh;               /* sweep: measure again what the store already has for this sweep */
} StorageOptions;

typedef struct InspectOptions_ {
   const char *arch;         /* compile for this target (sm_90, gfx906) without a device */
   const char *code;         /* ptx, sass, isa, none */
   int compute_units;        /* export-kernel --arch: the multiprocessors of the device meant (0: not said) */
   const char *device_file;  /* explain --arch: the device meant, as list devices --format json --measure printed it */
} InspectOptions;

typedef struct SweepOptions_ {
   int budget;               /* configurations to try (0: default) */
   bool exhaustive;          /* every valid configuration */
   const char *strategy;     /* the search strategy's name (NULL: a random sample, or all with --exhaustive) */
   double time_budget;       /* stop proposing after this many seconds (0: no limit) */
   const char *simulate;     /* replay a recorded space (a --save file) instead of measuring */
   const char *strategies;   /* --simulate: "all" or names, comma-separated */
   int repeat;               /* --simulate: seeds per strategy */
   double timeout;           /* seconds one launch may take before the configuration is dropped */
   int jobs;                 /* parallel compiles (0: one per core) */
   bool mpi;                 /* one rank per GPU under mpirun or srun (cli/mpisweep.h) */
   const char *mpi_simulate; /* --mpi: ranks answer with the times recorded in this --save file */
   int save_presets;         /* save the best N as presets */
} SweepOptions;

typedef struct BenchOptions_ {
   const char *sizes;        /* "1024,2048,4096" */
   const char *reference;    /* another backend whose vendor BLAS is also timed (cuda: cuBLAS) */
   int rounds;               /* rounds of libraries and configurations in turn (median) */
   bool frontier;            /* the accuracy frontier instead (cli_frontier.c) */
   bool best;                /* --shapes: each shape's best stored configuration (gemmtop tune's) */
} BenchOptions;

typedef struct BanksOptions_ {
   const char *site;         /* the access site to draw (index or name) */
   int warp, iteration;      /* warp (flat over traced groups) and execution of the grid */
   bool has_warp, has_iteration;
   int groups;               /* work-groups to trace (0: 1) */
   const char *model;        /* a bank model by name (nvidia, amd, default); NULL: the device's */
   int count, bank_width, simd_width; /* model overrides: banks, width, SIMD (0: the device's model) */
   bool as_compiled;         /* also count the accesses as the compiler merges them */
   bool coalescing;          /* also trace the global loads of A and B (core/analyse/coalesce.h) */
} BanksOptions;

typedef struct ResultsOptions_ {
   const char *filter_device, *filter_size, *origin, *since, *until; /* filters */
   const char *against, *against_since, *against_until;             /* the other side of a comparison */
   const char *format;       /* export: csv, jsonl, t4; import: t4, clblast */
   const char *out;          /* export: the file (NULL: standard output) */
   bool ok_only, force;
   int limit;                /* list: the newest N rows (0: all) */
   bool has_limit;
} ResultsOptions;

/* The class server (serve/serve.h) and its clients. */
typedef struct ClassOptions_ {
   const char *server;       /* run, submit, class: a gemmtop serve socket (NULL: $GEMMTOP_SERVER, else none) */
   const char *socket;       /* serve: the socket it listens on */
   const char *state;        /* serve: the folder of its records (NULL: the default) */
   const char *roster;       /* serve: who may use it (NULL: anyone who can open the socket) */
   const char *board_dir;    /* serve: the board pages go here */
   const char *board_names;  /* serve: "shown" or "hidden" (the default) */
   const char *socket_access; /* serve: owner, group (the default) or everyone */
   const char *assignment;   /* submit */
   int max_size, in_flight, child_mb, quota_mb, min_free_mb;
   double request_s;
} ClassOptions;

typedef struct ListOptions_ {
   bool measure;             /* list devices: measure peaks */
} ListOptions;

typedef struct LessonOptions_ {
   bool prepare;             /* compile every step ahead instead of teaching */
   const char *merge[OPTIONS_MAX_SETS]; /* --merge: the class's ladder exports */
   int nmerge;
} LessonOptions;

typedef struct Options_ {
   SelectionOptions sel;     /* which kernel and configuration, on which device */
   ShapeOptions shape;       /* the problem */
   TimingOptions timing;     /* how it is run and timed */
   InputOptions io;          /* inputs and outputs as .npy files */
   OutputOptions output;     /* how results are printed and saved */
   StorageOptions storage;   /* the results store */
   InspectOptions inspect;
   SweepOptions sweep;
   BenchOptions bench;
   BanksOptions banks;
   ResultsOptions results;
   ClassOptions cls;
   ListOptions list;
   LessonOptions lesson;
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
   COMMAND_EXPORT,
   COMMAND_EXPLAIN,
   COMMAND_SERVE,
   COMMAND_SUBMIT,
   COMMAND_CLASS,
   COMMAND_TUNE,
   COMMAND_COUNT
} CommandId;

/* What an option is about: the groups of Options, and the headings of --help. A command
 * declares the groups it takes (CommandEntry.groups); each option row belongs to one
 * group and names the commands of that group that take it. */
typedef enum {
   GROUP_SELECTION,          /* which kernel and configuration, on which device */
   GROUP_SHAPE,              /* the problem */
   GROUP_TIMING,             /* how it is run, timed and checked */
   GROUP_IO,                 /* .npy inputs and result */
   GROUP_OUTPUT,             /* how results are printed and saved */
   GROUP_STORAGE,            /* the results store */
   GROUP_INSPECT,
   GROUP_SWEEP,
   GROUP_BENCH,
   GROUP_BANKS,
   GROUP_RESULTS,
   GROUP_LIST,
   GROUP_LESSON,
   GROUP_CLASS,              /* the class server and its clients */
   GROUP_GENERAL,            /* --help, --version */
   GROUP_COUNT
} OptionGroup;

#define GROUP_BIT(g) (1u << (g))
/* A command's groups as its entry writes them: IN_GROUP(TIMING) | IN_GROUP(STORAGE). */
#define IN_GROUP(g) GROUP_BIT(GROUP_##g)
/* The groups of a command that makes a configuration on a device. */
#define GROUPS_CONFIGURED (IN_GROUP(SELECTION) | IN_GROUP(SHAPE) | IN_GROUP(OUTPUT) | IN_GROUP(GENERAL))

/* The heading --help puts over a group's options. */
const char *Options_groupTitle(OptionGroup g);

/* What a command receives: the groups of options it declared (CommandEntry.groups), each
 * a pointer into the parsed Options; a group it did not declare is NULL, so a command
 * reads only what it takes. */
typedef struct CommandArgs_ {
   const SelectionOptions *sel;
   const ShapeOptions *shape;
   const TimingOptions *timing;
   const InputOptions *io;
   const OutputOptions *output;
   const StorageOptions *storage;
   const InspectOptions *inspect;
   const SweepOptions *sweep;
   const BenchOptions *bench;
   const BanksOptions *banks;
   const ResultsOptions *results;
   const ListOptions *list;
   const LessonOptions *lesson;
   const ClassOptions *cls;
   const char *const *positional; /* the words that are not options */
   int npositional;
} CommandArgs;

/* The value a command's exec returns when the explorer is to start on what the options
 * say (main.c starts it: the command line does not see the terminal UI). */
#define CLI_START_EXPLORER (-1)

/* A command (tmux's cmd_entry): each src/cli/cli_X.c exports its entry, and the list in
 * options.c (indexed by CommandId) is what parsing, --help and the man-page test read. */
typedef struct CommandEntry_ {
   const char *name;         /* "" for the explorer */
   unsigned groups;          /* GROUP_BIT of each group of options it takes */
   const char *words;        /* the words it takes besides options, as usage shows them */
   const char *summary;
   int max_positional;       /* words that are not options */
   int (*exec)(const CommandArgs *a); /* the exit status, or CLI_START_EXPLORER */
} CommandEntry;

/* The entries, one per CommandId; each is defined in its command's file. */
extern const CommandEntry Cli_explorerCommand, Cli_listCommand, Cli_runCommand, Cli_inspectCommand, Cli_sweepCommand,
    Cli_benchCommand, Cli_banksCommand, Cli_cacheCommand, Cli_resultsCommand, Cli_lessonCommand, Cli_exportCommand,
    Cli_explainCommand, Cli_serveCommand, Cli_submitCommand, Cli_classCommand, Cli_tuneCommand;

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
   OptionGroup group;        /* what it is about (its field's group in Options) */
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
   unsigned commands;        /* 1u << CommandId for each command that takes it: commands that
                              * declare its group (test_options checks) */
   const char *help;         /* one line; the range and the default are added to it */
   const char *dflt;         /* the default as help shows it, or NULL; for OPT_INT a plain
                                number is also where parsing starts */
   const char *elsewhere;    /* said when a command that does not take it is given it */
};

/* The tables (for --help, the man-page test): count rows each. */
const OptionSpec *Options_table(size_t *count);
const CommandEntry *const *Options_commands(void);
/* The command named name (argv[1]), or -1. */
int Options_findCommand(const char *name);
/* The groups of o that command declared, the others NULL (CommandArgs). */
CommandArgs Options_args(const Options *o, CommandId command);
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
