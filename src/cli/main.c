/* gemmtop: an interactive explorer for GPU GEMM kernels. Commands are a table. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_banks.h"
#include "cli/options.h"
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

/* As gnulib's close_stdout: output that could not be written (a full disk, a closed
 * file) is an error even when it sat in the buffer until the end, and the exit status
 * says so. A standard output closed from the start, with nothing written, is no error. */
static void closeStdout(void) {
   /* An error flagged earlier (a library's fflush(NULL) met it) has lost its errno. */
   bool failed = ferror(stdout) != 0;
   int e = 0;
   if (fflush(stdout) != 0) {
      failed = true;
      e = errno;
   }
   if (fclose(stdout) != 0 && errno != EBADF && !failed) {
      failed = true;
      e = errno;
   }
   if (failed) {
      fprintf(stderr, "gemmtop: write error on standard output%s%s\n", e ? ": " : "", e ? strerror(e) : "");
      _exit(1);
   }
}

int main(int argc, char **argv) {
   atexit(closeStdout);
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
   if (cmd)
      return cmd->run(&o);
   return Ui_main(&o);
}
