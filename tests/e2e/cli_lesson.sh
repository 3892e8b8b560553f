#!/bin/sh
# gemmtop lesson NAME --prepare: every step compiled ahead (and its bank trace) on the
# device the options name, into a fresh cache, so that a class starts warm: a run of a
# step's preset then loads its program from the cache. Steps refused as the lesson means
# it (a simulated limit) are said so; a missing NAME or an unknown lesson is refused.
. "$(dirname "$0")/lib.sh"
export XDG_CACHE_HOME="$T_DIR/cache"

"$GEMMTOP_BIN" lesson m1 --prepare $POCL >"$T_DIR/out" 2>"$T_DIR/err"
rc=$?
OUT=$(cat "$T_DIR/out")
[ "$rc" = 0 ] && ok "lesson m1 --prepare (exit 0)" || not_ok "lesson m1 --prepare: exit $rc" "$OUT
$(cat "$T_DIR/err")"
expect_in "lesson m1 prepared on" "$OUT" "it says what it prepared and where"
expect_in "6 steps compiled, 2 refused, 0 failed" "$OUT" "six steps compiled, the two 32x32 steps refused"
expect_in "4 m1-tiled32-float                 refused under the step's simulated limits, as the lesson means: mygemm02_tiled TS=32: needs 1024 work-items per group" \
   "$OUT" "the refusal is the lesson's own, with its reason"
n=$(printf '%s\n' "$OUT" | grep -c " ready$")
[ "$n" = 6 ] && ok "six steps ready" || not_ok "$n steps ready" "$OUT"
grep -q "prepare: 8/8 done" "$T_DIR/err" && ok "progress on stderr, to the last step" || not_ok "progress" "$(cat "$T_DIR/err")"

# The class starts warm: the steps' programs come from the cache.
for preset in m1-naive-float m1-tiled16-double; do
   run_gemmtop run --preset "$preset" --size 64 --reps 1 --warmup 0 --format json
   [ "$RC" = 0 ] && [ "$(json_field cached)" = true ] && [ "$(json_field verified)" = true ] &&
      ok "$preset after --prepare: loaded from the cache, verified" || not_ok "$preset not cached after --prepare" "$OUT
$ERR"
done

# --merge reads students' exports: what they hold reaches the lecturer's terminal, a course
# page (Markdown) and a chart (SVG). A lesson of two steps of the user's, and exports of it.
mkdir -p "$XDG_CONFIG_HOME/gemmtop/lessons"
printf 'title = Two steps\nstep = m1-naive-float\nstep = m1-tiled16-double\n' >"$XDG_CONFIG_HOME/gemmtop/lessons/two.lesson"
cd "$T_DIR" || exit 1
# export NAME DEVICE DATE: a ladder export of lesson two, as E writes one
export_ladder() {
   python3 - "$@" <<'PY'
import csv, sys
name, device, date = sys.argv[1], sys.argv[2], sys.argv[3]  # a bad UTF-8 byte kept as it is
head = ("step,label,gflops,emulated,ablated,refused,speedup_previous,speedup_first,percent_of_best,vs_real,"
        "reference_gflops,reference,configuration,device,date,timing,limit").split(",")
with open(name, "w", newline="", encoding="utf-8", errors="surrogateescape") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(head)
    for i, (label, g) in enumerate((("1 m1-naive-float", "2.000"), ("2 m1-tiled16-double", "5.000"))):
        row = dict.fromkeys(head, "")
        row.update(step=i + 1, label=label, gflops=g, emulated="false", ablated="false", device=device, date=date)
        w.writerow([row[h] for h in head])
PY
}
export_ladder alice.csv "a laptop" "2026-11-29 06:00 UTC"
export_ladder eve.csv "$(printf '\033]0;pwned\007\033[2J<script>alert(1)</script>')" "2026-11-29"
run_gemmtop lesson two --merge alice.csv --merge eve.csv
expect_rc 2 "a student's export with terminal controls is refused"
expect_in "eve.csv:2: control character ESC: a ladder export is plain text" "$ERR" "naming the file and the line"
export_ladder eve.csv "$(printf '<script>alert(1)</script> | [x](javascript:alert(3)) \377')" "<img src=x onerror=alert(2)>"
run_gemmtop lesson two --merge alice.csv --merge eve.csv
expect_rc 0 "a student's export with markup in its fields is merged"
res=$(python3 - 2>&1 <<'PY'
import xml.etree.ElementTree as ET
md = open("lesson-two-class.md", encoding="utf-8").read()
for raw in ("<script", "<img", "](javascript"):
    assert raw not in md.replace("\\](", ""), (raw, md)
assert "&lt;script&gt;alert(1)&lt;/script&gt; \\| \\[x\\](javascript:alert(3))" in md, md
assert "&lt;img src=x onerror=alert(2)&gt;" in md, md
svg = ET.parse("lesson-two-class.svg").getroot()
text = "".join(svg.itertext())
assert "<script>alert(1)</script> | [x](javascript:alert(3)) \ufffd" in text, text
assert not svg.findall(".//{http://www.w3.org/1999/xhtml}script") and "script" not in [e.tag for e in svg.iter()]
print("ok")
PY
)
[ "$res" = ok ] && ok "the Markdown escapes its HTML; the SVG is well-formed XML (xml.etree) and shows the text" ||
   not_ok "the merged Markdown and SVG" "$res"
if command -v xmllint >/dev/null 2>&1; then
   xmllint --noout lesson-two-class.svg 2>"$T_DIR/xmllint.err" && ok "xmllint reads the SVG" ||
      not_ok "xmllint reads the SVG" "$(cat "$T_DIR/xmllint.err")"
fi
printf '%s' "$OUT" | od -An -tx1 | grep -qE ' (1b|07|9b)' && not_ok "no control byte reaches the terminal" "$OUT" ||
   ok "no control byte reaches the terminal"
cd - >/dev/null || exit 1

run_gemmtop lesson --prepare
expect_rc 2 "--prepare without a lesson"
expect_in "name it ('gemmtop lesson NAME --prepare'); the lessons are: dcu, fast" "$ERR" "says so, with the lessons"
run_gemmtop lesson nosuch --prepare
expect_rc 2 "--prepare of an unknown lesson"
finish
