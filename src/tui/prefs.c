#include "tui/prefs.h"

#include <errno.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/layout.h"
#include "tui/panes.h"
#include "base/util.h"

static const char *const aheadModes[] = {"auto", "on", "off"};

const char *AheadMode_name(AheadMode m) { return m >= AHEAD_AUTO && m <= AHEAD_OFF ? aheadModes[m] : "?"; }

bool AheadMode_parse(const char *s, AheadMode *out) {
   for (int i = 0; i < 3; i++)
      if (!strcmp(s, aheadModes[i])) {
         *out = (AheadMode)i;
         return true;
      }
   return false;
}

void Prefs_init(UiPrefs *p) {
   memset(p, 0, sizeof *p);
   p->panes = PANES_DEFAULT;
   p->focus = -1;
}

static void warn(UiPrefs *p, const char *name, int line, const char *what) {
   char msg[1200];
   snprintf(msg, sizeof msg, "%s:%d: %s", name, line, what);
   Util_appendLine(p->warnings, sizeof p->warnings, msg); /* whole lines, never a cut one */
}

static int paneByName(const char *s) { return Pane_byPrefName(s); }

static const char *paneKey(int i) { return Pane_info(i) ? Pane_info(i)->pref : ""; }

void Prefs_parse(UiPrefs *p, const char *text, const char *name) {
   char *copy = strdup(text ? text : "");
   if (!copy)
      return;
   int line = 0;
   char *save = NULL;
   for (char *l = copy; l; l = save) {
      save = strchr(l, '\n');
      if (save)
         *save++ = '\0';
      line++;
      char *s = Util_trim(l);
      if (!*s || *s == '#')
         continue;
      char *eq = strchr(s, '=');
      if (!eq) {
         warn(p, name, line, "expected 'key = value'");
         continue;
      }
      *eq = '\0';
      char *key = Util_trim(s), *value = Util_trim(eq + 1);
      if (!strcmp(key, "panes")) {
         unsigned mask = 0;
         bool ok = true;
         char *st = NULL;
         for (char *tok = strtok_r(value, " ,", &st); tok; tok = strtok_r(NULL, " ,", &st)) {
            int pi = paneByName(tok);
            if (pi < 0)
               ok = false;
            else
               mask |= PANE_BIT(pi);
         }
         if (ok) {
            p->panes = mask;
            p->has_panes = true;
         } else {
            warn(p, name, line, "panes: use kernel, results, history, log, banks, inspect, sweep, lesson");
         }
      } else if (!strcmp(key, "focus")) {
         int pi = paneByName(value);
         if (pi < 0)
            warn(p, name, line, "focus: not a pane");
         else
            p->focus = pi;
      } else if (!strcmp(key, "ahead")) {
         AheadMode mode;
         if (AheadMode_parse(value, &mode))
            Util_copy(p->ahead, sizeof p->ahead, value);
         else
            warn(p, name, line, "ahead: use auto, on or off");
      } else if (!strcmp(key, "kernel")) {
         Util_copy(p->kernel, sizeof p->kernel, value);
         p->nparams = 0; /* parameters follow their kernel */
      } else if (!strncmp(key, "param.", 6) && key[6]) {
         char *end;
         errno = 0;
         long long v = strtoll(value, &end, 10);
         if (end == value || *end || errno || strlen(key + 6) >= sizeof p->params[0].name) {
            warn(p, name, line, "param: not an integer");
         } else if (p->nparams < KERNEL_MAX_PARAMS) {
            Util_copy(p->params[p->nparams].name, sizeof p->params[0].name, key + 6);
            p->params[p->nparams].value = v;
            p->nparams++;
         }
      } else {
         warn(p, name, line, "unknown key (ignored)");
      }
   }
   free(copy);
}

void Prefs_format(const UiPrefs *p, char *out, size_t outlen) {
   size_t n = (size_t)snprintf(out, outlen, "# gemmtop explorer preferences, written on exit\npanes =");
   for (int i = 0; i < PANE_COUNT && n < outlen; i++)
      if (p->panes & PANE_BIT(i))
         n += (size_t)snprintf(out + n, outlen - n, " %s", paneKey(i));
   if (n < outlen)
      n += (size_t)snprintf(out + n, outlen - n, "\n");
   if (p->focus >= 0 && p->focus < PANE_COUNT && n < outlen)
      n += (size_t)snprintf(out + n, outlen - n, "focus = %s\n", paneKey(p->focus));
   if (p->ahead[0] && n < outlen)
      n += (size_t)snprintf(out + n, outlen - n, "ahead = %s\n", p->ahead);
   if (p->kernel[0] && n < outlen) {
      n += (size_t)snprintf(out + n, outlen - n, "kernel = %s\n", p->kernel);
      for (int i = 0; i < p->nparams && n < outlen; i++)
         n += (size_t)snprintf(out + n, outlen - n, "param.%s = %lld\n", p->params[i].name, p->params[i].value);
   }
}

bool Prefs_path(char *out, size_t outlen) {
   char base[900];
   if (!Util_userDir("config", base, sizeof base))
      return false;
   snprintf(out, outlen, "%s/ui.conf", base);
   return true;
}

bool Prefs_load(UiPrefs *p, const char *path) {
   Prefs_init(p);
   if (access(path, F_OK) != 0)
      return true; /* none yet: the defaults */
   char why[160];
   char *text = Util_readUserFile(path, UTIL_MAX_TEXT_BYTES, NULL, why, sizeof why);
   if (!text) {
      char msg[1300];
      snprintf(msg, sizeof msg, "%s: not read (%s); the defaults are used", path, why);
      Util_appendLine(p->warnings, sizeof p->warnings, msg);
      return false;
   }
   Prefs_parse(p, text, path);
   free(text);
   return true;
}

bool Prefs_save(const UiPrefs *p, const char *path, char *err, size_t errlen) {
   char dir[1024];
   Util_copy(dir, sizeof dir, path);
   char *slash = strrchr(dir, '/');
   if (slash) {
      *slash = '\0';
      if (!Util_mkdirs(dir)) {
         snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
         return false;
      }
   }
   char text[4096];
   Prefs_format(p, text, sizeof text);
   if (!Util_writeFileAtomic(path, text, strlen(text))) {
      snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
      return false;
   }
   return true;
}
