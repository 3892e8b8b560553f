#!/bin/sh
# Verdicts that name their cause, through the real program on PoCL with the test kernel
# tests/kernels/test_misbehave.cl, which computes C right and with BUG > 0 does one thing
# more: writes just outside C, A or B (the session's guard zones, read back after the
# checked launch and after every timed one), computes NaN, or leaves a column unwritten
# (told apart by the bits C was poisoned with). And the figures JSON gives with them
# (schema 2): each check's ratio in a field of its own, a refused run's emulated null.
. "$(dirname "$0")/lib.sh"
use_test_kernels

MIS="--kernel test_misbehave --size 64 --reps 3 --warmup 1"
not_said() { case "$2" in *"$1"*) not_ok "$3" "$2" ;; *) ok "$3" ;; esac; }

run_gemmtop run $MIS --format json
expect_rc 0 "BUG=0 (the right C, nothing more) runs"
[ "$(json_field verified)" = true ] && ok "and verifies" || not_ok "BUG=0 verifies" "$OUT $ERR"
[ "$(json_field schema)" = 2 ] && ok "JSON schema 2" || not_ok "JSON schema 2" "$OUT"
if printf '%s\n' "$OUT" | python3 -c 'import json,sys
o=json.loads(sys.stdin.readline())
sys.exit(0 if 0 <= o["freivalds_ratio"] <= 1 and 0 <= o["outlier_ratio"] <= 1 and o["non_finite"] == 0
         and o["unwritten"] == 0 else 1)'; then
   ok "freivalds_ratio and outlier_ratio each within its bound, nothing unwritten"
else
   not_ok "the verification's fields" "$OUT"
fi

# Writes just outside C: the checked launch finds them, and so do the timed launches when
# nothing is checked (--no-verify); in double, transposed, the offsets are double elements.
OUTSIDE_C="wrote outside C at offset -3 (before its start) and at offset 4103 (past its end); C holds 4096 elements"
run_gemmtop run $MIS --set BUG=1
expect_rc 1 "BUG=1 (writes C[M*N+7] and C[-3]) fails"
expect_in "verify     FAILED: $OUTSIDE_C" "$OUT" "the verdict says where it wrote"
expect_in "gemmtop: wrong result: FAILED: $OUTSIDE_C" "$ERR" "and so does the error"
run_gemmtop run $MIS --set BUG=1 --no-verify
expect_rc 1 "BUG=1 with --no-verify fails too: the timed launches are checked"
expect_in "$OUTSIDE_C" "$ERR" "saying where"
run_gemmtop run --kernel test_misbehave --set BUG=1 -m 40 -n 24 -k 30 --precision double --layout TT --reps 1 \
   --format json
expect_rc 1 "BUG=1 in double, TT, 40x24x30 fails"
[ "$(json_field verified)" = false ] && [ "$(json_field status)" = "wrong result" ] &&
   ok "JSON: not verified, a wrong result" || not_ok "JSON of a write outside C" "$OUT"
expect_in "wrote outside C at offset -3 (before its start) and at offset 967 (past its end); C holds 960 elements" \
   "$(json_field message)" "the offsets count double elements (40*24 + 7)"
for spec in "2:wrote outside A at offset -2 (before its start); A holds 4096 elements" \
   "3:wrote outside B at offset 4097 (past its end); B holds 4096 elements"; do
   run_gemmtop run $MIS --set BUG="${spec%%:*}"
   expect_rc 1 "BUG=${spec%%:*} (a write outside an input) fails"
   expect_in "${spec#*:}" "$OUT" "saying where"
done
# A sweep measures each configuration in its child process: the same check, and the right
# configuration beside the wrong ones still verifies.
run_gemmtop sweep --kernel test_misbehave --size 64 --exhaustive --no-store
expect_in "1 ok, 0 compile failed, 5 wrong result" "$OUT" "a sweep over BUG: one right, five wrong"
expect_in "skipped BUG=1: wrong result: FAILED: $OUTSIDE_C" "$OUT" "naming the writes outside C"

# A NaN the kernel computed is not "not written"; an element left unwritten is.
run_gemmtop run $MIS --set BUG=4 --format json
expect_rc 1 "BUG=4 (NaN in row 1) fails"
expect_in "64 elements NaN, computed by the kernel (not left unwritten), first at (1,0)" "$(json_field message)" \
   "the NaN is called computed"
not_said "not written" "$(json_field message)" "not called unwritten"
[ "$(json_field non_finite)" = 64 ] && [ "$(json_field unwritten)" = 0 ] && ok "JSON: 64 non-finite, 0 unwritten" ||
   not_ok "JSON counts of BUG=4" "$OUT"
run_gemmtop run $MIS --set BUG=5 --format json
expect_rc 1 "BUG=5 (column 2 unwritten) fails"
expect_in "64 elements not written (NaN), first at (0,2)" "$(json_field message)" "the column is called unwritten"
[ "$(json_field non_finite)" = 64 ] && [ "$(json_field unwritten)" = 64 ] && ok "JSON: 64 non-finite, 64 unwritten" ||
   not_ok "JSON counts of BUG=5" "$OUT"

# A run refused before its configuration was resolved says nothing of how it would have run.
run_gemmtop run --kernel fp8mma1_scaled --precision e4m3 --scaling block --set PROMOTE=0 --size 128 --format json
expect_rc 2 "PROMOTE=0 with block scales is refused"
[ "$(json_field emulated)" = null ] && ok "its JSON's emulated is null, not false" || not_ok "emulated of a refused run" "$OUT"
run_gemmtop run --kernel fp8mma1_scaled --precision e4m3 --scaling tensor --size 64 --reps 1 --warmup 0 --format json
[ "$(json_field emulated)" = true ] && ok "a run that happened on PoCL says emulated: true" ||
   not_ok "emulated of an emulated run" "$OUT $ERR"
finish
