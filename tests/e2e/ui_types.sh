#!/bin/sh
# The explorer's problem setup offers the tensor-core element types: Right on the precision
# field goes float, double, tf32, half; applying half to a kernel that takes only float and
# double shows the refusal, naming the kernel and its types, and Left back to float runs it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

ui_start 120 32 -- --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "mygemm01_naive at 64 verifies in float"
ui_keys s
ui_expect "Problem setup" "s opens the problem setup"
ui_keys Down Down Down Down
ui_keys Right
ui_expect_re "precision +double" "Right on precision: double"
ui_keys Right
ui_expect_re "precision +tf32" "then tf32"
ui_keys Right
ui_expect_re "precision +half" "then half"
ui_keys Enter
ui_expect "M=64 N=64 K=64  half" "the problem line says half"
ui_expect "does not take half: it takes float, double" "the kernel's refusal names its types"
ui_keys s
ui_expect "Problem setup" "the setup again"
ui_keys Down Down Down Down Left Left Left Enter
ui_expect "M=64 N=64 K=64  float" "back to float"
ui_expect_re "verify +[^ ]+ verified" "and it runs and verifies again"
ui_keys q
ui_expect_exit 0 "q quits"
finish
