#!/bin/sh
# On the GPU machine (issue 43): the FP8 step's tile shape searched where the targets are
# measured. For each scaling (per-tensor, block) a sweep of Hopper FP8 step 5 at 8192
# (e4m3, layout NT, promotion every k-block and the band order fixed: CONS, BM, BN,
# STAGES and CLUSTER searched, each configuration verified and timed), then a bench of the
# sweep's two best beside the shipped presets (step 5's and the tuned one) and cuBLASLt FP8
# in the same process at 4096 and 8192 (--rounds 3). Before the sweeps, the configurations
# not yet run on a GPU are verified at an odd size (CHECK_*: by default BN=192 at steps 2
# to 5 in e4m3 and e5m2, each scaling swept, beta 0.5 and 0; CHECK_KERNELS= skips them),
# each in a process of its own under 30 s, four at a time. Results in $OUT/fp8_sweep.tgz (or
# $1); a short table last.
# Nothing stops the script but the time: a stage that fails is recorded, the next runs.
#   sh tools/gpu/gpu_round.sh fp8sweep:420:tools/gpu/gpu_fp8_sweep.sh
# A stand-in without a GPU (the paths and the parsing; the Hopper steps are refused there):
#   BACKEND=opencl DEVICE="--device pocl" KERNEL=fast02_warptile PRECISION=float SCALINGS=none \
#      FIXED="--set BK=8 --set WM=64 --set WN=32 --set LX=4 --set AMAP=0 --set PADA=0 --set GROUP=1" \
#      SIZES=128 SWEEP_SIZE=128 PRESETS=fast-02-warptile SWEEP_SECONDS=40 \
#      CHECK_KERNELS=fast02_warptile CHECK_PRECISIONS=float CHECK_SETS="--set BK=8" CHECK_SIZE=72x40x136 \
#      sh tools/gpu/gpu_fp8_sweep.sh /tmp/fp8sweep
[ -f tools/gpu/gpu_setup.sh ] && [ -d /usr/local/cuda ] && [ "${BACKEND:-cuda}" = cuda ] && . tools/gpu/gpu_setup.sh
B=${GEMMTOP:-build/gemmtop}
BACKEND=${BACKEND:-cuda}
DEVICE=${DEVICE:-}
KERNEL=${KERNEL:-fp8h5_cluster}
PRECISION=${PRECISION:-e4m3}
SCALINGS=${SCALINGS:-tensor block}
FIXED=${FIXED:---set PROMOTE=1 --set GROUP=8}
SWEEP_SIZE=${SWEEP_SIZE:-8192}
SIZES=${SIZES:-4096,8192}
SWEEP_SECONDS=${SWEEP_SECONDS:-70}
CHECK_KERNELS=${CHECK_KERNELS-fp8h2_blockscale fp8h3_persistent fp8h4_bulkstore fp8h5_cluster}
CHECK_PRECISIONS=${CHECK_PRECISIONS:-e4m3 e5m2}
CHECK_SETS=${CHECK_SETS:---set BN=192 --set STAGES=3}
CHECK_SIZE=${CHECK_SIZE:-1000x520x1030}
out=${1:-${OUT:?give the results folder as \$1 or OUT}}
mkdir -p "$out"
work="$out/partial"
res="$work/fp8_sweep"
rm -rf "$work"
mkdir -p "$res"
trap 'tar -czf "$out/fp8_sweep.tgz" -C "$work" fp8_sweep 2>/dev/null && rm -rf "$work"' EXIT
trap 'echo "stopped by a signal" >>"$res/status.txt"; exit 143' TERM INT
{
   date -u
   command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
   $B --version
} >"$res/date.txt" 2>&1
# stage NAME SECONDS COMMAND...: one stage under a limit (SIGINT first: sweep and bench keep
# what they measured), its exit status in status.txt.
stage() {
   name=$1 secs=$2
   shift 2
   t0=$(date +%s)
   timeout -s INT -k 10 "$secs" "$@" >"$res/$name.txt" 2>&1
   echo "$name exit $? in $(($(date +%s) - t0)) s" >>"$res/status.txt"
}
# check KERNEL PRECISION SCALING BETA: one run at the odd size, alpha 0.75; beta 0.5 takes
# the epilogue that reads C, beta 0 steps 4 and 5's staging area and bulk copies.
check() {
   f="$res/check/$1-$2-$3-b$4"
   # shellcheck disable=SC2046,SC2086 # DEVICE and CHECK_SETS are lists of words
   timeout -k 5 30 $B run --backend "$BACKEND" $DEVICE --kernel "$1" --precision "$2" \
      $([ "$3" = none ] || echo "--scaling $3") $CHECK_SETS --size "$CHECK_SIZE" --alpha 0.75 --beta "$4" \
      --reps 2 --warmup 1 --format json >"$f.json" 2>"$f.err"
   echo $? >"$f.rc"
}
mkdir -p "$res/check"
n=0
t0=$(date +%s)
for k in $CHECK_KERNELS; do
   for prec in $CHECK_PRECISIONS; do
      for scaling in $SCALINGS; do
         for beta in 0.5 0; do
            check "$k" "$prec" "$scaling" "$beta" &
            n=$((n + 1))
            [ $((n % 4)) -eq 0 ] && wait
         done
      done
   done
done
wait
echo "checks ($n runs) in $(($(date +%s) - t0)) s" >>"$res/status.txt"
for scaling in $SCALINGS; do
   # "none": a type without scales (the stand-in's float)
   scale_opt=$([ "$scaling" = none ] || echo "--scaling $scaling")
   # The sweep's presets go to a configuration folder of this scaling's own.
   export XDG_CONFIG_HOME="$work/config-$scaling"
   # shellcheck disable=SC2086 # FIXED and DEVICE are lists of words
   stage "sweep-$scaling" $((SWEEP_SECONDS + 30)) $B sweep --backend "$BACKEND" $DEVICE --kernel "$KERNEL" \
      --precision "$PRECISION" $scale_opt --layout NT --size "$SWEEP_SIZE" $FIXED --exhaustive \
      --time-budget "$SWEEP_SECONDS" --save "$res/sweep-$scaling.json" --save-presets 2
   found=$(ls "$XDG_CONFIG_HOME"/gemmtop/presets/*.preset 2>/dev/null | sort)
   names=""
   for f in $found; do
      cp "$f" "$res/$scaling-$(basename "$f")"
      names="$names $(basename "$f" .preset)" # bench takes them by name from this folder
   done
   shipped=${PRESETS:-hopper-fp8-5-cluster$([ "$scaling" = tensor ] && echo -tensor) hopper-fp8-tuned-$scaling}
   # shellcheck disable=SC2086
   stage "bench-$scaling" 60 $B bench --backend "$BACKEND" $DEVICE $names $shipped --precision "$PRECISION" \
      $scale_opt --layout NT --sizes "$SIZES" --rounds 3 --save "$res/bench-$scaling.json"
done
python3 - "$res" >"$res/short.txt" 2>&1 <<'PY'
import json, os, sys
d = sys.argv[1]
def rows(f):
    try:
        return [json.loads(l) for l in open(f) if l.strip().startswith("{")]
    except OSError:
        return []
print(open(d + "/date.txt").read().strip().splitlines()[0])
checks = sorted(f[:-3] for f in os.listdir(d + "/check") if f.endswith(".rc"))
good = 0
for c in checks:
    rc = open("%s/check/%s.rc" % (d, c)).read().strip()
    r = (rows("%s/check/%s.json" % (d, c)) or [{}])[-1]
    if rc == "0" and r.get("verified"):
        good += 1
        continue
    err = open("%s/check/%s.err" % (d, c)).read().strip().splitlines()
    print("  check %s: exit %s, %s" % (c, rc, "NOT VERIFIED" if r else (err[-1] if err else "no output")))
if checks:
    print("checks at the odd size: %d of %d verified" % (good, len(checks)))
for scaling in ("tensor", "block", "none"):
    sw = [r for r in rows(d + "/sweep-%s.json" % scaling) if r.get("gflops")]
    if os.path.exists(d + "/sweep-%s.txt" % scaling):
        print("sweep %s: %d configurations timed%s" % (scaling, len(sw), "" if sw else " (sweep-%s.txt says why)" % scaling))
    for r in sorted(sw, key=lambda r: -r["gflops"])[:5]:
        print("  %8.0f GFLOPS  max err %s  %s" % (r["gflops"], r.get("max_rel_err"),
              " ".join("%s=%s" % kv for kv in (r.get("params") or {}).items())))
    for r in rows(d + "/bench-%s.json" % scaling):
        if r.get("m") and r.get("config"):
            print("  bench %-34s %5d %9.0f GFLOPS %6s of %s%s %s  %s" % (
                r["config"], r["m"], r.get("gflops") or 0,
                "%.1f%%" % r["pct_of_vendor"] if r.get("pct_of_vendor") else "-",
                r.get("vendor") or "vendor",
                "  max err %s" % r["max_rel_err"] if r.get("max_rel_err") is not None else "", "verified" if r.get("verified") else "NOT VERIFIED",
                r.get("params", "")))
print(open(d + "/status.txt").read().strip())
PY
cat "$res/short.txt"
