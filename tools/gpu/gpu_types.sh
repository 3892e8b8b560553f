#!/bin/sh
# On the GPU machine: the element types tf32, half and bfloat16 (FP32 accumulation and C)
# through CUDA and NVIDIA's OpenCL.
#  - the scalar test kernel (tests/kernels/types/types_scalar.cl) verified in each type, at
#    an odd size with alpha and beta and at 4096, with cuBLAS GemmEx (CUDA) timed beside it
#    and verified; its broken copies (BUG=1, 2, 3) must fail verification on the GPU too;
#  - the `tensor: yes` stub gets GT_TENSOR_PTX=1 here (not emulated, its inline PTX runs),
#    and is labelled emulated when GEMMTOP_DEVICE_LIMITS=tensor_ptx=0 takes that away;
#  - `list devices --measure`: the tensor-core (mma.sync) peaks beside FP32 and FP64.
# One JSON line per run in $1/types.jsonl (default $OUT), a summary, and PASS/FAIL lines;
# exits 1 when any check fails. Usage: sh tools/gpu/gpu_types.sh [OUTDIR]
. tools/gpu/gpu_setup.sh
B=$PWD/build/gemmtop
out=${1:-${OUT:-/tmp}}
mkdir -p "$out"
kdir=$(mktemp -d)
cp -r kernels/helpers kernels/*.cl tests/kernels/types/*.cl "$kdir/"
export GEMMTOP_KERNELS="$kdir"
export XDG_CACHE_HOME="$kdir.cache"
log="$out/types.jsonl"
: > "$log"
fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# run LABEL ARGS...: one JSON run appended to the log; prints the line, keeps it in $line.
run() {
   label=$1
   shift
   line=$($B run --format json "$@" 2>"$out/err.txt" | tail -n 1)
   [ -n "$line" ] || line="{\"label\":\"$label\",\"status\":\"no output: $(head -c 300 "$out/err.txt" | tr '"\n' "' ")\"}"
   echo "$line" >> "$log"
}
field() { printf '%s\n' "$line" | python3 -c 'import json,sys
try: v=json.loads(sys.stdin.readline()).get(sys.argv[1])
except Exception: v=None
print(json.dumps(v) if isinstance(v,(bool,dict,list)) or v is None else v)' "$1"; }

for be in cuda opencl; do
   dev=""
   [ "$be" = opencl ] && dev="--device NVIDIA"
   for prec in tf32 half bfloat16; do
      run "$be $prec odd" --backend $be $dev --kernel types_scalar --precision $prec -m 1000 -n 999 -k 997 \
         --layout TN --alpha 0.75 --beta -1.5 --reps 3 --warmup 1 --vendor
      [ "$(field verified)" = true ] && pass "$be $prec types_scalar 1000x999x997 TN verified ($(field message))" ||
         fail "$be $prec types_scalar odd size: $(field status) $(field message)"
      run "$be $prec 4096" --backend $be $dev --kernel types_scalar --precision $prec --size 4096 --reps 5 --warmup 1 --vendor
      if [ "$(field verified)" = true ]; then
         pass "$be $prec types_scalar 4096 verified: $(field gflops) GFLOPS; vendor $(field vendor): $(field vendor_status)," \
            "verified $(field vendor_verified), $(field vendor_gflops) GFLOPS"
      else
         fail "$be $prec types_scalar 4096: $(field status) $(field message)"
      fi
      if [ "$be" = cuda ]; then
         [ "$(field vendor_status)" = ok ] && [ "$(field vendor_verified)" = true ] &&
            pass "cuBLAS $(field vendor) ran and verified in $prec" ||
            fail "cuBLAS GemmEx in $prec: $(field vendor_status) $(field vendor_message)"
      fi
      for bug in 1 2 3; do
         run "$be $prec BUG=$bug" --backend $be $dev --kernel types_scalar --set BUG=$bug --precision $prec \
            -m 37 -n 29 -k 19 --alpha 0.75 --beta -1.5 --reps 1 --warmup 0
         [ "$(field status)" = "wrong result" ] && pass "$be $prec BUG=$bug fails verification" ||
            fail "$be $prec BUG=$bug should fail verification: $(field status) $(field message)"
      done
   done
   # The tensor stub: real PTX here; emulated once the capability is taken away.
   run "$be tf32 stub" --backend $be $dev --kernel types_tensor_stub --precision tf32 -m 1000 -n 999 -k 997 --reps 3
   [ "$(field verified)" = true ] && [ "$(field emulated)" = false ] &&
      pass "$be tensor stub with GT_TENSOR_PTX=1 (cvt.rna.tf32.f32) verified, not emulated" ||
      fail "$be tensor stub: verified $(field verified), emulated $(field emulated): $(field message)"
   line=$(GEMMTOP_DEVICE_LIMITS=tensor_ptx=0 $B run --format json --backend $be $dev --kernel types_tensor_stub \
      --precision half --size 512 --reps 3 --vendor 2>/dev/null | tail -n 1)
   echo "$line" >> "$log"
   [ "$(field emulated)" = true ] && [ "$(field verified)" = true ] && [ "$(field vendor)" = null ] &&
      pass "$be tensor stub with tensor_ptx=0: emulated, verified, not compared with the vendor" ||
      fail "$be tensor stub with tensor_ptx=0: emulated $(field emulated), vendor $(field vendor)"
   # Peaks, measured now (cached for the runs above only after this; run the script twice
   # to see % of the tensor peaks in the table output).
   $B list devices --backend $be --measure --format json > "$out/peaks-$be.jsonl" 2>"$out/err.txt"
   python3 - "$out/peaks-$be.jsonl" "$be" <<'PY' || fails=$((fails + 1))
import json, sys
ok = False
for l in open(sys.argv[1]):
    d = json.loads(l)
    if "NVIDIA" not in d.get("name", "") and "NVIDIA" not in d.get("platform", ""):
        continue
    t = [d.get("tensor_%s_peak_gflops" % k) for k in ("tf32", "f16", "bf16")]
    print("%s %s: FP32 %s, FP64 %s, tensor TF32 %s, half %s, bfloat16 %s GFLOPS" % (
        sys.argv[2], d["name"], d.get("fp32_peak_gflops"), d.get("fp64_peak_gflops"), *t))
    if all(isinstance(x, (int, float)) and x > d.get("fp32_peak_gflops", 0) for x in t):
        ok = True
print(("PASS " if ok else "FAIL ") + sys.argv[2] + ": tensor peaks measured and above the FP32 peak")
sys.exit(0 if ok else 1)
PY
done
# With the peaks cached: one table run, to show "% of the measured half tensor peak".
$B run --backend cuda --kernel types_tensor_stub --precision half --size 4096 --reps 5 --vendor | grep -E "speed|vendor|verify"
python3 - "$log" <<'PY'
import json, sys
rows = []
for l in open(sys.argv[1]):
    try: rows.append(json.loads(l))
    except Exception: pass
print("%-7s %-9s %-18s %6s %10s %-40s %10s %s" % ("backend", "type", "kernel", "size", "GFLOPS", "vendor", "vGFLOPS", "verified"))
for r in rows:
    if r.get("m") in (4096,) or r.get("kernel") == "types_tensor_stub":
        print("%-7s %-9s %-18s %6s %10s %-40s %10s %s%s" % (r.get("backend"), r.get("precision"), r.get("kernel"), r.get("m"),
              r.get("gflops"), (r.get("vendor") or "-")[:40], r.get("vendor_gflops", "-"), r.get("verified"),
              " (emulated)" if r.get("emulated") else ""))
PY
rm -rf "$kdir" "$kdir.cache"
echo "gpu_types: $fails failed"
[ "$fails" -eq 0 ]
