/* The dialogs: help (a page of its own), problem setup, presets, save as preset. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "tui/app.h"
#include "tui/draw_lesson.h"
#include "tui/text.h"
#include "base/util.h"

static const char *const layoutNames[] = {"NN", "NT", "TN", "TT"};

/* ---- setup ---- */

static void listSetupDevices(Ui *ui) {
   SetupState *s = &ui->setup;
   free(s->devices);
   s->devices = NULL;
   s->ndevices = 0;
   s->devices_error[0] = '\0';
   const Backend *be = Backend_at(s->backend);
   if (be == Backend_byName(ui->backend) && ui->ndevices > 0) {
      s->devices = malloc(sizeof *s->devices * (size_t)ui->ndevices);
      if (s->devices) {
         memcpy(s->devices, ui->devices, sizeof *s->devices * (size_t)ui->ndevices);
         s->ndevices = ui->ndevices;
      }
      return;
   }
   char err[1024] = "";
   int n = Backend_listDevices(be, &s->devices, err, sizeof err);
   if (n <= 0) {
      free(s->devices);
      s->devices = NULL;
      Util_copy(s->devices_error, sizeof s->devices_error, err);
      n = 0;
   }
   s->ndevices = n;
   s->device = 0;
}

static void openSetup(Ui *ui) {
   SetupState *s = &ui->setup;
   free(s->devices);
   ShapeSuites_free(&s->suites);
   memset(s, 0, sizeof *s);
   char dir[1024];
   ShapeSuites_load(&s->suites, Shapes_defaultDir(ui->cat.dir, dir, sizeof dir) ? dir : NULL);
   s->shape = -1;
   const Problem *p = &ui->problem;
   snprintf(s->text[SF_SIZE], sizeof s->text[0], "%d", p->m == p->n && p->n == p->k ? p->m : 0);
   if (!(p->m == p->n && p->n == p->k))
      s->text[SF_SIZE][0] = '\0';
   snprintf(s->text[SF_M], sizeof s->text[0], "%d", p->m);
   snprintf(s->text[SF_N], sizeof s->text[0], "%d", p->n);
   snprintf(s->text[SF_K], sizeof s->text[0], "%d", p->k);
   snprintf(s->text[SF_ALPHA], sizeof s->text[0], "%g", p->alpha);
   snprintf(s->text[SF_BETA], sizeof s->text[0], "%g", p->beta);
   s->precision = p->precision;
   s->scaling = p->scaling;
   s->layout = (p->trans_a ? 2 : 0) + (p->trans_b ? 1 : 0);
   s->cold_l2 = ui->cold_l2;
   for (int i = 0; i < Backend_count(); i++)
      if (Backend_byName(ui->backend) == Backend_at(i))
         s->backend = i;
   listSetupDevices(ui);
   s->device = ui->device < s->ndevices ? ui->device : 0;
   s->field = SF_SIZE;
   s->fresh = true;
}

/* Shape i counted across the suites in order (its suite in *suite), NULL past the last. */
static const Shape *shapeAt(const SetupState *s, int i, const ShapeSuite **suite) {
   for (int j = 0; i >= 0 && j < s->suites.count; j++) {
      if (i < s->suites.items[j].count) {
         *suite = &s->suites.items[j];
         return &s->suites.items[j].shapes[i];
      }
      i -= s->suites.items[j].count;
   }
   return NULL;
}

static int shapeCount(const SetupState *s) {
   int n = 0;
   for (int j = 0; j < s->suites.count; j++)
      n += s->suites.items[j].count;
   return n;
}

static bool isNumeric(int f) { return f == SF_SIZE || f == SF_M || f == SF_N || f == SF_K || f == SF_ALPHA || f == SF_BETA; }
static bool isSize(int f) { return f == SF_SIZE || f == SF_M || f == SF_N || f == SF_K; }

static bool parseSize(const char *t, int *out) {
   char *end;
   errno = 0;
   long v = strtol(t, &end, 10);
   if (end == t || *end || errno || v < 1 || v > 1 << 20)
      return false;
   *out = (int)v;
   return true;
}

static void mirrorSize(SetupState *s) {
   if (s->text[SF_SIZE][0])
      for (int f = SF_M; f <= SF_K; f++)
         Util_copy(s->text[f], sizeof s->text[0], s->text[SF_SIZE]);
}

static void setupChange(Ui *ui, int dir) {
   SetupState *s = &ui->setup;
   int f = s->field;
   if (isSize(f)) {
      int v;
      if (!parseSize(s->text[f], &v))
         v = f == SF_SIZE ? (parseSize(s->text[SF_M], &v) ? v : 512) : 512;
      v = dir > 0 ? (v < 1 << 19 ? v * 2 : 1 << 20) : (v > 1 ? v / 2 : 1);
      snprintf(s->text[f], sizeof s->text[0], "%d", v);
      if (f == SF_SIZE)
         mirrorSize(s);
      else
         s->text[SF_SIZE][0] = '\0';
   } else if (f == SF_ALPHA || f == SF_BETA) {
      static const double steps[] = {-1, 0, 0.5, 1, 2};
      double v = strtod(s->text[f], NULL);
      int i = 0;
      while (i < 4 && steps[i] < v + (dir > 0 ? 1e-12 : -1e-12))
         i++;
      /* i: the first step at or above v; move one way from there. */
      int j = dir > 0 ? (steps[i] > v + 1e-12 ? i : i + 1) : i - 1;
      if (j < 0)
         j = 0;
      if (j > 4)
         j = 4;
      snprintf(s->text[f], sizeof s->text[0], "%g", steps[j]);
   } else if (f == SF_SHAPE) {
      /* none, then every shape of every suite: picking one sets M, N and K */
      const int n = shapeCount(s);
      s->shape = n ? (s->shape + 1 + (dir > 0 ? 1 : n)) % (n + 1) - 1 : -1;
      const ShapeSuite *suite;
      const Shape *sh = shapeAt(s, s->shape, &suite);
      if (sh) {
         snprintf(s->text[SF_M], sizeof s->text[0], "%d", sh->m);
         snprintf(s->text[SF_N], sizeof s->text[0], "%d", sh->n);
         snprintf(s->text[SF_K], sizeof s->text[0], "%d", sh->k);
         if (sh->m == sh->n && sh->n == sh->k)
            Util_copy(s->text[SF_SIZE], sizeof s->text[0], s->text[SF_M]);
         else
            s->text[SF_SIZE][0] = '\0';
      }
   } else if (f == SF_PRECISION) {
      /* each type, the FP8 ones once per scaling ("e4m3 tensor", "e4m3 block") */
      const bool scaled = Types_of(s->precision)->scaled;
      if (scaled && s->scaling == (dir > 0 ? SCALING_TENSOR : SCALING_BLOCK))
         s->scaling = dir > 0 ? SCALING_BLOCK : SCALING_TENSOR;
      else {
         s->precision = (Precision)((s->precision + (dir > 0 ? 1 : PRECISION_COUNT - 1)) % PRECISION_COUNT);
         s->scaling = dir > 0 ? SCALING_TENSOR : SCALING_BLOCK;
      }
   } else if (f == SF_LAYOUT) {
      s->layout = (s->layout + (dir > 0 ? 1 : 3)) % 4;
   } else if (f == SF_L2) {
      s->cold_l2 = !s->cold_l2;
   } else if (f == SF_BACKEND) {
      s->backend = (s->backend + (dir > 0 ? 1 : Backend_count() - 1)) % Backend_count();
      listSetupDevices(ui);
   } else if (f == SF_DEVICE && s->ndevices > 0) {
      s->device = (s->device + (dir > 0 ? 1 : s->ndevices - 1)) % s->ndevices;
   }
   s->fresh = true;
   s->error[0] = '\0';
}

static void setupApply(Ui *ui) {
   SetupState *s = &ui->setup;
   Problem p = ui->problem;
   const char *names[] = {"M", "N", "K"};
   int *dst[] = {&p.m, &p.n, &p.k};
   for (int f = SF_M; f <= SF_K; f++)
      if (!parseSize(s->text[f], dst[f - SF_M])) {
         snprintf(s->error, sizeof s->error, "%s = '%s' is not a size (1 to 1048576)", names[f - SF_M], s->text[f]);
         s->field = f;
         return;
      }
   for (int f = SF_ALPHA; f <= SF_BETA; f++) {
      char *end;
      double v = strtod(s->text[f], &end);
      if (end == s->text[f] || *end || !isfinite(v)) {
         snprintf(s->error, sizeof s->error, "%s = '%s' is not a number", f == SF_ALPHA ? "alpha" : "beta", s->text[f]);
         s->field = f;
         return;
      }
      if (f == SF_ALPHA)
         p.alpha = v;
      else
         p.beta = v;
   }
   p.precision = s->precision;
   p.scaling = Types_of(s->precision)->scaled ? s->scaling : p.scaling;
   p.trans_a = s->layout >= 2;
   p.trans_b = s->layout & 1;
   const char *backend = Backend_at(s->backend)->name;
   bool deviceChanged = strcmp(backend, ui->backend) || s->device != ui->device;
   if (deviceChanged && s->ndevices == 0) {
      snprintf(s->error, sizeof s->error, "no device to switch to: %s", s->devices_error);
      s->field = SF_BACKEND;
      return;
   }
   if (deviceChanged) {
      Ui_setDevice(ui, backend, s->devices, s->ndevices, s->device);
      Ui_log(ui, LOG_INFO, "switching to %s device %d: %s", backend, s->device, s->devices[s->device].name);
      s->devices = NULL;
      s->ndevices = 0;
   }
   ui->cold_l2 = s->cold_l2;
   Ui_setProblem(ui, &p);
   char lay[3];
   Problem_layoutName(&p, lay);
   char type[32];
   Ui_flash(ui, ST_NORMAL, "problem: M=%d N=%d K=%d %s %s alpha=%g beta=%g, %s L2", p.m, p.n, p.k,
            Problem_typeLabel(&p, type, sizeof type), lay, p.alpha, p.beta, s->cold_l2 ? "cold" : "warm");
   Dialog_close(ui);
}

/* The shape field: the shape picked while M, N and K are still its, else how to pick one. */
static void shapeValue(const SetupState *s, char *out, size_t len) {
   const ShapeSuite *suite;
   const Shape *sh = shapeAt(s, s->shape, &suite);
   int m = 0, n = 0, k = 0;
   if (sh && parseSize(s->text[SF_M], &m) && parseSize(s->text[SF_N], &n) && parseSize(s->text[SF_K], &k) &&
       m == sh->m && n == sh->n && k == sh->k)
      snprintf(out, len, "%s %s (%dx%dx%d, weight %g)", suite->name, sh->label, m, n, k, sh->weight);
   else if (s->suites.count)
      snprintf(out, len, "none: Left/Right picks one of %d shapes of %d suites", shapeCount(s), s->suites.count);
   else
      snprintf(out, len, "none: no shape suites (gemmtop list shapes)");
}

static void setupKey(Ui *ui, int ch) {
   SetupState *s = &ui->setup;
   int f = s->field;
   switch (ch) {
   case 27: Dialog_close(ui); return;
   case KEY_UP: s->field = (f + SF_COUNT - 1) % SF_COUNT; s->fresh = true; return;
   case KEY_DOWN: case '\t': s->field = (f + 1) % SF_COUNT; s->fresh = true; return;
   case KEY_BTAB: s->field = (f + SF_COUNT - 1) % SF_COUNT; s->fresh = true; return;
   case KEY_LEFT: setupChange(ui, -1); return;
   case KEY_RIGHT: case ' ': setupChange(ui, 1); return;
   case '\n': case '\r': case KEY_ENTER: setupApply(ui); return;
   case KEY_BACKSPACE: case 127: case 8:
      if (isNumeric(f)) {
         size_t n = strlen(s->text[f]);
         if (n)
            s->text[f][n - 1] = '\0';
         s->fresh = false;
         if (f == SF_SIZE)
            mirrorSize(s);
      }
      return;
   default: break;
   }
   bool digit = ch >= '0' && ch <= '9';
   bool real = digit || ch == '.' || ch == '-' || ch == 'e' || ch == 'E' || ch == '+';
   if ((isSize(f) && digit) || ((f == SF_ALPHA || f == SF_BETA) && real)) {
      if (s->fresh)
         s->text[f][0] = '\0';
      s->fresh = false;
      size_t n = strlen(s->text[f]);
      if (n + 1 < sizeof s->text[0] && n < 12) {
         s->text[f][n] = (char)ch;
         s->text[f][n + 1] = '\0';
      }
      if (f == SF_SIZE)
         mirrorSize(s);
      else if (isSize(f))
         s->text[SF_SIZE][0] = '\0';
      s->error[0] = '\0';
   }
}

static void drawSetup(Ui *ui) {
   SetupState *s = &ui->setup;
   Rect r = Layout_dialog(ui->paint.cols, ui->paint.rows, 70, SF_COUNT + 6);
   Paint_box(&ui->paint, r, "Problem setup (F2)");
   static const char *labels[SF_COUNT] = {"size",  "shape", "M",    "N",      "K",      "precision", "layout",
                                          "alpha", "beta",  "timing", "backend", "device"};
   static const char *hints[SF_COUNT] = {"sets M, N and K", "", "rows of C", "columns of C", "the inner dimension",
                                         "float double tf32 half bf16 e4m3 e5m2", "op(A) op(B): N as stored, T transposed",
                                         "C = alpha*op(A)*op(B) + beta*C", "", "cold: operands out of the L2",
                                         "runtime", ""};
   int x = r.x + 2, w = r.w - 4;
   for (int f = 0; f < SF_COUNT && r.y + 1 + f < r.y + r.h - 1; f++) {
      int y = r.y + 1 + f;
      bool sel = f == s->field;
      char value[192];
      if (isNumeric(f))
         snprintf(value, sizeof value, "%s%s", s->text[f], sel && !s->fresh ? "_" : "");
      else if (f == SF_SHAPE)
         shapeValue(s, value, sizeof value);
      else if (f == SF_PRECISION)
         Problem_typeLabel(&(Problem){.precision = s->precision, .scaling = s->scaling}, value, sizeof value);
      else if (f == SF_LAYOUT)
         snprintf(value, sizeof value, "%s", layoutNames[s->layout]);
      else if (f == SF_L2)
         snprintf(value, sizeof value, "%s L2", s->cold_l2 ? "cold" : "warm");
      else if (f == SF_BACKEND)
         snprintf(value, sizeof value, "%s", Backend_at(s->backend)->name);
      else if (s->ndevices > 0)
         snprintf(value, sizeof value, "%d: %s (%s)", s->device, s->devices[s->device].name,
                  DeviceType_name(s->devices[s->device].type));
      else
         snprintf(value, sizeof value, "%s", s->devices_error);
      Paint_text(&ui->paint, y, x, 11, labels[f], sel ? ST_CURSOR : ST_LABEL, true);
      const bool wide = f == SF_DEVICE || f == SF_SHAPE; /* their values take the hint's room */
      Paint_text(&ui->paint, y, x + 11, wide ? w - 11 : 14, value, sel ? ST_SELECT : ST_NORMAL, !wide);
      Draw_hit(ui, (Rect){r.x, y, r.w, 1}, HIT_ROW, f, 0);
      if (!wide && hints[f][0])
         Paint_text(&ui->paint, y, x + 26, w - 26, hints[f], ST_DIM, false);
   }
   int y = r.y + r.h - 4;
   if (s->error[0])
      Paint_text(&ui->paint, y, x, w, s->error, ST_BAD, false);
   Paint_text(&ui->paint, r.y + r.h - 3, x, w, "Up/Down field  Left/Right change  digits type a value", ST_DIM, false);
   Paint_text(&ui->paint, r.y + r.h - 2, x, w, "Enter applies  Esc cancels", ST_DIM, false);
}

/* ---- presets ---- */

/* Case-insensitive: whether hay holds needle. */
static bool holds(const char *hay, const char *needle) {
   size_t n = strlen(needle);
   for (; *hay; hay++)
      if (!strncasecmp(hay, needle, n))
         return true;
   return !*needle;
}

/* The presets the filter keeps, the cursor on the one it was on when still shown. */
static void filterPresets(PresetsState *p) {
   int keep = p->nmatch > 0 && p->cursor < p->nmatch ? p->match[p->cursor] : -1;
   p->nmatch = 0;
   for (int i = 0; p->match && i < p->list.count; i++) {
      const Preset *e = &p->list.items[i];
      if (holds(e->name, p->filter) || holds(e->kernel, p->filter) || holds(e->description, p->filter))
         p->match[p->nmatch++] = i;
   }
   p->cursor = 0;
   for (int i = 0; i < p->nmatch; i++)
      if (p->match[i] == keep)
         p->cursor = i;
}

/* Opens on the preset loaded last (none: the first), with no filter. */
static void openPresets(Ui *ui) {
   PresetsState *p = &ui->presets;
   if (p->loaded)
      PresetList_free(&p->list);
   char err[256];
   PresetList_load(&p->list, ui->presets_dir, err, sizeof err);
   p->loaded = true;
   free(p->match);
   p->match = malloc(sizeof *p->match * (size_t)(p->list.count ? p->list.count : 1));
   p->nmatch = 0;
   p->filter[0] = '\0';
   filterPresets(p);
   const Preset *cur = ui->preset_name[0] ? PresetList_find(&p->list, ui->preset_name) : NULL;
   for (int i = 0; cur && i < p->nmatch; i++)
      if (&p->list.items[p->match[i]] == cur)
         p->cursor = i;
   p->scroll = 0;
   p->error[0] = '\0';
   if (p->list.warnings[0])
      Ui_log(ui, LOG_WARN, "presets that could not be read:\n%s", p->list.warnings);
}

static void loadPreset(Ui *ui, int i) {
   PresetsState *ps = &ui->presets;
   if (i < 0 || i >= ps->nmatch)
      return;
   const Preset *p = &ps->list.items[ps->match[i]];
   char err[1536];
   if (!Ui_loadPreset(ui, p, NULL, 0, "", err, sizeof err)) {
      Util_copy(ps->error, sizeof ps->error, err);
      Ui_log(ui, LOG_ERROR, "%s", err);
      return;
   }
   Dialog_close(ui);
}

/* Arrows move, Enter loads, typing filters (Backspace, Ctrl-U undo it), F4 saves. */
static void presetsKey(Ui *ui, int ch) {
   PresetsState *p = &ui->presets;
   int n = p->nmatch;
   size_t flen = strlen(p->filter);
   switch (ch) {
   case 27: Dialog_close(ui); return;
   case KEY_UP: p->cursor--; break;
   case KEY_DOWN: p->cursor++; break;
   case KEY_PPAGE: p->cursor -= 10; break;
   case KEY_NPAGE: p->cursor += 10; break;
   case KEY_HOME: p->cursor = 0; break;
   case KEY_END: p->cursor = n - 1; break;
   case '\n': case '\r': case KEY_ENTER: loadPreset(ui, p->cursor); return;
   case KEY_F(4): Dialog_open(ui, DLG_SAVE); return;
   case KEY_BACKSPACE: case 127: case 8:
      if (flen)
         p->filter[flen - 1] = '\0';
      filterPresets(p);
      break;
   case 21: /* Ctrl-U */
      p->filter[0] = '\0';
      filterPresets(p);
      break;
   default:
      if (ch > 32 && ch < 127 && flen + 1 < sizeof p->filter) {
         p->filter[flen] = (char)ch;
         p->filter[flen + 1] = '\0';
         filterPresets(p);
         break;
      }
      return;
   }
   n = p->nmatch;
   if (p->cursor >= n)
      p->cursor = n - 1;
   if (p->cursor < 0)
      p->cursor = 0;
   p->error[0] = '\0';
}

static void drawPresets(Ui *ui) {
   PresetsState *ps = &ui->presets;
   int n = ps->nmatch;
   Rect r = Layout_dialog(ui->paint.cols, ui->paint.rows, 100, ps->list.count + 13);
   Paint_box(&ui->paint, r, "Presets (F3): type to search, Enter loads (whole), F4 saves, Esc closes");
   int x = r.x + 2, w = r.w - 4;
   /* Below the list: the selected preset in full, then what could not be read. */
   char dbuf[4096], wbuf[4096];
   const char *dl[4], *wl[6];
   int nd = 0, nw = 0;
   if (n > 0 && ps->cursor < n) {
      const Preset *p = &ps->list.items[ps->match[ps->cursor]];
      char t[2048];
      int o = snprintf(t, sizeof t, "%s\n%s: %s", p->description, p->path, p->kernel);
      for (int i = 0; i < p->nparams && o < (int)sizeof t; i++)
         o += snprintf(t + o, sizeof t - (size_t)o, " %s=%lld", p->params[i].name, p->params[i].value);
      char unstated[128];
      Preset_unstated(p, unstated, sizeof unstated);
      if ((p->has_m || p->has_n || p->has_k) && o < (int)sizeof t)
         o += snprintf(t + o, sizeof t - (size_t)o, ", M=%d N=%d K=%d", p->has_m ? p->m : Ui_defaultSize(ui),
                       p->has_n ? p->n : Ui_defaultSize(ui), p->has_k ? p->k : Ui_defaultSize(ui));
      if (unstated[0] && o < (int)sizeof t)
         o += snprintf(t + o, sizeof t - (size_t)o, "; defaults for %s", unstated);
      nd = Text_wrap(t, w, dbuf, sizeof dbuf, dl, 4);
   }
   const char *msg = ps->error[0] ? ps->error : ps->list.warnings;
   if (msg[0])
      nw = Text_wrap(msg, w, wbuf, sizeof wbuf, wl, r.h > 16 ? 6 : 3);
   int listH = r.h - 2 - 2 - nd - nw;
   if (listH < 1)
      listH = 1;
   if (ps->cursor < ps->scroll)
      ps->scroll = ps->cursor;
   if (ps->cursor >= ps->scroll + listH)
      ps->scroll = ps->cursor - listH + 1;
   char search[128];
   snprintf(search, sizeof search, "search: %s_   (%d of %d)", ps->filter, n, ps->list.count);
   Paint_text(&ui->paint, r.y + 1, x, w, search, ps->filter[0] ? ST_SELECT : ST_DIM, false);
   if (n == 0) {
      char t[1200];
      if (ps->list.count)
         snprintf(t, sizeof t, "no preset's name, kernel or description holds '%s' (Backspace, Ctrl-U)", ps->filter);
      else
         snprintf(t, sizeof t, "no presets in %s or your folder; F4 saves one", ui->presets_dir);
      Paint_text(&ui->paint, r.y + 2, x, w, t, ST_DIM, false);
   }
   int nameW = 8, kw = 6;
   for (int i = 0; i < ps->list.count; i++) {
      int nl = Text_width(ps->list.items[i].name) + (ps->list.items[i].user ? 8 : 0);
      int kl = Text_width(ps->list.items[i].kernel);
      nameW = nl > nameW ? nl : nameW;
      kw = kl > kw ? kl : kw;
   }
   nameW = nameW > w / 3 ? w / 3 : nameW;
   kw = kw > w / 4 ? w / 4 : kw;
   for (int i = ps->scroll, y = r.y + 2; i < n && y < r.y + 2 + listH; i++, y++) {
      const Preset *p = &ps->list.items[ps->match[i]];
      bool sel = i == ps->cursor;
      Style st = sel ? ST_CURSOR : ST_NORMAL;
      Paint_fill(&ui->paint, y, r.x + 1, r.w - 2, st);
      char name[96];
      snprintf(name, sizeof name, "%s%s", p->name, p->user ? " (yours)" : "");
      if (sel)
         Paint_text(&ui->paint, y, r.x + 1, 1, Paint_glyph(&ui->paint, "\xe2\x96\xb6", ">"), st, false);
      Paint_text(&ui->paint, y, x, nameW, name, st, true);
      Paint_text(&ui->paint, y, x + nameW + 2, kw, p->kernel, sel ? st : ST_LABEL, true);
      Paint_text(&ui->paint, y, x + nameW + kw + 4, w - nameW - kw - 4, p->description, sel ? st : ST_DIM, false);
      Draw_hit(ui, (Rect){r.x, y, r.w, 1}, HIT_ROW, i, 0);
   }
   int y = r.y + 2 + listH;
   Paint_text(&ui->paint, y++, r.x + 1, r.w - 2, "", ST_DIM, true);
   for (int i = 0; i < nd && y < r.y + r.h - 1; i++)
      Paint_text(&ui->paint, y++, x, w, dl[i], i == 0 ? ST_NORMAL : ST_DIM, false);
   for (int i = 0; i < nw && y < r.y + r.h - 1; i++)
      Paint_text(&ui->paint, y++, x, w, wl[i], ST_BAD, false);
}

/* ---- save ---- */

static void openSave(Ui *ui) {
   SaveState *s = &ui->save;
   memset(s, 0, sizeof *s);
   const KernelInfo *k = Ui_kernel(ui);
   int o = snprintf(s->name, sizeof s->name, "%s", KernelInfo_shortName(k));
   for (int i = 0; i < k->nparams && o < (int)sizeof s->name; i++)
      o += snprintf(s->name + o, sizeof s->name - (size_t)o, "-%s%lld", k->params[i].name, ui->values[i]);
   for (char *c = s->name; *c; c++)
      if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.')
         *c = '-';
   char params[512];
   KernelInfo_formatParams(k, ui->values, params, sizeof params);
   const DeviceInfo *d = Ui_deviceInfo(ui);
   const WorkerSnapshot *sn = &ui->snap;
   if (sn->have_config && !strcmp(sn->config.kernel, k->name) && sn->nwindow > 0 &&
       !memcmp(sn->config.values, ui->values, sizeof ui->values))
      snprintf(s->description, sizeof s->description, "%s %s: %.2f GFLOPS at %dx%dx%d on %s", k->name, params,
               sn->gflops, ui->problem.m, ui->problem.n, ui->problem.k, d ? d->name : "?");
   else
      snprintf(s->description, sizeof s->description, "%s %s", k->name, params);
}

static void saveNow(Ui *ui) {
   SaveState *s = &ui->save;
   if (!s->name[0] || s->name[0] == '.') {
      snprintf(s->error, sizeof s->error, "give the preset a name (letters, digits, - _ .)");
      return;
   }
   char dir[1024], path[1200], err[1536];
   if (!Preset_userDir(dir, sizeof dir, true)) {
      snprintf(s->error, sizeof s->error, "cannot create your presets folder (%s)", dir);
      return;
   }
   snprintf(path, sizeof path, "%s/%s.preset", dir, s->name);
   if (!s->confirm && access(path, F_OK) == 0) {
      snprintf(s->error, sizeof s->error, "%s.preset exists: Enter again replaces it", s->name);
      s->confirm = true;
      return;
   }
   /* A preset of yours hides the shipped one of the same name: asked first, like a file. */
   char shipped[1200];
   snprintf(shipped, sizeof shipped, "%s/%s.preset", ui->presets_dir, s->name);
   if (!s->confirm && access(shipped, F_OK) == 0) {
      snprintf(s->error, sizeof s->error,
               "%s is a shipped preset: yours would replace it whenever you load %s. Enter again saves", s->name,
               s->name);
      s->confirm = true;
      return;
   }
   if (!Preset_save(path, s->description, Ui_kernel(ui), ui->values, &ui->problem, err, sizeof err)) {
      Util_copy(s->error, sizeof s->error, err);
      return;
   }
   Ui_log(ui, LOG_GOOD, "preset saved: %s", path);
   Util_copy(ui->preset_name, sizeof ui->preset_name, s->name);
   Ui_flash(ui, ST_GOOD, "preset %s saved to %s", s->name, path);
   Dialog_close(ui);
}

static void saveKey(Ui *ui, int ch) {
   SaveState *s = &ui->save;
   char *t = s->field == 0 ? s->name : s->description;
   size_t cap = s->field == 0 ? sizeof s->name : sizeof s->description;
   switch (ch) {
   case 27: Dialog_close(ui); return;
   case '\t': case KEY_DOWN: case KEY_UP: case KEY_BTAB: s->field ^= 1; return;
   case '\n': case '\r': case KEY_ENTER: saveNow(ui); return;
   case KEY_BACKSPACE: case 127: case 8: {
      size_t n = strlen(t);
      /* Back over a whole UTF-8 character. */
      while (n > 0 && ((unsigned char)t[n - 1] & 0xC0) == 0x80)
         n--;
      if (n)
         n--;
      t[n] = '\0';
      s->confirm = false;
      return;
   }
   case 21: /* Ctrl-U clears the field */
      t[0] = '\0';
      s->confirm = false;
      return;
   default: break;
   }
   if (ch < 32 || ch > 255 || ch == 127)
      return;
   if (s->field == 0 && !isalnum(ch) && ch != '-' && ch != '_' && ch != '.')
      return;
   size_t n = strlen(t);
   if (n + 1 < cap) {
      t[n] = (char)ch;
      t[n + 1] = '\0';
   }
   s->confirm = false;
   s->error[0] = '\0';
}

static void drawSave(Ui *ui) {
   SaveState *s = &ui->save;
   Rect r = Layout_dialog(ui->paint.cols, ui->paint.rows, 78, 11);
   Paint_box(&ui->paint, r, "Save as preset (F4)");
   int x = r.x + 2, w = r.w - 4;
   char dir[1024] = "";
   Preset_userDir(dir, sizeof dir, false);
   const char *labels[2] = {"name", "description"};
   char *vals[2] = {s->name, s->description};
   for (int f = 0; f < 2; f++) {
      int y = r.y + 1 + f;
      char v[300];
      snprintf(v, sizeof v, "%s%s", vals[f], f == s->field ? "_" : "");
      Paint_text(&ui->paint, y, x, 12, labels[f], f == s->field ? ST_CURSOR : ST_LABEL, true);
      /* Show the end of a long value: that is where one types. */
      int vw = w - 12, tw = Text_width(v);
      const char *shown = v;
      while (tw > vw && *shown) {
         unsigned cp;
         int len = Text_decode(shown, strlen(shown), &cp);
         shown += len > 0 ? len : 1;
         tw = Text_width(shown);
      }
      Paint_text(&ui->paint, y, x + 12, vw, shown, f == s->field ? ST_SELECT : ST_NORMAL, true);
      Draw_hit(ui, (Rect){r.x, y, r.w, 1}, HIT_ROW, f, 0);
   }
   char t[1200];
   snprintf(t, sizeof t, "into %s/", dir);
   Paint_text(&ui->paint, r.y + 4, x, w, t, ST_DIM, false);
   if (s->error[0]) {
      char buf[1024];
      const char *wl[2];
      int n = Text_wrap(s->error, w, buf, sizeof buf, wl, 2);
      for (int i = 0; i < n; i++)
         Paint_text(&ui->paint, r.y + 5 + i, x, w, wl[i], ST_BAD, false);
   }
   Paint_text(&ui->paint, r.y + r.h - 2, x, w, "Tab switches field  Enter saves  Esc cancels  Ctrl-U clears", ST_DIM, false);
}

/* ---- help ---- */

/* ---- dispatch ---- */

/* The lesson chooser is the lesson pane's (draw_lesson.h), given its context and state. */
static PaneCtx lessonCtx(Ui *ui) {
   PaneCtx ctx;
   PaneHost_context(ui, PANE_LESSON, &ctx);
   return ctx;
}

static void lessonsKey(Ui *ui, int ch) {
   const PaneCtx ctx = lessonCtx(ui);
   LessonPane_chooserKey(&ctx, LessonPane_of(&ui->panes), ch);
}

void Dialog_open(Ui *ui, DialogKind kind) {
   ui->dialog = kind;
   switch (kind) {
   case DLG_SETUP: openSetup(ui); break;
   case DLG_PRESETS: openPresets(ui); break;
   case DLG_SAVE: openSave(ui); break;
   case DLG_EXPORT: Export_open(ui); break;
   case DLG_HELP: ui->help_scroll = 0; break;
   case DLG_LESSONS: {
      const PaneCtx ctx = lessonCtx(ui);
      LessonPane_openChooser(&ctx, LessonPane_of(&ui->panes));
      break;
   }
   default: break;
   }
   ui->dirty = true;
}

void Dialog_key(Ui *ui, int ch) {
   switch (ui->dialog) {
   case DLG_SETUP: setupKey(ui, ch); break;
   case DLG_PRESETS: presetsKey(ui, ch); break;
   case DLG_SAVE: saveKey(ui, ch); break;
   case DLG_LESSONS: lessonsKey(ui, ch); break;
   case DLG_EXPORT: Export_key(ui, ch); break;
   default: break;
   }
}

void Dialog_draw(Ui *ui) {
   switch (ui->dialog) {
   case DLG_SETUP: drawSetup(ui); break;
   case DLG_PRESETS: drawPresets(ui); break;
   case DLG_SAVE: drawSave(ui); break;
   case DLG_LESSONS: {
      const PaneCtx ctx = lessonCtx(ui);
      LessonPane_drawChooser(&ctx, LessonPane_of(&ui->panes));
      break;
   }
   case DLG_EXPORT: Export_draw(ui); break;
   default: break;
   }
}

void Dialog_mouse(Ui *ui, int x, int y, bool dbl) {
   for (int i = ui->nhits - 1; i >= 0; i--) {
      const Hit *h = &ui->hits[i];
      if (h->kind != HIT_ROW || !Rect_contains(h->r, x, y))
         continue;
      if (ui->dialog == DLG_SETUP) {
         ui->setup.field = h->a;
         ui->setup.fresh = true;
      } else if (ui->dialog == DLG_PRESETS) {
         ui->presets.cursor = h->a;
         if (dbl)
            loadPreset(ui, h->a);
      } else if (ui->dialog == DLG_SAVE) {
         ui->save.field = h->a;
      } else if (ui->dialog == DLG_LESSONS) {
         LessonPane_of(&ui->panes)->chooser_cursor = h->a;
         if (dbl)
            lessonsKey(ui, '\n');
      }
      ui->dirty = true;
      return;
   }
}
