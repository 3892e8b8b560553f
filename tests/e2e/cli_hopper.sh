#!/bin/sh
# The hopper ladder without a Hopper GPU: every step compiles offline through NVRTC for
# sm_90a (wgmma and TMA in the PTX, registers and shared memory reported), each swizzle
# mode too; sm_90 becomes sm_90a, other targets are refused with the reason; PoCL and HIP
# refuse with theirs; gemmtop banks models each swizzle mode. Skipped where NVRTC is absent.
. "$(dirname "$0")/lib.sh"

run_gemmtop list kernels --format json
hopper=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
for l in sys.stdin:
    k = json.loads(l)
    if k["ladder"] == "hopper": print(k["name"], k["arch"], k["step"])')
[ "$(printf '%s\n' "$hopper" | grep -c ' sm_90a ')" -eq 5 ] && ok "five hopper steps, each for sm_90a" ||
   not_ok "five hopper steps for sm_90a" "$hopper"

have_nvrtc=no
"$GEMMTOP_BIN" inspect --kernel mygemm01_naive --backend cuda --arch sm_90 --code none >/dev/null 2>"$T_DIR/nvrtc.err" &&
   have_nvrtc=yes
for k in $(printf '%s\n' "$hopper" | cut -d' ' -f1); do
   if [ $have_nvrtc = no ]; then
      ok "$k for cuda sm_90a # SKIP NVRTC is not installed: $(head -c 200 "$T_DIR/nvrtc.err")"
      continue
   fi
   run_gemmtop inspect --backend cuda --arch sm_90a --kernel "$k" --size 1024 --code ptx
   regs=$(printf '%s\n' "$OUT" | sed -n 's/^registers  *\([0-9]*\).*/\1/p')
   smem=$(printf '%s\n' "$OUT" | sed -n 's/^local mem  *\([0-9]*\) B.*/\1/p')
   wgmma=$(printf '%s\n' "$OUT" | grep -c 'wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32')
   tma=$(printf '%s\n' "$OUT" | grep -c 'cp.async.bulk.tensor.2d')
   if [ "$RC" -eq 0 ] && [ "${regs:-0}" -gt 0 ] && [ "${smem:-0}" -gt 49152 ] && [ "$wgmma" -gt 0 ] && [ "$tma" -gt 0 ]; then
      ok "$k compiles for sm_90a: $regs registers, $smem B shared, $wgmma wgmma and $tma TMA copies in the PTX"
   else
      not_ok "$k for cuda sm_90a (exit $RC, $regs registers, $smem B, $wgmma wgmma, $tma TMA)" "$ERR"
   fi
done

if [ $have_nvrtc = yes ]; then
   for sw in 0 32 64 128; do
      run_gemmtop inspect --backend cuda --arch sm_90 --kernel hopper1_tma --set SW=$sw --set BK=32 --size 512 \
         --code none --format json
      [ "$RC" -eq 0 ] && [ "$(json_field registers)" -gt 0 ] && ok "swizzle $sw compiles (sm_90 taken as sm_90a)" ||
         not_ok "hopper1_tma SW=$sw for sm_90 (exit $RC)" "$ERR"
   done
   run_gemmtop inspect --backend cuda --arch sm_90 --kernel hopper3_warpspec --code none
   expect_in "target     cuda sm_90a" "$OUT" "an sm_90a kernel for --arch sm_90 compiles for sm_90a"
fi

run_gemmtop inspect --backend cuda --arch sm_80 --kernel hopper1_tma --code none
expect_rc 2 "sm_80 is refused"
expect_in "hopper1_tma needs sm_90a (Hopper: H100, H200); this target is sm_80" "$ERR" "the refusal names the target"
run_gemmtop inspect --backend hip --arch gfx90a --kernel hopper2_pipeline --code none
expect_rc 2 "HIP is refused"
expect_in "the HIP backend has neither" "$ERR" "HIP's refusal says why"
run_gemmtop run --backend opencl --device pocl --kernel hopper1_tma --size 256
expect_rc 2 "PoCL is refused"
expect_in "hopper1_tma needs sm_90a wgmma and TMA, which PoCL does not emulate" "$ERR$OUT" "PoCL's refusal says why"
run_gemmtop inspect --backend cuda --arch sm_90a --kernel hopper1_tma --precision double --code none
expect_rc 2 "double is refused"
expect_in "does not take double: it takes float, tf32, half, bfloat16" "$ERR" "the double refusal names the types it takes"
run_gemmtop inspect --backend cuda --arch sm_90a --kernel hopper1_tma --set SW=128 --set BK=16 --code none
expect_rc 2 "a tile narrower than its swizzle is refused"
expect_in "BK times the element size must be a multiple of the swizzle width" "$ERR" "with the rule's words"

# The bank view: each mode's TMA write and wgmma read are conflict-free; plain rows are not.
for sw in 0 32 64 128; do
   run_gemmtop banks --kernel hopper1_tma --set SW=$sw --format csv
   rows=$(printf '%s\n' "$OUT" | awk -F, 'NR > 1 { printf "%s:%s/%s ", $1, $6, $7 }')
   case "$rows" in
   *"0:4/4 1:4/4 2:32/4"*) ok "banks, swizzle $sw: TMA write and wgmma read in 4 wavefronts, plain rows 32 ($rows)" ;;
   *) not_ok "banks, swizzle $sw: $rows" "$OUT
$ERR" ;;
   esac
done
run_gemmtop banks --kernel hopper2_pipeline --set SW=64
expect_in "swizzle 64-byte" "$OUT" "banks says which swizzle it modelled"
# 64-byte swizzle: row 1 of the read is 64 bytes on (banks 16-19); plain rows put it in pass 2
expect_in "lane  1 ................1111............   64" "$OUT" "the wgmma read's row 1 lands in banks 16-19"
expect_in "lane  1 2222............................   128" "$OUT" "unswizzled, row 1 waits for the second pass"
finish
