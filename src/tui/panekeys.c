/* The keys that act in the focused pane (moving, stepping a value, Enter, v) and the
 * mouse. Which keys come here, and what the help says of them, is the table in keys.c. */
#include <string.h>

#include "core/banks.h"
#include "base/util.h"
#include "tui/app.h"
#include "tui/lesson_ui.h"

static int paneHeight(const Ui *ui, int p) {
   int h = ui->layout.pane[p].h - 1;
   return h > 1 ? h : 1;
}

static void kernelKey(Ui *ui, int ch) {
   int rows = Ui_kernelRows(ui), idx;
   KRowKind kind = Ui_kernelRow(ui, ui->kcursor, &idx);
   int page = paneHeight(ui, PANE_KERNEL) / 2;
   switch (ch) {
   case KEY_UP: case 'k': ui->kcursor--; break;
   case KEY_DOWN: case 'j': ui->kcursor++; break;
   case KEY_PPAGE: ui->kcursor -= page; break;
   case KEY_NPAGE: ui->kcursor += page; break;
   case KEY_HOME: ui->kcursor = 0; break;
   case KEY_END: ui->kcursor = rows - 1; break;
   case KEY_LEFT: case KEY_RIGHT: {
      int dir = ch == KEY_LEFT ? -1 : 1;
      if (kind == KROW_PARAM)
         Ui_stepParam(ui, idx, dir, false);
      else
         Ui_stepVariant(ui, dir);
      break;
   }
   case '-': case '+': case '=': case KEY_SLEFT: case KEY_SRIGHT: {
      int dir = ch == '-' || ch == KEY_SLEFT ? -1 : 1;
      if (kind == KROW_PARAM)
         Ui_stepParam(ui, idx, dir, true);
      else
         Ui_stepVariant(ui, dir);
      break;
   }
   case '\n': case '\r': case KEY_ENTER:
      if (kind == KROW_VARIANT)
         Ui_selectKernel(ui, idx, NULL);
      break;
   default: break;
   }
   if (ui->kcursor < 0)
      ui->kcursor = 0;
   if (ui->kcursor >= rows)
      ui->kcursor = rows - 1;
}

static void historyKey(Ui *ui, int ch) {
   int n = ui->hist.count;
   if (n == 0)
      return;
   int cur = ui->hist_cursor;
   if (cur < 0) {
      cur = Ui_historyMeasured(ui);
      if (cur < 0)
         cur = n - 1;
   }
   switch (ch) {
   case KEY_UP: case 'k': cur--; break;
   case KEY_DOWN: case 'j': cur++; break;
   case KEY_PPAGE: cur -= paneHeight(ui, PANE_HISTORY); break;
   case KEY_NPAGE: cur += paneHeight(ui, PANE_HISTORY); break;
   case KEY_HOME: cur = 0; break;
   case KEY_END: cur = n - 1; break;
   case '\n': case '\r': case KEY_ENTER:
      Ui_restoreHistory(ui, cur);
      return;
   default: return;
   }
   ui->hist_cursor = cur < 0 ? 0 : cur >= n ? n - 1 : cur;
}

static void logKey(Ui *ui, int ch) {
   int page = paneHeight(ui, PANE_LOG) - 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->log_scroll++; break;
   case KEY_DOWN: case 'j': ui->log_scroll--; break;
   case KEY_PPAGE: ui->log_scroll += page > 1 ? page : 1; break;
   case KEY_NPAGE: ui->log_scroll -= page > 1 ? page : 1; break;
   case KEY_HOME: ui->log_scroll = ui->log.count; break;
   case KEY_END: ui->log_scroll = 0; break;
   default: break;
   }
   if (ui->log_scroll > ui->log.count - 1)
      ui->log_scroll = ui->log.count > 0 ? ui->log.count - 1 : 0;
   if (ui->log_scroll < 0)
      ui->log_scroll = 0;
}

/* The inspect pane's listing: a line, a page, its top or its end. */
static void inspectKey(Ui *ui, int ch) {
   int page = paneHeight(ui, PANE_INSPECT) - 2;
   if (page < 1)
      page = 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->inspect_scroll--; break;
   case KEY_DOWN: case 'j': ui->inspect_scroll++; break;
   case KEY_PPAGE: ui->inspect_scroll -= page; break;
   case KEY_NPAGE: ui->inspect_scroll += page; break;
   case KEY_HOME: ui->inspect_scroll = 0; break;
   case KEY_END: ui->inspect_scroll = ui->inspect_nlines; break; /* drawing keeps the last page in view */
   case 'v':
      if (!ui->have_inspect || !ui->inspect.inspection.ok)
         return;
      if (!ui->inspect.inspection.code) {
         Ui_flash(ui, ST_WARN, "no compiled code to switch to: %s", ui->inspect.inspection.note);
         return;
      }
      ui->inspect_source = !ui->inspect_source;
      ui->inspect_scroll = 0;
      Ui_inspectReindex(ui);
      return;
   default: break;
   }
   if (ui->inspect_scroll > ui->inspect_nlines - 1)
      ui->inspect_scroll = ui->inspect_nlines > 0 ? ui->inspect_nlines - 1 : 0;
   if (ui->inspect_scroll < 0)
      ui->inspect_scroll = 0;
}

/* The bank pane's grid: a row, a page, its top or its end (drawing clamps). */
static void banksKey(Ui *ui, int ch) {
   int page = ui->bank_page > 1 ? ui->bank_page - 1 : 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->bank_scroll--; break;
   case KEY_DOWN: case 'j': ui->bank_scroll++; break;
   case KEY_PPAGE: ui->bank_scroll -= page; break;
   case KEY_NPAGE: ui->bank_scroll += page; break;
   case KEY_HOME: ui->bank_scroll = 0; break;
   case KEY_END: ui->bank_scroll = BANKS_MAX_LANES * 2; break; /* drawing keeps the last page in view */
   default: return;
   }
   if (ui->bank_scroll < 0)
      ui->bank_scroll = 0;
   ui->dirty = true;
}

void PaneKeys_mouse(Ui *ui) {
   MEVENT ev;
   if (getmouse(&ev) != OK)
      return;
   if (ui->dialog) {
      Dialog_mouse(ui, ev.x, ev.y, (ev.bstate & BUTTON1_DOUBLE_CLICKED) != 0);
      return;
   }
   int pane = -1;
   for (int p = 0; p < PANE_COUNT; p++)
      if ((ui->layout.shown & PANE_BIT(p)) && Rect_contains(ui->layout.pane[p], ev.x, ev.y))
         pane = p;
#ifdef BUTTON5_PRESSED
   if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
      int key = ev.bstate & BUTTON4_PRESSED ? KEY_UP : KEY_DOWN;
      if (pane == PANE_LOG)
         logKey(ui, key), logKey(ui, key), logKey(ui, key);
      else if (pane == PANE_INSPECT)
         inspectKey(ui, key), inspectKey(ui, key), inspectKey(ui, key);
      else if (pane == PANE_KERNEL)
         kernelKey(ui, key);
      else if (pane == PANE_HISTORY)
         historyKey(ui, key);
      else if (pane == PANE_BANKS)
         banksKey(ui, key), banksKey(ui, key), banksKey(ui, key);
      else if (pane == PANE_LESSON)
         LessonUi_paneKey(ui, key), LessonUi_paneKey(ui, key), LessonUi_paneKey(ui, key);
      return;
   }
#endif
   if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED)))
      return;
   if (pane >= 0)
      ui->focus = pane;
   for (int i = ui->nhits - 1; i >= 0; i--) {
      const Hit *h = &ui->hits[i];
      if (!Rect_contains(h->r, ev.x, ev.y))
         continue;
      switch (h->kind) {
      case HIT_VALUE: ui->kcursor = 1 + h->a; Ui_setParamValue(ui, h->a, h->b); break;
      case HIT_VARIANT: ui->kcursor = h->b; Ui_selectKernel(ui, h->a, NULL); break;
      case HIT_ROW: ui->kcursor = h->a; break;
      case HIT_HISTORY:
         ui->hist_cursor = h->a;
         if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
            Ui_restoreHistory(ui, h->a);
         break;
      case HIT_PANE: break;
      }
      return;
   }
}

void PaneKeys_focused(Ui *ui, int ch) {
   bool stepping = ch == KEY_LEFT || ch == KEY_RIGHT || ch == '-' || ch == '+' || ch == '=' || ch == KEY_SLEFT ||
                   ch == KEY_SRIGHT;
   bool enter = ch == '\n' || ch == '\r' || ch == KEY_ENTER;
   switch (ui->focus) {
   case PANE_KERNEL: kernelKey(ui, ch); break;
   case PANE_HISTORY: historyKey(ui, ch); break;
   case PANE_LOG: logKey(ui, ch); break;
   case PANE_BANKS:
      if (stepping)
         kernelKey(ui, ch);
      else
         banksKey(ui, ch);
      break;
   case PANE_SWEEP:
      if (enter)
         SweepView_applyBest(ui);
      else if (stepping)
         kernelKey(ui, ch);
      break;
   case PANE_INSPECT:
      if (stepping)
         kernelKey(ui, ch);
      else
         inspectKey(ui, ch);
      break;
   case PANE_LESSON:
      if (stepping)
         kernelKey(ui, ch);
      else
         LessonUi_paneKey(ui, ch);
      break;
   default:
      /* Stepping acts on the kernel pane when the focused pane has no use for it. */
      if (stepping)
         kernelKey(ui, ch);
      break;
   }
}
