#!/bin/sh
# On the GPU machine: step 5 of the tensor ladder (tensor05_warptile), the shapes and
# options worth trying beside its presets, in one call.
#  1. The mma.sync ceiling at a GEMM's occupancy (tools/gpu/mma_ceiling.cu): back-to-back
#     MMAs with 8 warps a multiprocessor, as 64 x 64 warp tiles allow, with and without
#     step 5's ldmatrix traffic, beside the light-warp peak.
#  2. Candidates at 4096 through CUDA and OpenCL in half and tf32 (gemmtop run, 10 timed
#     launches after 3 warm-ups, verified): tile shapes and stages, TMMA and ROUND (TF32),
#     each beside the preset it starts from (the TF32 presets take TMMA=1 ROUND=0).
#  3. The best verified candidate of each backend and type (bfloat16 takes half's shape)
#     as a user preset, verified at 1000x999x997 with alpha and beta, and benched beside
#     the shipped preset and cuBLAS (bench --rounds 3, one process a backend and type:
#     CUDA at 4096 and 8192, OpenCL at 4096).
#  4. gemmtop's bank model against Nsight Compute for the best TF32 candidates (their B
#     fragments are 8-byte loads with TMMA), and the SASS of the best shapes.
# Stops starting phases after DEADLINE seconds (default 520) so the table still prints.
# OUTDIR gets ceiling.txt, candidates.tsv, best.txt, banks-ncu.md and tune.tgz (every log,
# bench and SASS listing). Usage: sh tools/gpu/gpu_tensor_tune.sh [OUTDIR] [DEADLINE]
. tools/gpu/gpu_setup.sh
B=$PWD/build/gemmtop
final=${1:-${OUT:-/tmp}}
deadline=${2:-520}
start=$(date +%s)
mkdir -p "$final"
out=$(mktemp -d)
late() { [ $(($(date +%s) - start)) -gt "$deadline" ]; }
export XDG_CONFIG_HOME="$(mktemp -d)"
P="$XDG_CONFIG_HOME/gemmtop/presets"
mkdir -p "$P"

# 1. The ceiling.
if [ ! -x build/mma_ceiling ]; then
   nvcc -O3 -arch=sm_90 -o build/mma_ceiling tools/gpu/mma_ceiling.cu > "$out/ceiling-build.txt" 2>&1
fi
build/mma_ceiling > "$out/ceiling.txt" 2>&1
echo "== mma.sync ceiling"
cat "$out/ceiling.txt"

# 2. Candidates: LABEL BACKEND TYPE PRESET [K=V ...]
res="$out/candidates.tsv"
: > "$res"
cand() {
   label=$1 be=$2 prec=$3 preset=$4
   shift 4
   late && return 0
   dev=""
   [ "$be" = opencl ] && dev="--device NVIDIA"
   sets=""
   for kv in "$@"; do sets="$sets --set $kv"; done
   # shellcheck disable=SC2086
   line=$($B run --format json --backend "$be" $dev --preset "$preset" --precision "$prec" --size 4096 $sets \
      --reps 10 --warmup 3 2>"$out/err-$label.txt" | tail -n 1)
   printf '%s\n' "$line" >> "$out/candidates.jsonl"
   python3 - "$label" "$be" "$prec" "$preset" "$*" "$line" >> "$res" <<'PY'
import json, sys
label, be, prec, preset, sets, line = sys.argv[1:7]
try:
    o = json.loads(line)
except ValueError:
    o = {}
print("\t".join([label, be, prec, "%.1f" % (o.get("gflops", 0) / 1000), str(o.get("verified", False)).lower(),
                 preset, sets, json.dumps(o.get("params", {}))]))
PY
   tail -n 1 "$res"
}
H=tensor-5-warptile-h100-half
T=tensor-5-warptile-h100-tf32
echo "== candidates at 4096 (label backend type TFLOPS verified preset sets)"
cand c-h-base cuda half $H-cuda
cand c-h-128x256 cuda half $H-cuda BM=128 BN=256
cand c-h-128x128 cuda half $H-cuda BM=128 BN=128
cand c-h-st4 cuda half $H-cuda STAGES=4
cand c-t-base cuda tf32 $T-cuda TMMA=0 ROUND=1 BM=128 PREFETCH=0
cand c-t-tmma cuda tf32 $T-cuda ROUND=1 BM=128 PREFETCH=0
cand c-t-tmma-r0 cuda tf32 $T-cuda BM=128 PREFETCH=0
cand c-t-tmma-r0-pf cuda tf32 $T-cuda BM=128
cand c-t-r0-pf cuda tf32 $T-cuda TMMA=0 BM=128
cand c-t-256x128-tmma-r0-pf cuda tf32 $T-cuda
cand c-t-128x256-tmma-r0-pf cuda tf32 $T-cuda BN=256 BM=128
cand o-h-base opencl half $H
cand o-h-bk32st2 opencl half $H BK=32 STAGES=2
cand o-h-256x128 opencl half $H BM=256 BN=128
cand o-t-base opencl tf32 $T TMMA=0 ROUND=1
cand o-t-tmma opencl tf32 $T ROUND=1
cand o-t-tmma-r0 opencl tf32 $T
cand o-t-tmma-r0-pf opencl tf32 $T PREFETCH=1
cand o-t-128x256-st2-tmma-r0-pf opencl tf32 $T BN=256 STAGES=2 PREFETCH=1
cand o-t-256x128-st2-tmma-r0-pf opencl tf32 $T BM=256 STAGES=2 PREFETCH=1
# 3. The best of each backend and type as user presets t5-best-BACKEND-TYPE.
python3 - "$res" "$P" > "$out/best.txt" <<'PY'
import json, sys
best = {}
for row in open(sys.argv[1]):
    f = row.rstrip("\n").split("\t")
    if len(f) < 8 or f[4] != "true":
        continue
    key = (f[1], f[2])
    if key not in best or float(f[3]) > float(best[key][3]):
        best[key] = f
for (be, prec), f in sorted(best.items()):
    params = json.loads(f[7])
    for t in ([prec, "bfloat16"] if prec == "half" else [prec]):
        with open("%s/t5-best-%s-%s.preset" % (sys.argv[2], be, t), "w") as out:
            out.write("kernel = tensor05_warptile\nprecision = %s\nsize = 4096\n" % t)
            for k, v in params.items():
                out.write("%s = %s\n" % (k, v))
    print(be, prec, f[0], f[3], f[7])
PY
echo "== best candidates"
cat "$out/best.txt"
echo "== verified at 1000x999x997, alpha 0.75, beta -1.5"
for f in "$P"/t5-best-*.preset; do
   late && break
   name=$(basename "$f" .preset)
   be=$(echo "$name" | cut -d- -f3)
   dev=""
   [ "$be" = opencl ] && dev="--device NVIDIA"
   # shellcheck disable=SC2086
   $B run --backend "$be" $dev --preset "$name" -m 1000 -n 999 -k 997 --alpha 0.75 --beta -1.5 --reps 2 \
      --warmup 1 --format json 2>&1 | tail -n 1 | python3 -c 'import json,sys
n=sys.argv[1]
try: o=json.loads(sys.stdin.read())
except ValueError: o={}
print(("PASS" if o.get("verified") and not o.get("emulated") else "FAIL"), n, o.get("message", o.get("status")))' "$name"
done

# Each type's shipped preset beside the best, one process per type: CUDA first.
for t in half bfloat16 tf32; do
   late && break
   [ -e "$P/t5-best-cuda-$t.preset" ] &&
      $B bench --backend cuda tensor-5-warptile-h100-$t-cuda t5-best-cuda-$t --sizes 4096,8192 --rounds 3 \
         > "$out/bench-cuda-$t.txt" 2>&1
done
# 4. Banks against ncu for the TF32 bests, and SASS.
if ! late; then
   python3 tools/gpu/gpu_banks_ncu.py "$P/t5-best-cuda-tf32.preset" "$P/t5-best-opencl-tf32.preset" \
      > "$out/banks-ncu.md" 2> "$out/banks-ncu.err"
   echo "== banks vs ncu"
   grep -e '^| tensor' -e 'agree' "$out/banks-ncu.md"
fi
for t in half bfloat16 tf32; do
   late && break
   [ -e "$P/t5-best-opencl-$t.preset" ] &&
      $B bench --backend opencl --device NVIDIA --reference cuda tensor-5-warptile-h100-$t t5-best-opencl-$t \
         --sizes 4096 --rounds 3 > "$out/bench-opencl-$t.txt" 2>&1
done
for name in $H-cuda t5-best-cuda-half t5-best-cuda-tf32; do
   $B inspect --backend cuda --preset "$name" --code sass > "$out/sass-$name.txt" 2>&1
done

echo "== benches (TFLOPS = GFLOPS / 1000)"
for f in "$out"/bench-*.txt; do
   [ -e "$f" ] || continue
   echo "-- $(basename "$f" .txt)"
   grep -v -e '^  SM' -e ', round [0-9]* of [0-9]*:' "$f" | head -n 12
done
echo "== candidates"
cut -f1-5 "$res"
cp "$P"/t5-best-*.preset "$out/" 2>/dev/null
for f in ceiling.txt candidates.tsv best.txt banks-ncu.md; do [ -e "$out/$f" ] && cp "$out/$f" "$final/"; done
tar -C "$out" -czf "$final/tune.tgz" .
echo "elapsed $(($(date +%s) - start)) s"
