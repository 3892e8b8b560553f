#!/bin/sh
# GEMMTOP_CUDA_COMPILER=nvcc: the CUDA toolkit's nvcc builds a kernel instead of NVRTC, to
# compare the two on one kernel (NVRTC and nvcc of CUDA 13.0 made different code from FP8
# step 5's source: docs/fp8.md). Offline here (inspect --arch): the target names nvcc, its
# ptxas report gives the registers, its PTX is listed and differs from NVRTC's where the
# two compilers differ; a compiler that cannot be started is named, with what to do.
. "$(dirname "$0")/lib.sh"

insp() {
   OUT=$(env GEMMTOP_CUDA_COMPILER="$1" "$GEMMTOP_BIN" inspect --backend cuda --arch sm_90a --kernel fp8h5_cluster \
      --precision e4m3 --scaling block --layout NT -m 3840 -n 3840 -k 4096 --compute-units 132 --code ptx 2>&1)
   RC=$?
}
insp "$T_DIR/no-such-nvcc"
expect_rc 1 "a GEMMTOP_CUDA_COMPILER that cannot be started fails the compile"
expect_in "GEMMTOP_CUDA_COMPILER=$T_DIR/no-such-nvcc: cannot start it" "$OUT" "naming it"
expect_in "unset it for NVRTC" "$OUT" "and saying what to do"

nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
if [ -z "$nvcc" ] || ! have_nvrtc; then
   ok "nvcc against NVRTC # SKIP $([ -z "$nvcc" ] && echo "nvcc is not installed" || nvrtc_missing)"
   finish
fi
insp nvcc
expect_rc 0 "nvcc builds FP8 step 5 for sm_90a"
expect_in "target     cuda sm_90a (nvcc, GEMMTOP_CUDA_COMPILER, no device needed)" "$OUT" "the target names nvcc"
if printf '%s\n' "$OUT" | grep -Eq '^registers  [0-9]+ per work-item'; then ok "its ptxas report gives the registers"
else not_ok "its ptxas report gives the registers" "$OUT"; fi
printf '%s\n' "$OUT" | sed -n '/^\.version/,$p' >"$T_DIR/nvcc.ptx"
insp ""
expect_rc 0 "and NVRTC, unset, as before"
expect_in "(NVRTC, no device needed)" "$OUT" "the target names NVRTC"
printf '%s\n' "$OUT" | sed -n '/^\.version/,$p' >"$T_DIR/nvrtc.ptx"
if [ -s "$T_DIR/nvcc.ptx" ] && [ -s "$T_DIR/nvrtc.ptx" ] && ! cmp -s "$T_DIR/nvcc.ptx" "$T_DIR/nvrtc.ptx"; then
   ok "both list PTX, and the two differ ($(grep -c . "$T_DIR/nvcc.ptx") and $(grep -c . "$T_DIR/nvrtc.ptx") lines)"
else
   not_ok "both list PTX, and the two differ" "$(wc -l "$T_DIR/nvcc.ptx" "$T_DIR/nvrtc.ptx")"
fi
finish
