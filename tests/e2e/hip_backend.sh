#!/bin/sh
# The HIP backend on this machine. With an AMD GPU: it lists the GPU and runs a small
# verified GEMM on it (through rocBLAS too when installed). Without one: every command
# that needs a device says plainly what the HIP runtime found and exits 1, the explorer
# steps aside the same way, and compiling for an AMD target without a GPU still works.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

have_runtime=no
for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /opt/rocm/lib; do
   ls "$d"/libamdhip64.so* >/dev/null 2>&1 && have_runtime=yes
done
[ -n "${GEMMTOP_HIP_RUNTIME:-}" ] && have_runtime=yes

run_gemmtop list devices --backend hip --format json
if [ "$RC" -eq 0 ]; then
   # An AMD GPU: the run path for real.
   ok "list devices --backend hip finds $(printf '%s\n' "$OUT" | wc -l) device(s): $(json_field name)"
   expect_in "gfx" "$(json_field arch)" "the device's gfx target is found"
   run_gemmtop run --backend hip --kernel mygemm02_tiled --size 256 --format json
   expect_rc 0 "a tiled kernel runs and verifies on the AMD GPU"
   [ "$RC" -eq 0 ] && expect_in "true" "$(json_field verified)" "verified is true"
   run_gemmtop run --backend hip --kernel mygemm02_tiled --size 256 --precision double --layout TN --vendor
   expect_rc 0 "double TN runs and verifies on the AMD GPU"
   expect_in "vendor" "$OUT" "the vendor line is there (rocBLAS, or why not)"
   run_gemmtop inspect --backend hip --kernel mygemm02_tiled --code none
   expect_rc 0 "inspect on the AMD GPU"
   finish
fi

# No AMD GPU here.
expect_rc 1 "list devices --backend hip without an AMD GPU"
expect_in "HIP backend" "$ERR" "the message names the HIP backend"
if [ $have_runtime = yes ]; then
   expect_in "found no AMD GPU" "$ERR" "it says the runtime is present and found no GPU"
   expect_in "libamdhip64" "$ERR" "it names the runtime library it loaded"
   expect_in "hipGetDeviceCount" "$ERR" "it gives what hipGetDeviceCount said"
else
   expect_in "no HIP runtime" "$ERR" "it says the HIP runtime is absent"
fi
[ -z "$OUT" ] && ok "nothing on stdout" || not_ok "nothing on stdout" "$OUT"

run_gemmtop run --backend hip --kernel mygemm01_naive --size 64
expect_rc 1 "run --backend hip without an AMD GPU"
expect_in "HIP backend" "$ERR" "run says why"
expect_in "--backend opencl" "$ERR" "run names the way out"
[ -z "$OUT" ] && ok "run prints no result" || not_ok "run prints no result" "$OUT"

run_gemmtop run --backend hip --kernel mygemm01_naive --size 64 --format json
expect_rc 1 "run --backend hip --format json without an AMD GPU"

run_gemmtop banks --backend hip --kernel mygemm02_tiled --size 64
expect_rc 1 "banks --backend hip without an AMD GPU"
expect_in "HIP backend" "$ERR" "banks says why"

run_gemmtop inspect --backend hip --kernel mygemm01_naive --code none
expect_rc 1 "inspect --backend hip with no --arch needs a device"
expect_in "--arch gfx906" "$ERR" "and points to --arch for compiling without one"

run_gemmtop list devices --backend rocm
expect_rc 2 "an unknown backend is a usage error"
expect_in "opencl, cuda, hip" "$ERR" "the message lists the backends"

# Compiling for an AMD target needs hipRTC only.
if [ $have_runtime = yes ]; then
   run_gemmtop inspect --backend hip --arch gfx906 --kernel mygemm01_naive --code none --format json
   expect_rc 0 "inspect --backend hip --arch gfx906 still compiles without a GPU"
   [ "$RC" -eq 0 ] && expect_in "gfx906" "$(json_field arch)" "for gfx906"
   # A full target id, as the run path passes the device's gcnArchName to hipRTC.
   run_gemmtop inspect --backend hip --arch "gfx90a:sramecc+:xnack-" --kernel mygemm02_tiled --code none --format json
   expect_rc 0 "hipRTC compiles for a full target id (gfx90a:sramecc+:xnack-)"
   [ "$RC" -eq 0 ] && [ "$(json_field arch)" = gfx90a ] && ok "its processor is gfx90a" ||
      not_ok "its processor is gfx90a" "$OUT"
   # Occupancy goes by the registers, read from the code object with llvm-readelf.
   if have_llvm_tool llvm-readelf; then
      [ "$RC" -eq 0 ] && expect_in "occupancy_pct" "$OUT" "occupancy is estimated for it"
   else
      run_gemmtop inspect --backend hip --arch "gfx90a:sramecc+:xnack-" --kernel mygemm02_tiled --code none
      expect_in "resource counts need llvm-readelf" "$OUT" "without llvm-readelf, inspect says the counts need it"
   fi
else
   ok "inspect --arch gfx906 # SKIP hipRTC is not installed"
fi

# The explorer steps aside with the same message and exit code 1.
ui_start 100 30 -- --backend hip
if ui_exited 30; then
   ui_expect "no device to measure on (hip backend)" "the explorer says it has no HIP device"
   ui_expect "HIP backend" "the explorer gives the HIP runtime's reason"
   ui_expect_exit 1 "the explorer exits 1 with --backend hip and no AMD GPU"
else
   not_ok "the explorer with --backend hip ended" "$(ui_screen)"
fi

# On PoCL, the setup dialog offers hip, says why it has no device and refuses to switch.
ui_start 100 30 -- --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "the explorer runs on OpenCL"
ui_keys s
ui_expect "Problem setup" "s opens the problem setup"
ui_keys Up Up Left
ui_expect "HIP backend" "choosing hip in the setup shows the HIP runtime's reason in the device row"
ui_keys Enter
ui_expect "no device to switch to" "applying it is refused with a message"
ui_keys Escape
ui_expect_gone "Problem setup" "Esc closes the setup"
ui_expect_re "verify +[^ ]+ verified" "the explorer goes on on OpenCL"
ui_keys q
ui_expect_exit 0 "q quits"
finish
