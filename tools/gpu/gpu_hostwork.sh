#!/bin/sh
# On the GPU machine (issue 44): how much of a big run is host work. For each size, a
# verified run (the first one may compile: it is kept but not the figure), the same run
# again, and one with --no-verify, each timed from outside (the process's wall time), with
# the GEMM's own time and the phases of run --format json; then the Llama-3-70B suite's
# bench (--rounds 3) under a 120 s limit. Everything goes to OUT/hostwork.txt; a short
# table is printed last. A failure is recorded and the script goes on.
#
#   sh tools/gpu/gpu_hostwork.sh OUT
#
# A stand-in here (PoCL, small sizes) checks the paths and the parsing:
#   HOSTWORK_BACKEND=opencl HOSTWORK_PRESET=01-naive HOSTWORK_SIZES="256x384x128 128" \
#   HOSTWORK_BENCH="--preset 01-naive --shapes tiny --rounds 3" sh tools/gpu/gpu_hostwork.sh /tmp/out
OUT=${1:-${OUT:-out}}
mkdir -p "$OUT"
[ -f tools/gpu/gpu_setup.sh ] && [ -z "${HOSTWORK_BACKEND:-}" ] && . tools/gpu/gpu_setup.sh
BIN=${GEMMTOP_BIN:-build/gemmtop}
BACKEND=${HOSTWORK_BACKEND:-cuda}
PRESET=${HOSTWORK_PRESET:-hopper-5-order-bf16}
SIZES=${HOSTWORK_SIZES:-16384x57344x8192 4096x57344x8192 4096}
BENCH=${HOSTWORK_BENCH:---preset $PRESET --shapes llama3-70b --rounds 3}
BENCH_LIMIT=${HOSTWORK_BENCH_LIMIT:-120}
REPORT=$OUT/hostwork.txt
TABLE=$OUT/hostwork.table
export GEMMTOP_STORE="$OUT/hostwork.db"
: >"$REPORT"
: >"$TABLE"
echo "# gpu_hostwork: $BIN, backend $BACKEND, preset $PRESET, $(date -u)" >>"$REPORT"
"$BIN" --version >>"$REPORT" 2>&1
nproc >>"$REPORT" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$REPORT" 2>&1

# timed LABEL ARGS...: one process, its wall time (s) and its JSON line into the report;
# prints "wall gemm_ms status phases" for the table.
timed() {
   label=$1
   shift
   python3 - "$REPORT" "$label" "$BIN" "$@" <<'PY'
import json, subprocess, sys, time
report, label, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
t0 = time.monotonic()
try:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
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
print("%.2f %s %s %s" % (wall, "%.3f" % gemm if isinstance(gemm, (int, float)) else "-",
                         o.get("status", "exit=%s" % rc).replace(" ", "_"), phases or "-"))
PY
}

printf '%-20s %-9s %9s %9s %10s  %s\n' size run wall_s gemm_ms status phases_ms >>"$TABLE"
for size in $SIZES; do
   for what in first verified no-verify; do
      extra=""
      [ "$what" = no-verify ] && extra=--no-verify
      # shellcheck disable=SC2086 # extra is one option or none
      line=$(timed "$size $what" run --backend "$BACKEND" --preset "$PRESET" --size "$size" --seed 44 $extra --format json)
      set -- $line
      printf '%-20s %-9s %9s %9s %10s  %s\n' "$size" "$what" "$1" "$2" "$3" "$4" >>"$TABLE"
   done
done

# The suite: its wall time under the limit (a bench that does not finish is said so).
t0=$(date +%s.%N)
# shellcheck disable=SC2086 # BENCH is a list of options
timeout "$BENCH_LIMIT" "$BIN" bench --backend "$BACKEND" $BENCH >"$OUT/bench.out" 2>"$OUT/bench.err"
rc=$?
t1=$(date +%s.%N)
{
   echo "## bench --backend $BACKEND $BENCH (limit ${BENCH_LIMIT} s): exit $rc"
   cat "$OUT/bench.out"
   tail -n 40 "$OUT/bench.err"
} >>"$REPORT"
rm -f "$OUT/bench.out" "$OUT/bench.err"
bench_s=$(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1")
if [ "$rc" -eq 124 ]; then bench_status="did not finish in ${BENCH_LIMIT} s"; elif [ "$rc" -eq 0 ]; then bench_status=ok; else bench_status="exit $rc"; fi
printf 'bench %s: %s s, %s\n' "$BENCH" "$bench_s" "$bench_status" >>"$TABLE"

{
   echo "## table"
   cat "$TABLE"
} >>"$REPORT"
rm -f "$TABLE.tmp"
cat "$TABLE"
rm -f "$TABLE" "$GEMMTOP_STORE" "$GEMMTOP_STORE"-wal "$GEMMTOP_STORE"-shm "$GEMMTOP_STORE".sweeps
