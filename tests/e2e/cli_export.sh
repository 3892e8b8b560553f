#!/bin/sh
# gemmtop export-kernel on PoCL: the configuration as a standalone OpenCL kernel, a C
# launcher and a Makefile; the launcher builds with the system's compiler and OpenCL and
# verifies on PoCL from the exported files alone (copied elsewhere, without gemmtop's
# kernels), in float and in double with an odd size, a transposed layout, alpha and beta;
# a kernel broken after export fails the launcher's check; what cannot be exported is
# refused with its reason, and nothing is overwritten.
. "$(dirname "$0")/lib.sh"
if ! command -v cc >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
   echo "ok 1 - # SKIP no C compiler or make to build the launcher"
   exit 0
fi
dev=$(printf '%s\n' "$POCL" | sed -E 's/.*--device ([0-9]+).*/\1/')
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')

run_gemmtop export-kernel --kernel mygemm03_wpt --set TS=32 --set WPT=8 --size 128 --dir "$T_DIR/wpt"
expect_rc 0 "export-kernel mygemm03_wpt TS=32 WPT=8 at 128"
expect_in "build and run: make -C $T_DIR/wpt run" "$OUT" "it names the files and how to build them"
if [ -f "$T_DIR/wpt/mygemm03_wpt.cl" ] && [ -f "$T_DIR/wpt/mygemm03_wpt_launch.c" ] && [ -f "$T_DIR/wpt/Makefile" ]; then
   ok "the kernel, the launcher and a Makefile are written"
else
   not_ok "the kernel, the launcher and a Makefile are written" "$(ls -la "$T_DIR/wpt" 2>&1)"
fi
cl=$(cat "$T_DIR/wpt/mygemm03_wpt.cl" 2>/dev/null)
expect_in "#define TS 32" "$cl" "the parameters are baked in as #defines"
expect_in "#define WPT 8" "$cl" "both of them"
if grep -q '^[[:space:]]*#[[:space:]]*include' "$T_DIR/wpt/mygemm03_wpt.cl"; then
   not_ok "the kernel includes nothing: the helpers are inlined" "$(grep -n include "$T_DIR/wpt/mygemm03_wpt.cl")"
else
   ok "the kernel includes nothing: the helpers are inlined"
fi

# Built and run where gemmtop is not: a copy of the three files alone.
mkdir -p "$T_DIR/elsewhere"
cp "$T_DIR/wpt/mygemm03_wpt.cl" "$T_DIR/wpt/mygemm03_wpt_launch.c" "$T_DIR/wpt/Makefile" "$T_DIR/elsewhere/"
if make -s -C "$T_DIR/elsewhere" >"$T_DIR/make.out" 2>&1 && [ -x "$T_DIR/elsewhere/mygemm03_wpt_launch" ]; then
   ok "the launcher builds with make (cc, -lOpenCL)"
else
   not_ok "the launcher builds with make (cc, -lOpenCL)" "$(cat "$T_DIR/make.out")"
fi
launch_out=$(cd "$T_DIR/elsewhere" && env -u GEMMTOP_KERNELS ./mygemm03_wpt_launch mygemm03_wpt.cl "$dev" "$seed" 2>&1)
launch_rc=$?
if [ "$launch_rc" -eq 0 ]; then ok "the exported kernel runs on PoCL and verifies (seed $seed)"; else not_ok "the exported kernel runs on PoCL and verifies (seed $seed)" "$launch_out"; fi
expect_in "verified: worst relative error" "$launch_out" "the launcher says it verified"
expect_in "128x128x128, median" "$launch_out" "and times it"

# Broken after export (a work-item's share of C halved, the launch unchanged): the
# launcher's own check fails it.
sed 's/^#define WPT 8$/#define WPT 4/' "$T_DIR/elsewhere/mygemm03_wpt.cl" >"$T_DIR/elsewhere/broken.cl"
broken_out=$(cd "$T_DIR/elsewhere" && ./mygemm03_wpt_launch broken.cl "$dev" "$seed" 2>&1)
broken_rc=$?
if [ "$broken_rc" -eq 1 ]; then ok "a kernel broken after export fails the launcher's check (exit 1)"; else not_ok "a kernel broken after export fails the launcher's check: exit $broken_rc" "$broken_out"; fi
expect_in "WRONG: " "$broken_out" "saying how many elements are wrong"

# Double, an odd size, both operands transposed, alpha and beta.
run_gemmtop export-kernel --kernel general_any --size 77x45x33 --layout TT --alpha -2 --beta 3 --precision double \
   --dir "$T_DIR/any"
expect_rc 0 "export-kernel general_any double 77x45x33 TT alpha -2 beta 3"
launch_out=$(make -s -C "$T_DIR/any" >/dev/null 2>&1 && cd "$T_DIR/any" && ./general_any_launch general_any.cl "$dev" "$seed" 2>&1)
launch_rc=$?
if [ "$launch_rc" -eq 0 ]; then ok "it verifies in double (seed $seed)"; else not_ok "it verifies in double (seed $seed)" "$launch_out"; fi
expect_in "77x45x33" "$launch_out" "at the odd size"

# Nothing is overwritten: a second export into the same folder is refused, the file kept.
sum=$(cksum <"$T_DIR/wpt/mygemm03_wpt.cl")
echo "# a note" >>"$T_DIR/wpt/Makefile"
run_gemmtop export-kernel --kernel mygemm03_wpt --size 256 --dir "$T_DIR/wpt"
expect_rc 2 "an export into a folder that has the files is refused"
expect_in "exists: export-kernel never overwrites a file" "$ERR" "saying which file exists"
if [ "$(cksum <"$T_DIR/wpt/mygemm03_wpt.cl")" = "$sum" ] && grep -q "# a note" "$T_DIR/wpt/Makefile"; then
   ok "the files there are untouched"
else
   not_ok "the files there are untouched" "$(ls -la "$T_DIR/wpt")"
fi

# What the launcher does not make is refused with its reason.
run_gemmtop export-kernel --kernel mygemm06_2d --size 100 --dir "$T_DIR/no1"
expect_rc 2 "a configuration gemmtop refuses is not exported"
expect_in "M must be a multiple of TSM" "$ERR" "naming the rule"
run_gemmtop export-kernel --kernel tensor01_global --size 128 --precision half --dir "$T_DIR/no2"
expect_rc 2 "a tensor-core kernel in half precision is refused"
expect_in "exports float and double GEMMs on CUDA cores" "$ERR" "saying which types it exports"
long=$(python3 -c 'print("d" * 1100)')
run_gemmtop export-kernel --kernel mygemm03_wpt --size 128 --dir "$T_DIR/$long"
expect_rc 2 "a --dir too long to hold is refused, not cut"
expect_in "--dir is " "$ERR" "saying how long it may be"
if [ ! -e "$T_DIR/no1" ] && [ ! -e "$T_DIR/no2" ]; then ok "a refused export writes nothing"; else not_ok "a refused export writes nothing" "$(ls -la "$T_DIR")"; fi
finish
