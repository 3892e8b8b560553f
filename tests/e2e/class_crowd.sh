#!/bin/sh
# A class at once on one gemmtop serve (PoCL, a test socket): 50 students, each its own
# uid (setpriv), two runs each and a submission from some, all started together while
# others read the board. Every request gets a verified figure or a named refusal; none
# is lost or measured twice; no two measurements overlap on the device; and the queue is
# fair: nobody is served twice while another waited since before the first.
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
   ok "50 students at once # SKIP needs distinct accounts: root and setpriv (util-linux) make them"
   finish
fi
KDIR=$(cd "$(dirname "$0")/../kernels/class" && pwd)
PUB=$(mktemp -d /tmp/gemmtop-crowd.XXXXXX)
chmod 755 "$PUB"
SOCK=$PUB/s
STATE=$T_DIR/state
SERVER=
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$T_DIR" "$PUB"' EXIT
cp "$KDIR/class_honest.cl" "$PUB/"
chmod 644 "$PUB/class_honest.cl"
STUDENTS=50
{
   printf 'lecturer %s Lecturer\n' "$(id -u)"
   i=1
   while [ "$i" -le "$STUDENTS" ]; do
      printf '%d Student %02d\n' $((21000 + i)) "$i"
      i=$((i + 1))
   done
} >"$T_DIR/roster"
as() {
   _u=$1
   shift
   HOME=$PUB XDG_CONFIG_HOME=$PUB/none setpriv --reuid="$_u" --regid="$_u" --clear-groups "$GEMMTOP_BIN" "$@"
}

# shellcheck disable=SC2086 # POCL is a list of options
"$GEMMTOP_BIN" serve $POCL --socket "$SOCK" --state "$STATE" --socket-access everyone --roster "$T_DIR/roster" \
   --request-seconds 60 --max-size 64 --in-flight 3 >"$T_DIR/serve.out" 2>&1 &
SERVER=$!
end=$(($(date +%s) + 60))
until [ -S "$SOCK" ] && grep -q " start " "$STATE/serve.log" 2>/dev/null; do
   if [ "$(date +%s)" -ge "$end" ] || ! kill -0 "$SERVER" 2>/dev/null; then
      not_ok "the server started" "$(cat "$T_DIR/serve.out")"
      finish
   fi
   sleep 0.05
done
"$GEMMTOP_BIN" class assign crowd --server "$SOCK" --sizes 32 --rounds 2 >"$T_DIR/assign" 2>&1 ||
   not_ok "the assignment is published" "$(cat "$T_DIR/assign")"

# Everyone at once: two runs a student, a submission from every fifth, the board read by
# every tenth meanwhile.
pids=
i=1
while [ "$i" -le "$STUDENTS" ]; do
   u=$((21000 + i))
   for r in 1 2; do
      as "$u" run --server "$SOCK" --kernel mygemm01_naive --size 32 --reps 3 --format json \
         >"$T_DIR/run.$u.$r" 2>"$T_DIR/run.$u.$r.err" &
      pids="$pids $!"
   done
   if [ $((i % 5)) -eq 0 ]; then
      as "$u" submit "$PUB/class_honest.cl" --assignment crowd --server "$SOCK" >"$T_DIR/sub.$u" 2>&1 &
      pids="$pids $!"
   fi
   if [ $((i % 10)) -eq 0 ]; then
      as "$u" class board crowd --server "$SOCK" >"$T_DIR/board.$u" 2>&1 &
      pids="$pids $!"
   fi
   i=$((i + 1))
done
t0=$(date +%s)
# shellcheck disable=SC2086 # the clients' pids
wait $pids
ok "every client ended ($(($(date +%s) - t0)) s for $((STUDENTS * 2)) runs and $((STUDENTS / 5)) submissions)"

# Each run: a verified figure, or a refusal that says why; nothing else.
verified=0
refused=0
other=
for f in "$T_DIR"/run.*[0-9]; do
   if grep -q '"verified":true' "$f"; then
      verified=$((verified + 1))
   elif grep -q "refused" "$f" "$f.err"; then
      refused=$((refused + 1))
   else
      other="$other
$f: $(cat "$f" "$f.err")"
   fi
done
[ -z "$other" ] && ok "every run verified ($verified) or refused with a reason ($refused)" ||
   not_ok "every run verified or refused with a reason" "$other"
subs=$(grep -l "verified, " "$T_DIR"/sub.* | wc -l)
[ "$subs" -eq $((STUDENTS / 5)) ] && ok "every submission judged and verified ($subs)" ||
   not_ok "every submission judged ($subs of $((STUDENTS / 5)))" "$(cat "$T_DIR"/sub.*)"
boards=$(grep -l "Board of crowd" "$T_DIR"/board.* | wc -l)
[ "$boards" -eq $((STUDENTS / 10)) ] && ok "the board was read meanwhile ($boards times)" ||
   not_ok "the board was read meanwhile" "$(cat "$T_DIR"/board.*)"

# The server's log: one line per measurement, with when it was queued, began and ended.
python3 - "$STATE/serve.log" "$verified" "$STUDENTS" >"$T_DIR/check" 2>&1 <<'PY'
import re, sys, statistics
log, verified, students = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
reqs = []
for line in open(log):
    m = re.search(r" (run|judge|vendor) user=(\S+) uid=\d+ device=(\d+) queued=([\d.]+) start=([\d.]+) end=([\d.]+)", line)
    if m:
        reqs.append(dict(kind=m[1], user=m[2], dev=int(m[3]), q=float(m[4]), s=float(m[5]), e=float(m[6])))
runs = [r for r in reqs if r["kind"] == "run"]
print("measured runs %d, verified runs seen by clients %d" % (len(runs), verified))
problems = []
if len(runs) != verified:
    problems.append("runs measured %d != runs answered %d: lost or measured twice" % (len(runs), verified))
per_user = {}
for r in runs:
    per_user.setdefault(r["user"], []).append(r)
if len(per_user) != students or any(len(v) != 2 for v in per_user.values()):
    problems.append("not two runs for each of %d students: %s" % (students, sorted((u, len(v)) for u, v in per_user.items())))
order = sorted(reqs, key=lambda r: r["s"])
for a, b in zip(order, order[1:]):
    if a["dev"] == b["dev"] and b["s"] < a["e"]:
        problems.append("overlap on device %d: %s %.1f-%.1f and %s %.1f-%.1f" % (a["dev"], a["user"], a["s"], a["e"], b["user"], b["s"], b["e"]))
# Fairness, round robin by the student served least recently: when a student is served
# again, nobody who waited since before its previous turn may still wait unless served
# in between.
by_user = {}
for r in order:
    by_user.setdefault(r["user"], []).append(r)
unfair = 0
for u, served in by_user.items():
    for a, b in zip(served, served[1:]):
        for r in reqs:
            if r["user"] != u and r["q"] < a["s"] and r["s"] > b["s"] and \
                    not any(a["s"] < o["s"] < b["s"] for o in by_user[r["user"]]):
                unfair += 1
                if unfair <= 3:
                    problems.append("%s served at %.1f and %.1f while %s waited from %.1f to %.1f" % (u, a["s"], b["s"], r["user"], r["q"], r["s"]))
waits = {u: statistics.mean((r["s"] - r["q"]) / 1e3 for r in v) for u, v in per_user.items()}
w = sorted(waits.values())
print("# per-student mean wait: min %.2f s, median %.2f s, max %.2f s (spread max/min %.1f); %d measurements in %.1f s"
      % (w[0], statistics.median(w), w[-1], w[-1] / max(w[0], 1e-3), len(reqs), (order[-1]["e"] - order[0]["s"]) / 1e3))
for p in problems:
    print("PROBLEM " + p)
sys.exit(1 if problems else 0)
PY
rc=$?
grep '^#' "$T_DIR/check"
if [ $rc -eq 0 ]; then
   ok "none lost or measured twice, no overlap on the device, served round robin by student"
else
   not_ok "none lost or measured twice, no overlap on the device, served round robin by student" "$(cat "$T_DIR/check")"
fi
kill "$SERVER"
wait "$SERVER"
SERVER=
finish
