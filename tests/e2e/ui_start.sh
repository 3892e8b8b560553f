#!/bin/sh
# The explorer starts on the best device with the first kernel of the catalog and
# measures at once, at 80x24 and at 120x40.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

first=$("$GEMMTOP_BIN" list kernels --format json | python3 -c 'import json,sys
for line in sys.stdin:
    k=json.loads(line)
    if not k.get("hidden"):
        print(k["name"]); break')

ui_start 80 24
ui_expect " 1 Kernel  $first" "80x24: opens on the first kernel of the catalog ($first)"
ui_expect "M=512 N=512 K=512" "80x24: a CPU device starts at 512x512x512"
ui_expect "pthread" "80x24: the header names the device"
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
