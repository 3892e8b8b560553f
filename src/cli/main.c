/* gemmtop: an interactive explorer for GPU GEMM kernels. Commands are a table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_banks.h"
#include "cli/measure.h"
#include "cli/options.h"
#include "core/session.h"
#include "tui/ui.h"

typedef struct Command_ {
   const char *name;
   int (*run)(const Options *o);
} Command;

static const Command commands[] = {
    {"list", Cli_list},
    {"run", Cli_run},
    {"inspect", Cli_inspect},
    {"sweep", Cli_sweep},
    {"bench", Cli_bench},
    {"banks", Cli_banks},
    {"cache", Cli_cache},
};

/* No command: the explorer, started where the options say. */
static int explore(const Options *o) {
   if (o->npositional > 0) {
      fprintf(stderr, "gemmtop: unexpected argument '%s'; see 'gemmtop --help'\n", o->positional[0]);
      return 2;
   }
   UiStart start = {.sel = Cli_selection(o), .seed = o->seed, .has_seed = o->has_seed, .ascii = o->ascii,
                    .no_color = o->no_color, .sweep_budget = o->budget, .sweep_exhaustive = o->exhaustive,
                    .sweep_timeout = o->timeout};
   return Ui_main(&start);
}

int main(int argc, char **argv) {
   /* Not a command for users: the process in which a sweep measures (cli/measure.h). */
   if (argc == 2 && !strcmp(argv[1], "__measure-child"))
      return Measure_child();
   atexit(Cli_closeStdout);
   const Command *cmd = NULL;
   int first = 1;
   if (argc > 1 && argv[1][0] != '-') {
      for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
         if (!strcmp(argv[1], commands[i].name))
            cmd = &commands[i];
      if (!cmd) {
         fprintf(stderr, "gemmtop: unknown command '%s'\n", argv[1]);
         Options_usage(stderr);
         return 2;
      }
      first = 2;
   }
   Options o;
   int rc = Options_parse(&o, argc, argv, first, cmd ? cmd->name : "");
   if (rc == 1)
      return 0;
   if (rc)
      return rc;
   char err[512];
   if (!Session_checkLimitsEnv(err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return 2;
   }
   if (cmd)
      return cmd->run(&o);
   return explore(&o);
}
