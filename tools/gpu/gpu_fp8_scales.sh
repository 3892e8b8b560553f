#!/bin/sh
# On the GPU machine (issue 43, block scales; issue 45, DRAM): one call of 15 to 100 s on the H200
# (2026-12-03; the knee, part 6, is most of the longest).
#  1. Steps 5 and 6 with their block scales copied beside each stage by a producer warp
#     (SCALES=1, the default) verified at odd sizes (step 6: all tiles stream-K, some, none;
#     a long K), e4m3 and e5m2, beta 0.5 and 0, each run in its own process with a 30 s
#     limit, four at a time.
#  2. Timing beside cuBLASLt in the same process (bench --rounds 3, every result verified):
#     the block-scaled presets of steps 5 and 6 with SCALES 1 and 0 (each consumer thread
#     loading its own, as before), and the per-tensor ones, at 4096 and 8192.
#  3. (SWEEP=1) the block-scaled tiles again with the scales beside the stage: clusters of
#     one and two, 128 and 192 columns, 3 to 5 stages, step 6's epilogue parts.
#  4. (TILES=1) per-tensor tiles of 144, 160 and 176 columns (cuBLASLt's fastest kernel at
#     8192 has 144 x 128 tiles in its own column-major terms) at steps 5 and 6, each verified
#     at two odd sizes first (beta 0.5 and 0), then timed beside step 5 tuned and step 6.
#  5. (NCU=1) Nsight Compute's sections on step 6 with block and per-tensor scales and step 5
#     in clusters of two with block scales at 4096: where the block scales' time goes.
#  6. (KNEE=1) DRAM's reads against A and B's size along the size (ncu through
#     gpu_limits_ncu.py): where an FP8 kernel whose A and B fit in the L2 starts to read them
#     more than once.
# Writes into $1 (default $OUT); a short table last. A stand-in run without a GPU
# (GEMMTOP_BACKEND=opencl) checks the paths and the parsing only: the steps are refused there.
B=${GEMMTOP_BIN:-$PWD/build/gemmtop}
out=${1:-$OUT}
BACKEND="--backend ${GEMMTOP_BACKEND:-cuda}"
SIZES=${SIZES:-4096,8192}
KNEE_SIZES=${KNEE_SIZES:-2048,2560,3072,3584,4096}
d="$out/scales"
mkdir -p "$d/verify"
export XDG_CACHE_HOME="$d/cache" XDG_CONFIG_HOME="$d/config" XDG_DATA_HOME="$d/data"
P="$XDG_CONFIG_HOME/gemmtop/presets"
mkdir -p "$P"
{
   date -u
   nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1
   "$B" --version 2>&1
} >"$d/device.txt"

# A shipped preset with some keys changed, as a user preset: NAME BASE KEY=VALUE...
variant() {
   name=$1 base=$2
   shift 2
   { grep -v -E "^($(printf '%s\n' "$@" | sed 's/=.*//' | paste -sd'|')) " "presets/$base.preset"
     for kv in "$@"; do echo "${kv%%=*} = ${kv#*=}"; done; } >"$P/$name.preset"
}
BLOCK="hopper-fp8-6-hybrid hopper-fp8-tuned-block hopper-fp8-5-cluster"
for p in $BLOCK; do variant $p-s0 $p SCALES=0; done

# 1. correctness
verify_one() { # PRESET PRECISION BETA M N K
   p=$1
   shift
   f="$d/verify/$p-$1-b$2-$3x$4x$5"
   timeout -k 5 30 "$B" run $BACKEND --preset $p --precision "$1" --scaling block --size "$3x$4x$5" \
      --alpha 0.75 --beta "$2" --reps 2 --warmup 1 --format json >"$f.json" 2>"$f.err"
   echo $? >"$f.rc"
}
n=0
t0=$(date +%s)
for prec in e4m3 e5m2; do
   for beta in 0.5 0; do
      for shape in "1000 520 1030" "2000 2000 1030" "1536 2112 4096" "128 4096 14336" "4096 4096 4096"; do
         verify_one hopper-fp8-6-hybrid $prec $beta $shape &
         n=$((n + 1))
         [ $((n % 4)) -eq 0 ] && wait
      done
      for p in hopper-fp8-tuned-block hopper-fp8-5-cluster; do
         for shape in "1000 520 1030" "1000 3000 4100"; do
            verify_one $p $prec $beta $shape &
            n=$((n + 1))
            [ $((n % 4)) -eq 0 ] && wait
         done
      done
   done
done
wait
echo "verify: $n runs $(($(date +%s) - t0))s" >>"$d/status.txt"
ok=0
for f in "$d"/verify/*.json; do grep -q '"status":"ok"' "$f" && ok=$((ok + 1)); done
echo "verified: $ok of $n" >>"$d/status.txt"

# 2. timing, only if every check passed
if [ "$ok" = "$n" ]; then
   timeout -s INT -k 5 200 "$B" bench $BACKEND $(for p in $BLOCK; do printf '%s %s-s0 ' $p $p; done) \
      hopper-fp8-6-hybrid-tensor hopper-fp8-tuned-tensor --sizes "$SIZES" --rounds 3 --save "$d/bench.json" \
      >"$d/bench.txt" 2>&1
   echo "bench rc=$? $(($(date +%s) - t0))s" >>"$d/status.txt"
else
   echo "bench skipped: a check failed" >>"$d/status.txt"
fi

# 3. the block-scaled tiles again
if [ "${SWEEP:-0}" = 1 ] && [ "$ok" = "$n" ]; then
   variant sw-c2-b192-s3 hopper-fp8-5-cluster BN=192 STAGES=3
   variant sw-c2-b128-s3 hopper-fp8-5-cluster STAGES=3
   variant sw-c1-b128-s4 hopper-fp8-5-cluster CLUSTER=1
   variant sw-h6-b128-s4 hopper-fp8-6-hybrid BN=128 STAGES=4
   variant sw-h6-b128-s5-e2 hopper-fp8-6-hybrid BN=128 STAGES=5 EPI=2
   variant sw-h6-b192-s4-e2 hopper-fp8-6-hybrid STAGES=4 EPI=2
   variant sw-h6-b192-s4-e3 hopper-fp8-6-hybrid STAGES=4 EPI=3
   variant sw-h6-sk0 hopper-fp8-6-hybrid SKWAVES=0
   timeout -s INT -k 5 200 "$B" bench $BACKEND hopper-fp8-5-cluster hopper-fp8-6-hybrid sw-c2-b192-s3 sw-c2-b128-s3 \
      sw-c1-b128-s4 sw-h6-b128-s4 sw-h6-b128-s5-e2 sw-h6-b192-s4-e2 sw-h6-b192-s4-e3 sw-h6-sk0 --sizes "$SIZES" \
      --rounds 3 --save "$d/sweep.json" >"$d/sweep.txt" 2>&1
   echo "sweep rc=$? $(($(date +%s) - t0))s" >>"$d/status.txt"
fi

# 4. per-tensor tiles between 128 and 192 columns
if [ "${TILES:-0}" = 1 ]; then
   variant t5-b144-s4 hopper-fp8-tuned-tensor BN=144 STAGES=4
   variant t5-b160-s3 hopper-fp8-tuned-tensor BN=160
   variant t5-b176-s3 hopper-fp8-tuned-tensor BN=176
   variant t5c2-b144-s4 hopper-fp8-5-cluster-tensor BN=144
   variant t5c2-b160-s3 hopper-fp8-5-cluster-tensor BN=160 STAGES=3
   variant t6-b144-s4 hopper-fp8-6-hybrid-tensor BN=144 STAGES=4
   variant t6-b160-s3 hopper-fp8-6-hybrid-tensor BN=160
   variant t6-b176-s3 hopper-fp8-6-hybrid-tensor BN=176
   TV="t5-b144-s4 t5-b160-s3 t5-b176-s3 t5c2-b144-s4 t5c2-b160-s3 t6-b144-s4 t6-b160-s3 t6-b176-s3"
   tn=0 tok=0
   for p in $TV; do
      for beta in 0.5 0; do
         for shape in "1000 520 1030" "2000 3000 4100"; do
            f="$d/verify/$p-b$beta-$(echo $shape | tr ' ' x)"
            timeout -k 5 30 "$B" run $BACKEND --preset $p --size "$(echo $shape | tr ' ' x)" --alpha 0.75 \
               --beta $beta --reps 2 --warmup 1 --format json >"$f.json" 2>"$f.err" &
            tn=$((tn + 1))
            [ $((tn % 4)) -eq 0 ] && wait
         done
      done
   done
   wait
   for p in $TV; do for f in "$d"/verify/$p-b*.json; do grep -q '"status":"ok"' "$f" && tok=$((tok + 1)); done; done
   echo "tiles verified: $tok of $tn" >>"$d/status.txt"
   if [ "$tok" = "$tn" ]; then
      timeout -s INT -k 5 200 "$B" bench $BACKEND hopper-fp8-tuned-tensor hopper-fp8-6-hybrid-tensor $TV \
         --sizes "$SIZES" --rounds 3 --save "$d/tiles.json" >"$d/tiles.txt" 2>&1
      echo "tiles rc=$? $(($(date +%s) - t0))s" >>"$d/status.txt"
   fi
fi

# 5. Nsight Compute's view
if [ "${NCU:-0}" = 1 ] && command -v ncu >/dev/null 2>&1; then
   for p in hopper-fp8-6-hybrid hopper-fp8-6-hybrid-tensor hopper-fp8-5-cluster; do
      timeout -k 5 60 ncu --clock-control none --section SpeedOfLight --section WarpStateStats \
         --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis -k 'regex:^gemm$' \
         -c 1 "$B" run $BACKEND --preset $p --size 4096 --reps 1 --warmup 0 --no-verify --no-store \
         >"$d/ncu-$p.txt" 2>&1
      echo "ncu $p rc=$? $(($(date +%s) - t0))s" >>"$d/status.txt"
   done
fi

# 6. DRAM along the size
if [ "${KNEE:-1}" = 0 ]; then
   echo "knee skipped: KNEE=0" >>"$d/status.txt"
elif command -v ncu >/dev/null 2>&1; then
   timeout -k 5 150 python3 tools/gpu/gpu_limits_ncu.py --sizes "$KNEE_SIZES" --out "$d/knee" \
      hopper-fp8-1-wgmma hopper-fp8-6-hybrid-tensor hopper-5-order-bf16 >"$d/knee.txt" 2>&1
   echo "knee rc=$? $(($(date +%s) - t0))s" >>"$d/status.txt"
else
   echo "knee skipped: no ncu here" >>"$d/status.txt"
fi
tar -czf "$out/scales.tgz" --exclude=cache -C "$out" scales

echo
cat "$d/device.txt" "$d/status.txt"
for f in "$d"/verify/*.json; do
   grep -q '"status":"ok"' "$f" || echo "NOT OK $(basename "$f"): $(tail -c 300 "${f%.json}.err")"
done
tail -n 30 "$d/bench.txt" 2>/dev/null
grep -E '^(configuration|hopper|sw-|cuBLASLt)' "$d/sweep.txt" 2>/dev/null
grep -E '^(configuration|hopper|t5|t6|cuBLASLt|  SM)' "$d/tiles.txt" 2>/dev/null
for f in "$d"/ncu-*.txt; do
   [ -e "$f" ] || continue
   echo "== $(basename "$f")"
   grep -E 'Duration|Compute \(SM\) Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|DRAM Throughput|Issue Slots Busy|Warp Cycles Per Issued|No Eligible|Executed Ipc Active' "$f" | head -12
done
python3 - "$d/knee/limits.jsonl" <<'PY'
import json, sys
try:
    rows = [json.loads(l) for l in open(sys.argv[1])]
except OSError:
    sys.exit()
print("preset size  DRAM reads / (A+B)  DRAM writes / C  model / DRAM reads")
for r in rows:
    c = r.get("compare")
    if not c or not c.get("dram_bytes"):
        continue
    n = r["size"]
    fp8 = "fp8" in r["preset"]
    ab, cb = 2.0 * n * n * (1 if fp8 else 2), 4.0 * n * n  # C is FP32 in both
    print(f"{r['preset'][:30]:30} {n:5} {c['dram_bytes'] / ab:6.2f} {(c.get('dram_write_bytes') or 0) / cb:6.2f} "
          f"{(c.get('dram_model_bytes') or 0) / c['dram_bytes']:6.2f}")
PY
