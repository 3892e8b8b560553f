#!/bin/sh
# The compare pane: C pins a configuration, a change of PADDING (0 -> 2) puts the new one
# beside it: GFLOPS with their ratio, registers and local memory, instruction counts, and
# each access site's wavefronts against the ideal (the transposed store: 16 times the
# ideal with PADDING=0, the ideal with PADDING=2).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

ui_start 140 50 -- --preset 05-transposed-pad0 --size 64
ui_expect_re "verify +[^ ]+ verified" "the preset's configuration verifies"
ui_keys 9
ui_expect "C pins the configuration measured now" "9 shows the compare pane, saying what C does"
# Pinned once its bank trace is in: the pinned side then has its bank table.
ui_expect_re "local memory traced" "the compare pane asks for the bank trace"
ui_keys C
ui_expect_re "pinned +05_transposed TS=32 TSDK=16 WPT=8 PADDING=0" "C pins the configuration"
ui_keys z
ui_expect_re "1 Bsub store \(transposed\) +256/16 " "the pinned side has its bank table: 256 wavefronts for an ideal 16"
# ... and its instruction counts, which the worker reads apart from the trace (on a loaded
# machine, after it): the pinned side takes them while it is still the one measured.
if have_llvm_tool llvm-objdump; then
   ui_expect_re "instructions +[0-9]+ +[0-9]+ " "the pinned side has its instruction counts"
fi
# The kernel pane (Tab from the compare pane), PADDING's row: 0 -> 2.
ui_keys z Tab Down Down Down Down Right Right
ui_expect_re "now +05_transposed TS=32 TSDK=16 WPT=8 PADDING=2" "PADDING=2 is the current configuration"
# Back to the compare pane (the last shown: S-Tab from the first), zoomed for its rows.
ui_keys BTab z
ui_expect_re "1 Bsub store \(transposed\) +256/16 +16/16 +conflicts 240 -> 0" "the transposed store side by side: 240 conflicts, then none"
ui_expect_re "GFLOPS +[0-9.]+ +[0-9.]+ +[0-9.]+x" "GFLOPS of both and their ratio"
ui_expect_re "local bytes +[0-9]+ +[0-9]+ +[0-9.]+x" "local memory of both"
# PoCL's CPU code is read with llvm-objdump (cli_inspect.sh skips the same way without it).
if have_llvm_tool llvm-objdump; then
   ui_expect_re "instructions +[0-9]+ +[0-9]+ +[0-9.]+x" "instruction counts of both"
else
   ok "instruction counts of both # SKIP llvm-objdump is not installed"
fi
ui_keys z C
ui_expect_re "pinned 05_transposed .*PADDING=2: change the configuration" "C pins the current one in its place"
ui_keys C
ui_expect "unpinned" "C on the pinned configuration unpins it"
ui_keys q
ui_expect_exit 0 "q quits"
finish
