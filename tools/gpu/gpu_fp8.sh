#!/bin/sh
# On the GPU machine (an H200 or H100; tools/gpu/gpu_setup.sh first, build/ carried): issue
# 43's FP8 ladder, second round, in one call of about three minutes (BUDGET, 190 s; run it
# as fp8:200:tools/gpu/gpu_fp8.sh in tools/gpu/gpu_round.sh). Builds nothing. Writes every
# log and result into $OUT/fp8.tgz (folder fp8/ inside; the work folder is $WORK, default
# /tmp/gemmtop-fp8), packed again after each part so that a call cut short still brings
# back what ran, and prints a short table last (tools/gpu/gpu_fp8.py --summary).
#   1. correctness: every step in e4m3 and e5m2, per-tensor and block scales, at an odd size
#      (1000x520x1030: with step 6's 128 x 192 tile, 24 tiles shared out in k-blocks over
#      every multiprocessor) with alpha 0.75 beta 0.5, and with beta 0 (steps 4 to 6's bulk
#      copies), a run each with a 30 s limit, four at a time; the new promotion intervals
#      (PROMOTE=2, 4 of steps 3 and 5, per-tensor) and step 3's OVERLAP=1 (both scalings) too. Verification allows for the FP8
#      tensor core's accumulator (src/core/run/verify.h). Step 1 with block scales, and block
#      scales with PROMOTE other than 1, are refused by design and listed so. A step whose
#      run never ends or faults is left out of the rest (a fault spoils a process's context);
#   2. timing: the best per-tensor and block configurations (and the candidates OVERLAP=1,
#      PROMOTE=2) at 4096 and 8192 beside cuBLASLt's
#      FP8 GEMM (bench --rounds 3, every result verified), per-tensor and block in processes
#      of their own;
#   3. a sweep of the speed candidates at 8192 (--rounds 1): the promotion interval at step
#      5, no promotion (BN 128 and 256, the ablation), stages, bands, clusters;
#   4. the promotion ablation: step 3 promoted every 1, 2, 4 k-blocks and never, at
#      4096 x 4096 x K, K = 4096 and 16384, |C - C_exact| / (|A||B|) against the exact
#      product of the FP8 inputs (tools/gpu/gpu_fp8.py, PARTS=ablation: PyTorch makes the
#      inputs and the float64 product; torch._scaled_mm's figures were taken in round 1);
#   5. e5m2 timing and the frontier (bench --frontier) at 4096, if time remains.
# What would start after the budget is skipped and listed so; nothing stops at the first
# failure: each command's exit status and log are kept, one past its time limit is killed
# and said so.
# A stand-in run on a machine without the GPU (paths and parsing only):
#   OUT=/tmp/fp8out BACKEND="--backend opencl --device pocl" SIZES=64 ODD=72x40x136 KS=256 \
#     FRONTIER_SIZE=32 SWEEP_SIZE=64 NO_SETUP=1 BUDGET=900 FRONTIER_TIMEOUT=600 \
#     sh tools/gpu/gpu_fp8.sh
# shellcheck disable=SC2086,SC2046,SC1091 # BACKEND and the preset lists are lists of words
[ -f tools/gpu/gpu_setup.sh ] && [ -z "${NO_SETUP:-}" ] && . tools/gpu/gpu_setup.sh
B=${GEMMTOP_BIN:-$PWD/build/gemmtop}
BACKEND=${BACKEND:---backend cuda}
SIZES=${SIZES:-4096,8192}
ODD=${ODD:-1000x520x1030}
export ODD
KS=${KS:-4096 16384}
FRONTIER_SIZE=${FRONTIER_SIZE:-4096}
SWEEP_SIZE=${SWEEP_SIZE:-8192}
ROUNDS=${ROUNDS:-3}
# The whole call's budget in seconds: a step that would start after it is skipped and said so
# (the order below puts what matters most first).
BUDGET=${BUDGET:-190}
FRONTIER_TIMEOUT=${FRONTIER_TIMEOUT:-60}
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
STEPS="hopper-fp8-1-wgmma hopper-fp8-2-blockscale hopper-fp8-3-persistent hopper-fp8-4-bulkstore hopper-fp8-5-cluster hopper-fp8-6-hybrid"

# fp8.tgz again: what has run so far comes back even if the call is cut short.
snapshot() { tar -czf "$out/fp8.tgz.part" --exclude=cache --exclude=npy -C "$work" fp8 && mv "$out/fp8.tgz.part" "$out/fp8.tgz"; }

# run_logged NAME SECONDS CMD...: CMD's output into NAME.txt, its status into status.txt;
# at most SECONDS, and never past the budget's end. The limit interrupts (SIGINT): bench then
# stops between launches and saves what it measured (rc 130).
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
   timeout -s INT -k 5 "$secs" "$@" >"$d/$name.txt" 2>&1
   rc=$?
   [ $rc -eq 124 ] || [ $rc -eq 130 ] || [ $rc -eq 137 ] && echo "stopped at its limit of $secs s" >>"$d/$name.txt"
   echo "$name rc=$rc $(($(date +%s) - t0))s" >>"$d/status.txt"
   snapshot
}

{
   date -u
   nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1
   "$B" --version 2>&1
   "$B" list kernels 2>&1 | sed -n '/^ladder hopper-fp8/,/^$/p'
} >"$d/device.txt"

# The candidates as user presets: NAME BASE KEY=VALUE...
variant() {
   name=$1 base=$2
   shift 2
   { grep -v -E "^($(printf '%s\n' "$@" | sed 's/=.*//' | paste -sd'|')) " "presets/$base.preset"
     for kv in "$@"; do echo "${kv%%=*} = ${kv#*=}"; done; } >"$P/$name.preset"
}
variant sw-3-t hopper-fp8-3-persistent scaling=tensor
variant sw-3-t-p2 hopper-fp8-3-persistent scaling=tensor PROMOTE=2
variant sw-3-t-p4 hopper-fp8-3-persistent scaling=tensor PROMOTE=4
variant sw-3-t-ov hopper-fp8-3-persistent scaling=tensor OVERLAP=1
variant sw-3-b-ov hopper-fp8-3-persistent OVERLAP=1
variant sw-3-t-p0 hopper-fp8-3-persistent scaling=tensor PROMOTE=0
variant sw-3-t-np256 hopper-fp8-3-persistent scaling=tensor PROMOTE=0 BN=256
variant sw-3-t-s5 hopper-fp8-3-persistent scaling=tensor STAGES=5
variant sw-5-t-p2 hopper-fp8-5-cluster-tensor PROMOTE=2
variant sw-5-t-p4 hopper-fp8-5-cluster-tensor PROMOTE=4
variant sw-5-t-c1 hopper-fp8-5-cluster-tensor CLUSTER=1
variant sw-5-t-g16 hopper-fp8-5-cluster-tensor GROUP=16
variant sw-5-b-c1 hopper-fp8-5-cluster CLUSTER=1
variant sw-3-b-s5 hopper-fp8-3-persistent STAGES=5

# 1. correctness at an odd size: each step, type and scaling in a run of its own, four at a
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
      for p in hopper-fp8-4-bulkstore hopper-fp8-5-cluster hopper-fp8-6-hybrid; do
         verify_one $p $prec $sc 0 &
         n=$((n + 1))
         [ $((n % 4)) -eq 0 ] && wait
      done
   done
   for p in sw-3-t-p2 sw-3-t-p4 sw-5-t-p2 sw-5-t-p4 sw-3-t-ov sw-3-b-ov; do
      [ "$(date +%s)" -ge $((DEADLINE - 35)) ] && break 2
      sc=tensor
      [ $p = sw-3-b-ov ] && sc=block
      verify_one $p $prec $sc 0.5 &
      n=$((n + 1))
      [ $((n % 4)) -eq 0 ] && wait
   done
done
wait
echo "verify: $n runs $(($(date +%s) - t0))s" >>"$d/status.txt"
snapshot
# A configuration whose run never ended (timeout's 124, or 137 when killed) or faulted (a
# device error spoils the process's context, and with it a bench's other rows) is left out.
bad() { # PRESET PRECISION SCALING
   rc=$(cat "$d/verify/$1-$2-$3-b0.5.rc" 2>/dev/null)
   [ "$rc" = 124 ] || [ "$rc" = 137 ] || grep -q '"status":"device error"' "$d/verify/$1-$2-$3-b0.5.json" 2>/dev/null
}
HUNG=""
mark() { bad "$2" e4m3 "$3" && HUNG="$HUNG $1"; } # NAME, the preset verified, its scaling
mark hopper-fp8-1-wgmma hopper-fp8-1-wgmma tensor
mark hopper-fp8-1-wgmma-nopromote hopper-fp8-1-wgmma-nopromote tensor
mark hopper-fp8-2-blockscale hopper-fp8-2-blockscale block
for v in hopper-fp8-3-persistent sw-3-b-s5; do mark $v hopper-fp8-3-persistent block; done
for v in sw-3-t sw-3-t-p0 sw-3-t-np256 sw-3-t-s5; do mark $v hopper-fp8-3-persistent tensor; done
mark hopper-fp8-4-bulkstore hopper-fp8-4-bulkstore block
for v in hopper-fp8-5-cluster sw-5-b-c1; do mark $v hopper-fp8-5-cluster block; done
for v in hopper-fp8-5-cluster-tensor hopper-fp8-tuned-176-tensor sw-5-t-c1 sw-5-t-g16; do mark $v hopper-fp8-5-cluster tensor; done
mark hopper-fp8-6-hybrid-tensor hopper-fp8-6-hybrid tensor
mark hopper-fp8-6-hybrid hopper-fp8-6-hybrid block
for v in sw-3-t-p2 sw-3-t-p4 sw-5-t-p2 sw-5-t-p4 sw-3-t-ov; do mark $v $v tensor; done
mark sw-3-b-ov sw-3-b-ov block
export HUNG
echo "left out of what follows (never ended or faulted at the odd size):${HUNG:- none}" >>"$d/status.txt"
keep() { for p in "$@"; do case " $HUNG " in *" $p "*) ;; *) printf '%s ' "$p" ;; esac; done; }

# 2. timing beside cuBLASLt, every result verified: per-tensor, then block scales
run_logged bench-e4m3-tensor 45 "$B" bench $BACKEND $(keep sw-3-t sw-3-t-ov sw-3-t-p2 hopper-fp8-5-cluster-tensor hopper-fp8-6-hybrid-tensor hopper-fp8-tuned-176-tensor) \
   --sizes "$SIZES" --rounds "$ROUNDS" --save "$d/bench-e4m3-tensor.json"
run_logged bench-e4m3-block 30 "$B" bench $BACKEND $(keep hopper-fp8-3-persistent sw-3-b-ov hopper-fp8-5-cluster hopper-fp8-6-hybrid) \
   --sizes "$SIZES" --rounds "$ROUNDS" --save "$d/bench-e4m3-block.json"

# 3. the sweep of the speed candidates at 8192
run_logged sweep 30 "$B" bench $BACKEND $(keep sw-3-t-p4 sw-5-t-p2 sw-5-t-p4 sw-3-t-p0 sw-3-t-np256 hopper-fp8-1-wgmma-nopromote \
   sw-3-t-s5 sw-5-t-c1 sw-5-t-g16 sw-5-b-c1 sw-3-b-s5) --sizes "$SWEEP_SIZE" --rounds 1 --save "$d/sweep.json"

# 4. the promotion ablation's error, from gemmtop's own runs on inputs PyTorch makes
export PARTS=ablation
run_logged torch 60 python3 -u tools/gpu/gpu_fp8.py "$d" "$B" "$BACKEND" "$SIZES" "$KS" ""

# 5. if time remains: e5m2, then the frontier
run_logged bench-e5m2 25 "$B" bench $BACKEND $(keep hopper-fp8-5-cluster-tensor hopper-fp8-5-cluster) --precision e5m2 \
   --sizes "$SIZES" --rounds "$ROUNDS" --save "$d/bench-e5m2.json"
run_logged frontier "$FRONTIER_TIMEOUT" "$B" bench $BACKEND --frontier --sizes "$FRONTIER_SIZE" --save "$d/frontier.svg" --format json

echo "total $(($(date +%s) - t_start))s" >>"$d/status.txt"
PYTHONUNBUFFERED=1 python3 tools/gpu/gpu_fp8.py --summary "$d" >"$d/summary.txt" 2>&1
rm -rf "$d/cache" "$d/npy"
snapshot
cat "$d/summary.txt"
