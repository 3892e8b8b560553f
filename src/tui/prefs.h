/* The explorer's preferences: $XDG_CONFIG_HOME/gemmtop/ui.conf, plain "key = value"
 * lines, read at start and written atomically on exit. A bad line is ignored (named in
 * warnings): preferences never stop the program. */
#ifndef GEMMTOP_UI_PREFS_H
#define GEMMTOP_UI_PREFS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model/catalog.h"

typedef struct UiPrefs_ {
   bool has_panes;
   unsigned panes;          /* PANE_BIT mask */
   int focus;               /* PaneId, -1 unset */
   char ahead[8];           /* compile ahead: "auto", "on", "off" ("" unset) */
   char kernel[64];         /* the last kernel ("" unset) */
   struct {
      char name[32];
      long long value;
   } params[KERNEL_MAX_PARAMS];
   int nparams;
   char warnings[512];
} UiPrefs;

/* Compiling ahead (core/run/ahead.h). auto: on a GPU (or another accelerator) always, on a
 * CPU only while measuring is paused, as compiles there take the cores that the timed
 * runs use. */
typedef enum { AHEAD_AUTO = 0, AHEAD_ON, AHEAD_OFF } AheadMode;
const char *AheadMode_name(AheadMode m);
bool AheadMode_parse(const char *s, AheadMode *out);

void Prefs_init(UiPrefs *p);
/* Parses text (name is used in warnings). */
void Prefs_parse(UiPrefs *p, const char *text, const char *name);
/* The text that Prefs_parse reads back. */
void Prefs_format(const UiPrefs *p, char *out, size_t outlen);
/* $XDG_CONFIG_HOME/gemmtop/ui.conf; false when there is no config folder at all. */
bool Prefs_path(char *out, size_t outlen);
/* Missing file: defaults, true. One that cannot be read (too big, not a file): defaults,
 * false, and a warning that says why. */
bool Prefs_load(UiPrefs *p, const char *path);
/* Creates the folder; writes atomically. */
bool Prefs_save(const UiPrefs *p, const char *path, char *err, size_t errlen);

#endif
