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

run_gemmtop lesson --prepare
expect_rc 2 "--prepare without a lesson"
expect_in "name it ('gemmtop lesson NAME --prepare'); the lessons are: dcu, fast" "$ERR" "says so, with the lessons"
run_gemmtop lesson nosuch --prepare
expect_rc 2 "--prepare of an unknown lesson"
finish
