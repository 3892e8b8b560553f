/* Fuzzes the class server's roster (src/serve/roster.c): the input is the roster file. One
 * that loads has, for each account, a name of printable text that a board shows as it is
 * (no control character, no <, >, &, "), and no account twice; the file held no NUL (the
 * rest would have been dropped) and no control character; a refusal names the file. */
#include "fuzz.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "serve/roster.h"

int Fuzz_roster(const uint8_t *data, size_t size) {
   const char *path = Fuzz_tempFile(data, size);
   Roster r;
   char err[1024] = "";
   if (!Roster_load(&r, path, 4242, err, sizeof err)) {
      if (strncmp(err, "roster ", 7) != 0 || !strstr(err, path))
         abort();
      return 0;
   }
   if (Util_findControl((const char *)data, size, NULL) < size)
      abort(); /* a roster that loads is text: after a NUL the rest would have been dropped */
   for (int i = 0; i < r.n; i++) {
      const RosterEntry *e = &r.entries[i];
      size_t n = strlen(e->name);
      if (!n || Util_findControl(e->name, n, NULL) < n || strpbrk(e->name, "<>&\""))
         abort();
      for (int j = 0; j < i; j++)
         if (r.entries[j].uid == e->uid)
            abort();
      RosterEntry found;
      if (!Roster_find(&r, e->uid, &found) || strcmp(found.name, e->name) != 0)
         abort();
   }
   Roster_free(&r);
   return 0;
}

FUZZ_ENTRY(Fuzz_roster)
