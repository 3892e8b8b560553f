#!/bin/sh
# On the GPU machine: the FP8 types and the shape suites in one call (docs/fp8.md,
# docs/shapes.md). Writes full results under $1 (default $OUT) and prints a short table.
#  1. the peaks, FP8's mma.sync among them (list devices --measure);
#  2. fp8mma1_scaled in e4m3 and e5m2, per-tensor and block scales, through CUDA and through
#     NVIDIA's OpenCL (inline PTX), verified at odd sizes, then timed at 4096 (PROMOTE=0 and 1);
#  3. a short sweep of its tiles at 4096 (the best per format);
#  4. the Llama-3-8B and skinny suites benched against cuBLAS: bfloat16 (hopper step 5), FP32
#     (fast 2), with each suite's weighted geometric mean of % of cuBLAS.
. tools/gpu/gpu_setup.sh
B=build/gemmtop
out=${1:-$OUT}
mkdir -p "$out"
$B list devices --backend cuda --measure > "$out/peaks.txt" 2>&1
for be in cuda opencl; do
   dev=""
   [ "$be" = opencl ] && dev="--device NVIDIA"
   for prec in e4m3 e5m2; do
      for sc in tensor block; do
         $B run --backend $be $dev --kernel fp8mma1_scaled --precision $prec --scaling $sc -m 1000 -n 520 -k 1030 \
            --alpha 0.75 --beta 0.5 --format json >> "$out/fp8-verify.jsonl" 2>> "$out/fp8-verify.err"
         for promote in 1 0; do
            [ "$sc" = block ] && [ "$promote" = 0 ] && continue
            $B run --backend $be $dev --kernel fp8mma1_scaled --precision $prec --scaling $sc --set PROMOTE=$promote \
               --set BM=128 --set BN=128 --set BK=128 --set WM=64 --set WN=64 --size 4096 --reps 20 --format json \
               >> "$out/fp8-4096.jsonl" 2>> "$out/fp8-4096.err"
         done
      done
   done
done
for prec in e4m3 e5m2; do
   $B sweep --backend cuda --kernel fp8mma1_scaled --precision $prec --size 4096 --budget 40 --save "$out/fp8-sweep-$prec.csv" \
      > "$out/fp8-sweep-$prec.txt" 2>&1
done
for suite in llama3-8b skinny; do
   $B bench --backend cuda hopper-5-order-bf16 --shapes $suite --rounds 3 --save "$out/bench-$suite-bf16.json" \
      > "$out/bench-$suite-bf16.txt" 2>&1
   $B bench --backend cuda fast-02-warptile-cuda --shapes $suite --rounds 3 --save "$out/bench-$suite-fp32.json" \
      > "$out/bench-$suite-fp32.txt" 2>&1
done
python3 - "$out" <<'PY'
import json, sys, glob
d = sys.argv[1]
print("FP8 (fp8mma1_scaled), verified at 1000x520x1030 and timed at 4096:")
for line in open(d + "/fp8-4096.jsonl"):
    r = json.loads(line)
    print("  %-6s %-7s %-6s %-22s %9.1f GFLOPS  %s" % (r["backend"], r["precision"], r.get("scaling", ""),
          "PROMOTE=%s" % r["params"].get("PROMOTE"), r.get("gflops") or 0, r["status"]))
bad = [json.loads(l) for l in open(d + "/fp8-verify.jsonl") if not json.loads(l)["verified"]]
print("  odd sizes: %d not verified" % len(bad))
for f in sorted(glob.glob(d + "/bench-*.json")):
    for line in open(f):
        r = json.loads(line)
        if "geomean_pct_of_vendor" in r:
            print("%-28s %-24s %6.1f%% of cuBLAS (weighted geometric mean, %d of %d shapes)" % (
                f.split("/")[-1], r["config"], r["geomean_pct_of_vendor"], r["shapes_compared"], r["shapes"]))
PY
grep -E "peaks" "$out/peaks.txt"
date -u
