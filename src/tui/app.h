/* The explorer's state, shared by its UI-thread modules: start.c (start, main loop, end),
 * ui.c (the configuration), uiview.c (what all of them read), news.c (the worker's news),
 * keys.c (the keys and the help page), screen.c (the terminal), draw.c (the compositor),
 * dialogs.c (setup, presets, save) and panehost.c, which builds each pane's context from it
 * (panectx.h): the panes see that and their own state, not this. Only the UI thread touches
 * it; the worker is reached through worker.h alone. */
#ifndef GEMMTOP_UI_APP_H
#define GEMMTOP_UI_APP_H

#include <curses.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/types.h>

#include "backend/backend.h"
#include "core/model/catalog.h"
#include "core/model/preset.h"
#include "core/model/shapes.h"
#include "core/run/ahead.h"
#include "core/analyse/banks.h"
#include "core/teach/lesson.h"
#include "core/analyse/limiter.h"
#include "tui/chart.h"
#include "tui/history.h"
#include "tui/layout.h"
#include "tui/panes_table.h"
#include "tui/paint.h"
#include "tui/panectx.h"
#include "tui/panedraw.h"
#include "tui/prefs.h"
#include "tui/ui.h"
#include "explorer/logbuf.h"
#include "explorer/worker.h"

typedef enum { DLG_NONE = 0, DLG_HELP, DLG_SETUP, DLG_PRESETS, DLG_SAVE, DLG_LESSONS, DLG_EXPORT } DialogKind;


/* Setup dialog fields. */
enum { SF_SIZE, SF_SHAPE, SF_M, SF_N, SF_K, SF_PRECISION, SF_LAYOUT, SF_ALPHA, SF_BETA, SF_L2, SF_BACKEND, SF_DEVICE, SF_COUNT };

typedef struct SetupState_ {
   int field;
   char text[SF_COUNT][32];   /* the numeric fields as typed */
   bool fresh;                /* the next digit replaces the field */
   Precision precision;
   Scaling scaling; /* the FP8 types' (the precision field shows "e4m3 tensor", "e4m3 block") */
   int layout;                /* 0 NN, 1 NT, 2 TN, 3 TT */
   bool cold_l2;              /* time with the L2 cold */
   int backend;               /* index in the backend names */
   DeviceInfo *devices;       /* of that backend (owned) */
   int ndevices;
   int device;
   char devices_error[1024];
   char error[256];
   ShapeSuites suites;        /* the shape suites (core/model/shapes.h), loaded when the dialog opens */
   int shape;                 /* the shape picked, counted across the suites in order; -1 none */
} SetupState;

typedef struct PresetsState_ {
   PresetList list;
   bool loaded;
   int cursor, scroll;        /* in match[] */
   char filter[48];           /* typed: the presets whose name, kernel or description hold it */
   int *match;                /* indices in list of the presets shown (owned) */
   int nmatch;
   char error[1536];
} PresetsState;

typedef struct SaveState_ {
   int field;                 /* 0 name, 1 description */
   char name[64];
   char description[200];
   bool confirm;              /* the file exists, or a shipped preset has the name: Enter again saves */
   char error[512];
} SaveState;

typedef struct ExportState_ {
   int what;                  /* 0 the history, 1 the sweep's results */
   char path[512];            /* its ending (.csv, .md) chooses the format */
   bool confirm;              /* the file exists: Enter again replaces it */
   char error[1200];
} ExportState;

typedef struct Ui_ {
   UiStart start;             /* how it was started (its selection points into the caller's) */
   Paint paint;               /* the screen: its size, UTF-8 and colours (paint.h) */
   ChartStyle bars, spark;
   char kernels_dir[1024], presets_dir[1024], prefs_path[1024];
   bool have_prefs_path;

   Catalog cat;
   int *list;                 /* the variants shown, catalog indices */
   int nlist;

   char backend[16];          /* what the user asked for */
   DeviceInfo *devices;       /* of that backend, listed at start */
   int ndevices;
   int device;

   int kernel;                /* catalog index */
   long long values[KERNEL_MAX_PARAMS];
   Problem problem;
   unsigned ablate;           /* AblateFlag bits asked with the a key (0: real runs) */
   int simd_width;            /* the bank model's SIMD width (W, --simd-width); 0 the device's */
   bool cold_l2;              /* time with the L2 cold (F2's timing field; coldl2.h) */
   char limits[128];          /* simulated device limits of a lesson step ("max_wg=256"), "" none */
   char restore_note[800];    /* why the kernel saved last was not restored ("" when it was) */
   char preset_name[64];      /* the preset last loaded (whole), "" none */
   long long (*remembered)[KERNEL_MAX_PARAMS]; /* per catalog kernel: the values last used */
   bool *has_remembered;

   unsigned visible;
   unsigned before_projector; /* the panes shown before P's projector layout (0: not in it) */
   int zoom_before_projector; /* ... and the pane zoomed then (-1 none) */
   unsigned prefs_visible;    /* the panes as the preferences had them before a lesson (0: visible) */
   int focus, zoom;
   PaneStates panes;          /* each pane's own state (Panes_start; draw_X.h's accessors) */
   int help_scroll;
   bool paused;
   bool cancelling;           /* cancelled while a launch ran: said until the worker stops */

   Worker *worker;
   WorkerSnapshot snap;
   unsigned long snap_seen;
   unsigned long submit_seen; /* the class server's answers (J) already shown */
   unsigned needs_told;       /* PANE_NEEDS_* the worker was last told to compute */
   struct Ahead_ *ahead;      /* compiling ahead (ahead.h); NULL when its threads could not start */
   int ahead_mode;            /* AheadMode */
   unsigned long long ahead_posted; /* what it was last asked for (0: nothing) */
   AheadStatus ahead_status;
   bool ahead_sweeping;       /* it is asked for a running sweep's next configurations */
   History hist;
   struct Store_ *store;      /* the results store, read for the history (NULL: none) */
   bool store_tried;
   char stored_for[256];      /* the device, kernel and problem whose stored results are shown */
   LogBuf log;
   unsigned long log_seen;

   DialogKind dialog;
   SetupState setup;
   PresetsState presets;
   SaveState save;
   ExportState exporting;

   char flash[512];
   Style flash_style;
   double flash_until;

   Layout layout;
   bool dirty, quit;
   int exit_code;
   unsigned long frame;
   Hit hits[UI_MAX_HITS];
   int nhits;

   int saved_stderr;          /* the real stderr while the screen is ours */
   int stderr_read;           /* reads what libraries write to stderr */
   char stderr_path[1024];
   char stderr_partial[512];
   unsigned long long kernels_sig;
   double next_watch;
} Ui;

/* uiview.c: what every part reads of the state, and how any of them says something */
const KernelInfo *Ui_kernel(const Ui *ui);
const DeviceLimits *Ui_limits(const Ui *ui);
const DeviceInfo *Ui_deviceInfo(const Ui *ui);
/* " (device limits simulated by GEMMTOP_DEVICE_LIMITS)" when they are, else "": said
 * after every refusal that a limit may have caused, as the command line does. */
const char *Ui_simulatedNote(const Ui *ui);
void Ui_flash(Ui *ui, Style st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void Ui_log(Ui *ui, LogLevel level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void Ui_logv(Ui *ui, LogLevel level, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/* Kernel pane rows: variant picker, parameters, then the variant list (PaneCtx_kernelRow). */
int Ui_kernelRows(const Ui *ui);
KRowKind Ui_kernelRow(const Ui *ui, int row, int *index);
/* Whether the worker is doing something (the spinner turns). */
bool Ui_busy(const Ui *ui);
/* Whether the worker's snapshot describes the configuration now chosen. */
bool Ui_snapIsCurrent(const Ui *ui);
/* Whether the snapshot's configuration was refused before running (a rule, the device). */
bool Ui_snapRefused(const Ui *ui);
/* Records a place a click lands, while drawing (panes: PaneCtx_hit). */
void Draw_hit(Ui *ui, Rect r, HitKind kind, int a, int b);
/* Closes the dialog open (what the setup dialog holds is freed). */
void Dialog_close(Ui *ui);

/* ui.c */
/* preset_ui.c: loads a preset whole: its kernel and values, the whole problem (fields it
 * does not state back to the defaults, said in the log; a lesson's sizing when not NULL),
 * ablate and limits as given (a lesson step's; 0 and "" otherwise). Before the worker
 * starts it only sets the configuration. False with err when the preset does not apply. */
bool Ui_loadPreset(Ui *ui, const Preset *p, const LessonSize *sizing, unsigned ablate, const char *limits, char *err,
                   size_t errlen);
/* The explorer's default size on this device: 2048 on a GPU, 512 on a CPU. */
int Ui_defaultSize(const Ui *ui);
/* Sends the configuration to the worker (and remembers the kernel's values). */
void Ui_apply(Ui *ui);
/* Switches to a kernel with values (NULL: the values it had last, else its defaults). */
void Ui_selectKernel(Ui *ui, int catalog_index, const long long *values);
/* The previous (dir -1) or next (1) variant of the list. */
void Ui_stepVariant(Ui *ui, int dir);
/* Moves parameter pi to its next value in direction dir: the next valid one, or with any
 * the adjacent one even if a constraint refuses it (its reason is then shown). */
void Ui_stepParam(Ui *ui, int pi, int dir, bool any);
/* Sets parameter pi to its vi-th allowed value. */
void Ui_setParamValue(Ui *ui, int pi, int vi);
/* Goes back to history entry i (its kernel, values, problem and, if it can, device). */
void Ui_restoreHistory(Ui *ui, int i);
void Ui_setProblem(Ui *ui, const Problem *p);
void Ui_setDevice(Ui *ui, const char *backend, DeviceInfo *devices, int ndevices, int device);
/* The variants listed: the catalog's, hidden ones left out unless chosen. */
void Ui_buildList(Ui *ui);
/* The kernel files: a signature of their names, times and sizes; a reload (why: for the
 * log); a check once a second for a change on disk. */
unsigned long long Ui_kernelsSignature(const char *dir);
void Ui_reloadKernels(Ui *ui, const char *why);
void Ui_watchKernels(Ui *ui);

/* history_store.c */
/* Once per device, kernel and problem measured: the best results that the results store
 * has of them from earlier sessions join the history, marked as stored. */
void Ui_historyFromStore(Ui *ui);

/* news.c */
/* Takes the worker's snapshot, sweep, bank analysis, inspection and log lines. */
void Ui_pollWorker(Ui *ui);

/* keys.c: the table of keys, read by the dispatcher and the help page (KeyBinding:
 * panes_table.h) */
/* The table's rows, in the help's order (the panes' own rows follow them). */
int Keys_count(void);
const KeyBinding *Keys_at(int i);
void Keys_handle(Ui *ui, int ch);
/* The help page (F1), a dialog of its own: drawn over the whole screen, and its keys. */
void Keys_drawHelp(Ui *ui);
/* The help page of a set of panes: its lines, each a keys column (KEYS_HELP_WIDTH wide,
 * empty on a continuation line) and what they do: the table's rows, the panes' own rows,
 * then the digits of the panes that have no row. */
#define KEYS_HELP_WIDTH 13
int Keys_helpCount(const PaneSet *panes);
void Keys_helpLine(const PaneSet *panes, int line, char *keys, size_t keyslen, char *text, size_t textlen);

/* screen.c */
/* The signal that asked the explorer to end (SIGINT, SIGTERM, SIGHUP), or 0. */
int Screen_signal(void);
void Screen_installSignals(void);
/* Puts the fatal-signal handlers that restore the terminal back in front (the OpenCL
 * runtime installs its own when it first compiles). */
void Screen_guardSignals(void);
void Screen_start(Ui *ui);
void Screen_stop(void);
bool Screen_utf8Locale(void);
/* What libraries print on stderr goes to a file while the screen is ours; its lines are
 * shown in the log. */
void Screen_captureStderr(Ui *ui);
void Screen_pollStderr(Ui *ui);
void Screen_releaseStderr(Ui *ui);

/* panes_table.c */
/* ui->layout for the terminal's size, the panes wanted and what their content needs. */
void Ui_layout(Ui *ui);

/* draw.c: the compositor: header, footer, the panes, the dialog open */
void Draw_screen(Ui *ui);

/* panehost.c: pane p's context (panectx.h; -1: the compositor's own, the whole screen),
 * whose verbs act on ui. Built for each call of a pane: it points into ui. */
void PaneHost_context(Ui *ui, int p, PaneCtx *ctx);

/* The panes' classes are declared from their list (panes_table.h). */

/* ahead_ui.c: the explorer's side of compiling ahead (core/run/ahead.h) */
/* Once per pass of the main loop: asks for the neighbours of a configuration just
 * verified (or a running sweep's next configurations), drops the work when the
 * configuration, problem or device changes. */
void AheadUi_update(Ui *ui);
/* The A key: auto, on, off. */
void AheadUi_cycle(Ui *ui);
/* The results pane's line. */
void AheadUi_describe(const Ui *ui, char *out, size_t outlen);
/* Whether the configuration on screen (just chosen, or measured) was compiled ahead. */
bool AheadUi_compiledAhead(const Ui *ui);
/* Whether its program is known to be compiled (ahead, or measured earlier in this
 * session): the worker then hardly waits for the keys to settle. A hint only. */
bool AheadUi_ready(const Ui *ui);

/* exportview.c: the export dialog (e): history or sweep to CSV or Markdown */
void Export_open(Ui *ui);
void Export_key(Ui *ui, int ch);
void Export_draw(Ui *ui);

/* dialogs.c */
void Dialog_open(Ui *ui, DialogKind kind);
/* Handles a key while a dialog is open. */
void Dialog_key(Ui *ui, int ch);
void Dialog_draw(Ui *ui);
void Dialog_mouse(Ui *ui, int x, int y, bool dbl);

#endif
