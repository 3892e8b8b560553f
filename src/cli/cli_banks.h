/* gemmtop banks: the bank-conflict report of one configuration (src/banks.h). */
#ifndef GEMMTOP_CLI_BANKS_H
#define GEMMTOP_CLI_BANKS_H

#include "cli/options.h"

int Cli_banks(const Options *o);

#endif
