/* gemmtop: an interactive explorer for GPU GEMM kernels. Each command is an entry in its
 * own file of src/cli (options.h: CommandEntry); the options and the list of commands
 * are in options.c. This file registers the child processes, runs the command, and
 * starts the explorer when the command asks for it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "base/children.h"
#include "cli/cli.h"
#include "core/sweep/measurer.h"
#include "cli/options.h"
#include "core/analyse/inspect.h"
#include "core/run/session.h"
#include "tui/ui.h"


/* The explorer's selection: with a class server, the device here (for the bank traces
 * and the inspect pane) is the CPU unless one is named, so that the server's GPUs are
 * used only through the server. */
static Selection explorerSelection(const CommandArgs *a) {
   Selection sel = Cli_selection(a);
   if (Cli_server(a) && !sel.device && !sel.backend) {
      sel.backend = Backend_at(0)->name; /* the registry's first: OpenCL, where PoCL is */
      sel.device = "cpu";
   }
   return sel;
}

/* The explorer, started where the options say: with no command, or on a lesson's first
 * step (gemmtop lesson NAME, once the name is known). A group the command does not
 * declare is NULL: the lesson takes no sweep nor store options. */
static int explore(const CommandArgs *a, const char *lesson) {
   UiStart start = {.sel = explorerSelection(a), .server = Cli_server(a), .assignment = a->cls->assignment,
                    .seed = a->timing->seed, .has_seed = a->timing->has_seed, .ascii = a->output->ascii,
                    .no_color = a->output->no_color, .lesson = lesson, .banks = a->banks->count,
                    .bank_width = a->banks->bank_width, .simd_width = a->banks->simd_width};
   if (a->sweep) {
      start.sweep_budget = a->sweep->budget;
      start.sweep_exhaustive = a->sweep->exhaustive;
      start.sweep_strategy = a->sweep->strategy;
      start.sweep_timeout = a->sweep->timeout;
   }
   if (a->storage) {
      start.store = a->storage->path;
      start.no_store = a->storage->off;
   }
   return Ui_main(&start);
}

int main(int argc, char **argv) {
   /* Not commands for users: the process in which a sweep measures (core/sweep/measurer.h), and
    * the explorer's offline compile for a target whose compiler cannot share its process
    * (core/analyse/inspect.h). Each layer starts its child by name (base/children.h). */
   Children_register(MEASURE_CHILD, Measurer_child);
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
   /* The command receives the groups of options it declared (options.h: CommandArgs). */
   CommandArgs args = Options_args(&o, (CommandId)command);
   rc = Options_commands()[command]->exec(&args);
   return rc == CLI_START_EXPLORER ? explore(&args, command == COMMAND_LESSON ? args.positional[0] : NULL) : rc;
}
