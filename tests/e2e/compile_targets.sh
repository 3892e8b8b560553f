#!/bin/sh
# Every visible variant compiles through NVRTC (sm_90) and hipRTC (gfx906, gfx90a) with no
# GPU present, in each element type it takes (float and double, or tf32, half and bfloat16
# for the tensor ladder), and inspect reports its registers; the tensor ladder, written for
# mma.sync's fragments, is refused for AMD targets with that reason. Skipped (and said
# so) where the compiler is not installed. The sanitizer pass compiles one kernel of each
# kind, each element type in one of them at least (below: why that suffices).
. "$(dirname "$0")/lib.sh"

# The catalog once, a line a kernel: its name, "tensor" or "plain", the element types it
# takes (its precisions: line). Kernels for one architecture (arch: sm_90a) are tested by
# cli_hopper.sh.
"$GEMMTOP_BIN" list kernels --format json | python3 -c 'import json,sys
for l in sys.stdin:
    k = json.loads(l)
    if not k.get("arch"): print(k["name"], "tensor" if k.get("tensor") else "plain", " ".join(k["precisions"]))' \
   >"$T_DIR/catalog"
kernels=$(cut -d' ' -f1 "$T_DIR/catalog")
# Under the sanitizers what matters is gemmtop's own code on the offline paths (the
# backends' offline tables, ptxas's and llvm-readelf's reports, the JSON), which every
# kernel takes alike; whether each kernel compiles does not depend on how gemmtop was
# built, and the plain pass checks every one. So the sanitizer pass takes one kernel of
# each kind: plain, a tiled ladder step, any size with padding, TN operands, the tensor
# ladder, and the MAGMA kernel the ablation check below reads.
if [ -n "${GEMMTOP_SANITIZE:-}" ]; then
   kernels=$(printf '%s\n' "$kernels" | grep -Ex 'mygemm01_naive|mygemm06_2d|fast02_warptile|dcu6_lds_conflicts|tensor01_global|magma_fermi')
   [ "$(printf '%s\n' "$kernels" | grep -c .)" = 6 ] && ok "the sanitizer pass takes one kernel of each kind" ||
      not_ok "the sanitizer pass's kernels" "$kernels"
fi
# The element types a kernel takes, and the first of them; whether it uses the tensor-core
# helpers (tensor: yes). From the catalog read above.
precisions() { awk -v k="$1" '$1 == k { for (i = 3; i <= NF; i++) printf "%s%s", $i, i < NF ? " " : "\n" }' "$T_DIR/catalog"; }
first_precision() { precisions "$1" | cut -d" " -f1; }
# The types a kernel is compiled in below: all of them; under the sanitizers each type in
# one kernel at least (a type is a row of defines, the same offline path in every kernel):
# the first type of each kernel, every type of the naive kernel (float, double) and of the
# tensor ladder's first step (tf32, half, bfloat16).
target_precisions() {
   case "${GEMMTOP_SANITIZE:-}:$1" in
   :* | *:mygemm01_naive | *:tensor01_global) precisions "$1" ;;
   *) first_precision "$1" ;;
   esac
}
is_tensor() { grep -q "^$1 tensor " "$T_DIR/catalog"; }

nvrtc=no
have_nvrtc && nvrtc=yes
have_hip=no
"$GEMMTOP_BIN" inspect --kernel mygemm01_naive --backend hip --arch gfx906 --code none >/dev/null 2>"$T_DIR/hip.err" && have_hip=yes

# AMD's registers are read from the code object's notes with llvm-readelf (any version).
have_readelf=no
have_llvm_tool llvm-readelf && have_readelf=yes

# The report's registers and occupancy, read from its JSON by one python3 (its start is a
# good part of a check's time: this script makes about 300).
check_target() { # BACKEND ARCH KERNEL PRECISION
   run_gemmtop inspect --backend "$1" --arch "$2" --kernel "$3" --precision "$4" --size 1024 --code none --format json
   set -- "$@" $(printf '%s\n' "$OUT" | python3 -c 'import json, sys
o = json.loads(sys.stdin.readline())
print(o["registers"], o["occupancy_pct"])' 2>/dev/null)
   if [ "$RC" -eq 0 ] && [ "${5:-0}" -gt 0 ] 2>/dev/null; then
      ok "$3 $4 compiles for $1 $2 ($5 registers, occupancy $6%)"
   elif [ "$RC" -eq 0 ] && [ "$1" = hip ] && [ $have_readelf = no ] && json_field target >/dev/null 2>&1; then
      ok "$3 $4 compiles for $1 $2 (registers unread: llvm-readelf is not installed)"
   else
      not_ok "$3 $4 for $1 $2 (exit $RC)" "$OUT
$ERR"
   fi
}

for k in $kernels; do
   for prec in $(target_precisions "$k"); do
      if [ $nvrtc = yes ]; then
         check_target cuda sm_90 "$k" "$prec"
      else
         ok "$k $prec for cuda sm_90 # SKIP $(nvrtc_missing)"
      fi
      for arch in gfx906 gfx90a; do
         if is_tensor "$k"; then
            # Refused before any compiler runs: no hipRTC needed.
            run_gemmtop inspect --backend hip --arch "$arch" --kernel "$k" --precision "$prec" --size 1024 --code none
            [ "$RC" -eq 2 ] && expect_in "MFMA" "$ERR" "$k $prec is refused for hip $arch, naming MFMA's layouts" ||
               not_ok "$k $prec for hip $arch: exit $RC, wanted a refusal (2)" "$OUT
$ERR"
         elif [ $have_hip = yes ]; then
            check_target hip "$arch" "$k" "$prec"
         else
            ok "$k $prec for hip $arch # SKIP hipRTC is not installed: $(head -c 200 "$T_DIR/hip.err")"
         fi
      done
   done
done

# The ablation switches compile through both preludes too (gt_mix, vector splats), every
# variant with all four at once; and no-fma really takes the FMAs out of the PTX.
for k in $kernels; do
   if [ $nvrtc = yes ]; then
      prec=$(precisions "$k" | grep -qw double && echo double || first_precision "$k")
      run_gemmtop inspect --backend cuda --arch sm_90 --kernel "$k" --precision "$prec" --size 256 --code none \
         --ablate no-a,no-b,no-fma,const-store
      expect_rc 0 "$k $prec, all ablations, compiles for cuda sm_90"
   fi
   if [ $have_hip = yes ] && ! is_tensor "$k"; then
      prec=$(first_precision "$k")
      run_gemmtop inspect --backend hip --arch gfx906 --kernel "$k" --precision "$prec" --size 256 --code none \
         --ablate no-a,no-b,no-fma,const-store
      expect_rc 0 "$k $prec, all ablations, compiles for hip gfx906"
   fi
done
if [ $nvrtc = yes ]; then
   run_gemmtop inspect --backend cuda --arch sm_90 --kernel magma_fermi --size 256 --code ptx
   real=$(printf '%s\n' "$OUT" | grep -c 'fma.rn.f32')
   run_gemmtop inspect --backend cuda --arch sm_90 --kernel magma_fermi --size 256 --code ptx --ablate no-fma
   abl=$(printf '%s\n' "$OUT" | grep -c 'fma.rn.f32')
   expect_in "ABLATED    no-fma" "$OUT" "inspect --ablate labels the code"
   [ "$real" -ge 256 ] && [ "$abl" -lt $((real / 4)) ] && ok "no-fma: $real FMAs in the PTX, $abl left" ||
      not_ok "no-fma takes the FMAs out ($real, then $abl)"
fi

# Code is shown when asked for.
if [ $nvrtc = yes ]; then
   run_gemmtop inspect --backend cuda --arch sm_90 --kernel mygemm01_naive --code ptx
   expect_in ".target sm_90" "$OUT" "inspect shows PTX for sm_90"
fi
if [ $have_hip = yes ]; then
   run_gemmtop inspect --backend hip --arch gfx906 --kernel mygemm01_naive --code isa
   if have_llvm_tool llvm-objdump; then
      expect_in "s_endpgm" "$OUT" "inspect shows the gfx906 ISA"
   else
      expect_in "none readable here: AMD ISA needs llvm-objdump" "$OUT" "without llvm-objdump, inspect says the gfx906 ISA needs it"
   fi
fi
run_gemmtop inspect --backend cuda --arch gfx906 --kernel mygemm01_naive
expect_rc 2 "a gfx target for cuda is a usage error"
finish
