#!/bin/sh
# The tests' own rules, checked on their source: a wait whose result is ignored passes
# when it times out (tests/e2e/ui_lib.sh), and a cmocka skip() says nothing of why
# (tests/unit/testing.h: SKIP_BECAUSE). Run from the project's root, like the suite.
. "$(dirname "$0")/lib.sh"

# A wait as a statement of its own: not in an if, not followed by && or || (ui_resize
# reports its own failure).
bare=$(grep -nE '^[[:space:]]*(ui_wait|ui_wait_re|ui_wait_for|ui_gone|ui_exited)([[:space:]]|$)' \
   tests/e2e/*.sh tools/gpu/*.sh | grep -v '^tests/e2e/ui_lib.sh:' | grep -vE '(&&|\|\|)')
if [ -z "$bare" ]; then
   ok "every ui_wait, ui_wait_re, ui_wait_for, ui_gone and ui_exited result is used"
else
   not_ok "waits whose result is ignored (use ui_expect, or if/&& with not_ok)" "$bare"
fi

silent=$(grep -nE '(^|[^_A-Za-z])skip\(\)' tests/unit/*.c)
if [ -z "$silent" ]; then
   ok "every skipped unit test says why (SKIP_BECAUSE)"
else
   not_ok "skip() with no reason (use SKIP_BECAUSE from tests/unit/testing.h)" "$silent"
fi

# for_each_at_once (lib.sh), several items at once: every check is numbered on in the
# input's order, a failure inside an item fails the script, and each item's scratch
# folder is its own.
cat >"$T_DIR/each.sh" <<'SH'
. tests/e2e/lib.sh
ok "before"
item() { # NAME RESULT
   echo "$1" >"$T_WORK/mine"
   # a finishes after c: the items run at once, and the output keeps the input's order.
   if [ "$1" = a ] && ! timeout 60 sh -c 'until [ -e "$0" ]; do sleep 0.05; done' "$T_DIR/c.done"; then
      not_ok "c did not run beside a"
   fi
   [ "$(cat "$T_WORK/mine")" = "$1" ] && ok "$1 has its own T_WORK" || not_ok "$1 shares T_WORK"
   [ "$2" = pass ] && ok "$1 passes" || not_ok "$1 fails" "detail of $1"
   [ "$1" = c ] && : >"$T_DIR/c.done"
}
for_each_at_once item <<ITEMS
a pass
b fail
c pass
ITEMS
ok "after"
finish
SH
GEMMTOP_KERNEL_JOBS=3 sh "$T_DIR/each.sh" >"$T_DIR/each.out" 2>&1
rc=$?
want="ok 1 - before
ok 2 - a has its own T_WORK
ok 3 - a passes
ok 4 - b has its own T_WORK
not ok 5 - b fails
#   detail of b
ok 6 - c has its own T_WORK
ok 7 - c passes
ok 8 - after"
if [ "$rc" -eq 1 ] && [ "$(cat "$T_DIR/each.out")" = "$want" ]; then
   ok "for_each_at_once: three items at once, numbered in order, the failure counted"
else
   not_ok "for_each_at_once (exit $rc, wanted 1)" "$(cat "$T_DIR/each.out")"
fi
finish
