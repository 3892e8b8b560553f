#!/bin/sh
# Offline targets in the inspect pane (T): with no GPU, the registers, spills and
# occupancy of sm_90 (NVRTC) and gfx906 (hipRTC), the same figures `gemmtop inspect
# --arch` gives; T cycles back to the device measured. Each target is skipped (and said
# so) where its compiler is not installed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

# cli_registers BACKEND ARCH: the registers `gemmtop inspect --arch` reports, or "".
cli_registers() {
   "$GEMMTOP_BIN" inspect --backend "$1" --arch "$2" --kernel mygemm02_tiled --set TS=32 --size 64 --code none \
      --format json 2>"$T_DIR/$2.err" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["registers"])' 2>/dev/null
}
nv=$(cli_registers cuda sm_90)
amd=$(cli_registers hip gfx906)

ui_start 120 40 -- --kernel mygemm02_tiled --set TS=32 --size 64
ui_expect_re "verify +[^ ]+ verified" "the configuration verifies on the device"
ui_keys T
ui_expect " 6 Inspect" "T shows the inspect pane"
# Zoomed, the pane has room for its details (registers, spills, occupancy rows).
ui_keys z
if [ -n "$nv" ]; then
   ui_expect "target     cuda sm_90 (NVRTC, no device needed)" "T: sm_90 through NVRTC, without a device"
   ui_expect_re "^ registers +$nv per work-item" "sm_90: the registers of gemmtop inspect --arch sm_90 ($nv)"
   ui_expect_re "^ spills +[0-9]+ B stores, [0-9]+ B loads" "sm_90: spills"
   ui_expect_re "^ occupancy +[0-9]+ groups? per SM = [0-9]+ of 64 warps \([0-9]+%\), limited by" "sm_90: occupancy"
   ui_expect_re "code +PTX: [0-9]+ instructions: [0-9]+ FMA" "sm_90: instruction counts"
else
   ok "sm_90 in the inspect pane # SKIP NVRTC is not installed: $(head -c 200 "$T_DIR/sm_90.err")"
fi
ui_keys T
ui_expect "target     cuda sm_80" "T: sm_80 next"
ui_keys T
if [ -z "$amd" ]; then
   if [ -s "$T_DIR/gfx906.err" ]; then
      ok "gfx906 in the inspect pane # SKIP hipRTC is not installed: $(head -c 200 "$T_DIR/gfx906.err")"
   else # it compiled; AMD's registers are read with llvm-readelf (compile_targets.sh)
      ok "gfx906 in the inspect pane # SKIP its registers are unread here: llvm-readelf is not installed"
   fi
else
   # Beside PoCL's LLVM, hipRTC's compiles in a process of its own: the same figures.
   ui_expect "target     hip gfx906 (hipRTC, no device needed)" "T: gfx906 through hipRTC, without a device"
   ui_expect_re "^ registers +$amd per work-item \(VGPRs\)" "gfx906: the registers of gemmtop inspect --arch gfx906 ($amd)"
   ui_expect_re "^ occupancy +[0-9]+ groups? per CU = [0-9]+ of [0-9]+ wavefronts" "gfx906: occupancy"
   ui_expect_re "code +AMD ISA: [0-9]+ instructions: [0-9]+ FMA" "gfx906: instruction counts"
fi
ui_keys T T
ui_expect_re "target +opencl .*\(T: an offline target\)" "T goes back to the device measured"
ui_keys z
ui_more_launches "measuring went on throughout"
ui_keys q
ui_expect_exit 0 "q quits"
finish
