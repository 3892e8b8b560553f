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

# The exports land in the folder the explorer was started in.
mkdir -p "$T_DIR/class" && cd "$T_DIR/class" || exit 1
# 56 rows: the lesson pane keeps its ladder's rows in view under the step's text and model.
ui_start 130 56 -- lesson fast
ui_expect "fast: step 1/3" "the fast lesson starts on PoCL without a size"
ui_expect "size: at most 512 on this CPU" "the lesson pane says its steps run at the CPU size"
ui_expect "M=512 N=512 K=512" "step 1's preset (4096) runs at 512"
ui_expect "Three steps: the tutorial's kernel 9" "the introduction opens the first step"
# The lecturer's notes: behind o, never on the pane by themselves.
ui_expect "o: the lecturer's notes for this step" "the pane says the step has speaker notes"
ui_expect_gone "keep their answers" "but does not show them" 5
ui_keys o
ui_expect "notes (o hides them): Ask the class" "o shows them"
ui_keys o
ui_expect_gone "keep their answers" "o again hides them" 10
ui_expect_re "measured: [0-9.]+ GFLOPS \(spread [0-9]+%\), verified" "step 1 gives a verified figure at 512" 300
# The row takes the figure once the measurement has settled, and keeps it while the
# explorer goes on measuring.
row1() { printf '%s\n' "$UI_LAST" | grep -oE "> +1 +[0-9]+\.[0-9]+ " | head -n 1 | awk '{ print $3 }'; }
step_row() { [ -n "$(row1)" ]; }
if ui_wait_for step_row 300; then
   first=$(row1)
   ok "step 1's row has its settled figure ($first GFLOPS)"
   ui_more_launches "the explorer goes on measuring step 1"
   ui_more_launches "and on"
   [ "$(row1)" = "$first" ] && ok "the row keeps its figure ($first) while the launches go on" ||
      not_ok "the row drifted from $first to $(row1)" "$UI_LAST"
else
   not_ok "step 1's row has a figure" "$UI_LAST"
fi
ui_keys n
ui_expect "fast: step 2/3" "n: step 2"
ui_expect "M=512 N=512 K=512" "step 2's preset (4096) also runs at 512"
ui_expect "I shows the lesson's introduction" "from step 2 on, the introduction is a key away"
ui_expect_gone "Three steps: the tutorial's kernel 9" "and not shown" 10
ui_keys I
ui_expect "Three steps: the tutorial's kernel 9" "I shows it on this step"
ui_expect "the lesson's introduction: on every step" "and says so"
ui_keys I
ui_expect_gone "Three steps: the tutorial's kernel 9" "I again: on the first step only" 10
# The export says where, when and how the figures were taken.
ui_keys E
ui_expect "ladder exported: lesson-fast.md .csv .svg" "E exports the ladder"
md=$(cat lesson-fast.md 2>/dev/null)
expect_in "every step at most 512 (a CPU" "$md" "the export names the CPU size"
printf '%s\n' "$md" | grep -Eq '^Measured: 20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC$' &&
   ok "the export carries the date" || not_ok "no date in the export" "$md"
expect_in "Timing: each figure the median of a step's first 16 device-timed launches" "$md" "and the timing method"
expect_in "### Speaker notes" "$md" "and the speaker notes"
expect_in "Ask the class which of the tutorial's ideas" "$md" "with step 1's"
# P: the projector's layout gives the lesson, results and bank panes the screen.
ui_keys P
ui_expect "projector's layout: lesson, results and bank panes" "P: the projector's layout"
ui_expect " 5 Bank conflicts" "the bank pane is shown"
ui_expect " 2 Results" "and the results"
ui_expect_gone " 1 Kernel" "the kernel pane gives way" 10
ui_keys P
ui_expect " 1 Kernel" "P again: the panes as they were"
ui_expect_gone " 5 Bank conflicts" "the bank pane hidden again" 10
# g: a lecturer jumps to a step by its number.
ui_keys g
ui_expect "go to step: _" "g asks for a step"
ui_keys 3 Enter
ui_expect "fast: step 3/3" "g 3 Enter: step 3"
ui_keys g 7 Enter
ui_expect "no step '7': lesson fast has steps 1 to 3" "a step that does not exist is refused, with the valid ones"
ui_expect "fast: step 3/3" "and the lesson stays where it was"
ui_keys g 1 Escape
ui_expect "staying on step 3" "Esc stays"
ui_keys g 1 BSpace 2 Enter
ui_expect "fast: step 2/3" "Backspace corrects the number"
python3 -c '
import csv, sys
rows = list(csv.DictReader(open("lesson-fast.csv")))
assert rows and all(r["timing"].startswith("each figure the median") and r["device"] and r["date"] for r in rows), rows
' 2>"$T_DIR/csv.err" && ok "every CSV row has the device, the date and the timing" || not_ok "CSV columns" "$(cat "$T_DIR/csv.err")"
ui_keys q
ui_expect_exit 0 "q quits"

# At 80x24 the step's figure is in view: right under its title.
ui_start 80 24 -- lesson m1 --size 64
ui_expect "m1: step 1/8" "m1 at 80x24"
ui_expect_re "measured: [0-9.]+ GFLOPS \(spread [0-9]+%\), verified" "the measured line is in view at 80x24" 120
# The chooser names the lessons' files, never by an absolute path (the machine's folders
# are no class's business), and marks the lessons that need a Hopper GPU.
ui_keys L
ui_expect "m1.lesson)" "L: the chooser names the lesson's file"
case "$UI_LAST" in *"$(dirname "$GEMMTOP_BIN")"* | *"/lessons/m1.lesson"*) not_ok "no absolute path" "$UI_LAST" ;; *) ok "no absolute path" ;; esac
ui_expect_re "hopper +5 steps  \[needs an H100 or H200\]" "the hopper lesson is marked as needing a Hopper GPU"
ui_keys Escape q
ui_expect_exit 0 "q quits"

# --size is the lecturer's: no cap then.
ui_start 130 50 -- lesson fast --size 256
ui_expect "fast: step 1/3" "with --size 256"
ui_expect "M=256 N=256 K=256" "the step runs at the size asked for"
ui_expect_gone "size: at most" "and the pane speaks of no CPU size" 10
ui_keys q
ui_expect_exit 0 "q quits"

# A lesson leaves the explorer's saved kernel as it was (the hopper lesson's cannot run
# here); and a saved kernel that the device refuses is not restored: the explorer opens on
# one it runs and says why.
conf="$XDG_CONFIG_HOME/gemmtop/ui.conf"
mkdir -p "$(dirname "$conf")"
printf 'kernel = mygemm02_tiled\nparam.TS = 8\n' >"$conf"
ui_start 100 30 -- lesson hopper
ui_expect "hopper: step 1/5" "the hopper lesson starts on PoCL"
ui_expect_re "refused: hopper1_tma" "its first step is refused here"
ui_keys q
ui_expect_exit 0 "q quits"
grep -q "^kernel = mygemm02_tiled$" "$conf" && ok "the lesson left the saved kernel (mygemm02_tiled) as it was" ||
   not_ok "the saved kernel after a lesson" "$(cat "$conf")"
printf 'kernel = hopper1_tma\n' >"$conf"
ui_start 100 30 --
ui_expect "the kernel saved last, hopper1_tma, cannot run on this device" "a saved kernel the device refuses is not restored, and it says why"
ui_expect_re "measured|verified|measuring" "the explorer measures the kernel it opened on" 120
case "$UI_LAST" in *"Kernel  hopper1_tma"*) not_ok "not opened on hopper1_tma" "$UI_LAST" ;; *) ok "not opened on hopper1_tma" ;; esac
ui_keys q
ui_expect_exit 0 "q quits"
finish
