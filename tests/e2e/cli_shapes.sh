#!/bin/sh
# Shape suites on the command line: gemmtop list shapes (table, CSV, JSON; a suite's shapes;
# an unknown one named with those there are), a broken user suite named on stderr, bench
# --shapes on PoCL (a row per shape, the weighted geometric mean of % of the vendor library,
# checked against the rows it is made of, in the table and in JSON), sweep --shapes (the best
# per shape and across them), and the refusals.
. "$(dirname "$0")/lib.sh"

run_gemmtop list shapes
expect_rc 0 "list shapes"
for s in llama3-8b llama3-70b squares skinny; do
   expect_in "$s" "$OUT" "the shipped suite $s is listed"
done
run_gemmtop list shapes llama3-70b --format csv
if [ "$RC" -eq 0 ] && [ "$(printf '%s\n' "$OUT" | head -1)" = "suite,label,m,n,k,weight" ] &&
   [ "$(printf '%s\n' "$OUT" | wc -l)" -eq 21 ] && printf '%s\n' "$OUT" | grep -q '^llama3-70b,qkv-128,128,10240,8192,'; then
   ok "list shapes llama3-70b --format csv: 20 shapes, QKV at 128 tokens is 128x10240x8192"
else
   not_ok "list shapes llama3-70b --format csv (exit $RC)" "$OUT
$ERR"
fi
run_gemmtop list shapes skinny --format json
n=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
rows=[json.loads(l) for l in sys.stdin if l.strip()]
print(len(rows) if all(r["suite"]=="skinny" and r["m"]*r["n"]*r["k"]>0 for r in rows) else -1)')
[ "$n" = 8 ] && ok "list shapes skinny --format json: 8 objects" || not_ok "list shapes skinny --format json ($n)" "$OUT"
run_gemmtop list shapes llama4
expect_rc 2 "an unknown suite is refused"
expect_in "no shape suite named 'llama4'; there are: held-out held-out-2 held-out-3 llama3-70b llama3-8b" "$ERR" "naming the suites there are"

# The user's suites: a good one is listed as theirs, a broken one named with its line.
mkdir -p "$XDG_CONFIG_HOME/gemmtop/shapes"
cat >"$XDG_CONFIG_HOME/gemmtop/shapes/tiny.shapes" <<'EOF'
title = three small shapes for a CPU
64x96x128    tall    2
96x64x160    wide
128x128x64   flat    0.5
EOF
printf 'title = broken\n64x64 short\n' >"$XDG_CONFIG_HOME/gemmtop/shapes/broken.shapes"
run_gemmtop list shapes
expect_in "(yours)" "$OUT" "the user's suite is marked as theirs"
expect_in "broken.shapes:2: '64x64' is not a shape line" "$ERR" "a broken suite is named with its line"

# bench --shapes: a row per shape, and the mean made of those rows.
run_gemmtop bench --kernel mygemm06_2d --set TSM=32 --set TSN=32 --set WPTM=4 --set WPTN=4 --shapes tiny \
   --rounds 1 --reps 2 --warmup 1 --format json
if [ "$RC" -eq 0 ] && msg=$(printf '%s\n' "$OUT" | python3 -c 'import json,math,sys
rows=[json.loads(l) for l in sys.stdin if l.strip()]
shapes=[r for r in rows if "shape" in r]
means=[r for r in rows if "geomean_pct_of_vendor" in r]
assert [r["shape"] for r in shapes]==["tall","wide","flat"], [r.get("shape") for r in shapes]
assert all(r["verified"] and r["suite"]=="tiny" for r in shapes)
ws=[r["weight"] for r in shapes]; ps=[r["pct_of_vendor"] for r in shapes]
want=math.exp(sum(w*math.log(p) for w,p in zip(ws,ps))/sum(ws))
assert len(means)==1 and means[0]["shapes_compared"]==3, means
assert abs(means[0]["geomean_pct_of_vendor"]-want)<=1e-3*want, (means, want)
print("%.4g%% of the vendor library, weights 2, 1, 0.5" % want)' 2>&1); then
   ok "bench --shapes tiny: three verified rows and their weighted geometric mean ($msg)"
else
   not_ok "bench --shapes tiny --format json (exit $RC): ${msg:-}" "$OUT
$ERR"
fi
run_gemmtop bench --kernel mygemm06_2d --set TSM=32 --set TSN=32 --set WPTM=4 --set WPTN=4 --shapes tiny \
   --rounds 1 --reps 2 --warmup 1
expect_rc 0 "bench --shapes tiny, as a table"
expect_in "shape suite tiny" "$OUT" "the table names the suite"
if printf '%s\n' "$OUT" | grep -Eq '^tall +64x96x128 ' && printf '%s\n' "$OUT" | grep -Eq '^flat +128x128x64 '; then
   ok "a row per shape, with its label and size"
else
   not_ok "a row per shape" "$OUT"
fi
expect_in "suite tiny: the weighted geometric mean of % of the vendor library over its 3 shapes" "$OUT" \
   "the suite's mean is stated"

# sweep --shapes: the best per shape and the best across them, by the suite's weights.
run_gemmtop sweep --kernel mygemm06_2d --shapes tiny --budget 3 --reps 2 --warmup 1 --seed 5 --store "$T_DIR/r.db"
expect_rc 0 "sweep --shapes tiny"
SWEEP_OUT=$(printf '%s\n' "$OUT" | sed -n '/best per size:/,/best across/p')
expect_in "tall (64x96x128):" "$OUT" "each shape's results are headed by its label"
expect_in "best per size:" "$OUT" "the best per shape"
expect_in "of each size's best (weighted geometric mean;" "$OUT" "the best across the suite, by its weights"

# The sweep's results as a dispatch table: a C header a program compiles, and JSON, each
# shape's best the same as the sweep's.
run_gemmtop results export --store "$T_DIR/r.db" --format dispatch --shapes tiny --out "$T_DIR/tiny.h"
expect_rc 0 "results export --format dispatch --shapes tiny"
expect_in "3 of 3 shapes have a verified configuration" "$ERR" "every shape has its configuration"
sweep_out=$SWEEP_OUT
cat >"$T_DIR/use.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "tiny.h"
int main(void) {
   for (int i = 0; i < GEMMTOP_DISPATCH_TINY_COUNT; i++) {
      const gemmtop_dispatch_entry *e = &gemmtop_dispatch_tiny[i];
      if (!e->kernel || strcmp(e->kernel, "mygemm06_2d") || strlen(e->kernel_hash) != 16 || !(e->gflops > 0))
         return 1;
      printf("%s %dx%dx%d %s %.6g\n", e->label, e->m, e->n, e->k, e->params, e->gflops);
   }
   return 0;
}
EOF
if cc -std=c11 -Wall -Werror -I"$T_DIR" -o "$T_DIR/use" "$T_DIR/use.c" 2>"$T_DIR/cc.err" && "$T_DIR/use" >"$T_DIR/use.out"; then
   ok "the header compiles (-Wall -Werror) and names a verified configuration per shape"
else
   not_ok "the dispatch header" "$(cat "$T_DIR/cc.err" "$T_DIR/tiny.h")"
fi
run_gemmtop results export --store "$T_DIR/r.db" --format dispatch --shapes tiny --out "$T_DIR/tiny.json"
if [ "$RC" -eq 0 ] && msg=$(python3 - "$T_DIR/tiny.json" "$T_DIR/use.out" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["suite"] == "tiny" and d["precision"] == "float" and len(d["entries"]) == 3, d
header = {l.split()[0]: float(l.split()[-1]) for l in open(sys.argv[2])}
for e in d["entries"]:
    assert abs(e["gflops"] - header[e["label"]]) <= 1e-5 * e["gflops"], (e, header)
    assert e["kernel"] == "mygemm06_2d" and e["layout"] == "NN"
print("; ".join("%s %s" % (e["label"], e["params"]) for e in d["entries"]))
PY
); then
   ok "the JSON table agrees with the header: $msg"
else
   not_ok "the dispatch JSON (exit $RC): ${msg:-}" "$ERR"
fi
# each shape's best in the table is the sweep's best for that shape
for label in tall wide flat; do
   params=$(grep "^$label " "$T_DIR/use.out" | cut -d' ' -f3-7)
   case "$params:$sweep_out" in ?*:*"$label ("*") "*"$params"*) ok "$label: the table's configuration is the sweep's best ($params)" ;;
   *) not_ok "$label: the table's $params is not the sweep's best" "$sweep_out" ;; esac
done
run_gemmtop results export --store "$T_DIR/r.db" --format dispatch
expect_rc 2 "--format dispatch without --shapes is refused"
expect_in "--format dispatch needs --shapes SUITE" "$ERR" "saying what it needs"
# A name whose suffix does not say the format: the message says which one was written.
run_gemmtop results export --store "$T_DIR/r.db" --format dispatch --shapes tiny --out "$T_DIR/d.txt"
expect_rc 0 "--format dispatch --out d.txt"
expect_in "written to $T_DIR/d.txt (a C header: the name ends in neither .h nor .json" "$ERR" "saying it wrote C"
run_gemmtop results export --store "$T_DIR/r.db" --format dispatch --shapes tiny --out "$T_DIR/d2.h"
case "$ERR" in *"ends in neither"*) not_ok "a .h name needs no word on the format" "$ERR" ;;
*) ok "a .h name needs no word on the format" ;; esac

# Refusals.
run_gemmtop list kernels presets
expect_rc 2 "list kernels presets: one word too many"
expect_in "only list shapes takes one, a suite" "$ERR" "saying which list takes a second word"
run_gemmtop bench --kernel mygemm06_2d --shapes tiny --sizes 64
expect_rc 2 "bench with --shapes and --sizes is refused"
expect_in "--shapes and --sizes both give the sizes" "$ERR" "saying to give one"
run_gemmtop sweep --kernel mygemm06_2d --shapes tiny --size 64,128
expect_rc 2 "sweep with --shapes and a --size list is refused"
run_gemmtop bench --kernel mygemm06_2d --shapes broken
expect_rc 2 "bench --shapes of a broken suite is refused"
run_gemmtop run --kernel mygemm06_2d --shapes tiny
expect_rc 2 "run does not take --shapes"
expect_in "run and the explorer take one size" "$ERR" "saying what run takes instead"

finish
