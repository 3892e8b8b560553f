/* The interactive explorer: `gemmtop` with no command (docs/explorer.md). */
#ifndef GEMMTOP_UI_H
#define GEMMTOP_UI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/run/select.h"

/* Where the explorer starts and how it draws. */
typedef struct UiStart_ {
   Selection sel;            /* backend, device, kernel, preset, --set values, problem */
   uint64_t seed;            /* of the inputs, when has_seed */
   bool has_seed;
   bool ascii;               /* ASCII only, whatever the locale */
   bool no_color;
   int sweep_budget;         /* the sweep pane: configurations to try (0: the default) */
   bool sweep_exhaustive;    /* every valid configuration */
   const char *sweep_strategy; /* --strategy's name (NULL: random, or exhaustive with --exhaustive) */
   double sweep_timeout;     /* seconds one launch may take (0: the default) */
   int banks, bank_width, simd_width; /* the bank pane's model overrides (0: the device's) */
   const char *store;        /* the results store (--store; NULL: the default) */
   bool no_store;            /* --no-store: record nothing, show nothing stored */
   const char *server;       /* a class server's socket: measured there (NULL: here) */
   const char *assignment;   /* J submits to it (on the server) */
   const char *lesson;       /* gemmtop lesson NAME: start on its first step (NULL: none);
                                sel's M, N, K, when given, override every step's */
} UiStart;

/* Runs the explorer until the user quits; returns the exit code (0 on q, F10, Ctrl-C). */
int Ui_main(const UiStart *start);

#endif
