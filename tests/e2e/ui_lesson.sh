#!/bin/sh
# Lessons in the explorer: every shipped lesson taught from its first step to its last on
# PoCL at 128 (gemmtop lesson NAME --size 128): each step's row of the ladder fills in
# (a verified figure, labelled when the tensor lesson's instructions are emulated; the m1
# lesson's 32x32 steps refused under the simulated limit of 256 work-items; the magma
# lesson's ablated steps labelled, never verified); E exports
# the ladder as Markdown and CSV holding the same figures and an SVG that rsvg renders.
# Then presets are whole: a DCU preset, then a myGEMM preset, each with its own problem.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
# The suite's cache of compiled programs (tests/run_all.sh), not one of the test's own: the
# lessons' ~40 PoCL compiles are then shared with the command-line tests and between the
# plain and the sanitizer pass. Preferences and exports stay the test's own.
suite_cache=${XDG_CACHE_HOME:-}
ui_init
[ -n "$suite_cache" ] && export XDG_CACHE_HOME="$suite_cache"

out=$("$GEMMTOP_BIN" lesson nosuchlesson 2>&1)
rc=$?
[ "$rc" = 2 ] && ok "an unknown lesson is a usage error (exit 2)" || not_ok "unknown lesson: exit $rc" "$out"
expect_in "the lessons are: dcu, fast, hopper, hopper-bf16, hopper-fp8, m1, magma, mygemm, shapes, shapes-half, shapes-hopper, tensor" "$out" "and the message lists the valid lessons"
list=$("$GEMMTOP_BIN" list lessons 2>&1)
row=$(printf '%s\n' "$list" | awk '$1 == "magma" { print $1, $2, $3, $4 }')
[ "$row" = "magma 6 MAGMA Fermi:" ] && ok "list lessons gives each lesson's steps and title ($row)" ||
   not_ok "list lessons: magma's row is '$row'" "$list"
lessons=$(printf '%s\n' "$list" | awk 'NR > 1 { print $1 }')

# The exported files land in the folder the explorer was started in.
mkdir -p "$T_DIR/class"
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$T_DIR/class" || exit 1

# step_done N: the ladder's row of step N (the current one, marked >) has its outcome.
# The ladder is at the lesson pane's end, and the pane grows as the step measures: End at
# each look (the pane focused).
step_done() {
   ui_keys End
   printf '%s\n' "$UI_LAST" | grep -Eq "> +$STEP +([0-9]+\.[0-9]( abl| emu)?|refused) "
}

# grid_whole: the screen (UI_LAST) shows step STEP's text and the bank grid's 32 lanes.
grid_whole() {
   printf '%s\n' "$UI_LAST" | grep -Eq "Step $STEP of $steps: " &&
      printf '%s\n' "$UI_LAST" | grep -Eq "^ *l0 " && printf '%s\n' "$UI_LAST" | grep -Eq "^ *l31 "
}

# teach NAME: the lesson from its first step to its last; then E.
teach() {
   name=$1
   steps=$(printf '%s\n' "$list" | awk -v n="$name" '$1 == n { print $2 }')
   ui_start 130 60 -- lesson "$name" --size 128
   # The lesson pane alone (kernel and results hidden, the log too): the whole ladder in view.
   if ! ui_wait "$name: step 1/$steps"; then
      not_ok "$name starts on its first step" "$UI_LAST"
      return
   fi
   ui_keys 1 2
   STEP=1
   while [ "$STEP" -le "$steps" ]; do
      # A step whose lesson is the bank grid (show = banks) opens it zoomed, its text beside
      # the grid; z goes back to the lesson pane and its ladder.
      if ! ui_wait_re "$name: step $STEP/$steps|z back"; then
         not_ok "$name: step $STEP is loaded" "$UI_LAST"
         return
      fi
      if printf '%s\n' "$UI_LAST" | grep -q "z back"; then
         # The grid comes once the step is verified and traced; the step's text is there
         # from the start, so the wait is for the lanes beside it.
         if ui_wait_for grid_whole 400; then
            ok "$name step $STEP: its lesson is the grid: zoomed, 32 lanes, the text beside"
         else
            not_ok "$name step $STEP: the grid zoomed whole" "$UI_LAST"
         fi
         ui_keys z
         if ! ui_wait "$name: step $STEP/$steps"; then
            not_ok "$name: step $STEP: z shows the lesson pane" "$UI_LAST"
            return
         fi
      fi
      ui_keys 8 8 # the lesson pane focused, for End
      # A first compile on PoCL can take minutes on a busy machine (fast01_blocktile).
      if ! ui_wait_for step_done 400; then
         not_ok "$name: step $STEP has its row in the ladder" "$UI_LAST"
         return
      fi
      row=$(printf '%s\n' "$UI_LAST" | grep -E "> +$STEP +([0-9]+\.[0-9]( abl| emu)?|refused) ")
      # Back to the pane's top, where the step's figure and its words are.
      ui_keys Home
      ui_wait_re "Step $STEP of $steps: " 10 || true
      case "$row" in
      *refused*)
         # Refused for a reason the lesson states: m1's simulated limit, or the hopper
         # lesson's sm_90a kernels, which PoCL does not run.
         case "$UI_LAST" in
         *"PoCL does not emulate"*) ok "$name step $STEP: refused on PoCL, saying what it needs" ;;
         *) expect_in "simulated limits: max_wg=256" "$UI_LAST" "$name step $STEP: refused under the simulated limit" ;;
         esac
         ;;
      *abl*)
         expect_in "ABLATED" "$UI_LAST" "$name step $STEP: ablated, labelled, not verified"
         ;;
      *emu*)
         expect_in "verified (emulated: not ranked)" "$UI_LAST" "$name step $STEP: verified, emulated, not ranked"
         ;;
      *)
         if printf '%s\n' "$UI_LAST" | grep -Eq "measured: [0-9.]+ GFLOPS \(spread [0-9]+%\), verified"; then
            ok "$name step $STEP: verified"
         else
            not_ok "$name step $STEP: verified" "$UI_LAST"
         fi
         ;;
      esac
      [ "$STEP" -lt "$steps" ] && ui_keys n
      STEP=$((STEP + 1))
   done
   ui_keys n
   ui_expect "this is the lesson's last step" "$name: n on the last step says so"
   ui_keys E
   ui_expect "ladder exported: lesson-$name.md .csv .svg" "$name: E exports the ladder"
   ui_keys q
   ui_expect_exit 0 "$name: q quits"
   check_exports "$name" "$steps"
}

# The Markdown and the CSV: a row per step, the same figures; the SVG is rendered.
check_exports() {
   res=$(python3 - "lesson-$1.md" "lesson-$1.csv" "$2" 2>&1 <<'PY'
import csv, sys
md, cs, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [l for l in open(md) if l.startswith("| ") and not l.startswith("| step ")]
mdfig = [r.split(" | ")[1] for r in rows]
cv = list(csv.DictReader(open(cs)))
if len(rows) != steps or len(cv) != steps:
    sys.exit(f"{len(rows)} Markdown rows and {len(cv)} CSV rows for {steps} steps")
for i, (m, c) in enumerate(zip(mdfig, cv), 1):
    if c["refused"]:
        want = "refused: " + c["refused"]
        if not m.startswith(want.replace("|", "\\|")[:60]):
            sys.exit(f"step {i}: Markdown '{m}' against CSV '{want}'")
        continue
    if not c["gflops"]:
        sys.exit(f"step {i} has no figure: {m}")
    label = " (ablated)" if c["ablated"] == "true" else " (emulated)" if c["emulated"] == "true" else ""
    # The same figure: 1 decimal in Markdown, 3 in the CSV (compared as numbers, since
    # rounding the CSV's again could differ in the last digit).
    figure, _, rest = m.partition(" ")
    if abs(float(figure) - float(c["gflops"])) > 0.0500001 or (" " + rest if rest else "") != label:
        sys.exit(f"step {i}: Markdown '{m}' against CSV {c['gflops']}{label}")
print("ok")
PY
)
   [ "$res" = ok ] && ok "$1: the Markdown and the CSV have a row per step, the same figures" ||
      not_ok "$1: Markdown and CSV agree" "$res"
   why=$(python3 "$HERE/svg_unclipped.py" "lesson-$1.svg" --slide 1920x1080 2>&1)
   [ "$why" = ok ] && ok "$1: the SVG renders (rsvg-convert) on a 1920x1080 slide, nothing past its edge" ||
      not_ok "$1: the SVG on a slide" "$why"
}

# Under the sanitizers the code paths of every kind of step are what matter, not every
# lesson again: m1 (verified steps and steps refused under a simulated limit), magma
# (ablated steps) and hopper (steps refused on PoCL) cover them at a fraction of the time.
if [ -n "${GEMMTOP_SANITIZE:-}" ]; then
   lessons=$(printf '%s\n' "$lessons" | grep -E '^(m1|magma|hopper)$')
fi
for name in $lessons; do
   teach "$name"
done

# A second export never replaces the first: it takes the next free name.
ui_start 130 60 -- lesson m1 --size 64
ui_expect "m1: step 1/8" "m1 starts again"
ui_keys E
ui_expect "ladder exported: lesson-m1-2.md" "a second export takes a new name"
ui_keys q
ui_expect_exit 0 "q quits"

# A class that follows along: the exports side by side (--merge), each normalised to its own
# step 1; another lesson's export or a file that is not one is refused; nothing replaced.
cp lesson-m1.csv alice.csv
cp lesson-m1-2.csv bob.csv
run_gemmtop lesson m1 --merge alice.csv --merge bob.csv
expect_rc 0 "lesson m1 --merge alice.csv bob.csv"
expect_in "wrote lesson-m1-class.md, lesson-m1-class.csv and lesson-m1-class.svg (2 ladders of 8 steps)" "$OUT" \
   "it writes the class's table and chart"
res=$(python3 - 2>&1 <<'PY'
import csv
src = {n: list(csv.DictReader(open(n + ".csv"))) for n in ("alice", "bob")}
rows = list(csv.DictReader(open("lesson-m1-class.csv")))
assert len(rows) == 16, len(rows)
checked = 0
for r in rows:
    s = src[r["export"]][int(r["step"]) - 1]
    assert r["label"] == s["label"], (r, s)
    first = src[r["export"]][0]
    if s["gflops"]:
        assert abs(float(r["gflops"]) - float(s["gflops"])) < 1e-3, (r, s)
    if r["speedup_own_first"]:
        want = float(s["gflops"]) / float(first["gflops"])
        assert abs(float(r["speedup_own_first"]) - want) < 1e-3 * want, (r, want)
        checked += 1
    elif s["gflops"] and first["gflops"] and not s["refused"] and s["ablated"] != "true" and first["refused"] == "":
        raise SystemExit(f"step {r['step']} of {r['export']} has no speed-up: {r}")
md = open("lesson-m1-class.md").read()
assert "| alice | bob |" in md and md.count("\n| ") >= 9, md
print(f"ok {checked}")
PY
)
case "$res" in
"ok "*) ok "the merged CSV and Markdown: each step's figure and its speed-up over its own step 1 (${res#ok } checked)" ;;
*) not_ok "the merged table" "$res" ;;
esac
why=$(python3 "$HERE/svg_unclipped.py" lesson-m1-class.svg --slide 1920x1080 2>&1)
[ "$why" = ok ] && ok "the merged chart renders (rsvg-convert) on a 1920x1080 slide, nothing past its edge" ||
   not_ok "the merged chart on a slide" "$why"
run_gemmtop lesson m1 --merge alice.csv --merge bob.csv
expect_in "wrote lesson-m1-class-2.md" "$OUT" "a second merge takes the next free name"
# (magma is walked in both passes: under the sanitizers only m1, magma and hopper are.)
run_gemmtop lesson m1 --merge alice.csv --merge lesson-magma.csv
expect_rc 2 "another lesson's export is refused"
expect_in "lesson-magma.csv:2: step 'magma-1-fermi" "$ERR" "naming the file, the line and the step that differs"
printf 'not,a,ladder\n' >junk.csv
run_gemmtop lesson m1 --merge junk.csv
expect_rc 2 "a CSV that is not a ladder export is refused"
expect_in "junk.csv:1: not a ladder export (E in a lesson): no 'step' column" "$ERR" "saying which column it lacks"

# Presets are whole: a DCU preset (double, TN, alpha 2, beta 3, 64x64x128), then a
# myGEMM preset that states none of these: each gets its own problem, ablation cleared.
ui_start 130 40 -- --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "the explorer is up"
ui_keys a
ui_expect "ABLATED" "a ablates"
ui_keys p
ui_expect "Presets (F3)" "p opens the presets"
ui_tmux send-keys -l "dcu-1"
ui_expect "search: dcu-1_" "typing searches"
ui_keys Enter
ui_expect "M=64 N=64 K=128  double  TN" "the DCU preset sets its whole problem"
ui_expect_re "config +1_4x4" "and its kernel"
# (the results pane's banner; the log keeps the ablated runs' lines)
ui_expect_gone "work switched off" "and clears the ablation" 10
ui_expect_re "verify +[^ ]+ verified" "and runs it for real, verified"
ui_keys p
ui_expect "search: _" "the dialog opens with no filter"
ui_tmux send-keys -l "02-tiled-ts16"
ui_keys Enter
ui_expect_re "M=512 N=512 K=512  float  NN  .=1 .=0" "the myGEMM preset gets the defaults, not the DCU problem"
ui_expect "not in it, so the defaults: size=512, precision=float, layout=NN, alpha=1, beta=0" \
   "it says which fields went back to the defaults"
ui_keys F4
ui_expect "Save as preset" "F4 opens the save dialog"
ui_keys C-u
ui_tmux send-keys -l "02-tiled-ts16"
ui_keys Enter
ui_expect "02-tiled-ts16 is a shipped preset" "saving over a shipped preset's name asks first"
ui_keys Escape
ui_expect_gone "Save as preset" "Esc leaves it unsaved" 10
[ -e "$XDG_CONFIG_HOME/gemmtop/presets/02-tiled-ts16.preset" ] && not_ok "nothing is saved" || ok "nothing is saved"
ui_keys p
ui_expect_re "(▶|>) ?02-tiled-ts16" "the dialog opens on the current preset"
ui_keys Escape
ui_expect_gone "Presets (F3)" "Esc closes the dialog" 10
ui_keys q
ui_expect_exit 0 "q quits"
finish
