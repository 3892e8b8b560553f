#!/bin/sh
# The results store against real faults, each told apart from a corrupt store (issue 28):
# a full disk (a real tmpfs filled to its last page), a read-only mount, another user's
# store (read as the user nobody, while its owner holds it open in WAL mode), a FIFO and a
# link to /dev/zero named as the store, and a store with a damaged page whose readable rows
# `results import` saves. Mounts and other users need root: without it those checks are
# skipped, saying so.
. "$(dirname "$0")/lib.sh"

MOUNTS=""
cleanup() {
   for m in $MOUNTS; do umount "$m" 2>/dev/null; done
   rm -rf "$T_DIR"
}
trap cleanup EXIT

RUN1="run --kernel general_any --size 16 --reps 1"
# rows STORE: how many rows the store holds, read by SQLite itself (python3's sqlite3).
rows() {
   python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=15)
print(db.execute("SELECT count(*) FROM results").fetchone()[0])
PY
}
# healthy STORE: SQLite's integrity_check says ok.
healthy() {
   [ "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' "$1")" = ok ]
}
# no_corrupt_word WHAT: the last message does not call the store corrupt.
no_corrupt_word() {
   case "$ERR" in *corrupt*) not_ok "$1: the message calls the store corrupt" "$ERR" ;; *) ok "$1: not called corrupt" ;; esac
}

can_mount=0
if [ "$(id -u)" = 0 ] && mkdir -p "$T_DIR/probe" && mount -t tmpfs -o size=64k tmpfs "$T_DIR/probe" 2>/dev/null; then
   umount "$T_DIR/probe"
   can_mount=1
fi

# ---- a full disk ----
if [ "$can_mount" = 1 ]; then
   FULL="$T_DIR/full"
   mkdir -p "$FULL"
   mount -t tmpfs -o size=512k tmpfs "$FULL" && MOUNTS="$FULL $MOUNTS"
   run_gemmtop $RUN1 --store "$FULL/r.db"
   expect_rc 0 "a run records into a store on a small tmpfs"
   # Fill the disk to its last page.
   head -c 1048576 /dev/zero >"$FULL/fill" 2>/dev/null
   avail=$(df -P -B1 "$FULL" | awk 'NR == 2 { print $4 }')
   [ "$avail" -le 4096 ] && ok "the tmpfs is full ($avail bytes free)" || not_ok "the tmpfs still has $avail bytes free"
   run_gemmtop $RUN1 --store "$FULL/r.db"
   expect_rc 0 "a run on the full disk still measures"
   expect_in "the disk that holds it is full" "$ERR" "and says that the disk is full"
   no_corrupt_word "a full disk"
   run_gemmtop results list --store "$FULL/r.db"
   expect_rc 0 "results list reads the store on the full disk"
   expect_in "general_any" "$OUT" "and lists its row"
   rm -f "$FULL/fill"
   healthy "$FULL/r.db" && [ "$(rows "$FULL/r.db")" = 1 ] && ok "space freed: the store is whole, its row there" ||
      not_ok "after freeing space" "$(rows "$FULL/r.db")"
   run_gemmtop $RUN1 --store "$FULL/r.db"
   [ "$RC" = 0 ] && [ "$(rows "$FULL/r.db")" = 2 ] && ok "and the next run records again" || not_ok "recording after space was freed" "$ERR"
else
   ok "# SKIP a full disk: mounting a tmpfs needs root"
fi

# ---- a read-only mount ----
RW="$T_DIR/rw"
mkdir -p "$RW"
run_gemmtop $RUN1 --store "$RW/r.db"
run_gemmtop $RUN1 --store "$RW/r.db"
if [ "$can_mount" = 1 ]; then
   RO="$T_DIR/ro"
   mkdir -p "$RO"
   mount --bind "$RW" "$RO" && MOUNTS="$RO $MOUNTS" && mount -o remount,bind,ro "$RO"
   run_gemmtop results list --store "$RO/r.db"
   expect_rc 0 "results list on a read-only mount"
   [ "$(printf '%s\n' "$OUT" | grep -c general_any)" = 2 ] && ok "lists both rows" || not_ok "rows listed" "$OUT"
   run_gemmtop results export --store "$RO/r.db" --format csv
   expect_rc 0 "results export on a read-only mount"
   [ "$(printf '%s\n' "$OUT" | grep -c general_any)" = 2 ] && ok "exports both rows" || not_ok "rows exported" "$OUT"
   run_gemmtop $RUN1 --store "$RO/r.db"
   expect_rc 0 "a run with a store on a read-only mount measures"
   expect_in "cannot be written by this user here (Read-only file system)" "$ERR" "and says why nothing is recorded"
   no_corrupt_word "a read-only mount"
   umount "$RO" && MOUNTS=${MOUNTS#"$RO "}
else
   ok "# SKIP a read-only mount: mounting needs root"
fi

# ---- another user's store, open for writing by its owner ----
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$GEMMTOP_BIN"; then
   OTHER=$(mktemp -d /tmp/gemmtop-other-XXXXXX)
   cp "$RW/r.db" "$OTHER/r.db"
   cp "$RW/r.db" "$OTHER/mine.db"
   chmod 755 "$OTHER"
   mkdir -p "$OTHER/cache" "$OTHER/pocl" && chown nobody "$OTHER/cache" "$OTHER/pocl"
   chmod 644 "$OTHER/mine.db"
   as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$OTHER" XDG_DATA_HOME="$OTHER" XDG_CACHE_HOME="$OTHER/cache" POCL_CACHE_DIR="$OTHER/pocl" "$GEMMTOP_BIN" "$@" >"$T_DIR/out" 2>"$T_DIR/err"; RC=$?; OUT=$(cat "$T_DIR/out"); ERR=$(cat "$T_DIR/err"); }
   as_nobody results list --store "$OTHER/r.db"
   expect_rc 0 "another user's store (no -wal): results list reads it"
   [ "$(printf '%s\n' "$OUT" | grep -c general_any)" = 2 ] && ok "both rows" || not_ok "rows" "$OUT$ERR"
   # Its owner holds a connection with a commit in the WAL (not checkpointed) meanwhile.
   python3 - "$OTHER/r.db" "$T_DIR/holding" "$T_DIR/release" <<'PY' &
import os, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], timeout=15, isolation_level=None)
db.execute("PRAGMA wal_autocheckpoint = 0")
cols = [r[1] for r in db.execute("PRAGMA table_info(results)")]
row = list(db.execute("SELECT * FROM results LIMIT 1").fetchone())
row[0] = None
row[cols.index("params")] = "TS=99"
db.execute("INSERT INTO results VALUES (%s)" % ",".join("?" * len(row)), row)
open(sys.argv[2], "w").close()
deadline = time.time() + 120
while not os.path.exists(sys.argv[3]) and time.time() < deadline:
    time.sleep(0.05)
PY
   holder=$!
   i=0
   while [ ! -e "$T_DIR/holding" ] && [ $i -lt 1200 ] && kill -0 $holder 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
   as_nobody results list --store "$OTHER/r.db"
   expect_rc 0 "another user's store while its owner writes: results list reads it"
   expect_in "TS=99" "$OUT" "including the row still in the owner's WAL"
   as_nobody results import "$OTHER/mine.db" --store "$OTHER/r.db"
   expect_rc 1 "importing into another user's store"
   expect_in "cannot be written by this user here (Permission denied)" "$ERR" "says it cannot be written"
   no_corrupt_word "another user's store"
   as_nobody run $POCL --kernel general_any --size 16 --reps 1 --store "$OTHER/r.db"
   expect_in "nothing recorded: results store $OTHER/r.db cannot be written by this user here" "$ERR" \
      "a run with another user's store says at once that it records nothing"
   touch "$T_DIR/release"
   wait $holder
   rm -rf "$OTHER"
else
   ok "# SKIP another user's store: needs root, setpriv and a gemmtop the user nobody may run"
fi

# ---- not a file: a FIFO, a link to /dev/zero ----
mkfifo "$T_DIR/fifo.db"
ln -s /dev/zero "$T_DIR/zero.db"
for f in fifo.db zero.db; do
   what=FIFO
   [ "$f" = zero.db ] && what="character device"
   run_gemmtop $RUN1 --store "$T_DIR/$f"
   expect_rc 0 "a store that is a $what: the run measures, without waiting"
   expect_in "is not a regular file (a $what)" "$ERR" "and names what the store is"
   run_gemmtop results list --store "$T_DIR/$f"
   expect_rc 1 "results list with a $what as the store"
   expect_in "is not a regular file (a $what)" "$ERR" "names it too"
done
[ -p "$T_DIR/fifo.db" ] && ok "the FIFO is left as it was" || not_ok "the FIFO was replaced"

# ---- a damaged page: its readable rows saved by results import ----
DAM="$T_DIR/damaged.db"
cp "$RW/r.db" "$DAM"
python3 - "$DAM" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
cols = len(db.execute("SELECT * FROM results LIMIT 1").fetchone())
row = list(db.execute("SELECT * FROM results LIMIT 1").fetchone())
for i in range(3000):
    row[0] = None
    row[10] = "TS=%d" % (1000 + i)
    db.execute("INSERT INTO results VALUES (%s)" % ",".join("?" * cols), row)
db.commit()
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.execute("PRAGMA journal_mode = DELETE")
pages = db.execute("PRAGMA page_count").fetchone()[0]
db.close()
with open(sys.argv[1], "r+b") as f:   # one leaf page in the middle of the results
    f.seek(4096 * (pages // 2))
    f.write(b"\xde\xad" * 2048)
PY
cp "$DAM" "$T_DIR/damaged.copy"
run_gemmtop results list --store "$DAM"
expect_rc 1 "results list of a store with a damaged page"
expect_in "is corrupt" "$ERR" "calls it corrupt"
expect_in "gemmtop results import $DAM --store NEW.db" "$ERR" "and says how to save its readable rows"
run_gemmtop results import "$DAM" --store "$T_DIR/saved.db"
expect_rc 0 "results import of the damaged store"
expect_in "damaged run of rows could not be read and was skipped" "$OUT" "says what could not be read"
saved=$(rows "$T_DIR/saved.db")
[ "$saved" -gt 2800 ] && [ "$saved" -lt 3002 ] && ok "saved $saved of 3002 rows" || not_ok "saved $saved of 3002 rows" "$OUT$ERR"
cmp -s "$DAM" "$T_DIR/damaged.copy" && ok "the damaged store is left byte for byte as it was" || not_ok "the damaged store changed"
run_gemmtop results import "$DAM" --store "$T_DIR/saved.db"
expect_in "imported 0 results" "$OUT" "importing it again adds nothing"
run_gemmtop results import "$T_DIR/saved.db" --store "$T_DIR/saved.db"
expect_rc 2 "a store imported into itself is refused"
cp "$T_DIR/saved.db" "$T_DIR/saved.copy"
run_gemmtop results export --store "$T_DIR/saved.db" --out "$T_DIR/saved.db" --force
expect_rc 2 "export --out naming the store itself is refused, even with --force"
cmp -s "$T_DIR/saved.db" "$T_DIR/saved.copy" && ok "and the store is left as it was" || not_ok "the store was overwritten"
# Nor over its -wal while another process holds a commit there that is not checkpointed.
python3 - "$T_DIR/saved.db" "$T_DIR/walheld" "$T_DIR/walrelease" <<'PY' &
import os, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], timeout=15, isolation_level=None)
db.execute("PRAGMA wal_autocheckpoint = 0")
db.execute("UPDATE results SET reason = 'held in the WAL' WHERE id = (SELECT max(id) FROM results)")
open(sys.argv[2], "w").close()
deadline = time.time() + 120
while not os.path.exists(sys.argv[3]) and time.time() < deadline:
    time.sleep(0.05)
PY
holder=$!
i=0
while [ ! -e "$T_DIR/walheld" ] && [ $i -lt 1200 ] && kill -0 $holder 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
cp "$T_DIR/saved.db-wal" "$T_DIR/wal.copy"
for companion in -wal -shm; do
   run_gemmtop results export --store "$T_DIR/saved.db" --out "$T_DIR/saved.db$companion" --force
   expect_rc 2 "export --out naming the store's $companion is refused, even with --force"
done
cmp -s "$T_DIR/saved.db-wal" "$T_DIR/wal.copy" && ok "and the live -wal is left as it was" || not_ok "the -wal was replaced"
touch "$T_DIR/walrelease"
wait $holder
[ "$(rows "$T_DIR/saved.db")" -gt 2800 ] && python3 -c 'import sqlite3,sys; sys.exit(0 if sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM results WHERE reason = ?", ("held in the WAL",)).fetchone()[0] == 1 else 1)' "$T_DIR/saved.db" &&
   ok "the commit held in the WAL is in the store" || not_ok "the commit held in the WAL was lost"
finish
