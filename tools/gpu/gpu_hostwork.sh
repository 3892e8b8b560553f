#!/bin/sh
# On the GPU machine (issue 44): how much of a big run is host work, with C checked on the
# device (--verify-on auto: verify.cl's sums, only vectors read back). Within a time budget
# (HOSTWORK_BUDGET seconds, below the caller's limit), in order of what matters most:
#   1. each size verified (auto: on the device) and with --no-verify, each timed from
#      outside (the process's wall time), with the GEMM's time, where C was checked and
#      the phases of run --format json; the smallest first, once more, to compile;
#   2. the biggest size checked on the host (--verify-on host), the round-1 path: its
#      verdict beside the device's;
#   3. wrong kernels on the GPU (tests/kernels/test_holes.cl: one element unwritten, one
#      off by 1e-3 of itself; test_broken.cl): the device's check must fail them as the
#      host's does;
#   4. the Llama-3-70B suite's bench (--rounds 3) with the time left.
# Everything goes to OUT/hostwork.txt as it comes; a short table is printed last. A step
# that fails is recorded and the script goes on; a step that would start past the budget
# is skipped and said so.
#
#   sh tools/gpu/gpu_hostwork.sh OUT
#
# A stand-in here (PoCL, small sizes) checks the paths and the parsing:
#   HOSTWORK_BACKEND=opencl HOSTWORK_PRESET=01-naive HOSTWORK_SIZES="256x384x128 128" HOSTWORK_VERIFY_ON=device \
#   HOSTWORK_BROKEN_SIZE=96 HOSTWORK_BENCH="--preset 01-naive --sizes 64,96 --rounds 3" \
#   sh tools/gpu/gpu_hostwork.sh /tmp/out
OUT=${1:-${OUT:-out}}
mkdir -p "$OUT"
# gpu_round.sh has sourced the setup already (its libraries are on the path): not again.
case "${LD_LIBRARY_PATH:-}" in
*.device-carry/lib*) ;;
*) [ -f tools/gpu/gpu_setup.sh ] && [ -z "${HOSTWORK_BACKEND:-}" ] && . tools/gpu/gpu_setup.sh ;;
esac
BIN=${GEMMTOP_BIN:-build/gemmtop}
BACKEND=${HOSTWORK_BACKEND:-cuda}
PRESET=${HOSTWORK_PRESET:-hopper-5-order-bf16}
SIZES=${HOSTWORK_SIZES:-16384x57344x8192 4096x57344x8192 4096}
VERIFY_ON=${HOSTWORK_VERIFY_ON:-auto}
BROKEN_SIZE=${HOSTWORK_BROKEN_SIZE:-2048}
BENCH=${HOSTWORK_BENCH:---preset $PRESET --shapes llama3-70b --rounds 3}
BUDGET=${HOSTWORK_BUDGET:-46}
REPORT=$OUT/hostwork.txt
TABLE=$OUT/hostwork.table
export GEMMTOP_STORE="$OUT/hostwork.db"
GEMMTOP_KERNELS="$PWD/kernels:$PWD/tests/kernels"
export GEMMTOP_KERNELS PYTHONUNBUFFERED=1
START=$(date +%s)
: >"$REPORT"
: >"$TABLE"
{
   echo "# gpu_hostwork: $BIN, backend $BACKEND, preset $PRESET, verify-on $VERIFY_ON, budget ${BUDGET} s, $(date -u)"
   "$BIN" --version
   nproc
   nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} >>"$REPORT" 2>&1

left() { echo $((BUDGET - ($(date +%s) - START))); }

# timed LABEL ARGS...: one process, its wall time (s) and its JSON line into the report;
# prints "wall gemm_ms status verified_on phases" for the table.
timed() {
   label=$1
   shift
   python3 - "$REPORT" "$label" "$(left)" "$BIN" "$@" <<'PY'
import json, subprocess, sys, time
report, label, limit, cmd = sys.argv[1], sys.argv[2], max(1, int(sys.argv[3])), sys.argv[4:]
t0 = time.monotonic()
try:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    rc, out, err = p.returncode, p.stdout, p.stderr
except subprocess.TimeoutExpired as e:
    rc, out, err = "timeout", e.stdout or "", e.stderr or ""
    out = out.decode() if isinstance(out, bytes) else out
    err = err.decode() if isinstance(err, bytes) else err
wall = time.monotonic() - t0
with open(report, "a") as f:
    f.write("## %s: %s\n## exit %s, wall %.3f s\n%s%s\n" % (label, " ".join(cmd), rc, wall, out, err[-2000:]))
o = {}
for line in out.splitlines():
    try:
        o = json.loads(line)
        break
    except ValueError:
        pass
ph = o.get("phases", {})
names = ["setup", "inputs", "compile", "upload", "launches", "download", "verify", "store"]
phases = ",".join("%s=%.0f" % (n, ph.get(n + "_ms", 0)) for n in names if ph.get(n + "_ms", 0) >= 0.5)
gemm = o.get("time_ms")
where = (o.get("verified_on") or "-").split(" ")[0]
print("%.2f %s %s %s %s" % (wall, "%.3f" % gemm if isinstance(gemm, (int, float)) else "-",
                            o.get("status", "exit=%s" % rc).replace(" ", "_"), where, phases or "-"))
PY
}

# row SIZE WHAT ARGS...: a run of the preset, as a table row; skipped past the budget.
row() {
   size=$1 what=$2
   shift 2
   if [ "$(left)" -lt 3 ]; then
      printf '%-20s %-14s %s\n' "$size" "$what" "skipped: the budget was spent" >>"$TABLE"
      return
   fi
   line=$(timed "$size $what" run --backend "$BACKEND" --size "$size" --seed 44 --format json "$@")
   # shellcheck disable=SC2086 # the line's words are the row's fields
   set -- $line
   printf '%-20s %-14s %7s %9s %14s %-7s %s\n' "$size" "$what" "$1" "$2" "$3" "$4" "$5" >>"$TABLE"
}

printf '%-20s %-14s %7s %9s %14s %-7s %s\n' size run wall_s gemm_ms status checked phases_ms >>"$TABLE"
# 1. Each size; the smallest first once more to compile (the verification kernels too).
smallest=""
for size in $SIZES; do smallest=$size; done
row "$smallest" first --preset "$PRESET" --verify-on "$VERIFY_ON"
for size in $SIZES; do
   row "$size" verified --preset "$PRESET" --verify-on "$VERIFY_ON"
   row "$size" no-verify --preset "$PRESET" --no-verify
done
# 2. The biggest checked on the host, as before: the same verdict, and what it cost.
biggest=${SIZES%% *}
row "$biggest" host --preset "$PRESET" --verify-on host
# 3. Wrong kernels, checked on the device and on the host: both must fail them (exit 1).
for spec in "test_holes --set HOLE=1" "test_holes --set HOLE=3" "test_broken"; do
   for on in device host; do
      # shellcheck disable=SC2086 # spec is a kernel and its options
      row "$BROKEN_SIZE" "$(echo "$spec" | sed 's/.*HOLE=/hole/; s/test_//')-$on" --kernel $spec --verify-on "$on" \
         --reps 1 --warmup 0
   done
done

# 4. The suite with the time left (a bench that does not finish is said so).
limit=$(($(left) - 1))
if [ "$limit" -ge 5 ]; then
   t0=$(date +%s.%N)
   # shellcheck disable=SC2086 # BENCH is a list of options
   timeout "$limit" "$BIN" bench --backend "$BACKEND" $BENCH >"$OUT/bench.out" 2>"$OUT/bench.err"
   rc=$?
   t1=$(date +%s.%N)
   {
      echo "## bench --backend $BACKEND $BENCH (limit ${limit} s): exit $rc"
      cat "$OUT/bench.out"
      tail -n 40 "$OUT/bench.err"
   } >>"$REPORT"
   done_shapes=$(grep -c 'round 3 of 3' "$OUT/bench.err" 2>/dev/null)
   rm -f "$OUT/bench.out" "$OUT/bench.err"
   bench_s=$(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1")
   if [ "$rc" -eq 124 ]; then bench_status="stopped at the budget's ${limit} s (about $((done_shapes / 2)) shapes done)"
   elif [ "$rc" -eq 0 ]; then bench_status=ok; else bench_status="exit $rc"; fi
   printf 'bench %s: %s s, %s\n' "$BENCH" "$bench_s" "$bench_status" >>"$TABLE"
else
   printf 'bench %s: skipped, %s s left of the budget\n' "$BENCH" "$(left)" >>"$TABLE"
fi

{
   echo "## table ($(($(date +%s) - START)) s of ${BUDGET})"
   cat "$TABLE"
} >>"$REPORT"
cat "$TABLE"
rm -f "$TABLE" "$GEMMTOP_STORE" "$GEMMTOP_STORE"-wal "$GEMMTOP_STORE"-shm "$GEMMTOP_STORE".sweeps
