#!/bin/sh
# Every shipped lesson walked as a lecturer with only a laptop's CPU would: on PoCL at the
# size a lesson takes on a CPU (no --size: every step brought down to 512), in small
# terminals (80x24 and 120x40, a lesson each in turn; then each lesson at the other size,
# its compiles cached). Per step: a first figure (verified, ablated or
# emulated, or the refusal the lesson expects) within two minutes of the step's load, the
# time it took logged; a step whose lesson is the bank grid opens it readable
# (grid_readable). Per lesson: the export names the device, the date and the timing rule,
# every measured step's sizes are at most 512, and ablated steps carry their switches. The
# times to a figure are printed at the end (median and worst), for the notes on how long a
# class waits.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

list=$("$GEMMTOP_BIN" list lessons 2>&1)
lessons=$(printf '%s\n' "$list" | awk 'NR > 1 && NF > 2 { print $1 }')
# Under the sanitizers the code paths matter, not every lesson again.
if [ -n "${GEMMTOP_SANITIZE:-}" ]; then
   lessons=$(printf '%s\n' "$lessons" | grep -E '^(m1|magma)$')
fi
SRC_DIR=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$T_DIR/walk"
cd "$T_DIR/walk" || exit 1
: >"$T_DIR/times"
: >"$T_DIR/times2"

now_ms() { date +%s%3N; }

# The bank grid of a step whose lesson it is: readable once traced (at 120x40 a whole warp,
# or, where 16-byte accesses give it four phases' headings, all but its last lanes and how
# to scroll to them; at 80x24 the grid says how to scroll to the rest).
grid_readable() { # NAME COLS ROWS
   if [ "$2" -ge 120 ]; then
      ui_wait_re "^ *l31 |lanes 0-2[4-9] of 32: Up Down PgUp PgDn scroll" 120 &&
         printf '%s\n' "$UI_LAST" | grep -Eq "^ *l0 " &&
         ok "$1 step $STEP at ${2}x$3: the grid, a whole warp (or all but its last lanes)" ||
         not_ok "$1 step $STEP at ${2}x$3: the grid whole" "$UI_LAST"
   else
      ui_wait_re "lanes [0-9]+-[0-9]+ of [0-9]+: Up Down PgUp PgDn scroll" 120 &&
         ok "$1 step $STEP at ${2}x$3: the grid, saying how to scroll" ||
         not_ok "$1 step $STEP at ${2}x$3: the grid scrolls" "$UI_LAST"
   fi
}


# The lesson pane's refusal: "refused: " and the message, which names the kernel.
REFUSED="refused: [a-z][a-z0-9_]*[ :]"

# step_words NAME STEP: TITLE and TEXT, the first two words of the step's title and of its
# text (the introduction's at step 1), wherever the pane wraps them.
step_words() {
   words=$(awk -v want="$2" '
      /^about *=/ && !a { sub(/^about *= */, ""); split($0, w, " "); a = w[1] " " w[2] }
      /^step *=/ { n++ }
      n == want && /^title *=/ && !t { sub(/^title *= */, ""); split($0, w, " "); t = w[1] " " w[2] }
      n == want && /^text *=/ && !x { sub(/^text *= */, ""); split($0, w, " "); x = w[1] " " w[2] }
      END { print t; print (want == 1 && a != "" ? a : x) }' "$SRC_DIR/lessons/$1.lesson")
   TITLE=$(printf '%s\n' "$words" | sed -n 1p) TEXT=$(printf '%s\n' "$words" | sed -n 2p)
}

# shown: the screen (UI_LAST) has the step's title and text (a step refused on this device
# shows its refusal first, the text after it). The heading may be drawn a moment before the
# rest of the pane, and the pane's last figure with it: a step is on screen once these are.
shown() {
   flat=$(printf '%s\n' "$UI_LAST" | tr -s ' \n' '  ')
   case "$flat" in
   *"$TITLE"*"$TEXT"* | *"$TEXT"*"$TITLE"* | *"$TITLE"*"refused: "[a-z]*) return 0 ;;
   esac
   return 1
}

walk() { # NAME COLS ROWS
   name=$1 cols=$2 rows=$3
   steps=$(printf '%s\n' "$list" | awk -v n="$name" '$1 == n { print $2 }')
   ui_start "$cols" "$rows" -- lesson "$name"
   STEP=1
   while [ "$STEP" -le "$steps" ]; do
      t0=$(now_ms)
      if ! ui_wait_re "$name: step $STEP/$steps|z back" 60; then
         not_ok "$name at ${cols}x$rows: step $STEP is loaded" "$UI_LAST"
         return
      fi
      if printf '%s\n' "$UI_LAST" | grep -q "z back"; then
         # Its lesson is the grid: readable once traced, then z for the lesson pane.
         grid_readable "$name" "$cols" "$rows"
         ui_keys z
         # At 80x24 four panes leave the lesson pane three rows: the bank pane goes (5).
         [ "$cols" -lt 120 ] && ui_keys 5
      fi
      # The step whole on screen first: a figure read before would be the last step's.
      step_words "$name" "$STEP"
      ui_wait_for shown 30 || not_ok "$name step $STEP at ${cols}x$rows: its title and text are on screen" "$UI_LAST"
      if ui_wait_re "measured: [0-9.]+ [GTM]?FLOPS|$REFUSED|did not run: " 120; then
         secs=$(( ($(now_ms) - t0) ))
         echo "$name $STEP $secs" >>"$T_DIR/times"
         case "$UI_LAST" in
         *"did not run: "* | *"NOT VERIFIED"*) not_ok "$name step $STEP at ${cols}x$rows: ran and verified" "$UI_LAST" ;;
         *) ok "$name step $STEP at ${cols}x$rows: a figure (or its refusal) in $(awk "BEGIN { printf \"%.1f\", $secs / 1000 }") s" ;;
         esac
      else
         not_ok "$name step $STEP at ${cols}x$rows: a figure within 120 s" "$UI_LAST"
         return
      fi
      [ "$STEP" -lt "$steps" ] && ui_keys n
      STEP=$((STEP + 1))
   done
   # The last step's row is taken once its measurement settles: 16 timed launches (or 3 over
   # 10 s), which the results pane counts; a refused step has its row at once.
   ui_wait_re "measuring: ([2-9][0-9]|1[6-9]|[0-9]{3,}) launches|$REFUSED" 120 ||
      not_ok "$name: the last step's measurement settles" "$UI_LAST"
   ui_keys E
   ui_expect_re "ladder exported: lesson-$name(-[0-9]+)?\.md" "$name: E exports the ladder"
   ui_keys q
   ui_expect_exit 0 "$name: q quits"
   res=$(python3 - "lesson-$name.csv" <<'PY' 2>&1
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, "no rows"
assert any(r["gflops"] or r["refused"] for r in rows), "no step has a figure or a refusal"
for r in rows:
    assert r["device"] and "median" in r["timing"], r
    assert r["date"] or not any(x["gflops"] for x in rows), r
    if r["gflops"]:
        sizes = re.search(r"(\d+)x(\d+)x(\d+)", r["configuration"])
        assert sizes and all(int(v) <= 512 for v in sizes.groups()), r["configuration"]
        if r["ablated"] == "true":
            assert "ablate=" in r["configuration"], r["configuration"]
print("ok")
PY
)
   [ "$res" = ok ] && ok "$name: the export names the device, date and timing; sizes at most 512; ablations named" ||
      not_ok "$name: the export's content" "$res"
}

# Each step at the size its walk did not use: the step's heading, the first words of its
# title and of its text (from the lesson file; the introduction's at step 1) without
# scrolling, the grid readable where the grid is the step's lesson, then its figure (from
# the compile cache the walk filled, as a class's second run).
look() { # NAME COLS ROWS
   name=$1 cols=$2 rows=$3
   steps=$(printf '%s\n' "$list" | awk -v n="$name" '$1 == n { print $2 }')
   ui_start "$cols" "$rows" -- lesson "$name"
   STEP=1 seen=0
   while [ "$STEP" -le "$steps" ]; do
      t0=$(now_ms)
      if ! ui_wait_re "$name: step $STEP/$steps|z back" 60; then
         not_ok "$name at ${cols}x$rows: step $STEP is loaded" "$UI_LAST"
         return
      fi
      if printf '%s\n' "$UI_LAST" | grep -q "z back"; then
         grid_readable "$name" "$cols" "$rows"
         ui_keys z
         [ "$cols" -lt 120 ] && ui_keys 5
         ui_wait_re "$name: step $STEP/$steps" 30 || not_ok "$name step $STEP at ${cols}x$rows: z shows the lesson" "$UI_LAST"
      fi
      step_words "$name" "$STEP"
      if ui_wait_for shown 15; then
         seen=$((seen + 1))
      else
         not_ok "$name step $STEP at ${cols}x$rows: its title ($TITLE) and text ($TEXT) are on screen" "$UI_LAST"
      fi
      # Then its figure (the compiles are cached by now: what a class's second run waits).
      if ui_wait_re "measured: [0-9.]+ [GTM]?FLOPS|$REFUSED|did not run: " 120; then
         echo "$name $STEP $(($(now_ms) - t0))" >>"$T_DIR/times2"
         case "$UI_LAST" in *"did not run: "* | *"NOT VERIFIED"*)
            not_ok "$name step $STEP at ${cols}x$rows: ran and verified" "$UI_LAST"; seen=$((seen - 1)) ;;
         esac
      else
         not_ok "$name step $STEP at ${cols}x$rows: a figure within 120 s" "$UI_LAST"
         seen=$((seen - 1))
      fi
      [ "$STEP" -lt "$steps" ] && ui_keys n
      STEP=$((STEP + 1))
   done
   [ "$seen" -eq "$steps" ] && ok "$name at ${cols}x$rows: all $steps steps show their heading, title and text, then a figure"
   ui_keys q
   ui_keys q
   ui_expect_exit 0 "$name at ${cols}x$rows: q quits"
}

i=0
for name in $lessons; do
   if [ $((i % 2)) -eq 0 ]; then walk "$name" 80 24; else walk "$name" 120 40; fi
   i=$((i + 1))
done
t_look=$(date +%s)
i=0
for name in $lessons; do
   if [ $((i % 2)) -eq 0 ]; then look "$name" 120 40; else look "$name" 80 24; fi
   i=$((i + 1))
done
echo "# every lesson at the other size: $(($(date +%s) - t_look)) s"
awk '{ print $3 }' "$T_DIR/times2" | sort -n | awk '{ t[NR] = $1 } END {
   if (NR) printf "# at the other size, compiles cached: median %.1f s, worst %.1f s over %d steps\n", t[int((NR + 1) / 2)] / 1000, t[NR] / 1000, NR }'

# How long a class waits for each step's figure (compiles included, a cold cache at first).
awk '{ print $3 }' "$T_DIR/times" | sort -n | awk '{ t[NR] = $1 } END {
   if (NR) printf "# time to a figure over %d steps: median %.1f s, worst %.1f s\n", NR, t[int((NR + 1) / 2)] / 1000, t[NR] / 1000 }'
sort -k3 -n -r "$T_DIR/times" | head -3 | awk '{ printf "#   slowest: %s step %s, %.1f s\n", $1, $2, $3 / 1000 }'
finish
