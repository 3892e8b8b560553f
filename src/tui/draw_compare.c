/* The compare pane (9): a configuration pinned with C beside the one measured now, row
 * by row: GFLOPS (and the ratio), time, registers, local memory, occupancy, instruction
 * counts, then each access site's wavefronts against the ideal (PADDING=0 against 2,
 * step 6 against 7). While the pinned configuration is the one measured, its figures
 * follow the newest; once another is chosen they stay as they were. Showing the pane
 * asks the worker for the bank trace and the compiled code (news.c). */
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "core/analyse/banks.h"
#include "core/analyse/inspect.h"
#include "tui/panedraw.h"
#include "tui/panes_table.h"
#include "tui/text.h"

/* What it keeps between frames (its class's state): the configuration pinned with C and
 * its figures as last measured. */
typedef struct Pinned_ {
   bool set;
   WorkerConfig config;       /* kernel, values, problem, ablation */
   char label[256];
   bool measured;             /* its figures below were taken */
   double gflops, median_ms;
   bool verified;
   int registers;             /* the build's, -1 not reported */
   long long local_mem;
   bool have_banks;           /* its bank table (site names in names) */
   int nsites;
   BankSiteStats sites[BANKS_MAX_SITES];
   bool have_code;            /* its instruction counts and occupancy (the inspect pane's target) */
   Inspection code;           /* the fixed fields only: its texts are not kept */
} Pinned;

static bool sameConfig(const WorkerConfig *a, const WorkerConfig *b) {
   return !strcmp(a->kernel, b->kernel) && !memcmp(a->values, b->values, sizeof a->values) &&
          Problem_same(&a->problem, &b->problem) && a->ablate == b->ablate;
}

static void configLabel(const PaneCtx *ctx, const WorkerConfig *c, char *out, size_t n) {
   const KernelInfo *k = Catalog_find(ctx->cat, c->kernel);
   char params[200] = "";
   if (k)
      KernelInfo_formatParams(k, c->values, params, sizeof params);
   snprintf(out, n, "%s %s", k ? KernelInfo_shortName(k) : c->kernel, params);
}

/* Takes what is known now of the configuration measured into p (figures, bank table,
 * compiled code), each only when it is of that configuration. */
static void capture(const PaneCtx *ctx, Pinned *p) {
   const WorkerSnapshot *s = ctx->snap;
   if (s->nwindow > 0) {
      p->measured = true;
      p->gflops = s->gflops;
      p->median_ms = s->median_ms;
      p->verified = s->result.verified_run && s->result.verify.ok;
   }
   if (s->have_result) {
      p->registers = s->result.registers;
      p->local_mem = s->result.local_mem;
   }
   if (ctx->banks->have && ctx->banks->analysis.analysis && ctx->banks->analysis.config_serial == s->config_serial) {
      const BankAnalysis *a = ctx->banks->analysis.analysis;
      p->have_banks = true;
      p->nsites = a->nsites;
      memcpy(p->sites, a->sites, sizeof p->sites);
   }
   if (ctx->inspect->have && ctx->inspect->last.inspection.ok && ctx->inspect->last.config_serial == s->config_serial) {
      p->have_code = true;
      p->code = ctx->inspect->last.inspection;
      p->code.build_log = p->code.code = p->code.source = NULL; /* the texts stay the UI's */
   }
}

/* C: pins the configuration measured now (again: unpins it). */
static void pinCurrent(const PaneCtx *ctx, Pinned *pn) {
   const WorkerSnapshot *s = ctx->snap;
   if (pn->set && s->have_config && sameConfig(&pn->config, &s->config)) {
      pn->set = false;
      PaneCtx_flash(ctx, ST_NORMAL, "unpinned");
      return;
   }
   if (!s->have_config || !ctx->snap_current) {
      PaneCtx_flash(ctx, ST_WARN, "nothing measured yet to pin: wait for this configuration's first figures");
      return;
   }
   Pinned *p = pn;
   memset(p, 0, sizeof *p);
   p->set = true;
   p->config = s->config;
   p->registers = -1;
   p->local_mem = -1;
   configLabel(ctx, &p->config, p->label, sizeof p->label);
   capture(ctx, p);
   PaneCtx_show(ctx, 0);
   PaneCtx_dirty(ctx);
   PaneCtx_flash(ctx, ST_GOOD, "pinned %s: change the configuration to compare (C on it again unpins)", p->label);
}

/* While the pinned configuration is the one measured, its figures follow the newest. */
static void refreshPinned(const PaneCtx *ctx, void *state) {
   Pinned *pn = state;
   if (pn->set && ctx->snap->have_config && sameConfig(&pn->config, &ctx->snap->config))
      capture(ctx, pn);
}

/* ---- drawing ---- */

typedef struct Cols_ {
   int x, y, w, bottom;
   int label_w, value_w;
   bool draw;                 /* false: the rows are only counted (Draw_compareRows) */
} Cols;

/* A row of text across the columns. */
static void text(const PaneCtx *ctx, Cols *c, const char *s, Style st) {
   if (c->y >= c->bottom)
      return;
   if (c->draw)
      Paint_text(ctx->paint, c->y, c->x, c->w, s, st, false);
   c->y++;
}

/* One row: a label, the pinned value, the current one, and how they compare. */
static void line(const PaneCtx *ctx, Cols *c, const char *label, const char *pinned, const char *now,
                 const char *change, Style st) {
   if (c->y >= c->bottom)
      return;
   if (!c->draw) {
      c->y++;
      return;
   }
   Paint_text(ctx->paint, c->y, c->x, c->label_w, label, ST_LABEL, false);
   Paint_text(ctx->paint, c->y, c->x + c->label_w, c->value_w, pinned, ST_NORMAL, false);
   Paint_text(ctx->paint, c->y, c->x + c->label_w + c->value_w, c->value_w, now, ST_NORMAL, false);
   Paint_text(ctx->paint, c->y, c->x + c->label_w + 2 * c->value_w, c->w - c->label_w - 2 * c->value_w, change, st,
              false);
   c->y++;
}

static void num(char *out, size_t n, bool known, const char *fmt, double v) {
   if (known)
      snprintf(out, n, fmt, v);
   else
      snprintf(out, n, "-");
}

static void ratioRow(const PaneCtx *ctx, Cols *c, const char *label, bool known_a, double a, bool known_b, double b,
                     const char *fmt, bool higher_better) {
   char pa[48], pb[48], ch[48] = "";
   num(pa, sizeof pa, known_a, fmt, a);
   num(pb, sizeof pb, known_b, fmt, b);
   Style st = ST_DIM;
   if (known_a && known_b && a > 0 && b > 0) {
      snprintf(ch, sizeof ch, "%.2fx", b / a);
      st = b == a ? ST_DIM : (b > a) == higher_better ? ST_GOOD : ST_BAD;
   }
   line(ctx, c, label, pa, pb, ch, st);
}

/* The instruction counts of both, where both were read. */
static void codeRows(const PaneCtx *ctx, Cols *c, const Pinned *p, const Pinned *now) {
   const ListingStats *a = &p->code.stats, *b = &now->code.stats;
   bool ka = p->have_code && p->code.assembly, kb = now->have_code && now->code.assembly;
   if (!ka && !kb) {
      line(ctx, c, "code", "-", "-", "no instruction counts (6 or T: the inspect pane's target)", ST_DIM);
      return;
   }
   /* A CPU's code counts other things: local memory is ordinary memory there (no shared
    * loads or stores to count) and an FMA is a vector instruction of several lanes. */
   const bool cpu = (ka && !strncmp(p->code.code_kind, "CPU code", 8)) || (kb && !strncmp(now->code.code_kind, "CPU code", 8));
   if (cpu)
      line(ctx, c, "code (CPU)", "", "", "a CPU's instructions: no shared memory, vector FMAs; T: a GPU's", ST_WARN);
   ratioRow(ctx, c, "instructions", ka, a->instructions, kb, b->instructions, "%.0f", false);
   ratioRow(ctx, c, "  FMA", ka, a->fma, kb, b->fma, "%.0f", true);
   ratioRow(ctx, c, "  shared ld", ka, a->shared_loads, kb, b->shared_loads, "%.0f", false);
   ratioRow(ctx, c, "  shared st", ka, a->shared_stores, kb, b->shared_stores, "%.0f", false);
   ratioRow(ctx, c, "  global ld", ka, a->global_loads, kb, b->global_loads, "%.0f", false);
   ratioRow(ctx, c, "  barriers", ka, a->barriers, kb, b->barriers, "%.0f", false);
}

/* Each access site of either: wavefronts / ideal. */
static void bankRows(const PaneCtx *ctx, Cols *c, const Pinned *p, const Pinned *now) {
   if (!p->have_banks && !now->have_banks) {
      line(ctx, c, "banks", "-", "-", "waiting for the bank traces", ST_DIM);
      return;
   }
   line(ctx, c, "bank site", "wavefronts/ideal", "wavefronts/ideal", "", ST_HEADER);
   int n = p->nsites > now->nsites ? p->nsites : now->nsites;
   const KernelInfo *k = Catalog_find(ctx->cat, now->config.kernel);
   for (int i = 0; i < n; i++) {
      bool ha = p->have_banks && i < p->nsites && p->sites[i].requests;
      bool hb = now->have_banks && i < now->nsites && now->sites[i].requests;
      if (!ha && !hb)
         continue;
      char lab[64], a[48] = "-", b[48] = "-", ch[48] = "";
      snprintf(lab, sizeof lab, "%d %s", i, k && i < k->nsites ? k->sites[i] : "");
      if (ha)
         snprintf(a, sizeof a, "%lld/%lld", p->sites[i].wavefronts, p->sites[i].ideal);
      if (hb)
         snprintf(b, sizeof b, "%lld/%lld", now->sites[i].wavefronts, now->sites[i].ideal);
      Style st = ST_DIM;
      if (ha && hb && p->sites[i].conflicts != now->sites[i].conflicts) {
         snprintf(ch, sizeof ch, "conflicts %lld -> %lld", p->sites[i].conflicts, now->sites[i].conflicts);
         st = now->sites[i].conflicts < p->sites[i].conflicts ? ST_GOOD : ST_BAD;
      }
      line(ctx, c, lab, a, b, ch, st);
   }
}

/* The pane's rows from r's second row (draw false: only counted); returns how many. */
static int body(const PaneCtx *ctx, const Pinned *p, Rect r, bool draw) {
   Cols c = {.x = r.x + 1, .y = r.y + 1, .w = r.w - 2, .bottom = draw ? r.y + r.h : r.y + 1000, .draw = draw};
   if (!p->set) {
      text(ctx, &c, "C pins the configuration measured now; then change it (a parameter, the next step) to see both "
                   "side by side", ST_DIM);
      return c.y - r.y - 1;
   }
   c.label_w = c.w >= 100 ? 28 : 14; /* room for the access sites' names when there is some */
   c.value_w = (c.w - c.label_w) / 3 > 12 ? (c.w - c.label_w) / 3 : 12;
   /* The current configuration, as the same figures. */
   Pinned now;
   memset(&now, 0, sizeof now);
   now.config = ctx->snap->config;
   now.registers = now.local_mem = -1;
   bool current = ctx->snap->have_config && ctx->snap_current;
   if (current)
      capture(ctx, &now);
   configLabel(ctx, &ctx->snap->config, now.label, sizeof now.label);
   char t[400];
   snprintf(t, sizeof t, "pinned  %s", p->label);
   text(ctx, &c, t, ST_NORMAL);
   snprintf(t, sizeof t, "now     %s%s", now.label, current ? "" : "  (waiting for its figures)");
   text(ctx, &c, t, ST_NORMAL);
   line(ctx, &c, "", "pinned", "now", "now / pinned", ST_HEADER);
   ratioRow(ctx, &c, "GFLOPS", p->measured, p->gflops, now.measured, now.gflops, "%.2f", true);
   ratioRow(ctx, &c, "median ms", p->measured, p->median_ms, now.measured, now.median_ms, "%.4f", false);
   line(ctx, &c, "verified", p->measured ? (p->verified ? "yes" : "no") : "-",
        now.measured ? (now.verified ? "yes" : "no") : "-", "", ST_NORMAL);
   int ra = p->have_code && p->code.registers >= 0 ? p->code.registers : p->registers;
   int rb = now.have_code && now.code.registers >= 0 ? now.code.registers : now.registers;
   ratioRow(ctx, &c, "registers", ra >= 0, ra, rb >= 0, rb, "%.0f", false);
   ratioRow(ctx, &c, "local bytes", p->local_mem >= 0, (double)p->local_mem, now.local_mem >= 0, (double)now.local_mem,
            "%.0f", false);
   bool oa = p->have_code && p->code.occ.known, ob = now.have_code && now.code.occ.known;
   ratioRow(ctx, &c, "occupancy %", oa, oa ? 100 * p->code.occ.fraction : 0, ob, ob ? 100 * now.code.occ.fraction : 0,
            "%.0f", true);
   /* The bank sites before the instruction counts: a lesson's compare is about the grid. */
   bankRows(ctx, &c, p, &now);
   codeRows(ctx, &c, p, &now);
   return c.y - r.y - 1;
}

static int compareRows(const PaneCtx *ctx, void *state, int width) {
   const Pinned *pn = state;
   return pn->set ? 1 + body(ctx, pn, (Rect){0, 0, width, 0}, false) : 0;
}

static void drawCompare(const PaneCtx *ctx, void *state) {
   Rect r = ctx->area;
   const Pinned *p = state;
   Draw_paneTitle(ctx, p->set ? "pinned beside the current configuration" : "", "C pins / unpins");
   body(ctx, p, r, true);
}

/* ---- its keys ---- */

static void pinKey(const PaneCtx *ctx, void *state, int ch) { pinCurrent(ctx, state); }

static const KeyBinding keys[] = {
    {{'C'}, "C", NULL, "pin this configuration; the compare pane (9) puts it beside the current one",
     .on_pane = pinKey},
};

const PaneClass Compare_pane = {.state_size = sizeof(Pinned), .draw = drawCompare, .keys = keys, .nkeys = 1,
                                .rows = compareRows, .poll = refreshPinned};
