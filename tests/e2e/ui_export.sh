#!/bin/sh
# Export from the explorer (e): the history to CSV and Markdown, whose rows equal the
# history on the screen; an existing file is replaced only after a second Enter; a name
# without .csv or .md is refused with a message. K: the configuration on screen exported as
# export-kernel writes it, into a new folder of the explorer's own (never over an earlier
# one), which builds and verifies on PoCL; an ablated configuration is refused in the log.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

ui_start 120 30 -- --kernel mygemm02_tiled --set TS=16 --size 64
ui_expect_re "verify +[^ ]+ verified" "TS=16 verifies"
ui_keys Down Left
ui_expect_re "config +02_tiled TS=8" "TS=8 chosen"
ui_expect_re "verify +[^ ]+ verified" "TS=8 verifies"
# Paused, the figures stand still: the file can be compared with the screen.
ui_keys Space
ui_expect_re "paused" "measuring paused"
ui_expect_re "TS=8 .* [0-9.]+ *$" "the history shows TS=8 with its figure" 10
shown=$UI_LAST

# export PATH: e, the name typed over the default, Enter.
export_to() {
   ui_keys e
   ui_wait "Export (e)" 10 || return 1
   ui_keys C-u
   ui_keys -l "$1"
   ui_keys Enter
}

export_to "$T_DIR/history.csv"
ui_expect_re "history: 2 rows written to" "e writes the history to a CSV file"
if [ "$(wc -l <"$T_DIR/history.csv")" -eq 3 ] && head -n 1 "$T_DIR/history.csv" | grep -q '^kernel,parameters,m,n,k,precision,layout,ablation,state,gflops,median_ms,backend,device$'; then
   ok "the CSV has its header and a row per configuration"
else
   not_ok "the CSV has its header and a row per configuration" "$(cat "$T_DIR/history.csv")"
fi
# Each row's GFLOPS is the figure on that configuration's line, to the pane's rounding
# (the CSV's four decimals are rounded already, so a figure such as 1.9150 may show as
# 1.91 or 1.92: the two agree when they differ by at most half the pane's last digit).
mismatch=$(tail -n +2 "$T_DIR/history.csv" | while IFS=, read -r kernel params m n k prec lay abl state gflops ms be dev; do
   figure=$(printf '%s\n' "$shown" | sed -n "s/.*02_tiled $params .* \([0-9][0-9.]*\) *\$/\1/p" | head -n 1)
   awk -v g="$gflops" -v f="${figure:-x}" 'BEGIN { if (f !~ /^[0-9.]+$/) exit 1
      half = (g >= 100 ? 0.5 : g >= 10 ? 0.05 : 0.005) + 0.00005
      exit (g - f <= half && f - g <= half) ? 0 : 1 }' || echo "$params $gflops (shown: ${figure:-none}) $state"
   [ "$kernel $m $n $k $prec $lay $state" = "mygemm02_tiled 64 64 64 float NN verified" ] || echo "$kernel $m $n $k $prec $lay $state"
done)
if [ -z "$mismatch" ]; then ok "the CSV rows equal the history shown"; else not_ok "the CSV rows equal the history shown: $mismatch" "$shown"; fi

# The same name again: refused until a second Enter.
before=$(cat "$T_DIR/history.csv")
echo "not yet replaced" >"$T_DIR/history.csv"
export_to "$T_DIR/history.csv"
ui_expect "history.csv exists: Enter again replaces it" "an existing file is not replaced silently"
if [ "$(cat "$T_DIR/history.csv")" = "not yet replaced" ]; then ok "the file is untouched"; else not_ok "the file is untouched" "$(cat "$T_DIR/history.csv")"; fi
ui_keys Enter
ui_expect_gone "Export (e)" "a second Enter writes and closes the dialog"
if [ "$(cat "$T_DIR/history.csv")" = "$before" ]; then ok "the file holds the history again"; else not_ok "the file holds the history again" "$(cat "$T_DIR/history.csv")"; fi

export_to "$T_DIR/history.md"
ui_expect_re "history: 2 rows written to .*history\.md" "e writes Markdown"
if [ "$(grep -c '^| mygemm02_tiled | TS=' "$T_DIR/history.md")" -eq 2 ] && sed -n 2p "$T_DIR/history.md" | grep -q '^| --- | --- | ---: '; then
   ok "the Markdown table has a separator row and a row per configuration"
else
   not_ok "the Markdown table has a separator row and a row per configuration" "$(cat "$T_DIR/history.md")"
fi

export_to "$T_DIR/history.txt"
ui_expect "name a .csv or .md file" "another ending is refused with a message"
ui_keys Escape
ui_expect_gone "Export (e)" "Esc closes the dialog"
if [ -e "$T_DIR/history.txt" ]; then not_ok "nothing written for the refused name"; else ok "nothing written for the refused name"; fi
ui_keys q
ui_expect_exit 0 "q quits"

# K: export-kernel from the explorer, into the folder it was started in.
mkdir -p "$T_DIR/kx"
cd "$T_DIR/kx" || exit 1
ui_start 120 40 -- --kernel mygemm03_wpt --set TS=32 --set WPT=8 --size 128
ui_expect_re "verify +[^ ]+ verified" "03_wpt TS=32 WPT=8 verifies"
ui_keys K
ui_expect_re "exported mygemm03_wpt to" "K exports the configuration on screen"
ui_expect "kx/mygemm03_wpt-export:" "the log says where"
if [ -f mygemm03_wpt-export/mygemm03_wpt.cl ] && [ -f mygemm03_wpt-export/mygemm03_wpt_launch.c ] &&
   grep -q '^#define TS 32$' mygemm03_wpt-export/mygemm03_wpt.cl && grep -q '^#define GEMM_M 128$' mygemm03_wpt-export/mygemm03_wpt_launch.c; then
   ok "the kernel with TS=32 and its launcher for 128 are written"
else
   not_ok "the kernel with TS=32 and its launcher for 128 are written" "$(ls -laR . 2>&1 | head -20)"
fi
if command -v cc >/dev/null 2>&1 && command -v make >/dev/null 2>&1; then
   dev=$(printf '%s\n' "$POCL" | sed -E 's/.*--device ([0-9]+).*/\1/')
   launch_out=$(make -s -C mygemm03_wpt-export >/dev/null 2>&1 && cd mygemm03_wpt-export &&
      ./mygemm03_wpt_launch mygemm03_wpt.cl "$dev" 2>&1)
   case "$launch_out" in
   *"verified: all 16384 elements"*) ok "the explorer's export builds and verifies on PoCL" ;;
   *) not_ok "the explorer's export builds and verifies on PoCL" "$launch_out" ;;
   esac
else
   ok "the explorer's export builds # SKIP no C compiler or make"
fi
ui_keys K
ui_expect "kx/mygemm03_wpt-export-2:" "K again writes a new folder, and the log says which"
# (the first line has the date, which may turn between the two)
if [ -f mygemm03_wpt-export-2/mygemm03_wpt.cl ] &&
   [ "$(sed 1d mygemm03_wpt-export/mygemm03_wpt.cl)" = "$(sed 1d mygemm03_wpt-export-2/mygemm03_wpt.cl)" ]; then
   ok "the new folder has the same kernel; the first is left as it was"
else
   not_ok "the new folder has the same kernel; the first is left as it was" "$(ls -la mygemm03_wpt-export*)"
fi
ui_keys a
ui_expect_re "ABLATED" "a: an ablated configuration"
ui_keys K
ui_expect "nothing exported: this configuration is ablated" "an ablated configuration is not exported, and the log says so"
[ ! -e mygemm03_wpt-export-3 ] && ok "no folder for it" || not_ok "no folder for it" "$(ls)"
ui_keys q
ui_expect_exit 0 "q quits"
cd - >/dev/null || exit 1
finish
