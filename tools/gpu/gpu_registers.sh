#!/bin/sh
# On the GPU machine: registers and occupancy on NVIDIA's OpenCL even when NVIDIA's own JIT
# cache answers the build and leaves no build log (issue 13). gemmtop's cache is emptied
# between the two inspections, so the second build is answered by NVIDIA's cache; both
# must give registers (the second from the CUDA driver loading the PTX, or ptxas) and an
# occupancy, and gemmtop's output must hold no stray "binary file matches" line.
. tools/gpu/gpu_setup.sh
. tests/e2e/lib.sh
B=${GEMMTOP_BIN:-build/gemmtop}
for pass in first second; do
   XDG_CACHE_HOME=$(mktemp -d) "$B" inspect --device NVIDIA --preset fast-02-warptile --format json \
      >"$T_DIR/$pass.json" 2>"$T_DIR/$pass.err"
   OUT=$(cat "$T_DIR/$pass.json")
   regs=$(json_field registers 2>/dev/null)
   case "$regs" in
   '' | *[!0-9]*) not_ok "$pass inspection on NVIDIA's OpenCL gives registers" "$OUT$(cat "$T_DIR/$pass.err")" ;;
   *) ok "$pass inspection on NVIDIA's OpenCL gives $regs registers ($(json_field registers_from 2>/dev/null || echo 'from the build log'))" ;;
   esac
   XDG_CACHE_HOME=$(mktemp -d) "$B" inspect --device NVIDIA --preset fast-02-warptile >"$T_DIR/$pass.txt" 2>&1
   expect_in "occupancy" "$(cat "$T_DIR/$pass.txt")" "$pass: the occupancy is estimated"
   case "$(cat "$T_DIR/$pass.txt")" in
   *"not reported"* | *"binary file matches"*) not_ok "$pass: no 'not reported' or stray grep line" "$(cat "$T_DIR/$pass.txt")" ;;
   *) ok "$pass: no 'not reported' or stray grep line" ;;
   esac
done
finish
