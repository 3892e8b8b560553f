#!/bin/sh
# The explorer and the results store: what `gemmtop run` measured before shows in the
# history pane, marked "stored"; the explorer records its own verified measurement;
# --no-store shows and records nothing; a corrupt store is said in the log and left as
# it was, and the explorer measures as ever.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

STORE="$XDG_DATA_HOME/gemmtop/results.db"
# count WHERE: rows of the store that match.
count() {
   python3 - "$STORE" "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=15)
print(db.execute("SELECT count(*) FROM results WHERE " + sys.argv[2]).fetchone()[0])
PY
}

run_gemmtop run --kernel mygemm01_naive --size 128 --set TSN=8 --set TSM=4 --reps 2
expect_rc 0 "a run of TSN=8 TSM=4 is recorded first"

# 56 rows: the log pane keeps the early history line in view after the phases of a verified run.
ui_start 120 56 -- --kernel mygemm01_naive --size 128
ui_expect_re "verify +[^ ]+ verified" "the explorer verifies its configuration"
ui_expect_re "stored 01_naive TSN=8 TSM=4 .*[0-9]" "the history shows the stored run, marked stored"
ui_expect_re "(▶|>)01_naive TSN=16 TSM=16 .*[0-9]" "beside the one measured now (not marked)"
ui_expect "history: 1 result of mygemm01_naive at 128x128x128" "the log says that a result came from the store"
ui_keys q
ui_expect_exit 0 "q quits"
n=$(count "origin = 'explorer' AND kernel = 'mygemm01_naive' AND params = 'TSN=16 TSM=16' AND verified = 1 AND m = 128")
[ "$n" = 1 ] && ok "the explorer recorded its verified measurement" || not_ok "explorer rows: $n"

before=$(count "1")
ui_start 120 40 -- --kernel mygemm01_naive --size 128 --no-store
ui_expect_re "verify +[^ ]+ verified" "--no-store: verified as ever"
ui_expect_gone "stored 01_naive" "--no-store: nothing stored in the history"
ui_keys q
ui_expect_exit 0 "q quits"
[ "$(count "1")" = "$before" ] && ok "--no-store: nothing recorded" || not_ok "--no-store recorded rows"

head -c 5000 /dev/urandom >"$T_DIR/bad.db"
cp "$T_DIR/bad.db" "$T_DIR/bad.copy"
ui_start 120 40 -- --kernel mygemm01_naive --size 128 --store "$T_DIR/bad.db"
ui_expect_re "verify +[^ ]+ verified" "a corrupt store: the explorer measures as ever"
# The store's line is logged at the start; the device's, the compile's and the
# verification's lines after it push it out of the small log pane (on a busy machine they
# come before the first screen is read), so it is read from the log pane zoomed.
ui_keys Tab Tab Tab z
ui_expect " 4 Log" "Tab Tab Tab z: the log pane, zoomed"
ui_expect_gone " 2 Results" "alone on the screen" 10
ui_expect "nothing recorded: results store" "and its log says why nothing is recorded"
ui_keys z
ui_keys q
ui_expect_exit 0 "q quits"
cmp -s "$T_DIR/bad.db" "$T_DIR/bad.copy" && ok "the corrupt store is left as it was" || not_ok "the corrupt store changed"
finish
