/* Class ladders side by side (laddermerge.h). */
#include "core/teach/laddermerge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/svg.h"
#include "base/textbuf.h"
#include "base/util.h"
#include "core/teach/ladder.h"

void LadderMerge_init(MergedLadder *m, const Lesson *lesson) {
   memset(m, 0, sizeof *m);
   Ladder l;
   Ladder_init(&l, lesson, "");
   Util_copy(m->title, sizeof m->title, l.title);
   m->nsteps = l.nrows;
   for (int i = 0; i < l.nrows; i++) {
      Util_copy(m->labels[i], sizeof m->labels[i], l.rows[i].label);
      Util_copy(m->names[i], sizeof m->names[i], l.rows[i].name);
   }
   Ladder_free(&l);
}

/* The columns of a ladder export that the merge reads (Ladder_csv's header names them). */
enum { COL_STEP, COL_LABEL, COL_GFLOPS, COL_EMULATED, COL_ABLATED, COL_REFUSED, COL_DEVICE, COL_DATE, NCOLS };
static const char *const colName[NCOLS] = {"step", "label", "gflops", "emulated", "ablated", "refused", "device", "date"};

/* The next line of text (its break cut off) into line; false at the end. */
static bool nextLine(const char **p, char *line, size_t len, bool *cut) {
   if (!**p)
      return false;
   size_t n = strcspn(*p, "\n");
   *cut = n >= len;
   size_t k = n < len ? n : len - 1;
   memcpy(line, *p, k);
   line[k] = '\0';
   if (k && line[k - 1] == '\r')
      line[k - 1] = '\0';
   *p += n + ((*p)[n] == '\n');
   return true;
}

static void nameOf(const char *path, char *out, size_t len) {
   const char *base = strrchr(path, '/');
   base = base ? base + 1 : path;
   Util_visible(base, out, len); /* a student names the file */
   size_t n = strlen(out);
   if (n > 4 && !strcmp(out + n - 4, ".csv"))
      out[n - 4] = '\0';
}

bool LadderMerge_add(MergedLadder *m, const char *text, size_t len, const char *path, char *err, size_t errlen) {
   if (m->ndev == LADDER_MERGE_MAX) {
      snprintf(err, errlen, "%s: at most %d ladders are merged at once", path, LADDER_MERGE_MAX);
      return false;
   }
   /* A student's file: what it holds reaches the lecturer's terminal, a course page and a
    * chart, so it is plain text or nothing (as presets and shapes are). */
   int bad;
   size_t at = Util_findControl(text, len, &bad);
   if (at < len) {
      char name[8];
      Util_controlName((unsigned char)text[at], name);
      if (text[at])
         snprintf(err, errlen, "%s:%d: control character %s: a ladder export is plain text (merging it would send "
                               "%s to the terminal, the page and the chart)", path, bad, name, name);
      else
         snprintf(err, errlen, "%s:%d: NUL byte: a ladder export is plain text (the file would have ended there)",
                  path, bad);
      return false;
   }
   const char *p = text;
   char line[4096];
   bool cut;
   char *f[64];
   int col[NCOLS];
   if (!nextLine(&p, line, sizeof line, &cut) || cut) {
      snprintf(err, errlen, "%s: empty, or its first line is not a ladder's header", path);
      return false;
   }
   int nf = Util_csvSplit(line, f, 64);
   for (int c = 0; c < NCOLS; c++) {
      col[c] = -1;
      for (int i = 0; i < nf; i++)
         if (!strcmp(f[i], colName[c]))
            col[c] = i;
      if (col[c] < 0) {
         snprintf(err, errlen, "%s:1: not a ladder export (E in a lesson): no '%s' column", path, colName[c]);
         return false;
      }
   }
   int need = 0; /* fields a row must have: up to the last column read */
   for (int c = 0; c < NCOLS; c++)
      need = col[c] + 1 > need ? col[c] + 1 : need;
   struct MergedDevice_ *d = &m->dev[m->ndev];
   memset(d, 0, sizeof *d);
   nameOf(path, d->name, sizeof d->name);
   int rows = 0, lineno = 1;
   while (nextLine(&p, line, sizeof line, &cut)) {
      lineno++;
      if (!line[0])
         continue;
      if (cut) {
         snprintf(err, errlen, "%s:%d: a line of over %zu characters", path, lineno, sizeof line - 1);
         return false;
      }
      nf = Util_csvSplit(line, f, 64);
      if (nf < need) {
         snprintf(err, errlen, "%s:%d: %d fields, the header has at least %d", path, lineno, nf, need);
         return false;
      }
      /* The step's name (an older export's label had its number too). */
      if (rows == m->nsteps || atoi(f[col[COL_STEP]]) != rows + 1 ||
          (strcmp(f[col[COL_LABEL]], m->names[rows]) && strcmp(f[col[COL_LABEL]], m->labels[rows]))) {
         snprintf(err, errlen, "%s:%d: step '%s' is not this lesson's step %d ('%s'): the file is another lesson's "
                  "ladder, or another version of it", path, lineno, f[col[COL_LABEL]], rows + 1,
                  rows < m->nsteps ? m->names[rows] : "none: it has fewer steps");
         return false;
      }
      char *end;
      const char *g = f[col[COL_GFLOPS]];
      double v = *g ? strtod(g, &end) : 0;
      if (*g && (*end || !(v > 0) || !isfinite(v))) {
         snprintf(err, errlen, "%s:%d: gflops '%s' is not a positive number", path, lineno, g);
         return false;
      }
      d->gflops[rows] = v;
      snprintf(d->mark[rows], sizeof d->mark[rows], "%s",
               f[col[COL_REFUSED]][0]                ? "refused"
               : !strcmp(f[col[COL_ABLATED]], "true")  ? "abl"
               : !strcmp(f[col[COL_EMULATED]], "true") ? "emu"
                                                       : "");
      if (rows == 0) {
         /* Refused rather than cut: a cut could split a character and shows less than was sent. */
         const struct {
            const char *name, *text;
            char *to;
            size_t size;
         } kept[] = {{"device", f[col[COL_DEVICE]], d->device, sizeof d->device},
                     {"date", f[col[COL_DATE]], d->date, sizeof d->date}};
         for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
            size_t n = strlen(kept[i].text);
            if (n >= kept[i].size) {
               snprintf(err, errlen, "%s:%d: the %s field is %zu bytes long; at most %zu fit", path, lineno,
                        kept[i].name, n, kept[i].size - 1);
               return false;
            }
            memcpy(kept[i].to, kept[i].text, n + 1);
         }
      }
      rows++;
   }
   if (rows != m->nsteps) {
      snprintf(err, errlen, "%s: %d steps, the lesson has %d: another lesson's ladder, or cut short", path, rows,
               m->nsteps);
      return false;
   }
   m->ndev++;
   return true;
}

double LadderMerge_vsFirst(const MergedLadder *m, int d, int step) {
   if (d < 0 || d >= m->ndev || step < 0 || step >= m->nsteps)
      return 0;
   const double first = m->dev[d].gflops[0], here = m->dev[d].gflops[step];
   if (!(first > 0) || !(here > 0) || m->dev[d].mark[0][0] || m->dev[d].mark[step][0])
      return 0;
   return here / first;
}

/* "12.3 (3.45x)", "12.3 abl", "refused", "-". */
static void cell(const MergedLadder *m, int d, int step, char *out, size_t len) {
   const double g = m->dev[d].gflops[step], x = LadderMerge_vsFirst(m, d, step);
   const char *mark = m->dev[d].mark[step];
   if (!strcmp(mark, "refused"))
      snprintf(out, len, "refused");
   else if (!(g > 0))
      snprintf(out, len, "-");
   else if (mark[0])
      snprintf(out, len, "%.1f %s", g, mark);
   else if (x > 0)
      snprintf(out, len, "%.1f (%.2fx)", g, x);
   else
      snprintf(out, len, "%.1f", g);
}

char *LadderMerge_markdown(const MergedLadder *m) {
   TextBuf t = {0};
   TextBuf_put(&t, "# ");
   TextBuf_putMarkdown(&t, m->title);
   TextBuf_put(&t, ": the class's ladders\n\n");
   TextBuf_put(&t, "Each column one export, GFLOPS and, in brackets, the speed-up over that device's own step 1 "
                   "(verified figures; `abl` ablated, `emu` emulated: never compared).\n\n");
   /* the names, devices and dates are the students' words */
   for (int d = 0; d < m->ndev; d++) {
      TextBuf_put(&t, "- **");
      TextBuf_putMarkdown(&t, m->dev[d].name);
      TextBuf_put(&t, "**: ");
      TextBuf_putMarkdown(&t, m->dev[d].device[0] ? m->dev[d].device : "a device not named");
      if (m->dev[d].date[0]) {
         TextBuf_put(&t, ", ");
         TextBuf_putMarkdown(&t, m->dev[d].date);
      }
      TextBuf_put(&t, "\n");
   }
   TextBuf_put(&t, "\n| step |");
   for (int d = 0; d < m->ndev; d++) {
      TextBuf_put(&t, " ");
      TextBuf_putMarkdown(&t, m->dev[d].name);
      TextBuf_put(&t, " |");
   }
   TextBuf_put(&t, "\n|---|");
   for (int d = 0; d < m->ndev; d++)
      TextBuf_put(&t, "---:|");
   TextBuf_put(&t, "\n");
   for (int i = 0; i < m->nsteps; i++) {
      TextBuf_put(&t, "| ");
      TextBuf_putMarkdown(&t, m->labels[i]);
      TextBuf_put(&t, " |");
      for (int d = 0; d < m->ndev; d++) {
         char c[64];
         cell(m, d, i, c, sizeof c);
         TextBuf_put(&t, " %s |", c);
      }
      TextBuf_put(&t, "\n");
   }
   return TextBuf_finish(&t);
}

char *LadderMerge_csv(const MergedLadder *m) {
   TextBuf t = {0};
   TextBuf_put(&t, "step,label,export,device,date,gflops,mark,speedup_own_first\n");
   for (int i = 0; i < m->nsteps; i++)
      for (int d = 0; d < m->ndev; d++) {
         TextBuf_put(&t, "%d,", i + 1);
         const char *fields[] = {m->names[i], m->dev[d].name, m->dev[d].device, m->dev[d].date};
         for (size_t k = 0; k < sizeof fields / sizeof *fields; k++) {
            TextBuf_putCsv(&t, fields[k]);
            TextBuf_put(&t, ",");
         }
         if (m->dev[d].gflops[i] > 0)
            TextBuf_put(&t, "%.3f", m->dev[d].gflops[i]);
         TextBuf_put(&t, ",%s,", m->dev[d].mark[i]);
         if (LadderMerge_vsFirst(m, d, i) > 0)
            TextBuf_put(&t, "%.4f", LadderMerge_vsFirst(m, d, i));
         TextBuf_put(&t, "\n");
      }
   return TextBuf_finish(&t);
}

/* A group of bars per step, one a device, each its speed-up over the device's own step 1 on
 * a shared axis; a step without a comparable figure says why in place of its bar. */
char *LadderMerge_svg(const MergedLadder *m) {
   static const char *const colour[] = {"#1f5fbf", "#d35400", "#27ae60", "#8e44ad", "#c0392b", "#16a085", "#7f8c8d",
                                        "#2c3e50"};
   const int ncol = (int)(sizeof colour / sizeof *colour);
   /* Every text measured (TextBuf_textWidth): the drawing holds them all. */
   double longest = TextBuf_textWidth("step", 13);
   for (int i = 0; i < m->nsteps; i++)
      longest = TextBuf_textWidth(m->labels[i], 13) > longest ? TextBuf_textWidth(m->labels[i], 13) : longest;
   const int label_w = 24 + (int)longest, bar_w = 420, bar_h = 12, gap = 10;
   const int group_h = (m->ndev ? m->ndev : 1) * bar_h + gap, top = 64 + 18 * m->ndev;
   double most = 1;
   for (int d = 0; d < m->ndev; d++)
      for (int i = 0; i < m->nsteps; i++)
         most = LadderMerge_vsFirst(m, d, i) > most ? LadderMerge_vsFirst(m, d, i) : most;
   const double step = TextBuf_tickStep(most);
   const double axis_max = step * (double)(long long)(most / step + 0.999999);
   double right = bar_w + 60, legend = TextBuf_textWidth(m->title, 16) * 1.15 + 20;
   char text[512];
   for (int d = 0; d < m->ndev; d++) {
      snprintf(text, sizeof text, "%s: %s", m->dev[d].name, m->dev[d].device[0] ? m->dev[d].device : "a device not named");
      legend = 28 + TextBuf_textWidth(text, 13) + 10 > legend ? 28 + TextBuf_textWidth(text, 13) + 10 : legend;
      for (int i = 0; i < m->nsteps; i++) {
         const double x = LadderMerge_vsFirst(m, d, i);
         char c[64];
         cell(m, d, i, c, sizeof c);
         if (x > 0)
            snprintf(text, sizeof text, "%.2fx", x);
         else
            snprintf(text, sizeof text, "%s: %s", m->dev[d].name, !strcmp(c, "-") ? "not measured" : c);
         const double end = (x > 0 ? bar_w * x / axis_max : 0) + 4 + TextBuf_textWidth(text, 10);
         right = end > right ? end : right;
      }
   }
   int width = label_w + (int)right + 16;
   if (legend > width)
      width = (int)legend;
   const int axis_y = top + group_h * (m->nsteps ? m->nsteps : 1), height = axis_y + 56;
   TextBuf t = {0};
   Svg_begin(&t, width, height, m->title);
   TextBuf_put(&t, "<text x=\"10\" y=\"42\" fill=\"#555\">the class's ladders: each device's speed-up over its "
                   "own step 1</text>\n");
   for (int d = 0; d < m->ndev; d++) {
      TextBuf_put(&t, "<rect x=\"10\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"28\" y=\"%d\">", 52 + 18 * d,
                  colour[d % ncol], 63 + 18 * d);
      TextBuf_putXml(&t, m->dev[d].name);
      TextBuf_put(&t, ": ");
      TextBuf_putXml(&t, m->dev[d].device[0] ? m->dev[d].device : "a device not named");
      TextBuf_put(&t, "</text>\n");
   }
   for (double v = 0; v <= axis_max * 1.000001; v += step) {
      const int x = label_w + (int)(bar_w * v / axis_max + 0.5);
      TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n<text x=\"%d\" y=\"%d\" "
                      "text-anchor=\"middle\" fill=\"#333\">%gx</text>\n",
                  x, top, x, axis_y, x, axis_y + 16, v);
   }
   TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", label_w, axis_y, label_w + bar_w,
               axis_y);
   TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">speed-up over the device's own "
                   "step 1 (verified figures)</text>\n",
               label_w + bar_w / 2, axis_y + 38);
   for (int i = 0; i < m->nsteps; i++) {
      const int y = top + i * group_h;
      TextBuf_put(&t, "<text x=\"10\" y=\"%d\">", y + group_h / 2 + 4);
      TextBuf_putXml(&t, m->labels[i]);
      TextBuf_put(&t, "</text>\n");
      for (int d = 0; d < m->ndev; d++) {
         const int by = y + d * bar_h;
         const double x = LadderMerge_vsFirst(m, d, i);
         char c[64];
         cell(m, d, i, c, sizeof c);
         if (x > 0) {
            const int w = (int)(bar_w * x / axis_max + 0.5) > 1 ? (int)(bar_w * x / axis_max + 0.5) : 1;
            TextBuf_put(&t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>", label_w, by, w,
                        bar_h - 2, colour[d % ncol]);
            TextBuf_putXml(&t, m->dev[d].name);
            TextBuf_put(&t, ": %s GFLOPS</title></rect>\n<text x=\"%d\" y=\"%d\" font-size=\"10\">%.2fx</text>\n", c,
                        label_w + w + 4, by + bar_h - 3, x);
         } else {
            TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#999\">", label_w + 4, by + bar_h - 3);
            TextBuf_putXml(&t, m->dev[d].name);
            TextBuf_put(&t, ": %s</text>\n", !strcmp(c, "-") ? "not measured" : c);
         }
      }
   }
   return Svg_finish(&t);
}
