#!/bin/sh
# Every shipped lesson walked as a lecturer with only a laptop's CPU would: on PoCL at the
# size a lesson takes on a CPU (no --size: its CPU shape, or every step brought down to
# 512), one explorer per lesson, each step at 120x40 and then at 80x24 (the window resized:
# the step's compiles are made once). At both sizes, for every step (lesson_screen.py
# reads the screen): the heading and the step's whole text in view without scrolling, its
# measured line (a figure, or the refusal the lesson expects), bank steps included, and
# every count its text computes equal to what the screen shows for the size used (at
# 120x40, where the results pane shows the launch, its work-groups too); a step whose
# lesson is the bank grid shows the grid readable. At 120x40 the first figure (verified,
# ablated or emulated, or the refusal) comes within two minutes of the step's load, the
# time it took logged. Per lesson: the export names the device, the date and the timing
# rule, every measured step's sizes are the CPU's, ablated steps carry their switches, and
# the chart fits a 1920x1080 slide with nothing past its edge (svg_unclipped.py renders it).
# The times to a figure are printed at the end, per lesson (median and worst) and over all,
# for the notes on how long a class waits. By hand, GEMMTOP_WALK_PREPARED=1 runs each
# lesson's --prepare first (timed, and said how long it said it would take) and then the
# walk: the times to a figure after a prepare.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
# The suite's cache of compiled programs, as ui_lesson.sh: a step's program depends on its
# preset, not on the size, so the walk and ui_lesson.sh (the same steps at 128) compile
# each once between them, and the sanitizer pass finds them compiled. A step's time to a
# figure includes its compiles only where no script made them before (a manual run: all).
# Preferences and exports stay the test's own.
suite_cache=${XDG_CACHE_HOME:-}
ui_init
[ -n "$suite_cache" ] && export XDG_CACHE_HOME="$suite_cache"

list=$("$GEMMTOP_BIN" list lessons 2>&1)
lessons=$(printf '%s\n' "$list" | awk 'NR > 1 && NF > 2 { print $1 }')
# Under the sanitizers the code paths matter, not every lesson again; by hand,
# GEMMTOP_WALK_LESSONS (an extended regular expression) walks the lessons it matches.
if [ -n "${GEMMTOP_SANITIZE:-}" ]; then
   lessons=$(printf '%s\n' "$lessons" | grep -E '^(m1|magma)$')
elif [ -n "${GEMMTOP_WALK_LESSONS:-}" ]; then
   lessons=$(printf '%s\n' "$lessons" | grep -E "$GEMMTOP_WALK_LESSONS")
fi
SRC_DIR=$(cd "$(dirname "$0")/../.." && pwd)
SCREEN="$SRC_DIR/tests/e2e/lesson_screen.py"
PRESETS=${GEMMTOP_PRESETS:-$SRC_DIR/presets}
mkdir -p "$T_DIR/walk"
cd "$T_DIR/walk" || exit 1
: >"$T_DIR/times"

now_ms() { date +%s%3N; }

# The bank grid of a step whose lesson it is: readable once traced (at 120x40 a whole warp,
# or, where 16-byte accesses give it four phases' headings, all but its last lanes and how
# to scroll to them; at 80x24 a shorter grid, three lanes at least, that says how to scroll
# to the rest).
grid_readable() { # NAME COLS ROWS
   if [ "$2" -ge 120 ]; then
      ui_wait_re "^ *l31 |lanes 0-2[4-9] of 32: Up Down PgUp PgDn scroll" 120 &&
         printf '%s\n' "$UI_LAST" | grep -Eq "^ *l0 " &&
         ok "$1 step $STEP at ${2}x$3: the grid, a whole warp (or all but its last lanes)" ||
         not_ok "$1 step $STEP at ${2}x$3: the grid whole" "$UI_LAST"
   else
      # (three lanes at least: the longest bank step's text, tensor 3's, leaves that many)
      ui_wait_re "lanes 0-([2-9]|[1-9][0-9]) of [0-9]+: Up Down PgUp PgDn scroll" 120 &&
         ok "$1 step $STEP at ${2}x$3: a shorter grid, saying how to scroll" ||
         not_ok "$1 step $STEP at ${2}x$3: a grid of three lanes or more that scrolls" "$UI_LAST"
   fi
}

# The lesson pane's refusal: "refused: " and the message, which names the kernel.
REFUSED="refused: [a-z][a-z0-9_]*[ :]"

# whole: the step STEP of lesson NAME is whole on the screen (UI_LAST), with its counts
# (lesson_screen.py); WHY says what is not.
whole() {
   WHY=$(printf '%s\n' "$UI_LAST" | python3 "$SCREEN" "$SRC_DIR/lessons/$NAME.lesson" "$PRESETS" \
      "$SRC_DIR/kernels" "$STEP" $LAUNCH 2>&1)
   [ "$WHY" = ok ]
}

# bank_step: step STEP of lesson NAME is a bank step (its "show = banks" line): its grid is
# checked whether or not it is up yet when the step's heading shows (on a busy machine the
# heading can come first).
bank_step() {
   awk -v n="$STEP" '/^step *=/ { s++ } s == n && /^show *= *banks *$/ { f = 1 } END { exit !f }' \
      "$SRC_DIR/lessons/$NAME.lesson"
}

# One size of a step: whole, the grid where it is the lesson, and the figure (or refusal).
at_size() { # COLS ROWS
   ui_wait_re "Step $STEP of $STEPS:" 60 || {
      not_ok "$NAME at ${1}x$2: step $STEP is loaded" "$UI_LAST"
      return 1
   }
   if bank_step || printf '%s\n' "$UI_LAST" | grep -q "z back"; then
      grid_readable "$NAME" "$1" "$2"
   fi
   LAUNCH=""
   if ! ui_wait_re "measured: [0-9.]+ [GTM]?FLOPS|$REFUSED|did not run: " 120; then
      not_ok "$NAME step $STEP at ${1}x$2: a figure within 120 s" "$UI_LAST"
      return 1
   fi
   case "$UI_LAST" in
   *"did not run: "* | *"NOT VERIFIED"*) not_ok "$NAME step $STEP at ${1}x$2: ran and verified" "$UI_LAST" ;;
   esac
   # The launch line is the results pane's, when it shows (120x40) and the step ran.
   if [ "$1" -ge 120 ] && printf '%s\n' "$UI_LAST" | grep -q "launch  global"; then LAUNCH=--launch; fi
   if ui_wait_for whole 30; then
      ok "$NAME step $STEP at ${1}x$2: heading, figure and whole text in view, its counts the screen's"
   else
      not_ok "$NAME step $STEP at ${1}x$2: $WHY" "$UI_LAST"
   fi
}

# row_settled: the screen (UI_LAST) shows a measurement the ladder has taken
# (Ladder_settled, core/teach/ladder.h, which the lesson pane applies to every snapshot
# before it is drawn), or a refusal. From the screen's window of W launches, their minimum
# and spread: W times the minimum is at most the window's sum (which the screen does not
# show), and the spread is shown to 0.1%, so 9.9% or less is within the ladder's 10%. Taken:
# 16 launches, or 3 adding up to 10 s, within the spread; or whatever the spread, 64
# launches or 3 adding up to 30 s (the wait on a noisy machine). (W times the median did not
# do: on a busy machine a few fast launches left the sum short of it, and E exported no row.)
row_settled() {
   printf '%s\n' "$UI_LAST" | grep -qE "$REFUSED" && return 0
   printf '%s\n' "$UI_LAST" | awk '
      match($0, /launches, window [0-9]+/) { split(substr($0, RSTART, RLENGTH), w, " "); n = w[3] + 0 }
      match($0, /time +[0-9.e+-]+ [^ ]+ median +min [0-9.e+-]+/) {
         split(substr($0, RSTART, RLENGTH), a, " ")
         unit = a[3] == "ms" ? 1 : a[3] == "s" ? 1000 : 0.001
         min = a[6] * unit
      }
      match($0, /spread [0-9.]+%/) { spread = substr($0, RSTART + 7, RLENGTH - 8) + 0; seen = 1 }
      END {
         # the minimum as shown (4 digits) may be rounded up: a margin of 0.1%
         sum = n * min / 1.001
         steady = seen && spread <= 9.9 && (n >= 16 || (n >= 3 && sum >= 10000))
         exit !(steady || n >= 64 || (n >= 3 && sum >= 30000))
      }'
}

walk() { # NAME
   NAME=$1
   STEPS=$(printf '%s\n' "$list" | awk -v n="$NAME" '$1 == n { print $2 }')
   if [ "${GEMMTOP_WALK_PREPARED:-0}" = 1 ]; then
      p0=$(now_ms)
      run_gemmtop lesson "$NAME" --prepare $POCL
      echo "# $NAME --prepare: $(( ($(now_ms) - p0) / 1000 )) s, exit $RC; it said: $(printf '%s\n' "$OUT" | head -n 1)"
      [ "$RC" = 0 ] || not_ok "$NAME --prepare" "$OUT
$ERR"
   fi
   ui_start 120 40 -- lesson "$NAME"
   STEP=1
   while [ "$STEP" -le "$STEPS" ]; do
      t0=$(now_ms)
      at_size 120 40 || return
      echo "$NAME $STEP $(($(now_ms) - t0))" >>"$T_DIR/times"
      # The new size's screen is a redraw: the cropped old one cannot show the step whole.
      ui_tmux resize-window -x 80 -y 24
      at_size 80 24 || return
      ui_tmux resize-window -x 120 -y 40
      [ "$STEP" -lt "$STEPS" ] && ui_keys n
      STEP=$((STEP + 1))
   done
   # The last step's row is taken once its measurement settles (row_settled above), which
   # the results pane shows (z: out of a grid step's zoom, which hides it); a refused step
   # has its row at once.
   ui_wait_re "Step $STEPS of $STEPS:" 30 && case "$UI_LAST" in *"z back"*) ui_keys z ;; esac
   ui_wait_for row_settled 120 || not_ok "$NAME: the last step's measurement settles" "$UI_LAST"
   ui_keys E
   ui_expect_re "ladder exported: lesson-$NAME(-[0-9]+)?\.md" "$NAME: E exports the ladder"
   # The chart on a slide: rendered, nothing past its edge, and 1920x1080 at most.
   why=$(python3 "$SRC_DIR/tests/e2e/svg_unclipped.py" "lesson-$NAME.svg" --slide 1920x1080 2>&1)
   [ "$why" = ok ] && ok "$NAME: the SVG fits a 1920x1080 slide, nothing clipped (rendered)" ||
      not_ok "$NAME: the SVG on a slide" "$why"
   ui_keys q
   ui_expect_exit 0 "$NAME: q quits"
   res=$(python3 - "lesson-$NAME.csv" "$SRC_DIR/lessons/$NAME.lesson" <<'PY' 2>&1
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
# The CPU size of each step: its own cpu_size, else the lesson's, else none (at most 512).
lesson, steps = None, []
for line in open(sys.argv[2]):
    m = re.match(r"\s*(\w+)\s*=\s*(.*?)\s*$", line)
    if not m or line.lstrip().startswith("#"):
        continue
    if m.group(1) == "step":
        steps.append(lesson)
    elif m.group(1) == "cpu_size":
        size = tuple(m.group(2).split("x"))
        if steps:
            steps[-1] = size
        else:
            lesson = size
assert rows, "no rows"
assert any(r["gflops"] or r["refused"] for r in rows), "no step has a figure or a refusal"
# E came once the last step's measurement had settled (row_settled): its row is taken.
assert rows[-1]["gflops"] or rows[-1]["refused"], ("the last step's row is empty", rows[-1])
for i, r in enumerate(rows):
    shape = steps[i] if i < len(steps) else None
    assert r["device"] and "median" in r["timing"], r
    assert r["date"] or not any(x["gflops"] for x in rows), r
    if r["gflops"]:
        sizes = re.search(r"(\d+)x(\d+)x(\d+)", r["configuration"])
        assert sizes, r["configuration"]
        if shape:
            assert sizes.groups() == shape, (r["configuration"], "the step's cpu_size", shape)
        else:
            assert all(int(v) <= 512 for v in sizes.groups()), r["configuration"]
        if r["ablated"] == "true":
            assert "ablate=" in r["configuration"], r["configuration"]
print("ok")
PY
)
   [ "$res" = ok ] && ok "$NAME: the export names the device, date and timing; the CPU's sizes; ablations named" ||
      not_ok "$NAME: the export's content" "$res"
}

t_walk=$(date +%s)
for name in $lessons; do
   walk "$name"
done
echo "# every lesson at 120x40 and 80x24: $(($(date +%s) - t_walk)) s"

# How long a class waits for each step's figure at 120x40 (compiles included where the
# cache did not hold them).
for name in $lessons; do
   awk -v n="$name" '$1 == n { print $3 }' "$T_DIR/times" | sort -n | awk -v n="$name" '{ t[NR] = $1 } END {
      if (NR) printf "#   %-12s %2d steps: median %5.1f s, worst %5.1f s to a figure\n", n, NR, t[int((NR + 1) / 2)] / 1000, t[NR] / 1000 }'
done
awk '{ print $3 }' "$T_DIR/times" | sort -n | awk '{ t[NR] = $1 } END {
   if (NR) printf "# time to a figure over %d steps: median %.1f s, worst %.1f s\n", NR, t[int((NR + 1) / 2)] / 1000, t[NR] / 1000 }'
sort -k3 -n -r "$T_DIR/times" | head -3 | awk '{ printf "#   slowest: %s step %s, %.1f s\n", $1, $2, $3 / 1000 }'
# Each step's time, for the figures docs/lessons.md gives.
awk '{ printf "#     %s step %s: %.1f s\n", $1, $2, $3 / 1000 }' "$T_DIR/times"
finish
