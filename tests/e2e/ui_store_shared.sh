#!/bin/sh
# One results store shared by the explorer and the command line at once (issue 33): the
# explorer holds two connections (its worker records, its UI reads the history) while
# `gemmtop run` and `gemmtop sweep` open, write and close the same store beside it, and
# the explorer's own sweep records all the while. At the end every row each side committed
# is in the store, the WAL was never deleted while the explorer had the store open, and
# the file is whole. Before the fix, the UI's second open dropped the worker's locks: a
# closing command-line writer deleted the WAL under the explorer, and the explorer's later
# rows were lost.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

S="$T_DIR/shared.db"
# sql QUERY: one value from the store.
sql() {
   python3 - "$S" "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=15)
print(db.execute(sys.argv[2]).fetchone()[0])
PY
}

# A stored result of the explorer's kernel and size, so that its history pane opens the
# store (the second connection) and says so in the log.
run_gemmtop run --kernel mygemm03_wpt --size 64 --reps 1 --store "$S"
expect_rc 0 "a first run records into the shared store"

ui_start 120 40 -- --kernel mygemm03_wpt --size 64 --budget 12 --store "$S"
ui_expect_re "verify +[^ ]+ verified" "the explorer verifies its configuration"
ui_expect "history: 1 result of mygemm03_wpt at 64x64x64" "its history read the store: two connections are open"
wal_ino=$(stat -c %i "$S-wal" 2>/dev/null)
[ -n "$wal_ino" ] && ok "the store's WAL is there" || not_ok "no WAL beside the store while the explorer has it open"

# The command line writes beside it: runs and a sweep, each opening and closing the store.
(
   i=0
   while [ $i -lt 6 ]; do
      # shellcheck disable=SC2086 # POCL is a list of options
      "$GEMMTOP_BIN" run $POCL --kernel mygemm01_naive --size 32 --reps 1 --set TSM=$((1 << (i % 3))) \
         --store "$S" >/dev/null 2>>"$T_DIR/cli.err" || echo "run $i failed" >>"$T_DIR/cli.err"
      i=$((i + 1))
   done
   # shellcheck disable=SC2086
   "$GEMMTOP_BIN" sweep $POCL --kernel mygemm01_naive --size 32 --reps 1 --exhaustive --set TSN=8 \
      --store "$S" >"$T_DIR/sweep.out" 2>>"$T_DIR/cli.err"
   echo $? >"$T_DIR/cli.done"
) &
cli=$!
# Meanwhile the explorer sweeps: 12 configurations, each recorded as it is tried.
ui_keys 7
ui_keys S
ui_expect_re "12/12 +done in [0-9.]+ s" "the explorer's sweep tries 12 configurations" 240
i=0
while [ ! -e "$T_DIR/cli.done" ] && [ $i -lt 2400 ]; do sleep 0.1; i=$((i + 1)); done
wait $cli
[ "$(cat "$T_DIR/cli.done" 2>/dev/null)" = 0 ] && ok "the command line's runs and sweep finished" ||
   not_ok "the command line's writers" "$(cat "$T_DIR/cli.err" "$T_DIR/sweep.out" 2>/dev/null)"
now_ino=$(stat -c %i "$S-wal" 2>/dev/null)
[ -n "$now_ino" ] && [ "$now_ino" = "$wal_ino" ] &&
   ok "the WAL the explorer writes to was never deleted (same file after every writer closed)" ||
   not_ok "the WAL was deleted or replaced under the explorer (inode $wal_ino, now '${now_ino:-none}')"
# The explorer records after the command line has closed the store once more.
ui_keys Escape
ui_keys q
ui_expect_exit 0 "q quits"

explorer_rows=$(sql "SELECT count(*) FROM results WHERE origin = 'explorer' AND kernel = 'mygemm03_wpt'")
[ "$explorer_rows" -ge 1 ] && ok "the explorer's own measurement is stored ($explorer_rows)" ||
   not_ok "the explorer's measurement is missing"
ex_sweep=$(sql "SELECT count(*) FROM results WHERE origin = 'sweep' AND kernel = 'mygemm03_wpt' AND m = 64")
[ "$ex_sweep" = 12 ] && ok "all 12 configurations of the explorer's sweep are stored" ||
   not_ok "the explorer's sweep: $ex_sweep of 12 rows stored"
runs=$(sql "SELECT count(*) FROM results WHERE origin = 'run' AND kernel = 'mygemm01_naive' AND m = 32")
[ "$runs" = 6 ] && ok "all 6 command-line runs are stored" || not_ok "command-line runs: $runs of 6 stored"
tried=$(sed -n 's/^tried \([0-9]*\) of.*/\1/p' "$T_DIR/sweep.out")
cli_sweep=$(sql "SELECT count(*) FROM results WHERE origin = 'sweep' AND kernel = 'mygemm01_naive' AND m = 32")
[ -n "$tried" ] && [ "$cli_sweep" = "$tried" ] && ok "all $tried configurations of the command-line sweep are stored" ||
   not_ok "the command-line sweep: $cli_sweep stored, it tried '${tried}'" "$(cat "$T_DIR/sweep.out")"
[ "$(sql "PRAGMA integrity_check")" = ok ] && ok "the store is whole" || not_ok "integrity_check fails"
finish
