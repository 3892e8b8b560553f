#!/bin/sh
# Cold-L2 timing (--cold-l2) on PoCL at a small size: every report says warm or cold L2;
# the cold run rotates copies of the operands the kernel reads as uploaded (a small L2
# simulated by GEMMTOP_DEVICE_LIMITS) or flushes when it reads both as a helper wrote them;
# the verified result is the same as the warm run's. PoCL has no driver observer: its JSON says null, its table nothing.
. "$(dirname "$0")/lib.sh"

run_gemmtop run --preset 01-naive --size 64 --seed 7 --format json --out "$T_DIR/warm.npy"
expect_rc 0 "a warm run"
[ "$(json_field l2)" = warm ] && [ "$(json_field cold_l2)" = false ] && ok "its JSON says warm L2" ||
   not_ok "warm JSON" "$OUT"
[ "$(json_field sm_mhz)" = null ] && [ "$(json_field energy_j)" = null ] && [ "$(json_field throttled)" = null ] &&
   ok "no observer on PoCL: the driver's figures are null" || not_ok "observations on PoCL" "$OUT"

run_gemmtop run --preset 01-naive --size 64 --seed 7
expect_in "warm L2)" "$OUT" "the table says warm L2"
case "$OUT" in *"driver  "* | *"n/a"*) not_ok "no driver line without an observer" "$OUT" ;; *) ok "no driver line without an observer" ;; esac

GEMMTOP_DEVICE_LIMITS=l2=65536 run_gemmtop run --preset 01-naive --size 64 --seed 7 --cold-l2 --out "$T_DIR/cold.npy"
expect_rc 0 "a cold run with a 64 KiB L2"
expect_in "cold L2)" "$OUT" "the table says cold L2"
expect_in "cold L2    rotating 5 copies of A and B (160 KiB; L2 64 KiB)" "$OUT" "it rotates enough copies to pass twice the L2"
expect_in "verify     verified" "$OUT" "the cold run is verified"
cmp -s "$T_DIR/warm.npy" "$T_DIR/cold.npy" && ok "the cold run's C is the warm run's" ||
   not_ok "cold and warm results differ" "$(ls -l "$T_DIR"/*.npy)"

GEMMTOP_DEVICE_LIMITS=l2=65536 run_gemmtop run --preset 01-naive --size 64 --cold-l2 --beta 0.5 --format json
expect_rc 0 "a cold run that reads C"
[ "$(json_field l2)" = cold ] && [ "$(json_field verified)" = true ] && ok "its JSON says cold L2, verified" ||
   not_ok "cold JSON" "$OUT"

# The transposing kernel reads B as a helper just wrote it (in the L2 whatever is done) and
# A as uploaded: copies of A alone, no flush (a flush leaves the L2 full of written lines,
# whose write-back slows the launch: a decode on the H200 lost 15 points of the copy
# bandwidth to it).
GEMMTOP_DEVICE_LIMITS=l2=65536 run_gemmtop run --preset 05-transposed-pad0 --size 64 --cold-l2
expect_rc 0 "a cold run of a kernel with a helper for B"
expect_in "cold L2    rotating 9 copies of A; B as a helper writes it (144 KiB; L2 64 KiB)" "$OUT" \
   "it rotates copies of the operand read as uploaded"
expect_in "verify     verified" "$OUT" "that run is verified"
# A kernel that pads both operands at an odd size reads neither as uploaded: a flush.
GEMMTOP_DEVICE_LIMITS=l2=65536 run_gemmtop run --preset fast-02-warptile-small --size 65 --cold-l2
expect_rc 0 "a cold run of a kernel that pads A and B"
expect_in "cold L2    writing 128 KiB before each launch (L2 64 KiB)" "$OUT" "it flushes between launches"
expect_in "verify     verified" "$OUT" "the flushed run is verified"

GEMMTOP_DEVICE_LIMITS=l2=65536 run_gemmtop bench 01-naive --sizes 64 --rounds 1 --cold-l2 --save "$T_DIR/b.csv"
expect_rc 0 "bench --cold-l2"
expect_in "cold L2" "$(printf '%s\n' "$OUT" | head -n 1)" "the bench table says cold L2"
python3 - "$T_DIR/b.csv" <<'PY' && ok "its CSV says cold L2" || not_ok "bench CSV" "$(cat "$T_DIR/b.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["l2"] == "cold" and r["verified"] == "true" for r in rows), rows
assert all(r["sm_mhz"] == "" for r in rows), rows
PY

GEMMTOP_DEVICE_LIMITS=l2=65536 run_gemmtop sweep --kernel mygemm01_naive --size 64 --budget 1 --cold-l2
expect_rc 0 "sweep --cold-l2"
expect_in "timed with a cold L2" "$OUT" "the sweep says cold L2"

GEMMTOP_DEVICE_LIMITS=l2=lots run_gemmtop run --preset 01-naive --size 64 --cold-l2
expect_rc 2 "a malformed simulated L2 is a usage error"
expect_in "l2=lots" "$ERR" "the bad value is named"
finish
