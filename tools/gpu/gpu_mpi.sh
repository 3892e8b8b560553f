#!/bin/sh
# On the GPU machine (one H100): gemmtop sweep --mpi against the serial sweep of the same
# space (the same random sample: --seed), with one rank, then with two ranks sharing the
# GPU; then 64 simulated ranks answering with a serial sweep's recorded times (compiled in
# the measuring process, as a rank compiles), for what N GPUs would give. Prints a short
# table; JSON, CSV and logs go to $1 (default $OUT).
# Open MPI: tools/gpu/gpu_mpi_env.sh says where it comes from.
# BACKEND, KERNEL, SIZE, BUDGET choose the space (cuda, mygemm06_2d, 2048, 40).
. tools/gpu/gpu_mpi_env.sh
[ -e /dev/nvidia0 ] && . tools/gpu/gpu_setup.sh
# Each sweep has its own store (XDG_DATA_HOME below): a GEMMTOP_STORE from outside would
# make the later sweeps resume from the first one instead of measuring.
unset GEMMTOP_STORE
out=${1:-$OUT}
B=$PWD/build/gemmtop
KERNEL=${KERNEL:-mygemm06_2d}
BACKEND=${BACKEND:-cuda}
SPACE="--backend $BACKEND --kernel $KERNEL --size ${SIZE:-2048} --budget ${BUDGET:-40} --seed 5 --timeout 10"

command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

# sweep NAME [mpirun -np N]: one sweep with its own cache (each compiles from nothing) and
# store (none resumes another); its results in $out/NAME.json and .csv, wall seconds in
# $out/NAME.s.
sweep() {
   name=$1
   shift
   start=$(date +%s.%N)
   XDG_CACHE_HOME=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d) "$@" $B sweep $MPI_FLAG $SPACE --format json \
      --save "$out/$name.csv" >"$out/$name.json" 2>"$out/$name.log"
   echo "rc $?" >>"$out/$name.log"
   python3 -c 'import sys; print(float(sys.argv[1]) - float(sys.argv[2]))' "$(date +%s.%N)" "$start" >"$out/$name.s"
}
MPI_FLAG="" sweep serial
MPI_FLAG=--mpi sweep one $MPIRUN -np 1
MPI_FLAG=--mpi sweep two $MPIRUN -np 2
# Compiled in the measuring process (nothing ahead): compile_ms is the whole compile,
# as a rank pays it; then 64 simulated ranks on this machine's cores.
GEMMTOP_NO_DISK_CACHE=1 MPI_FLAG="" sweep recorded
# test_wide: 161,051 configurations that differ in nothing (nothing is compiled here).
GEMMTOP_KERNELS="$PWD/kernels:$PWD/tests/kernels" XDG_DATA_HOME=$(mktemp -d) $MPIRUN -np 64 $B sweep --mpi \
   --mpi-simulate "$out/recorded.csv" --backend $BACKEND --kernel test_wide --size ${SIZE:-2048} --budget 100000 \
   --seed 6 >/dev/null 2>"$out/simulated.log" ||
   tail -n 20 "$out/simulated.log"

python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
def load(name):
    rows = [json.loads(l) for l in open(os.path.join(out, name + ".json")) if l.startswith("{")]
    return {" ".join("%s=%s" % kv for kv in r["params"].items()): r for r in rows}
runs = ["serial", "one", "two"]
rows = {n: load(n) for n in runs}
secs = {n: float(open(os.path.join(out, n + ".s")).read()) for n in runs}
same = all(set(rows[n]) == set(rows["serial"]) and
           all(rows[n][p]["outcome"] == rows["serial"][p]["outcome"] for p in rows["serial"]) for n in runs)
print("configurations and outcomes the same in all three: %s" % ("yes" if same else "NO"))
for n in runs:
    ok = sum(r["outcome"] == "ok" for r in rows[n].values())
    print("%-7s %3d tried, %3d verified, %6.1f s" % (n, len(rows[n]), ok, secs[n]))
best = sorted((p for p, r in rows["serial"].items() if r["outcome"] == "ok"), key=lambda p: -rows["serial"][p]["gflops"])[:10]
print("GFLOPS (% of the vendor BLAS on the same GPU, timed by the ranks)")
print("%-44s %10s %18s %18s" % ("parameters", "serial", "1 rank", "2 ranks"))
def cell(r):
    if not r or r["outcome"] != "ok":
        return "-"
    v = r.get("vendor_gflops")
    return "%.0f" % r["gflops"] + (" (%.0f%%)" % (100 * r["gflops"] / v) if v else "")
for p in best:
    print("%-44s %10s %18s %18s" % (p, *[cell(rows[n].get(p)) for n in runs]))
PY
for n in serial one two; do tail -n 1 "$out/$n.log"; done
grep -E '^(simulated|recorded|expected|  )' "$out/simulated.log"
