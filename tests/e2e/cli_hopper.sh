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
    if k["ladder"] == "hopper": print(k["name"], k["arch"], k["step"], ",".join(k["precisions"]))')
[ "$(printf '%s\n' "$hopper" | grep -c ' sm_90a ')" -eq 9 ] && ok "nine hopper steps, each for sm_90a" ||
   not_ok "nine hopper steps for sm_90a" "$hopper"

nvrtc=no
have_nvrtc && nvrtc=yes
# Each step in the first type it takes (steps 1 to 8: float, three tf32 wgmma a k-step).
for k in $(printf '%s\n' "$hopper" | cut -d' ' -f1); do
   if [ $nvrtc = no ]; then
      ok "$k for cuda sm_90a # SKIP $(nvrtc_missing)"
      continue
   fi
   prec=$(printf '%s\n' "$hopper" | awk -v k="$k" '$1 == k { split($4, p, ","); print p[1] }')
   run_gemmtop inspect --backend cuda --arch sm_90a --kernel "$k" --precision "$prec" --size 1024 --code ptx
   regs=$(printf '%s\n' "$OUT" | sed -n 's/^registers  *\([0-9]*\).*/\1/p')
   smem=$(printf '%s\n' "$OUT" | sed -n 's/^local mem  *\([0-9]*\) B.*/\1/p')
   wgmma=$(printf '%s\n' "$OUT" | grep -c 'wgmma.mma_async.sync.aligned.m64n[0-9]*k[0-9]*.f32')
   tma=$(printf '%s\n' "$OUT" | grep -c 'cp.async.bulk.tensor.2d')
   if [ "$RC" -eq 0 ] && [ "${regs:-0}" -gt 0 ] && [ "${smem:-0}" -gt 49152 ] && [ "$wgmma" -gt 0 ] && [ "$tma" -gt 0 ]; then
      ok "$k compiles for sm_90a in $prec: $regs registers, $smem B shared, $wgmma wgmma and $tma TMA copies in the PTX"
   else
      not_ok "$k for cuda sm_90a in $prec (exit $RC, $regs registers, $smem B, $wgmma wgmma, $tma TMA)" "$ERR"
   fi
done

# The scheduling and small-M steps (6 to 9) in every type they take, at the shapes they are
# for, with their presets' tiles: no spills, no stack (local memory), and the second entry
# (the fix-up) in the same module. Under the sanitizers what matters is gemmtop's own code
# on this path (the options, the offline compile's report, the listing), the same in every
# type; whether each type spills does not depend on how gemmtop was built, and the plain
# pass checks every one. So the sanitizer pass takes each configuration in its first type
# (NVRTC's compiles, a few seconds each under ASan's allocator, were most of its time).
types_of() { # KERNEL: the types it takes, or under the sanitizers the first
   printf '%s\n' "$hopper" | awk -v k="$1" -v one="${GEMMTOP_SANITIZE:+1}" \
      '$1 == k { n = split($4, p, ","); if (one) n = 1; for (i = 1; i <= n; i++) printf "%s ", p[i] }'
}
if [ $nvrtc = yes ]; then
   for cfg in "hopper6_splitk 128x8192x8192 --set BN=256 --set BK=64 --set STAGES=4 --set SPLIT=4" \
      "hopper6_splitk 64x4096x14336 --set CONS=1 --set BM=64 --set BN=128 --set BK=64 --set STAGES=6 --set SPLIT=8" \
      "hopper7_streamk 128x8192x8192 --set BN=256 --set BK=64 --set STAGES=4" \
      "hopper7_streamk 4096x6144x4096 --set BN=256 --set BK=64 --set STAGES=4 --set STREAMK=0" \
      "hopper8_hybrid 512x4096x4096 --set BN=256 --set BK=64 --set STAGES=4" \
      "hopper9_swapab 16x4096x14336 --set BT=16 --set SPLIT=4 --set ROTATE=1" \
      "hopper9_swapab 8x8192x8192 --set BT=8 --set CONS=2 --set BN=256 --set BLOCKS=1" \
      "hopper9_swapab 48x4096x4096 --set BT=64 --set BLOCKS=1 --set STAGES=4" \
      "hopper9_swapab 16x8192x8192 --set BT=16 --set BN=64 --set CONS=1 --set BLOCKS=1 --set BK=256 --set SW=128 --set STAGES=5"; do
      set -- $cfg
      k=$1 size=$2
      shift 2
      for prec in $(types_of "$k"); do
         set_bk=""
         case "$prec" in float) set_bk="--set BK=16 --set SW=64" ;; tf32) set_bk="--set BK=32 --set SW=128" ;; esac
         run_gemmtop inspect --backend cuda --arch sm_90a --kernel "$k" --precision "$prec" --size "$size" "$@" $set_bk \
            --code ptx
         spills=$(printf '%s\n' "$OUT" | grep -c '^spills  *0 B stores, 0 B loads; stack frame 0 B')
         fixup=$(printf '%s\n' "$OUT" | grep -c '^.visible .entry gemm_fixup(')
         if [ "$RC" -eq 0 ] && [ "$spills" -eq 1 ] && [ "$fixup" -eq 1 ]; then
            ok "$k $* in $prec at $size: no spills, no stack, the fix-up beside it"
         else
            not_ok "$k $* in $prec at $size (exit $RC): spills or stack, or no fix-up entry" \
               "$(printf '%s\n' "$OUT" | grep -E '^(registers|spills|local)') $ERR"
         fi
      done
   done
fi

if [ $nvrtc = yes ]; then
   for sw in 0 32 64 128; do
      run_gemmtop inspect --backend cuda --arch sm_90 --kernel hopper1_tma --set SW=$sw --set BK=32 --size 512 \
         --code none --format json
      [ "$RC" -eq 0 ] && [ "$(json_field registers)" -gt 0 ] && ok "swizzle $sw compiles (sm_90 taken as sm_90a)" ||
         not_ok "hopper1_tma SW=$sw for sm_90 (exit $RC)" "$ERR"
   done
   # Step 3's presets take a wgmma N of 192: 192 accumulators per consumer thread, no spills;
   # step 5 one of 144 (4608 = 32 x 144), whose wrapper lists 72 accumulators, and step 7 one of
   # 112 (7168 = 64 x 112: 56); step 5's 64 x 160 tiles and step 9's 48 tokens (wgmma N 160 and 48).
   for p in hopper-3-warpspec-half:m64n192k16.f32.f16.f16 hopper-3-warpspec-tf32:m64n192k8.f32.tf32.tf32 \
      hopper-5-order-144-bf16:m64n144k16.f32.bf16.bf16 hopper-7-persistent-112-bf16:m64n112k16.f32.bf16.bf16 \
      hopper-5-t64n160-bf16:m64n160k16.f32.bf16.bf16 hopper-9-swapab-t48-split4-bf16:m64n48k16.f32.bf16.bf16; do
      run_gemmtop inspect --backend cuda --arch sm_90a --preset "${p%%:*}" --code ptx
      n=$(printf '%s\n' "$OUT" | grep -c "wgmma.mma_async.sync.aligned.${p#*:}")
      if [ "$RC" -eq 0 ] && [ "$n" -gt 0 ] && printf '%s\n' "$OUT" | grep -q '^spills  *0 B stores, 0 B loads'; then
         ok "${p%%:*} compiles with $n ${p#*:} wgmma and no spills"
      else
         not_ok "${p%%:*}: wgmma ${p#*:} (exit $RC, $n found, or spills)" "$(printf '%s\n' "$OUT" | grep -E '^(registers|spills)') $ERR"
      fi
   done
   # Step 5's 3xTF32 switches (issue 43): each compiles without spills, and without ptxas
   # serialising the wgmma (the promotion once read the sums after a join of the paths that
   # waited for all of them and for all but one: C7514, every wgmma waited for); SMALL
   # doubles the wgmma's accumulators, PROMO adds FP32 sums and a wait per PROMO tiles. The
   # shared-memory split (AREG=0) with the 16-deep tiles it was measured with.
   for sw in "LO=1" "SMALL=1" "PROMO=1" "PROMO=4" "ORDER=1" "LO=1 SMALL=1 PROMO=2 ORDER=1"; do
      sets=$(for x in $sw; do printf ' --set %s' "$x"; done)
      # shellcheck disable=SC2086 # sets is a list of options
      run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-5-order --set AREG=0 --set BK=16 --set SW=64 \
         --set BN=128 --set SMALL=0 --set PROMO=0 --set LO=0 $sets --size 1000 --code ptx
      n=$(printf '%s\n' "$OUT" | grep -c 'wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32')
      if [ "$RC" -eq 0 ] && [ "$n" -gt 0 ] && printf '%s\n' "$OUT" | grep -q '^spills  *0 B stores, 0 B loads; stack frame 0 B' &&
         ! printf '%s\n' "$OUT" | grep -q '^wgmma  *serialized'; then
         ok "hopper-5-order 3xTF32 with $sw compiles: $n wgmma, no spills, none serialised"
      else
         not_ok "hopper-5-order 3xTF32 with $sw (exit $RC, $n wgmma)" "$(printf '%s\n' "$OUT" | grep -E '^(registers|spills|wgmma)') $ERR"
      fi
   done
   # A kernel that has the pattern (tests/kernels/hopper): inspect names ptxas's reason.
   shipped_kernels=$GEMMTOP_KERNELS
   GEMMTOP_KERNELS="${GEMMTOP_KERNELS%%:*}:$(cd "$(dirname "$0")/../.." && pwd)/tests/kernels/hopper"
   export GEMMTOP_KERNELS
   run_gemmtop inspect --backend cuda --arch sm_90a --kernel test_wgmma_serialized --precision bfloat16 --size 128 --code none
   expect_in "wgmma      serialized by ptxas (each waits for the one before) due to non wgmma instructions reading accumulator registers" \
      "$OUT" "inspect says when ptxas serialised the wgmma, and why"
   run_gemmtop inspect --backend cuda --arch sm_90a --kernel test_wgmma_serialized --precision bfloat16 --size 128 --code none \
      --format json
   expect_in '"wgmma_serialized":"non wgmma instructions reading accumulator registers' "$OUT" "and so does its JSON"
   GEMMTOP_KERNELS=$shipped_kernels
   # AREG=1: A split in the consumers' registers, wgmma's A from them (the register form,
   # "{%r..}" after the sums); AHEAD=1 splits the next tile's A during this tile's wgmma. The
   # preset (32-deep tiles, AHEAD), the 64-column preset, and AHEAD=0 with 192 columns.
   for sw in "" "BN=64" "AHEAD=0 BN=192 STAGES=3" "AHEAD=0 BN=192 BK=16 SW=64 PROMO=4" "SMALL=1 BK=16 SW=64 AHEAD=0"; do
      sets=$(for x in $sw; do printf ' --set %s' "$x"; done)
      bn=$(printf '%s\n' "$sw" | sed -n 's/.*BN=\([0-9]*\).*/\1/p')
      # shellcheck disable=SC2086 # sets is a list of options
      run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-5-order $sets --size 1000 --code ptx
      n=$(printf '%s\n' "$OUT" | grep -c "wgmma.mma_async.sync.aligned.m64n${bn:-128}k8.f32.tf32.tf32 {[^}]*}, {%r")
      if [ "$RC" -eq 0 ] && [ "$n" -gt 0 ] && printf '%s\n' "$OUT" | grep -q '^spills  *0 B stores, 0 B loads; stack frame 0 B' &&
         ! printf '%s\n' "$OUT" | grep -q '^wgmma  *serialized'; then
         ok "hopper-5-order 3xTF32 AREG=1 ${sw:-(the preset)}: $n wgmma with A from registers, no spills, none serialised"
      else
         not_ok "hopper-5-order 3xTF32 AREG=1 $sw (exit $RC, $n wgmma with A from registers)" \
            "$(printf '%s\n' "$OUT" | grep -E '^(kernel|registers|spills|wgmma)') $ERR"
      fi
   done
   # Step 7 with C through shared memory and the copy engine (EPI): the bulk copies are in the
   # PTX, no spills; without EPI the consumers store C and there are none.
   for pe in hopper-7-persistent-192-epi-bf16:yes hopper-7-persistent-144-epi-bf16:yes \
      hopper-7-persistent-160-epi-bf16:yes hopper-7-persistent-192-bf16:no hopper-7-persistent-256-bf16:no \
      hopper-7-persistent-176-bf16:no \
      hopper-7-persistent-256-c2-bf16:no; do
      p=${pe%%:*}
      run_gemmtop inspect --backend cuda --arch sm_90a --preset "$p" --code ptx
      n=$(printf '%s\n' "$OUT" | grep -c 'cp.async.bulk.global.shared::cta.bulk_group')
      want=0
      [ "${pe#*:}" = yes ] && want=1
      got=0
      [ "$n" -gt 0 ] && got=1
      if [ "$RC" -eq 0 ] && [ "$got" = "$want" ] && printf '%s\n' "$OUT" | grep -q '^spills  *0 B stores, 0 B loads'; then
         ok "$p compiles for sm_90a with $n bulk copies of C, no spills"
      else
         not_ok "$p (exit $RC, $n bulk copies of C; wanted them: ${pe#*:})" "$(printf '%s\n' "$OUT" | grep -E '^(registers|spills)') $ERR"
      fi
   done
   run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-7-persistent-192-epi-bf16 --precision tf32 \
      --set BN=128 --set STAGES=2 --code none
   expect_rc 2 "EPI in tf32, not run on a GPU, is refused"
   expect_in "EPI has run on a GPU in half and bfloat16 only" "$ERR" "saying why"
   # Step 7 in clusters of two: B's halves go to both blocks by TMA multicast, the kernel
   # declares its cluster; stream-K pieces are not paired, so CLUSTER=2 with STREAMK=1 is refused.
   run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-7-persistent-256-c2-bf16 --code ptx
   n=$(printf '%s\n' "$OUT" | grep -c 'cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster')
   if [ "$RC" -eq 0 ] && [ "$n" -gt 0 ] && printf '%s\n' "$OUT" | grep -q '^.reqnctapercluster 2, 1, 1' &&
      printf '%s\n' "$OUT" | grep -q '^spills  *0 B stores, 0 B loads'; then
      ok "hopper-7-persistent-256-c2-bf16: clusters of two, $n multicast copies, no spills"
   else
      not_ok "hopper-7-persistent-256-c2-bf16 (exit $RC, $n multicast copies)" "$(printf '%s\n' "$OUT" | grep -E '^(registers|spills)') $ERR"
   fi
   run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-7-persistent-256-c2-bf16 --set STREAMK=1 --code none
   expect_rc 2 "step 7's clusters with stream-K pieces are refused"
   expect_in "CLUSTER pairs whole tiles (STREAMK=0)" "$ERR" "saying why"
   # Decode through a deep ring (swap-AB, 64 weight rows a block, 8 stages of 128-deep tiles):
   # the presets compile without spills and take the ring's shared memory: 144-196 KB in
   # bfloat16 (8 to 32 tokens), 96 KB in e4m3 (32 tokens, 128 bytes of K a stage), 100 KB a
   # block where two share a multiprocessor.
   for pm in hopper-9-swapab-decode-t8-bf16:147000 hopper-9-swapab-decode-t16-bf16:147000 \
      hopper-9-swapab-decode-t16-b2-bf16:100000 \
      hopper-9-swapab-decode-t32-bf16:196000 hopper-9-swapab-decode-t32-split3-bf16:196000 \
      hopper-9-swapab-decode-t32-e4m3:98000; do
      p=${pm%%:*}
      run_gemmtop inspect --backend cuda --arch sm_90a --preset $p --code none
      smem=$(printf '%s\n' "$OUT" | sed -n 's/^local mem  *\([0-9]*\) B.*/\1/p')
      if [ "$RC" -eq 0 ] && [ "${smem:-0}" -gt "${pm#*:}" ] && printf '%s\n' "$OUT" | grep -q '^spills  *0 B stores, 0 B loads; stack frame 0 B'; then
         ok "$p compiles without spills, $smem B of shared memory for its ring"
      else
         not_ok "$p (exit $RC, $smem B)" "$(printf '%s\n' "$OUT" | grep -E '^(registers|spills|local)') $ERR"
      fi
   done
   run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-5-order --set SW=0 --set BK=8 --code none
   expect_rc 2 "AREG on an unswizzled tile is refused"
   expect_in "AREG reads A's fragments from a swizzled tile" "$ERR" "saying why"
   run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-5-order --set BN=96 --code none
   expect_rc 2 "AREG with a wgmma N it has no register-A form for is refused"
   expect_in "AREG's wgmma with A from registers is written for N of 64, 128, 192 and 256" "$ERR" "naming the N it has"
   run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-5-order-bf16 --set LO=1 --code none
   expect_rc 2 "LO in bfloat16 is refused"
   expect_in "LO, SMALL, ORDER and AREG shape 3xTF32, the float path" "$ERR" "naming the float path"
   run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-5-order --set BN=256 --set PROMO=1 --code none
   expect_rc 2 "PROMO with BN=256 is refused"
   expect_in "at most 192 in all" "$ERR" "the registers' rule says why"
   run_gemmtop inspect --backend cuda --arch sm_90 --kernel hopper3_warpspec --code ptx
   expect_in "target     cuda sm_90a" "$OUT" "an sm_90a kernel for --arch sm_90 compiles for sm_90a"
   expect_in "PTX (sm_90a):" "$OUT" "and the code is labelled with the target it was compiled for"
   # Step 5 in clusters of two: the kernel asks for them, and B arrives by multicast.
   for p in hopper-5-order hopper-5-order-half; do
      run_gemmtop inspect --backend cuda --arch sm_90a --preset $p --set CLUSTER=2 \
         --size 1000 --code ptx
      mc=$(printf '%s\n' "$OUT" | grep -c 'cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster')
      if [ "$RC" -eq 0 ] && [ "$mc" -gt 0 ] && printf '%s\n' "$OUT" | grep -q '^.reqnctapercluster 2, 1, 1' &&
         printf '%s\n' "$OUT" | grep -q 'mbarrier.arrive.shared::cluster.b64'; then
         ok "$p with CLUSTER=2: clusters of 2 blocks, $mc multicast copies, slots released to both blocks"
      else
         not_ok "$p with CLUSTER=2 (exit $RC, $mc multicast)" "$ERR"
      fi
   done
   # Clusters that share A (SHARE_A, tiles side by side): steps 5 and 6 in clusters of four,
   # step 7 of two; each block multicasts its BM / CLUSTER rows of A. Without a cluster it is refused.
   for pc in "hopper-5-t64n64-bf16:4" "hopper-6-splitk-bm64-s8-bf16:4" "hopper-7-persistent-256-bf16:2"; do
      p=${pc%%:*} c=${pc#*:}
      run_gemmtop inspect --backend cuda --arch sm_90a --preset $p --set CLUSTER=$c --set SHARE_A=1 --size 64x2000x4100 --code ptx
      mc=$(printf '%s\n' "$OUT" | grep -c 'cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster')
      if [ "$RC" -eq 0 ] && [ "$mc" -gt 0 ] && printf '%s\n' "$OUT" | grep -q "^.reqnctapercluster $c, 1, 1" &&
         printf '%s\n' "$OUT" | grep -q '^spills  *0 B stores, 0 B loads'; then
         ok "$p with CLUSTER=$c SHARE_A=1: clusters of $c sharing A, $mc multicast copies, no spills"
      else
         not_ok "$p with CLUSTER=$c SHARE_A=1 (exit $RC, $mc multicast)" "$ERR"
      fi
   done
   run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-5-t64n64-bf16 --set SHARE_A=1 --code none
   expect_rc 2 "SHARE_A without a cluster is refused"
   expect_in "SHARE_A shares A among the blocks of a cluster" "$ERR" "saying why"
   # C16: steps 5 to 8 store C 16 bytes a lane (neighbouring lanes swap accumulator pairs);
   # C16=0, the ablation, stores 8 bytes a lane.
   for p in hopper-5-order-bf16 hopper-6-splitk-bf16 hopper-7-persistent-256-bf16 hopper-8-hybrid-bf16; do
      run_gemmtop inspect --backend cuda --arch sm_90a --preset $p --size 1000 --code ptx
      v4=$(printf '%s\n' "$OUT" | grep -c 'st.global.v4.f32')
      sh=$(printf '%s\n' "$OUT" | grep -c 'shfl.sync.bfly.b32')
      run_gemmtop inspect --backend cuda --arch sm_90a --preset $p --size 1000 --set C16=0 --code ptx
      v2=$(printf '%s\n' "$OUT" | grep -c 'st.global.v2.f32')
      if [ "$v4" -gt 0 ] && [ "$sh" -gt 0 ] && [ "$v2" -gt 0 ]; then
         ok "$p stores C with $v4 16-byte stores after $sh lane swaps; C16=0 with $v2 8-byte ones"
      else
         not_ok "$p: $v4 16-byte stores, $sh swaps; C16=0: $v2 8-byte stores" "$ERR"
      fi
   done
   # Steps 5 to 9 take the warpgroup index broadcast from lane 0 (gt_warpgroup), which keeps
   # the consumers' wgmma descriptors in uniform registers; threadIdx.x / 128 cost 4 points
   # of cuBLAS on the H200 (docs/lesson-hopper.md).
   for p in hopper-5-order-bf16 hopper-6-splitk-bf16 hopper-7-persistent-256-bf16 hopper-8-hybrid-bf16 hopper-9-swapab-bf16; do
      run_gemmtop inspect --backend cuda --arch sm_90a --preset $p --size 1000 --code ptx
      if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -q 'shfl.sync.idx.b32'; then
         ok "$p broadcasts its warpgroup index from lane 0"
      else
         not_ok "$p: no shfl.sync.idx for the warpgroup index (exit $RC)" "$ERR"
      fi
   done
   # Step 9 (decode and few tokens) fetches both tensor maps ahead of its first load
   # (gt_tma_prefetch_map: 0.4-0.8 points of the copy bandwidth on the H200); step 5 does not
   # (the same cost its 64 x 64 tiles 5-8 points there).
   run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-9-swapab-decode-t16-bf16 --code ptx
   n9=$(printf '%s\n' "$OUT" | grep -c 'prefetch.tensormap')
   run_gemmtop inspect --backend cuda --arch sm_90a --preset hopper-5-t64n64-s12-bf16 --code ptx
   n5=$(printf '%s\n' "$OUT" | grep -c 'prefetch.tensormap')
   if [ "$n9" -eq 2 ] && [ "$n5" -eq 0 ]; then
      ok "step 9 prefetches its two tensor maps, step 5 none"
   else
      not_ok "tensor-map prefetches: step 9 $n9 (2 expected), step 5 $n5 (none expected)" "$ERR"
   fi
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
# In half the default BK breaks a parameter rule too: the device is said first, and alone
# (no "valid BK" hint that no value could make true here), by run and by sweep.
for cmd in run sweep; do
   run_gemmtop $cmd --kernel hopper1_tma --precision half --size 256
   expect_rc 2 "$cmd of hopper1_tma in half on PoCL"
   expect_in "needs sm_90a wgmma and TMA, which PoCL does not emulate" "$ERR" "$cmd: the device's refusal comes first"
   case "$ERR" in *"valid BK"*) not_ok "$cmd: a parameter hint came with it" "$ERR" ;; *) ok "$cmd: no parameter hint" ;; esac
done
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

# The model in JSON and one site alone, as for a traced kernel; what it cannot give is refused.
run_gemmtop banks --kernel hopper1_tma --set SW=128 --format json --site 2
if printf '%s\n' "$OUT" | python3 -c 'import json, sys
o = json.load(sys.stdin)
assert o["modelled"] is True and o["tile"] == {"operand": "A", "rows": 128, "box_bytes": 128, "swizzle_bytes": 128}, o
s = {x["name"]: (x["wavefronts"], x["ideal_wavefronts"], x["conflicts"]) for x in o["sites"]}
assert s == {"TMA write A (model)": (4, 4, 0), "wgmma read A (model)": (4, 4, 0), "unswizzled read A": (32, 4, 28)}, s
assert o["grid"]["site"] == 2 and o["grid"]["wavefronts"] == 32 and len(o["grid"]["rows"]) == 32, o["grid"]'
then ok "banks --format json: the modelled sites and the grid of --site 2"; else not_ok "modelled JSON" "$OUT
$ERR"; fi
run_gemmtop banks --kernel hopper1_tma --set SW=64 --site 1
expect_in "site 1 (wgmma read A (model))" "$OUT" "--site 1 draws the wgmma read"
case "$OUT" in *"site 0 (TMA write A"*) not_ok "--site 1 drew site 0 too" "$OUT" ;; *) ok "and only that site" ;; esac
run_gemmtop banks --kernel hopper1_tma --as-compiled
expect_rc 2 "--as-compiled on a modelled kernel is refused"
expect_in "modelled, not traced" "$ERR" "saying why"
run_gemmtop banks --kernel hopper1_tma --site 0 --warp 1
expect_rc 2 "--warp 1 of a one-request model is refused"
expect_in "one request per site" "$ERR" "saying what exists"
finish
