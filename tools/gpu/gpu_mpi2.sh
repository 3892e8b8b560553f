#!/bin/sh
# On a machine with two GPUs of one host (device kinds nvidia-h200-x2, nvidia-h100-x2):
# gemmtop sweep --mpi with one rank a GPU against the serial sweep of the same space on
# one GPU, through CUDA at 4096, for
#   fast02   fast02_warptile, float, every configuration with GROUP=8 AMAP=1 PADA=0
#   tensor05 tensor05_warptile, half, every configuration with GROUP=8 SWZ=1 PREFETCH=1 STAGES=3
# then rank 1 killed with SIGKILL mid-sweep (tensor05's space), twice:
#   recovery under mpirun --enable-recovery: rank 0 finishes the sweep alone; the same
#            command run again then takes everything from the store
#   plain    under plain mpirun: the job ends; the same command resumes and measures the rest
# Each sweep has its own results store and compile caches (gemmtop's and the driver's), so
# that each compiles from nothing. Short table last; logs, CSV and JSON under $1 (default
# $OUT), and all of them in mpi2.tgz. PARTS chooses among fast02 tensor05 recovery plain
# (default all); DEADLINE (seconds, default 540) skips what would start after it; FAST and
# TENSOR replace the two spaces (a smoke test without a GPU: both on PoCL, tiny).
# Open MPI: tools/gpu/gpu_mpi_env.sh says where it comes from.
. tools/gpu/gpu_mpi_env.sh
[ -e /dev/nvidia0 ] && . tools/gpu/gpu_setup.sh
unset GEMMTOP_STORE
out=${1:-$OUT}
B=$PWD/build/gemmtop
T0=$(date +%s)
DEADLINE=${DEADLINE:-540}
FAST=${FAST:-"--backend cuda --kernel fast02_warptile --size 4096 --exhaustive --set GROUP=8 --set AMAP=1 --set PADA=0 --seed 5 --timeout 5"}
TENSOR=${TENSOR:-"--backend cuda --kernel tensor05_warptile --precision half --size 4096 --exhaustive --set GROUP=8 --set SWZ=1 --set PREFETCH=1 --set STAGES=3 --seed 6 --timeout 5"}

command -v nvidia-smi >/dev/null &&
   nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$out/gpus.txt"
nm "$B" | grep -q ' U MPI_Init' || echo "gpu_mpi2.sh: $B was built without MPI (or its libmpi is missing here)"
$MPIRUN --version 2>&1 | head -n 1

late() { [ $(($(date +%s) - T0)) -gt "$DEADLINE" ] && echo "skipped $1: past the deadline" && return 0; return 1; }

# sweep NAME SPACE [mpirun ...]: one sweep with its own caches and store; results in
# $out/NAME.json and .csv, stderr in .log (with the exit code), wall seconds in .s.
sweep() {
   name=$1 space=$2
   shift 2
   late "$name" && return
   mpi=""
   [ $# -gt 0 ] && mpi=--mpi
   start=$(date +%s.%N)
   # shellcheck disable=SC2086 # the spaces are lists of options
   XDG_CACHE_HOME=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d) "$@" $B sweep $mpi $space \
      --format json --save "$out/$name.csv" >"$out/$name.json" 2>"$out/$name.log"
   echo "rc $?" >>"$out/$name.log"
   python3 -c 'import sys; print(float(sys.argv[1]) - float(sys.argv[2]))' "$(date +%s.%N)" "$start" >"$out/$name.s"
}

# rows DB: the results the store holds.
rows() {
   python3 -c 'import sqlite3, sys
try:
    print(sqlite3.connect(sys.argv[1]).execute("select count(*) from results").fetchone()[0])
except Exception:
    print(0)' "$1"
}
# killed NAME [mpirun options]: tensor05's space on two GPUs, rank 1 killed once the store
# holds 10 results, then the same command again with the same store.
killed() {
   name=$1
   shift
   late "$name" && return
   data=$(mktemp -d)
   cache=$(mktemp -d)
   # shellcheck disable=SC2086
   XDG_CACHE_HOME=$cache XDG_DATA_HOME=$data $MPIRUN "$@" -np 2 $B sweep --mpi $TENSOR --format json \
      >"$out/$name.json" 2>"$out/$name.log" &
   mp=$!
   i=0
   while [ "$(rows "$data/gemmtop/results.db")" -lt 10 ] && [ $i -lt 1200 ] && kill -0 $mp 2>/dev/null; do
      sleep 0.1
      i=$((i + 1))
   done
   before=$(rows "$data/gemmtop/results.db")
   victim=""
   for p in $(pgrep -P $mp); do
      tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1 && victim=$p
   done
   [ -n "$victim" ] && kill -KILL "$victim"
   wait $mp
   rc=$?
   after=$(rows "$data/gemmtop/results.db")
   echo "$name: rank 1 (pid ${victim:-not found}) killed with $before results stored; mpirun exit $rc; $after stored after" \
      | tee "$out/$name.txt"
   late "$name-again" && return
   # shellcheck disable=SC2086
   XDG_CACHE_HOME=$cache XDG_DATA_HOME=$data $MPIRUN -np 2 $B sweep --mpi $TENSOR --format json \
      >"$out/$name-again.json" 2>"$out/$name-again.log"
   echo "$name, the same command again: exit $?, $(rows "$data/gemmtop/results.db") stored;" \
      "$(tr '\r' '\n' <"$out/$name-again.log" | grep -o '[0-9]* of [0-9]* configurations taken from the store')" |
      tee -a "$out/$name.txt"
}

PARTS=${PARTS:-fast02 tensor05 recovery plain}
for part in $PARTS; do
   case $part in
   fast02 | tensor05)
      eval "space=\$$(echo $part | sed 's/02//; s/05//' | tr a-z A-Z)"
      sweep $part-serial "$space"
      sweep $part-two "$space" $MPIRUN -np 2
      ;;
   recovery) killed recovery --enable-recovery ;;
   plain) killed plain ;;
   *) echo "gpu_mpi2.sh: no part named '$part': fast02, tensor05, recovery or plain" >&2; exit 2 ;;
   esac
done

python3 - "$out" <<'PY'
import json, os, statistics, sys
out = sys.argv[1]
def load(name):
    p = os.path.join(out, name + ".json")
    if not os.path.exists(p):
        return None
    rows = [json.loads(l) for l in open(p) if l.startswith("{")]
    return {" ".join("%s=%s" % kv for kv in r["params"].items()): r for r in rows}
def secs(name):
    p = os.path.join(out, name + ".s")
    return float(open(p).read()) if os.path.exists(p) else None
print("\n== serial sweep on one GPU against two ranks, one a GPU (CUDA, 4096)")
for space in ("fast02", "tensor05"):
    s, t = load(space + "-serial"), load(space + "-two")
    if not s or not t:
        print(space + ": not run")
        continue
    same = set(s) == set(t) and all(s[p]["outcome"] == t[p]["outcome"] for p in s)
    ok = [p for p in s if s[p]["outcome"] == "ok" and t.get(p, {}).get("outcome") == "ok"]
    ratio = sorted(t[p]["gflops"] / s[p]["gflops"] for p in ok)
    q = lambda f: ratio[min(len(ratio) - 1, int(f * len(ratio)))] if ratio else 0
    print("%s: %d configurations; the same configurations and outcomes: %s; verified %d serial, %d two ranks"
          % (space, len(s), "yes" if same else "NO", sum(r["outcome"] == "ok" for r in s.values()),
             sum(r["outcome"] == "ok" for r in t.values())))
    print("  wall: serial %.1f s, two ranks %.1f s: %.2fx" % (secs(space + "-serial"), secs(space + "-two"),
                                                             secs(space + "-serial") / secs(space + "-two")))
    print("  two ranks / serial, GFLOPS of each verified configuration: median %.3f, 10%% %.3f, 90%% %.3f"
          % (q(0.5), q(0.1), q(0.9)))
    vendors = {}
    for r in t.values():
        if r.get("vendor_gflops"):
            vendors[r["vendor_gflops"]] = vendors.get(r["vendor_gflops"], 0) + 1
    print("  cuBLAS timed on each GPU by its rank (GFLOPS: configurations that GPU measured): " +
          ", ".join("%.0f: %d" % kv for kv in sorted(vendors.items())))
    sv = [r.get("vendor_gflops") for r in s.values() if r.get("vendor_gflops")]
    print("  cuBLAS in the serial sweep: %s" % ("%.0f" % sv[0] if sv else "-"))
    best = sorted(ok, key=lambda p: -s[p]["gflops"])[:5]
    cell = lambda r: "%.0f" % r["gflops"] + (" (%.0f%%)" % (100 * r["gflops"] / r["vendor_gflops"]) if r.get("vendor_gflops") else "")
    print("  %-60s %16s %16s" % ("best five, GFLOPS (% cuBLAS on its GPU)", "serial", "two ranks"))
    for p in best:
        print("  %-60s %16s %16s" % (p, cell(s[p]), cell(t[p])))
print("\n== rank 1 killed mid-sweep (tensor05's space)")
for name in ("recovery", "plain"):
    p = os.path.join(out, name + ".txt")
    print(open(p).read().rstrip() if os.path.exists(p) else name + ": not run")
    log = os.path.join(out, name + ".log")
    if os.path.exists(log):
        for line in open(log).read().replace("\r", "\n").splitlines():
            if line.startswith("gemmtop:") or "gemmtop: rank" in line:
                print("  " + line[line.index("gemmtop:"):])
    r = load(name)
    if r:
        print("  %s printed %d results, %d verified" % (name, len(r), sum(x["outcome"] == "ok" for x in r.values())))
PY
grep -H '^rc ' "$out"/*.log
echo "took $(($(date +%s) - T0)) s"
(cd "$out" && tar czf mpi2.tgz --exclude mpi2.tgz -- *)
