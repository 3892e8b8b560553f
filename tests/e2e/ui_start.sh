#!/bin/sh
# The explorer starts on the best device (an OpenCL GPU, else a CUDA GPU, else a HIP GPU,
# else OpenCL's CPU: whatever this machine has) with the first kernel of the catalog and
# measures at once, at 80x24 and at 120x40.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

first=$("$GEMMTOP_BIN" list kernels --format json | python3 -c 'import json,sys
for line in sys.stdin:
    k=json.loads(line)
    if not k.get("hidden"):
        print(k["name"]); break')

# The device it should choose, from every backend's devices (listed in the backends'
# order): the first GPU of the first backend that has one, else the first backend's
# accelerator, CPU or other device, in that order. "backend|name|type".
best=$("$GEMMTOP_BIN" list devices --format json 2>/dev/null | python3 -c 'import json,sys
devs=[json.loads(l) for l in sys.stdin if l.strip()]
first=devs[0]["backend"]
pick=next((d for d in devs if d["type"]=="GPU"), None)
for t in ("accelerator", "CPU", "other"):
    pick=pick or next((d for d in devs if d["backend"]==first and d["type"]==t), None)
print("%s|%s|%s" % (pick["backend"], pick["name"], pick["type"]))')
best_backend=${best%%|*}
best_type=${best##*|}
best_name=${best#*|}
best_name=${best_name%|*}
# A CPU starts at 512, a GPU at 2048.
best_size=512
[ "$best_type" = CPU ] || best_size=2048

ui_start_any_device 80 24
ui_expect " 1 Kernel  $first" "80x24: opens on the first kernel of the catalog ($first)"
ui_expect " gemmtop  $best_name  $best_backend" "80x24: on the best device, named in the header ($best_name, $best_backend)"
ui_expect "M=$best_size N=$best_size K=$best_size" "80x24: a $best_type device starts at ${best_size}x${best_size}x$best_size"
for pane in " 1 Kernel" " 2 Results" " 3 History" " 4 Log" "F1Help" "F10Quit"; do
   case "$UI_LAST" in
   *"$pane"*) ok "80x24: shows '$pane'" ;;
   *) not_ok "80x24: shows '$pane'" "$UI_LAST" ;;
   esac
done
ui_expect_re "verify +[^ ]+ verified" "80x24: the first run is verified at once"
ui_expect_re "speed +[0-9.]+ GFLOPS" "80x24: GFLOPS shown"
ui_expect_re "time +[0-9.]+ (ms|s|us|µs) median" "80x24: median time shown"
ui_expect_re "peak +(—|-) " "80x24: % of peak is a dash until measured (no made-up number)"
ui_more_launches "80x24: keeps measuring, like top"
ui_keys q
ui_expect_exit 0 "80x24: q quits"

ui_start 120 40 -- --kernel mygemm01_naive --size 256
ui_expect " 1 Kernel  mygemm01_naive" "120x40: --kernel chooses the variant"
ui_expect "M=256 N=256 K=256" "120x40: --size sets the problem"
ui_expect_re "verify +[^ ]+ verified" "120x40: verified"
ui_expect_re "launch +global 256x256 +local 16x16" "120x40: launch geometry shown"
ui_expect_re "^ (mygemm|general)" "120x40: variants grouped under their ladder"
ui_expect_re "01_naive TSN=16 TSM=16 .*[0-9]" "120x40: the history charts the configuration"
ui_keys F10
ui_expect_exit 0 "120x40: F10 quits"
finish
