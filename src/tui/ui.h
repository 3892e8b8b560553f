/* The interactive explorer: `gemmtop` with no command (docs/explorer.md). */
#ifndef GEMMTOP_UI_H
#define GEMMTOP_UI_H

#include "cli/options.h"

/* Runs the explorer until the user quits; returns the exit code (0 on q, F10, Ctrl-C). */
int Ui_main(const Options *o);

#endif
