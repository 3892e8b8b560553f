/* The ladder table and its exports: see ladder.h. */
#include "core/teach/ladder.h"

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
      /* the label from the step itself, not from r->name: gcc's -Wrestrict cannot tell two
       * fields of one row apart */
      if (*st->title) {
         snprintf(r->name, sizeof r->name, "%s: %s", st->preset, st->title);
         snprintf(r->label, sizeof r->label, "%d %s: %s", i + 1, st->preset, st->title);
      } else {
         snprintf(r->name, sizeof r->name, "%s", st->preset);
         snprintf(r->label, sizeof r->label, "%d %s", i + 1, st->preset);
      }
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

void Ladder_record(Ladder *l, int step, double gflops, double spread_pct, const char *config, bool emulated,
                   const char *ablation) {
   if (step < 0 || step >= l->nrows || !(gflops > 0))
      return;
   LadderRow *r = &l->rows[step];
   r->gflops = gflops;
   r->spread_pct = spread_pct > 0 ? spread_pct : 0;
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

int Ladder_realRow(const Ladder *l, int i) {
   if (i < 0 || i >= l->nrows || !l->rows[i].measured || !l->rows[i].ablated)
      return -1;
   for (int j = i - 1; j >= 0; j--) {
      const LadderRow *r = &l->rows[j];
      if (r->measured && !r->ablated && !r->emulated && !strcmp(r->config, l->rows[i].config))
         return j;
   }
   return -1;
}

double Ladder_vsReal(const Ladder *l, int i) {
   const int j = Ladder_realRow(l, i);
   return j >= 0 ? l->rows[i].gflops / l->rows[j].gflops : 0;
}

bool Ladder_withinSpread(const Ladder *l, int i, int j) {
   if (i < 0 || j < 0 || i == j || i >= l->nrows || j >= l->nrows || !l->rows[i].measured || !l->rows[j].measured ||
       !(l->rows[j].gflops > 0))
      return false;
   const double spread = l->rows[i].spread_pct > l->rows[j].spread_pct ? l->rows[i].spread_pct : l->rows[j].spread_pct;
   const double ratio = l->rows[i].gflops / l->rows[j].gflops;
   return ratio - 1 <= spread / 100 && 1 - ratio <= spread / 100;
}

/* A ratio of rows i and j as the exports give it: "1.01x", "~1.01x" within the spread. */
static void putRatioOf(TextBuf *t, const Ladder *l, double v, int i, int j, const char *approx) {
   if (v > 0)
      TextBuf_put(t, "%s%.2fx", Ladder_withinSpread(l, i, j) ? approx : "", v);
   else
      TextBuf_put(t, "-");
}

/* The configuration as the exports give it: with the ablation's switches. */
static void configText(const LadderRow *r, char *out, size_t len) {
   snprintf(out, len, "%s%s%s", *r->config ? r->config : "-", r->ablated ? ", ablate=" : "", r->ablation);
}

static const char *figureLabel(const LadderRow *r) {
   return r->ablated ? " (ablated)" : r->emulated ? " (emulated)" : "";
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
   TextBuf_put(&t, "Spread: the interquartile range of a step's launches over their median; a ratio marked "
               "\xe2\x89\x88 differs from 1 by less than the spread of the two figures, so those steps cannot be told "
               "apart here.\n\n");
   TextBuf_put(&t, "| step | GFLOPS | spread | vs previous | vs step 1 | %% of best | vs real kernel | source reported | "
           "configuration | limited by |\n");
   TextBuf_put(&t, "|---|---:|---:|---:|---:|---:|---:|---|---|---|\n");
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      TextBuf_put(&t, "| ");
      putMarkdownCell(&t, r->label);
      if (r->measured)
         TextBuf_put(&t, " | %.1f%s | %.0f%% | ", r->gflops, figureLabel(r), r->spread_pct);
      else if (r->refused[0]) {
         TextBuf_put(&t, " | refused: ");
         putMarkdownCell(&t, r->refused);
         TextBuf_put(&t, " | - | ");
      } else
         TextBuf_put(&t, " | not measured | - | ");
      putRatioOf(&t, l, Ladder_speedupPrevious(l, i), i, i - 1, "\xe2\x89\x88");
      TextBuf_put(&t, " | ");
      putRatioOf(&t, l, Ladder_speedupFirst(l, i), i, 0, "\xe2\x89\x88");
      if (Ladder_ranked(l, i))
         TextBuf_put(&t, " | %.1f%% | ", Ladder_percentOfBest(l, i));
      else
         TextBuf_put(&t, " | - | ");
      putRatioOf(&t, l, Ladder_vsReal(l, i), i, Ladder_realRow(l, i), "\xe2\x89\x88");
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
   TextBuf_put(&t, "step,label,gflops,spread_pct,emulated,ablated,refused,speedup_previous,previous_within_spread,"
           "speedup_first,first_within_spread,percent_of_best,vs_real,vs_real_within_spread,reference_gflops,"
           "reference,configuration,device,date,timing,limit\n");
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      /* The step is its own column: the label is the step's name, not its number again. */
      TextBuf_put(&t, "%d,", i + 1);
      TextBuf_putCsv(&t, r->name);
      if (r->measured)
         TextBuf_put(&t, ",%.3f,%.1f,%s,%s,", r->gflops, r->spread_pct, r->emulated ? "true" : "false",
                     r->ablated ? "true" : "false");
      else
         TextBuf_put(&t, ",,,,,");
      TextBuf_putCsv(&t, r->refused);
      TextBuf_put(&t, ",");
      const double ratios[3] = {Ladder_speedupPrevious(l, i), Ladder_speedupFirst(l, i), Ladder_vsReal(l, i)};
      const int against[3] = {i - 1, 0, Ladder_realRow(l, i)};
      for (int k = 0; k < 3; k++) {
         if (ratios[k] > 0)
            TextBuf_put(&t, "%.4f,%s", ratios[k], Ladder_withinSpread(l, i, against[k]) ? "true" : "false");
         else
            TextBuf_put(&t, ",");
         TextBuf_put(&t, ",");
         if (k == 1) {
            if (Ladder_ranked(l, i))
               TextBuf_put(&t, "%.2f", Ladder_percentOfBest(l, i));
            TextBuf_put(&t, ",");
         }
      }
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

bool Ladder_settled(int nlaunches, double total_ms, double spread_pct) {
   const bool enough = nlaunches >= LADDER_SETTLE_LAUNCHES || (nlaunches >= LADDER_SETTLE_MIN && total_ms >= LADDER_SETTLE_MS);
   const bool waited = nlaunches >= LADDER_SETTLE_WAIT_LAUNCHES ||
                       (nlaunches >= LADDER_SETTLE_MIN && total_ms >= LADDER_SETTLE_WAIT_MS);
   return (enough && spread_pct <= LADDER_SETTLE_SPREAD) || waited;
}

/* Splits text into lines of at most width pixels at px (words kept whole; a word wider than
 * a line has a line of its own); returns how many, each line's start and length in at/len. */
static int wrapPixels(const char *text, double px, double width, int at[], int len[], int max) {
   int n = 0, start = 0, last_space = -1;
   char line[1024];
   for (int i = 0;; i++) {
      const bool end = !text[i];
      if (end || text[i] == ' ') {
         int l = i - start < (int)sizeof line - 1 ? i - start : (int)sizeof line - 1;
         memcpy(line, text + start, (size_t)l);
         line[l] = '\0';
         if (TextBuf_textWidth(line, px) > width && last_space > start && n < max - 1) {
            at[n] = start, len[n++] = last_space - start;
            start = last_space + 1;
         }
         if (end) {
            at[n] = start, len[n++] = i - start;
            return n;
         }
         last_space = i;
      }
   }
}

/* Text lines at x from y, line_h apart, XML-escaped; returns the y after them. */
static int putLines(TextBuf *t, const char *text, double px, double width, int x, int y, int line_h, const char *attrs) {
   int at[16], len[16];
   const int n = wrapPixels(text, px, width, at, len, 16);
   for (int i = 0; i < n; i++, y += line_h) {
      char piece[1024];
      snprintf(piece, sizeof piece, "%.*s", len[i], text + at[i]);
      TextBuf_put(t, "<text x=\"%d\" y=\"%d\"%s>", x, y, attrs);
      TextBuf_putXml(t, piece);
      TextBuf_put(t, "</text>\n");
   }
   return y;
}

/* An axis of ticks from 0 to max (its scale: bar_w pixels for max) at y, labels above or below. */
static void putAxis(TextBuf *t, int x0, int bar_w, double max, double step, int y, int y_grid0, int y_grid1, bool above,
                    const char *grid) {
   for (double v = 0; v <= max * 1.000001; v += step) {
      int x = x0 + (int)(bar_w * v / max + 0.5);
      TextBuf_put(t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", x, y_grid0, x, y_grid1, grid);
      TextBuf_put(t, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">%g</text>\n", x, above ? y - 6 : y + 16,
                  v);
   }
   TextBuf_put(t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", x0, y, x0 + bar_w, y);
}

/* A horizontal bar per step on a GFLOPS axis (ticks, gridlines, labelled axes); the best
 * ranked step is darker; ablated and emulated steps are grey and labelled; unmeasured and
 * refused steps say so. The source's figures, another device's, get a thinner red bar under
 * ours on a scale of their own (the axis above), so the two ladders' shapes share one
 * picture whatever their devices. Every text is measured (TextBuf_textWidth) and the
 * drawing sized to hold it: on a slide nothing runs past its edge. */
char *Ladder_svg(const Ladder *l) {
   const double px = 13, small = 11;
   double longest = TextBuf_textWidth("step", px);
   bool refs = false, ablated = false;
   double scale = 0, ref_max = 0;
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      const double w = TextBuf_textWidth(r->label, px);
      longest = w > longest ? w : longest;
      refs = refs || r->reference_gflops > 0;
      ref_max = r->reference_gflops > ref_max ? r->reference_gflops : ref_max;
      ablated = ablated || (r->measured && r->ablated);
      if (r->measured && r->gflops > scale)
         scale = r->gflops;
   }
   const int label_w = 24 + (int)longest, bar_w = 420, row_h = refs ? 36 : 26;
   const double step = TextBuf_tickStep(scale > 0 ? scale : 1);
   const double axis_max = scale > 0 ? step * (double)(long long)(scale / step + 0.999999) : 1;
   const double ref_step = TextBuf_tickStep(ref_max > 0 ? ref_max : 1);
   const double ref_axis = ref_max > 0 ? ref_step * (double)(long long)(ref_max / ref_step + 0.999999) : 1;
   /* The texts after the bars: the widest decides the drawing's width. */
   double right = 0;
   char text[512];
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      double end = 0;
      if (r->measured) {
         snprintf(text, sizeof text, "%.1f%s", r->gflops, figureLabel(r));
         end = bar_w * r->gflops / axis_max + 6 + TextBuf_textWidth(text, px);
      } else {
         snprintf(text, sizeof text, "refused: %.57s%s", r->refused, strlen(r->refused) > 57 ? "..." : "");
         end = 6 + TextBuf_textWidth(r->refused[0] ? text : "not measured", px);
      }
      if (r->reference_gflops > 0) {
         snprintf(text, sizeof text, "source %g", r->reference_gflops);
         const double e = bar_w * r->reference_gflops / ref_axis + 6 + TextBuf_textWidth(text, small);
         end = e > end ? e : end;
      }
      right = end > right ? end : right;
   }
   const double axis_text = TextBuf_textWidth(ablated ? "GFLOPS measured here (verified, or for an ablated bar the "
                                                        "GEMM's flops over the ablated run's time; higher is faster)"
                                                      : "GFLOPS measured here (verified; higher is faster)",
                                              px) * 1.15;
   int width = label_w + (int)(right > bar_w ? right : bar_w) + 16;
   /* The axis's title centred under the bars, moved right where it would start past the edge. */
   int axis_cx = label_w + bar_w / 2;
   if (axis_cx - axis_text / 2 < 10)
      axis_cx = 10 + (int)(axis_text / 2 + 1);
   if (axis_cx + (int)(axis_text / 2) + 16 > width)
      width = axis_cx + (int)(axis_text / 2) + 16;
   if (width < 640)
      width = 640;
   /* The title and the line under it wrap to the width. */
   char sub[700];
   snprintf(sub, sizeof sub, "%s%s%s: verified GFLOPS per step; grey bars (ablated, emulated) are not ranked%s",
            *l->device ? l->device : "the device", *l->date ? ", " : "", l->date,
            refs ? "; red bars: what the source reported, on its own device and its own scale (above)" : "");
   int at[16], len[16];
   const int title_lines = wrapPixels(l->title, 16 * 1.15, width - 20, at, len, 16);
   const int sub_lines = wrapPixels(sub, px, width - 20, at, len, 16);
   const int head = 22 + 20 * title_lines + 17 * sub_lines;
   const int top = head + (refs ? 50 : 14), rows = l->nrows ? l->nrows : 1;
   const int axis_y = top + row_h * rows + 6, height = axis_y + 56;
   TextBuf t = {0};
   Svg_begin(&t, width, height, NULL);
   int y = putLines(&t, l->title, 16 * 1.15, width - 20, 10, 22, 20, " font-size=\"16\" font-weight=\"bold\"");
   putLines(&t, sub, px, width - 20, 10, y, 17, " fill=\"#555\"");
   TextBuf_put(&t, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">step</text>\n", top - 4);
   putAxis(&t, label_w, bar_w, axis_max, step, axis_y, top, axis_y, false, "#ddd");
   TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", label_w, top, label_w, axis_y);
   /* An ablated bar is not a GEMM's speed: the axis says what it is. */
   TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">GFLOPS measured here "
           "(verified%s; higher is faster)</text>\n",
       axis_cx, axis_y + 38, ablated ? ", or for an ablated bar the GEMM's flops over the ablated run's time" : "");
   if (refs) {
      putAxis(&t, label_w, bar_w, ref_axis, ref_step, top - 8, top - 8, top - 4, true, "#c0392b");
      TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#c0392b\" font-size=\"11\">the source's "
                      "GFLOPS (its device; this scale)</text>\n", label_w + bar_w / 2, top - 32);
   }
   for (int i = 0; i < l->nrows; i++) {
      const LadderRow *r = &l->rows[i];
      y = top + i * row_h;
      TextBuf_put(&t, "<text x=\"10\" y=\"%d\">", y + 17);
      TextBuf_putXml(&t, r->label);
      TextBuf_put(&t, "</text>\n");
      if (r->reference_gflops > 0) {
         int rw = (int)(bar_w * r->reference_gflops / ref_axis + 0.5);
         rw = rw > 1 ? rw : 1;
         TextBuf_put(&t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"7\" fill=\"#e08a7f\"><title>the source "
                         "reported %g GFLOPS</title></rect>\n", label_w, y + 24, rw, r->reference_gflops);
         TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#c0392b\">source %g</text>\n",
                     label_w + rw + 6, y + 31, r->reference_gflops);
      }
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
      const char *fill = !Ladder_ranked(l, i) ? "#bbbbbb" : r->gflops >= bestGflops(l) ? "#1f5fbf" : "#6a9fe6";
      TextBuf_put(&t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", label_w, y + 5, w,
                  refs ? 16 : row_h - 8, fill);
      TextBuf_put(&t, "<text x=\"%d\" y=\"%d\">%.1f%s</text>\n", label_w + w + 6, y + 17, r->gflops, figureLabel(r));
   }
   return Svg_finish(&t);
}
