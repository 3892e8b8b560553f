#!/bin/sh
# tools/lesson_limits.py (issue 45): the lesson guides carry what limits each step on a GPU,
# written from a gpu_limits.sh run. In a copy of the project's lessons table, one lesson and
# its guide, with a run of two rows (one with text that must not break the table or the
# page): the section is appended once between its markers, each step gets its row (a step
# no run measured says so), the guide's own text is kept, a second run changes nothing,
# --check says whether a guide would change, and a new run replaces the section in place.
. "$(dirname "$0")/lib.sh"

tool="$PWD/tools/lesson_limits.py"
root="$T_DIR/root"
mkdir -p "$root/docs" "$root/lessons"
cat >"$root/docs/lessons.md" <<'EOF'
| lesson | steps | what | guide |
|---|---|---|---|
| `toy` | 3 | a toy | `docs/lesson-toy.md` |
EOF
cat >"$root/lessons/toy.lesson" <<'EOF'
title = A toy ladder
step  = toy-1
title = one
step  = toy-2
title = two
step  = toy-3
title = three
EOF
printf '# The toy lesson\n\nIts own text, kept.\n' >"$root/docs/lesson-toy.md"
gflops=$(awk -v s="$(od -An -N2 -tu2 /dev/urandom)" 'BEGIN { printf "%d", 1000 + s }')
cat >"$T_DIR/run.jsonl" <<EOF
{"kind": "header", "sizes": [2048]}
{"kind": "row", "preset": "toy-1", "size": 2048, "explain": {"run": {"gflops": $gflops}, "limits": {"limiter": "compute", "words": "compute: 80% | of the <b>peak</b>"}}, "compare": {"ncu_unit": "sm__throughput", "ncu_pct": 77.4, "limiter_agrees": true}}
{"kind": "row", "preset": "toy-3", "size": 0, "explain": {"run": {"gflops": 5}, "limits": {"limiter": "memory", "words": "global memory"}}, "judged": {"limiter": "L2|<i>"}, "compare": {"ncu_unit": "lts__throughput", "ncu_pct": 81.0, "limiter_agrees": true, "own_limiter_agrees": false}}
EOF
run_tool() {
   OUT=$(python3 "$tool" --root "$root" --device "Toy GPU, 2026-11-29" "$@" 2>&1)
   RC=$?
}
run_tool "$T_DIR/run.jsonl"
expect_rc 0 "the section is written"
guide=$(cat "$root/docs/lesson-toy.md")
expect_in "Its own text, kept." "$guide" "the guide's own text is kept"
expect_in "## What limits each step on a GPU (Toy GPU, 2026-11-29)" "$guide" "under a title naming the device"
expect_in "| 1 | \`toy-1\` | 2048 | $gflops | compute: 80% / of the &lt;b>peak&lt;/b> | - | SM 77% | yes |" "$guide" \
   "a measured step's row, its text unable to break the table or the page"
expect_in "| 2 | \`toy-2\` | - | - | not measured in this run | - | - | - |" "$guide" "a step no run measured says so"
expect_in "| 3 | \`toy-3\` | its own | 5 | global memory | L2/&lt;i> | L2 81% | yes (no) |" "$guide" \
   "a step at its preset's own size; gemmtop's limiter of ncu's launch escaped, its own run's agreement in brackets"
n=$(grep -c 'gpu limits: begin' "$root/docs/lesson-toy.md")
[ "$n" -eq 1 ] && ok "one section" || not_ok "one section" "$n begin markers"
cp "$root/docs/lesson-toy.md" "$T_DIR/before"
run_tool --check "$T_DIR/run.jsonl"
expect_rc 0 "--check: nothing would change after the run"
run_tool "$T_DIR/run.jsonl"
cmp -s "$root/docs/lesson-toy.md" "$T_DIR/before" && ok "a second run changes nothing" ||
   not_ok "a second run changes nothing" "$(diff "$T_DIR/before" "$root/docs/lesson-toy.md")"
sed 's/"ncu_pct": 77.4/"ncu_pct": 91.2/' "$T_DIR/run.jsonl" >"$T_DIR/run2.jsonl"
run_tool --check "$T_DIR/run2.jsonl"
expect_rc 1 "--check: a new run would change the guide"
run_tool "$T_DIR/run2.jsonl"
guide=$(cat "$root/docs/lesson-toy.md")
expect_in "SM 91% | yes |" "$guide" "a new run's figures replace the old"
n=$(grep -c 'gpu limits: begin' "$root/docs/lesson-toy.md")
[ "$n" -eq 1 ] && ok "in place, still one section" || not_ok "in place, still one section" "$n begin markers"
expect_in "Its own text, kept." "$guide" "the guide's own text still kept"

# --pocl: each step explained on this machine's CPU through PoCL at the lesson's CPU size
# (a real gemmtop, a real lesson of real presets at a small cpu_size): a ready step gets its
# figure and limiter, a step the CPU cannot run says why, the GPU section stays as it was.
cat >"$T_DIR/lessons.toy" <<'EOF'
title = A toy ladder on the CPU
cpu_size = 64x64x64
step  = 01-naive
title = one
step  = 02-tiled-ts16
title = two
step  = hopper-5-order-bf16
title = three
step  = 02-tiled-ts16
title = four
ablate = no-a
EOF
# Its own copy of the project's folders: the toy lesson of the cases after it stays as it is.
proot="$T_DIR/proot"
mkdir -p "$proot/docs" "$proot/lessons" "$T_DIR/shipped"
cp "$root/docs/lessons.md" "$root/docs/lesson-toy.md" "$proot/docs/"
cp "$T_DIR/lessons.toy" "$T_DIR/shipped/toy.lesson"
cp "$T_DIR/lessons.toy" "$proot/lessons/toy.lesson"
gpu_before=$(sed -n '/gpu limits: begin/,/gpu limits: end/p' "$proot/docs/lesson-toy.md")
# --no-measure: a CPU's ceilings take a minute to measure; the rows' words are what is checked.
OUT=$(GEMMTOP_LESSONS="$T_DIR/shipped" GEMMTOP_BIN="$GEMMTOP_BIN" python3 "$tool" --root "$proot" --pocl --no-measure 2>&1)
RC=$?
expect_rc 0 "--pocl explains each step on the CPU"
guide=$(cat "$proot/docs/lesson-toy.md")
expect_in "## What limits each step on a CPU (PoCL: " "$guide" "in a section of its own"
if printf '%s\n' "$guide" | grep -Eq '^\| 1 \| `01-naive` \| 64x64x64 \| [0-9.e+]+ \| [a-z]'; then
   ok "a ready step: its size on the CPU, its GFLOPS and its limiter"
else
   not_ok "a ready step: its size on the CPU, its GFLOPS and its limiter" "$guide"
fi
expect_in "| 2 | \`02-tiled-ts16\` | 64x64x64 | " "$guide" "every step"
expect_in "(ablated: no-a; not verified, not a figure to rank) |" "$guide" "a step that ablates is explained ablated, and says so"
if printf '%s\n' "$guide" | grep -Eq '^\| 3 \| `hopper-5-order-bf16` \| 64x64x64 \| - \| .*(refused|sm_90a)'; then
   ok "a step the CPU cannot run says why"
else
   not_ok "a step the CPU cannot run says why" "$guide"
fi
[ "$(sed -n '/gpu limits: begin/,/gpu limits: end/p' "$proot/docs/lesson-toy.md")" = "$gpu_before" ] &&
   ok "the GPU section is left as it was" || not_ok "the GPU section is left as it was" "$guide"
OUT=$(python3 "$tool" --root "$proot" --pocl --device x 2>&1)
RC=$?
expect_rc 2 "--pocl with a GPU run's options is refused"
# --lessons: a second lesson of the same guide explained alone; the first keeps its rows.
subsection() { # LESSON GUIDE: its subsection of the PoCL block, header to the next one
   awk -v h="### \`$1\`:" '/^<!-- pocl limits: begin/ { b = 1 } b && index($0, h) == 1 { p = 1; print; next }
      p && (/^### / || /^<!-- pocl limits: end/) { exit } p' "$2"
}
toy_before=$(subsection toy "$proot/docs/lesson-toy.md")
printf 'title = A second toy\ncpu_size = 64x64x64\nstep  = 02-tiled-ts16\ntitle = one\n' >"$T_DIR/shipped/toy2.lesson"
cp "$T_DIR/shipped/toy2.lesson" "$proot/lessons/toy2.lesson"
printf '| `toy2` | 1 | a second toy | `docs/lesson-toy.md` |\n' >>"$proot/docs/lessons.md"
OUT=$(GEMMTOP_LESSONS="$T_DIR/shipped" GEMMTOP_BIN="$GEMMTOP_BIN" python3 "$tool" --root "$proot" --pocl --no-measure \
   --lessons toy2 2>&1)
RC=$?
expect_rc 0 "--pocl --lessons explains one lesson"
guide=$(cat "$proot/docs/lesson-toy.md")
expect_in "| 1 | \`02-tiled-ts16\` | 64x64x64 | " "$(subsection toy2 "$proot/docs/lesson-toy.md")" "its steps"
[ -n "$toy_before" ] && [ "$(subsection toy "$proot/docs/lesson-toy.md")" = "$toy_before" ] &&
   ok "the guide's other lesson keeps its rows" || not_ok "the guide's other lesson keeps its rows" "$guide"
expect_in "; \`toy\` from an earlier run)" "$guide" "and the title says where they come from"

# --keep-earlier: a run at another size keeps the rows it did not measure, starred.
sed -e 's/"size": 2048/"size": 4096/' -e '/toy-3/d' "$T_DIR/run.jsonl" >"$T_DIR/run3.jsonl"
run_tool --keep-earlier "the toy run <of> Monday" "$T_DIR/run3.jsonl"
expect_rc 0 "--keep-earlier: the section is rewritten"
guide=$(cat "$root/docs/lesson-toy.md")
expect_in "| 1 | \`toy-1\` | 2048* | $gflops | compute: 80% / of the &lt;b>peak&lt;/b> | - | SM 91% | yes |" "$guide" \
   "the earlier size's row is kept, starred"
expect_in "| 1 | \`toy-1\` | 4096 | $gflops |" "$guide" "beside the new size's row"
expect_in "| 3 | \`toy-3\` | its own* | 5 |" "$guide" "a step the new run left out keeps its row"
expect_in "\`*\`: kept from the toy run &lt;of> Monday, which the runs above did not repeat." "$guide" \
   "a line says where the starred rows come from, escaped"
cp "$root/docs/lesson-toy.md" "$T_DIR/before3"
run_tool --keep-earlier "the toy run <of> Monday" "$T_DIR/run3.jsonl"
cmp -s "$root/docs/lesson-toy.md" "$T_DIR/before3" && ok "--keep-earlier again changes nothing" ||
   not_ok "--keep-earlier again changes nothing" "$(diff "$T_DIR/before3" "$root/docs/lesson-toy.md")"
run_tool "$T_DIR/run3.jsonl"
guide=$(cat "$root/docs/lesson-toy.md")
case "$guide" in
*"2048*"*) not_ok "without it, only what the runs measured" "$guide" ;;
*) ok "without it, only what the runs measured" ;;
esac
finish
