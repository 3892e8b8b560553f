#!/bin/sh
# A lesson on a laptop's CPU (PoCL), started as a lecturer would, with no --size: the
# presets' sizes are a GPU's (4096 for the fast ladder), so every step is brought down to
# the explorer's CPU size, 512, and the pane says so; --size still sets another. The
# lesson's introduction opens the first step, and I keeps it on the others.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
# The suite's cache of compiled programs, as ui_lesson.sh (the same kernels at 512).
suite_cache=${XDG_CACHE_HOME:-}
ui_init
[ -n "$suite_cache" ] && export XDG_CACHE_HOME="$suite_cache"

ui_start 130 50 -- lesson fast
ui_expect "fast: step 1/3" "the fast lesson starts on PoCL without a size"
ui_expect "size: at most 512 on this CPU" "the lesson pane says its steps run at the CPU size"
ui_expect "M=512 N=512 K=512" "step 1's preset (4096) runs at 512"
ui_expect "Two steps past the tutorial" "the introduction opens the first step"
ui_expect_re "measured: [0-9.]+ GFLOPS, verified" "step 1 gives a verified figure at 512" 300
ui_keys n
ui_expect "fast: step 2/3" "n: step 2"
ui_expect "M=512 N=512 K=512" "step 2's preset (4096) also runs at 512"
ui_expect "I shows the lesson's introduction" "from step 2 on, the introduction is a key away"
ui_expect_gone "Two steps past the tutorial" "and not shown" 10
ui_keys I
ui_expect "Two steps past the tutorial" "I shows it on this step"
ui_expect "the lesson's introduction: on every step" "and says so"
ui_keys I
ui_expect_gone "Two steps past the tutorial" "I again: on the first step only" 10
ui_keys q
ui_expect_exit 0 "q quits"

# --size is the lecturer's: no cap then.
ui_start 130 50 -- lesson fast --size 256
ui_expect "fast: step 1/3" "with --size 256"
ui_expect "M=256 N=256 K=256" "the step runs at the size asked for"
ui_expect_gone "size: at most" "and the pane speaks of no CPU size" 10
ui_keys q
ui_expect_exit 0 "q quits"
finish
