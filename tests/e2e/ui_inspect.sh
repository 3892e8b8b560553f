#!/bin/sh
# The inspect pane (6 or i): for the configuration measured, a one-line summary, the
# resources (registers, private memory or spills, local memory), the occupancy estimate
# and the code listing; refreshed when the variant changes; the listing scrolls with
# j k PgUp PgDn Home End when the pane has the focus. On PoCL it is the CPU code PoCL
# built (llvm-objdump), or, without llvm-objdump, the pane says that the device gives no
# assembly and shows the kernel after the preprocessor; on NVIDIA's OpenCL it is PTX. v
# switches between the code and the source after the preprocessor.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

ui_start 140 60 -- --kernel mygemm02_tiled --set TS=32 --size 64
ui_expect_re "verify +[^ ]+ verified" "the configuration verifies"
ui_keys 6
ui_expect "6 Inspect  mygemm02_tiled TS=32" "6 shows the inspect pane, titled with the configuration"
# 2 tiles of 32x32 floats: 8 KiB of local memory per work-group of 32x32 items.
ui_expect_re "(no assembly|PTX|CPU code).*local 8\.0 KiB/group.*occupancy" "the summary line: code, local memory, occupancy"
ui_expect_re "local mem +8\.0 KiB per work-group \(1024 work-items\)" "local memory per group and the group size"
ui_expect_re "registers +(not reported by this runtime|[0-9]+ per work-item)" "registers, or that the runtime does not say"
ui_expect_re "occupancy +(unknown for this device|[0-9]+ groups? per .* limited by)" "the occupancy estimate or why there is none"
if printf '%s\n' "$UI_LAST" | grep -q "CPU code (PoCL"; then
   ui_expect_re "code +CPU code: [0-9]+ instructions" "the CPU code PoCL built, with its instruction count"
   ui_expect_re "CPU code \(PoCL, [^)]*\), lines 1-[0-9]+ of [0-9]+" "the listing header names what is shown"
   ui_expect "<_pocl_kernel_gemm>:" "the listing is the disassembled work-group function"
   ui_keys v
   ui_expect "OpenCL C after the preprocessor, lines 1-" "v shows the source after the preprocessor"
   ui_expect "__local real Asub[32][32];" "the source has TS substituted"
   ui_keys v
   ui_expect_re "CPU code \(PoCL, [^)]*\), lines 1-" "v again: back to the code"
elif printf '%s\n' "$UI_LAST" | grep -q "the device gives no assembly"; then
   ok "the pane says plainly that the device gives no assembly"
   ui_expect "OpenCL C after the preprocessor, lines 1-" "the listing header names what is shown"
   ui_expect "__local real Asub[32][32];" "the listing is the kernel with TS substituted"
else
   ui_expect_re "code +PTX: [0-9]+ instructions: [0-9]+ FMA, [0-9]+ shared loads" "PTX with its instruction counts"
   ui_expect_re "PTX, lines 1-[0-9]+ of [0-9]+" "the listing header names what is shown"
   ui_keys v
   ui_expect "__local real Asub[32][32];" "v shows the source after the preprocessor, TS substituted"
   ui_keys v
   ui_expect_re "PTX, lines 1-[0-9]+ of [0-9]+" "v again: back to the PTX"
fi

# Another variant: the pane follows.
ui_keys '>'
ui_expect "6 Inspect  mygemm03_wpt TS=32 WPT=8" "> moves to the next variant and the pane follows"
ui_expect_re "local mem +8\.0 KiB per work-group \(128 work-items\)" "its resources: 32x4 work-items now"
if printf '%s\n' "$UI_LAST" | grep -q "CPU code (PoCL"; then
   ui_expect "<_pocl_kernel_gemm>:" "its listing: disassembled again"
elif printf '%s\n' "$UI_LAST" | grep -q "the device gives no assembly"; then
   ui_expect "get_group_id(0) * 32 + col" "its listing: the new kernel's, TS substituted"
fi

# i hides and shows it again.
ui_keys i
ui_expect_gone "6 Inspect" "i hides the pane" 10
ui_keys i
ui_expect "6 Inspect  mygemm03_wpt" "i shows it again"

# Scrolling: the pane has the focus; zoom it on a short terminal so the listing is longer
# than the rows it gets.
ui_resize 90 24
ui_expect "6 Inspect" "the pane stays at 90x24"
ui_keys z
ui_expect_re "lines 1-[0-9]+ of [0-9]+ \(more below\)" "zoomed at 90x24 the listing does not fit"
total=$(ui_line "lines 1-[0-9]+ of [0-9]+" | sed -E 's/.*lines 1-[0-9]+ of ([0-9]+).*/\1/')
ui_keys j j
ui_expect_re "lines 3-[0-9]+ of $total" "j j scrolls two lines"
ui_keys k
ui_expect_re "lines 2-[0-9]+ of $total" "k scrolls back one"
shown=$(ui_line "lines 2-[0-9]+ of $total" | sed -E 's/.*lines 2-([0-9]+) .*/\1/')
# PgDn: wait until the header has moved off line 2 (the screen before the key still says
# "lines 2-"), then it must have moved by a page at least: past every line shown, or to
# the end of the listing.
ui_keys NPage
ui_expect_re "lines ([3-9]|[1-9][0-9]+)-[0-9]+ of $total" "PgDn scrolls"
first=$(ui_line "lines [0-9]+-[0-9]+ of $total" | sed -E 's/.*lines ([0-9]+)-.*/\1/')
last=$(ui_line "lines [0-9]+-[0-9]+ of $total" | sed -E 's/.*lines [0-9]+-([0-9]+) .*/\1/')
if [ -n "$first" ] && { [ "$first" -gt "$shown" ] || [ "$last" = "$total" ]; }; then
   ok "PgDn scrolls a page (lines 2-$shown, then $first-$last)"
else
   not_ok "PgDn scrolls a page (lines 2-$shown, then $first-$last)" "$UI_LAST"
fi
ui_keys End
ui_expect_re "lines [0-9]+-$total of $total$" "End shows the last line"
ui_keys Home
ui_expect_re "lines 1-[0-9]+ of $total \(more below\)" "Home goes back to the top"
ui_keys z
ui_keys q
ui_expect_exit 0 "q quits"

# A kernel that does not compile: the pane says why instead of a listing (fresh
# preferences: the first run saved the pane as shown).
mkdir -p "$T_DIR/kernels"
cp -R "${GEMMTOP_KERNELS%%:*}/." "$T_DIR/kernels/"
sed -e 's/^name: .*/name:     mygemm01_zz_broken/' -e 's/GT_FMA(acc, a, b);/GT_FMA(acc, a, b + undefined_thing);/' \
   "${GEMMTOP_KERNELS%%:*}/mygemm01_naive.cl" >"$T_DIR/kernels/zz_broken.cl"
ui_start 120 40 GEMMTOP_KERNELS="$T_DIR/kernels" XDG_CONFIG_HOME="$T_DIR/config-broken" -- --kernel mygemm01_zz_broken --size 64
ui_expect_re "status +compile error" "a broken kernel: compile error"
ui_keys i
ui_expect_re "did not compile or run \(compile error\)" "the inspect pane says the configuration did not compile"
ui_keys q
ui_expect_exit 0 "q quits"
finish
