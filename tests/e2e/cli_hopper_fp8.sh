#!/bin/sh
# The hopper-fp8 ladder without a Hopper GPU: every step compiles offline through NVRTC and
# ptxas for sm_90a in e4m3 and e5m2, with per-tensor and (from step 2) block scales, at an
# odd size: FP8 wgmma (m64nNk32) and TMA copies in the PTX, no spills, no stack frame;
# step 4 writes C with bulk copies, step 5 in clusters of two with B multicast, step 6 hands
# stream-K pieces between blocks through flags (compiled for 132 multiprocessors: with one,
# CUS=1, there is no stream-K region and the compiler drops it). The steps ran on an H200
# (2026-11-29, step 6 on 2026-11-30): the list no longer marks them "not yet run on a GPU",
# and says how each accumulates. PoCL and HIP refuse them with their reasons, and step 1 refuses
# block scales. Skipped where NVRTC is absent.
. "$(dirname "$0")/lib.sh"

run_gemmtop list kernels --format json
steps=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
for l in sys.stdin:
    k = json.loads(l)
    if k["ladder"] == "hopper-fp8": print(k["name"], k["arch"], k["step"], json.dumps(k["gpu_run"]), " ".join(k["precisions"]))')
[ "$(printf '%s\n' "$steps" | grep -c ' sm_90a .* true e4m3 e5m2$')" -eq 6 ] &&
   ok "six hopper-fp8 steps for sm_90a in e4m3 and e5m2, all run on a GPU" ||
   not_ok "six hopper-fp8 steps, sm_90a, gpu_run true" "$steps"
run_gemmtop list kernels
n=$(printf '%s\n' "$OUT" | sed -n '/^ladder hopper-fp8/,/^$/p' | grep -c 'not yet run on a GPU')
[ "$n" -eq 0 ] && ok "the list marks none of the steps 'not yet run on a GPU'" || not_ok "'not yet run' lines: $n" "$OUT"
run_gemmtop list kernels --format csv
expect_in "precisions,tensor,gpu_run" "$OUT" "the CSV has a gpu_run column"
expect_in 'fp8h1_wgmma,hopper-fp8,1,' "$OUT" "and a row per step"

nvrtc=no
have_nvrtc && nvrtc=yes
# One compile: the step, its type and scaling, then --set options; checks the report and
# the PTX for what every step must show, and prints the PTX for more checks.
compile_step() { # KERNEL PRECISION SCALING [inspect options]
   k=$1 prec=$2 sc=$3
   shift 3
   run_gemmtop inspect --backend cuda --arch sm_90a --kernel "$k" --precision "$prec" --scaling "$sc" \
      -m 1000 -n 520 -k 1030 --code ptx "$@"
   regs=$(printf '%s\n' "$OUT" | sed -n 's/^registers  *\([0-9]*\).*/\1/p')
   wgmma=$(printf '%s\n' "$OUT" | grep -c "wgmma.mma_async.sync.aligned.m64n[0-9]*k32.f32.$prec.$prec")
   tma=$(printf '%s\n' "$OUT" | grep -c 'cp.async.bulk.tensor.2d')
   if [ "$RC" -eq 0 ] && [ "${regs:-0}" -gt 0 ] && [ "$wgmma" -gt 0 ] && [ "$tma" -gt 0 ] &&
      printf '%s\n' "$OUT" | grep -q '^spills  *0 B stores, 0 B loads; stack frame 0 B'; then
      ok "$k $prec $sc $* compiles for sm_90a: $regs registers, no spills, $wgmma FP8 wgmma, $tma TMA copies"
   else
      not_ok "$k $prec $sc $* for sm_90a (exit $RC, $regs registers, $wgmma wgmma, $tma TMA)" \
         "$(printf '%s\n' "$OUT" | grep -E '^(registers|spills)') $ERR"
   fi
}

for k in $(printf '%s\n' "$steps" | cut -d' ' -f1); do
   for prec in e4m3 e5m2; do
      for sc in tensor block; do
         if [ "$k" = fp8h1_wgmma ] && [ $sc = block ]; then
            run_gemmtop inspect --backend cuda --arch sm_90a --kernel $k --precision $prec --scaling block --code none
            expect_rc 2 "$k refuses block scales"
            expect_in "block scales come at step 2" "$ERR" "saying which step has them"
            continue
         fi
         if [ $nvrtc = no ]; then
            ok "$k $prec $sc for cuda sm_90a # SKIP $(nvrtc_missing)"
            continue
         fi
         if [ $k = fp8h6_hybrid ]; then
            compile_step $k $prec $sc --compute-units 132
            rel=$(printf '%s\n' "$OUT" | grep -c 'st.release.gpu.global.u32')
            acq=$(printf '%s\n' "$OUT" | grep -c 'ld.acquire.gpu.global.u32')
            [ "$rel" -gt 0 ] && [ "$acq" -gt 0 ] && ok "$k $prec $sc: pieces handed over by release and acquire" ||
               not_ok "$k $prec $sc: flag release ($rel) and acquire ($acq)"
         else
            compile_step $k $prec $sc
         fi
         case $k in
         fp8h4_bulkstore | fp8h5_cluster | fp8h6_hybrid)
            n=$(printf '%s\n' "$OUT" | grep -c 'cp.async.bulk.global.shared::cta.bulk_group')
            [ "$n" -gt 0 ] && ok "$k $prec $sc: C leaves through $n bulk copies" || not_ok "$k: no bulk copy of C" ;;
         esac
         if [ $k = fp8h5_cluster ]; then
            mc=$(printf '%s\n' "$OUT" | grep -c 'multicast::cluster')
            if [ "$mc" -gt 0 ] && printf '%s\n' "$OUT" | grep -q '^.reqnctapercluster 2, 1, 1'; then
               ok "$k $prec $sc: clusters of 2 blocks, B multicast"
            else
               not_ok "$k $prec $sc: clusters and multicast ($mc)"
            fi
         fi
      done
   done
done
if [ $nvrtc = yes ]; then
   # the parameters the GPU run sweeps: no promotion with a wider N, one consumer, BN 64
   compile_step fp8h3_persistent e4m3 tensor --set PROMOTE=0 --set BN=256 --set STAGES=3
   compile_step fp8h2_blockscale e5m2 block --set BN=64 --set STAGES=6
   compile_step fp8h1_wgmma e4m3 tensor --set CONS=1 --set BM=64
   compile_step fp8h5_cluster e4m3 block --set CLUSTER=1 --set GROUP=16
   # promotion every 2 or 4 k-blocks, and two sets of sums that take turns (both scalings)
   compile_step fp8h5_cluster e4m3 tensor --set PROMOTE=4
   compile_step fp8h3_persistent e5m2 tensor --set PROMOTE=2
   compile_step fp8h3_persistent e4m3 tensor --set OVERLAP=1
   compile_step fp8h3_persistent e4m3 block --set OVERLAP=1
   run_gemmtop inspect --backend cuda --arch sm_90a --kernel fp8h3_persistent --precision e4m3 --scaling block \
      --set PROMOTE=2 --code none
   expect_rc 2 "block scales promoted every 2 k-blocks are refused"
   expect_in "PROMOTE=0, 2 and 4 are for --scaling tensor" "$ERR" "saying which scaling takes them"
   run_gemmtop inspect --backend cuda --arch sm_90a --kernel fp8h3_persistent --precision e4m3 --set OVERLAP=1 \
      --set PROMOTE=0 --code none
   expect_rc 2 "OVERLAP without promotion is refused"
   expect_in "it needs PROMOTE=1" "$ERR" "saying why"
   # block scales with 192-column tiles, which span two of B's 128-column scale blocks:
   # m64n192 wgmma and a multiply-add per sum (96) at each promotion, no spills (steps 4 and
   # 5 write the staging area through 32-bit shared addresses); per-tensor, the tile the H200
   # measured fastest (hopper-fp8-tuned-tensor)
   compile_step fp8h5_cluster e4m3 block --set BN=192 --set STAGES=3 --set CLUSTER=1
   n192=$(printf '%s\n' "$OUT" | grep -c 'wgmma.mma_async.sync.aligned.m64n192k32.f32.e4m3.e4m3')
   fma=$(printf '%s\n' "$OUT" | grep -c 'fma.rn.f32')
   [ "$n192" -gt 0 ] && [ "$fma" -ge 96 ] && ok "fp8h5_cluster block BN=192: $n192 m64n192 wgmma, $fma multiply-adds" ||
      not_ok "fp8h5_cluster block BN=192: $n192 m64n192 wgmma, $fma fma.rn.f32"
   compile_step fp8h5_cluster e5m2 block --set BN=192 --set STAGES=3 --set CLUSTER=2
   compile_step fp8h4_bulkstore e4m3 block --set BN=192 --set STAGES=3
   compile_step fp8h5_cluster e4m3 tensor --set BN=192 --set STAGES=3 --set CLUSTER=1
   compile_step fp8h2_blockscale e5m2 block --set BN=192 --set STAGES=4
   compile_step fp8h3_persistent e4m3 block --set BN=192 --set STAGES=4
   # 64 x 96 tiles (cuBLAS's tile for 128 tokens): m64n96 wgmma, per-tensor scales only, since
   # 96 columns do not split into B's 128-column scale blocks by 64
   compile_step fp8h3_persistent e4m3 tensor --set CONS=1 --set BM=64 --set BN=96 --set STAGES=4 --set GROUP=4
   n96=$(printf '%s\n' "$OUT" | grep -c 'wgmma.mma_async.sync.aligned.m64n96k32.f32.e4m3.e4m3')
   [ "$n96" -gt 0 ] && ok "fp8h3_persistent BN=96: $n96 m64n96 wgmma" || not_ok "fp8h3_persistent BN=96: no m64n96 wgmma"
   run_gemmtop inspect --backend cuda --arch sm_90a --kernel fp8h3_persistent --precision e4m3 --scaling block \
      --set BN=96 --code none
   expect_rc 2 "96-column tiles with block scales are refused"
   expect_in "BN a multiple of 64" "$ERR" "saying why"
   # step 6: the tile the H200 swept second best at 4096, one consumer, no promotion
   compile_step fp8h6_hybrid e4m3 tensor --set BN=128 --set STAGES=4 --compute-units 132
   compile_step fp8h6_hybrid e5m2 block --set CONS=1 --set BM=64 --compute-units 132
   compile_step fp8h6_hybrid e4m3 tensor --set PROMOTE=0 --set SKWAVES=0 --compute-units 132
   run_gemmtop inspect --backend cuda --kernel fp8h6_hybrid --precision e4m3 --compute-units 132 --code none
   expect_rc 2 "--compute-units without --arch is refused"
   expect_in "describes the device of a compile for --arch" "$ERR" "saying it is for --arch"
   run_gemmtop inspect --backend cuda --arch sm_90a --kernel fp8h5_cluster --precision e4m3 --scaling block \
      --set BN=192 --set STAGES=3 --set CONS=1 --code none
   expect_rc 2 "block BN=192 with 128 rows per consumer is refused"
   expect_in "at most 192 fit its registers" "$ERR" "saying the sums do not fit"
   # promotion: one more FP32 add (block scales: a multiply-add) per sum and k-block
   run_gemmtop inspect --backend cuda --arch sm_90a --kernel fp8h2_blockscale --precision e4m3 --scaling block \
      --size 1024 --code ptx
   fma=$(printf '%s\n' "$OUT" | grep -c 'fma.rn.f32')
   [ "$fma" -ge 64 ] && ok "block scales: $fma FP32 multiply-adds of the promotion in the PTX" ||
      not_ok "block-scaled promotion: $fma fma.rn.f32" "$ERR"
fi

run_gemmtop run --backend opencl --device pocl --kernel fp8h3_persistent --precision e4m3 --size 256
expect_rc 2 "PoCL is refused"
expect_in "fp8h3_persistent needs sm_90a wgmma and TMA, which PoCL does not emulate" "$ERR$OUT" "PoCL's refusal says why"
run_gemmtop inspect --backend hip --arch gfx90a --kernel fp8h2_blockscale --precision e4m3 --code none
expect_rc 2 "HIP is refused"
expect_in "the HIP backend has neither" "$ERR" "HIP's refusal says why"
run_gemmtop inspect --backend cuda --arch sm_89 --kernel fp8h1_wgmma --precision e4m3 --code none
expect_rc 2 "sm_89 (FP8 mma.sync, no wgmma) is refused"
expect_in "fp8h1_wgmma needs sm_90a (Hopper: H100, H200); this target is sm_89" "$ERR" "naming the target"
run_gemmtop inspect --backend cuda --arch sm_90a --kernel fp8h1_wgmma --precision bfloat16 --code none
expect_rc 2 "bfloat16 is refused"
expect_in "it takes e4m3, e5m2" "$ERR" "the refusal names the types it takes"
finish
