#!/bin/sh
# gemmtop serve, submit and class (a class's shared server): a real daemon on PoCL with a
# test socket, real clients under distinct uids (setpriv, as root; the checks that need
# another account say they are skipped otherwise), real adversarial kernels
# (tests/kernels/class), a real kill -9 and restart.
. "$(dirname "$0")/lib.sh"
KDIR=$(cd "$(dirname "$0")/../kernels/class" && pwd)
# The socket and the files students send live where every account can reach them.
PUB=$(mktemp -d /tmp/gemmtop-class.XXXXXX)
chmod 755 "$PUB"
SOCK=$PUB/s
STATE=$T_DIR/state
BOARD=$T_DIR/board
SERVER=
stop_server() {
   [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
   SERVER=
}
trap 'stop_server; rm -rf "$T_DIR" "$PUB"' EXIT
cp "$KDIR"/*.cl "$PUB/"
chmod 644 "$PUB"/*.cl

DISTINCT=no
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then DISTINCT=yes; fi
NOT_ROOT="# SKIP needs distinct accounts: root and setpriv (util-linux) make them"
# as UID ARGS...: gemmtop as that account (as ourselves when accounts cannot be made).
as() {
   _u=$1
   shift
   if [ "$DISTINCT" = yes ]; then
      HOME=$PUB XDG_CONFIG_HOME=$PUB/none setpriv --reuid="$_u" --regid="$_u" --clear-groups "$GEMMTOP_BIN" "$@"
   else
      "$GEMMTOP_BIN" "$@"
   fi
}
# run_as UID ARGS...: as, with OUT, ERR and RC like run_gemmtop.
run_as() {
   as "$@" >"$T_DIR/out" 2>"$T_DIR/err"
   RC=$?
   OUT=$(cat "$T_DIR/out")
   ERR=$(cat "$T_DIR/err")
}
# until_true SECONDS COMMAND...: waits for a condition, polling; false when it never held.
until_true() {
   _end=$(($(date +%s) + $1))
   shift
   until "$@"; do
      [ "$(date +%s)" -ge "$_end" ] && return 1
      sleep 0.05
   done
}
listening() { [ -S "$SOCK" ] && grep -q " start " "$STATE/serve.log" 2>/dev/null; }
server_gone() { ! kill -0 "$SERVER" 2>/dev/null; }
# start_server ARGS...: the daemon on PoCL, waited for until it listens. Its time per
# request is an idle machine's 12 s as this machine's now (lib.sh's scaled).
start_server() {
   _starts=$(cat "$STATE/serve.log" 2>/dev/null | grep -c " start ")
   # shellcheck disable=SC2086 # POCL is a list of options
   "$GEMMTOP_BIN" serve $POCL --socket "$SOCK" --state "$STATE" --board-dir "$BOARD" --socket-access everyone \
      --roster "$T_DIR/roster" --request-seconds "$(scaled 12)" --max-size 256 --in-flight 2 --child-memory 1024 "$@" \
      >>"$T_DIR/serve.out" 2>&1 &
   SERVER=$!
   if until_true 60 sh -c '[ -S "$0" ] && [ "$(grep -c " start " "$1")" -gt "$2" ]' "$SOCK" \
      "$STATE/serve.log" "$_starts"; then
      return 0
   fi
   not_ok "the server started" "$(cat "$T_DIR/serve.out")"
   return 1
}

# ---- refusals before it starts ----
printf 'lecturer %s Lecturer\n20001 Ada Student\n20002 Bob Student\n20003 Cy Student\n' "$(id -u)" >"$T_DIR/roster"
run_gemmtop serve $POCL --state "$STATE"
expect_rc 2 "serve without --socket is refused"
expect_in "--socket PATH is needed" "$ERR" "and says what it needs"
echo "keep me" >"$PUB/file"
run_gemmtop serve $POCL --socket "$PUB/file" --state "$STATE"
expect_rc 1 "serve on a path that is a regular file is refused"
expect_in "is a regular file, not a socket: it was left as it is" "$ERR" "and says the file was left"
[ "$(cat "$PUB/file")" = "keep me" ] && ok "the file is as it was" || not_ok "the file is as it was" "$(cat "$PUB/file")"
printf '20001 Ada\nnobody-such-account-here Eve\n' >"$T_DIR/bad-roster"
run_gemmtop serve $POCL --socket "$SOCK" --state "$STATE" --roster "$T_DIR/bad-roster"
expect_rc 2 "a roster with an unknown account is refused"
expect_in "line 2: 'nobody-such-account-here' is neither a uid nor an account" "$ERR" "naming its line"
[ -e "$SOCK" ] && not_ok "no socket was made" || ok "no socket was made"
# A NUL used to end the roster there (the students after it refused as strangers); C1
# controls (CSI, as UTF-8 and as a raw byte) passed the name check like letters.
printf '20001 Ada\n\000\n20002 Bob\n' >"$T_DIR/bad-roster"
run_gemmtop serve $POCL --socket "$SOCK" --state "$STATE" --roster "$T_DIR/bad-roster"
expect_rc 2 "a roster with a NUL byte is refused at start"
expect_in "line 2: a NUL byte: a roster is plain text" "$ERR" "naming its line"
for csi in '\302\233' '\233'; do
   printf "20001 Ada\n20002 Bob ${csi}2J\n" >"$T_DIR/bad-roster"
   run_gemmtop serve $POCL --socket "$SOCK" --state "$STATE" --roster "$T_DIR/bad-roster"
   expect_rc 2 "a roster with a C1 control ($csi) in a name is refused"
   expect_in "line 2: U+009B: a roster is plain text" "$ERR" "naming its line and the control"
done
[ -e "$SOCK" ] && not_ok "no socket was made" || ok "no socket was made"

# ---- the server ----
start_server || finish
run_gemmtop serve $POCL --socket "$SOCK" --state "$T_DIR/other"
expect_rc 1 "a second server on a live socket is refused"
expect_in "another gemmtop serve is listening on $SOCK" "$ERR" "and says so"

# The socket with a client of its own: an overlong request line is answered and the
# connection closed (the client waited 600 s for nothing before); a size no integer holds
# is quoted as sent; a client's control characters come back made visible.
python3 - "$SOCK" >"$T_DIR/raw" 2>&1 <<'PY'
import socket, sys
def ask(data):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(60)  # a deadline for the answer: the server closes long before
    s.connect(sys.argv[1])
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)  # nothing more: the server ends once it has answered
    got = b""
    while True:
        try:
            part = s.recv(65536)
        except ConnectionResetError:  # it closed with our unread bytes: what it said came first
            break
        if not part:
            break
        got += part
    s.close()
    return got
print("long:", ask(b"x" * 9000).decode(errors="replace"), end="")
print("size:", ask(b"file a.cl 99999999999999999999999\n").decode(errors="replace"), end="")
echo = ask(b"\x1b]0;pwned\x07\xc2\x9b" b"2J\n")
print("echo:", echo.decode(errors="replace"), end="")
print("raw control in the echo:", any(b in echo for b in (b"\x1b", b"\x07", b"\xc2\x9b")))
PY
raw=$(cat "$T_DIR/raw")
expect_in "long: error a request line is at most 8191 bytes; this one is longer, and the connection is closed" "$raw" \
   "a request line over 8191 bytes is answered, and the connection closed"
expect_in "size: failed the kernel file is 99999999999999999999999 bytes; the server takes at most" "$raw" \
   "an absurd file size is quoted as it was sent"
expect_in "echo: error unknown request '^[]0;pwned^GM-^[2J'" "$raw" "a client's control characters come back visible"
expect_in "raw control in the echo: False" "$raw" "and none of them raw"
# A client prints what a server sends only once it is made visible: a server of its own
# that answers with a terminal's controls.
python3 - "$PUB/fake" >"$T_DIR/fake.out" 2>&1 <<'PY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
s.listen(1)
c, _ = s.accept()
c.recv(65536)
c.sendall(b"text Eve \x1b]0;pwned\x07\x1b[2J \xc2\x9b" b"31m \x9b" b"1m \xe2\x80\x94 ok\nend\n")
c.close()
PY
fake=$!
until_true 30 test -S "$PUB/fake" || not_ok "the fake server listens" "$(cat "$T_DIR/fake.out")"
run_as 20001 class board hw --server "$PUB/fake"
wait "$fake"
expect_in "Eve ^[]0;pwned^G^[[2J M-^[31m M-^[1m $(printf '\342\200\224') ok" "$OUT" "a server's controls are printed visible"
printf '%s' "$OUT" | od -An -tx1 | grep -qE ' (1b|07|9b)' && not_ok "no control byte reaches the terminal" "$OUT" ||
   ok "no control byte reaches the terminal"

# A student's run on the server: verified, timed there, recorded with the student's name.
run_as 20001 run --server "$SOCK" --kernel mygemm01_naive --size 64 --format json
expect_rc 0 "a student's run on the server"
[ "$(json_field verified)" = true ] && ok "verified on the server" || not_ok "verified on the server" "$OUT $ERR"
[ "$(json_field device)" = 0 ] && ok "the result names the server's device" || not_ok "device named" "$OUT"
who=$(python3 -c 'import sqlite3,sys
db=sqlite3.connect(sys.argv[1])
print(";".join("%s,%s,%s" % r for r in db.execute("select origin, user, kernel from results")))' "$STATE/results.db")
if [ "$DISTINCT" = yes ]; then
   expect_in "serve,Ada Student,mygemm01_naive" "$who" "the server's store records it with the roster's name"
else
   expect_in "serve,Lecturer,mygemm01_naive" "$who" "the server's store records it with the roster's name"
fi

# A sweep on the server: the space listed for the server's device, each configuration
# measured there in its turn (the server's log has them, under the student's account).
before=$(grep -c " run user=20003 .*kernel=mygemm03_wpt .*outcome=" "$STATE/serve.log")
run_as 20003 sweep --server "$SOCK" --kernel mygemm03_wpt --size 64 --budget 3 --no-store --format json
expect_rc 0 "a student's sweep on the server"
expect_in "measured on the class server $SOCK" "$ERR" "it says where it measures"
n=$(printf '%s\n' "$OUT" | grep -c '"outcome":"ok"')
after=$(grep -c " run user=20003 .*kernel=mygemm03_wpt .*outcome=" "$STATE/serve.log")
if [ "$n" -eq 3 ] && [ $((after - before)) -eq 3 ]; then
   ok "3 configurations verified, each measured once on the server"
else
   not_ok "3 configurations measured on the server ($n ok, $((after - before)) in the server's log)" "$OUT $ERR"
fi

# A bench on the server: each round a request of its own, the vendor library timed there.
before=$(grep -c " run user=20003 .*kernel=mygemm03_wpt .*outcome=" "$STATE/serve.log")
vbefore=$(grep -c " vendor user=20003 .*outcome=" "$STATE/serve.log")
run_as 20003 bench 03-wpt --server "$SOCK" --sizes 32,64 --rounds 2 --no-store
expect_rc 0 "a student's bench on the server"
expect_in "every result verified" "$OUT" "its configurations verified there"
runs=$(($(grep -c " run user=20003 .*kernel=mygemm03_wpt .*outcome=" "$STATE/serve.log") - before))
vendors=$(($(grep -c " vendor user=20003 .*outcome=" "$STATE/serve.log") - vbefore))
[ "$runs" -eq 4 ] && [ "$vendors" -eq 4 ] && ok "2 sizes x 2 rounds: 4 runs and 4 vendor timings on the server" ||
   not_ok "4 runs and 4 vendor timings on the server ($runs, $vendors)" "$OUT $ERR"

# Someone not on the roster is refused by the server, whatever they claim.
if [ "$DISTINCT" = yes ]; then
   run_as 20099 run --server "$SOCK" --kernel mygemm01_naive --size 64
   expect_rc 1 "an account not on the roster is refused"
   expect_in "(account 20099, uid 20099) are not on this class's roster" "$OUT$ERR" "and told why"
else
   ok "an account not on the roster is refused $NOT_ROOT"
fi

# Limits: a problem over --max-size, a flood of requests from one student.
run_as 20002 run --server "$SOCK" --kernel mygemm01_naive --size 512
expect_rc 1 "a problem larger than the server takes is refused"
expect_in "512x512x512 is larger than this server takes (M, N and K at most 256)" "$OUT$ERR" "naming the limit"
flood=
for i in 1 2 3 4 5 6; do
   as 20002 run --server "$SOCK" --kernel mygemm01_naive --size 256 --reps 100 >"$T_DIR/flood.$i" 2>&1 &
   flood="$flood $!"
done
# shellcheck disable=SC2086 # the clients' pids
wait $flood
refused=$(grep -l "requests of yours are already waiting or running" "$T_DIR"/flood.* | wc -l)
verified=$(grep -l "^verified:" "$T_DIR"/flood.* | wc -l)
if [ "$refused" -ge 1 ] && [ $((refused + verified)) -eq 6 ]; then
   ok "a flood: $verified of 6 measured, $refused refused for the in-flight limit, none lost"
else
   not_ok "a flood: every request measured or refused by the limit ($verified measured, $refused refused)" \
      "$(cat "$T_DIR"/flood.*)"
fi

# ---- assignments ----
if [ "$DISTINCT" = yes ]; then
   run_as 20001 class assign hw --server "$SOCK" --sizes 64,48x32x40
   expect_rc 1 "a student cannot publish an assignment"
   expect_in "only a lecturer may assign assignments (you are Ada Student, account 20001)" "$ERR" "and is told so"
else
   ok "a student cannot publish an assignment $NOT_ROOT"
fi
run_gemmtop class assign hw --server "$SOCK" --sizes 64,48x32x80 --rounds 3 --kernel mygemm01_naive
expect_rc 0 "the lecturer publishes an assignment"
run_gemmtop class list --server "$SOCK"
expect_in "hw                   open    float           3  64x64x64,48x32x80" "$OUT" "class list shows it"

# An honest submission: judged on fresh inputs, every timed launch verified.
run_as 20001 submit "$PUB/class_honest.cl" --assignment hw --server "$SOCK" --set TS=16
expect_rc 0 "an honest submission is verified"
expect_in "verified" "$OUT" "and says so"
expect_in "64x64x64:" "$OUT" "with a figure per size"
run_as 20003 submit "$PUB/class_honest.cl" --assignment hw --server "$SOCK" --set TS=8
expect_rc 0 "another student's submission"
# A student's own step 2 of the assignment's ladder (mygemm): the board's ladder shows it.
cp "$(dirname "$0")/../../kernels/mygemm02_tiled.cl" "$PUB/my_tiled.cl"
chmod 644 "$PUB/my_tiled.cl"
run_as 20002 submit "$PUB/my_tiled.cl" --assignment hw --server "$SOCK" --set TS=16
expect_rc 0 "a submission of the ladder's step 2"
run_gemmtop class board hw --server "$SOCK"
expect_in "Ladder mygemm: the class's best verified submission of each step" "$OUT" "the board has the lesson's ladder"
printf '%s\n' "$OUT" | grep -qE '^ +2  mygemm02_tiled +[0-9.]+  ' && ok "step 2 has the class's best" ||
   not_ok "step 2 has the class's best" "$OUT"
printf '%s\n' "$OUT" | grep -qE '^ +1  mygemm01_naive +-  -$' && ok "a step nobody submitted has none" ||
   not_ok "a step nobody submitted has none" "$OUT"

# A kernel that returns a stored answer: right for the inputs it was made from (a known
# seed), wrong on the server's fresh inputs.
run_gemmtop run --kernel mygemm01_naive --size 16 --seed 7 --out "$T_DIR/c7.npy"
python3 - "$T_DIR/c7.npy" "$PUB/class_honest.cl" "$PUB/class_replay.cl" <<'PY'
import sys, struct
raw = open(sys.argv[1], "rb").read()
hlen = struct.unpack("<H", raw[8:10])[0]
vals = struct.unpack("<256f", raw[10 + hlen:10 + hlen + 1024])
src = open(sys.argv[2]).read().replace("class_honest", "class_replay")
table = "__constant float stored_c[256] = {" + ",".join("%.9g" % v for v in vals) + "};\n"
head, body = src.split("__kernel", 1)
body = body.replace("GT_STORE_C(C[idx]", "acc = stored_c[idx] / alpha; GT_STORE_C(C[idx]")
open(sys.argv[3], "w").write(head + table + "__kernel" + body)
PY
chmod 644 "$PUB/class_replay.cl"
GEMMTOP_KERNELS="$GEMMTOP_KERNELS:$PUB" run_gemmtop run --kernel class_replay --size 16 --seed 7 --format json
[ "$(json_field verified)" = true ] && ok "the replaying kernel passes on the inputs it was made from (seed 7)" ||
   not_ok "the replaying kernel passes on its own inputs" "$OUT $ERR"
run_gemmtop class assign tiny --server "$SOCK" --sizes 16 --rounds 2
run_as 20002 submit "$PUB/class_replay.cl" --assignment tiny --server "$SOCK"
expect_rc 1 "the replaying kernel fails on the server's fresh inputs"
expect_in "not verified: 16x16x16: wrong result: round 1 of 2 (fresh inputs)" "$OUT" "and the round is named"

# Adversarial kernels cost only their own request; the next one is measured.
for bad in endless oob hugelocal bomb; do
   t0=$(date +%s)
   run_as 20003 submit "$PUB/class_$bad.cl" --assignment tiny --server "$SOCK"
   took=$(($(date +%s) - t0))
   if [ "$RC" -eq 1 ] && printf '%s' "$OUT" | grep -q "not verified"; then
      ok "class_$bad: rejected in ${took} s ($(printf '%s' "$OUT" | head -1 | cut -c1-110))"
   else
      not_ok "class_$bad is rejected" "$OUT $ERR"
   fi
   server_gone && not_ok "the server survives class_$bad" "$(tail -5 "$T_DIR/serve.out")"
done
# A submission that writes just outside C besides the right answer fails, saying where,
# on the server as anywhere (the guard zones are the session's).
run_as 20003 submit "$PUB/class_outside.cl" --assignment tiny --server "$SOCK"
expect_rc 1 "a kernel writing C[M*N+7] and C[-3] is not verified"
expect_in "wrote outside C at offset -3 (before its start) and at offset 263 (past its end)" "$OUT" "and says where"
run_as 20001 run --server "$SOCK" --kernel mygemm01_naive --size 32
expect_rc 0 "after them the next request is measured"
expect_in "verified:" "$OUT" "and verified"

# A name kept by a server before rosters refused controls: the board shows it made visible.
python3 -c 'import sqlite3,sys
db=sqlite3.connect(sys.argv[1])
db.execute("update submissions set user = ? where assignment = \"tiny\" and uid = 20002", ("Eve \x1b]0;pwned\x07\x9b2J",))
db.commit()' "$STATE/class.db"
run_gemmtop class board tiny --server "$SOCK"
expect_in "Eve ^[]0;pwned^GM-^[2J" "$OUT" "class board shows a kept name's controls visible"
printf '%s' "$OUT" | od -An -tx1 | grep -qE ' (1b|07|9b)' && not_ok "class board prints no control byte" "$OUT" ||
   ok "class board prints no control byte"
run_gemmtop class close tiny --server "$SOCK"
run_gemmtop class open tiny --server "$SOCK"
if python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); sys.exit(1 if any(b in d for b in (b"\x1b", b"\x07", b"\xc2\x9b")) else 0)' \
   "$BOARD/tiny.html"; then
   ok "the board's page holds no control byte"
else
   not_ok "the board's page holds no control byte" "$(grep -a Eve "$BOARD/tiny.html")"
fi

# A kernel that includes a file would print it in the compiler's errors: refused unread.
sed 's|^__kernel|#include "/etc/hostname"\n__kernel|' "$PUB/class_honest.cl" >"$PUB/class_peek.cl"
chmod 644 "$PUB/class_peek.cl"
run_as 20002 submit "$PUB/class_peek.cl" --assignment hw --server "$SOCK"
expect_rc 1 "a kernel that includes a file is refused"
expect_in "'include' reaches for another file" "$ERR" "naming the directive"
case "$OUT$ERR" in *"$(cat /etc/hostname 2>/dev/null || echo no-hostname-file)"*) not_ok "the file's text is not shown" "$OUT$ERR" ;; *) ok "the file's text is not shown" ;; esac

# Every other way of reaching a file, each spelled so that the vetting before this one
# took it (issue 50): a file only the server's account may read never reaches a student,
# neither through submit nor through run --server, nor later through class mine.
SECRET=$T_DIR/secret-of-the-server
echo "ONLY_THE_SERVER_READS_THIS_$$ x" >"$SECRET"
chmod 600 "$SECRET"
python3 - "$PUB/class_honest.cl" "$PUB/spell" "$SECRET" <<'PY'
import os, sys
src = open(sys.argv[1], newline="").read()
secret = sys.argv[3]
spellings = {
    # name: (text before the kernel, what the refusal says)
    "cr": ('// x\r#include "%s"\n', "line 14: a carriage return that ends no line"),
    "bsblank": ('#inc\\ \nlude "%s"\n', "line 14: a backslash followed by blanks ends the line"),
    "bscrlf": ('#inc\\\r\nlude "%s"\r\n', "line 14: 'include' reaches for another file"),
    "trigraph": ('#inc??/\nlude "%s"\n', "line 14: '??/' is a trigraph"),
    "warning": ('#warning /*\n#include "%s"\n*/\n', "line 15: 'include' reaches for another file"),
    "paste": ('#define C(a, b) a##b\n#if C(__has_inc, lude)("%s")\n#error exists\n#endif\n', "'##' pastes onto 'a'"),
    "pragma": ('#pragma GCC dependency "%s"\n', "'#pragma ... dependency' tests or loads another file"),
    "pragmaop": ('_Pragma("GCC dependency <%s>")\n', "'#pragma ... dependency'"),
    "line": ('#line 1 "%s"\n', "'#line' (or '# NUMBER') renames the file"),
    "digraph": ('%%:include "%s"\n', "'%:' spells '#'"),
}
head, body = src.split("__kernel", 1)
for name, (text, why) in spellings.items():
    folder = os.path.join(sys.argv[2], name)
    os.makedirs(folder)
    kernel = "class_spell_" + name
    with open(os.path.join(folder, kernel + ".cl"), "w", newline="") as f:
        f.write(head.replace("class_honest", kernel) + (text % secret) + "__kernel" + body)
    with open(os.path.join(folder, "why"), "w") as f:
        f.write(why)
PY
chmod -R a+rX "$PUB/spell"
secret_text=$(cat "$SECRET")
kept_kernels=$GEMMTOP_KERNELS
for dir in "$PUB"/spell/*/; do
   name=$(basename "$dir")
   why=$(cat "$dir/why")
   run_as 20002 submit "$dir/class_spell_$name.cl" --assignment hw --server "$SOCK"
   if [ "$RC" -eq 1 ] && printf '%s' "$OUT$ERR" | grep -qF "$why"; then
      ok "submit, $name: refused ($why)"
   else
      not_ok "submit, $name: refused saying '$why'" "$OUT $ERR"
   fi
   GEMMTOP_KERNELS="$kept_kernels:$dir"
   export GEMMTOP_KERNELS
   run_as 20002 run --server "$SOCK" --kernel "class_spell_$name" --size 16
   if [ "$RC" -ne 0 ] && printf '%s' "$OUT$ERR" | grep -qF "$why"; then
      ok "run --server, $name: refused"
   else
      not_ok "run --server, $name: refused saying '$why'" "$OUT $ERR"
   fi
   case "$OUT$ERR" in *ONLY_THE_SERVER_READS*) not_ok "$name: the secret's text is not shown" "$OUT$ERR" ;; esac
done
GEMMTOP_KERNELS=$kept_kernels
export GEMMTOP_KERNELS
run_as 20002 class mine hw --server "$SOCK"
case "$OUT$ERR" in
*ONLY_THE_SERVER_READS*) not_ok "class mine holds none of the secret's text" "$OUT" ;;
*) ok "no reply and no class mine holds the secret's text" ;;
esac
# The same file sent by a client of its own over the socket, with a NUL before the
# include (a compiler reads on past a NUL): refused, naming the line.
python3 - "$SOCK" "$PUB/class_honest.cl" "$SECRET" >"$T_DIR/raw" 2>&1 <<'PY'
import socket, sys
src = open(sys.argv[2], "rb").read()
head, body = src.split(b"__kernel", 1)
text = head + b"\0\n#include \"" + sys.argv[3].encode() + b"\"\n__kernel" + body
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"file class_honest.cl %d\n" % len(text) + text)
s.shutdown(socket.SHUT_WR)
print(s.makefile("rb").read().decode(errors="replace"))
PY
expect_in "failed line 14: a NUL byte" "$(cat "$T_DIR/raw")" "a NUL in a kernel file sent over the socket is refused, naming the line"
# Windows line ends are taken (and kept as Unix ones, which the compiler reads).
sed 's/$/\r/' "$PUB/class_honest.cl" | sed 's/class_honest/class_crlf/' >"$PUB/class_crlf.cl"
chmod 644 "$PUB/class_crlf.cl"
run_as 20003 submit "$PUB/class_crlf.cl" --assignment tiny --server "$SOCK"
expect_rc 0 "a kernel file with Windows line ends is taken and verified"
# The defence behind the vetting: a measuring child of the server quotes only errors
# about the kernel's own file. Given a kernel that includes the secret (which the server
# never sends it), its answer names no line of it.
mkdir -p "$T_DIR/leak"
sed 's|^__kernel|#include "'"$SECRET"'"\n__kernel|; s/class_honest/class_leak/' "$PUB/class_honest.cl" >"$T_DIR/leak/class_leak.cl"
dev=$(printf '%s' "$POCL" | sed 's/.*--device //')
printf 'limits 60 0 0\njob opencl %s class_leak 16 16 16 float 0 0 0x1p+0 0x0p+0 7 1 0 0x1.4p+3 0 tensor %s:%s\nrun 16\n' \
   "$dev" "${GEMMTOP_KERNELS%%:*}" "$T_DIR/leak" | "$GEMMTOP_BIN" __measure-child >"$T_DIR/child" 2>/dev/null
expect_in "does not compile: the compiler's errors name no line of class_leak.cl" "$(cat "$T_DIR/child")" \
   "a server's measuring child quotes no error from another file"
case "$(cat "$T_DIR/child")" in *ONLY_THE_SERVER_READS*) not_ok "the child's answer holds none of the secret" "$(cat "$T_DIR/child")" ;; esac
printf 'job opencl %s class_leak 16 16 16 float 0 0 0x1p+0 0x0p+0 7 1 0 0x1.4p+3 0 tensor %s:%s\nrun 16\n' \
   "$dev" "${GEMMTOP_KERNELS%%:*}" "$T_DIR/leak" | "$GEMMTOP_BIN" __measure-child >"$T_DIR/child" 2>/dev/null
expect_in "ONLY_THE_SERVER_READS" "$(cat "$T_DIR/child")" "(the same child outside a server quotes the first error, wherever it is)"

# A file that is no kernel.
printf 'not a kernel\n' >"$PUB/junk.cl"
chmod 644 "$PUB/junk.cl"
run_as 20001 submit "$PUB/junk.cl" --assignment hw --server "$SOCK"
expect_rc 1 "a file without a metadata block is refused"
expect_in "gemmtop" "$ERR" "with the parser's reason"

# ---- the board, and what each one sees ----
run_as 20001 class board hw --server "$SOCK"
expect_rc 0 "a student reads the board"
expect_in "(you)" "$OUT" "their own row is marked"
if [ "$DISTINCT" = yes ]; then
   case "$OUT" in *"Cy Student"*) not_ok "other students' names are hidden" "$OUT" ;; *) ok "other students' names are hidden" ;; esac
   expect_in "student 2" "$OUT" "others appear as 'student N'"
   run_gemmtop class board hw --server "$SOCK"
   expect_in "Cy Student" "$OUT" "the lecturer sees every name"
   run_as 20003 class mine hw --server "$SOCK"
   case "$OUT" in *"TS=16"*) not_ok "class mine shows only one's own submissions" "$OUT" ;; *) ok "class mine shows only one's own submissions" ;; esac
   run_as 20001 class export hw --server "$SOCK" --dir "$PUB/stolen"
   expect_rc 1 "a student cannot export the submissions"
   [ -e "$PUB/stolen/submissions.csv" ] && not_ok "and nothing was written" || ok "and nothing was written"
else
   for w in "other names hidden" "student N" "lecturer sees names" "mine is one's own" "export refused" "nothing written"; do
      ok "$w $NOT_ROOT"
   done
fi
run_gemmtop class board hw --server "$SOCK" --format json
ranks=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
print(",".join("%d:%s" % (r["rank"], r["verified"]) for r in json.loads(sys.stdin.readline())["rows"]))')
[ "$ranks" = "1:1,2:1,3:1" ] && ok "the board's JSON ranks the three verified submissions" || not_ok "board JSON ($ranks)" "$OUT"
run_gemmtop class export hw --server "$SOCK" --dir "$T_DIR/export"
expect_rc 0 "the lecturer exports the submissions"
[ "$(ls "$T_DIR/export" | grep -c 'class_honest.cl$')" -eq 2 ] && [ -s "$T_DIR/export/submissions.csv" ] &&
   ok "the sources and the CSV exported" || not_ok "both sources exported" "$(ls "$T_DIR/export")"
run_gemmtop class export hw --server "$SOCK" --dir "$T_DIR/export"
expect_rc 1 "exporting again over the files is refused"
expect_in "an existing file is never replaced" "$ERR" "and says nothing is replaced"
page=$BOARD/hw.html
if [ -s "$page" ] && grep -q '<table id="ranking">' "$page" && grep -q '<svg id="chart"' "$page"; then
   ok "the board's page has the ranking and the chart"
else
   not_ok "the board's page has the ranking and the chart" "$(head -c 600 "$page" 2>&1)"
fi
if [ "$DISTINCT" = yes ] && grep -q " Student" "$page"; then not_ok "the page shows no hidden name" "$(grep -o 'Student' "$page" | head)"; else ok "the page shows no hidden name"; fi
grep -q "GT_FMA\|__kernel" "$page" && not_ok "the page shows no source" || ok "the page shows no source"
why=$(python3 "$(dirname "$0")/svg_unclipped.py" "$page" 2>&1)
[ "$why" = ok ] && ok "the page's chart keeps its labels and figures inside it (rendered)" ||
   not_ok "the page's chart clips" "$why"
# The page in a real browser: what it renders, and nothing hidden in it.
if command -v chromium >/dev/null 2>&1; then
   browse() { timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$T_DIR/chromium" "$@" 2>>"$T_DIR/chromium.err"; }
   browse --dump-dom "file://$page" >"$T_DIR/dom"
   rows=$(sed -n '/<table id="ranking">/,/<\/table>/p' "$T_DIR/dom" | grep -c '<tr><td>')
   bars=$(grep -o '<rect ' "$T_DIR/dom" | wc -l)
   if [ "$rows" -eq 3 ] && [ "$bars" -eq 3 ] && grep -q '<svg id="chart"' "$T_DIR/dom" &&
      grep -q '<table id="ladder">' "$T_DIR/dom"; then
      ok "Chromium renders the page: the ranking's 3 rows, the chart's 3 bars, the ladder"
   else
      not_ok "Chromium renders the ranking and the chart ($rows rows, $bars bars)" "$(head -c 800 "$T_DIR/dom") $(tail -3 "$T_DIR/chromium.err")"
   fi
   if [ "$DISTINCT" = yes ] && grep -q " Student" "$T_DIR/dom"; then not_ok "the rendered page shows no hidden name"; else ok "the rendered page shows no hidden name"; fi
   browse --window-size=1300,700 --screenshot="$T_DIR/board.png" "file://$page" >/dev/null
   browse --window-size=1300,700 --screenshot="$T_DIR/blank.png" "about:blank" >/dev/null
   big=$(wc -c <"$T_DIR/board.png" 2>/dev/null || echo 0)
   blank=$(wc -c <"$T_DIR/blank.png" 2>/dev/null || echo 0)
   if [ "$blank" -gt 0 ] && [ "$big" -gt $((blank * 3)) ]; then
      ok "its screenshot has content ($big bytes against a blank page's $blank)"
   else
      not_ok "its screenshot has content ($big bytes against a blank page's $blank)" "$(tail -3 "$T_DIR/chromium.err")"
   fi
else
   ok "the page in Chromium # SKIP chromium is not installed (sh scripts/deps.sh test installs it)"
fi

# ---- a full disk: nothing new is taken, and it says why ----
stop_server
start_server --min-free 1048576 || finish
run_as 20001 run --server "$SOCK" --kernel mygemm01_naive --size 32
expect_rc 1 "with the disk (nearly) full a request is refused"
expect_in "the server's disk is nearly full" "$OUT$ERR" "and says why"
stop_server

# ---- kill -9 and restart: a queued submission is judged after the restart ----
start_server || finish
GEMMTOP_KERNELS="$GEMMTOP_KERNELS:$PUB"
export GEMMTOP_KERNELS
began=$(grep -c "begin run user=20002 .*kernel=class_endless" "$STATE/serve.log")
as 20002 run --server "$SOCK" --kernel class_endless --size 16 >"$T_DIR/busy" 2>&1 &
busy=$!
until_true 60 sh -c '[ "$(grep -c "begin run user=20002 .*kernel=class_endless" "$0")" -gt "$1" ]' "$STATE/serve.log" \
   "$began" || not_ok "the long request began" "$(tail -3 "$STATE/serve.log")"
before=$(grep -c "submit user=" "$STATE/serve.log")
as 20001 submit "$PUB/class_honest.cl" --assignment hw --server "$SOCK" >"$T_DIR/queued" 2>&1 &
sub=$!
if until_true 60 sh -c '[ "$(grep -c "submit user=" "$0")" -gt "$1" ]' "$STATE/serve.log" "$before"; then
   ok "a submission waits behind a long request"
else
   not_ok "a submission waits behind a long request" "$(tail -3 "$STATE/serve.log")"
fi
before=$(grep -c "submit user=" "$STATE/serve.log")
kill -9 "$SERVER"
wait "$SERVER" 2>/dev/null
SERVER=
wait "$sub" "$busy"
python3 -c 'import sqlite3,sys
db=sqlite3.connect(sys.argv[1])
n=db.execute("select count(*) from submissions where state = \"queued\"").fetchone()[0]
sys.exit(0 if n >= 1 else 1)' "$STATE/class.db" && ok "after kill -9 the submission is still queued in the class records" ||
   not_ok "the submission is kept" "$(cat "$T_DIR/queued")"
start_server || finish
judged_all() {
   python3 -c 'import sqlite3,sys
db=sqlite3.connect(sys.argv[1])
sys.exit(0 if db.execute("select count(*) from submissions where state = \"queued\"").fetchone()[0] == 0 else 1)' "$STATE/class.db"
}
if until_true 120 judged_all; then ok "the restarted server judged it"; else not_ok "the restarted server judged it" "$(tail "$STATE/serve.log")"; fi
run_as 20001 class mine hw --server "$SOCK"
n=$(printf '%s\n' "$OUT" | grep -c "verified, ")
[ "$n" -ge 2 ] && ok "class mine shows it verified ($n verified)" || not_ok "class mine shows it verified" "$OUT"
grep -q "resume submission" "$STATE/serve.log" && ok "the log says it was resumed" || not_ok "the log says it was resumed" "$(cat "$STATE/serve.log")"
[ "$(grep -c "submit user=" "$STATE/serve.log")" -eq "$before" ] && ok "it was not submitted twice" || not_ok "not submitted twice"
stop_server
finish
