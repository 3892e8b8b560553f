#!/bin/sh
# On the GPU machine: the timing hold (docs/perf.md) against none (GEMMTOP_HOLD=0), the same
# runs both ways one after the other, each with cuBLAS or cuBLASLt in the same process; a line
# per run and hold, the full outputs in $OUT/ab_full.txt (or $1). Ran on 2026-11-29 (H200):
#    sh tools/gpu/gpu_round.sh ab:150:tools/gpu/gpu_hold_ab.sh
. tools/gpu/gpu_setup.sh
out=${1:-$OUT}
B=build/gemmtop
export XDG_CONFIG_HOME=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d)
one() { # LABEL ARGS...
   label=$1; shift
   for h in 0 1; do
      r=$(GEMMTOP_HOLD=$h timeout 90 $B run --backend cuda "$@" --vendor --reps 30 2>&1)
      g=$(echo "$r" | awk '/^speed/{print $2}'); v=$(echo "$r" | grep -o 'runs at [0-9.]*%' | head -1); vm=$(echo "$r" | awk '/^vendor .*median/{for(i=1;i<=NF;i++) if($i=="ms") print $(i-1)}' | head -1)
      ok=$(echo "$r" | grep -c '^verify *verified')
      echo "$label hold=$h GFLOPS=$g vendor_ms=$vm $v verified=$ok"
      echo "$r" >>"$out/ab_full.txt"
   done
}
{
one hopper5-2048 --preset hopper-5-order-bf16 --size 2048
one hopper5-4096 --preset hopper-5-order-bf16 --size 4096
one hopper5-1024 --preset hopper-5-order-bf16 --size 1024
one fast02-2048 --preset fast-02-warptile-cuda --size 2048
one t9-m8 --preset tensor-9-decode-bfloat16 -m 8 -n 8192 -k 8192
one t9-m16 --preset tensor-9-decode-bfloat16-m16 -m 16 -n 8192 -k 8192
one t9-m1 --preset tensor-9-decode-bfloat16 -m 1 -n 8192 -k 8192
one fp8-4096 --preset hopper-fp8-tuned-tensor --size 4096
for h in 0 1; do echo "peaks hold=$h"; GEMMTOP_HOLD=$h timeout 60 $B list devices --backend cuda --measure 2>&1 | grep -E "measured peaks|local, launch|reads, L2"; done
} 2>&1 | tee "$out/ab.txt"
