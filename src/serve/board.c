#include "serve/board.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/textbuf.h"
#include "base/util.h"

bool Board_parseFormat(const char *word, BoardFormat *out) {
   static const char *const names[] = {"table", "csv", "json", "html"};
   for (int i = 0; i < 4; i++)
      if (!strcmp(word, names[i])) {
         *out = (BoardFormat)i;
         return true;
      }
   return false;
}

static int byFigure(const void *a, const void *b) {
   const BoardRow *x = a, *y = b;
   bool fx = isfinite(x->gflops), fy = isfinite(y->gflops);
   if (fx != fy)
      return fx ? -1 : 1;
   if (fx && x->gflops != y->gflops)
      return x->gflops > y->gflops ? -1 : 1;
   return x->time < y->time ? -1 : x->time > y->time; /* a tie: who got there first */
}

BoardRow *Board_rows(const Submission *subs, int nsubs, const BoardViewer *viewer, int *n) {
   *n = 0;
   BoardRow *rows = calloc((size_t)(nsubs ? nsubs : 1), sizeof *rows);
   uid_t *who = calloc((size_t)(nsubs ? nsubs : 1), sizeof *who);
   if (!rows || !who) {
      free(rows);
      free(who);
      return NULL;
   }
   /* Students in order of first submission: that order numbers them when names are hidden. */
   for (int i = 0; i < nsubs; i++) {
      const Submission *s = &subs[i];
      int r = 0;
      while (r < *n && who[r] != s->uid)
         r++;
      BoardRow *row = &rows[r];
      if (r == *n) {
         who[(*n)++] = s->uid;
         row->uid = s->uid;
         row->gflops = row->pct = row->max_rel_err = NAN;
         row->you = s->uid == viewer->uid;
         if (viewer->lecturer || viewer->names_shown || row->you)
            Util_visible(s->user, row->name, sizeof row->name); /* records kept before rosters refused controls */
         else
            snprintf(row->name, sizeof row->name, "student %d", r + 1);
      }
      row->submissions++;
      if (strcmp(s->state, "judged") != 0 || !s->verified || !isfinite(s->gflops))
         continue;
      row->verified++;
      if (!isfinite(row->gflops) || s->gflops > row->gflops) {
         row->gflops = s->gflops;
         row->pct = s->pct;
         row->max_rel_err = s->max_rel_err;
         Util_visible(s->kernel, row->kernel, sizeof row->kernel);
         row->id = s->id;
         row->time = s->time;
      }
   }
   free(who);
   qsort(rows, (size_t)*n, sizeof *rows, byFigure);
   for (int i = 0; i < *n; i++)
      rows[i].rank = isfinite(rows[i].gflops) ? i + 1 : 0;
   return rows;
}

void Board_ladderBest(const Submission *subs, int nsubs, const BoardLadder *ladder, const Submission **best) {
   for (int i = 0; ladder && i < ladder->nsteps; i++) {
      best[i] = NULL;
      for (int j = 0; j < nsubs; j++) {
         const Submission *s = &subs[j];
         if (strcmp(s->state, "judged") != 0 || !s->verified || !isfinite(s->gflops) || s->step != ladder->steps[i].step ||
             strcmp(s->ladder, ladder->name) != 0)
            continue;
         if (!best[i] || s->gflops > best[i]->gflops)
            best[i] = s;
      }
   }
}

/* The name this viewer sees for uid: its row's. */
static const char *nameOf(const BoardRow *rows, int n, uid_t uid) {
   for (int i = 0; i < n; i++)
      if (rows[i].uid == uid)
         return rows[i].name;
   return "?";
}

/* v in fmt, or a dash as wide as fmt's field ("%12.2f": 12) when it is unknown. */
static void putFigure(TextBuf *t, const char *fmt, double v) {
   if (isfinite(v))
      TextBuf_put(t, fmt, v);
   else
      TextBuf_put(t, "%*s", atoi(fmt + 1), "-");
}

static void renderTable(TextBuf *t, const Assignment *a, const BoardRow *rows, int n) {
   TextBuf_put(t, "Board of %s (%s, %s%s): %d student%s\n", a->name, a->sizes, a->precision,
               a->open ? "" : ", closed", n, n == 1 ? "" : "s");
   TextBuf_put(t, "%4s  %-24s %12s %9s %11s %-20s\n", "rank", "student", "GFLOPS", "% vendor", "submitted", "kernel");
   for (int i = 0; i < n; i++) {
      const BoardRow *r = &rows[i];
      char rank[8], name[80];
      snprintf(rank, sizeof rank, r->rank ? "%d" : "-", r->rank);
      snprintf(name, sizeof name, "%s%s", r->name, r->you ? " (you)" : "");
      TextBuf_put(t, "%4s  %-24s ", rank, name);
      putFigure(t, "%12.2f", r->gflops);
      TextBuf_put(t, " ");
      putFigure(t, "%8.1f%%", r->pct);
      TextBuf_put(t, " %5d (%d ok) %-20s\n", r->submissions, r->verified, r->kernel[0] ? r->kernel : "-");
   }
   if (n == 0)
      TextBuf_put(t, "(no submissions yet)\n");
}

static void renderCsv(TextBuf *t, const BoardRow *rows, int n) {
   TextBuf_put(t, "rank,student,you,gflops,pct_vendor,max_rel_err,submissions,verified,kernel\n");
   for (int i = 0; i < n; i++) {
      const BoardRow *r = &rows[i];
      TextBuf_put(t, "%d,\"%s\",%d,", r->rank, r->name, r->you);
      if (isfinite(r->gflops))
         TextBuf_put(t, "%.6g", r->gflops);
      TextBuf_put(t, ",");
      if (isfinite(r->pct))
         TextBuf_put(t, "%.4g", r->pct);
      TextBuf_put(t, ",");
      if (isfinite(r->max_rel_err))
         TextBuf_put(t, "%.3g", r->max_rel_err);
      TextBuf_put(t, ",%d,%d,%s\n", r->submissions, r->verified, r->kernel);
   }
}

static void addNumber(cJSON *o, const char *key, double v) {
   if (isfinite(v))
      cJSON_AddNumberToObject(o, key, v);
   else
      cJSON_AddNullToObject(o, key);
}

static bool renderLadder(TextBuf *t, const BoardLadder *ladder, const Submission *subs, int nsubs, const BoardRow *rows,
                         int n, BoardFormat format, cJSON *json);

static bool renderJson(TextBuf *t, const Assignment *a, const BoardRow *rows, int n, const BoardLadder *ladder,
                       const Submission *subs, int nsubs) {
   cJSON *root = cJSON_CreateObject();
   cJSON *list = root ? cJSON_AddArrayToObject(root, "rows") : NULL;
   if (!list) {
      cJSON_Delete(root);
      return false;
   }
   cJSON_AddStringToObject(root, "assignment", a->name);
   cJSON_AddStringToObject(root, "sizes", a->sizes);
   cJSON_AddStringToObject(root, "precision", a->precision);
   cJSON_AddBoolToObject(root, "open", a->open);
   for (int i = 0; i < n; i++) {
      const BoardRow *r = &rows[i];
      cJSON *o = cJSON_CreateObject();
      if (!o)
         break;
      cJSON_AddItemToArray(list, o);
      cJSON_AddNumberToObject(o, "rank", r->rank);
      cJSON_AddStringToObject(o, "student", r->name);
      cJSON_AddBoolToObject(o, "you", r->you);
      addNumber(o, "gflops", r->gflops);
      addNumber(o, "pct_vendor", r->pct);
      addNumber(o, "max_rel_err", r->max_rel_err);
      cJSON_AddNumberToObject(o, "submissions", r->submissions);
      cJSON_AddNumberToObject(o, "verified", r->verified);
      cJSON_AddStringToObject(o, "kernel", r->kernel);
   }
   if (!renderLadder(t, ladder, subs, nsubs, rows, n, BOARD_JSON, root)) {
      cJSON_Delete(root);
      return false;
   }
   char *text = cJSON_PrintUnformatted(root);
   cJSON_Delete(root);
   if (!text)
      return false;
   TextBuf_put(t, "%s\n", text);
   cJSON_free(text);
   return true;
}

/* The page: a ranking table and a bar chart (inline SVG, no script), readable on a
 * projector; it refreshes itself every 30 s. */
static void renderHtml(TextBuf *t, const Assignment *a, const BoardRow *rows, int n, const BoardLadder *ladder,
                       const Submission *subs, int nsubs) {
   TextBuf_put(t, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<meta http-equiv=\"refresh\" content=\"30\"><title>gemmtop board: ");
   TextBuf_putXml(t, a->name);
   TextBuf_put(t, "</title>\n<style>body{font-family:sans-serif;margin:2em;background:#fff;color:#111}"
                  "table{border-collapse:collapse;font-size:1.3em}td,th{padding:.3em .8em;border-bottom:1px solid #ccc;"
                  "text-align:right}td.n,th.n{text-align:left}svg text{font-family:sans-serif}</style></head>\n<body>\n");
   TextBuf_put(t, "<h1>");
   TextBuf_putXml(t, a->name);
   TextBuf_put(t, "</h1>\n<p id=\"problem\">");
   TextBuf_putXml(t, a->sizes);
   TextBuf_put(t, ", ");
   TextBuf_putXml(t, a->precision);
   TextBuf_put(t, ", %d judged launch%s per size on fresh inputs, every one verified%s.</p>\n", a->rounds,
               a->rounds == 1 ? "" : "es", a->open ? "" : " (closed)");
   double top = 0;
   int ranked = 0;
   for (int i = 0; i < n; i++)
      if (rows[i].rank) {
         top = fmax(top, rows[i].gflops);
         ranked++;
      }
   if (ranked > 0) {
      const int barH = 28, labelW = 220, chartW = 900;
      TextBuf_put(t, "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">\n",
                  labelW + chartW + 120, ranked * barH + 10);
      for (int i = 0, y = 5; i < n; i++) {
         const BoardRow *r = &rows[i];
         if (!r->rank)
            continue;
         int w = top > 0 ? (int)(chartW * r->gflops / top) : 0;
         TextBuf_put(t, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", labelW - 8, y + barH - 10);
         TextBuf_putXml(t, r->name);
         TextBuf_put(t, "</text><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>"
                        "<text x=\"%d\" y=\"%d\">%.1f</text>\n",
                     labelW, y + 2, w > 1 ? w : 1, barH - 6, r->you ? "#d95f02" : "#1b9e77", labelW + w + 6,
                     y + barH - 10, r->gflops);
         y += barH;
      }
      TextBuf_put(t, "</svg>\n");
   }
   TextBuf_put(t, "<table id=\"ranking\"><tr><th>rank</th><th class=\"n\">student</th><th>GFLOPS</th>"
                  "<th>%% of vendor</th><th>submissions</th><th class=\"n\">kernel</th></tr>\n");
   for (int i = 0; i < n; i++) {
      const BoardRow *r = &rows[i];
      TextBuf_put(t, "<tr><td>");
      if (r->rank)
         TextBuf_put(t, "%d", r->rank);
      else
         TextBuf_put(t, "-");
      TextBuf_put(t, "</td><td class=\"n\">");
      TextBuf_putXml(t, r->name);
      TextBuf_put(t, "</td><td>");
      putFigure(t, "%.2f", r->gflops);
      TextBuf_put(t, "</td><td>");
      putFigure(t, "%.1f", r->pct);
      TextBuf_put(t, "</td><td>%d (%d verified)</td><td class=\"n\">", r->submissions, r->verified);
      TextBuf_putXml(t, r->kernel[0] ? r->kernel : "-");
      TextBuf_put(t, "</td></tr>\n");
   }
   if (n == 0)
      TextBuf_put(t, "<tr><td colspan=\"6\" class=\"n\">No submissions yet.</td></tr>\n");
   TextBuf_put(t, "</table>\n");
   if (!renderLadder(t, ladder, subs, nsubs, rows, n, BOARD_HTML, NULL))
      t->failed = true;
   char when[64];
   time_t now = time(NULL);
   struct tm tm;
   strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&now, &tm));
   TextBuf_put(t, "<p>Made by gemmtop serve at %s. Every figure is the median of judged launches, each on "
                  "inputs no one saw before, timed by the server with device events.</p>\n</body></html>\n",
               when);
}

/* The ladder's steps with the class's best of each (table, JSON or HTML). */
static bool renderLadder(TextBuf *t, const BoardLadder *ladder, const Submission *subs, int nsubs, const BoardRow *rows,
                         int n, BoardFormat format, cJSON *json) {
   if (!ladder || !ladder->name[0] || ladder->nsteps <= 0)
      return true;
   const Submission **best = calloc((size_t)ladder->nsteps, sizeof *best);
   if (!best)
      return false;
   Board_ladderBest(subs, nsubs, ladder, best);
   cJSON *list = json ? cJSON_AddArrayToObject(json, "ladder") : NULL;
   if (format == BOARD_TABLE)
      TextBuf_put(t, "\nLadder %s: the class's best verified submission of each step\n%4s  %-22s %12s  %s\n",
                  ladder->name, "step", "kernel", "GFLOPS", "student");
   else if (format == BOARD_HTML) {
      TextBuf_put(t, "<h2>The ladder: ");
      TextBuf_putXml(t, ladder->name);
      TextBuf_put(t, "</h2>\n<table id=\"ladder\"><tr><th>step</th><th class=\"n\">kernel</th>"
                     "<th class=\"n\">idea</th><th>class best GFLOPS</th><th class=\"n\">student</th></tr>\n");
   }
   for (int i = 0; i < ladder->nsteps; i++) {
      const BoardStep *st = &ladder->steps[i];
      const Submission *b = best[i];
      const char *who = b ? nameOf(rows, n, b->uid) : "-";
      if (format == BOARD_TABLE) {
         TextBuf_put(t, "%4d  %-22s ", st->step, st->kernel);
         putFigure(t, "%12.2f", b ? b->gflops : NAN);
         TextBuf_put(t, "  %s\n", who);
      } else if (format == BOARD_HTML) {
         TextBuf_put(t, "<tr><td>%d</td><td class=\"n\">", st->step);
         TextBuf_putXml(t, st->kernel);
         TextBuf_put(t, "</td><td class=\"n\">");
         TextBuf_putXml(t, st->title);
         TextBuf_put(t, "</td><td>");
         putFigure(t, "%.2f", b ? b->gflops : NAN);
         TextBuf_put(t, "</td><td class=\"n\">");
         TextBuf_putXml(t, who);
         TextBuf_put(t, "</td></tr>\n");
      } else if (list) {
         cJSON *o = cJSON_CreateObject();
         if (!o)
            break;
         cJSON_AddItemToArray(list, o);
         cJSON_AddNumberToObject(o, "step", st->step);
         cJSON_AddStringToObject(o, "kernel", st->kernel);
         cJSON_AddStringToObject(o, "title", st->title);
         addNumber(o, "gflops", b ? b->gflops : NAN);
         if (b)
            cJSON_AddStringToObject(o, "student", who);
         else
            cJSON_AddNullToObject(o, "student");
      }
   }
   if (format == BOARD_HTML)
      TextBuf_put(t, "</table>\n");
   free(best);
   return true;
}

char *Board_render(const Assignment *a, const Submission *subs, int nsubs, const BoardViewer *viewer,
                   const BoardLadder *ladder, BoardFormat format) {
   int n = 0;
   BoardRow *rows = Board_rows(subs, nsubs, viewer, &n);
   if (!rows)
      return NULL;
   TextBuf t = {0};
   switch (format) {
   case BOARD_TABLE:
      renderTable(&t, a, rows, n);
      if (!renderLadder(&t, ladder, subs, nsubs, rows, n, format, NULL))
         t.failed = true;
      break;
   case BOARD_CSV:
      renderCsv(&t, rows, n);
      break;
   case BOARD_JSON:
      if (!renderJson(&t, a, rows, n, ladder, subs, nsubs))
         t.failed = true;
      break;
   case BOARD_HTML:
      renderHtml(&t, a, rows, n, ladder, subs, nsubs);
      break;
   }
   free(rows);
   return TextBuf_finish(&t);
}
