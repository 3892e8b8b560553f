#!/bin/sh
# gemmtop bench: configurations and the vendor BLAS (CLBlast on PoCL) in one process, a table
# of GFLOPS and % of vendor per size, CSV and JSON results; --reference with no such device
# is reported, not fatal; bad sizes are refused.
. "$(dirname "$0")/lib.sh"

run_gemmtop bench --preset 03-wpt general-any --sizes 64,96 --save "$T_DIR/b.csv"
expect_rc 0 "bench of a preset and a preset name at two sizes"
expect_in "configuration" "$OUT" "the table has a header"
expect_in "03-wpt" "$OUT" "the preset has a row"
expect_in "general-any" "$OUT" "the positional preset has a row"
expect_in "every result verified" "$OUT" "the table says every result was verified"
# CSV: one row per configuration and size, verified, GFLOPS positive; % of vendor consistent.
if python3 - "$T_DIR/b.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 4, rows
for r in rows:
    assert r["status"] == "ok" and r["verified"] == "true", r
    g = float(r["gflops"]); assert g > 0, r
    assert int(r["size"]) in (64, 96), r
    if r["vendor_gflops"]:
        v = float(r["vendor_gflops"]); p = float(r["pct_of_vendor"])
        assert abs(p - 100 * g / v) < 0.01 * p + 1e-6, r
assert {r["config"] for r in rows} == {"03-wpt", "general-any"}, rows
PY
then ok "CSV rows are verified with consistent % of vendor"; else not_ok "CSV rows" "$(cat "$T_DIR/b.csv")"; fi
# The results store has the same measurements: each configuration and the vendor library per size.
if python3 - "$T_DIR/b.csv" "$XDG_DATA_HOME/gemmtop/results.db" <<'PY'
import csv, sqlite3, sys
rows = list(csv.DictReader(open(sys.argv[1])))
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[2], uri=True)
got = db.execute("SELECT origin, kernel, params, m, verified, gflops FROM results ORDER BY id").fetchall()
bench = {(k, p, m): g for o, k, p, m, v, g in got if o == "bench" and v == 1}
assert len(bench) == 4 and sum(1 for r in got if r[0] == "bench") == 4, got
for r in rows:
    g = bench[(r["kernel"], r["params"], int(r["size"]))]
    assert abs(g - float(r["gflops"])) <= 1e-5 * g, (r, g)
vendor = sorted(m for o, k, p, m, v, g in got if o == "vendor")
assert vendor == [64, 96], got
PY
then ok "the results store holds the same 4 results and the vendor's per size"; else not_ok "the store's bench rows" "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT origin, kernel, params, m, gflops FROM results").fetchall())' "$XDG_DATA_HOME/gemmtop/results.db" 2>&1)"; fi

# The table's GFLOPS agree with the CSV's (the same measurements, not made up twice).
csv_g=$(python3 -c 'import csv,sys
r=[x for x in csv.DictReader(open(sys.argv[1])) if x["config"]=="03-wpt" and x["size"]=="64"][0]
print("%.1f" % float(r["gflops"]))' "$T_DIR/b.csv")
row=$(printf '%s\n' "$OUT" | grep '^03-wpt')
expect_in "$csv_g" "$row" "the table's figure for 03-wpt at 64 is the CSV's ($csv_g)"

if dpkg-query -W -f='${Status}' libclblast1 2>/dev/null | grep -q "install ok installed"; then
   expect_in "CLBlast" "$OUT" "CLBlast is the vendor row on OpenCL"
   vg=$(python3 -c 'import csv,sys; print(min(float(r["vendor_gflops"] or 0) for r in csv.DictReader(open(sys.argv[1]))))' "$T_DIR/b.csv")
   python3 -c "import sys; sys.exit(0 if $vg > 0 else 1)" && ok "CLBlast measured at every size ($vg GFLOPS at least)" ||
      not_ok "CLBlast measured at every size" "$(cat "$T_DIR/b.csv")"
else
   ok "CLBlast is the vendor row on OpenCL # SKIP libclblast1 is not installed (sh scripts/deps.sh test installs it)"
fi

run_gemmtop bench --kernel mygemm02_tiled --set TS=8 --sizes 64 --save "$T_DIR/b.json" --precision double
expect_rc 0 "bench of a kernel in double"
if python3 - "$T_DIR/b.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 1, rows
r = rows[0]
assert r["kernel"] == "mygemm02_tiled" and r["precision"] == "double" and r["verified"] is True, r
assert "TS=8" in r["params"] and r["gflops"] > 0 and r["size"] == 64, r
# the error beside the speed: the verified round's, and the vendor library's on the same inputs
assert 0 <= r["max_rel_err"] < 1e-6, r
assert r.get("vendor_gflops") is None or 0 <= r["vendor_max_rel_err"] < 1e-6, r
# the runtime and the kernels' compiler, as run's JSON gives them (CUDA: NVRTC or nvcc)
assert "Portable Computing Language" in r["platform"], r
PY
then ok "JSON result names kernel, params, platform, precision, is verified and gives its error"; else not_ok "JSON result" "$(cat "$T_DIR/b.json")"; fi

# --reference: with no CUDA device here the run still completes and says why.
if [ ! -e /dev/nvidia0 ]; then
   run_gemmtop bench --kernel general_any --sizes 64 --reference cuda
   expect_rc 0 "bench --reference cuda without a CUDA device still runs"
   expect_in "--reference cuda" "$ERR" "it says the reference is missing"
   expect_in "general_any" "$OUT" "and measures the configuration"
else
   ok "bench --reference cuda without a CUDA device # SKIP this machine has an NVIDIA GPU (/dev/nvidia0)"
fi
run_gemmtop bench --kernel general_any --sizes 64 --reference metal
expect_rc 2 "an unknown reference backend is a usage error"
expect_in "use one of opencl, cuda, hip" "$ERR" "naming the valid ones"

# --rounds: the libraries and the configuration take turns, the library first in even
# rounds and last in odd ones; the table says how many rounds made each figure.
# Its --sizes, 64 padded with zeros past 256 characters, is read whole (it was cut to
# "000...0" and refused, or to "6").
long=$(python3 -c 'print("0" * 300 + "64")')
run_gemmtop bench --kernel general_any --sizes "$long" --rounds 3 --save "$T_DIR/r.csv"
expect_rc 0 "bench in 3 rounds"
size_col=$(python3 -c 'import csv,sys; print(",".join(r["size"] for r in csv.DictReader(open(sys.argv[1]))))' "$T_DIR/r.csv")
[ "$size_col" = 64 ] && ok "a 302-character --sizes is read whole: size 64" || not_ok "long --sizes: sizes $size_col" "$OUT"
rounds_col=$(python3 -c 'import csv,sys; print(",".join(r["rounds"] for r in csv.DictReader(open(sys.argv[1]))))' "$T_DIR/r.csv")
expect_in "3" "$rounds_col" "the CSV says each figure is of 3 rounds ($rounds_col)"
expect_in "median of 3 rounds" "$OUT" "the table says its figures are medians of 3 rounds"
order=$(printf '%s\n' "$ERR" | grep '^size 64, round' | sed 's/^size 64, round \([0-9]\) of 3: \([a-z_]*\).*/\1\2/' | tr '\n' ' ')
expect_in "1vendor 1general_any 2general_any 2vendor 3vendor 3general_any" "$order" "turns alternate ($order)"
run_gemmtop bench --kernel general_any --sizes 64 --rounds 33
expect_rc 2 "more than 32 rounds is refused"
expect_in "--rounds 33: use 1 to 32" "$ERR" "saying the limit"
run_gemmtop bench --kernel general_any --sizes 64 --rounds 0
expect_rc 2 "zero rounds is refused"
expect_in "--rounds" "$ERR" "naming the option"

run_gemmtop bench --kernel general_any --sizes 64,zero
expect_rc 2 "a bad size list is refused"
expect_in "'zero' is not a size: use N or MxNxK, whole numbers from 1 to 65536" "$ERR" "naming the bad size and the valid ones"

# 17 sizes are refused with the limit (16 were measured and the 17th dropped).
run_gemmtop bench --kernel general_any --sizes 64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64
expect_rc 2 "17 sizes are refused"
expect_in "--sizes: at most 16 sizes, not 17" "$ERR" "naming the limit"

# bench takes --sizes, not --size; it prints a table (--save writes CSV or JSON).
run_gemmtop bench --kernel general_any --size 64
expect_rc 2 "bench --size is a usage error"
expect_in "--size is for" "$ERR" "naming the option"
expect_in "not for 'gemmtop bench'; bench takes its sizes from --sizes" "$ERR" "and the command, with what to use"
# Issue 13: --format csv and json print the rows on standard output; a size may be MxNxK
# (the DCU chapter's 64x64x128); each row is compared with the vendor library of its own
# precision (a float and a double preset, CLBlast in both); CSV has the emulated column.
run_gemmtop bench m1-naive-float m1-naive-double --sizes 32x16x48 --rounds 1 --format csv
expect_rc 0 "bench --format csv of a float and a double preset at 32x16x48"
if printf '%s\n' "$OUT" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert len(rows) == 2, rows
for r in rows:
    assert (r["size"], r["m"], r["n"], r["k"]) == ("32x16x48", "32", "16", "48"), r
    assert r["status"] == "ok" and r["verified"] == "true" and r["emulated"] == "false", r
    if r["vendor_gflops"]:
        assert abs(float(r["pct_of_vendor"]) - 100 * float(r["gflops"]) / float(r["vendor_gflops"])) < 0.01 * float(r["pct_of_vendor"]) + 1e-6, r
by = {r["precision"]: r for r in rows}
assert set(by) == {"float", "double"}, rows
if by["float"]["vendor_gflops"]:
    # one CLBlast figure per precision: two measurements, not one shared
    assert by["float"]["vendor_gflops"] != by["double"]["vendor_gflops"], rows
'; then ok "CSV on stdout: MxNxK in size, m, n, k; emulated column; % of the vendor in its own precision"
else not_ok "CSV on stdout" "$OUT"; fi
expect_in "size 32x16x48, round 1 of 1: vendor double" "$ERR" "the vendor library is timed in double too"
GEMMTOP_CLBLAST=/nonexistent/libclblast.so run_gemmtop bench --kernel general_any --sizes 24 --rounds 1 --format json
expect_rc 0 "bench --format json"
expect_in '"emulated":false' "$OUT" "JSON rows have the emulated field"
[ "$(json_field size)" = 24 ] && [ "$(json_field k)" = 24 ] && ok "JSON: a square size is a number, with m, n, k" ||
   not_ok "JSON size fields" "$OUT"

# The footer claims "every result verified" only when true; a wrong result is named.
use_test_kernels
GEMMTOP_CLBLAST=/nonexistent/libclblast.so run_gemmtop bench --kernel test_broken --sizes 32 --rounds 1
expect_rc 1 "a bench with a wrong result fails"
expect_in "not every result verified: test_broken at 32 (wrong result)" "$OUT" "the footer names what failed"
case "$OUT" in
*"every result verified"*"not every"* | *"
every result verified"*) not_ok "no claim that every result verified" "$OUT" ;;
*) ok "no claim that every result verified" ;;
esac

# On a CPU the bench says first how long it will take, as an estimate; Ctrl-C (SIGINT)
# stops it and prints what was measured: the first sizes' figures, '-' for the rest.
GEMMTOP_CLBLAST=/nonexistent/libclblast.so "$GEMMTOP_BIN" bench $POCL --kernel mygemm01_naive --sizes 16,32,1024 \
   --rounds 3 --reps 50 >"$T_DIR/int.out" 2>"$T_DIR/int.err" &
pid=$!
i=0
until grep -q "size 1024, round 1 of 3: mygemm01_naive" "$T_DIR/int.err" 2>/dev/null || [ $i -ge 600 ]; do
   i=$((i + 1))
   sleep 0.1
done
kill -INT $pid
wait $pid
RC=$?
OUT=$(cat "$T_DIR/int.out")
ERR=$(cat "$T_DIR/int.err")
expect_rc 130 "Ctrl-C ends the bench with exit 130"
expect_in "this bench takes about" "$ERR" "it said beforehand how long the bench would take"
expect_in "an estimate" "$ERR" "saying that it is an estimate"
expect_in "interrupted (Ctrl-C) during size 1024" "$OUT" "the table says it was interrupted"
row=$(printf '%s\n' "$OUT" | grep '^mygemm01_naive')
if printf '%s\n' "$row" | python3 -c '
import sys
f = sys.stdin.read().split()
assert float(f[1]) > 0 and float(f[3]) > 0 and f[-1] == "-", f'; then
   ok "the sizes measured have figures, the one interrupted '-' ($row)"
else not_ok "figures after Ctrl-C" "$OUT"; fi

# Issue 14: CLBlast has no tf32 or bfloat16 GEMM, and none for half with FP32 C: the vendor
# row says so by type, and it is not a device error (emulated tensor kernels on PoCL).
run_gemmtop bench tensor-2-local-half --sizes 32 --rounds 1
expect_rc 0 "bench of a half preset"
expect_in "CLBlast has no half GEMM with FP32 C" "$OUT" "the vendor row says CLBlast has no half GEMM with FP32 C"
case "$OUT" in
*"device error"*) not_ok "a missing vendor GEMM is not a device error" "$OUT" ;;
*) ok "a missing vendor GEMM is not a device error" ;;
esac

# A results file that cannot be written is an error naming it and why. (Without CLBlast,
# which would take seconds to compile its kernels on PoCL: its absence is not an error.)
GEMMTOP_CLBLAST=/nonexistent/libclblast.so "$GEMMTOP_BIN" bench --kernel mygemm01_naive --sizes 32 --rounds 1 \
   --save /dev/full >"$T_DIR/out" 2>"$T_DIR/err"
RC=$?
ERR=$(cat "$T_DIR/err")
expect_rc 1 "--save /dev/full: a full disk fails the bench"
expect_in "/dev/full: cannot write: No space left on device" "$ERR" "naming the file and the error"
finish
