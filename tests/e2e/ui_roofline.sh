#!/bin/sh
# The roofline pane (0), on PoCL: with no ceilings measured it names the limiter and says
# how to measure them; F6 measures them and the roof is drawn (the bandwidth's slope up to
# the compute peak) with the configuration as a point at its model intensity, the limiter
# in words above; another variant leaves the first as a point of the trail; the help page
# lists the pane's digit from the pane table; it fits 80x24 and 120x40; a kernel memory-bound
# by design gets its share of the copy bandwidth in the results pane.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init
# The ceilings measured here stay in this script's cache: other scripts expect none.
XDG_CACHE_HOME="$T_DIR/cache"
export XDG_CACHE_HOME

ui_start 120 40 -- -U --preset 03-wpt --size 256
ui_expect_re "verify +ok verified" "the configuration verifies"
ui_keys 0
ui_expect " 0 Roofline  " "0 shows the roofline pane"
ui_expect "limit: latency and overhead: no ceiling is near (no ceiling measured" \
   "with no ceilings, the limiter says none is measured"
ui_expect "no roof yet: the device's ceilings are not measured (F6 measures" "and F6 is named"
ui_keys F6
ui_expect_re "peak FP32 [0-9.]+ FP64 [0-9.]+ GFLOPS, [0-9.]+ GB/s" "F6 measures the ceilings" 120
ui_expect_re "measured bandwidth: reads [0-9.]+ GB/s, L2 [0-9.]+ GB/s" "the log gives the read and L2 bandwidths"
ui_keys z
ui_expect_re "limit: (latency and overhead: no ceiling is near \(compute [0-9]+%, memory [0-9]+%(, L2 [0-9]+%)?\)|compute: [0-9]+% of the measured FP32 peak|global memory: [0-9]+%|L2 cache: [0-9]+%|local memory: [0-9]+%|local memory: the model's reads would need|the launch itself)" \
   "zoomed: the limiter with the measured figures"
ui_expect_re "(nearest|next): (compute( \(instruction issue\))?|global memory|L2 cache|local memory): ((about )?[0-9]+%|the model's reads would need)" \
   "and the headroom to the next ceiling"
ui_expect_re "F/B\+ *[0-9.]+ +[0-9.]+ +[0-9.]+" "the intensity axis in decades"
ui_expect_re "[0-9.]+ GFLOPS at 7\.53 flops/byte" "the title gives the point: 03-wpt's model intensity (TS=32) at 256"
# The roof: ASCII '*' cells from the bottom left up to the peak, flat after it, in the
# chart's top rows (the peak's label, or the GFLOPS label under it).
roof() { printf '%s\n' "$UI_LAST" | grep -E '^ +([0-9.]+|GFLOPS)\|.*\*{8,}' >/dev/null; }
if ui_wait_for roof 10; then ok "the compute peak's flat roof is drawn at the top"; else not_ok "the compute peak's flat roof is drawn at the top" "$UI_LAST"; fi
# The L2's roof ('.' in ASCII) to the left of the memory's, where the measured L2 is faster
# than the copy (the cache file says); none where it is not.
peaks=$(cat "$XDG_CACHE_HOME"/gemmtop/peaks/*.txt 2>/dev/null)
copy=$(printf '%s\n' "$peaks" | awk '$1 == "copy_gbps" { print $2 }')
l2=$(printf '%s\n' "$peaks" | awk '$1 == "l2_gbps" { print $2 }')
# (Twice the copy or more: a column or more apart at any width; nearer, the memory's roof
# may cover it, and only the title names it.)
if awk -v c="$copy" -v l="$l2" 'BEGIN { exit !(l >= 2 * c) }'; then
   l2roof() { printf '%s\n' "$UI_LAST" | grep -Eq '^ +[0-9.]*\| *\.{2,} +\*{2,}' &&
      printf '%s\n' "$UI_LAST" | grep -q '\* memory  \. L2'; }
   what="the L2's roof (L2 $l2 GB/s) left of the memory's (copy $copy GB/s), named in the title"
elif awk -v c="$copy" -v l="$l2" 'BEGIN { exit !(l > c) }'; then
   l2roof() { printf '%s\n' "$UI_LAST" | grep -q '\* memory  \. L2'; }
   what="the L2's roof (L2 $l2 GB/s, near the copy's $copy GB/s) named in the title"
else
   l2roof() { ! printf '%s\n' "$UI_LAST" | grep -Eq '^ +[0-9.]*\|.*\.\.'; }
   what="no L2 roof: the measured L2 ($l2 GB/s) is not above the copy bandwidth ($copy GB/s)"
fi
if ui_wait_for l2roof 10; then ok "$what"; else not_ok "$what" "$UI_LAST"; fi
point() { printf '%s\n' "$UI_LAST" | grep -q '@'; }
if ui_wait_for point 10; then ok "the configuration is a point (@)"; else not_ok "the configuration is a point (@)" "$UI_LAST"; fi
# Another variant: the first stays as a point of the trail.
ui_keys '>'
ui_expect_re "[0-9.]+ GFLOPS at [0-9.]+ flops/byte" "the next variant is placed" 60
trail() { printf '%s\n' "$UI_LAST" | grep -q 'o'  && printf '%s\n' "$UI_LAST" | grep -Eq '^ +\|.*o|^ +[0-9.]+\|.*o'; }
if ui_wait_for trail 60; then ok "the one before stays as a point of the trail (o)"; else not_ok "the one before stays as a point of the trail (o)" "$UI_LAST"; fi
ui_keys F1
ui_keys Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down
ui_keys Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down
ui_expect "show / hide the Roofline pane" "the help page lists the pane's digit, from the pane table"
ui_keys q
ui_keys q
ui_expect_exit 0 "q quits"

# A lesson with the ceilings measured: each step's row keeps what limited it, and the next
# step says how it moved the limit; the exports carry it.
mkdir -p "$T_DIR/lesson" && cd "$T_DIR/lesson" || exit 1
rm -rf "$XDG_CONFIG_HOME/gemmtop" # the layout as it starts, without the roofline pane shown above
ui_start 130 60 -- lesson mygemm -U --size 64
ui_expect "mygemm: step 1/" "the mygemm lesson starts"
# The limiter's lines come after the ladder: the lesson pane (the last) focused, at its end.
ui_keys BTab
# (the pane grows as the step measures: End again at each look)
at_end_shows() { ui_keys End; printf '%s\n' "$UI_LAST" | grep -qE "$SHOWN_RE"; }
SHOWN_RE="limit of this step: "
if ui_wait_for at_end_shows 120; then ok "step 1 says what limits it"; else not_ok "step 1 says what limits it" "$UI_LAST"; fi
row1() { printf '%s\n' "$UI_LAST" | grep -qE "> +1 +[0-9]+\.[0-9]+ "; }
if ui_wait_for row1 300; then ok "step 1's row is taken"; else not_ok "step 1's row is taken" "$UI_LAST"; fi
ui_keys n
ui_expect "mygemm: step 2/" "n: step 2"
SHOWN_RE="before it, step 1 was limited by [A-Za-z0-9 ]+"
if ui_wait_for at_end_shows 300; then ok "step 2 says what limited step 1 and whether it moved"
else not_ok "step 2 says what limited step 1 and whether it moved" "$UI_LAST"; fi
ui_keys E
# ("not exported" would say why: the words of a success only)
ui_expect_re "ladder (table )?exported" "E exports the ladder" 30
csv=$(ls "$T_DIR"/lesson/*.csv 2>/dev/null | head -1)
if [ -n "$csv" ] && python3 -c 'import csv,sys
rows=list(csv.DictReader(open(sys.argv[1])))
sys.exit(0 if rows and rows[0]["limit"] and rows[0]["limit"][0].isalpha() else 1)' "$csv"; then
   ok "the CSV's limit column has step 1's limiter"
else
   not_ok "the CSV's limit column has step 1's limiter" "$(ls -la "$T_DIR/lesson" 2>&1; cat "$csv" 2>&1 | head -3)
$UI_LAST"
fi
ui_keys q
ui_keys q
ui_expect_exit 0 "the lesson quits"
cd "$T_DIR" || exit 1

rm -rf "$XDG_CONFIG_HOME/gemmtop"
ui_start 80 24 -- -U --preset 03-wpt --size 128
ui_expect_re "verify +ok verified" "80x24: the configuration verifies"
ui_keys 0
ui_expect " 0 Roofline" "80x24: 0 shows the pane"
ui_expect_re "limit: " "80x24: with the limiter"
ui_keys q
ui_expect_exit 0 "80x24: q quits"

# A kernel memory-bound by design (bound: memory): the results pane puts its run against the
# measured copy bandwidth too; a compute-bound one (03-wpt above) has no such line.
rm -rf "$XDG_CONFIG_HOME/gemmtop"
ui_start 120 40 -- -U --preset fast-05-decode-float --size 8x512x1024
ui_expect_re "verify +ok verified" "the decode kernel verifies"
ui_expect_re "memory +[0-9.]+% of the measured copy bandwidth" "the results pane gives its share of the copy bandwidth" 60
ui_keys q
ui_expect_exit 0 "the decode kernel: q quits"
finish
