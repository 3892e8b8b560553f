#!/bin/sh
# The explorer on a class server (gemmtop --server): each configuration is measured once
# on the server, verified there, and the screen says so; a configuration waiting behind
# another request shows its place in the queue; the vendor BLAS comes from the server; an
# ablation is refused. A real daemon on PoCL (gemmtop serve) and a real tmux screen.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init
use_test_kernels
KDIR=$(cd "$(dirname "$0")/../kernels/class" && pwd)
GEMMTOP_KERNELS="$GEMMTOP_KERNELS:$KDIR"
export GEMMTOP_KERNELS
SOCK=$T_DIR/s
SERVER=
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; ui_tmux kill-server >/dev/null 2>&1; rm -rf "$T_DIR"' EXIT
# A request's deadline: the vendor request's first CLBlast call compiles CLBlast's kernels
# on PoCL, which under the sanitizers and a busy machine took more than 15 s (CI, stop 41),
# so 30 s, 45 under the sanitizers. The endless request below asks for a shorter limit of
# its own (run --max-seconds, which the server keeps when it is under its deadline): it
# spins on every core while it holds the device, and 12 s are room enough for the screen
# to show the configuration waiting behind it.
# Those are an idle machine's seconds: the server gets them as this machine's now (lib.sh).
deadline=30
[ -n "${GEMMTOP_SANITIZE:-}" ] && deadline=45
endless=12
# shellcheck disable=SC2086 # POCL is a list of options
"$GEMMTOP_BIN" serve $POCL --socket "$SOCK" --state "$T_DIR/state" --request-seconds "$(scaled "$deadline")" \
   >"$T_DIR/serve.out" 2>&1 &
SERVER=$!
listening() { [ -S "$SOCK" ] && grep -q " start " "$T_DIR/state/serve.log" 2>/dev/null; }
listening_or_gone() { listening || ! kill -0 "$SERVER" 2>/dev/null; }
if ! wait_until 60 listening_or_gone || ! listening; then
   not_ok "the server started" "$(cat "$T_DIR/serve.out")"
   finish
fi

"$GEMMTOP_BIN" class assign lab --server "$SOCK" --sizes 64 --rounds 2 >"$T_DIR/assign" 2>&1 ||
   not_ok "the assignment is published" "$(cat "$T_DIR/assign")"
ui_start 120 40 -- -U --server "$SOCK" --assignment lab --kernel mygemm03_wpt --size 128
ui_expect_re "verify +ok verified on the server" "the configuration is verified on the server"
ui_expect "measured on the server $SOCK" "the header says where it is measured"
ui_expect_re "speed +[0-9.]+ GFLOPS" "with its figure"
ui_expect "(the server's device: not measured here)" "the local peaks are not compared with it"
ui_expect_re "ahead +off: the class server compiles" "nothing is compiled ahead here"
ui_expect_re "BLAS +(CLBlast|[A-Za-z]+) .*GFLOPS|BLAS +[0-9.]+" "the vendor BLAS comes from the server" 60
runs=$(grep -c "^.* run user=.* kernel=mygemm03_wpt size=128x128x128 outcome=ok" "$T_DIR/state/serve.log")
[ "$runs" -eq 1 ] && ok "the server measured it once (its log)" || not_ok "the server measured it once ($runs)" "$(cat "$T_DIR/state/serve.log")"

# Another request holds the device: the next configuration waits, and says where.
began=$(grep -c "begin run .*kernel=class_endless" "$T_DIR/state/serve.log")
limit=$(scaled "$endless")
"$GEMMTOP_BIN" run --server "$SOCK" --kernel class_endless --size 16 --max-seconds "$limit" >"$T_DIR/busy" 2>&1 &
busy=$!
until_began() { [ "$(grep -c "begin run .*kernel=class_endless" "$T_DIR/state/serve.log")" -gt "$began" ]; }
wait_until 60 until_began
until_began && ok "a long request holds the server's device" || not_ok "a long request holds the server's device"
ui_keys Right
ui_expect "waiting on the server: 0 ahead of it" "the next configuration shows its place in the queue"
ui_expect_re "config +04_wide.*|verify +ok verified on the server" "the next variant is shown"
# The long request ends at its limit; only then is the waiting one compiled and measured,
# which under the sanitizers on a loaded machine takes a while of its own: the two waits
# apart, each for its own condition.
busy_ended() { ! kill -0 "$busy" 2>/dev/null; }
wait_until $((endless + 60)) busy_ended
wait "$busy"
grep -q "timeout: a launch did not end within --timeout $limit s" "$T_DIR/busy" &&
   ok "the long request timed out on its own, at the limit it asked for" ||
   not_ok "the long request timed out at its --max-seconds $limit" "$(cat "$T_DIR/busy")"
ui_expect_re "verify +ok verified on the server" "and the waiting one is measured once the device is free" 120

# J submits the configuration: judged on the server, the verdict in the log.
# The footer's "submitted to lab: judged in turn" lasts until the verdict replaces it,
# which on a fast machine is the same second (CI, stop 57): the log keeps both.
ui_keys J
ui_expect_re "submitting mygemm04_wide .* to assignment lab" "J submits to the assignment (the log)"
ui_expect_re "submission [0-9]+ to lab: verified, [0-9.]+ GFLOPS" "the log gives the verdict" 90
# ... and so do the results pane and the footer, which a lesson's layout keeps in view.
ui_expect_re "class +submission of mygemm04_wide .* to lab: verified" "the results pane gives the verdict too" 10
printf '%s\n' "$UI_LAST" | tail -n 1 | grep -q "submission of mygemm04_wide" &&
   ok "the footer says it for a while" || not_ok "the footer says the verdict" "$UI_LAST"
ui_expect_re "64x64x64: [0-9.]+ GFLOPS" "and the judged figure" 20
"$GEMMTOP_BIN" class mine lab --server "$SOCK" >"$T_DIR/mine" 2>&1
grep -q "class_honest\|mygemm04_wide.cl" "$T_DIR/mine" && grep -q "verified, " "$T_DIR/mine" &&
   ok "class mine lists it, verified" || not_ok "class mine lists it, verified" "$(cat "$T_DIR/mine")"

# An ablation is not measured on the server.
ui_keys a
ui_expect_re "ablated kernel is not measured on a class server|not measured on a class server" "an ablation is refused on the server" 20
ui_keys F10
ui_expect_exit 0 "F10 quits"
kill "$SERVER"
wait "$SERVER"
SERVER=
finish
