#!/bin/sh
# The bank pane: the local-memory trace of the verified configuration, its per-site
# table, one request drawn as lanes x banks, stepping through sites, warps and loop
# iterations, and a new analysis when a parameter changes (PADDING 0 -> 2); a whole warp
# at 120x40 zoomed, scrolling at 80x24, a 64-lane wavefront with 8-byte phases.
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
# The title names first what changed since the trace before: PADDING, where a cut would fall.
ui_expect_re "Bank conflicts  mygemm05_transposed PADDING=2 TS=" "the bank pane's title puts the changed PADDING first"
ui_expect_re "> 1 Bsub store \(transp.* +0 +1\.00x +1\.00x" "with PADDING=2 the transposed store is conflict-free"
ui_expect_re "site 1 warp 0/[0-9]+ iter 1/[0-9]+: store 4 B, 1 wavefront, ideal 1, 0 conflicts" "its grid: one wavefront"

ui_keys q
ui_expect_exit 0 "q quits"

# A whole warp: at 120x40 the zoomed pane shows lanes 0-31 at once (the notes beside the
# grid), with bank numbers in two rows and the traced configuration in its title.
# lanes_all FIRST LAST: every lane row from FIRST to LAST is on the screen.
lanes_all() {
   _l=$1
   while [ "$_l" -le "$2" ]; do
      printf '%s\n' "$UI_LAST" | grep -Eq "^ l$_l +[.1-9a-zA-Z#]+ " || return 1
      _l=$((_l + 1))
   done
}
# Each start with fresh preferences: the panes shown are remembered at quit.
ui_start 120 40 XDG_CONFIG_HOME="$T_DIR/config-warp" -- --kernel mygemm02_tiled --set TS=32 --size 64
ui_keys 5
ui_expect "z zoom" "the bank pane's hint says z zooms"
ui_keys z
ui_expect "z back" "zoomed, the hint says z goes back"
ui_expect_re "site 0 warp 0/[0-9]+ iter 1/" "TS=32: the bank pane draws a request"
ui_expect_re "Bank conflicts  mygemm02_tiled TS=32 \(float, traced at [0-9]+x[0-9]+x[0-9]+\)" \
   "the title names the configuration traced"
all_32() { lanes_all 0 31; }
if ui_wait_for all_32 10; then ok "120x40 zoomed: lanes 0-31 all shown"; else not_ok "120x40 zoomed: lanes 0-31 all shown" "$UI_LAST"; fi
if ui_line "lanes [0-9]+-[0-9]+ of 32" >/dev/null; then
   not_ok "120x40 zoomed: the grid does not scroll" "$UI_LAST"
else
   ok "120x40 zoomed: the grid does not scroll"
fi
ui_expect_re "^ bank 0 +1 +2 +3" "bank tens above the grid"
ui_expect_re "^ +01234567890123456789012345678901 offset" "bank units under them"
ui_expect_re "cell: the pass in which that bank serves the lane" "a legend"
# 80x24, still zoomed: the grid scrolls, and End reaches lane 31.
ui_resize 80 24
ui_expect_re "lanes 0-[0-9]+ of 32: Up Down PgUp PgDn scroll" "80x24: the grid says it scrolls"
ui_keys End
ui_expect_re "lanes [0-9]+-31 of 32" "End scrolls to the last lanes"
ui_expect_re "^ l31 +[.1]+ @124" "lane 31 is shown"
ui_keys Home
ui_expect_re "^ l0 +1[.]+ @0" "Home goes back to lane 0"
ui_keys q
ui_expect_exit 0 "q quits"

# An AMD wavefront: --simd-width 64 draws 64 lanes (scrolling), double's 8-byte accesses
# in phases of 16 lanes with a separator before each.
ui_start 120 40 XDG_CONFIG_HOME="$T_DIR/config-wave" -- --kernel mygemm02_tiled --set TS=16 --size 64 --precision double \
   --simd-width 64
ui_keys 5
ui_expect_re "model custom: 32 banks x 4 B, SIMD 64" "--simd-width 64 reaches the bank model"
ui_keys z
ui_expect_re "lanes 0-[0-9]+ of 64" "64 lanes, scrolling"
ui_expect_re "store 8 B" "double: 8-byte accesses"
ui_expect_re "phase 0: lanes 0-15, [0-9]+ wavefronts?" "a heading before phase 0 (lanes 0-15)"
ui_expect_re "phase 1: lanes 16-31, [0-9]+ wavefronts?" "a separator before phase 1 (lanes 16-31)"
ui_keys End
ui_expect_re "^ l63 +[.1-9]+ @" "End reaches lane 63"
# W, in the explorer: the device's width again, then 32, then 64 (the DCU lesson's step).
ui_keys z W
ui_expect "bank model: the device's own SIMD width" "W: back to the device's SIMD width"
ui_expect_re "model default: 32 banks x 4 B, SIMD 32" "and the pane's model follows"
ui_keys W
ui_expect "bank model: 32 lanes served together, NVIDIA's warp" "W: 32 lanes"
ui_keys W
ui_expect "bank model: 64 lanes served together, AMD's and the DCU's wavefront" "W: 64 lanes"
ui_expect_re "model custom: 32 banks x 4 B, SIMD 64" "and the pane is analysed again under it"
ui_keys q
ui_expect_exit 0 "q quits"
finish
