#!/bin/sh
# The results store on PoCL: a sweep killed with SIGKILL once the store holds one of its
# results resumes when run again and measures each configuration exactly once in all,
# saying how many it took; --fresh measures them again; run records its row (bench's
# rows: cli_bench.sh); --no-store records nothing; a corrupt store leaves
# run working, with a warning, and the file byte for byte as it was.
. "$(dirname "$0")/lib.sh"

STORE="$XDG_DATA_HOME/gemmtop/results.db"
# A small space: the 5 values of WPT with TS fixed, at a size where each takes a moment.
SWEEP="sweep $POCL --kernel mygemm03_wpt --set TS=16 --size 128 --reps 20 --exhaustive"

# sql QUERY: one value from the store (opened read-only: polling never creates it).
sql() {
   python3 - "$STORE" "$1" <<'PY'
import sqlite3, sys
try:
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=15)
    print(db.execute(sys.argv[2]).fetchone()[0])
except sqlite3.Error:
    print(0)
PY
}

# Starts the sweep, waits (bounded) until the store has one of its results, then SIGKILL.
# Prints "<exit status> <rows when killed>".
python3 - "$GEMMTOP_BIN" "$STORE" "$T_DIR" $SWEEP >"$T_DIR/kill" 2>&1 <<'PY'
import os, signal, sqlite3, subprocess, sys, time
binary, store, tmp, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
p = subprocess.Popen([binary] + args, stdout=open(tmp + "/k.out", "w"), stderr=open(tmp + "/k.err", "w"))
def rows():
    if not os.path.exists(store):
        return 0
    try:
        db = sqlite3.connect("file:%s?mode=ro" % store, uri=True, timeout=15)
        return db.execute("SELECT count(*) FROM results WHERE origin = 'sweep'").fetchone()[0]
    except sqlite3.Error:
        return 0
deadline = time.time() + 180
while rows() < 1 and p.poll() is None and time.time() < deadline:
    time.sleep(0.02)
os.kill(p.pid, signal.SIGKILL) if p.poll() is None else None
print(p.wait(), rows())
PY
set -- $(cat "$T_DIR/kill")
status=${1:-?}
killed_at=${2:-0}
if [ "$status" = "-9" ] && [ "$killed_at" -ge 1 ] && [ "$killed_at" -lt 5 ]; then
   ok "the sweep was killed with SIGKILL after $killed_at of 5 configurations were stored"
else
   not_ok "kill the sweep mid-run: status $status, $killed_at stored" "$(cat "$T_DIR/kill" "$T_DIR/k.err")"
fi

# shellcheck disable=SC2086 # SWEEP is a list of words
run_gemmtop $SWEEP
expect_rc 0 "the same sweep run again"
expect_in "$killed_at of 5 configurations taken from the store ($STORE); --fresh measures them again" "$ERR" \
   "it says how many it took from the store"
expect_in "tried 5 of 5 valid" "$OUT" "its table has all five"
expect_in "$killed_at of them from the results store" "$OUT" "and says which came from the store"
per=$(sql "SELECT group_concat(n) FROM (SELECT count(*) AS n FROM results WHERE origin = 'sweep' GROUP BY params)")
distinct=$(sql "SELECT count(DISTINCT params) FROM results WHERE origin = 'sweep'")
[ "$per" = "1,1,1,1,1" ] && [ "$distinct" = 5 ] &&
   ok "each of the 5 configurations was measured exactly once in all" ||
   not_ok "configurations measured more or less than once: $per ($distinct distinct)" "$ERR"
keys=$(sql "SELECT count(DISTINCT sweep_key) FROM results WHERE origin = 'sweep' AND length(sweep_key) = 32")
[ "$keys" = 1 ] && ok "both runs recorded under one sweep key" || not_ok "sweep keys: $keys"

# shellcheck disable=SC2086
run_gemmtop $SWEEP
expect_in "5 of 5 configurations taken from the store" "$ERR" "a finished sweep run again measures nothing"
[ "$(sql "SELECT count(*) FROM results WHERE origin = 'sweep'")" = 5 ] && ok "and adds no row" ||
   not_ok "rows after a third run" "$(sql "SELECT count(*) FROM results")"

# shellcheck disable=SC2086
run_gemmtop $SWEEP --fresh --reps 2
expect_rc 0 "--fresh"
case "$ERR" in *"taken from the store"*) not_ok "--fresh took from the store" "$ERR" ;; *) ok "--fresh takes nothing from the store" ;; esac
per=$(sql "SELECT group_concat(n) FROM (SELECT count(*) AS n FROM results WHERE origin = 'sweep' GROUP BY params)")
[ "$per" = "2,2,2,2,2" ] && ok "--fresh measured each configuration again" || not_ok "after --fresh: $per"

# A configuration whose latest stored outcome is "failed" (a device error, out of memory:
# perhaps passing) is measured again on resuming; the others are taken from the store.
python3 - "$STORE" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=15)
last = db.execute("SELECT max(id) FROM results WHERE origin = 'sweep' AND params = 'TS=16 WPT=4'").fetchone()[0]
db.execute("UPDATE results SET outcome = 'failed', reason = 'CL_OUT_OF_RESOURCES', verified = 0, gflops = NULL, "
           "median_ms = NULL WHERE id = ?", (last,))
db.commit()
PY
# shellcheck disable=SC2086
run_gemmtop $SWEEP --reps 2
expect_rc 0 "the sweep again, one configuration stored as failed"
expect_in "4 of 5 configurations taken from the store" "$ERR" "the four that did not fail are taken"
expect_in "1 configuration stored as failed is measured again" "$ERR" "and says that the failed one is measured again"
[ "$(sql "SELECT count(*) FROM results WHERE origin = 'sweep' AND params = 'TS=16 WPT=4'")" = 3 ] &&
   [ "$(sql "SELECT outcome FROM results WHERE origin = 'sweep' AND params = 'TS=16 WPT=4' ORDER BY id DESC LIMIT 1")" = ok ] &&
   [ "$(sql "SELECT count(*) FROM results WHERE origin = 'sweep'")" = 11 ] &&
   ok "it alone was measured again, and verified" ||
   not_ok "after resuming a failed configuration" "$(sql "SELECT group_concat(params || ':' || outcome, ', ') FROM results WHERE origin = 'sweep'")"

# Two sweeps of one space at once: the second says at start that the first is running. The
# first measures long (4000 warm-up launches a configuration, seconds each), so that it is still
# running when the second, started once the first's first row is in, reads the mark: with
# 20 launches a busy machine let the first end before the second began (a sanitizer run).
python3 - "$GEMMTOP_BIN" "$STORE" "$T_DIR" $SWEEP <<'PY' >"$T_DIR/two" 2>&1
import os, sqlite3, subprocess, sys, time
binary, store, tmp, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def rows():
    db = sqlite3.connect("file:%s?mode=ro" % store, uri=True, timeout=15)
    return db.execute("SELECT count(*) FROM results WHERE origin = 'sweep'").fetchone()[0]
before = rows()
first = subprocess.Popen([binary] + args + ["--fresh", "--warmup", "4000"], stdout=subprocess.DEVNULL,
                         stderr=open(tmp + "/a.err", "w"))
deadline = time.time() + 180
while rows() == before and first.poll() is None and time.time() < deadline:
    time.sleep(0.02)
running = first.poll() is None
second = subprocess.run([binary] + args + ["--budget", "1"], capture_output=True, text=True)
first.wait()
print("first-running" if running else "first-ended-early", second.returncode)
print(second.stderr)
PY
expect_in "first-running 0" "$(cat "$T_DIR/two")" "a second sweep of the same space starts while the first runs"
expect_in "another sweep of this space is running on this store" "$(cat "$T_DIR/two")" "and says so at its start"
case "$(cat "$T_DIR/a.err")" in *"another sweep"*) not_ok "the first sweep said another was running" ;; *) ok "the first said nothing of the kind" ;; esac
# shellcheck disable=SC2086
run_gemmtop $SWEEP --budget 1
case "$ERR" in *"another sweep"*) not_ok "alone, a sweep still says another runs" "$ERR" ;; *) ok "once both ended, a sweep runs alone without the warning" ;; esac

run_gemmtop run --kernel mygemm03_wpt --size 64 --reps 2
expect_rc 0 "run"
row=$(sql "SELECT kernel || ' ' || params || ' ' || outcome || ' ' || verified || ' ' || length(kernel_hash) || ' ' || (gflops > 0) FROM results WHERE origin = 'run'")
[ "$row" = "mygemm03_wpt TS=32 WPT=8 ok 1 16 1" ] && ok "run recorded its verified result and the kernel's hash" ||
   not_ok "run's row: $row" "$ERR"

before=$(sql "SELECT count(*) FROM results")
run_gemmtop run --kernel mygemm03_wpt --size 64 --reps 2 --no-store
expect_rc 0 "run --no-store"
[ "$(sql "SELECT count(*) FROM results")" = "$before" ] && ok "--no-store recorded nothing" || not_ok "--no-store added rows"

# A corrupt store (random bytes): measured and printed as ever, said once, never written.
BAD="$T_DIR/bad.db"
head -c 6000 /dev/urandom >"$BAD"
cp "$BAD" "$T_DIR/bad.copy"
export GEMMTOP_STORE="$BAD"
run_gemmtop run --kernel mygemm03_wpt --size 64 --reps 2
unset GEMMTOP_STORE
expect_rc 0 "run with a corrupt store (GEMMTOP_STORE) still runs"
expect_in "verified" "$OUT" "and verifies"
expect_in "gemmtop: nothing recorded: results store $BAD is not a SQLite file" "$ERR" "saying once why nothing was recorded"
[ "$(printf '%s\n' "$ERR" | grep -c 'nothing recorded')" = 1 ] && ok "only once" || not_ok "said more than once" "$ERR"
cmp -s "$BAD" "$T_DIR/bad.copy" && ok "the corrupt store is left byte for byte as it was" || not_ok "the corrupt store changed"
run_gemmtop run --kernel mygemm03_wpt --size 64 --reps 2 --store "$BAD"
expect_in "is not a SQLite file" "$ERR" "--store names the same file: the same warning"
cmp -s "$BAD" "$T_DIR/bad.copy" && ok "and the file is still untouched" || not_ok "the corrupt store changed (--store)"

finish
