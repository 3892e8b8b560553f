#!/bin/sh
# On the GPU machine: sweep every ladder variant at one size through one backend and keep
# the best verified configuration of each; then bench those with the vendor library.
# Usage: sh tools/gpu/gpu_ladder.sh BACKEND SIZE BUDGET OUTDIR [KERNELS...]
. tools/gpu/gpu_setup.sh
backend=$1 size=$2 budget=$3 out=$4
shift 4
B=build/gemmtop
dev=""
[ "$backend" = opencl ] && dev="--device NVIDIA"
kernels="$*"
[ -n "$kernels" ] || kernels=$($B list kernels --format json | python3 -c 'import json,sys
for l in sys.stdin: print(json.loads(l)["name"])')
for k in $kernels; do
   $B sweep --backend "$backend" $dev --kernel "$k" --size "$size" --budget "$budget" --reps 10 --warmup 3 \
      --timeout 20 --save "$out/sweep-$backend-$k.json" > "$out/sweep-$backend-$k.txt" 2>&1
   echo "== $k"; head -n 3 "$out/sweep-$backend-$k.txt"; grep -E "^tried" "$out/sweep-$backend-$k.txt"
done
cat "$out"/sweep-"$backend"-*.json > "$out/sweeps-$backend-$size.jsonl"
