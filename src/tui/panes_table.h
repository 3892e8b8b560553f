/* The panes' classes (panes.h's list names one per pane, defined in the pane's own file),
 * and the walks over them: what draw.c, keys.c, news.c and start.c call instead of naming
 * panes. The walks take a set of panes, the shipped list's or a test's. */
#ifndef GEMMTOP_UI_PANES_TABLE_H
#define GEMMTOP_UI_PANES_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/panectx.h"
#include "tui/panes.h"

struct Ui_;

/* A row of a key table: keys.c's, read by the dispatcher and the help page, or a pane's
 * own (its keys from any pane, listed on the help page after keys.c's), which is given
 * the pane's context and state instead of the explorer's. */
typedef void (*KeyHandler)(struct Ui_ *ui, int ch);
typedef void (*PaneKeyHandler)(const PaneCtx *ctx, void *state, int ch);
typedef struct KeyBinding_ {
   int codes[10];          /* the key codes it takes, 0-terminated */
   const char *key;        /* as the help names it: "F1", "Up Down" */
   const char *alias;      /* its other keys ("? h"), NULL: none */
   const char *what;       /* the help's text ('\n': a continuation line); NULL: said in another row */
   KeyHandler handler;     /* keys.c's rows' (NULL in a pane's, and for the mouse: not a key) */
   bool anywhere;          /* also over a dialog and on a screen too small for the panes */
   PaneKeyHandler on_pane; /* a pane's own rows' (NULL in keys.c's) */
} KeyBinding;

/* A key in the focused pane: whether the pane used it (a stepping key it does not use
 * then goes to the kernel pane). */
typedef bool (*PaneKeyFn)(const PaneCtx *ctx, void *state, int ch);

/* What a pane does; every member but draw may be NULL (none). Each is given the pane's
 * context (panectx.h: its area, what it reads, the verbs by which it acts) and its own
 * state: a struct of state_size bytes that the walks make when the explorer starts
 * (zeroes, then init) and free at its end (free, then the block), declared in the pane's
 * file, or in the header beside it (draw_X.h) when other files must reach it. */
typedef struct PaneClass_ {
   size_t state_size;                                        /* 0: the pane keeps no state (it is given NULL) */
   bool (*init)(const PaneCtx *ctx, void *state);            /* its state beyond zeroes; false: out of memory */
   void (*draw)(const PaneCtx *ctx, void *state);            /* into ctx->area */
   PaneKeyFn key;                                            /* a key while it is focused */
   const KeyBinding *keys;                                   /* its own keys, from any pane */
   int nkeys;
   /* A key before any other, while the pane is typing something (a step's number). */
   bool (*capture)(const PaneCtx *ctx, void *state, int ch);
   int (*rows)(const PaneCtx *ctx, void *state, int width);  /* the rows its content needs (LayoutWants) */
   void (*snapshot)(const PaneCtx *ctx, void *state);        /* a new snapshot of the worker's arrived */
   void (*poll)(const PaneCtx *ctx, void *state);            /* each pass of the loop: its own news */
   void (*free)(const PaneCtx *ctx, void *state);            /* what its state holds, at the end */
} PaneClass;

#define PANE_CLASS_DECLARE_(id, title, pref, digit, min_h, min_w, pref_h, weight, drop, wheel, needs, cls)            \
   extern const PaneClass cls;
PANE_LIST(PANE_CLASS_DECLARE_)
#undef PANE_CLASS_DECLARE_
/* A row of a set's classes, in the list's order. */
#define PANE_CLASS_ROW(id, title, pref, digit, min_h, min_w, pref_h, weight, drop, wheel, needs, cls) &cls,

/* Panes: the shipped list's, or a test's built with PANE_INFO_ROW and PANE_CLASS_ROW from
 * a list of the same columns (at most PANE_COUNT panes). Pane p is bit p of ui->visible
 * and ui->layout.shown, and its state is ui->panes.of[p]. */
typedef struct PaneSet_ {
   int count;
   const PaneInfo *info;
   const PaneClass *const *cls;
} PaneSet;

const PaneSet *Panes_shipped(void);
/* Pane p's class in the shipped list; NULL when there is none. */
const PaneClass *Pane_class(int p);
/* Each shown pane draws itself. */
void Panes_draw(const PaneSet *s, struct Ui_ *ui);
/* Each pane's news: snapshot when the worker's snapshot is new, then each pane's poll. */
void Panes_news(const PaneSet *s, struct Ui_ *ui, bool snapshot);
/* Each pane's state made (ui->panes: zeroed blocks of its class's state_size, then its
 * init, each given its context), once, before anything else calls a pane. False when one
 * could not be (out of memory, or a set of more than PANE_COUNT panes): none is kept. */
bool Panes_start(const PaneSet *s, struct Ui_ *ui);
/* Each pane frees what its state holds (its class's free), then the walks free the state
 * itself; ui->panes is then all NULL. Safe after a Panes_start that failed. */
void Panes_free(const PaneSet *s, struct Ui_ *ui);
/* Whether a pane typing something took ch. */
bool Panes_capture(const PaneSet *s, struct Ui_ *ui, int ch);
/* The pane's own row that takes ch (its pane in *pane), or NULL. */
const KeyBinding *Panes_binding(const PaneSet *s, int ch, int *pane);
/* Pane p's own row b, given ch. */
void Panes_runBinding(const PaneSet *s, struct Ui_ *ui, int p, const KeyBinding *b, int ch);
/* The focused pane p's use of ch: whether it used it. */
bool Panes_focusedKey(const PaneSet *s, struct Ui_ *ui, int p, int ch);
/* The rows pane p's content needs at a width (LayoutWants' rows; 0: nothing in particular). */
int Panes_wantRows(const PaneSet *s, struct Ui_ *ui, int p, int width);

#endif
