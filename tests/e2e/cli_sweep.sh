#!/bin/sh
# gemmtop sweep: exhaustive and budgeted searches on PoCL, results saved as CSV/JSON and as
# presets that run again, and every reason a configuration is skipped (invalid, compile
# failed with the compiler's words, wrong result).
. "$(dirname "$0")/lib.sh"

run_gemmtop sweep --kernel mygemm03_wpt --set TS=16 --size 64 --exhaustive --save "$T_DIR/s.csv"
expect_rc 0 "exhaustive sweep of WPT with TS fixed"
expect_in "tried 5 of 5 valid" "$ERR$OUT" "every WPT value of the 5 is tried"
if python3 - "$T_DIR/s.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 5, rows
wpts = sorted(int(r["params"].split("WPT=")[1]) for r in rows)
assert wpts == [1, 2, 4, 8, 16], wpts
assert all(r["outcome"] == "ok" and "TS=16" in r["params"] for r in rows), rows
g = [float(r["gflops"]) for r in rows]
assert all(x > 0 for x in g) and g == sorted(g, reverse=True), g  # best first
assert all(float(r["max_rel_err"]) < 1e-5 for r in rows), rows
PY
then ok "CSV: 5 verified rows, TS fixed, best first"; else not_ok "CSV rows" "$(cat "$T_DIR/s.csv")"; fi
best=$(python3 -c 'import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))["params"])' "$T_DIR/s.csv")
rank1=$(printf '%s\n' "$OUT" | awk '$1 == "1" {print $2, $3}')
[ "$rank1" = "$best" ] && ok "the table's rank 1 is the CSV's best ($best)" || not_ok "rank 1" "table: $rank1; csv: $best"

run_gemmtop sweep --kernel mygemm03_wpt --size 64 --budget 3 --save "$T_DIR/s.json" --save-presets 2
expect_rc 0 "budgeted sweep with presets saved"
expect_in "trying 3 (random sample)" "$ERR$OUT" "the budget is a random sample"
if python3 - "$T_DIR/s.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 3, rows
assert len({json.dumps(r["params"], sort_keys=True) for r in rows}) == 3, rows  # distinct
assert all(r["verified"] is True and r["gflops"] > 0 for r in rows), rows
assert any(r["params"] == {"TS": 32, "WPT": 8} for r in rows), rows  # the defaults always run
PY
then ok "JSON: 3 distinct verified configurations including the defaults"; else not_ok "JSON rows" "$(cat "$T_DIR/s.json")"; fi
n=$(ls "$XDG_CONFIG_HOME/gemmtop/presets/" 2>/dev/null | grep -c '^sweep-mygemm03_wpt-64-[12]\.preset$')
[ "$n" -eq 2 ] && ok "two presets saved in the user's folder" || not_ok "presets saved: $n" "$(ls -R "$XDG_CONFIG_HOME")"
run_gemmtop run --preset sweep-mygemm03_wpt-64-1
expect_rc 0 "the best saved preset runs again"
expect_in "verified" "$OUT" "and verifies"
p1=$(python3 -c 'import json,sys; print(" ".join("%s=%s" % kv for kv in max((json.loads(l) for l in open(sys.argv[1])), key=lambda r: r["gflops"])["params"].items()))' "$T_DIR/s.json")
expect_in "$p1" "$OUT" "with the best configuration's parameters ($p1)"

run_gemmtop sweep --kernel test_syntax_error --size 32 --budget 2 --save "$T_DIR/e.csv"
expect_rc 1 "a kernel that never compiles: exit 1"
expect_in "compile failed" "$ERR$OUT" "the skip reason is named"
expect_in "expected ';'" "$(cat "$T_DIR/e.csv")" "the CSV carries the compiler's error"

run_gemmtop sweep --kernel test_broken --size 64 --budget 2
expect_rc 1 "a wrong kernel: exit 1, nothing ranked"
expect_in "wrong result" "$ERR$OUT" "the skip reason is a wrong result"
case "$ERR$OUT" in *" 0 wrong result"*) not_ok "wrong results counted" "$ERR$OUT" ;; *) ok "wrong results are counted" ;; esac

run_gemmtop sweep --kernel mygemm03_wpt --set TS=7 --size 64
expect_rc 2 "a fixed value outside the allowed ones is refused"
run_gemmtop sweep --kernel mygemm03_wpt --set TS=64 --set WPT=1 --size 64 -m 60
expect_rc 2 "no valid configuration: exit 2"
expect_in "no valid configuration" "$ERR" "saying so"

# Options sweep does not take, or out of range, are refused before anything compiles;
# so is a stray word (it was ignored).
run_gemmtop sweep --kernel mygemm03_wpt --size 64 --jobs 0
expect_rc 2 "--jobs 0 is refused"
expect_in "--jobs 0: use 1 to 16" "$ERR" "naming the range"
run_gemmtop sweep --kernel mygemm03_wpt --size 64 --max-seconds 1
expect_rc 2 "sweep does not take --max-seconds"
expect_in "not for 'gemmtop sweep'; sweep's limit is --timeout" "$ERR" "and says what to use"
run_gemmtop sweep --kernel mygemm03_wpt --size 64 64
expect_rc 2 "a stray word is refused"
expect_in "sweep takes no argument '64'" "$ERR" "naming it"
# A results file that cannot be written is an error (exit 1) naming it and why; a folder
# that does not exist is found before anything compiles.
run_gemmtop sweep --kernel mygemm03_wpt --set TS=16 --size 32 --budget 1 --save /dev/full
expect_rc 1 "--save /dev/full: a full disk fails the sweep"
expect_in "/dev/full: cannot write: No space left on device" "$ERR" "naming the file and the error"
run_gemmtop sweep --kernel mygemm03_wpt --set TS=16 --size 32 --budget 1 --save "$T_DIR/missing-dir/x.csv"
expect_rc 1 "--save into a missing folder fails the sweep"
expect_in "missing-dir: No such file or directory" "$ERR" "naming the folder and the error"
case "$ERR" in *"sweep mygemm03_wpt on"*) not_ok "refused before the sweep starts" "$ERR" ;; *) ok "refused before the sweep starts" ;; esac
"$GEMMTOP_BIN" sweep --kernel mygemm03_wpt --set TS=16 --size 32 --budget 1 --format csv >/dev/full 2>"$T_DIR/err"
RC=$?
ERR=$(cat "$T_DIR/err")
expect_rc 1 "--format csv into a full standard output fails"
expect_in "write error on standard output" "$ERR" "saying so"
finish
