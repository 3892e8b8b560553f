#!/bin/sh
# On the GPU machine (an H200 or H100; tools/gpu/gpu_setup.sh first, build/ carried): issue
# 43's FP8 ladder and 3xTF32 in one call, under five minutes. Builds nothing. Writes every
# log and result into $OUT/fp8.tgz (folder fp8/ inside; the work folder is $WORK, default
# /tmp/gemmtop-fp8) and prints a short table last (tools/gpu/gpu_fp8.py --summary).
#   1. build: each hopper-fp8 step's SASS (QGMMA for FP8 wgmma, UTMALDG for TMA), registers
#      and spills (inspect on the device);
#   2. correctness: every step in e4m3 and e5m2, per-tensor and block scales, at an odd size
#      (1000x520x1030) with alpha 0.75 beta 0.5, and with beta 0 (step 4's bulk copies), a
#      run each with a 30 s limit; step 1 with block scales is refused by design and listed
#      so; a step that never ends is left out of the rest;
#   3. timing: each step at 4096 and 8192 (bench --rounds 3, cuBLASLt's FP8 GEMM in the vendor
#      column with gemmtop's FP32 C, and for block scales again with a bfloat16 C, where this
#      cuBLASLt offers its block-scaled mode only so), e5m2 at step 5, and torch._scaled_mm
#      (cuBLASLt through PyTorch, e4m3 per-tensor, bfloat16 and FP32 out) at the same sizes;
#   4. the promotion ablation: PROMOTE=1 against 0 at 4096 x 4096 x K, K = 4096 and 16384,
#      error against the exact product of the FP8 inputs, beside torch._scaled_mm with and
#      without its fast accumulation and the mma.sync kernel on the same inputs;
#   5. 3xTF32 (hopper-5-order's LO, SMALL, PROMO, ORDER switches) at 1000, 2048 and 4096:
#      max and median |C - C64| / (|A||B|) beside cuBLAS SGEMM (torch, TF32 off) on the
#      same inputs, with each one's speed (tools/gpu/gpu_fp8.py does 4 and 5);
#   6. a small sweep of STAGES, GROUP, BN, PROMOTE and CLUSTER for steps 3 and 5 at 8192;
#   7. the frontier (bench --frontier) at 4096, its SVG and JSON.
# The steps run in that order within a budget (BUDGET, 285 s): what would start after it
# is skipped and listed so.
# Nothing stops at the first failure: each command's exit status and log are kept, a
# command that runs past its time limit is killed and said so.
# A stand-in run on a machine without the GPU (paths and parsing only):
#   OUT=/tmp/fp8out BACKEND="--backend opencl --device pocl" SIZES=64 ODD=72x40x136 KS=256 \
#     TF32_SIZES=64 FRONTIER_SIZE=32 SWEEP_SIZE=64 NO_SETUP=1 BUDGET=900 FRONTIER_TIMEOUT=600 \
#     sh tools/gpu/gpu_fp8.sh
# shellcheck disable=SC2086,SC2046,SC1091 # BACKEND and the preset lists are lists of words
[ -f tools/gpu/gpu_setup.sh ] && [ -z "${NO_SETUP:-}" ] && . tools/gpu/gpu_setup.sh
B=${GEMMTOP_BIN:-$PWD/build/gemmtop}
BACKEND=${BACKEND:---backend cuda}
SIZES=${SIZES:-4096,8192}
ODD=${ODD:-1000x520x1030}
export ODD
KS=${KS:-4096 16384}
TF32_SIZES=${TF32_SIZES:-1000 2048 4096}
FRONTIER_SIZE=${FRONTIER_SIZE:-4096}
SWEEP_SIZE=${SWEEP_SIZE:-8192}
ROUNDS=${ROUNDS:-3}
# The whole call's budget in seconds: a step that would start after it is skipped and said so
# (the order below puts what matters most first).
BUDGET=${BUDGET:-285}
FRONTIER_TIMEOUT=${FRONTIER_TIMEOUT:-90}
out=${OUT:?set OUT to the folder that comes back}
# Work outside OUT (a call brings back at most 8 files): OUT gets fp8.tgz alone.
work=${WORK:-/tmp/gemmtop-fp8}
d="$work/fp8"
rm -rf "$d"
mkdir -p "$d" "$out"
t_start=$(date +%s)
DEADLINE=$((t_start + BUDGET))
export DEADLINE
# The compile cache and the user presets of this run live under d: nothing of another run.
export XDG_CACHE_HOME="$d/cache" XDG_CONFIG_HOME="$d/config" XDG_DATA_HOME="$d/data"
P="$XDG_CONFIG_HOME/gemmtop/presets"
mkdir -p "$P"
STEPS="hopper-fp8-1-wgmma hopper-fp8-2-blockscale hopper-fp8-3-persistent hopper-fp8-4-bulkstore hopper-fp8-5-cluster"

# run_logged NAME SECONDS CMD...: CMD's output into NAME.txt, its status into status.txt;
# at most SECONDS, and never past the budget's end.
run_logged() {
   name=$1 secs=$2
   shift 2
   t0=$(date +%s)
   left=$((DEADLINE - t0))
   if [ $left -lt 5 ]; then
      echo "$name skipped: the ${BUDGET}s budget is spent" >>"$d/status.txt"
      return
   fi
   [ $secs -gt $left ] && secs=$left
   timeout -k 5 "$secs" "$@" >"$d/$name.txt" 2>&1
   rc=$?
   [ $rc -eq 124 ] || [ $rc -eq 137 ] && echo "timed out after $secs s" >>"$d/$name.txt"
   echo "$name rc=$rc $(($(date +%s) - t0))s" >>"$d/status.txt"
}

{
   date -u
   nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1
   "$B" --version 2>&1
   "$B" list kernels 2>&1 | sed -n '/^ladder hopper-fp8/,/^$/p'
} >"$d/device.txt"

# 1. build: SASS on the device (cuobjdump is on PATH after gpu_setup.sh)
for p in $STEPS hopper-fp8-5-cluster-tensor; do
   run_logged "inspect-$p" 20 "$B" inspect $BACKEND --preset "$p" --code sass
   run_logged "inspect-$p-e5m2" 20 "$B" inspect $BACKEND --preset "$p" --precision e5m2 --code none
done

# 2. correctness at an odd size: each step, type and scaling in a run of its own, four at a
# time, so that a kernel that never ends costs only its own 30 s and names itself. Beta 0.5
# takes the epilogue that reads C; beta 0 (steps 4 and 5) the bulk copies.
mkdir -p "$d/verify"
verify_one() { # PRESET PRECISION SCALING BETA
   f="$d/verify/$1-$2-$3-b$4"
   timeout -k 5 30 "$B" run $BACKEND --preset "$1" --precision "$2" --scaling "$3" --size "$ODD" --alpha 0.75 \
      --beta "$4" --reps 2 --warmup 1 --format json >"$f.json" 2>"$f.err"
   echo $? >"$f.rc"
}
n=0
t0=$(date +%s)
for prec in e4m3 e5m2; do
   for sc in tensor block; do
      for p in $STEPS hopper-fp8-1-wgmma-nopromote; do
         [ "$(date +%s)" -ge $((DEADLINE - 35)) ] && break 3
         verify_one $p $prec $sc 0.5 &
         n=$((n + 1))
         [ $((n % 4)) -eq 0 ] && wait
      done
      for p in hopper-fp8-4-bulkstore hopper-fp8-5-cluster; do
         verify_one $p $prec $sc 0 &
         n=$((n + 1))
         [ $((n % 4)) -eq 0 ] && wait
      done
   done
done
wait
echo "verify: $n runs $(($(date +%s) - t0))s" >>"$d/status.txt"
# A step whose run never ended (timeout's 124, or 137 when killed) is left out of what follows.
hung() { # PRESET PRECISION SCALING
   rc=$(cat "$d/verify/$1-$2-$3-b0.5.rc" 2>/dev/null)
   [ "$rc" = 124 ] || [ "$rc" = 137 ]
}
HUNG=""
mark() { hung "$2" e4m3 "$3" && HUNG="$HUNG $1"; } # NAME, the preset verified, its scaling
mark hopper-fp8-1-wgmma hopper-fp8-1-wgmma tensor
mark hopper-fp8-1-wgmma-nopromote hopper-fp8-1-wgmma-nopromote tensor
mark hopper-fp8-2-blockscale hopper-fp8-2-blockscale block
mark hopper-fp8-3-persistent hopper-fp8-3-persistent block
mark hopper-fp8-4-bulkstore hopper-fp8-4-bulkstore block
mark hopper-fp8-5-cluster hopper-fp8-5-cluster block
mark hopper-fp8-5-cluster-tensor hopper-fp8-5-cluster tensor
export HUNG
echo "hung (left out of what follows):${HUNG:- none}" >>"$d/status.txt"
keep() { for p in "$@"; do case " $HUNG " in *" $p "*) ;; *) printf '%s ' "$p" ;; esac; done; }

# 3. timing: e4m3 every step (its preset's scaling), e5m2 at step 5
run_logged bench-e4m3 90 "$B" bench $BACKEND $(keep $STEPS hopper-fp8-1-wgmma-nopromote hopper-fp8-5-cluster-tensor) \
   --sizes "$SIZES" --rounds "$ROUNDS" --save "$d/bench-e4m3.json"
run_logged bench-e4m3-block-bf16 40 "$B" bench $BACKEND $(keep hopper-fp8-3-persistent hopper-fp8-5-cluster) \
   --vendor-output bfloat16 --sizes "$SIZES" --rounds "$ROUNDS" --save "$d/bench-e4m3-block-bf16.json"
run_logged bench-e5m2 40 "$B" bench $BACKEND $(keep hopper-fp8-5-cluster-tensor hopper-fp8-5-cluster) --precision e5m2 \
   --sizes "$SIZES" --rounds "$ROUNDS" --save "$d/bench-e5m2.json"

# 4.-5. the promotion ablation, torch._scaled_mm and 3xTF32: inputs made and errors measured
# in PyTorch (on the GPU), gemmtop run on .npy files (tools/gpu/gpu_fp8.py)
run_logged torch 150 python3 tools/gpu/gpu_fp8.py "$d" "$B" "$BACKEND" "$SIZES" "$KS" "$TF32_SIZES"

# 6. the sweep: variants of steps 3 and 5 as user presets, one bench
variant() { # NAME BASE KEY=VALUE... (none when BASE never ended)
   name=$1 base=$2
   shift 2
   case " $HUNG " in *" $base "*) return ;; esac
   { grep -v -E "^($(printf '%s\n' "$@" | sed 's/=.*//' | paste -sd'|')) " "presets/$base.preset"
     for kv in "$@"; do echo "${kv%%=*} = ${kv#*=}"; done; } >"$P/$name.preset"
   VARIANTS="$VARIANTS $name"
}
VARIANTS=""
variant sw-3-t-s5 hopper-fp8-3-persistent scaling=tensor STAGES=5
variant sw-3-t-s6 hopper-fp8-3-persistent scaling=tensor STAGES=6
variant sw-3-t-g16 hopper-fp8-3-persistent scaling=tensor GROUP=16
variant sw-3-t-np256 hopper-fp8-3-persistent scaling=tensor PROMOTE=0 BN=256 STAGES=4
variant sw-3-t-bn192 hopper-fp8-3-persistent scaling=tensor BN=192 STAGES=4
variant sw-5-t-c1 hopper-fp8-5-cluster-tensor CLUSTER=1
variant sw-5-t-s3 hopper-fp8-5-cluster-tensor STAGES=3
variant sw-5-t-g16 hopper-fp8-5-cluster-tensor GROUP=16
variant sw-5-b-g16 hopper-fp8-5-cluster GROUP=16
variant sw-5-b-c1 hopper-fp8-5-cluster CLUSTER=1
run_logged sweep 60 "$B" bench $BACKEND $(keep hopper-fp8-3-persistent hopper-fp8-5-cluster-tensor hopper-fp8-5-cluster) \
   $VARIANTS --sizes "$SWEEP_SIZE" --rounds 1 --save "$d/sweep.json"

# 7. the frontier
run_logged frontier "$FRONTIER_TIMEOUT" "$B" bench $BACKEND --frontier --sizes "$FRONTIER_SIZE" --save "$d/frontier.svg" --format json

echo "total $(($(date +%s) - t_start))s" >>"$d/status.txt"
python3 tools/gpu/gpu_fp8.py --summary "$d" >"$d/summary.txt" 2>&1
rm -rf "$d/cache" "$d/npy"
tar -czf "$out/fp8.tgz" -C "$work" fp8
cat "$d/summary.txt"
