/* The explorer's keys: one table of what each key does, read both by the dispatcher and
 * by the help page (F1), so that the help cannot list a key that does something else.
 * A pane's own keys are rows of its class (panes_table.h), which the dispatcher and the
 * help page read after this table's; the keys that act inside the focused pane go to its
 * class's key function. */
#include <stdio.h>
#include <string.h>

#include "core/run/ablate.h"
#include "tui/app.h"
#include "tui/draw_history.h"
#include "tui/draw_kernel.h"
#include "tui/draw_lesson.h"
#include "tui/sweepview.h"

/* ---- what the keys do ---- */

static void focusNext(Ui *ui, int dir) {
   for (int i = 1; i <= PANE_COUNT; i++) {
      int p = ((ui->focus + dir * i) % PANE_COUNT + PANE_COUNT) % PANE_COUNT;
      if (ui->layout.shown & PANE_BIT(p)) {
         ui->focus = p;
         if (ui->zoom >= 0)
            ui->zoom = p;
         return;
      }
   }
}

static void togglePane(Ui *ui, int p) {
   ui->visible ^= PANE_BIT(p);
   if (ui->zoom == p)
      ui->zoom = -1;
   if (ui->visible & PANE_BIT(p))
      ui->focus = p;
   Ui_layout(ui);
   if (!(ui->layout.shown & PANE_BIT(ui->focus)))
      focusNext(ui, 1);
   if (ui->visible & PANE_BIT(p) && !(ui->layout.shown & PANE_BIT(p)))
      Ui_flash(ui, ST_WARN, "no room for the %s pane at %dx%d: hide another or zoom (z)", Layout_paneName(p), ui->paint.cols,
               ui->paint.rows);
}

/* Cancels the run in progress and pauses; a sweep stops, keeping what it measured. */
static void cancel(Ui *ui) {
   const WorkerSweep *sw = SweepPane_of(&ui->panes)->sweep;
   bool sweeping = sw->running;
   Worker_cancel(ui->worker);
   ui->paused = true;
   /* Said at once: the launch in progress may take seconds to end (the header says
    * "cancelling" until the worker has stopped). */
   ui->cancelling = Ui_busy(ui);
   if (sweeping)
      Ui_flash(ui, ST_WARN, "sweep stopped after %d of %d (what it measured stays); measuring paused: space resumes",
               sw->done, sw->total);
   else if (ui->cancelling)
      Ui_flash(ui, ST_WARN, "cancelling: the launch in progress ends first, then measuring pauses (space resumes)");
   else
      Ui_flash(ui, ST_WARN, "cancelled: measuring paused (space resumes)");
}

static void helpKey(Ui *ui, int ch) { Dialog_open(ui, DLG_HELP); }
static void setupKey(Ui *ui, int ch) { Dialog_open(ui, DLG_SETUP); }
static void presetsKey(Ui *ui, int ch) { Dialog_open(ui, DLG_PRESETS); }
static void saveKey(Ui *ui, int ch) { Dialog_open(ui, DLG_SAVE); }
static void exportKey(Ui *ui, int ch) { Dialog_open(ui, DLG_EXPORT); }
static void reloadKey(Ui *ui, int ch) { Ui_reloadKernels(ui, "asked"); }

static void peaksKey(Ui *ui, int ch) {
   Worker_measurePeaks(ui->worker);
   Ui_flash(ui, ST_NORMAL, "measuring the device's peaks...");
}

static void vendorKey(Ui *ui, int ch) {
   Worker_measureVendor(ui->worker);
   Ui_flash(ui, ST_NORMAL, "timing the vendor BLAS...");
}

static void pauseKey(Ui *ui, int ch) {
   ui->paused = !ui->paused;
   ui->cancelling = false;
   Worker_setPaused(ui->worker, ui->paused);
   bool running = ui->paused && Ui_busy(ui) && ui->snap.state != WS_WAITING;
   Ui_flash(ui, ST_NORMAL, !ui->paused ? "measuring" : running ? "pausing after the launch in progress: space resumes"
                                                               : "paused: space resumes live measuring");
}

static void cancelKey(Ui *ui, int ch) { cancel(ui); }

/* Esc closes a dialog (dialogs.c) or leaves the zoom; it never cancels or pauses, so a
 * stray one is harmless. */
static void escKey(Ui *ui, int ch) {
   if (ui->zoom >= 0)
      ui->zoom = -1;
}

static void quitKey(Ui *ui, int ch) { ui->quit = true; }
static void redrawKey(Ui *ui, int ch) { clearok(curscr, TRUE); }
static void focusKey(Ui *ui, int ch) { focusNext(ui, ch == KEY_BTAB ? -1 : 1); }
/* A pane's digit (panes.h) shows or hides it; i is the inspect pane's too. */
static void paneKey(Ui *ui, int ch) {
   int p = ch == 'i' ? PANE_INSPECT : Pane_byDigit(ch);
   if (p >= 0)
      togglePane(ui, p);
}
static void zoomKey(Ui *ui, int ch) { ui->zoom = ui->zoom >= 0 ? -1 : ui->focus; }
static void variantKey(Ui *ui, int ch) { Ui_stepVariant(ui, ch == ',' || ch == '<' ? -1 : 1); }

/* Ablation: none, no-a, no-b, no-fma, const-store, no-a,no-b, none again. */
static void ablateKey(Ui *ui, int ch) {
   ui->ablate = Ablate_next(ui->ablate);
   Ui_apply(ui);
   char names[64];
   Ablate_name(ui->ablate, names, sizeof names);
   if (ui->ablate)
      Ui_flash(ui, ST_WARN, "ABLATED: %s: not verified, not a GEMM result (a again: next)", names);
   else
      Ui_flash(ui, ST_NORMAL, "ablation off: real, verified runs");
}

static void defaultsKey(Ui *ui, int ch) {
   KernelInfo_defaults(Ui_kernel(ui), ui->values);
   Ui_apply(ui);
   Ui_flash(ui, ST_NORMAL, "parameters back to their defaults");
}

static void aheadKey(Ui *ui, int ch) { AheadUi_cycle(ui); }
static void lessonsKey(Ui *ui, int ch) { Dialog_open(ui, DLG_LESSONS); }

/* P: the projector's layout: the lesson, results and bank panes get the screen (what a
 * class reads from the back of a room); on a step whose lesson is the grid, the results
 * and the bank pane, which then shows the step's text and figure beside or under a grid
 * of readable height. P again gives back the panes shown before. */
static void projectorKey(Ui *ui, int ch) {
   if (ui->before_projector) {
      ui->visible = ui->before_projector;
      ui->zoom = ui->zoom_before_projector;
      ui->before_projector = 0;
      Ui_flash(ui, ST_NORMAL, "the panes as they were before the projector's layout");
   } else {
      const bool grid = LessonPane_gridStep(LessonPane_of(&ui->panes)) != NULL;
      ui->before_projector = ui->visible;
      ui->zoom_before_projector = ui->zoom;
      ui->visible = PANE_BIT(PANE_RESULTS) | PANE_BIT(PANE_BANKS) | (grid ? 0 : PANE_BIT(PANE_LESSON));
      ui->focus = grid ? PANE_BANKS : PANE_LESSON;
      ui->zoom = -1;
      Ui_layout(ui);
      /* Too short for the results beside a readable grid (80x24): the grid and the step. */
      if (grid && !ui->layout.wants_met)
         ui->visible = PANE_BIT(PANE_BANKS);
      Ui_flash(ui, ST_NORMAL, "projector's layout: %s (P: back)",
               grid ? "results and the bank grid with the step's text" : "lesson, results and bank panes");
   }
   Ui_layout(ui);
   if (!(ui->layout.shown & PANE_BIT(ui->focus)))
      focusNext(ui, 1);
}

/* W: the bank model's SIMD width: the device's own, 32 lanes (NVIDIA's warp), 64 (AMD's
 * and the DCU's wavefront). */
static void simdWidthKey(Ui *ui, int ch) {
   static const int widths[] = {0, 32, 64};
   int i = 0;
   while (i < 3 && widths[i] != ui->simd_width)
      i++;
   ui->simd_width = widths[(i + 1) % 3];
   Worker_setSimdWidth(ui->worker, ui->simd_width);
   if (!(ui->visible & PANE_BIT(PANE_BANKS)))
      togglePane(ui, PANE_BANKS);
   if (ui->simd_width)
      Ui_flash(ui, ST_NORMAL, "bank model: %d lanes served together%s (W: next)", ui->simd_width,
               ui->simd_width == 64 ? ", AMD's and the DCU's wavefront" : ", NVIDIA's warp");
   else
      Ui_flash(ui, ST_NORMAL, "bank model: the device's own SIMD width (W: next)");
}

/* J: the configuration to a class server's assignment, judged there (docs/class.md). */
static void exportKernelKey(Ui *ui, int ch) {
   Worker_exportKernel(ui->worker);
   Ui_flash(ui, ST_NORMAL, "exporting the kernel: the log (4) says where, and how to build it");
}

static void submitKey(Ui *ui, int ch) {
   if (!ui->start.server)
      Ui_flash(ui, ST_WARN, "J submits to a class server: start gemmtop with --server SOCKET --assignment NAME");
   else if (!ui->start.assignment)
      Ui_flash(ui, ST_WARN, "J submits to an assignment: start gemmtop with --assignment NAME ('gemmtop class list')");
   else {
      Worker_submit(ui->worker, ui->start.assignment);
      Ui_flash(ui, ST_NORMAL, "submitted to %s: judged in turn on the server; the log gives the verdict",
               ui->start.assignment);
   }
}

static void focusedKey(Ui *ui, int ch);

/* ---- the table, in the help's order ---- */

static const KeyBinding bindings[] = {
    {{KEY_F(1), '?', 'h'}, "F1", "? h", "this help", helpKey, false, NULL},
    {{KEY_F(2), 's'}, "F2", "s", "problem setup: M N K, precision, layout, alpha, beta, device", setupKey, false, NULL},
    {{KEY_F(3), 'p'}, "F3", "p", "load a preset", presetsKey, false, NULL},
    {{KEY_F(4), 'w'}, "F4", "w", "save the configuration as a preset", saveKey, false, NULL},
    {{KEY_F(5), 'r'}, "F5", "r", "reload the kernel files (done too when they change on disk)", reloadKey, false, NULL},
    {{KEY_F(6), 'm'}, "F6", "m", "measure the device's peaks, for % of peak", peaksKey, false, NULL},
    {{KEY_F(7), 'b'}, "F7", "b", "time the vendor BLAS again, for % of BLAS", vendorKey, false, NULL},
    {{KEY_F(8), ' '}, "F8", "Space", "pause / resume live measuring", pauseKey, false, NULL},
    {{KEY_F(9), 'c'}, "F9", "c", "cancel a long run (measuring pauses)", cancelKey, false, NULL},
    {{KEY_F(10), 'q'}, "F10", "q", "quit (Ctrl-C too)", quitKey, false, NULL},
    {{'\t', KEY_BTAB}, "Tab", "S-Tab", "focus the next / previous pane", focusKey, false, NULL},
    {{'1', '2', '3', '4', '5'}, "1 2 3 4 5", NULL, "show / hide the kernel, results, history, log, banks panes", paneKey,
     false, NULL},
    {{'z'}, "z", NULL, "zoom the focused pane (z or Esc: back)", zoomKey, false, NULL},
    {{27}, "Esc", NULL, "close a dialog, leave the zoom (never cancels or pauses)", escKey, false, NULL},
    {{KEY_UP, KEY_DOWN, 'j', 'k', KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END}, "Up Down", "j k",
     "move in the focused pane; PgUp PgDn Home End scroll", focusedKey, false, NULL},
    {{KEY_LEFT, KEY_RIGHT}, "Left Right", NULL,
     "on the variant row: previous / next variant\non a parameter: previous / next valid value", focusedKey,
     false, NULL},
    {{'-', '+', '=', KEY_SLEFT, KEY_SRIGHT}, "- +", NULL, "on a parameter: previous / next value, unavailable ones too",
     focusedKey, false, NULL},
    {{'<', '>', ',', '.'}, "< >", ", .", "previous / next variant, from any pane", variantKey, false, NULL},
    {{'\n', '\r', KEY_ENTER}, "Enter", NULL, "pick the variant under the cursor; history: go back to it",
     focusedKey, false, NULL},
    {{'d'}, "d", NULL, "parameters back to their defaults", defaultsKey, false, NULL},
    {{'a'}, "a", NULL, "ablation: none, no-a, no-b, no-fma, const-store, no-a,no-b", ablateKey, false, NULL},
    {{'A'}, "A", NULL, "compile ahead (auto, on, off): the neighbours, one key away", aheadKey, false, NULL},
    {{12}, "Ctrl-L", NULL, "redraw the screen", redrawKey, true, NULL},
    {{'6', 'i'}, "6", "i", "inspect pane: compiled code, registers, occupancy (v: code/source)", paneKey, false, NULL},
    {{0}, "mouse", NULL, "click a pane, a variant or a value; the wheel scrolls", NULL, false, NULL},
    {{'7'}, "7", NULL, "show / hide the sweep pane", paneKey, false, NULL},
    {{'J'}, "J", NULL, "class server: submit this configuration to the assignment (--server, --assignment)",
     submitKey, false, NULL},
    {{'K'}, "K", NULL, "export this configuration: a standalone kernel and a launcher that verifies it (export-kernel)",
     exportKernelKey, false, NULL},
    {{'v'}, "v", NULL, "inspect pane: the compiled code or the kernel after the preprocessor", focusedKey,
     false, NULL},
    {{'L'}, "L", NULL, "lessons: choose one and start it on its first step", lessonsKey, false, NULL},
    {{'8'}, "8", NULL, "show / hide the lesson pane: the step, why its speed, the ladder", paneKey, false, NULL},
    {{'9'}, "9", NULL, "show / hide the compare pane", paneKey, false, NULL},
    {{'e'}, "e", NULL, "export the history or the sweep's results to a CSV or Markdown file", exportKey, false, NULL},
    {{'P'}, "P", NULL, "the projector's layout: lesson, results and bank panes only (a grid step: results\n"
     "and the grid with the step's text) (P: back)", projectorKey, false, NULL},
    {{'W'}, "W", NULL, "bank pane: the SIMD width the banks serve: the device's, 32 (a warp), 64 (a wavefront)",
     simdWidthKey, false, NULL},
    {{3}, "Ctrl-C", NULL, NULL, quitKey, true, NULL},
};
#define NBINDINGS ((int)(sizeof bindings / sizeof bindings[0]))

int Keys_count(void) { return NBINDINGS; }

const KeyBinding *Keys_at(int i) { return i >= 0 && i < NBINDINGS ? &bindings[i] : NULL; }

static const KeyBinding *bindingOf(int ch) {
   for (int i = 0; i < NBINDINGS; i++)
      for (int j = 0; bindings[i].codes[j]; j++)
         if (bindings[i].codes[j] == ch)
            return &bindings[i];
   return NULL;
}

static void mouseKey(Ui *ui);
static void helpPageKey(Ui *ui, int ch);

void Keys_handle(Ui *ui, int ch) {
   if (ch == KEY_RESIZE) {
      ui->dirty = true;
      return;
   }
   if (ch == KEY_MOUSE) {
      mouseKey(ui);
      return;
   }
   const KeyBinding *b = bindingOf(ch);
   if (b && b->anywhere) {
      b->handler(ui, ch);
      return;
   }
   if (ui->layout.too_small) {
      /* Nothing else is drawn: quitting is all that makes sense. */
      if (b && b->handler == quitKey)
         quitKey(ui, ch);
      return;
   }
   if (ui->dialog == DLG_HELP) {
      helpPageKey(ui, ch);
      return;
   }
   if (ui->dialog) {
      Dialog_key(ui, ch);
      return;
   }
   /* A pane typing something (the lesson's step number after g) takes its keys first. */
   const PaneSet *panes = Panes_shipped();
   if (Panes_capture(panes, ui, ch))
      return;
   int pane = -1;
   if (!b)
      b = Panes_binding(panes, ch, &pane);
   if (b && pane >= 0)
      Panes_runBinding(panes, ui, pane, b, ch);
   else if (b && b->handler)
      b->handler(ui, ch);
   else if (!b && Pane_byDigit(ch) >= 0)
      togglePane(ui, Pane_byDigit(ch)); /* a pane's digit with no row of its own */
}

/* ---- the help page ---- */

/* The help's rows: the table's, then each pane's own, in the list's order. */
static int helpRows(const PaneSet *panes) {
   int n = NBINDINGS;
   for (int p = 0; p < panes->count; p++)
      n += panes->cls[p]->nkeys;
   return n;
}

static const KeyBinding *helpRow(const PaneSet *panes, int i) {
   if (i < NBINDINGS)
      return &bindings[i];
   i -= NBINDINGS;
   for (int p = 0; p < panes->count; p++) {
      if (i < panes->cls[p]->nkeys)
         return &panes->cls[p]->keys[i];
      i -= panes->cls[p]->nkeys;
   }
   return NULL;
}

/* The panes whose digit has no row in the tables: a help line each, from the pane list, so
 * that a new pane is shown and explained with no row here. */
static int unboundPanes(const PaneSet *panes, int *out) {
   int n = 0;
   for (int p = 0; p < panes->count; p++) {
      int digit = panes->info[p].digit;
      if (digit && !bindingOf(digit) && !Panes_binding(panes, digit, NULL))
         out[n++] = p;
   }
   return n;
}

static int linesOf(const char *what) {
   if (!what)
      return 0;
   int n = 1;
   for (const char *c = what; *c; c++)
      n += *c == '\n';
   return n;
}

int Keys_helpCount(const PaneSet *panes) {
   int n = 0, unbound[PANE_COUNT];
   for (int i = 0; i < helpRows(panes); i++)
      n += linesOf(helpRow(panes, i)->what);
   return n + unboundPanes(panes, unbound);
}

/* "F1  ? h": function keys padded to three, so that their aliases line up. */
static void keysLabel(const KeyBinding *b, char *out, size_t outlen) {
   bool fkey = b->key[0] == 'F' && b->key[1] >= '0' && b->key[1] <= '9';
   if (b->alias)
      snprintf(out, outlen, "%-*s %s", fkey ? 3 : 0, b->key, b->alias);
   else
      snprintf(out, outlen, "%s", b->key);
}

void Keys_helpLine(const PaneSet *panes, int line, char *keys, size_t keyslen, char *text, size_t textlen) {
   keys[0] = text[0] = '\0';
   int n = 0;
   for (int i = 0; i < helpRows(panes); i++) {
      const KeyBinding *b = helpRow(panes, i);
      const char *w = b->what;
      for (int part = 0; w; part++) {
         const char *nl = strchr(w, '\n');
         if (n++ == line) {
            if (part == 0)
               keysLabel(b, keys, keyslen);
            snprintf(text, textlen, "%.*s", nl ? (int)(nl - w) : (int)strlen(w), w);
            return;
         }
         w = nl ? nl + 1 : NULL;
      }
   }
   int unbound[PANE_COUNT], np = unboundPanes(panes, unbound);
   if (line - n >= 0 && line - n < np) {
      const PaneInfo *pi = &panes->info[unbound[line - n]];
      snprintf(keys, keyslen, "%c", pi->digit);
      snprintf(text, textlen, "show / hide the %s pane", pi->title);
   }
}

void Keys_drawHelp(Ui *ui) {
   int body = ui->paint.rows - 2;
   int count = Keys_helpCount(Panes_shipped());
   int maxScroll = count - body;
   if (ui->help_scroll > maxScroll)
      ui->help_scroll = maxScroll;
   if (ui->help_scroll < 0)
      ui->help_scroll = 0;
   Paint_fill(&ui->paint, 0, 0, ui->paint.cols, ST_HEADER);
   Paint_text(&ui->paint, 0, 0, ui->paint.cols, " gemmtop explorer: keys", ST_HEADER, false);
   const char *close = "Esc, q or F1 closes ";
   int cw = (int)strlen(close);
   if (ui->paint.cols > cw + 26)
      Paint_text(&ui->paint, 0, ui->paint.cols - cw, cw, close, ST_HEADER, false);
   for (int i = 0; i < body && i + ui->help_scroll < count; i++) {
      char keys[64], text[256];
      Keys_helpLine(Panes_shipped(), i + ui->help_scroll, keys, sizeof keys, text, sizeof text);
      Paint_text(&ui->paint, 1 + i, 1, KEYS_HELP_WIDTH, keys, ST_LABEL, false);
      Paint_text(&ui->paint, 1 + i, 1 + KEYS_HELP_WIDTH, ui->paint.cols - 1 - KEYS_HELP_WIDTH, text, ST_NORMAL, false);
   }
   const char *foot = maxScroll > 0 ? "Up/Down scroll; preferences: $XDG_CONFIG_HOME/gemmtop/ui.conf"
                                    : "preferences: $XDG_CONFIG_HOME/gemmtop/ui.conf; docs/explorer.md";
   Paint_text(&ui->paint, ui->paint.rows - 1, 1, ui->paint.cols - 1, foot, ST_DIM, false);
}

/* A key while the help page is open: it scrolls, anything else closes it. */
static void helpPageKey(Ui *ui, int ch) {
   switch (ch) {
   case KEY_UP: case 'k': ui->help_scroll--; break;
   case KEY_DOWN: case 'j': ui->help_scroll++; break;
   case KEY_PPAGE: ui->help_scroll -= ui->paint.rows - 3; break;
   case KEY_NPAGE: case ' ': ui->help_scroll += ui->paint.rows - 3; break;
   case KEY_HOME: ui->help_scroll = 0; break;
   default: Dialog_close(ui); break;
   }
}

/* A mouse event: a click focuses and picks, the wheel scrolls. */
static void mouseKey(Ui *ui) {
   MEVENT ev;
   if (getmouse(&ev) != OK)
      return;
   if (ui->dialog) {
      Dialog_mouse(ui, ev.x, ev.y, (ev.bstate & BUTTON1_DOUBLE_CLICKED) != 0);
      return;
   }
   int pane = -1;
   for (int p = 0; p < PANE_COUNT; p++)
      if ((ui->layout.shown & PANE_BIT(p)) && Rect_contains(ui->layout.pane[p], ev.x, ev.y))
         pane = p;
#ifdef BUTTON5_PRESSED
   if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
      int key = ev.bstate & BUTTON4_PRESSED ? KEY_UP : KEY_DOWN;
      const PaneInfo *pi = Pane_info(pane);
      for (int i = 0; pi && i < pi->wheel; i++)
         Panes_focusedKey(Panes_shipped(), ui, pane, key);
      return;
   }
#endif
   if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED)))
      return;
   if (pane >= 0)
      ui->focus = pane;
   for (int i = ui->nhits - 1; i >= 0; i--) {
      const Hit *h = &ui->hits[i];
      if (!Rect_contains(h->r, ev.x, ev.y))
         continue;
      switch (h->kind) {
      case HIT_VALUE: KernelPane_of(&ui->panes)->cursor = 1 + h->a; Ui_setParamValue(ui, h->a, h->b); break;
      case HIT_VARIANT: KernelPane_of(&ui->panes)->cursor = h->b; Ui_selectKernel(ui, h->a, NULL); break;
      case HIT_ROW: KernelPane_of(&ui->panes)->cursor = h->a; break;
      case HIT_HISTORY:
         HistoryPane_of(&ui->panes)->cursor = h->a;
         if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
            Ui_restoreHistory(ui, h->a);
         break;
      case HIT_PANE: break;
      }
      return;
   }
}

/* A key for the focused pane: moving, stepping a value, Enter, v. */
static void focusedKey(Ui *ui, int ch) {
   bool used = Panes_focusedKey(Panes_shipped(), ui, ui->focus, ch);
   /* Stepping acts on the kernel pane when the focused pane has no use for it. */
   if (!used && PaneCtx_isSteppingKey(ch))
      Panes_focusedKey(Panes_shipped(), ui, PANE_KERNEL, ch);
}
