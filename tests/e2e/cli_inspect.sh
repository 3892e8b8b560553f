#!/bin/sh
# gemmtop inspect on the device (PoCL here): resources, and the code with counts taken
# from it — PoCL's CPU code through llvm-objdump, or a plain "none readable here"; JSON
# counts that agree with the listing; --code none; and hipRTC's gfx906 ISA with its LDS
# counts where hipRTC is installed.
. "$(dirname "$0")/lib.sh"

# A random tile size: the local memory is 2 tiles of TS x TS floats.
set -- 8 16 32
ts=$(python3 -c 'import random,sys; print(random.choice(sys.argv[1:]))' "$@")
run_gemmtop inspect --kernel mygemm02_tiled --set TS="$ts" --size 64
expect_rc 0 "inspect mygemm02_tiled TS=$ts"
lm=$(printf '%s\n' "$OUT" | sed -nE "s/^local mem  ([0-9]+) B per work-group \($((ts * ts)) work-items\)$/\1/p")
if [ -n "$lm" ] && [ "$lm" -ge "$((2 * ts * ts * 4))" ] && [ "$lm" -le "$((2 * ts * ts * 4 + 64))" ]; then
   ok "local memory ($lm B: the two tiles) and group size"
else
   not_ok "local memory and group size" "$OUT"
fi
case "$OUT" in
*"CPU code (PoCL"*)
   expect_in "<_pocl_kernel_gemm>:" "$OUT" "the CPU code of the work-group function"
   lines=$(printf '%s\n' "$OUT" | grep -cE '^ *[0-9a-f]+:[[:space:]]+[a-z]')
   expect_in "counts     CPU code: $lines instructions" "$OUT" "the counts line agrees with the listing ($lines instructions)"
   ;;
*"counts     PTX:"*)
   fma=$(printf '%s\n' "$OUT" | grep -cE '^[[:space:]]*(@!?%p[0-9]+[[:space:]]+)?(fma|mad)\.[a-z.]*f(16|32|64)[[:space:]]')
   shl=$(printf '%s\n' "$OUT" | grep -cE '^[[:space:]]*ld\.shared')
   expect_in ": $fma FMA, $shl shared loads" "$OUT" "PTX: $fma FMA and $shl shared loads, as in the listing"
   ;;
*"none readable here"*) ok "no code readable: said so # SKIP llvm-objdump is not installed" ;;
*) not_ok "the code or why there is none" "$OUT" ;;
esac

run_gemmtop inspect --kernel mygemm02_tiled --set TS="$ts" --size 64 --format json
expect_rc 0 "inspect --format json"
# The two tiles at least (NVIDIA's compiler adds a few bytes of its own).
lm=$(json_field local_mem_bytes)
if [ "$lm" -ge "$((2 * ts * ts * 4))" ] && [ "$lm" -le "$((2 * ts * ts * 4 + 64))" ]; then ok "JSON local_mem_bytes ($lm)"; else not_ok "JSON local_mem_bytes" "$OUT"; fi
if printf '%s\n' "$OUT" | python3 -c 'import json,sys,re
o=json.loads(sys.stdin.readline())
if "code" not in o: sys.exit(0)
c=o["code_counts"]
lines=o["code"].split("\n")
if lines and lines[-1] == "": lines.pop()  # the newline ending the last line
def count(rx): return sum(1 for l in lines if re.match(rx, l))
if o["code_kind"].startswith("CPU"):
    n, fma = count(r"^\s*[0-9a-f]+:\s+[a-z]"), count(r"^\s*[0-9a-f]+:\s+v?f(n?m(add|sub)|mla|mls)")
elif o["code_kind"] == "PTX":
    n = count(r"^\s*(@!?%p\d+\s+)?[a-z][a-z0-9_.]*(\s.*)?;\s*$")
    fma = count(r"^\s*(@!?%p\d+\s+)?(fma|mad)\.[a-z.]*f(16|32|64)\s")
else:
    sys.exit(2)
sys.exit(0 if c["instructions"] == n and c["fma"] == fma and c["lines"] == len(lines) else 1)'; then
   ok "JSON code_counts agree with the code"
else
   not_ok "JSON code_counts agree with the code" "$(printf '%s' "$OUT" | head -c 600)"
fi

run_gemmtop inspect --kernel mygemm02_tiled --size 64 --code none
expect_rc 0 "inspect --code none"
case "$OUT" in
*"counts "* | *"<_pocl_kernel"*) not_ok "--code none prints no code" "$OUT" ;;
*) ok "--code none prints no code" ;;
esac

run_gemmtop inspect --backend hip --arch gfx906 --kernel mygemm02_tiled --set TS="$ts" --size 64
if [ "$RC" -ne 0 ]; then
   ok "gfx906 ISA counts # SKIP hipRTC is not installed: $(printf '%s' "$ERR" | head -c 200)"
elif ! have_llvm_tool llvm-objdump; then
   ok "gfx906 ISA counts # SKIP llvm-objdump is not installed"
else
   lds=$(printf '%s\n' "$OUT" | grep -cE '^[[:space:]]+ds_(read|load)')
   fma=$(printf '%s\n' "$OUT" | grep -cE '^[[:space:]]+v_(fma|fmac|mac|mad|pk_fma)_f')
   expect_in "counts     AMD ISA:" "$OUT" "gfx906: the counts line"
   expect_in " $fma FMA, $lds LDS loads" "$OUT" "gfx906: $fma FMA and $lds LDS loads, as in the listing"
fi
# Inspect's options only, and no stray word (it was ignored).
run_gemmtop inspect --kernel mygemm01_naive --size 64 --reps 3
expect_rc 2 "inspect does not take --reps"
expect_in "--reps is for 'gemmtop run', 'gemmtop sweep', 'gemmtop bench', 'gemmtop explain' and 'gemmtop tune', not for 'gemmtop inspect'" "$ERR" "saying whose option it is"
run_gemmtop inspect --kernel mygemm01_naive --code sas
expect_rc 2 "an unknown --code"
expect_in "--code 'sas': use ptx, sass, isa or none" "$ERR" "lists the valid ones"
run_gemmtop inspect --kernel mygemm01_naive stray
expect_rc 2 "a stray word is refused"
# An ablation's code against the real kernel's: is the loop optimised out? A test kernel whose
# const-store writes the constant past the sum lets the compiler drop the loop; its no-fma,
# and MAGMA's ablations, keep it.
use_test_kernels
run_gemmtop inspect --kernel test_dead_loop --size 64 --ablate const-store
case "$OUT" in
*"none readable here"*) ok "the loop check # SKIP no code readable (llvm-objdump is not installed)" ;;
*)
   expect_in "loop       OPTIMISED OUT: " "$OUT" "test_dead_loop const-store: the loop is optimised out, said so"
   run_gemmtop inspect --kernel test_dead_loop --size 64 --ablate const-store --format json
   kept=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); print(o["loop_kept"], o["real_instructions"] > 0)' 2>&1)
   [ "$kept" = "False True" ] && ok "JSON: loop_kept false, with the real kernel's counts" || not_ok "JSON loop_kept ($kept)" "$OUT"
   run_gemmtop inspect --kernel test_dead_loop --size 64 --ablate no-fma
   expect_in "loop       kept: " "$OUT" "test_dead_loop no-fma: the loop is kept"
   run_gemmtop inspect --preset magma-1-fermi --size 128 --ablate no-a,no-b
   expect_in "loop       kept: " "$OUT" "magma no-a,no-b: the loop is kept"
   run_gemmtop inspect --preset magma-1-fermi --size 128
   if [ "$RC" -eq 0 ] && ! printf '%s\n' "$OUT" | grep -q "^loop "; then
      ok "a real kernel has no loop line"
   else
      not_ok "a real kernel has no loop line (exit $RC)" "$OUT"
   fi
   ;;
esac

finish
