#!/bin/sh
# The bank pane: the local-memory trace of the verified configuration, its per-site
# table, one request drawn as lanes x banks, stepping through sites, warps and loop
# iterations, and a new analysis when a parameter changes (PADDING 0 -> 2).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

ui_start 140 60 -- --preset 05-transposed-pad0 --size 64
ui_expect_re "verify +[^ ]+ verified" "the preset's configuration verifies"
ui_keys 5
ui_expect "5 Bank conflicts" "5 shows the bank pane"
ui_expect_re "model [^:]+: 32 banks" "the pane names the bank model"
ui_expect_re "traced 1 group of [0-9]+ items" "the pane says what was traced"
ui_expect_re "> 0 Asub store" "the table is drawn with the first site selected"
ui_expect_re "1 Bsub store \(transp.* 16\.00x" "the transposed store has 16-way conflicts"
ui_expect_re "site 0 warp 0/[0-9]+ iter 1/[0-9]+: store" "the grid is of site 0, warp 0"
ui_keys ]
ui_expect_re "> 1 Bsub store" "] selects the next site"
ui_expect_re "site 1 warp 0/[0-9]+ iter 1/[0-9]+: store 4 B, 16 wavefronts" "the grid is of site 1: 16 wavefronts"
if printf '%s\n' "$UI_LAST" | grep -Eq 'l[0-9]+ +[.1]*[2-9a-zA-Z#]'; then
   ok "the grid shows later passes as digits"
else
   not_ok "the grid shows later passes as digits" "$UI_LAST"
fi
ui_keys '}'
ui_expect_re "site 1 warp 1/[0-9]+ iter 1/" "} steps to the next warp"
ui_keys ')'
ui_expect_re "site 1 warp 1/[0-9]+ iter 2/" ") steps to the next loop iteration"
ui_keys '(' '{'
ui_expect_re "site 1 warp 0/[0-9]+ iter 1/" "( and { step back"
ui_keys [
ui_expect_re "> 0 Asub store" "[ selects the previous site"
ui_keys ]

# PADDING 0 -> 2 on the kernel pane: a new trace, the conflicts gone.
ui_keys Tab
ui_keys Down Down Down Down Right Right
ui_expect_re "PADDING=2" "PADDING is 2"
ui_expect_re "> 1 Bsub store \(transp.* +0 +1\.00x +1\.00x" "with PADDING=2 the transposed store is conflict-free"
ui_expect_re "site 1 warp 0/[0-9]+ iter 1/[0-9]+: store 4 B, 1 wavefront, ideal 1, 0 conflicts" "its grid: one wavefront"

ui_keys q
ui_expect_exit 0 "q quits"
finish
