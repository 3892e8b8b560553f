#!/bin/sh
# Compiling ahead: on a CPU it waits while measuring (auto); 'A' (auto, on, off) turns it on, the
# neighbours of the verified configuration are compiled in the background, and stepping
# onto one is a load from the disk cache, marked "compiled ahead"; with it off, a step
# onto a configuration not compiled before compiles (the control); auto compiles while
# paused; the choice is kept in ui.conf; quit does not wait.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init
# The naive kernel at 64: TSN and TSM 16 have four valid neighbours (8 and 32 each).
ui_start 120 40 -- --kernel mygemm01_naive --size 64
ui_expect_re "config +01_naive TSN=16 TSM=16" "starts with TSN=16 TSM=16"
ui_expect_re "verify +[^ ]+ verified" "the first configuration verifies"
ui_expect_re "compile +[0-9]+ ms" "it was compiled (a fresh cache)"
ui_expect_re "ahead +waits: a CPU device is measuring" "auto: nothing is compiled ahead while a CPU measures"

ui_keys A
ui_expect "compile ahead: on" "a turns it on"
ui_expect_re "ahead +4/4 compiled \(on\)" "the four neighbours are compiled in the background"

# Off before stepping, so that nothing more is compiled ahead; then Down to TSN, Right:
# TSN=32, one of the neighbours compiled while it was on.
ui_keys A
ui_expect "compile ahead: off" "a again: off"
ui_expect_re "ahead +off" "the results pane says off"
ui_keys Down Right
ui_expect_re "config +01_naive TSN=32 TSM=16" "Right steps onto a neighbour (TSN=32)"
ui_expect_re "compile +cached \(disk, compiled ahead, loaded in [0-9]+ ms\)" "it comes from the disk cache, compiled ahead"
ui_expect_re "verify +[^ ]+ verified" "and verifies"
# The log, zoomed so that its lines do not wrap: the cache load, the time from the change.
ui_keys Tab Tab Tab z
ui_expect_re "TSN=32 TSM=16: from the disk cache" "the log says it was loaded from the disk cache"
ui_expect_re "TSN=32 TSM=16: verified .*\([0-9]+ ms after the change\)" "the log gives the time from the change"
ui_keys z BTab BTab BTab

# One more step: TSN=64 was never compiled, so it compiles now (the control).
ui_keys Right
ui_expect_re "config +01_naive TSN=64 TSM=16" "Right steps to TSN=64"
ui_expect_re "verify +[^ ]+ verified" "TSN=64 verifies"
if ui_wait_re "compile +[0-9]+ ms" 5; then
   ok "not compiled ahead, TSN=64 is compiled when asked for"
else
   not_ok "not compiled ahead, TSN=64 is compiled when asked for" "$UI_LAST"
fi

# Auto while paused: a CPU is free, so the neighbours are compiled.
ui_keys A
ui_expect "compile ahead: auto" "a again: auto"
ui_keys Space
ui_expect "paused" "space pauses"
ui_expect_re "ahead +([0-9]+)/\1 compiled \(auto\)" "auto compiles ahead while measuring is paused"
ui_keys Space
ui_expect_re "ahead +waits" "and waits again when measuring resumes"

# On, kept across a restart.
ui_keys A
ui_expect "compile ahead: on" "a: on"
start=$(date +%s)
ui_keys q
ui_expect_exit 0 "q quits"
took=$(($(date +%s) - start))
if [ "$took" -le 3 ]; then ok "quitting took ${took}s"; else not_ok "quitting took ${took}s"; fi
if grep -qx "ahead = on" "$XDG_CONFIG_HOME/gemmtop/ui.conf"; then
   ok "ui.conf keeps 'ahead = on'"
else
   not_ok "ui.conf keeps 'ahead = on'" "$(cat "$XDG_CONFIG_HOME/gemmtop/ui.conf")"
fi
ui_start 120 40 -- --kernel mygemm01_naive --size 64
ui_expect_re "ahead +[0-9]+/[0-9]+ compiled.*\(on\)" "after a restart it is on, without a key"

# Quit while a neighbour compiles: not waited for. mygemm03_wpt has four neighbours at
# 64, each most of a second to compile on PoCL.
ui_keys q
ui_expect_exit 0 "q quits again"
ui_start 120 40 -- --kernel mygemm03_wpt --size 64
ui_expect_re "verify +[^ ]+ verified" "mygemm03_wpt verifies"
# One compiling with one core to spare, two with more (Ahead_defaultThreads).
ui_expect_re "ahead +[0-9]/4 compiled, [12] compiling" "its neighbours compile"
start=$(date +%s)
ui_keys q
ui_expect_exit 0 "q while a neighbour compiles"
took=$(($(date +%s) - start))
if [ "$took" -le 3 ]; then ok "quitting took ${took}s"; else not_ok "quitting took ${took}s"; fi
finish
