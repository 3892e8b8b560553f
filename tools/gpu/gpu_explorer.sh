#!/bin/sh
# On the GPU machine: the explorer itself, driven in tmux on the GPU (OpenCL, then CUDA):
# first figure, a parameter change and its latency, the vendor BLAS, the inspect pane, a
# sweep with its scatter, quitting. Screens go to $1 (default $OUT). Needs tmux: the
# carried tmux .deb files are unpacked by gpu_setup.sh.
. tools/gpu/gpu_setup.sh
out=${1:-$OUT}
. tests/e2e/lib.sh
. tests/e2e/ui_lib.sh
ui_init
UI_TIMEOUT=120
shot() { ui_screen > "$out/$1.txt"; }

ui_start 160 48 -- --device NVIDIA --preset fast-02-warptile --size 1024 --budget 8
ui_expect "NVIDIA H100" "the explorer opens on the H100 (OpenCL)"
ui_expect_re "verify +[^ ]+ verified" "fast-02-warptile verifies at 1024"
ui_expect_re "after the change|verified" "the log reports the first figure"
ui_wait_re "CLBlast" 60 && ok "the vendor BLAS (CLBlast) is timed once the keys are quiet" ||
   not_ok "the vendor BLAS is timed" "$UI_LAST"
shot opencl-first
# A parameter change: BM 128 -> 256 (the cursor's first parameter), then back. The log
# wraps its lines, so the latencies are read from the "(N ms after the change)" pieces.
latencies() { printf '%s\n' "$UI_LAST" | grep -aoE '\([0-9]+ ms after the change\)' | grep -aoE '[0-9]+ ms' | tr '\n' ' '; }
ui_keys Down Right
ui_expect_re "config +02_warptile BM=256" "Right changes BM to 256"
ui_wait_re "02_warptile BM=256 .*█.* [0-9]+" 60 && ok "BM=256 is measured (history row)" || not_ok "BM=256 measured" "$UI_LAST"
ui_wait_re "ms after the change" 30 && ok "the log gives the change's latency: $(latencies)" ||
   not_ok "the change's latency is logged" "$UI_LAST"
ui_keys Left
ui_expect_re "config +02_warptile BM=128" "Left goes back to BM=128"
sleep 2
UI_LAST=$(ui_screen)
ok "latencies in the log (first change, then back): $(latencies)"
shot opencl-change
ui_keys i
ui_expect_re "registers +[0-9]+" "the inspect pane shows NVIDIA's register count"
ui_expect_re "occupancy" "and the occupancy"
case "$UI_LAST" in
*"binary file matches"*) not_ok "no stray 'binary file matches' line (a grep on the screen)" "$UI_LAST" ;;
*) ok "no stray 'binary file matches' line (the screen's greps read it as text: grep -a)" ;;
esac
shot opencl-inspect
ui_keys 7
ui_keys S
ui_wait_re "8/8 +done" 300 && ok "a sweep of 8 configurations runs to the end on the GPU" || not_ok "the sweep ends" "$UI_LAST"
ui_expect_re "best [0-9.]+ GFLOPS" "the sweep names its best"
shot opencl-sweep
ui_keys q
ui_expect_exit 0 "q quits and restores the terminal"

ui_start 160 48 -- --backend cuda --preset fast-02-warptile-cuda --size 2048
ui_expect "NVIDIA H100" "the explorer opens on the H100 through CUDA"
ui_expect_re "verify +[^ ]+ verified" "fast-02-warptile-cuda verifies at 2048"
ui_wait_re "cuBLAS" 60 && ok "cuBLAS is timed beside it" || not_ok "cuBLAS is timed" "$UI_LAST"
shot cuda-first
ui_keys q
ui_expect_exit 0 "q quits (CUDA)"
finish
