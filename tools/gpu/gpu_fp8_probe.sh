#!/bin/sh
# On the GPU machine: what failed in the FP8 ladder's first run (2026-11-29), examined in
# one short call. Steps 4 and 5 (the bulk-copy epilogue) and cuBLASLt's block-scaled call
# under compute-sanitizer at a small size; then each step, one process each, at 4096 and
# 8192: a result that fails the check still gives its time and its error, so the error's
# size says whether the kernel or the tolerance is wrong; cuBLASLt beside it in the same
# process (per-tensor and block, each its own process, so that a fault in one reaches no
# other). Writes into $1 (default $OUT); a short table last.
B=${GEMMTOP_BIN:-$PWD/build/gemmtop}
out=${1:-$OUT}
mkdir -p "$out"
export XDG_CACHE_HOME=/tmp/gemmtop-fp8probe
san() { # NAME gemmtop-arguments...
   name=$1
   shift
   timeout -k 5 120 compute-sanitizer --tool memcheck --print-limit 4 "$B" "$@" >"$out/san-$name.txt" 2>&1
   echo "sanitizer $name rc=$? $(grep -m1 'ERROR SUMMARY' "$out/san-$name.txt")"
   grep -m4 -E '^========= (Invalid|  at |    at |Address|Program hit)' "$out/san-$name.txt"
}
small="--backend cuda --size 256 --reps 1 --warmup 0 --no-verify --no-store"
san step4 run $small --preset hopper-fp8-4-bulkstore --scaling tensor
san step5 run $small --preset hopper-fp8-5-cluster-tensor
san step3 run $small --preset hopper-fp8-3-persistent --scaling tensor
san lt-block run $small --kernel fp8mma1_scaled --precision e4m3 --scaling block --vendor
san lt-tensor run $small --kernel fp8mma1_scaled --precision e4m3 --scaling tensor --vendor

one() { # NAME SIZE gemmtop-arguments...
   name=$1 n=$2
   shift 2
   timeout -k 5 90 "$B" run --backend cuda --size "$n" --reps 20 --format json --no-store "$@" \
      >"$out/run-$name-$n.json" 2>"$out/run-$name-$n.err"
   echo "$name $n rc=$?" >>"$out/status.txt"
}
for n in 4096 8192; do
   one h1-tensor $n --preset hopper-fp8-1-wgmma
   one h1-nopromote $n --preset hopper-fp8-1-wgmma-nopromote
   one h2-block $n --preset hopper-fp8-2-blockscale
   one h3-tensor $n --preset hopper-fp8-3-persistent --scaling tensor
   one h3-block $n --preset hopper-fp8-3-persistent
   one lt-tensor $n --kernel fp8mma1_scaled --precision e4m3 --scaling tensor --vendor
   one lt-block $n --kernel fp8mma1_scaled --precision e4m3 --scaling block --vendor
done
echo
printf '%-14s %5s %-14s %9s %10s %-14s %9s\n' run size status TFLOPS max_err vendor TFLOPS
for f in "$out"/run-*.json; do
   python3 - "$f" <<'PY'
import json, os, sys
name = os.path.basename(sys.argv[1])[4:-5]
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
if not rows:
    err = open(sys.argv[1][:-5] + ".err").read().strip().splitlines()
    print(f"{name:<20} no result: {(err or ['?'])[-1][:90]}")
    sys.exit()
r = rows[-1]
g = r.get("gflops") or 0
vg = r.get("vendor_gflops") or 0
print(f"{name:<20} {str(r.get('status'))[:14]:<14} {g/1000:9.1f} {r.get('max_rel_err') or 0:10.2e} "
      f"{str(r.get('vendor_status'))[:14]:<14} {vg/1000:9.1f}")
PY
done
