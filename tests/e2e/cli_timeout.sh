#!/bin/sh
# Launches that do not end: test_slow (tests/kernels) spins for hours with SPIN=1. A run
# with --max-seconds and a sweep with --timeout each abandon such a launch and end (the
# sweep goes on with the next configuration in a fresh child process); neither hangs. `timeout 60` stands for the user who would otherwise kill
# them: its exit status 124 means gemmtop hung. On PoCL's CPU (POCL), never on a GPU that
# the machine prefers: a launch that spins for hours would hold it.
. "$(dirname "$0")/lib.sh"
use_test_kernels

timeout 60 "$GEMMTOP_BIN" run $POCL --kernel test_slow --size 16 --max-seconds 2 >"$T_DIR/out" 2>"$T_DIR/err"
RC=$?
OUT=$(cat "$T_DIR/out")
ERR=$(cat "$T_DIR/err")
[ "$RC" != 124 ] && ok "run --max-seconds 2 of a launch that never ends: gemmtop ends" || not_ok "run hung" "$OUT $ERR"
expect_rc 1 "the run fails"
expect_in "did not finish within 2 s: abandoned" "$ERR" "saying the launch was abandoned"
expect_in "status     timeout" "$OUT" "the report's status is timeout"

timeout 60 "$GEMMTOP_BIN" run $POCL --kernel test_slow --set SPIN=0 --size 16 --max-seconds 2 --reps 2 >"$T_DIR/out" 2>&1
RC=$?
expect_rc 0 "the same kernel without the spin verifies within --max-seconds"

# The sweep meets SPIN=1 first (its default), abandons it after --timeout, and measures
# SPIN=0 in a fresh child process.
timeout 60 "$GEMMTOP_BIN" sweep $POCL --kernel test_slow --size 16 --exhaustive --timeout 2 --save "$T_DIR/s.csv" \
   >"$T_DIR/out" 2>"$T_DIR/err"
RC=$?
OUT=$(cat "$T_DIR/out")
ERR=$(cat "$T_DIR/err")
[ "$RC" != 124 ] && ok "sweep --timeout 2 with a launch that never ends: gemmtop ends" || not_ok "sweep hung" "$OUT $ERR"
expect_rc 0 "the sweep succeeds with the configuration that ends"
if python3 - "$T_DIR/s.csv" <<'PY'
import csv, sys
rows = {r["params"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["SPIN=1"]["outcome"] == "timeout", rows
assert "did not end within --timeout 2 s" in rows["SPIN=1"]["reason"], rows
assert rows["SPIN=0"]["outcome"] == "ok" and float(rows["SPIN=0"]["gflops"]) > 0, rows
PY
then ok "SPIN=1 timed out, then SPIN=0 was measured and verified"; else not_ok "sweep outcomes" "$(cat "$T_DIR/s.csv")"; fi
expect_in "1 ok, 0 compile failed, 0 wrong result, 1 timeout" "$OUT" "the summary counts the timeout"

finish
