/* Whether the terminal can show the explorer, asked before anything else starts. */
#ifndef GEMMTOP_TUI_TERMINAL_H
#define GEMMTOP_TUI_TERMINAL_H

#include <stdbool.h>
#include <stddef.h>

/* ncurses' initscr() ends the process (exit) on a terminal type it does not know, and
 * by then the device runtime's threads would be running, which is how an unknown or unset
 * TERM aborted with a double free. So the explorer asks here first, while it is one
 * thread: false, with why, when TERM is unset, unknown, or cannot move the cursor
 * (TERM=dumb). */
bool Terminal_usable(char *why, size_t whylen);

#endif
