#!/bin/sh
# The explorer's header says warm or cold L2; the problem setup's timing field switches to
# a cold L2 (a 64 KiB L2 simulated, so that a rotation of copies is cheap on PoCL), the
# configuration runs and verifies again, and switching back says warm. PoCL has no driver
# figures: the header shows no clock, power or temperature.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init
export GEMMTOP_DEVICE_LIMITS=l2=65536

ui_start 120 32 -- --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "mygemm01_naive at 64 verifies"
ui_expect_re "M=64 N=64 K=64  float  NN  [^ ]+=1 [^ ]+=0  warm L2" "the header says warm L2"
case "$UI_LAST" in *" MHz"*) not_ok "no clock without a driver observer" "$UI_LAST" ;; *) ok "no clock without a driver observer" ;; esac
ui_keys s
ui_expect "Problem setup" "s opens the problem setup"
ui_keys Down Down Down Down Down Down Down Down Down
ui_expect_re "timing +warm L2" "the setup has a timing field: warm L2"
ui_keys Right
ui_expect_re "timing +cold L2" "Right makes it cold"
ui_keys Enter
ui_expect "=0  cold L2" "the header says cold L2"
ui_expect_re "verify +[^ ]+ verified" "the cold configuration runs and verifies"
ui_keys s Down Down Down Down Down Down Down Down Down Left Enter
ui_expect "=0  warm L2" "back to warm L2"
ui_keys q
ui_expect_exit 0 "q quits"
finish
