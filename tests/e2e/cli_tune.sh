#!/bin/sh
# gemmtop tune on PoCL, end to end: a tiny suite (tests/data/tune-tiny.shapes) tuned over
# the candidates its file names; killed with SIGKILL once the store holds one result, then
# run again, which takes what the store holds and measures each configuration once in all;
# the dispatch table (C header and JSON) names each shape's best stored configuration; each
# exported kernel is built with its launcher (cc, -lOpenCL), run, and checked by a program
# of this test's own (export_check.c: its own inputs, its own product); a third run
# measures nothing; bench --shapes --best measures the same configurations beside the
# vendor library; a configuration that only runs padded is not shipped, with the reason;
# and the refusals.
. "$(dirname "$0")/lib.sh"

DATA=$(cd "$(dirname "$0")/../data" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
SUITE="$DATA/tune-tiny.shapes"
STORE="$T_DIR/tune.db"
# 2 configurations a shape, 1 for each candidate; alpha and beta that a wrong kernel cannot hide.
TUNE="tune $POCL --shapes $SUITE --budget 2 --seed 11 --alpha 1.5 --beta -0.5 --reps 2 --warmup 1 --store $STORE"

# sql QUERY: one value from the store (read-only: polling never creates it).
sql() {
   python3 - "$STORE" "$1" <<'PY'
import sqlite3, sys
try:
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=15)
    print(db.execute(sys.argv[2]).fetchone()[0])
except sqlite3.Error:
    print(0)
PY
}

# ---- refusals: nothing is measured ----
run_gemmtop tune --store "$STORE"
expect_rc 2 "tune without --shapes"
expect_in "tune needs --shapes SUITE" "$ERR" "saying what it needs"
mkdir -p "$T_DIR/full"
: >"$T_DIR/full/mine.txt"
run_gemmtop tune --shapes "$SUITE" --dir "$T_DIR/full" --store "$STORE"
expect_rc 2 "a --dir that holds a file is refused before anything is measured"
expect_in "exists and holds files: tune writes only into a new or empty folder" "$ERR" "saying why"
[ -f "$T_DIR/full/mine.txt" ] && [ "$(ls "$T_DIR/full")" = mine.txt ] && ok "the folder is left as it was" ||
   not_ok "the folder was touched" "$(ls -la "$T_DIR/full")"
printf 'candidates = mygemm06_2d nosuch\n64x64x64 one\n' >"$T_DIR/bad.shapes"
run_gemmtop tune --shapes "$T_DIR/bad.shapes" --store "$STORE"
expect_rc 2 "a suite naming a kernel that does not exist"
expect_in "names the candidate 'nosuch', which is no kernel" "$ERR" "is refused, naming it"
run_gemmtop tune --shapes "$SUITE" --set TSM=32 --store "$STORE"
expect_rc 2 "--set without --kernel"
expect_in "--set fixes a parameter of one kernel: give it with --kernel" "$ERR" "says to name the kernel"
run_gemmtop tune --shapes "$SUITE" -m 64
expect_rc 2 "-m on tune"
expect_in "bench takes its sizes from --sizes, tune from --shapes" "$ERR" "says where tune's sizes come from"
[ ! -e "$STORE" ] && ok "no refusal made a store" || not_ok "a refusal made $STORE"

# ---- killed mid-run ----
# Starts the tune, waits (bounded) until the store has one of its results, then SIGKILL.
# Prints "<exit status> <rows when killed>".
python3 - "$GEMMTOP_BIN" "$STORE" "$T_DIR" $TUNE --dir "$T_DIR/killed" >"$T_DIR/kill" 2>&1 <<'PY'
import os, signal, sqlite3, subprocess, sys, time
binary, store, tmp, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
p = subprocess.Popen([binary] + args, stdout=open(tmp + "/k.out", "w"), stderr=open(tmp + "/k.err", "w"))
def rows():
    if not os.path.exists(store):
        return 0
    try:
        db = sqlite3.connect("file:%s?mode=ro" % store, uri=True, timeout=15)
        return db.execute("SELECT count(*) FROM results WHERE origin = 'sweep'").fetchone()[0]
    except sqlite3.Error:
        return 0
deadline = time.time() + 300
while rows() < 1 and p.poll() is None and time.time() < deadline:
    time.sleep(0.02)
os.kill(p.pid, signal.SIGKILL) if p.poll() is None else None
print(p.wait(), rows())
PY
set -- $(cat "$T_DIR/kill")
status=${1:-?}
killed_at=${2:-0}
if [ "$status" = "-9" ] && [ "$killed_at" -ge 1 ] && [ "$killed_at" -lt 6 ]; then
   ok "tune was killed with SIGKILL after $killed_at of 6 configurations were stored"
else
   not_ok "kill the tune mid-run: status $status, $killed_at stored" "$(cat "$T_DIR/kill" "$T_DIR/k.err")"
fi
[ ! -e "$T_DIR/killed/dispatch.h" ] && ok "the killed tune wrote no dispatch table" ||
   not_ok "a killed tune left a dispatch table"

# ---- run again: resumed ----
# shellcheck disable=SC2086 # TUNE is a list of words
run_gemmtop $TUNE --dir "$T_DIR/ship"
expect_rc 0 "the same tune run again"
expect_in "tensor05_warptile is left out: it does not take float" "$ERR" \
   "a candidate of the suite that does not take the type is left out, saying why"
expect_in "6 configurations tried in all, $killed_at of them taken from the results store" "$OUT" \
   "it took what the killed run had stored"
per=$(sql "SELECT group_concat(n) FROM (SELECT count(*) AS n FROM results WHERE origin = 'sweep' GROUP BY kernel, m, n, k, params)")
total=$(sql "SELECT count(*) FROM results WHERE origin = 'sweep'")
[ "$per" = "1,1,1,1,1,1" ] && [ "$total" = 6 ] &&
   ok "each of the 6 configurations was measured exactly once in all" ||
   not_ok "configurations measured more or less than once: $per ($total rows)" "$ERR"
for f in dispatch.h dispatch.json; do
   [ -s "$T_DIR/ship/$f" ] && ok "$f is written" || not_ok "$f is missing" "$(ls -R "$T_DIR/ship" 2>&1)"
done

# The table: each shape's best verified configuration in the store, which the header, the
# JSON, the printed table and the exported folder all name.
if msg=$(python3 - "$T_DIR/ship/dispatch.json" "$STORE" "$T_DIR/ship" "$OUT" <<'PY' 2>&1
import json, os, sqlite3, sys
d = json.load(open(sys.argv[1]))
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[2], uri=True)
out, table = sys.argv[3], sys.argv[4]
assert d["suite"] == "tune-tiny" and d["precision"] == "float" and len(d["entries"]) == 3, d
for e in d["entries"]:
    best = db.execute("SELECT kernel, params, gflops FROM results WHERE origin = 'sweep' AND outcome = 'ok' AND "
                      "verified = 1 AND m = ? AND n = ? AND k = ? ORDER BY gflops DESC LIMIT 1",
                      (e["m"], e["n"], e["k"])).fetchone()
    assert (e["kernel"], e["params"]) == best[:2] and abs(e["gflops"] - best[2]) <= 1e-5 * best[2], (e, best)
    assert e["layout"] == "NN" and len(e["kernel_hash"]) == 16, e
    folder = os.path.join(out, e["label"])
    assert sorted(os.listdir(folder)) == sorted(["Makefile", e["kernel"] + ".cl", e["kernel"] + "_launch.c"]), folder
    defines = open(os.path.join(folder, e["kernel"] + ".cl")).read()
    for kv in e["params"].split():
        name, value = kv.split("=")
        assert "#define %s %s\n" % (name, value) in defines, (kv, folder)
    row = [l for l in table.splitlines() if l.split()[:1] == [e["label"]]]
    assert row and row[0].split()[2] == e["kernel"] and e["params"] in row[0], (row, e)
print("; ".join("%s %s %s" % (e["label"], e["kernel"], e["params"]) for e in d["entries"]))
PY
); then
   ok "each shape ships its best stored configuration, in the JSON, the table and its folder ($msg)"
else
   not_ok "the dispatch table against the store: $msg" "$OUT"
fi
cat >"$T_DIR/use.c" <<'EOF'
#include "dispatch.h"
#include <stdio.h>
#include <string.h>
int main(void) {
   for (int i = 0; i < GEMMTOP_DISPATCH_TUNE_TINY_COUNT; i++) {
      const gemmtop_dispatch_entry *e = &gemmtop_dispatch_tune_tiny[i];
      if (!e->kernel || strlen(e->kernel_hash) != 16 || !(e->gflops > 0))
         return 1;
      printf("%s %s\n", e->label, e->kernel);
   }
   return strcmp(GEMMTOP_DISPATCH_TUNE_TINY_TYPE, "float") != 0;
}
EOF
if cc -std=c99 -Wall -Wextra -Werror -I"$T_DIR/ship" -o "$T_DIR/use" "$T_DIR/use.c" 2>"$T_DIR/cc.err" &&
   [ "$("$T_DIR/use" | wc -l)" -eq 3 ]; then
   ok "dispatch.h compiles (-Wall -Wextra -Werror) and has a configuration for each of the 3 shapes"
else
   not_ok "dispatch.h" "$(cat "$T_DIR/cc.err" "$T_DIR/ship/dispatch.h")"
fi

# ---- each exported kernel: built, run by its launcher, checked on its own ----
if ! command -v cc >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
   ok "the exported kernels built and run # SKIP no C compiler or make"
else
   dev=$(printf '%s\n' "$POCL" | sed -E 's/.*--device ([0-9]+).*/\1/')
   seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
   for label in tall wide flat; do
      dir="$T_DIR/ship/$label"
      kernel=$(basename "$(ls "$dir"/*_launch.c)" _launch.c)
      if make -s -C "$dir" CFLAGS="-O2 -std=c99 -Wall -Wextra" >"$T_DIR/make.out" 2>&1 &&
         launch=$(cd "$dir" && "./${kernel}_launch" "$kernel.cl" "$dev" "$seed" 2>&1); then
         case "$launch" in
         *"verified: all "*) ok "$label: $kernel's launcher builds, runs and verifies it (seed $seed)" ;;
         *) not_ok "$label: the launcher's output" "$launch" ;;
         esac
      else
         not_ok "$label: build and run the launcher (seed $seed)" "$(cat "$T_DIR/make.out")
$launch"
      fi
      if cc -std=c99 -O1 -w -DLAUNCHER="\"$dir/${kernel}_launch.c\"" -o "$T_DIR/check-$label" "$HERE/export_check.c" \
         -lOpenCL -lm 2>"$T_DIR/cc.err" &&
         check=$("$T_DIR/check-$label" "$dir/$kernel.cl" "$dev" "$seed" 2>&1); then
         ok "$label: an independent check of the exported kernel (its own inputs and product): $check"
      else
         not_ok "$label: the independent check (seed $seed)" "$(cat "$T_DIR/cc.err")
${check:-}"
      fi
   done
fi

# ---- a third run measures nothing ----
# shellcheck disable=SC2086
run_gemmtop $TUNE --dir "$T_DIR/again"
expect_rc 0 "tune run a third time"
expect_in "6 configurations tried in all, 6 of them taken from the results store" "$OUT" "it measures nothing"
[ "$(sql "SELECT count(*) FROM results WHERE origin = 'sweep'")" = 6 ] && ok "the store has no more rows" ||
   not_ok "the third run added rows"
grep -v '_MADE ' "$T_DIR/ship/dispatch.h" >"$T_DIR/a.h"
grep -v '_MADE ' "$T_DIR/again/dispatch.h" >"$T_DIR/b.h"
cmp -s "$T_DIR/a.h" "$T_DIR/b.h" && ok "and writes the same dispatch table" ||
   not_ok "the dispatch tables differ" "$(diff "$T_DIR/a.h" "$T_DIR/b.h")"

# ---- bench --best: the same configurations beside the vendor library ----
run_gemmtop bench --shapes "$SUITE" --best --store "$STORE" --alpha 1.5 --beta -0.5 --rounds 1 --reps 2 --warmup 1 \
   --format json
if [ "$RC" -eq 0 ] && msg=$(printf '%s\n' "$OUT" | python3 -c 'import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
shapes = [r for r in rows if "shape" in r]
d = {e["label"]: e for e in json.load(open(sys.argv[1]))["entries"]}
assert [r["shape"] for r in shapes] == ["tall", "wide", "flat"], shapes
for r in shapes:
    assert r["config"] == "best stored" and r["verified"], r
    assert (r["kernel"], r["params"]) == (d[r["shape"]]["kernel"], d[r["shape"]]["params"]), (r, d[r["shape"]])
    assert "vendor_gflops" in r, r
print("ok")' "$T_DIR/ship/dispatch.json" 2>&1); then
   ok "bench --shapes --best measures each shape's shipped configuration, verified, beside the vendor library"
else
   not_ok "bench --best (exit $RC): ${msg:-}" "$OUT
$ERR"
fi
run_gemmtop bench --best --sizes 64 --store "$STORE"
expect_rc 2 "bench --best without --shapes"
expect_in "--best takes each shape's best configuration from the results store" "$ERR" "says it needs the shapes"

# ---- a configuration that runs only padded is not shipped ----
printf '100x100x96 hundred\n' >"$T_DIR/odd.shapes"
run_gemmtop tune --shapes "$T_DIR/odd.shapes" --kernel mygemm10_padding --budget 1 --seed 3 --reps 1 --warmup 0 \
   --store "$STORE" --dir "$T_DIR/odd"
expect_rc 1 "a shape where the only configuration measured pads"
expect_in "pads this size" "$OUT" "the table says why the fastest is not shipped"
grep -q '"hundred", NULL, NULL' "$T_DIR/odd/dispatch.h" 2>/dev/null && [ ! -e "$T_DIR/odd/hundred" ] &&
   ok "its row in dispatch.h has a NULL kernel and no folder is written for it" ||
   not_ok "the odd shape's dispatch" "$(cat "$T_DIR/odd/dispatch.h" 2>&1; ls "$T_DIR/odd" 2>&1)"

finish
