#!/bin/sh
# Search strategies: --simulate replays the space recorded in tests/data (an exhaustive
# PoCL sweep of mygemm06_2d at 256, written by 'gemmtop sweep --save') with every
# strategy, and compares them; then real PoCL sweeps with --strategy anneal (replayed
# from the results store), with two sizes at once, and with --time-budget.
. "$(dirname "$0")/lib.sh"

SPACE=$(cd "$(dirname "$0")/../data" && pwd)/space-mygemm06_2d-256-pocl.csv
NSPACE=$(($(wc -l <"$SPACE") - 1))

# sim ARGS...: sweep --simulate on the recorded space (no device: none is added).
sim() {
   "$GEMMTOP_BIN" sweep --simulate "$SPACE" "$@" >"$T_DIR/out" 2>"$T_DIR/err"
   RC=$?
   OUT=$(cat "$T_DIR/out")
   ERR=$(cat "$T_DIR/err")
}

# Every strategy alone: one CSV row; with the whole space as the budget every seed
# reaches 99% of the best, within the space's size.
for st in exhaustive random anneal genetic bayes; do
   sim --strategy $st --repeat 3 --format csv
   if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
st, n = sys.argv[1], int(sys.argv[2])
assert [r["strategy"] for r in rows] == [st], rows
r = rows[0]
assert int(r["space"]) == n and int(r["budget"]) == n and int(r["repeat"]) == 3, r
assert int(r["reached95"]) == 3 and int(r["reached99"]) == 3, r
assert 1 <= int(r["evals95_min"]) <= int(r["evals95_median"]) <= int(r["evals99_median"]) <= int(r["evals99_max"]) <= n, r
assert float(r["best_pct_median"]) == 100.0, r
' "$st" "$NSPACE"; then ok "--simulate --strategy $st: every seed reaches 99% within the $NSPACE configurations"
   else not_ok "--simulate --strategy $st" "$OUT
$ERR"; fi
done

# The comparison: one table, a row per strategy; the same seeds give the same table.
sim --strategies all --repeat 5
expect_rc 0 "--strategies all --repeat 5"
expect_in "replay of mygemm06_2d on" "$OUT" "the table names the recorded space"
expect_in "$NSPACE configurations recorded" "$OUT" "and its size"
rows=$(printf '%s\n' "$OUT" | awk '$1 ~ /^(exhaustive|random|anneal|genetic|bayes)$/' | wc -l)
[ "$rows" -eq 5 ] && ok "a row per strategy" || not_ok "rows: $rows" "$OUT"
first=$OUT
sim --strategies all --repeat 5
[ "$OUT" = "$first" ] && ok "the same seeds replay the same" || not_ok "two replays differ" "$first
---
$OUT"
sim --strategies all --repeat 5 --seed 99
[ "$OUT" != "$first" ] && ok "other seeds, other figures" || not_ok "--seed changed nothing" "$OUT"

# The docs' table comes from the same replays (tools/search_table.py).
table=$(GEMMTOP_BIN="$GEMMTOP_BIN" python3 "$(dirname "$0")/../../tools/search_table.py" --repeat 2 "$SPACE" 2>&1)
rows=$(printf '%s\n' "$table" | grep -c "^| mygemm06_2d 256x256x256 float, .* ($NSPACE configurations) | [a-z]* | [0-9]* \[")
[ "$rows" -eq 5 ] && ok "search_table.py: a Markdown row per strategy" || not_ok "search_table.py rows: $rows" "$table"

# A budget: at most that many evaluations, and the best within it.
sim --strategies random,bayes --repeat 4 --budget 5 --format json
if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
assert [r["strategy"] for r in rows] == ["random", "bayes"], rows
for r in rows:
    assert r["budget"] == 5 and r["repeat"] == 4, r
    assert r["evals99_median"] == -1 or r["evals99_median"] <= 5, r
    assert 0 < r["best_pct_min"] <= r["best_pct_median"] <= 100, r
'; then ok "--budget 5: JSON rows for the two strategies, within the budget"; else not_ok "--budget 5" "$OUT
$ERR"; fi

# What the replay refuses, and says why.
sim --strategies all,annealing
expect_rc 2 "an unknown strategy is refused"
expect_in "use all, or names of exhaustive, random, anneal, genetic or bayes" "$ERR" "naming the valid ones"
sim --time-budget 10
expect_rc 2 "--time-budget with --simulate is refused"
expect_in "use --budget for a count" "$ERR" "saying what to use"
sim --size 512
expect_rc 2 "a size that was not recorded"
expect_in "no result matches" "$ERR" "is said"
{ cat "$SPACE"; sed 1d "$SPACE" | sed 's/,256,256,256,/,128,128,128,/'; } >"$T_DIR/two.csv"
"$GEMMTOP_BIN" sweep --simulate "$T_DIR/two.csv" --repeat 1 >"$T_DIR/out" 2>"$T_DIR/err"
RC=$?
expect_rc 2 "a file with two spaces, none picked"
expect_in "pick one with --kernel, --size" "$(cat "$T_DIR/err")" "asks for one"
"$GEMMTOP_BIN" sweep --simulate "$T_DIR/two.csv" --repeat 1 --size 128 --strategies random >"$T_DIR/out" 2>&1
RC=$?
expect_rc 0 "--size picks one of them"
printf 'kernel,params,device\nnot,a,result\n' >"$T_DIR/bad.csv"
"$GEMMTOP_BIN" sweep --simulate "$T_DIR/bad.csv" >"$T_DIR/out" 2>"$T_DIR/err"
RC=$?
expect_rc 2 "a file that is not a sweep's results"
expect_in "line 2 is not a sweep result" "$(cat "$T_DIR/err")" "names the line"
# Figures that no measurement gives (issue 28): refused, the line and the column named.
head -1 "$SPACE" >"$T_DIR/figs.csv"
sed -n 2,3p "$SPACE" >>"$T_DIR/figs.csv"
for bad in "1e400,2.5|gflops '1e400' is not a finite number" "13.0,-1|time_ms -1 is negative" \
   "abc,2.5|gflops 'abc' is not a number" "13.0,abc|time_ms 'abc' is not a number"; do
   fields=${bad%%|*}
   want=${bad#*|}
   { cat "$T_DIR/figs.csv"; sed -n 4p "$SPACE" | sed -E "s/,ok,[^,]*,[^,]*,/,ok,$fields,/"; } >"$T_DIR/fig.csv"
   "$GEMMTOP_BIN" sweep --simulate "$T_DIR/fig.csv" --repeat 1 >"$T_DIR/out" 2>"$T_DIR/err"
   RC=$?
   expect_rc 2 "--simulate with a row of $fields"
   expect_in "line 4: $want" "$(cat "$T_DIR/err")" "names line 4 and what is wrong ($want)"
done
printf '{"kernel":"k","params":{"TS":8},"device":"d","m":8,"n":8,"k":8,"precision":"float","outcome":"ok","gflops":1e400}\n' >"$T_DIR/fig.json"
"$GEMMTOP_BIN" sweep --simulate "$T_DIR/fig.json" --repeat 1 >"$T_DIR/out" 2>"$T_DIR/err"
RC=$?
expect_rc 2 "--simulate with a JSON line whose gflops is 1e400"
expect_in "line 1: gflops is not a finite number" "$(cat "$T_DIR/err")" "names the line and the figure"

# Real sweeps on PoCL: anneal proposes distinct valid configurations within the budget.
run_gemmtop sweep --kernel mygemm03_wpt --size 64 --strategy anneal --budget 4 --seed 5 --save "$T_DIR/a.json"
expect_rc 0 "sweep --strategy anneal --budget 4"
expect_in "trying 4 (anneal)" "$ERR" "says the strategy"
if python3 - "$T_DIR/a.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 4, rows
assert len({json.dumps(r["params"], sort_keys=True) for r in rows}) == 4, rows
assert all(r["verified"] is True and r["gflops"] > 0 for r in rows), rows
assert any(r["params"] == {"TS": 32, "WPT": 8} for r in rows), rows  # the defaults always run
PY
then ok "4 distinct verified configurations, the defaults among them"; else not_ok "anneal rows" "$(cat "$T_DIR/a.json")"; fi
# That sweep is in the results store (this script's own): a replay from there.
"$GEMMTOP_BIN" sweep --simulate store --kernel mygemm03_wpt --size 64 --strategies random,anneal --repeat 2 \
   >"$T_DIR/out" 2>"$T_DIR/err"
RC=$?
expect_rc 0 "--simulate store replays the store's measurements"
expect_in "replay of mygemm03_wpt on" "$(cat "$T_DIR/out")" "of that kernel"
expect_in "4 configurations recorded, 4 verified" "$(cat "$T_DIR/out")" "the 4 configurations the sweep measured"

# Two sizes: each searched, the best per size and across them, every row saved.
run_gemmtop sweep --kernel mygemm03_wpt --set TS=16 --size 32,64x32x48 --strategy genetic --budget 3 --seed 5 \
   --save "$T_DIR/two.csv"
expect_rc 0 "sweep with two sizes"
expect_in "best per size:" "$OUT" "reports the best per size"
expect_in "best across the 2 sizes: TS=16 WPT=" "$OUT" "and the best across them"
expect_in "the highest geometric mean of the fraction of each size's best" "$OUT" "saying the rule"
if python3 - "$T_DIR/two.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sizes = {(r["m"], r["n"], r["k"]) for r in rows}
assert sizes == {("32", "32", "32"), ("64", "32", "48")}, sizes
for s in sizes:
    mine = [r["params"] for r in rows if (r["m"], r["n"], r["k"]) == s]
    assert len(mine) >= 3 and len(set(mine)) == len(mine), mine
PY
then ok "the CSV holds both sizes, each configuration once per size"; else not_ok "two-size CSV" "$(cat "$T_DIR/two.csv")"; fi

# --time-budget: no configuration is proposed once it has passed.
run_gemmtop sweep --kernel mygemm03_wpt --size 32 --strategy bayes --budget 19 --time-budget 0.001
expect_in "--time-budget reached" "$OUT$ERR" "--time-budget stops the search"
case "$OUT" in *"tried 19 of"*) not_ok "--time-budget tried everything" "$OUT" ;; *) ok "before the budget of 19" ;; esac

finish
