#include "serve/roster.h"

#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* An account's uid: a number, or a login name known to the system. */
static bool accountUid(const char *account, uid_t *uid) {
   char *end;
   errno = 0;
   long long v = strtoll(account, &end, 10);
   if (*account && !*end && !errno && v >= 0 && v < 0x7fffffff) {
      *uid = (uid_t)v;
      return true;
   }
   struct passwd pw, *found = NULL;
   char buf[4096];
   if (getpwnam_r(account, &pw, buf, sizeof buf, &found) != 0 || !found)
      return false;
   *uid = found->pw_uid;
   return true;
}

/* The login of uid, or its number. */
static void accountOf(uid_t uid, char *out, size_t outlen) {
   struct passwd pw, *found = NULL;
   char buf[4096];
   if (getpwuid_r(uid, &pw, buf, sizeof buf, &found) == 0 && found)
      Util_copy(out, outlen, found->pw_name);
   else
      snprintf(out, outlen, "%lu", (unsigned long)uid);
}

/* The next word of *p (ended in place), *p moved past it and the blanks after. */
static char *nextWord(char **p) {
   char *w = *p;
   while (**p && **p != ' ' && **p != '\t')
      (*p)++;
   if (**p)
      *(*p)++ = '\0';
   while (**p == ' ' || **p == '\t')
      (*p)++;
   return w;
}

/* One roster line (not blank) into e: [lecturer] ACCOUNT NAME...; false with why. */
static bool parseLine(char *line, RosterEntry *e, char *why, size_t whylen) {
   memset(e, 0, sizeof *e);
   char *p = line;
   char *account = nextWord(&p);
   if (!strcmp(account, "lecturer")) {
      e->lecturer = true;
      account = nextWord(&p);
   }
   if (!*account) {
      snprintf(why, whylen, "an account is missing after 'lecturer'");
      return false;
   }
   if (strlen(account) >= sizeof e->account) {
      snprintf(why, whylen, "account '%.40s...' is longer than %zu characters", account, sizeof e->account - 1);
      return false;
   }
   if (!accountUid(account, &e->uid)) {
      snprintf(why, whylen, "'%s' is neither a uid nor an account on this system", account);
      return false;
   }
   Util_copy(e->account, sizeof e->account, account);
   char *name = p;
   size_t len = strlen(name);
   while (len > 0 && isspace((unsigned char)name[len - 1]))
      name[--len] = '\0';
   if (!len) {
      snprintf(why, whylen, "account %s has no name (a line is: account, then the name shown)", e->account);
      return false;
   }
   if (len >= sizeof e->name) {
      snprintf(why, whylen, "the name of %s is %zu characters long; at most %zu", e->account, len, sizeof e->name - 1);
      return false;
   }
   if (Util_findControl(name, len, NULL) < len || strpbrk(name, "<>&\"")) {
      snprintf(why, whylen, "the name of %s has a character a board cannot show as it is (control, <, >, &, \")",
               e->account);
      return false;
   }
   Util_copy(e->name, sizeof e->name, name);
   return true;
}

bool Roster_load(Roster *r, const char *path, uid_t owner, char *err, size_t errlen) {
   memset(r, 0, sizeof *r);
   r->owner = owner;
   if (!path) {
      r->open = true;
      return true;
   }
   size_t len = 0;
   char why[512];
   char *text = Util_readUserFile(path, UTIL_MAX_TEXT_BYTES, &len, why, sizeof why);
   if (!text) {
      snprintf(err, errlen, "roster %s: %s", path, why);
      return false;
   }
   /* Walked as a C string, a NUL would end the roster there (the students after it refused
    * as strangers); a control character would reach the terminals and pages that show a name. */
   int bad;
   size_t at = Util_findControl(text, len, &bad);
   if (at < len) {
      char name[8];
      Util_controlName((unsigned char)text[at], name);
      snprintf(err, errlen, "roster %s, line %d: %s: a roster is plain text%s", path, bad,
               text[at] ? name : "a NUL byte", text[at] ? " (a control character in a name would reach every "
                                                          "terminal that shows the board)" : " (the roster would have ended there)");
      free(text);
      return false;
   }
   int lineno = 0;
   bool ok = true;
   for (char *line = text; ok && line;) {
      char *nl = strchr(line, '\n');
      if (nl)
         *nl = '\0';
      lineno++;
      char *hash = strchr(line, '#');
      if (hash)
         *hash = '\0';
      char *p = line;
      while (isspace((unsigned char)*p))
         p++;
      line = nl ? nl + 1 : NULL;
      if (!*p)
         continue;
      RosterEntry e;
      if (!parseLine(p, &e, why, sizeof why)) {
         snprintf(err, errlen, "roster %s, line %d: %s", path, lineno, why);
         ok = false;
         break;
      }
      for (int i = 0; i < r->n && ok; i++)
         if (r->entries[i].uid == e.uid) {
            snprintf(err, errlen, "roster %s, line %d: account %s (uid %lu) is on the roster twice", path, lineno,
                     e.account, (unsigned long)e.uid);
            ok = false;
         }
      RosterEntry *grown = ok ? realloc(r->entries, (size_t)(r->n + 1) * sizeof *grown) : NULL;
      if (ok && !grown) {
         snprintf(err, errlen, "roster %s: out of memory", path);
         ok = false;
      }
      if (ok) {
         r->entries = grown;
         r->entries[r->n++] = e;
      }
   }
   free(text);
   if (!ok)
      Roster_free(r);
   return ok;
}

void Roster_free(Roster *r) {
   free(r->entries);
   r->entries = NULL;
   r->n = 0;
}

bool Roster_find(const Roster *r, uid_t uid, RosterEntry *out) {
   for (int i = 0; i < r->n; i++)
      if (r->entries[i].uid == uid) {
         *out = r->entries[i];
         out->lecturer = out->lecturer || uid == r->owner;
         return true;
      }
   if (!r->open && uid != r->owner)
      return false;
   memset(out, 0, sizeof *out);
   out->uid = uid;
   accountOf(uid, out->account, sizeof out->account);
   Util_copy(out->name, sizeof out->name, out->account);
   out->lecturer = uid == r->owner;
   return true;
}
