#!/bin/sh
# The FP8 vendor reference where there is none (PoCL: CLBlast has no FP8 GEMM; cuBLASLt is
# the CUDA backend's): bench gives each FP8 scaling its own vendor line, each saying that
# there is no reference here and where it is, with no figure and no % beside the kernels;
# --vendor-output bfloat16 is refused where it cannot be honoured, never silently dropped.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T_DIR/presets"
for s in tensor block; do
   printf 'kernel = fp8mma1_scaled\nprecision = e4m3\nscaling = %s\nsize = 64\n' "$s" >"$T_DIR/presets/fp8-$s.preset"
done
GEMMTOP_PRESETS="$T_DIR/presets" run_gemmtop bench fp8-tensor fp8-block --sizes 64 --rounds 1 --reps 1 --warmup 0
expect_rc 0 "bench of e4m3 with per-tensor and with block scales"
expect_in "vendor e4m3 tensor at 64: CLBlast has no e4m3 GEMM" "$OUT" "a vendor line for per-tensor scales"
expect_in "vendor e4m3 block at 64: CLBlast has no e4m3 GEMM" "$OUT" "and one for block scales"
expect_in "the CUDA backend compares with cuBLASLt's FP8 GEMM" "$OUT" "saying where the FP8 reference is"
GEMMTOP_PRESETS="$T_DIR/presets" run_gemmtop bench fp8-tensor fp8-block --sizes 64 --rounds 1 --reps 1 --warmup 0 \
   --format json
if msg=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
rows=[json.loads(l) for l in sys.stdin if l.strip()]
assert [r["config"] for r in rows]==["fp8-tensor","fp8-block"], rows
for r in rows:
    assert r["verified"] and r["emulated"], r
    assert r["vendor"]=="CLBlast" and "vendor_gflops" not in r and "pct_of_vendor" not in r, r
print("no vendor figure, no percentage")' 2>&1); then
   ok "JSON rows: $msg"
else
   not_ok "bench --format json of the FP8 presets: $msg" "$OUT
$ERR"
fi

run_gemmtop run --kernel mygemm06_2d --size 64 --vendor-output bfloat16
expect_rc 2 "--vendor-output without --vendor is refused"
expect_in "give --vendor too" "$ERR" "saying what it belongs to"
run_gemmtop bench --frontier --sizes 64 --vendor-output bfloat16
expect_rc 2 "--vendor-output with --frontier is refused"
expect_in "not taken with --frontier" "$ERR" "saying why"
run_gemmtop run --kernel mygemm06_2d --size 64 --vendor --vendor-output half
expect_rc 2 "--vendor-output half is refused"
expect_in "bfloat16" "$ERR" "naming the valid values"
run_gemmtop run --kernel mygemm06_2d --size 128 --vendor --vendor-output bfloat16 --reps 1 --warmup 0
expect_rc 0 "run --vendor --vendor-output bfloat16 on float"
expect_in "a bfloat16 C is offered for the FP8 types through CUDA (cuBLASLt) only" "$OUT" \
   "CLBlast refuses a bfloat16 C instead of timing a float one"
finish
