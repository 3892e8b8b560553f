/* The keys that act in the focused pane (moving, stepping a value, Enter, v) and the
 * mouse. Which keys come here, and what the help says of them, is the table in keys.c. */
#include <string.h>

#include "core/analyse/banks.h"
#include "base/util.h"
#include "tui/app.h"
#include "tui/lesson_ui.h"

static int paneHeight(const Ui *ui, int p) {
   int h = ui->layout.pane[p].h - 1;
   return h > 1 ? h : 1;
}

bool PaneKeys_kernel(Ui *ui, int ch) {
   int rows = Ui_kernelRows(ui), idx;
   KRowKind kind = Ui_kernelRow(ui, ui->kernel_pane.cursor, &idx);
   int page = paneHeight(ui, PANE_KERNEL) / 2;
   switch (ch) {
   case KEY_UP: case 'k': ui->kernel_pane.cursor--; break;
   case KEY_DOWN: case 'j': ui->kernel_pane.cursor++; break;
   case KEY_PPAGE: ui->kernel_pane.cursor -= page; break;
   case KEY_NPAGE: ui->kernel_pane.cursor += page; break;
   case KEY_HOME: ui->kernel_pane.cursor = 0; break;
   case KEY_END: ui->kernel_pane.cursor = rows - 1; break;
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
   if (ui->kernel_pane.cursor < 0)
      ui->kernel_pane.cursor = 0;
   if (ui->kernel_pane.cursor >= rows)
      ui->kernel_pane.cursor = rows - 1;
   return true;
}

/* The history's cursor; every key is its own (stepping does nothing here). */
bool PaneKeys_history(Ui *ui, int ch) {
   int n = ui->hist.count;
   if (n == 0)
      return true;
   int cur = ui->history_pane.cursor;
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
      return true;
   default: return true;
   }
   ui->history_pane.cursor = cur < 0 ? 0 : cur >= n ? n - 1 : cur;
   return true;
}

/* The log's scroll; every key is its own (stepping does nothing here). */
bool PaneKeys_log(Ui *ui, int ch) {
   int page = paneHeight(ui, PANE_LOG) - 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->log_pane.scroll++; break;
   case KEY_DOWN: case 'j': ui->log_pane.scroll--; break;
   case KEY_PPAGE: ui->log_pane.scroll += page > 1 ? page : 1; break;
   case KEY_NPAGE: ui->log_pane.scroll -= page > 1 ? page : 1; break;
   case KEY_HOME: ui->log_pane.scroll = ui->log.count; break;
   case KEY_END: ui->log_pane.scroll = 0; break;
   default: break;
   }
   if (ui->log_pane.scroll > ui->log.count - 1)
      ui->log_pane.scroll = ui->log.count > 0 ? ui->log.count - 1 : 0;
   if (ui->log_pane.scroll < 0)
      ui->log_pane.scroll = 0;
   return true;
}

/* The inspect pane's listing: a line, a page, its top or its end. */
static void inspectKey(Ui *ui, int ch) {
   int page = paneHeight(ui, PANE_INSPECT) - 2;
   if (page < 1)
      page = 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->inspect_pane.scroll--; break;
   case KEY_DOWN: case 'j': ui->inspect_pane.scroll++; break;
   case KEY_PPAGE: ui->inspect_pane.scroll -= page; break;
   case KEY_NPAGE: ui->inspect_pane.scroll += page; break;
   case KEY_HOME: ui->inspect_pane.scroll = 0; break;
   case KEY_END: ui->inspect_pane.scroll = ui->inspect_pane.nlines; break; /* drawing keeps the last page in view */
   case 'v':
      if (!ui->inspect_pane.have || !ui->inspect_pane.last.inspection.ok)
         return;
      if (!ui->inspect_pane.last.inspection.code) {
         Ui_flash(ui, ST_WARN, "no compiled code to switch to: %s", ui->inspect_pane.last.inspection.note);
         return;
      }
      ui->inspect_pane.source = !ui->inspect_pane.source;
      ui->inspect_pane.scroll = 0;
      Ui_inspectReindex(ui);
      return;
   default: break;
   }
   if (ui->inspect_pane.scroll > ui->inspect_pane.nlines - 1)
      ui->inspect_pane.scroll = ui->inspect_pane.nlines > 0 ? ui->inspect_pane.nlines - 1 : 0;
   if (ui->inspect_pane.scroll < 0)
      ui->inspect_pane.scroll = 0;
}

/* The bank pane's grid: a row, a page, its top or its end (drawing clamps). */
static void banksKey(Ui *ui, int ch) {
   int page = ui->banks_pane.page > 1 ? ui->banks_pane.page - 1 : 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->banks_pane.scroll--; break;
   case KEY_DOWN: case 'j': ui->banks_pane.scroll++; break;
   case KEY_PPAGE: ui->banks_pane.scroll -= page; break;
   case KEY_NPAGE: ui->banks_pane.scroll += page; break;
   case KEY_HOME: ui->banks_pane.scroll = 0; break;
   case KEY_END: ui->banks_pane.scroll = BANKS_MAX_LANES * 2; break; /* drawing keeps the last page in view */
   default: return;
   }
   if (ui->banks_pane.scroll < 0)
      ui->banks_pane.scroll = 0;
   ui->dirty = true;
}

bool PaneKeys_isStepping(int ch) {
   return ch == KEY_LEFT || ch == KEY_RIGHT || ch == '-' || ch == '+' || ch == '=' || ch == KEY_SLEFT ||
          ch == KEY_SRIGHT;
}

bool PaneKeys_none(Ui *ui, int ch) {
   (void)ui;
   (void)ch;
   return false;
}

bool PaneKeys_banks(Ui *ui, int ch) {
   if (PaneKeys_isStepping(ch))
      return false;
   banksKey(ui, ch);
   return true;
}

bool PaneKeys_inspect(Ui *ui, int ch) {
   if (PaneKeys_isStepping(ch))
      return false;
   inspectKey(ui, ch);
   return true;
}

/* Enter applies the sweep's best configuration. */
bool PaneKeys_sweep(Ui *ui, int ch) {
   if (ch != '\n' && ch != '\r' && ch != KEY_ENTER)
      return false;
   SweepView_applyBest(ui);
   return true;
}

bool PaneKeys_lesson(Ui *ui, int ch) {
   if (PaneKeys_isStepping(ch))
      return false;
   LessonUi_paneKey(ui, ch);
   return true;
}

