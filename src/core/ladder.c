/* The ladder table and its exports: see ladder.h. */
#include "core/ladder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/svg.h"
#include "base/textbuf.h"
#include "base/util.h"

void Ladder_init(Ladder *l, const Lesson *lesson, const char *device) {
   memset(l, 0, sizeof *l);
   Util_copy(l->title, sizeof l->title, lesson->title);
   Util_copy(l->device, sizeof l->device, device ? device : "");
   snprintf(l->method, sizeof l->method,
            "each figure the median of a step's first %d device-timed launches after the warm-up (or of %d or more "
            "over %.0f s), kept once settled; verified unless ablated",
            LADDER_SETTLE_LAUNCHES, LADDER_SETTLE_MIN, LADDER_SETTLE_MS / 1000);
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
      r->notes = st->notes ? strdup(st->notes) : NULL; /* out of memory: the export has no notes */
   }
}

void Ladder_free(Ladder *l) {
   for (int i = 0; i < l->nrows; i++) {
      free(l->rows[i].notes);
      l->rows[i].notes = NULL;
   }
}

void Ladder_record(Ladder *l, int step, double gflops, const char *config, bool emulated, const char *ablation) {
   if (step < 0 || step >= l->nrows || !(gflops > 0))
      return;
   LadderRow *r = &l->rows[step];
   r->gflops = gflops;
   r->measured = true;
   r->emulated = emulated;
   r->ablated = ablation && *ablation;
   Util_copy(r->ablation, sizeof r->ablation, r->ablated ? ablation : "");
   r->refused[0] = r->limit[0] = '\0';
   Util_copy(r->config, sizeof r->config, config ? config : "");
}

void Ladder_setLimit(Ladder *l, int step, const char *limit) {
   if (step >= 0 && step < l->nrows)
      Util_copy(l->rows[step].limit, sizeof l->rows[step].limit, limit ? limit : "");
}

int Ladder_previousLimit(const Ladder *l, int step) {
   for (int i = step - 1; i >= 0; i--)
      if (l->rows[i].measured && l->rows[i].limit[0])
         return i;
   return -1;
}

void Ladder_refuse(Ladder *l, int step, const char *why, const char *config) {
   if (step < 0 || step >= l->nrows)
      return;
   LadderRow *r = &l->rows[step];
   r->measured = r->emulated = r->ablated = false;
   r->ablation[0] = '\0';
   r->gflops = 0;
   Util_copy(r->refused, sizeof r->refused, why && *why ? why : "refused");
   Util_copy(r->config, sizeof r->config, config ? config : "");
}

bool Ladder_ranked(const Ladder *l, int i) {
   return i >= 0 && i < l->nrows && l->rows[i].measured && !l->rows[i].emulated && !l->rows[i].ablated;
}

int Ladder_done(const Ladder *l) {
   int n = 0;
   for (int i = 0; i < l->nrows; i++)
      n += l->rows[i].measured || l->rows[i].refused[0];
   return n;
}

double Ladder_speedupPrevious(const Ladder *l, int i) {
   if (i <= 0 || !Ladder_ranked(l, i) || !Ladder_ranked(l, i - 1))
      return 0;
   return l->rows[i].gflops / l->rows[i - 1].gflops;
}

double Ladder_speedupFirst(const Ladder *l, int i) {
   if (!Ladder_ranked(l, i) || !Ladder_ranked(l, 0))
      return 0;
   return l->rows[i].gflops / l->rows[0].gflops;
}

static double bestGflops(const Ladder *l) {
   double best = 0;
   for (int i = 0; i < l->nrows; i++)
      if (Ladder_ranked(l, i) && l->rows[i].gflops > best)
         best = l->rows[i].gflops;
   return best;
}

double Ladder_percentOfBest(const Ladder *l, int i) {
   double best = bestGflops(l);
   if (!Ladder_ranked(l, i) || best <= 0)
      return 0;
   return 100.0 * l->rows[i].gflops / best;
}

/* " (emulated)", " (ablated)" or "": how an unranked figure is labelled everywhere. */
double Ladder_vsReal(const Ladder *l, int i) {
   if (i < 0 || i >= l->nrows || !l->rows[i].measured || !l->rows[i].ablated)
      return 0;
   for (int j = i - 1; j >= 0; j--) {
      const LadderRow *r = &l->rows[j];
      if (r->measured && !r->ablated && !r->emulated && !strcmp(r->config, l->rows[i].config))
         return l->rows[i].gflops / r->gflops;
   }
   return 0;
}

/* The configuration as the exports give it: with the ablation's switches. */
static void configText(const LadderRow *r, char *out, size_t len) {
   snprintf(out, len, "%s%s%s", *r->config ? r->config : "-", r->ablated ? ", ablate=" : "", r->ablation);
}

static const char *figureLabel(const LadderRow *r) {
   return r->ablated ? " (ablated)" : r->emulated ? " (emulated)" : "";
}

static void putRatio(TextBuf *t, double v, const char *none) {
   if (v > 0)
      TextBuf_put(t, "%.2fx", v);
   else
      TextBuf_put(t, "%s", none);
}

/* Markdown cells: a '|' would end the cell early. */
static void putMarkdownCell(TextBuf *t, const char *s) {
   for (; *s; s++)
      TextBuf_put(t, *s == '|' ? "\\|" : "%c", *s);
}

char *Ladder_markdown(const Ladder *l) {
   TextBuf t = {0};
   TextBuf_put(&t, "## ");
   putMarkdownCell(&t, l->title);
   TextBuf_put(&t, "\n\n");
   if (*l->device)
      TextBuf_put(&t, "Device: %s\n\n", l->device);
   if (*l->date)
      TextBuf_put(&t, "Measured: %s\n\n", l->date);
   TextBuf_put(&t, "Timing: %s\n\n", l->method);
   TextBuf_put(&t, "| step | GFLOPS | vs previous | vs step 1 | %% of best | vs real kernel | source reported | "
           "configuration | limited by |\n");
   TextBuf_put(&t, "|---|---:|---:|---:|---:|---:|---|---|---|\n");
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      TextBuf_put(&t, "| ");
      putMarkdownCell(&t, r->label);
      if (r->measured)
         TextBuf_put(&t, " | %.1f%s | ", r->gflops, figureLabel(r));
      else if (r->refused[0]) {
         TextBuf_put(&t, " | refused: ");
         putMarkdownCell(&t, r->refused);
         TextBuf_put(&t, " | ");
      } else
         TextBuf_put(&t, " | not measured | ");
      putRatio(&t, Ladder_speedupPrevious(l, i), "-");
      TextBuf_put(&t, " | ");
      putRatio(&t, Ladder_speedupFirst(l, i), "-");
      if (Ladder_ranked(l, i))
         TextBuf_put(&t, " | %.1f%% | ", Ladder_percentOfBest(l, i));
      else
         TextBuf_put(&t, " | - | ");
      putRatio(&t, Ladder_vsReal(l, i), "-");
      TextBuf_put(&t, " | ");
      putMarkdownCell(&t, *r->reference ? r->reference : "-");
      TextBuf_put(&t, " | ");
      char config[400];
      configText(r, config, sizeof config);
      putMarkdownCell(&t, config);
      TextBuf_put(&t, " | ");
      putMarkdownCell(&t, r->measured && r->limit[0] ? r->limit : "-");
      TextBuf_put(&t, " |\n");
   }
   bool notes = false;
   for (int i = 0; i < l->nrows; i++)
      if (l->rows[i].notes) {
         TextBuf_put(&t, "%s- **", notes ? "" : "\n### Speaker notes\n\n");
         putMarkdownCell(&t, l->rows[i].label);
         TextBuf_put(&t, "**: ");
         for (const char *c = l->rows[i].notes; *c; c++)
            TextBuf_put(&t, "%c", *c == '\n' ? ' ' : *c);
         TextBuf_put(&t, "\n");
         notes = true;
      }
   return TextBuf_finish(&t);
}

char *Ladder_csv(const Ladder *l) {
   TextBuf t = {0};
   TextBuf_put(&t, "step,label,gflops,emulated,ablated,refused,speedup_previous,speedup_first,percent_of_best,"
           "vs_real,reference_gflops,reference,configuration,device,date,timing,limit\n");
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      TextBuf_put(&t, "%d,", i + 1);
      TextBuf_putCsv(&t, r->label);
      if (r->measured)
         TextBuf_put(&t, ",%.3f,%s,%s,", r->gflops, r->emulated ? "true" : "false", r->ablated ? "true" : "false");
      else
         TextBuf_put(&t, ",,,,");
      TextBuf_putCsv(&t, r->refused);
      TextBuf_put(&t, ",");
      double sp = Ladder_speedupPrevious(l, i), sf = Ladder_speedupFirst(l, i);
      if (sp > 0)
         TextBuf_put(&t, "%.4f", sp);
      TextBuf_put(&t, ",");
      if (sf > 0)
         TextBuf_put(&t, "%.4f", sf);
      TextBuf_put(&t, ",");
      if (Ladder_ranked(l, i))
         TextBuf_put(&t, "%.2f", Ladder_percentOfBest(l, i));
      TextBuf_put(&t, ",");
      if (Ladder_vsReal(l, i) > 0)
         TextBuf_put(&t, "%.4f", Ladder_vsReal(l, i));
      TextBuf_put(&t, ",");
      if (r->reference_gflops > 0)
         TextBuf_put(&t, "%.3f", r->reference_gflops);
      TextBuf_put(&t, ",");
      TextBuf_putCsv(&t, r->reference);
      TextBuf_put(&t, ",");
      char config[400];
      configText(r, config, sizeof config);
      TextBuf_putCsv(&t, r->measured || r->refused[0] || *r->config ? config : "");
      TextBuf_put(&t, ",");
      TextBuf_putCsv(&t, l->device);
      TextBuf_put(&t, ",");
      TextBuf_putCsv(&t, l->date);
      TextBuf_put(&t, ",");
      TextBuf_putCsv(&t, l->method);
      TextBuf_put(&t, ",");
      TextBuf_putCsv(&t, r->measured ? r->limit : "");
      TextBuf_put(&t, "\n");
   }
   return TextBuf_finish(&t);
}

double Ladder_expectedSeconds(const Ladder *l, int step, double flops, int *basis) {
   for (int i = (step < l->nrows ? step : l->nrows) - 1; i >= 0; i--)
      if (l->rows[i].measured && l->rows[i].gflops > 0) {
         *basis = i;
         return flops / (l->rows[i].gflops * 1e9);
      }
   *basis = -1;
   return 0;
}

bool Ladder_settled(int nlaunches, double total_ms) {
   return nlaunches >= LADDER_SETTLE_LAUNCHES || (nlaunches >= LADDER_SETTLE_MIN && total_ms >= LADDER_SETTLE_MS);
}

/* A horizontal bar per step on a GFLOPS axis (ticks, gridlines, labelled axes); the best
 * ranked step is darker; ablated and emulated steps are grey and labelled; unmeasured and
 * refused steps say so. Sized in plain pixels so a browser shows it as is. */
char *Ladder_svg(const Ladder *l) {
   /* The label column as wide as the longest label (about 7.2 px a character at 13 px). */
   size_t longest = 20;
   for (int i = 0; i < l->nrows; i++)
      longest = strlen(l->rows[i].label) > longest ? strlen(l->rows[i].label) : longest;
   const int label_w = 24 + (int)(7.2 * (double)longest), bar_w = 420, row_h = 26, top = 64;
   const int width = label_w + bar_w + 170;
   const int rows = l->nrows ? l->nrows : 1, axis_y = top + row_h * rows + 6, height = axis_y + 56;
   double best = bestGflops(l), scale = 0;
   for (int i = 0; i < l->nrows; i++)
      if (l->rows[i].measured && l->rows[i].gflops > scale)
         scale = l->rows[i].gflops;
   double step = TextBuf_tickStep(scale > 0 ? scale : 1);
   double axis_max = scale > 0 ? step * (double)(long long)(scale / step + 0.999999) : 1;
   TextBuf t = {0};
   Svg_begin(&t, width, height, l->title);
   TextBuf_put(&t, "<text x=\"10\" y=\"42\" fill=\"#555\">");
   TextBuf_putXml(&t, *l->device ? l->device : "the device");
   if (*l->date) {
      TextBuf_put(&t, ", ");
      TextBuf_putXml(&t, l->date);
   }
   TextBuf_put(&t, ": verified GFLOPS per step; grey bars (ablated, emulated) are not ranked</text>\n");
   TextBuf_put(&t, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">step</text>\n", top - 4);
   for (double v = 0; v <= axis_max * 1.000001; v += step) {
      int x = label_w + (int)(bar_w * v / axis_max + 0.5);
      TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, top, x, axis_y);
      TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">%g</text>\n", x, axis_y + 16, v);
   }
   TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", label_w, axis_y, label_w + bar_w, axis_y);
   TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", label_w, top, label_w, axis_y);
   bool ablated = false;
   for (int i = 0; i < l->nrows; i++)
      ablated = ablated || (l->rows[i].measured && l->rows[i].ablated);
   /* An ablated bar is not a GEMM's speed: the axis says what it is. */
   TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">GFLOPS (verified%s; higher is "
           "faster)</text>\n",
       label_w + bar_w / 2, axis_y + 38,
       ablated ? ", or for an ablated bar the GEMM's flops over the ablated run's time" : "");
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      int y = top + i * row_h;
      TextBuf_put(&t, "<text x=\"10\" y=\"%d\">", y + 17);
      TextBuf_putXml(&t, r->label);
      TextBuf_put(&t, "</text>\n");
      if (!r->measured) {
         TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" fill=\"#999\">", label_w + 6, y + 17);
         if (r->refused[0]) {
            /* The reason: its start on the chart, whole in a tooltip and in the tables. */
            char start[64];
            snprintf(start, sizeof start, "%.57s%s", r->refused, strlen(r->refused) > 57 ? "..." : "");
            TextBuf_put(&t, "<title>");
            TextBuf_putXml(&t, r->refused);
            TextBuf_put(&t, "</title>refused: ");
            TextBuf_putXml(&t, start);
         } else
            TextBuf_put(&t, "not measured");
         TextBuf_put(&t, "</text>\n");
         continue;
      }
      int w = (int)(bar_w * r->gflops / axis_max + 0.5);
      w = w > 1 ? w : 1;
      const char *fill = !Ladder_ranked(l, i) ? "#bbbbbb" : r->gflops >= best ? "#1f5fbf" : "#6a9fe6";
      TextBuf_put(&t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", label_w, y + 4, w, row_h - 8, fill);
      TextBuf_put(&t, "<text x=\"%d\" y=\"%d\">%.1f%s", label_w + w + 6, y + 17, r->gflops, figureLabel(r));
      /* The source's figure beside the measured one: a mark on the bar's row when it is on
       * the scale, else in words (a GPU's figure beside a laptop's). */
      if (r->reference_gflops > 0)
         TextBuf_put(&t, "; source %g%s", r->reference_gflops, r->reference_gflops > axis_max ? " (off the scale)" : "");
      TextBuf_put(&t, "</text>\n");
      if (r->reference_gflops > 0 && r->reference_gflops <= axis_max) {
         int rx = label_w + (int)(bar_w * r->reference_gflops / axis_max + 0.5);
         TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#c0392b\" stroke-width=\"2\"><title>the "
                 "source reported %g GFLOPS</title></line>\n",
             rx, y + 2, rx, y + row_h - 2, r->reference_gflops);
      }
   }
   return Svg_finish(&t);
}
