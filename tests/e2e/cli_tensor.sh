#!/bin/sh
# The tensor ladder (kernels/tensor0*.cl) emulated on the default OpenCL device: every
# step in tf32, half and bfloat16 at an odd size with alpha and beta verifies and is
# labelled emulated; the broken tensor kernels (tests/kernels/tensor/) fail verification:
# a wrong fragment register, a dropped tile of k, TF32 inputs cut at the wrong bit.
# Small configurations (one or two warps) keep PoCL's compiles short; compiled programs
# stay in the suite's cache for the sanitizer pass, which runs each ladder step in one
# type (the types in turn) and all the rest.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# The shipped kernels (the first folder of GEMMTOP_KERNELS), then the broken tensor ones.
GEMMTOP_KERNELS="${GEMMTOP_KERNELS%%:*}:$ROOT/tests/kernels/tensor"
export GEMMTOP_KERNELS
SIZE="-m 37 -n 45 -k 27"

# check_run WHAT: the last run verified and was labelled emulated (or a GPU ran it for real).
check_run() {
   if [ "$RC" -eq 0 ] && [ "$(json_field verified)" = true ]; then
      if [ "$(json_field emulated)" = true ]; then
         ok "$1 verifies, labelled emulated ($(json_field message))"
      else
         ok "$1 verifies on $(json_field device) (tensor cores)"
      fi
   else
      not_ok "$1 (exit $RC)" "$OUT
$ERR"
   fi
}

steps="tensor01_global:WM=16,WN=16,WARPS_M=1,WARPS_N=2
tensor02_local:BM=32,BN=32,BK=32,WM=32,WN=16
tensor03_ldmatrix:BM=32,BN=32,BK=32,WM=32,WN=16,SWZ=0
tensor03_ldmatrix:BM=32,BN=32,BK=32,WM=32,WN=16,SWZ=1
tensor04_cpasync:BM=32,BN=32,BK=16,WM=32,WN=16,STAGES=3,SWZ=1
tensor05_warptile:BM=32,BN=64,BK=16,WM=32,WN=32,STAGES=2,SWZ=1,GROUP=4
tensor05_warptile:BM=32,BN=64,BK=32,WM=32,WN=32,STAGES=3,SWZ=0,GROUP=1,PREFETCH=0"
# Under the sanitizers gemmtop's code is the same for every step and type (the emulated
# kernels' results do not depend on how gemmtop was built, and the plain pass checks each
# step in each type): there step s runs in type number s mod 3 only, so each step once
# and each type two or three times.
t=0
for prec in tf32 half bfloat16; do
   s=0
   for step in $steps; do
      s=$((s + 1))
      [ -n "${GEMMTOP_SANITIZE:-}" ] && [ $((s % 3)) -ne $t ] && continue
      k=${step%%:*}
      sets=$(printf '%s' "${step#*:}" | sed 's/\([A-Z_]*=[0-9]*\)/--set \1/g; s/,/ /g')
      # shellcheck disable=SC2086
      run_gemmtop run --kernel "$k" $sets --precision "$prec" $SIZE --alpha 0.5 --beta 2 --reps 1 --format json
      check_run "$k ${step#*:} $prec"
   done
   t=$((t + 1))
done

# Operands stored transposed reach the kernel through the transposing helpers.
run_gemmtop run --kernel tensor05_warptile --set BM=32 --set BN=64 --set BK=16 --set WM=32 --set WN=32 --set STAGES=2 \
   --set SWZ=1 --set GROUP=4 --precision half $SIZE --layout TT --alpha 0.5 --beta 2 --reps 1 --format json
check_run "tensor05_warptile half, layout TT"
run_gemmtop run --kernel tensor01_global --set WM=16 --set WN=16 --set WARPS_M=1 --set WARPS_N=2 --precision bfloat16 \
   $SIZE --layout NT --alpha 0.5 --beta 2 --reps 1 --format json
check_run "tensor01_global bfloat16, layout NT"

# Positive inputs for the TF32 rounding test: there a wrong rounding moves every product
# the same way (on inputs of both signs the errors cancel under any tolerance).
python3 - "$T_DIR" <<'PY'
import random, struct, sys
def write(path, rows, cols, vals):
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    hdr += ' ' * (63 - (len(hdr) + 10) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode())
        f.write(struct.pack('<%df' % len(vals), *vals))
r = random.Random()
write(sys.argv[1] + '/a.npy', 37, 27, [r.uniform(1, 2) for _ in range(37 * 27)])
write(sys.argv[1] + '/b.npy', 27, 45, [r.uniform(1, 2) for _ in range(27 * 45)])
PY

# expect_failed WHAT: the last run was refused by verification (exit 1, not verified).
expect_failed() {
   if [ "$RC" -eq 1 ] && [ "$(json_field verified)" = false ] && [ "$(json_field status)" = "wrong result" ]; then
      ok "$1 fails verification ($(json_field message))"
   else
      not_ok "$1 should fail verification (exit $RC)" "$OUT
$ERR"
   fi
}
for prec in tf32 half bfloat16; do
   run_gemmtop run --kernel test_tensor_fragment --precision "$prec" $SIZE --alpha 0.5 --beta 2 --reps 1 --format json
   expect_failed "test_tensor_fragment $prec (A registers 1 and 2 swapped)"
done
run_gemmtop run --kernel test_tensor_kstep --precision half $SIZE --alpha 0.5 --beta 2 --reps 1 --format json
expect_failed "test_tensor_kstep half (last tile of k dropped)"
run_gemmtop run --kernel test_tensor_round --precision tf32 $SIZE --a "$T_DIR/a.npy" --b "$T_DIR/b.npy" --reps 1 \
   --format json
expect_failed "test_tensor_round tf32 (inputs cut to 7 fraction bits)"
# ... while the ladder, rounding right, passes on the same inputs.
run_gemmtop run --kernel tensor01_global --set WM=16 --set WN=16 --set WARPS_M=1 --set WARPS_N=2 --precision tf32 \
   $SIZE --a "$T_DIR/a.npy" --b "$T_DIR/b.npy" --reps 1 --format json
check_run "tensor01_global tf32 on the positive inputs"

# Step 5's TF32 options: the tensor cores computing C^T (TMMA: B's tile as the MMA's A
# operand, 8-byte fragment loads) with swizzled and with padded tiles, and ROUND=0, where
# the MMA cuts the FP32 words to TF32 itself (as wgmma does): that cut (10 fraction bits)
# passes on the positive inputs on which the 7-bit cut above fails.
T5="--kernel tensor05_warptile --set BM=32 --set BN=64 --set BK=16 --set WM=32 --set WN=32 --set STAGES=2"
# shellcheck disable=SC2086
run_gemmtop run $T5 --set TMMA=1 --precision tf32 $SIZE --alpha 0.5 --beta 2 --reps 1 --format json
check_run "tensor05_warptile tf32 TMMA=1 (C^T on the tensor cores), swizzled tiles"
# shellcheck disable=SC2086
run_gemmtop run $T5 --set TMMA=1 --set ROUND=0 --set SWZ=0 --set PREFETCH=0 --precision tf32 $SIZE --a "$T_DIR/a.npy" \
   --b "$T_DIR/b.npy" --reps 1 --format json
check_run "tensor05_warptile tf32 TMMA=1 ROUND=0, padded tiles, on the positive inputs"
for opt in TMMA=1 ROUND=0; do
   # shellcheck disable=SC2086
   run_gemmtop run $T5 --set $opt --precision half $SIZE --reps 1
   expect_rc 2 "tensor05_warptile refuses $opt in half"
   expect_in "tf32" "$ERR" "the refusal of $opt says it is for tf32"
done

# The bank view sees the emulated ldmatrix (16 bytes per address-giving lane): the plain
# fragment loads of step 2 conflict, the padded and the swizzled tiles of step 3 do not.
conflicts() { # SITE: conflicts at that site of the banks JSON in OUT
   printf '%s\n' "$OUT" | python3 -c 'import json,sys
o=json.loads(sys.stdin.read())
print(sum(x["conflicts"] for x in o["sites"] if x["site"] == int(sys.argv[1])))' "$1"
}
TILE="--set BM=32 --set BN=32 --set BK=32 --set WM=32 --set WN=16"
run_gemmtop banks --kernel tensor02_local $TILE --precision half $SIZE --format json
c2=$(conflicts 2)
[ "$RC" -eq 0 ] && [ "${c2:-0}" -gt 0 ] && ok "tensor02_local: the A fragment loads conflict ($c2 conflicts)" ||
   not_ok "tensor02_local banks: A fragment load conflicts '$c2' (exit $RC)" "$OUT
$ERR"
for swz in 0 1; do
   run_gemmtop banks --kernel tensor03_ldmatrix $TILE --set SWZ=$swz --precision half $SIZE --format json
   c2=$(conflicts 2)
   c3=$(conflicts 3)
   [ "$RC" -eq 0 ] && [ "$c2" = 0 ] && [ "$c3" = 0 ] && expect_in '"name":"A ldmatrix","kind":"load","width_bytes":16' "$OUT" \
      "tensor03_ldmatrix SWZ=$swz: ldmatrix traced as 16-byte loads, no bank conflict" ||
      not_ok "tensor03_ldmatrix SWZ=$swz banks: conflicts '$c2' '$c3' (exit $RC)" "$OUT
$ERR"
done
# With TMMA the B fragments are 8-byte loads of two neighbouring words of a k row; the
# TF32 swizzle puts the four rows a half-warp reads on different bank groups.
# shellcheck disable=SC2086
run_gemmtop banks $T5 --set TMMA=1 --precision tf32 $SIZE --format json
c3=$(conflicts 3)
[ "$RC" -eq 0 ] && [ "$c3" = 0 ] && expect_in '"name":"B fragment load","kind":"load","width_bytes":8' "$OUT" \
   "tensor05_warptile TMMA=1: B fragments traced as 8-byte loads, no bank conflict" ||
   not_ok "tensor05_warptile TMMA=1 banks: B conflicts '$c3' (exit $RC)" "$OUT
$ERR"

# Step 5 with more stages than OpenCL's 48 KiB hold: the same text takes its tiles from
# static local memory under OpenCL (six small stages verify here) and from dynamic shared
# memory under CUDA, where the H100 presets of three 64-deep stages of 256 x 128 take 144 KiB.
run_gemmtop run --kernel tensor05_warptile --set BM=32 --set BN=64 --set BK=16 --set WM=32 --set WN=32 --set STAGES=6 \
   --set SWZ=1 --set GROUP=4 --precision half $SIZE --alpha 0.5 --beta 2 --reps 1 --format json
check_run "tensor05_warptile half, six stages"
GEMMTOP_DEVICE_LIMITS=local_mem=49152 run_gemmtop run --preset tensor-5-warptile-h100-half-cuda $SIZE
expect_rc 2 "three 64-deep stages of 256 x 128 are refused on an OpenCL device of 48 KiB"
expect_in "needs 147456 bytes of local memory per group; this device has 49152" "$ERR" "saying what it needs and has"
if have_nvrtc; then
   run_gemmtop inspect --backend cuda --arch sm_90 --preset tensor-5-warptile-h100-half-cuda --code ptx
   expect_in "local mem  147456 B per work-group" "$OUT" "through CUDA the same preset compiles, 144 KiB of shared memory"
   expect_in ".extern .shared .align 16 .b8 gt_tiles[]" "$OUT" "held in dynamic shared memory (GT_DYNAMIC_SMEM)"
else
   ok "tensor-5-warptile-h100-half-cuda through CUDA # SKIP $(nvrtc_missing)"
   ok "held in dynamic shared memory # SKIP $(nvrtc_missing)"
fi

# A tensor kernel refuses a type it does not take, naming the ones it does.
run_gemmtop run --kernel tensor01_global --precision float $SIZE
expect_rc 2 "tensor01_global refuses float"
expect_in "tf32" "$ERR" "the refusal names the types it takes"

# On AMD (here: hipRTC's offline target) the tensor ladder is refused with its reason:
# the fragments are mma.sync's, which MFMA's layouts do not match. The refusal comes
# before any compiler runs, so it needs no HIP installation.
run_gemmtop inspect --backend hip --arch gfx90a --preset tensor-2-local-half
expect_rc 2 "the tensor ladder is refused for gfx90a"
expect_in "MFMA" "$ERR" "the refusal says why (MFMA's layouts)"
finish
