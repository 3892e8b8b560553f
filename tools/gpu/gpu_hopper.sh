#!/bin/sh
# On the GPU machine (an H100 or H200): the hopper ladder through the CUDA backend. The
# build check (SASS shows HGMMA and the TMA's UTMALDG), correctness of every step, of each
# swizzle mode and of each element type at sizes that pad, then against cuBLAS of the same
# types, each type in one process (bench --rounds): the ladder in float (3xTF32) against
# SGEMM, and in tf32, half and bfloat16 against cuBLAS's TF32, half and bfloat16 GEMMs;
# step 5 also in clusters of two blocks (CLUSTER=2, B shared by TMA multicast).
# Writes under $1 (default $OUT); prints the tables last.
. tools/gpu/gpu_setup.sh
B=${GEMMTOP_BIN:-build/gemmtop}
out=${1:-$OUT}
mkdir -p "$out"
S=${SIZES:-4096,8192}
R=${ROUNDS:-3}
LADDER=${LADDER:-"hopper-1-tma hopper-2-pipeline hopper-3-warpspec hopper-4-consumers hopper-5-order"}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"

echo "== build: wgmma (HGMMA) and TMA (UTMALDG) in the SASS"
for p in $LADDER; do
   $B inspect --backend cuda --preset $p --code sass > "$out/inspect-$p.txt" 2>&1
   printf '%-20s %s HGMMA, %s UTMALDG, %s\n' $p "$(grep -c HGMMA "$out/inspect-$p.txt")" \
      "$(grep -c UTMALDG "$out/inspect-$p.txt")" "$(grep -E '^registers' "$out/inspect-$p.txt")"
done

echo "== correctness: each step at a padded size, each swizzle mode, beta != 0"
check() { # preset, then options
   p=$1; shift
   line=$($B run --backend cuda --preset $p "$@" --reps 2 --format csv 2>&1 | tail -n 1)
   echo "$p $*: $(echo "$line" | cut -d, -f12,19) $(echo "$line" | sed 's/^[^"]*"[^"]*",//; s/.*,"\([^"]*\)".*/\1/')" | tee -a "$out/correctness.txt"
}
for p in $LADDER; do check $p -m 1000 -n 520 -k 700; done
for sw in 0 32 64 128; do
   check hopper-1-tma --size 512 --set SW=$sw
   check hopper-4-consumers --size 512 --set SW=$sw --set BK=32 --set STAGES=2
done
check hopper-2-pipeline --size 768 --beta 0.5
check hopper-5-order --size 1536 --set GROUP=4
check hopper-5-order -m 1000 -n 520 -k 700 --beta 0.5 --set CLUSTER=2
for t in tf32 half bf16; do
   for p in hopper-1-tma hopper-2-pipeline hopper-3-warpspec hopper-4-consumers; do
      check $p-$t -m 1000 -n 520 -k 700
   done
   check hopper-5-order-$t -m 1000 -n 520 -k 700 --beta 0.5
   check hopper-5-order-$t -m 1000 -n 520 -k 700 --beta 0.5 --set CLUSTER=2
done
# Thread-block clusters (TMA multicast of B): step 5 with CLUSTER=2 as user presets, so
# that bench times them beside CLUSTER=1 and cuBLAS.
P="${XDG_CONFIG_HOME:-$HOME/.config}/gemmtop/presets"
mkdir -p "$P"
for p in hopper-5-order hopper-5-order-tf32 hopper-5-order-half hopper-5-order-bf16; do
   { cat presets/$p.preset; echo "CLUSTER = 2"; } > "$P/$p-cluster2.preset"
done
# Step 2 with step 3's 128 x 192 tile, one block per multiprocessor, four stages: what
# warp specialisation alone is worth at that tile (the lesson's "2, step 3's tile" row).
for t in tf32 half bf16; do
   grep -v -E '^(#|BN|STAGES|BK) ' presets/hopper-2-pipeline-$t.preset > "$P/hopper-2-pipeline-$t-wide.preset"
   grep -E '^(BN|STAGES|BK) ' presets/hopper-3-warpspec-$t.preset >> "$P/hopper-2-pipeline-$t-wide.preset"
done
$B inspect --backend cuda --preset hopper-5-order-half-cluster2 --code sass > "$out/inspect-cluster2.txt" 2>&1
echo "cluster2: $(grep -c 'UTMALDG.*MULTICAST' "$out/inspect-cluster2.txt") multicast UTMALDG, $(grep -c HGMMA "$out/inspect-cluster2.txt") HGMMA"
$B run --backend cuda --preset hopper-4-consumers --size 2048 > "$out/run-4-2048.txt" 2>&1 # the table view
tail -n 8 "$out/run-4-2048.txt"

for t in tf32 half bf16; do
   $B bench --backend cuda hopper-1-tma-$t hopper-2-pipeline-$t hopper-2-pipeline-$t-wide hopper-3-warpspec-$t \
      hopper-4-consumers-$t hopper-5-order-$t hopper-5-order-$t-cluster2 --sizes $S --rounds $R --save "$out/bench-$t.csv" \
      > "$out/bench-$t.txt" 2>&1
done
$B bench --backend cuda $LADDER hopper-5-order-cluster2 $EXTRA --sizes $S --rounds $R --save "$out/bench.csv" > "$out/bench.txt" 2>&1
for t in tf32 half bf16; do
   echo "== $t against cuBLAS of the same types, $S, $R rounds"
   grep -v '^size ' "$out/bench-$t.txt"
done
echo "== the ladder in float (3xTF32) against cuBLAS SGEMM, $S, $R rounds"
grep -v '^size ' "$out/bench.txt"
