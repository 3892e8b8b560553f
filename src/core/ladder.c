/* The ladder table and its exports: see ladder.h. */
#include "core/ladder.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

void Ladder_init(Ladder *l, const Lesson *lesson, const char *device) {
   memset(l, 0, sizeof *l);
   Util_copy(l->title, sizeof l->title, lesson->title);
   Util_copy(l->device, sizeof l->device, device ? device : "");
   l->nrows = lesson->nsteps;
   for (int i = 0; i < lesson->nsteps; i++) {
      const LessonStep *st = &lesson->steps[i];
      LadderRow *r = &l->rows[i];
      if (*st->title)
         snprintf(r->label, sizeof r->label, "%d %s: %s", i + 1, st->preset, st->title);
      else
         snprintf(r->label, sizeof r->label, "%d %s", i + 1, st->preset);
      r->reference_gflops = st->reference_gflops;
      Util_copy(r->reference, sizeof r->reference, st->reference);
   }
}

void Ladder_record(Ladder *l, int step, double gflops, const char *config, bool emulated) {
   if (step < 0 || step >= l->nrows || !(gflops > 0))
      return;
   LadderRow *r = &l->rows[step];
   r->gflops = gflops;
   r->measured = true;
   r->emulated = emulated;
   Util_copy(r->config, sizeof r->config, config ? config : "");
}

double Ladder_speedupPrevious(const Ladder *l, int i) {
   if (i <= 0 || i >= l->nrows || !l->rows[i].measured || !l->rows[i - 1].measured)
      return 0;
   return l->rows[i].gflops / l->rows[i - 1].gflops;
}

double Ladder_speedupFirst(const Ladder *l, int i) {
   if (i < 0 || i >= l->nrows || !l->rows[i].measured || !l->rows[0].measured)
      return 0;
   return l->rows[i].gflops / l->rows[0].gflops;
}

static double bestGflops(const Ladder *l) {
   double best = 0;
   for (int i = 0; i < l->nrows; i++)
      if (l->rows[i].measured && l->rows[i].gflops > best)
         best = l->rows[i].gflops;
   return best;
}

double Ladder_percentOfBest(const Ladder *l, int i) {
   double best = bestGflops(l);
   if (i < 0 || i >= l->nrows || !l->rows[i].measured || best <= 0)
      return 0;
   return 100.0 * l->rows[i].gflops / best;
}

/* A growing text: every export appends through this, and a failed allocation makes the
 * whole export NULL rather than a cut text. */
typedef struct {
   char *s;
   size_t len, cap;
   bool failed;
} Text;

static void put(Text *t, const char *fmt, ...) {
   if (t->failed)
      return;
   for (;;) {
      va_list ap;
      va_start(ap, fmt);
      int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
      va_end(ap);
      if (n < 0) {
         t->failed = true;
         return;
      }
      if (t->s && t->len + (size_t)n < t->cap) {
         t->len += (size_t)n;
         return;
      }
      size_t ncap = (t->cap ? t->cap * 2 : 1024) + (size_t)n;
      char *ns = realloc(t->s, ncap);
      if (!ns) {
         t->failed = true;
         return;
      }
      t->s = ns;
      t->cap = ncap;
   }
}

static char *finish(Text *t) {
   if (t->failed) {
      free(t->s);
      return NULL;
   }
   return t->s;
}

static void putRatio(Text *t, double v, const char *none) {
   if (v > 0)
      put(t, "%.2fx", v);
   else
      put(t, "%s", none);
}

/* Markdown cells: a '|' would end the cell early. */
static void putMarkdownCell(Text *t, const char *s) {
   for (; *s; s++)
      put(t, *s == '|' ? "\\|" : "%c", *s);
}

char *Ladder_markdown(const Ladder *l) {
   Text t = {0};
   put(&t, "## ");
   putMarkdownCell(&t, l->title);
   put(&t, "\n\n");
   if (*l->device)
      put(&t, "Device: %s\n\n", l->device);
   put(&t, "| step | GFLOPS | vs previous | vs step 1 | %% of best | source reported | configuration |\n");
   put(&t, "|---|---:|---:|---:|---:|---|---|\n");
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      put(&t, "| ");
      putMarkdownCell(&t, r->label);
      if (r->measured)
         put(&t, " | %.1f%s | ", r->gflops, r->emulated ? " (emulated)" : "");
      else
         put(&t, " | not measured | ");
      putRatio(&t, Ladder_speedupPrevious(l, i), "-");
      put(&t, " | ");
      putRatio(&t, Ladder_speedupFirst(l, i), "-");
      if (r->measured)
         put(&t, " | %.1f%% | ", Ladder_percentOfBest(l, i));
      else
         put(&t, " | - | ");
      putMarkdownCell(&t, *r->reference ? r->reference : "-");
      put(&t, " | ");
      putMarkdownCell(&t, *r->config ? r->config : "-");
      put(&t, " |\n");
   }
   return finish(&t);
}

/* RFC 4180: a field with a comma, quote or newline is quoted, quotes doubled. */
static void putCsvField(Text *t, const char *s) {
   if (!strpbrk(s, ",\"\n\r")) {
      put(t, "%s", s);
      return;
   }
   put(t, "\"");
   for (; *s; s++)
      put(t, *s == '"' ? "\"\"" : "%c", *s);
   put(t, "\"");
}

char *Ladder_csv(const Ladder *l) {
   Text t = {0};
   put(&t, "step,label,gflops,emulated,speedup_previous,speedup_first,percent_of_best,reference_gflops,reference,"
           "configuration\n");
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      put(&t, "%d,", i + 1);
      putCsvField(&t, r->label);
      if (r->measured)
         put(&t, ",%.3f,%s,", r->gflops, r->emulated ? "true" : "false");
      else
         put(&t, ",,,");
      double sp = Ladder_speedupPrevious(l, i), sf = Ladder_speedupFirst(l, i);
      if (sp > 0)
         put(&t, "%.4f", sp);
      put(&t, ",");
      if (sf > 0)
         put(&t, "%.4f", sf);
      put(&t, ",");
      if (r->measured)
         put(&t, "%.2f", Ladder_percentOfBest(l, i));
      put(&t, ",");
      if (r->reference_gflops > 0)
         put(&t, "%.3f", r->reference_gflops);
      put(&t, ",");
      putCsvField(&t, r->reference);
      put(&t, ",");
      putCsvField(&t, r->config);
      put(&t, "\n");
   }
   return finish(&t);
}

static void putXml(Text *t, const char *s) {
   for (; *s; s++) {
      switch (*s) {
      case '&': put(t, "&amp;"); break;
      case '<': put(t, "&lt;"); break;
      case '>': put(t, "&gt;"); break;
      case '"': put(t, "&quot;"); break;
      default: put(t, "%c", *s);
      }
   }
}

/* A horizontal bar per step, longest = the best step; unmeasured steps say so. Sized in
 * plain pixels so a browser shows it as is. */
char *Ladder_svg(const Ladder *l) {
   const int label_w = 330, bar_w = 420, row_h = 26, top = 56, width = label_w + bar_w + 150;
   const int height = top + row_h * (l->nrows ? l->nrows : 1) + 20;
   double best = bestGflops(l);
   Text t = {0};
   put(&t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
   put(&t, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
           "font-family=\"sans-serif\" font-size=\"13\">\n", width, height, width, height);
   put(&t, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"10\" y=\"22\" font-size=\"16\" "
           "font-weight=\"bold\">");
   putXml(&t, l->title);
   put(&t, "</text>\n<text x=\"10\" y=\"42\" fill=\"#555\">");
   putXml(&t, *l->device ? l->device : "GFLOPS per step");
   put(&t, " (verified GFLOPS)</text>\n");
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      int y = top + i * row_h;
      put(&t, "<text x=\"10\" y=\"%d\">", y + 17);
      putXml(&t, r->label);
      put(&t, "</text>\n");
      if (!r->measured) {
         put(&t, "<text x=\"%d\" y=\"%d\" fill=\"#999\">not measured</text>\n", label_w, y + 17);
         continue;
      }
      int w = best > 0 ? (int)(bar_w * r->gflops / best + 0.5) : 0;
      put(&t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", label_w, y + 4, w > 1 ? w : 1,
          row_h - 8, r->emulated ? "#bbbbbb" : "#3b7dd8");
      put(&t, "<text x=\"%d\" y=\"%d\">%.1f%s</text>\n", label_w + (w > 1 ? w : 1) + 6, y + 17, r->gflops,
          r->emulated ? " (emulated)" : "");
   }
   put(&t, "</svg>\n");
   return finish(&t);
}
