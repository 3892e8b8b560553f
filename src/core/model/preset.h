/* Named parameter sets: presets/NN-name.preset (shipped) and the user's own in
 * $XDG_CONFIG_HOME/gemmtop/presets/. Plain "key = value" lines:
 *   # one-line explanation (the first comment line)
 *   kernel = mygemm02_tiled
 *   size = 1024            (or m, n, k)
 *   precision = float      layout = NN     alpha = 1   beta = 0
 *   TS = 32                (any other key is a kernel parameter)                   */
#ifndef GEMMTOP_PRESET_H
#define GEMMTOP_PRESET_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model/catalog.h"
#include "core/model/problem.h"

#define PRESET_MAX_PARAMS 16
#define PRESET_MAX_LINE 400     /* characters; a longer line is refused */

typedef struct Preset_ {
   char name[64];          /* file name without .preset */
   char path[512];
   char description[4 * (PRESET_MAX_LINE + 1) + sizeof " ..."]; /* the opening comment lines, joined */
   char kernel[64];
   struct {
      char name[32];
      long long value;
      int line;
   } params[PRESET_MAX_PARAMS];
   int nparams;
   /* Problem fields that the preset sets. */
   bool has_m, has_n, has_k, has_precision, has_layout, has_alpha, has_beta, has_scaling;
   int m, n, k;
   Precision precision;
   bool trans_a, trans_b;
   double alpha, beta;
   Scaling scaling;        /* the FP8 types' (`scaling = tensor|block`) */
   bool user;              /* from the user's folder */
} Preset;

/* Parses one file; on failure err names the file and line. Refused, never cut nor
 * skipped: a NUL or a control character (the listing would send ESC or BEL to the
 * terminal), a key given twice, a value longer than its field. */
bool Preset_load(const char *path, Preset *out, char *err, size_t errlen);
/* Applies to a kernel's values and a problem; err names the preset's file and line of a
 * parameter the kernel lacks or a value it does not allow. */
bool Preset_apply(const Preset *p, const KernelInfo *k, long long *values, Problem *prob, char *err, size_t errlen);
/* The preset's kernel in cat (*k), its values (the kernel's defaults, then the preset's) and
 * its problem (prob as given, then the preset's fields): what every loader of a preset does.
 * False with err when the kernel is not in the catalog or a value is not the kernel's. */
bool Preset_resolve(const Preset *p, const Catalog *cat, const KernelInfo **k, long long *values, Problem *prob,
                    char *err, size_t errlen);
/* The problem fields p does not state, as a list ("size, layout, beta"); "" when it states
 * them all. A preset is whole: the explorer puts these back to the defaults and says so. */
void Preset_unstated(const Preset *p, char *out, size_t outlen);
/* Writes atomically. */
bool Preset_save(const char *path, const char *description, const KernelInfo *k, const long long *values,
                 const Problem *prob, char *err, size_t errlen);

typedef struct PresetList_ {
   Preset *items;
   int count;
   char warnings[2048];    /* corrupt files, one per line */
} PresetList;

/* Shipped presets (dir) then the user's; sorted by name within each. */
bool PresetList_load(PresetList *l, const char *dir, char *err, size_t errlen);
void PresetList_free(PresetList *l);
const Preset *PresetList_find(const PresetList *l, const char *name);
/* Why a preset of that name is not in l, when its file is there but refused: the file's
 * warning ("PATH:LINE: what is wrong") into out, and true; false when no file has it. */
bool PresetList_refused(const PresetList *l, const char *name, char *out, size_t outlen);
/* "no preset named 'NAME'; see 'gemmtop list presets'", or why the file of that name was refused. */
void PresetList_missing(const PresetList *l, const char *name, char *out, size_t outlen);
/* $GEMMTOP_PRESETS, or next to the (first) kernels folder of kernels_dir. */
bool Preset_defaultDir(const char *kernels_dir, char *out, size_t outlen);
/* The user's folder ($XDG_CONFIG_HOME/gemmtop/presets), created if needed. */
bool Preset_userDir(char *out, size_t outlen, bool create);

#endif
