/* gemmtop: an interactive explorer for GPU GEMM kernels. Commands are a table; their
 * names, usage and options are in options.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "base/children.h"
#include "cli/cli.h"
#include "cli/cli_banks.h"
#include "core/measurer.h"
#include "cli/options.h"
#include "core/inspect.h"
#include "core/session.h"
#include "tui/ui.h"


/* The explorer's selection: with a class server, the device here (for the bank traces
 * and the inspect pane) is the CPU unless one is named, so that the server's GPUs are
 * used only through the server. */
static Selection explorerSelection(const Options *o) {
   Selection sel = Cli_selection(o);
   if (Cli_server(o) && !sel.device && !sel.backend) {
      sel.backend = Backend_at(0)->name; /* the registry's first: OpenCL, where PoCL is */
      sel.device = "cpu";
   }
   return sel;
}

/* No command: the explorer, started where the options say (the options table refuses
 * any other word). */
static int explore(const Options *o) {
   UiStart start = {.sel = explorerSelection(o), .server = Cli_server(o), .assignment = o->cls.assignment, .seed = o->timing.seed, .has_seed = o->timing.has_seed, .ascii = o->output.ascii,
                    .no_color = o->output.no_color, .sweep_budget = o->sweep.budget, .sweep_exhaustive = o->sweep.exhaustive,
                    .sweep_strategy = o->sweep.strategy,
                    .sweep_timeout = o->sweep.timeout, .store = o->storage.path, .no_store = o->storage.off,
                    .banks = o->banks.count, .bank_width = o->banks.bank_width, .simd_width = o->banks.simd_width};
   return Ui_main(&start);
}

/* gemmtop lesson NAME: the explorer on that lesson's first step, once the name is known. */
static int lesson(const Options *o) {
   int rc = Cli_lesson(o);
   if (rc != CLI_LESSON_START)
      return rc;
   UiStart start = {.sel = explorerSelection(o), .server = Cli_server(o), .assignment = o->cls.assignment,
                    .seed = o->timing.seed,
                    .has_seed = o->timing.has_seed, .ascii = o->output.ascii,
                    .no_color = o->output.no_color, .lesson = o->positional[0], .banks = o->banks.count,
                    .bank_width = o->banks.bank_width, .simd_width = o->banks.simd_width};
   return Ui_main(&start);
}

static int (*const run[COMMAND_COUNT])(const Options *o) = {
    [COMMAND_EXPLORER] = explore, [COMMAND_LIST] = Cli_list,   [COMMAND_RUN] = Cli_run,
    [COMMAND_INSPECT] = Cli_inspect, [COMMAND_SWEEP] = Cli_sweep, [COMMAND_BENCH] = Cli_bench,
    [COMMAND_BANKS] = Cli_banks,  [COMMAND_CACHE] = Cli_cache,
    [COMMAND_RESULTS] = Cli_results, [COMMAND_LESSON] = lesson,   [COMMAND_EXPORT] = Cli_exportKernel,
    [COMMAND_EXPLAIN] = Cli_explain, [COMMAND_SERVE] = Cli_serve, [COMMAND_SUBMIT] = Cli_submit,
    [COMMAND_CLASS] = Cli_class, [COMMAND_TUNE] = Cli_tune,
};

int main(int argc, char **argv) {
   /* Not commands for users: the process in which a sweep measures (core/measurer.h), and
    * the explorer's offline compile for a target whose compiler cannot share its process
    * (core/inspect.h). Each layer starts its child by name (base/children.h). */
   Children_register(MEASURE_CHILD, Measure_child);
   Children_register(INSPECT_CHILD, Inspect_childMain);
   int childRc;
   if (Children_dispatch(argc, argv, &childRc))
      return childRc;
   atexit(Cli_closeStdout);
   int command = COMMAND_EXPLORER;
   if (argc > 1 && argv[1][0] != '-') {
      command = Options_findCommand(argv[1]);
      if (command < 0) {
         fprintf(stderr, "gemmtop: unknown command '%s'\n", argv[1]);
         Options_usage(stderr);
         return 2;
      }
   }
   Options o;
   int first = command == COMMAND_EXPLORER ? 1 : 2;
   int rc = Options_parse(&o, argc, argv, first, command == COMMAND_EXPLORER ? "" : argv[1]);
   if (rc == 1)
      return 0;
   if (rc)
      return rc;
   char err[512];
   if (!Session_checkLimitsEnv(err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return 2;
   }
   return run[command](&o);
}
