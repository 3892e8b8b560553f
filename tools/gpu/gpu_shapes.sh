#!/bin/sh
# On the GPU machine: issue 31's figures in one call (docs/shapes.md). Writes full results
# under $1 (default $OUT) and prints a short table last.
#  1. the peaks and the driver's clocks (list devices --measure);
#  2. every suite (llama3-8b, llama3-70b, skinny, squares) benched against cuBLAS in the same
#     process, --rounds 3: bfloat16 and half (Hopper step 5), tf32 (Hopper step 5), FP32
#     (fast 2), half on mma.sync (tensor 5); each shape's % of cuBLAS and the suite's
#     weighted geometric mean;
#  3. the scheduling steps swept per shape of the skinny and llama3-8b suites:
#     tensor06_splitk and tensor07_streamk (half), fast03_splitk and fast04_streamk (FP32),
#     the best per shape and one across the suite;
#  4. CUDA exports built with nvcc and run outside gemmtop, each beside gemmtop's own run
#     of the same configuration: the launcher's GFLOPS over gemmtop's (issue 31: within 3%).
# Nothing here has run yet: it was written without a GPU (2026-11-28). Run it from the
# project's root with the build carried (build/gemmtop).
. tools/gpu/gpu_setup.sh
B=build/gemmtop
out=${1:-$OUT}
mkdir -p "$out"
date -u >"$out/date.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv >>"$out/date.txt" 2>&1
$B list devices --backend cuda --measure >"$out/peaks.txt" 2>&1

# 2. the suites against cuBLAS
for suite in llama3-8b llama3-70b skinny squares; do
   for preset in hopper-5-order-bf16 hopper-5-order-half hopper-5-order-tf32 fast-02-warptile-cuda \
      tensor-5-warptile-h100-half-cuda; do
      $B bench --backend cuda "$preset" --shapes $suite --rounds 3 --save "$out/bench-$suite-$preset.json" \
         >"$out/bench-$suite-$preset.txt" 2>&1
   done
done

# 3. the scheduling steps, per shape of the skinny suite
$B sweep --backend cuda --kernel tensor06_splitk --precision half --set BK=64 --set STAGES=3 --set WM=64 --set WN=64 \
   --shapes skinny --budget 24 --save "$out/sweep-tensor06-half.csv" \
   >"$out/sweep-tensor06-half.txt" 2>&1
$B sweep --backend cuda --kernel tensor07_streamk --precision half --set BK=64 --set STAGES=3 --set WM=64 --set WN=64 \
   --shapes llama3-8b --budget 24 --save "$out/sweep-tensor07-half.csv" >"$out/sweep-tensor07-half.txt" 2>&1
for k in fast03_splitk fast04_streamk; do
   $B sweep --backend cuda --kernel $k --shapes skinny --budget 24 --save "$out/sweep-$k.csv" \
      >"$out/sweep-$k.txt" 2>&1
done

# 4. exports: built with nvcc, run outside gemmtop, beside gemmtop's run of the same configuration
: >"$out/exports.txt"
export_one() { # NAME SIZE LAYOUT SELECTION...
   name=$1 size=$2 layout=$3
   shift 3
   rm -rf "$out/export-$name"
   $B run --backend cuda "$@" --size "$size" --layout "$layout" --reps 21 --format json \
      >"$out/export-$name-gemmtop.json" 2>"$out/export-$name-gemmtop.err"
   if $B export-kernel --backend cuda "$@" --size "$size" --layout "$layout" --dir "$out/export-$name" \
      >"$out/export-$name.txt" 2>&1 && make -C "$out/export-$name" >>"$out/export-$name.txt" 2>&1; then
      for l in "$out/export-$name"/*_launch; do
         (cd "$out/export-$name" && "./${l##*/}" 0) >"$out/export-$name-launch.txt" 2>&1
      done
   fi
   python3 - "$name" "$out/export-$name-gemmtop.json" "$out/export-$name-launch.txt" >>"$out/exports.txt" <<'PY'
import json, re, sys
name, gj, lt = sys.argv[1:]
try:
    g = json.loads(open(gj).readline())
    gg = g.get("gflops") or 0
except Exception as e:
    g, gg = {"status": "no run: %s" % e}, 0
text = open(lt).read() if lt else ""
m = re.search(r"([0-9.]+) GFLOPS", text)
lg = float(m.group(1)) if m else 0
ok = "verified" if "verified:" in text else "NOT verified"
ratio = "%.1f%%" % (100 * lg / gg) if gg and lg else "-"
print("%-22s gemmtop %9.1f GFLOPS (%s)   launcher %9.1f GFLOPS (%s)   launcher/gemmtop %s" % (
    name, gg, g.get("status"), lg, ok, ratio))
PY
}
export_one hopper5-bf16-4096 4096 NT --preset hopper-5-order-bf16
export_one tensor06-half-decode 128x8192x8192 NN --preset tensor-5-warptile-h100-half-cuda --kernel tensor06_splitk \
   --set BM=128 --set SPLIT=4
export_one fast04-streamk-decode 128x8192x8192 NN --kernel fast04_streamk
export_one tensor07-half-mlp 4096x14336x4096 NN --preset tensor-5-warptile-h100-half-cuda --kernel tensor07_streamk
export_one fast02-4096 4096 NN --preset fast-02-warptile-cuda

# the short table
python3 - "$out" <<'PY'
import json, sys, glob
d = sys.argv[1]
print(open(d + "/date.txt").read().strip())
print("\nsuites against cuBLAS (weighted geometric mean; lowest shape):")
for f in sorted(glob.glob(d + "/bench-*.json")):
    rows = [json.loads(l) for l in open(f) if l.strip()]
    shapes = [r for r in rows if "pct_of_vendor" in r and r.get("pct_of_vendor") is not None]
    means = [r for r in rows if "geomean_pct_of_vendor" in r]
    low = min(shapes, key=lambda r: r["pct_of_vendor"]) if shapes else None
    for r in means:
        print("  %-58s %6.1f%%   lowest %s %s" % (f.split("/")[-1][6:-5], r["geomean_pct_of_vendor"],
              low["shape"] if low else "-", "%.1f%%" % low["pct_of_vendor"] if low else ""))
print("\nexports (launcher outside gemmtop against gemmtop's run):")
print(open(d + "/exports.txt").read().rstrip())
PY
grep -E "peak|clock" "$out/peaks.txt" | head -8
