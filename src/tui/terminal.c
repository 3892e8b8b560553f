#include "tui/terminal.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <term.h>
#include <unistd.h>

bool Terminal_usable(char *why, size_t whylen) {
   const char *term = getenv("TERM");
   if (!term || !*term) {
      snprintf(why, whylen, "TERM is not set");
      return false;
   }
   int err = 0;
   /* With err given, setupterm reports instead of printing and exiting. */
   if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
      snprintf(why, whylen, err == 0 ? "TERM=%s is not a terminal type this system knows"
                                     : "TERM=%s: the terminal database (terminfo) is missing",
               term);
      return false;
   }
   const char *cup = tigetstr("cup");
   bool moves = cup && cup != (const char *)-1;
   del_curterm(cur_term);
   cur_term = NULL;
   if (!moves) {
      snprintf(why, whylen, "TERM=%s cannot move the cursor, which a full-screen program needs", term);
      return false;
   }
   return true;
}
