#!/bin/sh
# The disk cache of compiled programs: an entry that holds another build or is damaged is
# a miss that is said, never run; `cache clear` removes what killed writers left; several
# processes compiling the same kernel at once on an empty cache all succeed (PoCL's own
# kernel cache on); an unwritable cache folder is named; an offline compile (inspect --arch,
# NVRTC) is kept with its log, and a damaged entry of it is compiled afresh.
. "$(dirname "$0")/lib.sh"
export XDG_CACHE_HOME="$T_DIR/cache"
dir="$XDG_CACHE_HOME/gemmtop/opencl"
k="--kernel mygemm01_naive --size 32 --reps 1 --warmup 0 --format json"

# Two configurations, each compiled once; then TSN=8's program copied over TSN=16's entry.
run_gemmtop run $k --set TSN=8
expect_rc 0 "TSN=8 compiled and verified"
ts8=$(ls "$dir"/*.bin)
run_gemmtop run $k --set TSN=16
expect_rc 0 "TSN=16 compiled and verified"
ts16=$(ls "$dir"/*.bin | grep -v "$ts8")
if [ -f "$ts8" ] && [ -f "$ts16" ]; then ok "two entries on disk"; else not_ok "two entries on disk" "$(ls -l "$dir")"; fi
cp "$ts8" "$ts16"
run_gemmtop run $k --set TSN=16
expect_rc 0 "TSN=16 with TSN=8's program under its key still verifies"
[ "$(json_field cached)" = false ] && ok "the wrong entry is a miss: compiled afresh" || not_ok "compiled afresh" "$OUT"
expect_in "holds a program built from something else" "$ERR" "the miss is said"
expect_in "-DTSN=8" "$ERR" "naming what the entry was built from"
run_gemmtop run $k --set TSN=16
[ "$(json_field cached)" = true ] && [ -z "$ERR" ] && ok "the entry was replaced by the right one" \
   || not_ok "the entry was replaced by the right one" "$OUT $ERR"

# A damaged entry: one byte of what it holds changed (with PoCL's kernel cache on, the
# record of the build; else the program).
python3 - "$ts16" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[-5] ^= 0xff
open(sys.argv[1], "wb").write(data)
PY
run_gemmtop run $k --set TSN=16
[ "$RC" = 0 ] && [ "$(json_field cached)" = false ] && ok "a damaged entry is a miss" || not_ok "damaged entry" "$OUT $ERR"
expect_in "is damaged" "$ERR" "the damage is said"

# What a killed writer leaves: cleared with the programs.
touch "$dir/0123456789abcdef.bin.tmp.4242.0" "$dir/0123456789abcdef.bin.tmp.4242.1"
run_gemmtop cache clear
expect_rc 0 "cache clear"
expect_in "removed 2 compiled programs and 2 unfinished files of killed writers" "$OUT" "counting the leftovers"
left=$(ls -A "$dir")
[ -z "$left" ] && ok "nothing is left in the cache folder" || not_ok "nothing left" "$left"

# Six processes at once on empty caches (gemmtop's and PoCL's, which is on): all succeed,
# and one compiles while the others wait for it and load its program.
export XDG_CACHE_HOME="$T_DIR/cache-parallel"
for i in 1 2 3 4 5 6; do
   POCL_KERNEL_CACHE=1 "$GEMMTOP_BIN" run $POCL --kernel mygemm01_naive --size 16 --reps 1 --warmup 0 --format json \
      >"$T_DIR/par.$i" 2>"$T_DIR/par-err.$i" &
done
wait
failed=0
compiled=0
for i in 1 2 3 4 5 6; do
   if python3 -c 'import json,sys; o=json.loads(open(sys.argv[1]).readline()); assert o["verified"]' "$T_DIR/par.$i" 2>/dev/null; then
      grep -q '"cached":false' "$T_DIR/par.$i" && compiled=$((compiled + 1))
   else
      failed=$((failed + 1))
      cat "$T_DIR/par-err.$i" >>"$T_DIR/par-errors"
   fi
done
[ "$failed" = 0 ] && ok "6 processes compiling at once all verify" || not_ok "$failed of 6 failed" "$(cat "$T_DIR/par-errors")"
[ "$compiled" = 1 ] && ok "one of them compiled, the others loaded its program" || not_ok "compiled $compiled times" ""

# PoCL lists no device when its cache folder cannot be made: the message names it. Only
# PoCL's driver is loaded, so that a GPU's platform does not hide it.
if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
   mkdir -p "$T_DIR/vendors"
   cp /etc/OpenCL/vendors/pocl.icd "$T_DIR/vendors/"
   (unset POCL_CACHE_DIR; export OCL_ICD_VENDORS="$T_DIR/vendors" XDG_CACHE_HOME=/dev/null; "$GEMMTOP_BIN" list devices --backend opencl) \
      >"$T_DIR/out" 2>"$T_DIR/err"
   RC=$?
   ERR=$(cat "$T_DIR/err")
   listed=$(grep -E '^\[[0-9]+\]' "$T_DIR/out")
   # Both seen on the GPU machine (PoCL 5.0, another ICD loader), where this exited 0.
   if [ "$RC" -eq 0 ] && [ -n "$listed" ] && ! grep -q "Portable Computing Language" "$T_DIR/out"; then
      ok "unwritable cache folder # SKIP the ICD loader listed drivers beyond OCL_ICD_VENDORS: $listed"
   elif [ "$RC" -eq 0 ] && [ -n "$listed" ]; then
      ok "unwritable cache folder # SKIP this PoCL lists its device with no cache folder it can make: $listed"
   else
      expect_rc 1 "a cache folder that cannot be made: no device"
      expect_in "PoCL needs its cache folder /dev/null/pocl" "$ERR" "the folder is named"
      expect_in "XDG_CACHE_HOME" "$ERR" "and what to set"
   fi
else
   ok "unwritable cache folder # SKIP PoCL's ICD file is not in /etc/OpenCL/vendors"
fi

# Offline compiles: NVRTC's PTX and CUBIN kept with their logs (ptxas's report), found again.
if have_nvrtc; then
   insp="inspect --backend cuda --arch sm_90 --kernel mygemm02_tiled --set TS=16 --size 256 --code ptx --format json"
   cdir="$XDG_CACHE_HOME/gemmtop/cuda"
   before=$(ls "$cdir" 2>/dev/null | grep -c '\.bin$')
   run_gemmtop $insp
   first=$OUT
   after=$(ls "$cdir" | grep -c '\.bin$')
   [ "$RC" -eq 0 ] && [ $((after - before)) -eq 4 ] && ok "an offline compile keeps the PTX, the CUBIN and their logs" ||
      not_ok "offline entries" "rc $RC, $before -> $after entries; $ERR"
   run_gemmtop $insp
   [ "$RC" -eq 0 ] && [ "$OUT" = "$first" ] && [ "$(ls "$cdir" | grep -c '\.bin$')" -eq "$after" ] &&
      ok "inspected again from the cache: the same report, registers and PTX" || not_ok "offline cache hit" "$ERR"
   printf '%s\n' "$OUT" | grep -q '"registers":[1-9]' && ok "the registers came back with the log" ||
      not_ok "registers from the cached log" "$OUT"
   for f in "$cdir"/*.bin; do printf 'damaged' >>"$f"; done
   run_gemmtop $insp
   [ "$RC" -eq 0 ] && [ "$OUT" = "$first" ] && ok "a damaged offline entry is compiled afresh: the same report" ||
      not_ok "damaged offline entry" "rc $RC; $ERR"
   expect_in "compiling afresh" "$ERR" "and the damage is said"
else
   ok "offline compiles kept # SKIP $(nvrtc_missing)"
fi
finish
