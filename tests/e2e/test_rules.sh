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
finish
