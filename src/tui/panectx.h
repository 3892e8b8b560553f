/* What a pane receives (panes_table.h's PaneClass): its context, built from the explorer's
 * state for each call by the walks over the panes (panes_table.c, for draw.c, keys.c and
 * news.c), and its own state. The context is the pane's screen area and the Paint to draw
 * with, what panes read of the configuration on screen and of the worker, and the verbs
 * by which a pane acts on the rest of the explorer. It holds no pointer a pane can follow
 * to the whole state: panes include this header, never app.h (tests/e2e/layers.sh). */
#ifndef GEMMTOP_UI_PANECTX_H
#define GEMMTOP_UI_PANECTX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model/catalog.h"
#include "core/model/preset.h"
#include "core/analyse/limiter.h"
#include "core/teach/lesson.h"
#include "explorer/logbuf.h"
#include "explorer/worker.h"
#include "tui/chart.h"
#include "tui/draw_banks.h"
#include "tui/draw_inspect.h"
#include "tui/history.h"
#include "tui/layout.h"
#include "tui/paint.h"
#include "tui/panes.h"
#include "tui/ui.h"

/* Where a mouse click lands, recorded while drawing. */
typedef enum { HIT_PANE, HIT_VARIANT, HIT_VALUE, HIT_ROW, HIT_HISTORY } HitKind;
typedef struct Hit_ {
   Rect r;
   HitKind kind;
   int a, b;
} Hit;
#define UI_MAX_HITS 256

/* Rows of the kernel pane that the cursor can be on. */
typedef enum { KROW_VARIANT_PICK, KROW_PARAM, KROW_VARIANT } KRowKind;

/* How PaneCtx_show shows the pane. */
enum { PANE_SHOW_FOCUS = 1u << 0, PANE_SHOW_UNZOOM = 1u << 1 };

struct PaneHost_;              /* the verbs' receiver: opaque, completed by no header */

typedef struct PaneCtx_ {
   /* the pane */
   int id;                    /* its PaneId (-1: the compositor's own, for the header) */
   Rect area;                 /* its place on the screen, title row included */
   const Paint *paint;        /* the screen drawn on */
   ChartStyle bars, spark;
   /* the explorer's panes */
   unsigned visible;          /* the panes asked for (PANE_BIT) */
   unsigned shown;            /* ... and those the layout found room for */
   int focus, zoom;           /* the focused pane, the zoomed one (-1 none) */
   unsigned long frame;       /* the frame drawn (the spinner turns with it) */
   /* the configuration on screen */
   const Catalog *cat;
   const int *list;           /* the variants listed, catalog indices */
   int nlist;
   int kernel;                /* catalog index */
   const KernelInfo *info;    /* its kernel */
   const long long *values;   /* KERNEL_MAX_PARAMS of them */
   const Problem *problem;
   unsigned ablate;           /* AblateFlag bits (0: real runs) */
   bool cold_l2;
   const char *limits;        /* a lesson step's simulated limits, "" none */
   const DeviceInfo *device;  /* NULL: none open nor listed */
   const DeviceLimits *device_limits; /* the device's, or typical ones when none */
   const char *simulated_note; /* said after a refusal a simulated limit may have caused, or "" */
   const UiStart *start;      /* how the explorer was started (its options) */
   const char *backend;       /* the backend asked for ("opencl", "cuda", ...) */
   const char *kernels_dir, *presets_dir; /* where the kernels and the shipped presets are */
   /* the worker and what came of it */
   Worker *worker;            /* requests are posted, and a pane's news taken, through it */
   const WorkerSnapshot *snap;
   bool snap_current;         /* the snapshot describes the configuration on screen */
   bool snap_refused;         /* ... refused before running (a rule, the device) */
   bool busy;                 /* the worker is doing something */
   bool paused, cancelling;
   const History *hist;
   const LogBuf *log;
   /* what other panes hold, read only: the bank analysis (the compare pane, the lesson and
    * the limiter read it), the inspection (the compare pane and the lesson), the lesson's
    * step when it is the bank grid's */
   const BanksPane *banks;
   const InspectPane *inspect;
   const LessonStep *grid_step; /* its step on screen when its lesson is the bank grid, else NULL */
   /* what its verbs write: the click targets of this frame, whether to draw again */
   Hit *hits;                 /* UI_MAX_HITS of them */
   int *nhits;
   bool *dirty;
   struct PaneHost_ *host;    /* for the verbs that change the configuration */
} PaneCtx;

/* ---- reading (panectx.c: from the context alone) ---- */

/* Whether ch steps a value or a variant (the kernel pane's, from any pane that has no use
 * for it). */
bool PaneCtx_isSteppingKey(int ch);
/* The rows of the pane under its title row (at least 1). */
int PaneCtx_height(const PaneCtx *ctx);
/* Kernel pane rows: variant picker, parameters, then the variant list. */
int PaneCtx_kernelRows(const PaneCtx *ctx);
KRowKind PaneCtx_kernelRow(const PaneCtx *ctx, int row, int *index);
/* The configuration on screen as the worker is told it: kernel, values, problem, ablation
 * and simulated limits (the rest zero). */
void PaneCtx_config(const PaneCtx *ctx, WorkerConfig *c);
/* The history's key of the configuration that the worker measures; its entry, or -1. */
void PaneCtx_measuredEntry(const PaneCtx *ctx, HistoryEntry *e);
int PaneCtx_historyMeasured(const PaneCtx *ctx);
/* What limits the configuration on screen (core/analyse/limiter.h), from the worker's
 * figures, the measured peaks and the bank pane's trace when current. False when it has
 * no figure yet, with why in msg. */
bool PaneCtx_limiter(const PaneCtx *ctx, LimiterInputs *in, Limiter *l, char *msg, size_t len);

/* ---- acting on the explorer ---- */

/* panectx.c: the screen is to be drawn again; a place a click lands, while drawing. */
void PaneCtx_dirty(const PaneCtx *ctx);
void PaneCtx_hit(const PaneCtx *ctx, Rect r, HitKind kind, int a, int b);
/* panehost.c: says something in the footer for a while. */
void PaneCtx_flash(const PaneCtx *ctx, Style st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A question in the footer, held there until it is answered (a minute at most); and the
 * question's line taken away, answered. */
void PaneCtx_prompt(const PaneCtx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void PaneCtx_promptDone(const PaneCtx *ctx);
/* A line in the log pane. */
void PaneCtx_log(const PaneCtx *ctx, LogLevel level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Shows the pane (PANE_SHOW_*: focuses it; ends another pane's zoom). */
void PaneCtx_show(const PaneCtx *ctx, unsigned how);
/* The bank pane shown, focused and zoomed, on its first warp and iteration, on site (-1:
 * the site it had); true when it was hidden before. And that zoom ended, the bank pane
 * hidden again with hide. (A lesson's step whose lesson is the grid.) */
bool PaneCtx_zoomBankGrid(const PaneCtx *ctx, int site);
void PaneCtx_closeBankGrid(const PaneCtx *ctx, bool hide);
/* Closes the dialog open (a pane's own dialog: the lesson chooser). */
void PaneCtx_closeDialog(const PaneCtx *ctx);
/* The configuration on screen changed, as ui.c changes it (sent to the worker): a kernel
 * with values (NULL: the values it had last), and a problem (NULL: the one on screen). */
void PaneCtx_selectKernel(const PaneCtx *ctx, int catalog_index, const long long *values, const Problem *problem);
void PaneCtx_stepVariant(const PaneCtx *ctx, int dir);
void PaneCtx_stepParam(const PaneCtx *ctx, int pi, int dir, bool any);
void PaneCtx_restoreHistory(const PaneCtx *ctx, int i);
/* Loads a preset whole (preset_ui.c): its kernel and values, the whole problem (sized by
 * sizing when not NULL), ablate and limits as given; the configuration then on screen in
 * *loaded (PaneCtx_config). False with err when the preset does not apply. The context's
 * copies of the configuration (kernel, info, ablate) are then stale: a later call gets a
 * new context. */
bool PaneCtx_loadPreset(const PaneCtx *ctx, const Preset *p, const LessonSize *sizing, unsigned ablate,
                        const char *limits, WorkerConfig *loaded, char *err, size_t errlen);
/* Compiling ahead: the results pane's line; whether the configuration on screen was. */
void PaneCtx_aheadLine(const PaneCtx *ctx, char *out, size_t outlen);
bool PaneCtx_compiledAhead(const PaneCtx *ctx);
/* The lesson's step on screen, word-wrapped to width, each line given to emit with its
 * Style (the bank pane shows it beside its grid when the step's lesson is the grid). */
void PaneCtx_lessonStepText(const PaneCtx *ctx, int width, void (*emit)(void *arg, const char *line, int style),
                            void *arg);

#endif
