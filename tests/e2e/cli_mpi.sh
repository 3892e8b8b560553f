#!/bin/sh
# gemmtop sweep --mpi under a real mpirun, three ranks on PoCL's CPU device: the same
# configurations and verified results as the serial sweep of the same space; a rank
# killed mid-sweep loses nothing that reached rank 0 and the same command resumes, and
# under mpirun --enable-recovery the other ranks finish the sweep without it; Ctrl-C
# (SIGINT to mpirun) stops every rank and leaves no process behind; 65 simulated ranks
# take 100,000 configurations from rank 0 in well under a minute. And a gemmtop built
# without MPI says how to get it.
. "$(dirname "$0")/lib.sh"
use_test_kernels

# Open MPI refuses root unless told (CI may run as root); no core binding on a shared
# machine; a waiting rank yields its core (the ranks outnumber the cores); no single-copy
# shared memory (CMA), which containers without ptrace refuse.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
MPIRUN="mpirun --oversubscribe --bind-to none"
# The space: 19 valid configurations, small enough to compile and run at once on PoCL.
# A long timeout: three ranks share two busy cores, and a timeout is not what is tested.
SPACE="--kernel mygemm03_wpt --size 64 --exhaustive --timeout 120"

# rows DB [WHERE]: the results the store holds (0 when it is not there yet).
rows() {
   python3 -c 'import sqlite3, sys
try:
    print(sqlite3.connect(sys.argv[1]).execute("select count(*) from results" + sys.argv[2]).fetchone()[0])
except Exception:
    print(0)' "$1" "${2:-}"
}
# wait_rows DB N SECONDS: waits until the store holds at least N results.
wait_rows() {
   _i=0
   while [ "$(rows "$1")" -lt "$2" ] && [ $_i -lt $(($3 * 10)) ]; do
      sleep 0.1
      _i=$((_i + 1))
   done
   [ "$(rows "$1")" -ge "$2" ]
}
# rank_pid MPIRUN_PID RANK: the process of that rank (mpirun starts them on this node).
rank_pid() {
   for _p in $(pgrep -P "$1"); do
      if tr '\0' '\n' <"/proc/$_p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then
         echo "$_p"
         return
      fi
   done
}
# family MPIRUN_PID: the ranks and their measuring children.
family() {
   for _p in $(pgrep -P "$1"); do
      echo "$_p"
      pgrep -P "$_p"
   done
}
# gone PIDS TENTHS: waits up to TENTHS tenths of a second for those processes to end;
# those still running are left in $left.
gone() {
   _i=0
   while [ $_i -lt "$2" ]; do
      left=""
      for _p in $1; do kill -0 "$_p" 2>/dev/null && left="$left $_p"; done
      [ -z "$left" ] && return 0
      sleep 0.1
      _i=$((_i + 1))
   done
   return 1
}
# ok_set FILE: each configuration's parameters and outcome from a --format csv table.
ok_set() { python3 -c 'import csv, sys
print("\n".join(sorted(r["params"] + " " + r["outcome"] for r in csv.DictReader(open(sys.argv[1])))))' "$1"; }
# store_set DB: the same from the results store.
store_set() { python3 -c 'import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute("select params, outcome from results").fetchall()
print("\n".join(sorted(p + " " + o for p, o in rows)))' "$1"; }

# ---- a build without MPI (make builds it beside gemmtop: one file differs) ----
NOMPI="$(dirname "$GEMMTOP_BIN")/gemmtop-nompi"
if [ -x "$NOMPI" ]; then
   "$NOMPI" sweep --mpi $SPACE >"$T_DIR/out" 2>"$T_DIR/err"
   RC=$?
   OUT=$(cat "$T_DIR/out")
   ERR=$(cat "$T_DIR/err")
   expect_rc 2 "--mpi in a build without MPI is refused"
   expect_in "openmpi-bin libopenmpi-dev" "$ERR" "and says how to get MPI"
else
   ok "a build without MPI # SKIP $NOMPI was not built (make $(dirname "$GEMMTOP_BIN")/gemmtop-nompi)"
fi

if ! command -v mpirun >/dev/null 2>&1; then
   ok "sweep --mpi under mpirun # SKIP no mpirun (sh scripts/deps.sh test installs Open MPI)"
   finish
fi
if ! nm "$GEMMTOP_BIN" 2>/dev/null | grep -q ' U MPI_Init'; then
   ok "sweep --mpi under mpirun # SKIP $GEMMTOP_BIN was built without MPI (libopenmpi-dev was missing)"
   finish
fi

# ---- what --mpi does not take: a strategy that learns (it proposes a few at a time) ----
$MPIRUN -np 2 "$GEMMTOP_BIN" sweep --mpi $POCL $SPACE --strategy anneal >"$T_DIR/out" 2>"$T_DIR/err"
RC=$?
OUT=$(cat "$T_DIR/out")
ERR=$(cat "$T_DIR/err")
expect_rc 2 "sweep --mpi --strategy anneal is refused"
expect_in "exhaustive or random strategy" "$ERR" "and says what --mpi takes"

# ---- three ranks against the serial sweep ----
run_gemmtop sweep $SPACE --seed 11 --format csv --save "$T_DIR/recorded.csv"
expect_rc 0 "the serial sweep"
printf '%s\n' "$OUT" >"$T_DIR/serial.csv"
XDG_DATA_HOME="$T_DIR/three" $MPIRUN -np 3 "$GEMMTOP_BIN" sweep --mpi $POCL $SPACE --seed 11 --format csv \
   >"$T_DIR/mpi.csv" 2>"$T_DIR/mpi.err"
RC=$?
OUT=$(cat "$T_DIR/mpi.csv")
ERR=$(cat "$T_DIR/mpi.err")
expect_rc 0 "mpirun -np 3 gemmtop sweep --mpi"
expect_in "3 ranks measure" "$ERR" "three ranks measured"
serial=$(ok_set "$T_DIR/serial.csv")
mpi=$(ok_set "$T_DIR/mpi.csv")
if [ -n "$serial" ] && [ "$serial" = "$mpi" ] && [ "$(printf '%s\n' "$mpi" | grep -c ' ok$')" -eq 19 ]; then
   ok "the same 19 configurations, each verified, as the serial sweep"
else
   not_ok "the MPI sweep's configurations and outcomes differ from the serial sweep's" "serial:
$serial
mpi:
$mpi
$ERR"
fi
if [ "$(store_set "$T_DIR/three/gemmtop/results.db")" = "$mpi" ]; then
   ok "rank 0 wrote every result to the results store"
else
   not_ok "the store does not hold the results printed" "$(store_set "$T_DIR/three/gemmtop/results.db")"
fi

# ---- a rank killed mid-sweep; the same command resumes ----
DB="$T_DIR/killed/gemmtop/results.db"
# Many warm-up launches: each configuration takes a while (1500 of 64^3: about 2 s on
# PoCL), so the kill, which comes as soon as the first result is stored, comes mid-sweep.
# What is left after it runs on at that pace (the resumed and the recovered sweeps): more
# launches would only lengthen them.
SLOW="--seed 12 --warmup 1500"
XDG_DATA_HOME="$T_DIR/killed" $MPIRUN -np 3 "$GEMMTOP_BIN" sweep --mpi $POCL $SPACE $SLOW \
   >"$T_DIR/k.out" 2>"$T_DIR/k.err" &
MP=$!
if wait_rows "$DB" 1 300; then
   before=$(rows "$DB")
   kill -KILL "$(rank_pid "$MP" 1)"
   wait "$MP"
   RC=$?
   after=$(rows "$DB")
   if [ "$RC" -ne 0 ] && [ "$after" -ge "$before" ] && [ "$after" -lt 19 ]; then
      ok "rank 1 killed mid-sweep: the $after results measured before stayed in the store"
   else
      not_ok "after the kill: mpirun exit $RC, $before results before, $after after" "$(cat "$T_DIR/k.err")"
   fi
   XDG_DATA_HOME="$T_DIR/killed" $MPIRUN -np 3 "$GEMMTOP_BIN" sweep --mpi $POCL $SPACE $SLOW --format csv \
      >"$T_DIR/r.csv" 2>"$T_DIR/r.err"
   RC=$?
   ERR=$(cat "$T_DIR/r.err")
   expect_rc 0 "the same command again"
   expect_in "$after of 19 configurations taken from the store" "$ERR" "it resumed from the $after stored results"
   if [ "$(rows "$DB")" -eq 19 ] && [ "$(store_set "$DB")" = "$(ok_set "$T_DIR/r.csv")" ] &&
      [ "$(ok_set "$T_DIR/r.csv")" = "$serial" ]; then
      ok "and completed: 19 results, none measured twice, the serial sweep's outcomes"
   else
      not_ok "after the rerun the store holds $(rows "$DB") results" "$(store_set "$DB")
$ERR"
   fi
else
   kill "$MP" 2>/dev/null
   wait "$MP"
   not_ok "no result reached the store within 300 s" "$(cat "$T_DIR/k.err")"
fi

# ---- a rank killed under mpirun --enable-recovery: the others finish the sweep ----
# Open MPI keeps such a job going without the dead rank; rank 0 notices its silence (no
# beat for 20 s), gives its configuration to another rank, and ends the job once all is
# measured (MPI_Finalize would wait for the dead rank).
DB="$T_DIR/recovered/gemmtop/results.db"
XDG_DATA_HOME="$T_DIR/recovered" $MPIRUN --enable-recovery -np 3 "$GEMMTOP_BIN" sweep --mpi $POCL \
   $SPACE $SLOW --format csv >"$T_DIR/rec.csv" 2>"$T_DIR/rec.err" &
MP=$!
if wait_rows "$DB" 1 300; then
   victim=$(rank_pid "$MP" 1)
   procs=$(family "$MP")
   kill -KILL "$victim"
   wait "$MP"
   RC=$?
   ERR=$(tr '\r' '\n' <"$T_DIR/rec.err")
   if [ -n "$victim" ]; then
      ok "rank 1 killed mid-sweep under mpirun --enable-recovery (mpirun exit $RC)"
   else
      not_ok "rank 1 of mpirun $MP not found" "$ERR"
   fi
   expect_in "rank 1 has been silent for" "$ERR" "rank 0 noticed that rank 1 fell silent"
   expect_in "fell silent or did not answer: ending the job (every configuration has its result)" "$ERR" \
      "and ended the job once all was measured"
   [ "$RC" = 0 ] && ok "a sweep whose every configuration has its result ends 0 without the dead rank" ||
      not_ok "mpirun exit $RC after a complete sweep" "$ERR"
   if [ "$(ok_set "$T_DIR/rec.csv")" = "$serial" ] && [ "$(store_set "$DB")" = "$serial" ]; then
      ok "the other ranks measured all 19 configurations, the dead rank's too: the serial sweep's outcomes"
   else
      not_ok "after rank 1 died the sweep did not complete" "$(cat "$T_DIR/rec.csv")
$ERR"
   fi
   # the dead rank's measuring child ends once its measurement does (its input is closed)
   if gone "$procs" 1200; then
      ok "no process of the job is left"
   else
      not_ok "still running after the job:$left" "$(ps -o pid,args -p "$(echo $left | tr ' ' ,)")"
   fi
else
   kill "$MP" 2>/dev/null
   wait "$MP"
   not_ok "no result reached the store within 300 s" "$(cat "$T_DIR/rec.err")"
fi

# ---- Ctrl-C ----
DB="$T_DIR/interrupted/gemmtop/results.db"
XDG_DATA_HOME="$T_DIR/interrupted" $MPIRUN -np 3 "$GEMMTOP_BIN" sweep --mpi $POCL $SPACE --seed 13 --warmup 1500 \
   >"$T_DIR/i.out" 2>"$T_DIR/i.err" &
MP=$!
if wait_rows "$DB" 1 300; then
   # every rank measuring (a child each), then Ctrl-C
   _i=0
   while [ "$(family "$MP" | wc -l)" -lt 6 ] && [ $_i -lt 600 ]; do
      sleep 0.1
      _i=$((_i + 1))
   done
   procs=$(family "$MP")
   kill -INT "$MP"
   wait "$MP"
   RC=$?
   gone "$procs" 100
   if [ "$RC" -ne 0 ] && [ -z "$left" ] && [ "$(echo "$procs" | wc -w)" -ge 6 ]; then
      ok "Ctrl-C stopped mpirun (exit $RC), its 3 ranks and their measuring processes"
   else
      not_ok "after Ctrl-C: mpirun exit $RC; still running:$left (of $(echo $procs))" "$(cat "$T_DIR/i.err")"
   fi
   expect_in "the same command resumes" "$(cat "$T_DIR/i.err")" "rank 0 said how to go on"
else
   kill "$MP" 2>/dev/null
   wait "$MP"
   not_ok "no result reached the store within 300 s" "$(cat "$T_DIR/i.err")"
fi

# ---- 65 simulated ranks, 100,000 configurations ----
# The ranks launch nothing: they answer with the serial sweep's recorded times, so what is
# measured is rank 0 handing out and taking in (and 65 processes on the CI's two cores).
start=$(date +%s)
XDG_DATA_HOME="$T_DIR/sim" $MPIRUN -np 65 "$GEMMTOP_BIN" sweep --mpi --mpi-simulate "$T_DIR/recorded.csv" $POCL \
   --kernel test_wide --size 64 --budget 100000 --seed 14 >"$T_DIR/s.out" 2>"$T_DIR/s.err"
RC=$?
took=$(($(date +%s) - start))
ERR=$(cat "$T_DIR/s.err")
expect_rc 0 "65 simulated ranks"
expect_in "rank 0 handed out and took in 100000 configurations from 65 ranks" "$ERR" \
   "rank 0 handed out 100,000 configurations"
expect_in "tried 100000 of 161051 valid" "$(cat "$T_DIR/s.out")" "and reported every one"
if [ "$took" -lt 60 ]; then
   ok "in well under a minute ($took s)"
else
   not_ok "65 simulated ranks took $took s" "$ERR"
fi
printf '%s\n' "$ERR" | grep -E '^(simulated|recorded):' | sed 's/^/# /'
[ -f "$T_DIR/sim/gemmtop/results.db" ] && [ "$(rows "$T_DIR/sim/gemmtop/results.db")" -gt 0 ] &&
   not_ok "a simulated sweep wrote to the store"

finish
