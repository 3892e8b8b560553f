#!/bin/sh
# Help: F1, ? and h open a page with every key and its letter alias (a golden screen);
# Esc, q or any other key closes it and the explorer carries on.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

ui_start 80 24 -- --kernel mygemm01_naive --size 64
ui_expect " 2 Results" "the explorer is up"
ui_keys F1
ui_expect "gemmtop explorer: keys" "F1 opens the help"
ui_golden ui_help_80x24.txt "the help page at 80x24"
for key in "F1  ? h" "F2  s" "F3  p" "F4  w" "F5  r" "F6  m" "F7  b" "F8  Space" "F9  c" "Esc" "F10 q" "Tab" "1 2 3 4 5"; do
   case "$UI_LAST" in
   *"$key"*) ok "help lists '$key'" ;;
   *) not_ok "help lists '$key'" "$UI_LAST" ;;
   esac
done
ui_keys Escape
ui_expect " 2 Results" "Esc closes the help"
ui_keys ?
ui_expect "gemmtop explorer: keys" "? opens the help"
ui_keys q
ui_expect " 2 Results" "q closes the help (and does not quit)"
ui_keys h
ui_expect "gemmtop explorer: keys" "h opens the help"
ui_keys F1
ui_expect " 2 Results" "F1 closes it again"
ui_more_launches "measuring went on behind the help"

# A short terminal scrolls the help.
ui_resize 70 16
ui_keys F1
ui_expect "Up/Down scroll" "at 70x16 the help says it scrolls"
ui_keys Down Down Down Down Down Down Down Down Down Down Down Down Down Down
ui_expect "mouse" "Down scrolls to the last key"
ui_expect "6 i          inspect pane" "the help lists 6 and i for the inspect pane"
ui_keys Escape
ui_keys q
ui_expect_exit 0 "q quits"
finish
