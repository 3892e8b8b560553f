#!/bin/sh
# The explorer's problem setup offers the tensor-core element types: Right on the precision
# field goes float, double, tf32, half; applying half to a kernel that takes only float and
# double shows the refusal, naming the kernel and its types, and Left back to float runs it.
# Left from float goes round to the FP8 types, each once per scaling (e5m2 block, e5m2
# tensor, e4m3 block): the FP8 kernel runs e4m3 with block scales, emulated and verified.
# The shape field picks a suite's shape (a suite of the user's, here): M, N and K follow,
# and typing another M lets the shape go.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

mkdir -p "$XDG_CONFIG_HOME/gemmtop/shapes"
printf 'title = two small shapes\n48x80x96 tiny-a 2\n80x48x32 tiny-b\n' >"$XDG_CONFIG_HOME/gemmtop/shapes/aaa-tiny.shapes"
ui_start 120 32 -- --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "mygemm01_naive at 64 verifies in float"
# The error beside the speed: float's own rounding, against float64 of the same values.
ui_expect_re "error +[0-9.]+e-(0[89]|1[0-9]) median, [0-9.]+e-(0[7-9]|1[0-9]) max of \|A\|\|B\| vs unrounded inputs" \
   "the error line gives float's error (1e-7 or less)"
ui_keys s Down
ui_expect_re "shape +none: Left/Right picks one of [0-9]+ shapes of [0-9]+ suites" "the shape field says how to pick one"
ui_keys Right
ui_expect "aaa-tiny tiny-a (48x80x96, weight 2)" "Right picks the first suite's first shape"
ui_expect_re "M +48 " "M follows the shape"
ui_keys Right
ui_expect "aaa-tiny tiny-b (80x48x32, weight 1)" "then its second shape"
ui_keys Enter
ui_expect "M=80 N=48 K=32  float" "applied: the problem line has the shape's sizes"
ui_expect_re "verify +[^ ]+ verified" "and the kernel runs at that shape"
ui_keys s Down Down 1 2 8
ui_expect_re "shape +none:" "typing another M lets the shape go"
ui_keys Escape s 6 4 Enter
ui_expect "M=64 N=64 K=64  float" "the size field sets 64 again"
ui_keys s
ui_expect "Problem setup" "s opens the problem setup"
ui_keys Down Down Down Down Down
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
ui_keys Down Down Down Down Down Left Left Left Enter
ui_expect "M=64 N=64 K=64  float" "back to float"
ui_expect_re "verify +[^ ]+ verified" "and it runs and verifies again"
ui_keys s
ui_expect "Problem setup" "the setup once more"
ui_keys Down Down Down Down Down Left
ui_expect_re "precision +e5m2 block" "Left from float: e5m2 with block scales"
ui_keys Left
ui_expect_re "precision +e5m2 tensor" "then e5m2 with per-tensor scales"
ui_keys Left
ui_expect_re "precision +e4m3 block" "then e4m3 with block scales"
ui_keys Enter
ui_expect "M=64 N=64 K=64  e4m3 block" "the problem line says e4m3 block"
ui_expect "does not take e4m3: it takes float, double" "mygemm01_naive refuses FP8"
ui_keys q
ui_expect_exit 0 "q quits"
ui_start 120 32 -- --kernel fp8mma1_scaled --precision e4m3 --scaling block --size 128
ui_expect "M=128 N=128 K=128  e4m3 block" "the explorer starts on e4m3 with block scales"
ui_expect_re "verify +[^ ]+ verified" "the FP8 kernel verifies (emulated)"
ui_expect "[emulated]" "and is labelled emulated"
# e4m3's inputs lose all but 3 bits of their mantissa: an error of 1e-4 .. 1e-1 of |A||B|.
ui_expect_re "error +[0-9.]+e-0[1-4] median, [0-9.]+e-0[1-4] max of \|A\|\|B\| vs unrounded inputs" \
   "the error line gives e4m3's error against the values before quantising"
ui_keys q
ui_expect_exit 0 "q quits"
finish
