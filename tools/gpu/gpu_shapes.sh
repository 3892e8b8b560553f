#!/bin/sh
# On the GPU machine: issue 49's closing figures in one call (docs/shapes.md). Everything it
# measures goes into $OUT/shapes.tgz (or $1/shapes.tgz); a short table is printed last. Run
# it from the project's root with the build carried (build/gemmtop), under its own limit:
#
#    sh tools/gpu/gpu_round.sh shapes:160:tools/gpu/gpu_shapes.sh
#
#  1. the copy bandwidth the decode kernels are put against: list devices --measure (25 s at
#     most); when that gives none, a device-to-device copy of 256 MiB timed with torch in
#     this script, labelled "torch copy" wherever it is used;
#  2. the decode step on mma.sync (tensor09_decode, which had not run on a GPU when this was
#     written) verified at odd sizes, each run abandoned after 20 s;
#  3. decode at the memory roofline: M = 1, 2, 4, 8, 16 by 8192 x 8192 in bfloat16,
#     tensor09_decode (a few of its parameters), fast05_decode and hopper9_swapab, each
#     row's bandwidth (the bytes of A, B and C over its time) as % of the copy bandwidth
#     beside % of cuBLAS in the same process;
#  4. the bfloat16 suites against cuBLAS (bench --shapes --rounds 3, layout NT) with the
#     steps that won a shape on 2026-11-29 (hopper-5, hopper-6-splitk, hopper-6-splitk-bm64,
#     hopper-9-swapab, hopper-7's persistent grid of whole tiles) and tensor09_decode for
#     M <= 16: SUITES, default llama3-8b, then skinny, then llama3-70b ("" for none), cut
#     by the budget. The table gives each suite's weighted geometric mean of
#     the best configuration per shape (what a dispatch that picks per shape would reach),
#     with the number of shapes measured: fewer than the suite's means the budget cut it.
#  5. the FP32 suites against cuBLAS SGEMM (the FP32 ladder's warp-tile, split-K and stream-K
#     steps, fast05_decode for M <= 16) and the e4m3 suites against cuBLASLt FP8 (Hopper FP8
#     step 5, shipped and tuned, and step 6's stream-K, per-tensor scales; swap-AB and the persistent step's tiles
#     on the small rows): TYPE_SUITES, default llama3-8b and skinny; TYPES, default
#     "float e4m3"; "half" adds the bfloat16 candidates in half on those suites). FP32 also
#     runs in 3xTF32 (F32_TC, "" for none; FP32's error on the tensor cores); its table line
#     "float" is the best of both, "float-cc" the CUDA cores'.
#  6. decode again (DECODE_AGAIN times, default 0, the shipped decode presets only, each M by
#     the one a dispatch takes), each bench's figures apart: a 134 MB decode moves by a few
#     points from run to run;
#  7. EXPORTS=1: a kernel of each class exported (export-kernel), built with nvcc and run by
#     its launcher beside gemmtop's own run (tools/gpu/gpu_exports.sh): launcher / gemmtop.
# Every stage has a time limit (SIGINT, then a kill: bench saves the rounds it measured), and
# the stages run in that order until BUDGET seconds (default 150) are spent; the table says
# what timed out or was skipped. Nothing stops at the first failure.
#
# A stand-in run without a GPU (paths and parsing; the Hopper steps are refused there, the
# tensor steps emulated), with a suite file of a few small shapes of each class:
#    printf 'title = tiny\n5x64x256 a 1\n40x64x256 b 1\n300x64x96 c 1\n2000x2048x64 d 1\n' >/tmp/tiny.shapes
#    STANDIN=1 BACKEND=opencl DEVICE="--device pocl" SUITES=/tmp/tiny.shapes DECODE_SIZES=2x64x256 \
#       ROUNDS=1 VERIFY_SIZE=1 MANY_TILES=8 TIME_SCALE=10 BUDGET=3000 sh tools/gpu/gpu_shapes.sh /tmp/out
[ "${STANDIN:-0}" = 1 ] || . tools/gpu/gpu_setup.sh
PYTHONUNBUFFERED=1
export PYTHONUNBUFFERED
B=${GEMMTOP:-build/gemmtop}
BACKEND=${BACKEND:-cuda}
DEVICE=${DEVICE:-}
ROUNDS=${ROUNDS:-3}
BUDGET=${BUDGET:-150}
SCALE=${TIME_SCALE:-1} # the stand-in's PoCL compiles the emulated tensor cores slowly: 10
SUITES=${SUITES-"llama3-8b skinny llama3-70b"}
DECODE_SIZES=${DECODE_SIZES:-1x8192x8192,2x8192x8192,4x8192x8192,8x8192x8192,16x8192x8192}
out=${1:-$OUT}
if [ -z "$out" ]; then
   echo "gpu_shapes.sh: no results folder: give one, or set OUT" >&2
   exit 2
fi
mkdir -p "$out"
start=$(date +%s)
# The results are written as they come into a folder under $out, packed into the tarball
# at the end (also on a signal) and then removed: if the whole script is killed, the folder
# itself comes back.
work="$out/partial"
rm -rf "$work"
res="$work/shapes"
mkdir -p "$res"
pack() { tar -czf "$out/shapes.tgz" -C "$work" shapes 2>/dev/null; }
trap 'pack && rm -rf "$work"' EXIT
trap 'echo "stopped by a signal after $(($(date +%s) - start)) s" >>"$res/status.txt"; exit 143' TERM INT
# Presets of this run (variants of the shipped ones) in a configuration folder of its own.
XDG_CONFIG_HOME="$work/config"
export XDG_CONFIG_HOME
P="$XDG_CONFIG_HOME/gemmtop/presets"
mkdir -p "$P"
: >"$res/status.txt"

# left: seconds of the budget still unspent.
left() { echo $((BUDGET - ($(date +%s) - start))); }

# limited NAME SECONDS CMD...: CMD with at most SECONDS (less when the budget is nearly
# spent; skipped when it is), SIGINT first so that bench keeps what it measured; its
# outcome is a line of status.txt.
limited() {
   name=$1 want=$(($2 * SCALE))
   shift 2
   have=$(($(left) - 8))
   if [ "$have" -lt 5 ]; then
      echo "$name skipped: the ${BUDGET} s budget was spent" >>"$res/status.txt"
      return
   fi
   [ "$want" -gt "$have" ] && want=$have
   t0=$(date +%s)
   timeout -s INT -k 10 "$want" "$@"
   rc=$?
   t=$(($(date +%s) - t0))
   case $rc in
   124 | 137) echo "$name timed out after $want s" >>"$res/status.txt" ;;
   *) echo "$name exit $rc in $t s" >>"$res/status.txt" ;;
   esac
}

{
   date -u
   nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>&1
   $B --version 2>&1
} >"$res/date.txt"

# 1. The copy bandwidth: gemmtop's own measurement, else torch's device-to-device copy.
limited peaks 25 $B list devices --backend "$BACKEND" --measure >"$res/peaks.txt" 2>&1
timeout -k 5 15 $B list devices --backend "$BACKEND" --format json >"$res/peaks.json" 2>/dev/null
if ! grep -q '"copy_peak_gbps": *[1-9]' "$res/peaks.json" 2>/dev/null; then
   limited torch-copy 25 python3 - "$res/torch_copy.txt" <<'PY' >"$res/torch_copy.log" 2>&1
import statistics, sys
import torch
n = 256 << 20  # bytes, far beyond the L2
src = torch.randint(0, 255, (n,), dtype=torch.uint8, device="cuda")
dst = torch.empty_like(src)
for _ in range(3):
    dst.copy_(src)
times = []
for _ in range(9):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    dst.copy_(src)
    b.record()
    b.synchronize()
    times.append(a.elapsed_time(b))
ms = statistics.median(times)
gbps = 2 * n / (ms * 1e6)  # read and written
open(sys.argv[1], "w").write("%.6g\n" % gbps)
print("torch copy: %d MiB in %.4f ms (median of 9): %.0f GB/s" % (n >> 20, ms, gbps))
PY
fi

# Variants: the decode kernels for 1 to 16 tokens (fast05's MR, a work-group's rows of A,
# at least M), and tensor09's parameters around its presets.
for mr in 1 2 4 8 16; do
   { grep -v -E '^(#|MR) ' presets/fast-05-decode-bfloat16.preset; echo "MR = $mr"; } >"$P/fast-05-decode-bf16-m$mr.preset"
done
t9() { # NAME BASE-PRESET KEY=VALUE...: a tensor09 variant
   name=$1 base=$2
   shift 2
   keys=$(for kv in "$@"; do printf '%s|' "${kv%%=*}"; done)
   { grep -v -E "^(#|${keys%|}) " "presets/$base.preset"; for kv in "$@"; do echo "${kv%%=*} = ${kv#*=}"; done; } \
      >"$P/$name.preset"
}
t9 t9-nc0 tensor-9-decode-bfloat16 NC=0
t9 t9-ku4 tensor-9-decode-bfloat16 KU=4
t9 t9-w4 tensor-9-decode-bfloat16 WARPS=4
t9 t9-pl4 tensor-9-decode-bfloat16 PL=4 KU=1 WARPS=4
t9 t9-m16-pl1 tensor-9-decode-bfloat16-m16 WARPS=8 KU=1 PL=1
t9 t9-m16-ku1 tensor-9-decode-bfloat16-m16 KU=1
t9 t9-m16-nc0 tensor-9-decode-bfloat16-m16 NC=0

# 2. The new step at odd sizes, verified; each launch abandoned after 20 s, each run after
# 30, no run started after VERIFY_S seconds.
VERIFY_S=$((${VERIFY_S:-30} * SCALE))
VERIFY_SIZE=${VERIFY_SIZE:-0} # 1: the stand-in's smaller sizes
verify_end=$(($(date +%s) + VERIFY_S))
check() { # WHAT ARGS...
   what=$1
   shift
   if [ "$(date +%s)" -ge "$verify_end" ] || [ "$(left)" -lt 60 ]; then
      printf '{"what": "%s", "rc": -1, "status": "skipped: no time left", "verified": false, "message": ""}\n' "$what" \
         >>"$res/verify.jsonl"
      return
   fi
   timeout -k 5 $((30 * SCALE)) $B run --backend "$BACKEND" $DEVICE "$@" --reps 1 --warmup 0 --max-seconds 20 --format json \
      >"$work/check.json" 2>"$work/check.err"
   rc=$?
   python3 - "$what" "$rc" "$work/check.json" "$work/check.err" >>"$res/verify.jsonl" <<'PY'
import json, sys
what, rc, jf, ef = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
try:
    r = json.loads(open(jf).readline())
except Exception:
    r = {}
err = open(ef).read().strip().splitlines()
status = r.get("status") or ("timed out" if rc in (124, 137) else "did not run")
print(json.dumps({"what": what, "rc": rc, "status": status, "verified": bool(r.get("verified")),
                  "emulated": bool(r.get("emulated")), "max_rel_err": r.get("max_rel_err"),
                  "message": (r.get("message") or (err[-1] if err else ""))[:300]}))
PY
   cat "$work/check.err" >>"$res/verify.err"
}
if [ "$VERIFY_SIZE" = 1 ]; then
   FEW="-m 13 -n 70 -k 333" ONE="-m 1 -n 45 -k 200"
else
   FEW="-m 13 -n 520 -k 1030" ONE="-m 1 -n 4100 -k 4000"
fi
: >"$res/verify.jsonl"
check "tensor-9-decode-bfloat16 few" --preset tensor-9-decode-bfloat16 $FEW --beta 0.5
check "tensor-9-decode-bfloat16 one token" --preset tensor-9-decode-bfloat16 $ONE --alpha -1.5
check "tensor-9-decode-half-m16 few" --preset tensor-9-decode-half-m16 $FEW --beta 0.5
check "tensor-9-decode NC=0 SPLIT=3 few" --preset tensor-9-decode-bfloat16 --set NC=0 --set SPLIT=3 $FEW --beta 0.5
check "tensor-9-decode PL=4 KU=1 WARPS=16 few" --preset tensor-9-decode-bfloat16 --set PL=4 --set KU=1 --set WARPS=16 $FEW
check "tensor-9-decode tf32 RF=2 PL=1 few" --preset tensor-9-decode-bfloat16 --precision tf32 --set RF=2 --set PL=1 $FEW

# bench_in LAYOUT NAME SECONDS ARGS...: one bench, its table and its JSON rows in res/.
bench_in() {
   layout=$1 name=$2 secs=$3
   shift 3
   limited "$name" "$secs" $B bench --backend "$BACKEND" $DEVICE "$@" --layout "$layout" --rounds "$ROUNDS" \
      --save "$res/bench-$name.json" >"$res/bench-$name.txt" 2>&1
}
# bench_one NAME SECONDS ARGS...: the same in layout NT.
bench_one() { bench_in NT "$@"; }

# 3. Decode at the memory roofline, bfloat16.
bench_one decode-bf16 40 tensor-9-decode-bfloat16 tensor-9-decode-bfloat16-wide tensor-9-decode-bfloat16-m16-wide \
   t9-nc0 t9-ku4 t9-w4 t9-pl4 tensor-9-decode-bfloat16-m16 t9-m16-pl1 \
   t9-m16-ku1 t9-m16-nc0 fast-05-decode-bf16-m1 fast-05-decode-bf16-m2 fast-05-decode-bf16-m4 fast-05-decode-bf16-m8 \
   fast-05-decode-bf16-m16 hopper-9-swapab-bf16 hopper-9-swapab-decode-t8-bf16 hopper-9-swapab-decode-t16-bf16 \
   hopper-9-swapab-decode-t16-b2-bf16 --sizes "$DECODE_SIZES"

# 4. The bfloat16 suites, each split by what its shapes are: at most 16 tokens, at most 64,
# few tiles (fewer than two waves of 128 x 256 tiles on 132 multiprocessors), many tiles.
for suite in $SUITES ${TYPE_SUITES-llama3-8b skinny}; do
   base=$(basename "$suite" .shapes)
   $B list shapes "$suite" --format json >"$res/suite-$base.json" 2>"$res/suite-$base.err"
   python3 - "$res/suite-$base.json" "$work" "$base" "${MANY_TILES:-264}" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
work, base, many = sys.argv[2], sys.argv[3], int(sys.argv[4])
classes = {"m16": [], "m64": [], "few": [], "many": []}
for r in rows:
    tiles = -(-r["m"] // 128) * -(-r["n"] // 256)
    c = "m16" if r["m"] <= 16 else "m64" if r["m"] <= 64 else "few" if tiles < many else "many"
    classes[c].append(r)
for c, rs in classes.items():
    if rs:
        with open("%s/%s--%s.shapes" % (work, base, c), "w") as f:
            f.write("title = %s, the shapes of class %s\n" % (base, c))
            for r in rs:
                f.write("%dx%dx%d %s %g\n" % (r["m"], r["n"], r["k"], r["label"], r["weight"]))
PY
done
# suite_bench SUITE CLASS SECONDS CONFIGS...: the configurations on one class of a suite's
# shapes (skipped when the suite has none of that class).
# PREC (default bf16, the presets' own type) names another type for the same presets.
suite_bench() {
   base=$(basename "$1" .shapes) class=$2 secs=$3
   shift 3
   [ -f "$work/$base--$class.shapes" ] || return 0
   case ${PREC:-bf16} in
   bf16) bench_one "$base-$class-bf16" "$secs" "$@" --shapes "$work/$base--$class.shapes" ;;
   *) bench_one "$base-$class-$PREC" "$secs" "$@" --precision "$PREC" --shapes "$work/$base--$class.shapes" ;;
   esac
}
# The persistent grid of whole tiles (hopper-7 with STREAMK=0): what gemmtop tune found on
# the H200 for the weakest shapes of 128 and 512 tokens (2026-11-29, 21:20).
H7="hopper-7-persistent-t64-bf16 hopper-7-persistent-bm64-bf16 hopper-7-persistent-bm64n192-bf16 hopper-7-persistent-192-bf16 hopper-7-persistent-224-bf16 hopper-7-persistent-160-bf16 hopper-7-persistent-144-bf16 hopper-7-persistent-144-epi-bf16 hopper-7-persistent-192-epi-bf16 hopper-7-persistent-160-epi-bf16 hopper-7-persistent-176-bf16"
# Swap-AB tuned for 16 and 32 tokens (gemmtop tune on the H200, 2026-11-29, 21:35).
H9="hopper-9-swapab-t32-bf16 hopper-9-swapab-t32-wide-bf16 hopper-9-swapab-t32-split4-bf16 hopper-9-swapab-t32-longk-bf16"
BF_M16="tensor-9-decode-bfloat16-wide tensor-9-decode-bfloat16-m16-wide tensor-9-decode-bfloat16-m16 t9-m16-pl1 hopper-9-swapab-bf16 hopper-9-swapab-t16-split4-bf16 hopper-6-splitk-bm64-bf16 hopper-6-splitk-bf16 hopper-9-swapab-decode-t16-bf16 hopper-9-swapab-decode-t16-b2-bf16"
# Swap-AB with 48 tokens a block (wgmma N = 48), split along K: found on a 48-token screen of
# small models' down projections that are in no suite (2026-12-01, 08:17).
H9_48="hopper-9-swapab-t48-split2-bf16 hopper-9-swapab-t48-split3-bf16 hopper-9-swapab-t48-split4-bf16 hopper-9-swapab-t48-split4-bk64-bf16 hopper-9-swapab-t48-n128-split4-bf16"
# The same with no split for wide weights (a gate-up's width gives hundreds of blocks): found
# on a 48-token screen of gate-up weights in no suite (2026-12-02, 06:05).
H9_48W="hopper-9-swapab-t48-wide-n64-bf16 hopper-9-swapab-t48-wide-n128-bf16 hopper-9-swapab-t48-wide-n256-bf16"
BF_M64="hopper-9-swapab-bf16 $H9 hopper-9-swapab-decode-t32-bf16 hopper-9-swapab-decode-t32-split3-bf16 hopper-6-splitk-bm64-bf16 hopper-6-splitk-bf16 hopper-5-order-bf16 hopper-6-splitk-t128-bf16 hopper-7-persistent-bm64-bf16 hopper-7-persistent-bm64n192-bf16 hopper-5-t64n96-bf16 hopper-5-t64n64-s12-bf16 hopper-6-splitk-bm64-s8-bf16 hopper-6-splitk-t64n64-s4-bf16 $H9_48 $H9_48W"
# Few tiles also take 64 x 128 tiles (step 5, and step 7's persistent grid), found on a
# 256-token screen of the tuned suites' weights (2026-12-01, 04:31).
# 64 x BN tiles for BN near the weight's width over 32 (128 tiles at 256 tokens, one wave of
# 132): found on a 256-token screen of weights 3840 to 9216 wide that are in no suite
# (2026-12-01, 08:19).
BF_FEW64="hopper-5-t64n144-bf16 hopper-5-t64n160-bf16 hopper-5-t64n192-bf16 hopper-5-t64n224-bf16 hopper-7-persistent-bm64n176-bf16"
# 256 x 144 tiles for weights about 128 x 144 wide at 256 tokens (one wave, each weight tile
# read once): found on a 256-token screen of weights in no suite (2026-12-02, 05:50-06:00).
BF_FEW256="hopper-7-persistent-bm256n144-bf16"
# 112-column tiles (128 x 112, 64 x 112): 128 blocks where a weight is 7168 or 3584 wide, found
# on a 256-token screen of weights 3584 to 14336 wide in no suite (2026-12-02, 09:40).
BF_FEW112="hopper-5-t128n112-bf16 hopper-7-persistent-112-bf16 hopper-5-t64n112-bf16"
BF_FEW="hopper-5-order-bf16 hopper-5-t128n128-bf16 hopper-6-splitk-bf16 hopper-6-splitk-bm64-bf16 hopper-6-splitk-t128-bf16 $H7 hopper-7-persistent-176-s5-bf16 hopper-7-persistent-160-s5-bf16 hopper-5-t64n96-bf16 hopper-5-t64n64-bf16 hopper-5-t64n64-s12-bf16 hopper-5-t64n128-bf16 hopper-7-persistent-bm64n128-bf16 hopper-6-splitk-bm64-s8-bf16 hopper-5-order-144-bf16 $BF_FEW64 $BF_FEW256 $BF_FEW112"
# Many tiles: the split, 64-row and 160-column candidates never won a row of them (2026-11-30); the
# persistent grid of 128 x 256 tiles did, alone and in clusters of two (2026-11-30, 23:47-23:53).
# 128 x 176 tiles (cuBLAS's width at 512 tokens) took gate-up-512 once the wgmma descriptors
# were uniform, with five stages as cuBLAS's; 160 and 192 columns with five stages took the
# 512-token QKV rows (2026-12-01, 04:15-04:20).
BF_MANY="hopper-5-order-bf16 hopper-7-persistent-192-bf16 hopper-7-persistent-256-bf16 hopper-7-persistent-256-c2-bf16 hopper-7-persistent-224-bf16 hopper-7-persistent-192-epi-bf16 hopper-7-persistent-176-s5-bf16 hopper-7-persistent-160-s5-bf16 hopper-7-persistent-192-s5-bf16"
# In order of importance: the budget may end before the last.
for suite in $SUITES; do
   suite_bench "$suite" m16 20 $BF_M16
   suite_bench "$suite" m64 70 $BF_M64
   suite_bench "$suite" few 80 $BF_FEW
   suite_bench "$suite" many 55 $BF_MANY
done

# 5. The FP32 and e4m3 suites, each whole (TYPE_SUITES, default llama3-8b and skinny; " " for
# none): FP32 against cuBLAS SGEMM in layout NN (the FP32 ladder's kernels take A and B as
# stored; fast05_decode takes B transposed, so the few-token rows run in NT beside cuBLAS in
# NT), e4m3 with per-tensor scales against cuBLASLt FP8 in NT (the layout FP8 needs), with
# swap-AB in e4m3 (hopper9_swapab, tuned on the H200 on 2026-11-29) on the rows of at most 64
# tokens. TYPES picks the types (default "float e4m3").
F32="fast-02-warptile-cuda shapes-1-warptile shapes-2-splitk shapes-4-streamk"
F32_TC=${F32_TC-"hopper-5-order hopper-5-order-bn64"}
E4M3="hopper-fp8-tuned-tensor hopper-fp8-tuned-176-tensor hopper-fp8-5-cluster-tensor hopper-fp8-6-hybrid-tensor"
E4M3_FEW="hopper-9-swapab-t8-e4m3 hopper-9-swapab-t16-e4m3 hopper-9-swapab-decode-t16-e4m3 hopper-9-swapab-decode-t32-e4m3 hopper-9-swapab-t16-split4-e4m3 hopper-9-swapab-t32-e4m3 hopper-9-swapab-t32-split4-e4m3 hopper-9-swapab-t64-e4m3"
# The FP8 ladder's persistent step with the tiles tune found for 128 tokens (H200, 2026-11-29 22:05), and 64 x 96 (2026-11-30, 16:54).
E4M3_MID="hopper-fp8-3-persistent-t64-tensor hopper-fp8-3-persistent-128-tensor hopper-fp8-3-persistent-t64n96-tensor"
for suite in ${TYPE_SUITES-llama3-8b skinny}; do
   base=$(basename "$suite" .shapes)
   case " ${TYPES:-float e4m3} " in *" half "*)
      for class in m16 m64 few many; do
         case $class in m16) c=$BF_M16 ;; m64) c=$BF_M64 ;; few) c=$BF_FEW ;; many) c=$BF_MANY ;; esac
         # shellcheck disable=SC2086 # the candidates are words
         PREC=half suite_bench "$suite" $class 40 $c
      done ;;
   esac
   case " ${TYPES:-float e4m3} " in *" float "*)
      bench_in NN "$base-all-float" 80 $F32 --precision float --shapes "$suite"
      # FP32 accuracy on the tensor cores: 3xTF32 (Hopper step 5, error at most SGEMM's on the
      # H200, docs/lesson-hopper.md) in NT, beside cuBLAS SGEMM in NT; the table gives the
      # suite with it and without it (CUDA cores only).
      [ -n "$F32_TC" ] && bench_one "$base-all-3xtf32" 60 $F32_TC --precision float --shapes "$suite"
      [ -f "$work/$base--m16.shapes" ] &&
         bench_one "$base-m16-float" 10 fast-05-decode-float --precision float --shapes "$work/$base--m16.shapes" ;;
   esac
   case " ${TYPES:-float e4m3} " in *" e4m3 "*)
      bench_one "$base-all-e4m3" 35 $E4M3 --precision e4m3 --scaling tensor --shapes "$suite"
      for class in m16 m64; do
         [ -f "$work/$base--$class.shapes" ] &&
            bench_one "$base-$class-e4m3" 25 $E4M3_FEW --precision e4m3 --scaling tensor --shapes "$work/$base--$class.shapes"
      done
      [ -f "$work/$base--few.shapes" ] &&
         bench_one "$base-few-e4m3" 30 $E4M3_MID --precision e4m3 --scaling tensor --shapes "$work/$base--few.shapes" ;;
   esac
done

# 6. Decode again, the shipped presets (8 tokens and fewer in t8, more in t16) and cuBLAS.
i=1
while [ "$i" -le "${DECODE_AGAIN:-0}" ]; do
   bench_one "decode-bf16-again$i" 20 hopper-9-swapab-decode-t8-bf16 hopper-9-swapab-decode-t16-bf16 \
      --sizes "$DECODE_SIZES"
   i=$((i + 1))
done

# 7. Exports: a kernel of each class, exported, built by nvcc and run by its launcher beside
# gemmtop's run of the same configuration (sizes its tiles divide: an export runs alone).
if [ "${EXPORTS:-0}" = 1 ]; then
   cat >"$work/export-cases.txt" <<'EOF'
h5-bf16-4096|--preset hopper-5-order-bf16 --layout NT --size 4096
h5-half-4096|--preset hopper-5-order-bf16 --precision half --layout NT --size 4096
h7-bf16-qkv512|--preset hopper-7-persistent-192-s5-bf16 --layout NT --size 512x6144x4096
h6-bf16-splitk-down128|--preset hopper-6-splitk-bf16 --layout NT --size 128x4096x14336
h9-bf16-decode8|--preset hopper-9-swapab-decode-t8-bf16 --layout NT --size 8x8192x8192
t9-bf16-decode16|--preset tensor-9-decode-bfloat16-m16 --layout NT --size 16x8192x8192
f2-float-4096|--preset fast-02-warptile-cuda --precision float --layout NN --size 4096
EOF
   limited exports 150 env B="$B" OUT="$res/exports" CASES="$work/export-cases.txt" \
      sh tools/gpu/gpu_exports.sh >"$res/exports.txt" 2>&1
fi

# The tables, from the files alone: summary.txt in full, short.txt printed last (the call's
# output keeps only its last lines).
python3 - "$res" >"$res/summary.err" 2>&1 <<'PY'
import glob, json, math, os, sys
d = sys.argv[1]
full, short = open(d + "/summary.txt", "w"), open(d + "/short.txt", "w")
def both(s=""):
    print(s, file=full)
    print(s, file=short)
def lines(path):
    out = []
    try:
        for l in open(path):
            try:
                out.append(json.loads(l))
            except ValueError:
                pass
    except OSError:
        pass
    return out
def cut(cfg):
    return cfg.replace("-order", "").replace("bfloat16", "bf16").replace("tensor-9-decode", "t9")
def geomean(pairs):
    pairs = [(p, w) for p, w in pairs if p and p > 0]
    if not pairs:
        return 0, 0
    return math.exp(sum(w * math.log(p) for p, w in pairs) / sum(w for _, w in pairs)), len(pairs)
IN_SIZE = {"bfloat16": 2, "half": 2, "tf32": 4, "float": 4, "double": 8}
def gbps(r):  # bytes of A, B and C (beta 0: C written once) over the time, as gemmtop counts them
    if not r.get("time_ms"):
        return 0
    es = 8 if r["precision"] == "double" else 4
    return ((r["m"] * r["k"] + r["k"] * r["n"]) * IN_SIZE.get(r["precision"], 4) + r["m"] * r["n"] * es) / (r["time_ms"] * 1e6)

head = open(d + "/date.txt").read().strip().splitlines()
copy, source = None, None
for r in lines(d + "/peaks.json"):
    if r.get("copy_peak_gbps"):
        copy, source = r["copy_peak_gbps"], "gemmtop's copy"
        both("%s  %s: %s %.0f GB/s, read %s GB/s" % (head[0], r.get("name"), source, copy, r.get("read_peak_gbps")))
        break
else:
    try:
        copy, source = float(open(d + "/torch_copy.txt").read()), "torch copy"
        both("%s  %s %.0f GB/s (gemmtop measured none: see peaks.txt)" % (head[0], source, copy))
    except (OSError, ValueError):
        both("%s  no copy bandwidth measured (peaks.txt, torch_copy.log say why)" % head[0])

v = lines(d + "/verify.jsonl")
# A check the budget (or VERIFY_S=0) left out did not fail: said apart.
skipped = [r for r in v if r["status"].startswith("skipped")]
bad = [r for r in v if not r["verified"] and r not in skipped]
both("tensor09_decode at odd sizes: %d of %d verified%s%s" % (len(v) - len(bad) - len(skipped), len(v),
     ", %d skipped (no time given)" % len(skipped) if skipped else "", "; FAILED:" if bad else ""))
for r in v:
    print("  %-8s %-44s %s %s" % ("ok" if r["verified"] else "skipped" if r in skipped else "FAILED", r["what"],
                                  r["status"], r["message"][:110]), file=full)
if bad:
    print("  " + "; ".join("%s (%s)" % (r["what"], r["status"][:40]) for r in bad)[:600], file=short)

# A bench stopped at its time limit leaves its rows in FILE.json.tmp.*: rows, no means.
def decode_rows(f):
    return [r for r in lines(f) if "m" in r and r.get("status") == "ok" and r.get("precision") == "bfloat16"]
rows = [r for f in sorted(glob.glob(d + "/bench-decode-bf16.json*")) for r in decode_rows(f)]
def cp(g):  # a bandwidth as % of the copy's
    return "%.1f%%" % (100 * g / copy) if copy and g else "-"
def pv(r):  # % of cuBLAS
    return "%.0f%%" % r["pct_of_vendor"] if r.get("pct_of_vendor") else "-"
both("decode, bfloat16 (GB/s: the bytes of A, B and C over the time) as %% of %s / %% of cuBLAS in the same process;"
     " emulated rows are not ranked:" % (source or "the copy (none measured)"))
print("  %-16s %-30s %9s %8s %7s %7s %s" % ("size", "configuration", "GFLOPS", "GB/s", "copy", "cuBLAS", "verified"), file=full)
for size in sorted({(r["m"], r["n"], r["k"]) for r in rows}):
    rs = sorted([r for r in rows if (r["m"], r["n"], r["k"]) == size], key=lambda r: -(r.get("gflops") or 0))
    for r in rs:
        print("  %-16s %-30s %9.0f %8.0f %7s %7s %s%s" % ("%dx%dx%d" % size, cut(r["config"]), r.get("gflops") or 0,
              gbps(r), "emul." if r.get("emulated") else cp(gbps(r)), pv(r), r.get("verified"),
              " (emulated)" if r.get("emulated") else ""), file=full)
    real = [r for r in rs if not r.get("emulated")]
    # cuBLAS's bandwidth: the same bytes over its time, which is ours times its GFLOPS over ours
    vend = real[0].get("vendor_gflops") if real else 0
    vg = gbps(real[0]) * vend / real[0]["gflops"] if vend and real[0].get("gflops") else 0
    cells = []
    for name, prefix in (("t9", "tensor09"), ("fast05", "fast05"), ("hopper9", "hopper9")):
        c = [r for r in real if r["kernel"].startswith(prefix)]
        if c:
            cells.append("%s %s/%s (%s)" % (name, cp(gbps(c[0])), pv(c[0]), cut(c[0]["config"]).replace("t9-", "")))
    both("  %-12s %s; cuBLAS %s of copy" % ("%dx%dx%d" % size, ", ".join(cells) or "every row emulated", cp(vg)))
if not rows:
    both("  no decode row measured (bench-decode-bf16.txt says why)")
# Decode again: each bench apart (a best over benches would pick the lucky run), each M by the
# preset a dispatch takes for it: t8 up to 8 tokens, t16 above.
again = sorted(glob.glob(d + "/bench-decode-bf16-again*.json*"))
for n, f in enumerate(again):
    rs = [r for r in decode_rows(f) if not r.get("emulated")]
    cells = []
    for size in sorted({(r["m"], r["n"], r["k"]) for r in rs}):
        want = "hopper-9-swapab-decode-%s-bf16" % ("t8" if size[0] <= 8 else "t16")
        shipped = [r for r in rs if (r["m"], r["n"], r["k"]) == size and r["config"] == want]
        if not shipped:
            continue
        b = shipped[0]
        vend = b.get("vendor_gflops")
        vg = gbps(b) * vend / b["gflops"] if vend and b.get("gflops") else 0
        cells.append("M=%d %s (cuBLAS %s)" % (size[0], cp(gbps(b)), cp(vg)))
    both("  decode again (%d of %d): %s" % (n + 1, len(again), ", ".join(cells) or "no row measured"))

# Suites: the rows of every class of a suite, merged by shape.
suites = {}
for f in glob.glob(d + "/bench-*.json*"):
    if not os.path.basename(f).startswith("bench-decode-"):
        for r in lines(f):
            if "shape" in r and "m" in r:
                suites.setdefault((r["suite"].split("--")[0], r["precision"]), []).append(r)
                # FP32 on the CUDA cores alone: the same suite without the 3xTF32 rows.
                if r["precision"] == "float" and "-3xtf32" not in os.path.basename(f):
                    suites.setdefault((r["suite"].split("--")[0], "float-cc"), []).append(r)
both("suites against cuBLAS (weighted geometric mean of %; best per shape: what a per-shape dispatch reaches):")
for (suite, prec), rows in sorted(suites.items()):
    shapes = {}
    for r in rows:
        shapes.setdefault(r["shape"], []).append(r)
    total = len(lines(d + "/suite-%s.json" % suite)) or len(shapes)
    best, low, wins = [], None, {}
    for label, rs in shapes.items():
        b = max(rs, key=lambda r: r.get("pct_of_vendor") or 0)
        if b.get("pct_of_vendor"):
            best.append((b["pct_of_vendor"], b["weight"]))
            wins[cut(b["config"])] = wins.get(cut(b["config"]), 0) + 1
            if low is None or b["pct_of_vendor"] < low[0]:
                low = (b["pct_of_vendor"], label, cut(b["config"]))
        print("      %-14s %-30s %s" % (label, cut(b["config"]) if b.get("pct_of_vendor") else "(none compared)", pv(b)), file=full)
    g, n = geomean(best)
    both("  %-10s %-8s best per shape %s (%d of %d shapes%s)%s" % (suite, prec, "%5.1f%%" % g if n else "    -", n,
         total, ", partial" if n < total else "", ", lowest %s %.1f%% (%s)" % (low[1], low[0], low[2]) if low else ""))
    print("      best at: " + ", ".join("%s %d" % kv for kv in sorted(wins.items(), key=lambda kv: -kv[1])), file=full)
    configs = {}
    for r in rows:
        configs.setdefault(r["config"], []).append((r.get("pct_of_vendor"), r["weight"]))
    for cfg, pairs in sorted(configs.items()):
        g, n = geomean(pairs)
        print("      %-34s %s" % (cut(cfg), "%6.1f%% (%d shapes)" % (g, n) if n else
              "     - (no shape compared: refused, failed or emulated; see its .txt)"), file=full)
# The exports' table as tools/gpu/gpu_exports.sh printed it.
try:
    ex = open(d + "/exports.txt").read().strip().splitlines()
    at = [i for i, l in enumerate(ex) if l.startswith("case ")]
    both("exports (the launcher's GFLOPS as % of gemmtop's run of the same configuration):")
    for l in ex[at[0]:] if at else ex[-5:]:
        both("  " + l[:170])
except OSError:
    pass
late = [l for l in open(d + "/status.txt").read().splitlines() if "timed out" in l or "skipped" in l or "signal" in l]
both("timed out or skipped (rows measured before are kept): %s" % ("none" if not late else "; ".join(late)))
PY
pack
cat "$res/summary.err" "$res/short.txt"
echo "full results: $out/shapes.tgz (summary.txt, every bench's table and JSON; $(($(date +%s) - start)) s)"
