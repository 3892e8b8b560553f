/* The inspect pane: what the compiler made of the configuration measured — a one-line
 * summary, registers, spills or private memory, local memory, the occupancy estimate and
 * its limiting resource, instruction counts, then the listing, scrolled with j k PgUp
 * PgDn Home End when the pane has the focus. The worker reads the code (worker.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/ablate.h"
#include "tui/draw_inspect.h"
#include "tui/panedraw.h"
#include "tui/panes_table.h"
#include "tui/text.h"

static void bytes(long long b, char *out, size_t n) {
   if (b < 0)
      snprintf(out, n, "?");
   else if (b < 1024)
      snprintf(out, n, "%lld B", b);
   else
      snprintf(out, n, "%.1f KiB", b / 1024.0);
}

/* The text the pane shows: the compiled code, or the source (v, or no code). */
static const char *inspectText(const PaneCtx *ctx, InspectPane *ip, const char **kind) {
   const Inspection *in = &ip->last.inspection;
   bool source = ip->source || !in->code;
   if (kind)
      *kind = source ? in->source_kind : in->code_kind;
   if (!ip->have)
      return NULL;
   return source ? in->source : in->code;
}

static bool isAmd(const Inspection *in) { return !strncmp(in->arch, "gfx", 3); }

/* ---- the target: the device measured, or an architecture compiled for without one ---- */

typedef struct InspectTarget_ {
   const char *backend, *arch;  /* "" "" for the device measured */
   char label[128];
} InspectTarget;

/* The targets T walks: the device measured, then the GPUs each backend compiles for without
 * one (Backend.offline), as `gemmtop inspect --arch` compiles them: a classroom without a
 * GPU still sees the registers, spills and occupancy of the GPUs the lessons are about.
 * false past the last. */
static bool targetAt(int i, InspectTarget *t) {
   *t = (InspectTarget){.backend = "", .arch = "", .label = "the device measured"};
   if (i == 0)
      return true;
   int n = 1;
   for (int b = 0; b < Backend_count(); b++) {
      const BackendOffline *off = Backend_at(b)->offline;
      for (const OfflineTarget *tg = off ? off->targets : NULL; tg && tg->arch; tg++)
         if (n++ == i) {
            t->backend = Backend_at(b)->name;
            t->arch = tg->arch;
            snprintf(t->label, sizeof t->label, "%s (%s) through %s, offline", tg->arch, tg->gpu, off->compiler);
            return true;
         }
   }
   return false;
}

static InspectTarget targetOf(const PaneCtx *ctx, InspectPane *ip) {
   InspectTarget t;
   if (!targetAt(ip->target, &t))
      targetAt(0, &t);
   return t;
}

/* T: the next target, the device measured or an architecture compiled for offline. */
static void cycleTarget(const PaneCtx *ctx, InspectPane *ip) {
   InspectTarget t;
   ip->target = targetAt(ip->target + 1, &t) ? ip->target + 1 : 0;
   t = targetOf(ctx, ip);
   Worker_setInspectTarget(ctx->worker, t.backend, t.arch);
   if (!(ctx->visible & PANE_BIT(PANE_INSPECT)))
      PaneCtx_show(ctx, PANE_SHOW_FOCUS);
   PaneCtx_dirty(ctx);
   PaneCtx_flash(ctx, ST_NORMAL, "inspect: %s (T: the next target)", t.label);
}

/* Whether the inspection held is of the target now chosen. */
static bool sameTarget(const PaneCtx *ctx, InspectPane *ip) { return !strcmp(ip->last.arch, targetOf(ctx, ip).arch); }

/* "PTX · 40 registers · no spills · local 8.0 KiB/group · occupancy 50% (registers)"; what
 * is not known is left to the rows below. */
static void summary(const PaneCtx *ctx, const Inspection *in, char *out, size_t n) {
   const char *sep = Paint_glyph(ctx->paint, " \xc2\xb7 ", ", ");
   char loc[32], t[128];
   bytes(in->local_mem, loc, sizeof loc);
   snprintf(out, n, "%s", in->assembly ? Listing_kindName(in->stats.kind) : "no assembly");
   if (in->registers >= 0) {
      snprintf(t, sizeof t, "%s%d registers", sep, in->registers);
      strncat(out, t, n - strlen(out) - 1);
   }
   if (in->ptxas.found) {
      int sp = in->ptxas.spill_stores + in->ptxas.spill_loads;
      if (sp)
         snprintf(t, sizeof t, "%sspills %d B", sep, sp);
      else
         snprintf(t, sizeof t, "%sno spills", sep);
      strncat(out, t, n - strlen(out) - 1);
   } else if (in->private_mem >= 0) {
      char pv[32];
      bytes(in->private_mem, pv, sizeof pv);
      snprintf(t, sizeof t, "%sprivate %s", sep, pv);
      strncat(out, t, n - strlen(out) - 1);
   }
   snprintf(t, sizeof t, "%slocal %s/group", sep, loc);
   strncat(out, t, n - strlen(out) - 1);
   if (in->occ.known)
      snprintf(t, sizeof t, "%soccupancy %.0f%% (%s)", sep, 100 * in->occ.fraction, in->occ.limited_by);
   else
      snprintf(t, sizeof t, "%soccupancy unknown", sep);
   strncat(out, t, n - strlen(out) - 1);
}

/* One "label  value" row; returns the next y. */
static int row(const PaneCtx *ctx, int y, int x, int w, const char *label, const char *value, Style st) {
   Paint_text(ctx->paint, y, x, 11, label, ST_LABEL, false);
   Paint_text(ctx->paint, y, x + 11, w - 11, value, st, false);
   return y + 1;
}

/* row, with the value word-wrapped under itself down to bottom (the last row says the rest
 * is cut). */
static int wrappedRow(const PaneCtx *ctx, int y, int x, int w, int bottom, const char *label, const char *value,
                      Style st) {
   char buf[2048];
   const char *wl[8];
   int n = Text_wrap(value, w - 11 > 8 ? w - 11 : 8, buf, sizeof buf, wl, 8);
   for (int i = 0; i < n && y < bottom; i++, y++) {
      Paint_text(ctx->paint, y, x, 11, i == 0 ? label : "", ST_LABEL, false);
      Paint_text(ctx->paint, y, x + 11, w - 11, y + 1 == bottom && i + 1 < n ? "... (z zooms this pane)" : wl[i], st,
                 false);
   }
   return y;
}

static void message(const PaneCtx *ctx, Rect r, const char *m, Style st) {
   char buf[2048];
   const char *wl[16];
   int n = Text_wrap(m, r.w - 2, buf, sizeof buf, wl, r.h - 1 < 16 ? r.h - 1 : 16);
   for (int i = 0; i < n; i++)
      Paint_text(ctx->paint, r.y + 1 + i, r.x + 1, r.w - 2, wl[i], st, false);
}

/* The resources, from row y, when the pane is tall enough to leave the listing some rows;
 * returns the next row. */
static int drawDetails(const PaneCtx *ctx, const Inspection *in, int y, int x, int w) {
   char line[1024], a[32];
   if (in->registers >= 0)
      snprintf(line, sizeof line, "%d per work-item%s", in->registers, isAmd(in) ? " (VGPRs)" : "");
   else
      snprintf(line, sizeof line, "not reported by this runtime");
   y = row(ctx, y, x, w, "registers", line, in->registers >= 0 ? ST_NORMAL : ST_DIM);
   if (in->ptxas.found) {
      snprintf(line, sizeof line, "%d B stores, %d B loads; stack frame %d B", in->ptxas.spill_stores,
               in->ptxas.spill_loads, in->ptxas.stack_bytes);
      y = row(ctx, y, x, w, "spills", line, in->ptxas.spill_stores + in->ptxas.spill_loads ? ST_WARN : ST_NORMAL);
      if (in->ptxas.wgmma_serialized[0]) {
         snprintf(line, sizeof line, "serialized by ptxas due to %s", in->ptxas.wgmma_serialized);
         y = row(ctx, y, x, w, "wgmma", line, ST_WARN);
      }
   } else {
      bytes(in->private_mem, a, sizeof a);
      snprintf(line, sizeof line, in->private_mem >= 0 ? "%s per work-item" : "not reported", a);
      y = row(ctx, y, x, w, "private", line, ST_NORMAL);
   }
   bytes(in->local_mem, a, sizeof a);
   snprintf(line, sizeof line, "%s per work-group (%lld work-items)", a, in->group_items);
   y = row(ctx, y, x, w, "local mem", line, ST_NORMAL);
   const Occupancy *o = &in->occ;
   if (o->known)
      snprintf(line, sizeof line, "%d group%s per %s = %d of %d %s (%.0f%%), limited by %s", o->groups,
               o->groups == 1 ? "" : "s", isAmd(in) ? "CU" : "SM", o->waves, o->max_waves,
               isAmd(in) ? "wavefronts" : "warps", 100 * o->fraction, o->limited_by);
   else
      snprintf(line, sizeof line, "unknown for this device (architecture %s)", in->arch[0] ? in->arch : "not reported");
   y = row(ctx, y, x, w, "occupancy", line, o->known ? ST_NORMAL : ST_DIM);
   if (o->known) {
      snprintf(line, sizeof line, "groups by registers %d, local memory %d, work-items %d, slots %d", o->by_registers,
               o->by_local, o->by_items, o->by_groups);
      y = row(ctx, y, x, w, "", line, ST_DIM);
   }
   return y;
}

/* The instruction counts, or plainly that what is below is not compiled code. */
static int drawCounts(const PaneCtx *ctx, InspectPane *ip, const Inspection *in, int y, int x, int w, int bottom) {
   char line[1024];
   if (in->assembly) {
      Listing_summary(&in->stats, line, sizeof line);
      char t[1100];
      snprintf(t, sizeof t, "%s: %s", Listing_kindName(in->stats.kind), line);
      y = row(ctx, y, x, w, "code", t, ST_NORMAL);
      if (in->have_real && y < bottom) { /* an ablation: is the loop optimised out? */
         char words[512];
         bool kept = Ablate_loopKept(&in->real_stats, &in->stats, ip->last.config.ablate, words,
                                     sizeof words);
         snprintf(t, sizeof t, "%s: %s", kept ? "kept" : "OPTIMISED OUT", words);
         y = wrappedRow(ctx, y, x, w, bottom, "loop", t, kept ? ST_NORMAL : ST_BAD);
      }
      return y;
   }
   char buf[1024];
   const char *wl[2];
   snprintf(line, sizeof line, "%s, so no instruction counts; below: the %s", in->note, in->source_kind);
   int nl = Text_wrap(line, w, buf, sizeof buf, wl, bottom - y > 2 ? 2 : 1);
   for (int i = 0; i < nl && y < bottom; i++)
      Paint_text(ctx->paint, y++, x, w, wl[i], ST_WARN, false);
   return y;
}

/* The listing from row y to the pane's bottom: a header line, then numbered lines. */
static void drawListing(const PaneCtx *ctx, InspectPane *ip, Rect r, int y) {
   int x = r.x + 1, w = r.w - 2, bottom = r.y + r.h;
   int rows = bottom - y - 1, n = ip->nlines;
   if (rows < 0)
      rows = 0;
   if (ip->scroll > n - rows)
      ip->scroll = n - rows;
   if (ip->scroll < 0)
      ip->scroll = 0;
   int first = ip->scroll;
   int last = first + rows < n ? first + rows : n;
   const char *kind, *text = inspectText(ctx, ip, &kind);
   char line[1024], a[32], b[32];
   snprintf(a, sizeof a, "%d", first + 1);
   snprintf(b, sizeof b, "%d", last);
   snprintf(line, sizeof line, "%s, lines %s-%s of %d%s", kind, n ? a : "0", b, n, last < n ? " (more below)" : "");
   Paint_text(ctx->paint, y++, r.x, r.w, line, ST_HEADER, true);
   int nw = snprintf(a, sizeof a, "%d", n > 0 ? n : 1) + 1;
   for (int i = first; i < last && y < bottom; i++, y++) {
      char num[16], buf[1024];
      snprintf(num, sizeof num, "%*d", nw - 1, i + 1);
      Paint_text(ctx->paint, y, x, nw, num, ST_DIM, false);
      Listing_line(text, ip->lines, n, i, buf, sizeof buf);
      Paint_text(ctx->paint, y, x + nw, w - nw, buf, ST_NORMAL, false);
   }
}

/* Instead of the code: waiting for the first run, or why the configuration did not run. */
static void notYet(const PaneCtx *ctx, Rect r) {
   const WorkerSnapshot *s = ctx->snap;
   char m[1700];
   if (s->have_config && s->have_result && s->state == WS_STOPPED)
      snprintf(m, sizeof m, "this configuration did not compile or run (%s): %s", RunStatus_name(s->result.status),
               s->result.message);
   else
      snprintf(m, sizeof m, "waiting for the first run of this configuration, then its compiled code is read");
   message(ctx, r, m, s->state == WS_STOPPED ? ST_BAD : ST_DIM);
}

static void drawInspect(const PaneCtx *ctx, void *state) {
   InspectPane *ip = state;
   Rect r = ctx->area;
   const Inspection *in = &ip->last.inspection;
   bool current = ip->have && ctx->snap->have_config && ip->last.config_serial == ctx->snap->config_serial &&
                  sameTarget(ctx, ip);
   InspectTarget target = targetOf(ctx, ip);
   const InspectTarget *tg = &target;
   char extra[640] = "";
   const KernelInfo *k = current ? Catalog_find(ctx->cat, ip->last.config.kernel) : NULL;
   if (k) {
      char params[512];
      KernelInfo_formatParams(k, ip->last.config.values, params, sizeof params);
      snprintf(extra, sizeof extra, "%s %s%s%s", k->name, params, tg->arch[0] ? " for " : "", tg->arch);
   } else {
      snprintf(extra, sizeof extra, "compiled code%s%s", tg->arch[0] ? " for " : "", tg->arch);
   }
   Draw_paneTitle(ctx, extra,
                  current && in->ok ? (in->code ? " v code/source  j k PgUp PgDn" : " j k PgUp PgDn scroll") : NULL);
   if (r.h < 2)
      return;
   if (!current && tg->arch[0]) {
      char m[256];
      snprintf(m, sizeof m, "compiling for %s without a device (T: the next target)...", tg->label);
      message(ctx, r, m, ST_DIM);
      return;
   }
   if (!current) {
      notYet(ctx, r);
      return;
   }
   if (!in->ok) {
      char m[1700];
      snprintf(m, sizeof m, "cannot read the compiled code: %s", in->message);
      message(ctx, r, m, ST_BAD);
      return;
   }
   int x = r.x + 1, w = r.w - 2, y = r.y + 1, bottom = r.y + r.h;
   char line[1024];
   summary(ctx, in, line, sizeof line);
   Paint_text(ctx->paint, y++, x, w, line, ST_GOOD, false);
   if (y < bottom && r.h >= 10) {
      snprintf(line, sizeof line, "%s  (T: %s)", in->target, tg->arch[0] ? "next target" : "an offline target");
      y = row(ctx, y, x, w, "target", line, tg->arch[0] ? ST_WARN : ST_DIM);
   }
   if (r.h >= 14)
      y = drawDetails(ctx, in, y, x, w);
   if (y < bottom)
      y = drawCounts(ctx, ip, in, y, x, w, bottom);
   if (y < bottom)
      drawListing(ctx, ip, r, y);
}

/* ---- its news and keys ---- */

static void freeInspect(const PaneCtx *ctx, void *state) {
   InspectPane *ip = state;
   if (ip->have)
      WorkerInspect_free(&ip->last);
   free(ip->lines);
   ip->lines = NULL;
   ip->nlines = 0;
   ip->have = false;
}

/* Indexes the lines of the text now shown. */
static void reindex(const PaneCtx *ctx, InspectPane *ip) {
   free(ip->lines);
   ip->lines = NULL;
   const char *text = inspectText(ctx, ip, NULL);
   ip->nlines = text ? Listing_split(text, &ip->lines) : 0;
   if (ip->nlines < 0)
      ip->nlines = 0;
}

/* The worker's newest inspection, when there is one. */
static void poll(const PaneCtx *ctx, void *state) {
   InspectPane *ip = state;
   WorkerInspect in;
   if (!Worker_takeInspect(ctx->worker, &in))
      return;
   /* A new configuration's listing starts at its top; the same one keeps its place. */
   bool same = ip->have && !strcmp(in.config.kernel, ip->last.config.kernel) &&
               !memcmp(in.config.values, ip->last.config.values, sizeof in.config.values);
   freeInspect(ctx, ip);
   ip->last = in;
   ip->have = true;
   reindex(ctx, ip);
   if (!same)
      ip->scroll = 0;
   PaneCtx_dirty(ctx);
}

static void targetKey(const PaneCtx *ctx, void *state, int ch) {
   InspectPane *ip = state;
   cycleTarget(ctx, ip);
}

/* The inspect pane's listing: a line, a page, its top or its end. */
static void listingKey(const PaneCtx *ctx, InspectPane *ip, int ch) {
   int page = PaneCtx_height(ctx) - 2;
   if (page < 1)
      page = 1;
   switch (ch) {
   case KEY_UP: case 'k': ip->scroll--; break;
   case KEY_DOWN: case 'j': ip->scroll++; break;
   case KEY_PPAGE: ip->scroll -= page; break;
   case KEY_NPAGE: ip->scroll += page; break;
   case KEY_HOME: ip->scroll = 0; break;
   case KEY_END: ip->scroll = ip->nlines; break; /* drawing keeps the last page in view */
   case 'v':
      if (!ip->have || !ip->last.inspection.ok)
         return;
      if (!ip->last.inspection.code) {
         PaneCtx_flash(ctx, ST_WARN, "no compiled code to switch to: %s", ip->last.inspection.note);
         return;
      }
      ip->source = !ip->source;
      ip->scroll = 0;
      reindex(ctx, ip);
      return;
   default: break;
   }
   if (ip->scroll > ip->nlines - 1)
      ip->scroll = ip->nlines > 0 ? ip->nlines - 1 : 0;
   if (ip->scroll < 0)
      ip->scroll = 0;
}

static bool focusedKey(const PaneCtx *ctx, void *state, int ch) {
   InspectPane *ip = state;
   if (PaneCtx_isSteppingKey(ch))
      return false;
   listingKey(ctx, ip, ch);
   return true;
}

static const KeyBinding keys[] = {
    {{'T'}, "T", NULL, "inspect pane: the device, or sm_90 sm_80 gfx906 gfx90a compiled offline", .on_pane = targetKey},
};

const PaneClass Inspect_pane = {.state_size = sizeof(InspectPane), .draw = drawInspect, .key = focusedKey,
                                .keys = keys, .nkeys = 1, .poll = poll, .free = freeInspect};
