#!/bin/sh
# Resizing: a terminal below the minimum shows "terminal too small (need WxH)" (golden),
# growing back restores the panes; small terminals stack, drop or zoom panes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

ui_start 80 24 -- --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "starts at 80x24"
ui_resize 40 10
ui_expect "terminal too small (need 60x16)" "40x10: terminal too small, with the size needed"
ui_golden ui_too_small_40x10.txt "40x10: the whole screen"
ui_resize 100 30
ui_expect " 2 Results" "grown to 100x30: the panes are back"
ui_expect_re "verify +[^ ]+ verified" "100x30: the results are still there"
ui_more_launches "100x30: measuring went on meanwhile"

# The minimum size works (waiting for the redraw: the old screen, cropped, has the results too).
ui_resize 60 16
ui_expect " 2 Results" "60x16 (the minimum) shows the results"
case "$UI_LAST" in *"too small"*) not_ok "60x16 is not too small" "$UI_LAST" ;; *) ok "60x16 is not too small" ;; esac

# Panes toggle with their numbers; z zooms the focused one.
ui_resize 80 24
ui_expect " 4 Log" "80x24: the log pane"
ui_keys 4
ui_expect_gone " 4 Log" "4 hides the log pane" 10
ui_keys 4
ui_expect " 4 Log" "4 shows it again"
ui_keys 5
ui_expect " 5 Bank conflicts" "5 shows the bank-conflict pane (room kept for it)"
ui_keys 5 Tab
ui_keys z
# Wait for the zoom itself (the results pane was on screen before it too).
if ui_gone " 1 Kernel" 10; then
   case "$UI_LAST" in
   *" 2 Results"*) ok "z zooms the focused pane (results) alone" ;;
   *) not_ok "z zooms the focused pane (results) alone" "$UI_LAST" ;;
   esac
else
   not_ok "z zooms the focused pane (results) alone" "$UI_LAST"
fi
ui_keys z
ui_expect " 1 Kernel" "z again shows every pane"
ui_keys q
ui_expect_exit 0 "q quits"

# Preferences: the panes come back as they were left.
ui_start 80 24 -- --kernel mygemm01_naive --size 64
ui_expect " 2 Results" "started again"
ui_keys 3
ui_expect_gone " 3 History" "3 hides the history pane" 10
ui_keys q
ui_expect_exit 0 "q quits, saving the panes"
grep -q "^panes = kernel results log$" "$XDG_CONFIG_HOME/gemmtop/ui.conf" && ok "ui.conf keeps the visible panes" ||
   not_ok "ui.conf keeps the visible panes" "$(cat "$XDG_CONFIG_HOME/gemmtop/ui.conf" 2>&1)"
ui_start 80 24 -- --kernel mygemm01_naive --size 64
ui_expect " 2 Results" "started once more"
case "$UI_LAST" in *" 3 History"*) not_ok "the history pane stays hidden" "$UI_LAST" ;; *) ok "the history pane stays hidden" ;; esac
ui_keys q
ui_expect_exit 0 "q quits"
finish
