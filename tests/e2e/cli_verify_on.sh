#!/bin/sh
# Where C is checked (issue 44, --verify-on): gemmtop's own kernels on the device
# (kernels/helpers/verify.cl: C x, y^T C, the non-finite elements and the sampled entries
# computed there, only vectors read back) and the host's passes over C read back must give
# the same verdict, word for word, on right kernels and on every kind of wrong one: a term
# dropped, one element unwritten, infinite or slightly off, a wrong k-step, rounding or
# element in the 16-bit and FP8 types, in float and double, with beta (C0) and without.
# On PoCL (a CPU) auto checks on the host; a device without FP64 falls back to the host
# and says so; the vendor library's C is checked on the device too; --out writes the same
# C either way.
. "$(dirname "$0")/lib.sh"
use_test_kernels
# and the element types' test kernels (types_scalar, types_fp8)
GEMMTOP_KERNELS="$GEMMTOP_KERNELS:$(cd "$(dirname "$0")/../kernels/types" && pwd)"
export GEMMTOP_KERNELS

# verdict_of: "status|non_finite/unwritten|verified_on|message" of the JSON line in OUT.
verdict_of() {
   printf '%s\n' "$OUT" | python3 -c 'import json,sys
o = json.loads(sys.stdin.readline())
print("%s|%s/%s|%s|%s" % (o["status"], o.get("non_finite", "-"), o.get("unwritten", "-"), o.get("verified_on", "-"),
                          o["message"]))'
}

# same LABEL WANT_RC ARGS...: the run checked on the host, then on the device, same verdict.
same() {
   label=$1 want=$2
   shift 2
   run_gemmtop run "$@" --reps 1 --warmup 0 --seed 44 --verify-on host --format json
   rc_host=$RC
   host=$(verdict_of 2>&1)
   run_gemmtop run "$@" --reps 1 --warmup 0 --seed 44 --verify-on device --format json
   rc_dev=$RC
   dev=$(verdict_of 2>&1)
   # The verdicts without where each was checked, which must differ.
   h=$(printf '%s' "$host" | awk -F'|' '{print $1 "|" $2 "|" $4}')
   d=$(printf '%s' "$dev" | awk -F'|' '{print $1 "|" $2 "|" $4}')
   where_h=$(printf '%s' "$host" | cut -d'|' -f3) where_d=$(printf '%s' "$dev" | cut -d'|' -f3)
   if [ "$rc_host" -eq "$want" ] && [ "$rc_dev" -eq "$want" ] && [ "$h" = "$d" ] && [ "$where_h" = host ] &&
      [ "$where_d" = device ]; then
      ok "$label: the same verdict on the host and on the device: $(printf '%s' "$h" | cut -c1-110)"
   else
      not_ok "$label: exit $rc_host and $rc_dev (want $want)" "host:   $host
device: $dev
$ERR"
   fi
}

ODD="-m 97 -n 131 -k 77"
same "right, float" 0 --kernel test_holes --set HOLE=0 $ODD
same "right, float, alpha and beta" 0 --kernel test_holes --set HOLE=0 $ODD --alpha 0.75 --beta -1.5 --layout TN
same "right, double" 0 --kernel test_holes --set HOLE=0 $ODD --precision double --layout NT
same "one element unwritten (the poison)" 1 --kernel test_holes --set HOLE=1 $ODD
same "one element infinite" 1 --kernel test_holes --set HOLE=2 $ODD
same "one element off by 1e-3 of itself" 1 --kernel test_holes --set HOLE=3 $ODD
same "one element off, double, beta" 1 --kernel test_holes --set HOLE=3 $ODD --precision double --beta 2
same "one element unwritten, double" 1 --kernel test_holes --set HOLE=1 $ODD --precision double
same "the last term of each sum dropped" 1 --kernel test_broken --size 64
same "one term of 60000 dropped (sampled entries)" 1 --kernel test_broken -m 16 -n 16 -k 60000
# The poison's bits tell an unwritten element from a NaN the kernel computed on the device
# too, and the guard zones around C are read back wherever C is checked.
same "a column unwritten (test_misbehave BUG=5)" 1 --kernel test_misbehave --set BUG=5 $ODD
same "a column unwritten, double" 1 --kernel test_misbehave --set BUG=5 $ODD --precision double --layout TN
same "a row of NaN computed (BUG=4)" 1 --kernel test_misbehave --set BUG=4 $ODD
same "a row of NaN computed, double" 1 --kernel test_misbehave --set BUG=4 $ODD --precision double
run_gemmtop run --kernel test_misbehave --set BUG=1 $ODD --reps 1 --warmup 0 --verify-on device
expect_rc 1 "writes outside C (BUG=1) fail with C checked on the device"
expect_in "wrote outside C at offset -3 (before its start) and at offset 12714 (past its end)" "$ERR" "saying where (97*131 + 7)"
for spec in "1 half" "2 tf32" "2 bfloat16" "3 bfloat16"; do
   set -- $spec
   same "types_scalar BUG=$1 $2, alpha and beta" 1 --kernel types_scalar --set BUG="$1" -m 37 -n 29 -k 19 \
      --precision "$2" --alpha 0.75 --beta -1.5
done
same "types_scalar half, right" 0 --kernel types_scalar -m 37 -n 29 -k 19 --precision half --alpha 0.75 --beta -1.5
for spec in "1 e4m3 block" "2 e5m2 tensor" "4 e4m3 block"; do
   set -- $spec
   same "types_fp8 BUG=$1 $2 $3" 1 --kernel types_fp8 --set BUG="$1" --precision "$2" --scaling "$3" -m 37 -n 133 -k 1000
done
same "types_fp8 e4m3 block, right" 0 --kernel types_fp8 --precision e4m3 --scaling block -m 37 -n 133 -k 300

# Where, in words: the table's line, auto on a CPU device, a device without FP64.
run_gemmtop run --kernel test_holes --set HOLE=0 $ODD --reps 1 --warmup 0 --verify-on device
expect_rc 0 "--verify-on device verifies"
expect_in "checked on the device" "$OUT" "the table says where C was checked"
run_gemmtop run --kernel test_holes --set HOLE=0 $ODD --reps 1 --warmup 0
expect_in "checked on the host (the device is the host's processor)" "$OUT" "auto checks on the host on PoCL, saying why"
# An unwritten element (HOLE=1): the host finds the poison whatever the seed draws (one
# element off by a thousandth, HOLE=3, stands out of its column's sums only for most seeds).
export GEMMTOP_DEVICE_LIMITS=fp64=0
run_gemmtop run --kernel test_holes --set HOLE=1 $ODD --reps 1 --warmup 0 --verify-on device
unset GEMMTOP_DEVICE_LIMITS
expect_rc 1 "without FP64 the wrong element is still found"
expect_in "checked on the host (the device has no FP64 for the check's sums)" "$OUT" "on the host, saying why"
run_gemmtop run --kernel test_holes --size 64 --verify-on nowhere
expect_rc 2 "--verify-on nowhere is a usage error"
expect_in "use auto, device or host" "$ERR" "naming what it takes"

# Verification kernels that do not build (a damaged installation): the host checks C, and
# the report says why, instead of failing a right kernel.
cp -R "${GEMMTOP_KERNELS%%:*}" "$T_DIR/kernels"
echo 'this is not OpenCL C' >>"$T_DIR/kernels/helpers/verify.cl"
saved=$GEMMTOP_KERNELS
GEMMTOP_KERNELS="$T_DIR/kernels:${GEMMTOP_KERNELS#*:}"
run_gemmtop run --kernel test_holes --set HOLE=0 $ODD --reps 1 --warmup 0 --verify-on device
expect_rc 0 "a right kernel verifies when the verification kernels do not build"
expect_in "checked on the host (the verification kernels did not build:" "$OUT" "on the host, saying why"
run_gemmtop run --kernel test_holes --set HOLE=1 $ODD --reps 1 --warmup 0 --verify-on device
expect_rc 1 "and a wrong one still fails"
GEMMTOP_KERNELS=$saved

# The vendor library's C is checked where a kernel's is.
run_gemmtop run --kernel mygemm01_naive -m 96 -n 80 -k 64 --reps 1 --warmup 0 --vendor --verify-on device --format json
[ "$RC" -eq 0 ] && [ "$(json_field vendor_verified)" = true ] &&
   ok "the vendor library's C verifies on the device ($(json_field vendor))" ||
   not_ok "the vendor library's C on the device (exit $RC)" "$OUT
$ERR"

# --out: the verified C, read straight into the file's buffer after a check on the device,
# equals the host path's bit for bit (test_drift's later launches change C: only the
# checked launch's C is right, and that is the one written).
for on in host device; do
   run_gemmtop run --kernel test_drift $ODD --reps 3 --seed 7 --verify-on "$on" --out "$T_DIR/c_$on.npy"
   expect_rc 0 "test_drift --out, checked on the $on"
done
if cmp -s "$T_DIR/c_host.npy" "$T_DIR/c_device.npy"; then
   ok "--out writes the same verified C whether checked on the host or on the device"
else
   not_ok "--out differs between --verify-on host and device" "$(ls -l "$T_DIR"/c_*.npy)"
fi

finish
