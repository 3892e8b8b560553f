#!/bin/sh
# tools/gpu/gpu_decode_screen.sh on PoCL, the decode kernel on mma.sync (tensor09_decode,
# emulated) standing in for Hopper's: each variant written as a user preset from its base
# with the keys replaced, verified at odd sizes, every pass benched (one with an
# environment, one with an argument of bench), and the short table from the files alone.
. "$(dirname "$0")/lib.sh"

out="$T_DIR/screen"
OUT="$out" B="$GEMMTOP_BIN" BACKEND=opencl ROUNDS=1 FEW=13x72x200 ONE=1x40x136 BASE_T8=tensor-9-decode-bfloat16 \
   BASE_T16=tensor-9-decode-bfloat16-m16 T8_SIZES=3x96x256 T16_SIZES=13x64x192 \
   VARIANTS="t8-ku1:t8:KU=1,WARPS=4 t16-pl1:t16:PL=1" PASSES="base nohold=GEMMTOP_HOLD=0 cold+--cold-l2" \
   sh tools/gpu/gpu_decode_screen.sh >"$T_DIR/screen.log" 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok "the screen ends (exit 0)" || not_ok "the screen ended with exit $rc" "$(tail -5 "$T_DIR/screen.log")"

grep -q '^verified 8 of 8$' "$out/short.txt" 2>/dev/null &&
   ok "four configurations verified at both odd sizes" ||
   not_ok "verification at odd sizes" "$(cat "$out/short.txt" "$out/verify.jsonl" 2>&1 | head -20)"

n=$(grep -c ' exit 0$' "$out/status.txt" 2>/dev/null)
[ "${n:-0}" -eq 6 ] && ok "three passes of two benches each, every one ended" ||
   not_ok "passes: $n of 6 benches ended" "$(cat "$out/status.txt" 2>&1)"

grep -q 'cold L2' "$out/bench-cold-t8.txt" 2>/dev/null && ! grep -q 'cold L2' "$out/bench-base-t8.txt" &&
   ok "the argument pass benched with a cold L2, the base pass without" ||
   not_ok "the cold pass" "$(tail -4 "$out/bench-cold-t8.txt" "$out/bench-base-t8.txt" 2>&1)"

# The table: each variant beside its base, every size of its group, in each pass.
rows=$(awk '$1 ~ /^(base|nohold|cold)$/ && $2 ~ /^(tensor-9-decode-bfloat16(-m16)?|t8-ku1|t16-pl1)$/' "$out/short.txt" | wc -l)
[ "$rows" -eq 12 ] && ok "the short table has the 12 rows (3 passes, 4 configurations)" ||
   not_ok "the short table: $rows rows" "$(cat "$out/short.txt")"
! grep -q 'NOT VERIFIED' "$out/short.txt" && ok "every benched row verified" ||
   not_ok "a benched row not verified" "$(grep 'NOT VERIFIED' "$out/short.txt")"
awk '$2 == "t8-ku1" && $3 == 3' "$out/short.txt" | grep -q . && awk '$2 == "t16-pl1" && $3 == 13' "$out/short.txt" | grep -q . &&
   ok "t8 variants at the t8 sizes, t16 variants at the t16 sizes" ||
   not_ok "variants at the wrong sizes" "$(cat "$out/short.txt")"

# A base that is not t8 or t16 is named, and the run goes on without it.
OUT="$T_DIR/screen2" B="$GEMMTOP_BIN" BACKEND=opencl ROUNDS=1 FEW=13x72x200 ONE=1x40x136 BASE_T8=tensor-9-decode-bfloat16 \
   BASE_T16=tensor-9-decode-bfloat16-m16 T8_SIZES=2x64x128 T16_SIZES=9x64x128 VARIANTS="bad:t32:KU=1" \
   PASSES=base sh tools/gpu/gpu_decode_screen.sh >"$T_DIR/screen2.log" 2>&1
grep -q 'base t32: t8 or t16' "$T_DIR/screen2.log" && grep -q '^verified 4 of 4$' "$T_DIR/screen2/short.txt" &&
   ok "a variant of an unknown base is named and left out" ||
   not_ok "an unknown base" "$(tail -5 "$T_DIR/screen2.log")"
finish
