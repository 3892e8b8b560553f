/* Export from the explorer (e): the history or the sweep's results, as CSV or Markdown
 * (chosen by the file name's ending), to a file named in a dialog. Written through
 * base/outfile.c (a temporary file renamed over the target once complete); an existing
 * file is replaced only after a second Enter, never silently. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/run/ablate.h"
#include "base/outfile.h"
#include "base/util.h"
#include "tui/app.h"
#include "tui/sweepview.h"
#include "tui/text.h"

typedef enum { FMT_NONE, FMT_CSV, FMT_MARKDOWN } ExportFormat;

static ExportFormat formatOf(const char *path) {
   size_t n = strlen(path);
   if (n > 4 && !strcmp(path + n - 4, ".csv"))
      return FMT_CSV;
   if ((n > 3 && !strcmp(path + n - 3, ".md")) || (n > 9 && !strcmp(path + n - 9, ".markdown")))
      return FMT_MARKDOWN;
   return FMT_NONE;
}

static const char *const whatNames[] = {"history", "sweep"};

/* The sweep pane's copy of the worker's sweep: what its results are exported from. */
static const WorkerSweep *sweepOf(const Ui *ui) { return SweepPane_of(&ui->panes)->sweep; }

static void defaultPath(Ui *ui) {
   ExportState *s = &ui->exporting;
   ExportFormat f = formatOf(s->path);
   snprintf(s->path, sizeof s->path, "gemmtop-%s.%s", whatNames[s->what], f == FMT_MARKDOWN ? "md" : "csv");
}

void Export_open(Ui *ui) {
   ExportState *s = &ui->exporting;
   const WorkerSweep *sw = sweepOf(ui);
   bool sweepShown = sw->started && sw->done > 0;
   s->what = ui->focus == PANE_SWEEP && sweepShown ? 1 : 0;
   s->path[0] = '\0';
   defaultPath(ui);
   s->confirm = false;
   s->error[0] = '\0';
}

/* ---- the rows ---- */

/* A Markdown cell: a | would end it. */
static void mdCell(FILE *f, const char *v, bool last) {
   fputs(" ", f);
   for (const char *c = v; *c; c++)
      fputs(*c == '|' ? "\\|" : (char[2]){*c, 0}, f);
   fputs(last ? " |\n" : " |", f);
}

#define MAX_COLS 16
typedef struct Row_ {
   char cell[MAX_COLS][560]; /* the longest: a sweep point's parameters (512) */
   int n;
} Row;

static void put(Row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Row *r, const char *fmt, ...) {
   if (r->n >= MAX_COLS)
      return;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(r->cell[r->n++], sizeof r->cell[0], fmt, ap);
   va_end(ap);
}

static void writeRow(FILE *f, ExportFormat fmt, const Row *r) {
   if (fmt == FMT_MARKDOWN)
      fputs("|", f);
   for (int i = 0; i < r->n; i++)
      (fmt == FMT_CSV ? Util_csvField : mdCell)(f, r->cell[i], i == r->n - 1);
   if (fmt == FMT_MARKDOWN && r->n == 0)
      fputs("\n", f);
}

static void writeHeader(FILE *f, ExportFormat fmt, const Row *h) {
   writeRow(f, fmt, h);
   if (fmt != FMT_MARKDOWN)
      return;
   fputs("|", f);
   for (int i = 0; i < h->n; i++)
      fputs(i < 2 ? " --- |" : " ---: |", f);
   fputs("\n", f);
}

static void problemCells(Row *r, const Problem *p) {
   char lay[3];
   Problem_layoutName(p, lay);
   put(r, "%d", p->m);
   put(r, "%d", p->n);
   put(r, "%d", p->k);
   put(r, "%s", Precision_name(p->precision));
   put(r, "%s", lay);
}

static const char *stateName(HistoryState s) {
   return s == HIST_OK ? "verified" : s == HIST_NOT_VERIFIED ? "wrong result" : "failed";
}

/* One row per configuration in the history, in its order (as the pane shows them). */
static int writeHistory(Ui *ui, FILE *f, ExportFormat fmt) {
   Row h = {.n = 0};
   const char *cols[] = {"kernel", "parameters", "m", "n", "k", "precision", "layout", "ablation",
                         "state", "gflops", "median_ms", "backend", "device"};
   for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
      put(&h, "%s", cols[i]);
   writeHeader(f, fmt, &h);
   for (int i = 0; i < ui->hist.count; i++) {
      const HistoryEntry *e = &ui->hist.items[i];
      Row r = {.n = 0};
      char abl[64] = "";
      if (e->ablate)
         Ablate_name(e->ablate, abl, sizeof abl);
      put(&r, "%s", e->kernel);
      put(&r, "%s", e->params);
      problemCells(&r, &e->problem);
      put(&r, "%s", abl);
      put(&r, "%s", e->state == HIST_FAILED ? e->why : stateName(e->state));
      put(&r, "%.4f", e->gflops);
      put(&r, "%.6f", e->median_ms);
      put(&r, "%s", e->backend);
      put(&r, "%d", e->device);
      writeRow(f, fmt, &r);
   }
   return ui->hist.count;
}

/* One row per configuration the sweep tried, in the order tried. */
static int writeSweep(Ui *ui, FILE *f, ExportFormat fmt) {
   const WorkerSweep *sw = sweepOf(ui);
   const KernelInfo *k = Catalog_find(&ui->cat, sw->config.kernel);
   Row h = {.n = 0};
   const char *cols[] = {"kernel", "parameters", "m", "n", "k", "precision", "layout",
                         "outcome", "gflops", "median_ms", "compile_ms", "cached"};
   for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
      put(&h, "%s", cols[i]);
   writeHeader(f, fmt, &h);
   for (int i = 0; i < sw->done && i < WORKER_SWEEP_MAX; i++) {
      const WorkerSweepPoint *pt = &sw->points[i];
      char params[512] = "";
      if (k)
         KernelInfo_formatParams(k, pt->values, params, sizeof params);
      Row r = {.n = 0};
      put(&r, "%s", sw->config.kernel);
      put(&r, "%s", params);
      problemCells(&r, &sw->config.problem);
      put(&r, "%s", SweepOutcome_name(pt->outcome));
      put(&r, "%.4f", pt->outcome == SWEEP_OK ? pt->gflops : 0.0);
      put(&r, "%.6f", pt->outcome == SWEEP_OK ? pt->median_ms : 0.0);
      put(&r, "%.1f", pt->compile_ms);
      put(&r, "%s", pt->cached ? "yes" : "no");
      writeRow(f, fmt, &r);
   }
   return sw->done;
}

static void exportNow(Ui *ui) {
   ExportState *s = &ui->exporting;
   ExportFormat fmt = formatOf(s->path);
   if (fmt == FMT_NONE) {
      snprintf(s->error, sizeof s->error, "name a .csv or .md file (the ending chooses the format)");
      return;
   }
   if (s->what == 1 && !(sweepOf(ui)->started && sweepOf(ui)->done > 0)) {
      snprintf(s->error, sizeof s->error, "no sweep results yet: S sweeps the kernel's parameters");
      return;
   }
   if (s->what == 0 && ui->hist.count == 0) {
      snprintf(s->error, sizeof s->error, "the history is empty: nothing measured yet");
      return;
   }
   if (!s->confirm && access(s->path, F_OK) == 0) {
      snprintf(s->error, sizeof s->error, "%s exists: Enter again replaces it", s->path);
      s->confirm = true;
      return;
   }
   OutFile *of;
   char err[1024];
   if (OutFile_open(s->path, 0, &of, err, sizeof err) != OUTFILE_OK) {
      Util_copy(s->error, sizeof s->error, err);
      s->confirm = false;
      return;
   }
   FILE *f = OutFile_stream(of);
   int rows = s->what == 0 ? writeHistory(ui, f, fmt) : writeSweep(ui, f, fmt);
   if (!OutFile_commit(of, err, sizeof err)) {
      Util_copy(s->error, sizeof s->error, err);
      s->confirm = false;
      return;
   }
   Ui_log(ui, LOG_GOOD, "%s exported: %d row%s to %s", whatNames[s->what], rows, rows == 1 ? "" : "s", s->path);
   Ui_flash(ui, ST_GOOD, "%s: %d row%s written to %s", whatNames[s->what], rows, rows == 1 ? "" : "s", s->path);
   Dialog_close(ui);
}

/* ---- the dialog ---- */

void Export_key(Ui *ui, int ch) {
   ExportState *s = &ui->exporting;
   size_t n = strlen(s->path);
   switch (ch) {
   case 27: Dialog_close(ui); return;
   case '\t': case KEY_BTAB: case KEY_LEFT: case KEY_RIGHT: case KEY_UP: case KEY_DOWN:
      /* What is exported; the file name follows when it is still the default. */
      {
         char def[64];
         snprintf(def, sizeof def, "gemmtop-%s.", whatNames[s->what]);
         bool wasDefault = !strncmp(s->path, def, strlen(def));
         s->what ^= 1;
         if (wasDefault)
            defaultPath(ui);
      }
      s->confirm = false;
      s->error[0] = '\0';
      return;
   case '\n': case '\r': case KEY_ENTER: exportNow(ui); return;
   case KEY_BACKSPACE: case 127: case 8:
      while (n > 0 && ((unsigned char)s->path[n - 1] & 0xC0) == 0x80)
         n--;
      s->path[n ? n - 1 : 0] = '\0';
      s->confirm = false;
      return;
   case 21: /* Ctrl-U clears the name */
      s->path[0] = '\0';
      s->confirm = false;
      return;
   default: break;
   }
   if (ch < 32 || ch > 255 || ch == 127)
      return;
   if (n + 1 < sizeof s->path) {
      s->path[n] = (char)ch;
      s->path[n + 1] = '\0';
   }
   s->confirm = false;
}

void Export_draw(Ui *ui) {
   ExportState *s = &ui->exporting;
   Rect r = Layout_dialog(ui->paint.cols, ui->paint.rows, 78, 10);
   Paint_box(&ui->paint, r, "Export (e)");
   int x = r.x + 2, w = r.w - 4;
   char line[700];
   int tried = sweepOf(ui)->started ? sweepOf(ui)->done : 0;
   snprintf(line, sizeof line, "%s history (%d configuration%s)   %s sweep (%d tried)", s->what == 0 ? "(*)" : "( )",
            ui->hist.count, ui->hist.count == 1 ? "" : "s", s->what == 1 ? "(*)" : "( )", tried);
   Paint_text(&ui->paint, r.y + 1, x, 8, "what", ST_LABEL, true);
   Paint_text(&ui->paint, r.y + 1, x + 8, w - 8, line, ST_NORMAL, false);
   Paint_text(&ui->paint, r.y + 2, x, 8, "file", ST_CURSOR, true);
   snprintf(line, sizeof line, "%s_", s->path);
   const char *shown = line;
   while (Text_width(shown) > w - 8 && *shown) { /* the end of a long name: where one types */
      unsigned cp;
      int len = Text_decode(shown, strlen(shown), &cp);
      shown += len > 0 ? len : 1;
   }
   Paint_text(&ui->paint, r.y + 2, x + 8, w - 8, shown, ST_SELECT, true);
   Paint_text(&ui->paint, r.y + 3, x, w, "the ending chooses the format: .csv or .md (Markdown); relative to the folder "
                                "gemmtop started in", ST_DIM, false);
   if (s->error[0]) {
      char buf[1200];
      const char *wl[2];
      int n = Text_wrap(s->error, w, buf, sizeof buf, wl, 2);
      for (int i = 0; i < n; i++)
         Paint_text(&ui->paint, r.y + 5 + i, x, w, wl[i], ST_BAD, false);
   }
   Paint_text(&ui->paint, r.y + r.h - 2, x, w, "Tab: history or sweep  Enter writes  Esc cancels  Ctrl-U clears", ST_DIM,
             false);
}
