#!/bin/sh
# On the GPU machine: a search of Hopper step 3 (hopper3_warpspec) in each type, to pick
# its presets. Warp specialisation alone runs at step 2's speed with step 2's tile; what
# it makes possible (setmaxnreg, BLOCKS blocks per multiprocessor, deeper pipelines in
# the shared memory the producer frees) is found here. Per type, a random search of
# BUDGET configurations (128-byte swizzle, NT as the presets) at 4096, at most SECONDS
# seconds each; the best first in OUTDIR/h3-TYPE.txt, every result in h3-TYPE.json.
# Then bench times step 2's preset beside the best found, at 4096 and 8192, in one
# process with cuBLAS. Usage: sh tools/gpu/gpu_hopper_tune.sh [OUTDIR] [BUDGET] [SECONDS]
. tools/gpu/gpu_setup.sh
B=$PWD/build/gemmtop
out=${1:-${OUT:-/tmp}}
budget=${2:-24}
secs=${3:-60}
mkdir -p "$out"
P="${XDG_CONFIG_HOME:-$HOME/.config}/gemmtop/presets"
mkdir -p "$P"
for t in half bfloat16 tf32 float; do
   $B sweep --backend cuda --kernel hopper3_warpspec --precision $t --layout NT --size 4096 --set SW=128 \
      --budget "$budget" --time-budget "$secs" --reps 5 --warmup 2 --timeout 20 --save "$out/h3-$t.json" \
      > "$out/h3-$t.txt" 2>&1
   echo "== hopper3 $t (best first)"
   head -n 5 "$out/h3-$t.txt"
   # The best configuration as a user preset, timed below beside step 2.
   python3 - "$out/h3-$t.json" "$t" "$P/h3-best-$t.preset" <<'PY'
import json, sys
rows = []
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith("{"):
        r = json.loads(line)
        if r.get("verified") and r.get("gflops"):
            rows.append(r)
if rows:
    best = max(rows, key=lambda r: r["gflops"])
    with open(sys.argv[3], "w") as f:
        f.write("kernel = hopper3_warpspec\nsize = 4096\nprecision = %s\nlayout = NT\n" % sys.argv[2])
        for k, v in best["params"].items():
            f.write("%s = %s\n" % (k, v))
    print("best", sys.argv[2], best["gflops"], best["params"])
PY
done
for t in half bfloat16 tf32; do
   p=$t
   [ $t = bfloat16 ] && p=bf16 # the presets' name for it
   $B bench --backend cuda hopper-2-pipeline-$p hopper-3-warpspec-$p h3-best-$t --sizes 4096,8192 --rounds 3 \
      > "$out/bench-$t.txt" 2>&1
   echo "== bench $t"; cat "$out/bench-$t.txt"
done
$B bench --backend cuda hopper-2-pipeline hopper-3-warpspec h3-best-float --sizes 4096,8192 --rounds 3 \
   > "$out/bench-float.txt" 2>&1
echo "== bench float (3xTF32)"; cat "$out/bench-float.txt"
