#!/bin/sh
# The suite's waits (lib.sh's wait_until, under every ui_wait): an idle machine's seconds,
# stretched by the machine's slowdown, the load per core taken at each poll (here a load
# file of the test's own), times GEMMTOP_TEST_SPEED; never past WAIT_STRETCH_MAX times;
# and over as soon as the condition holds. Only lower bounds of the time are checked: a busy
# machine may make any wait longer, never shorter.
. "$(dirname "$0")/lib.sh"

T_CORES=2
T_LOADAVG=$T_DIR/loadavg
# took SECONDS COMMAND...: TOOK, the milliseconds wait_until SECONDS COMMAND... lasted; RC.
took() {
   _t0=$(now_ms)
   wait_until "$@"
   RC=$?
   TOOK=$(($(now_ms) - _t0))
}

echo "0.50 0.40 0.30 1/100 12345" >"$T_LOADAVG"
took 1 false
[ "$RC" -ne 0 ] && [ "$TOOK" -ge 1000 ] && ok "an idle machine: a 1 s wait on a condition that never holds fails after $TOOK ms" ||
   not_ok "idle: rc $RC after $TOOK ms"
echo "8.00 8.00 8.00 9/100 12345" >"$T_LOADAVG"
took 1 false
[ "$RC" -ne 0 ] && [ "$TOOK" -ge 4000 ] && ok "a load of 8 on 2 cores: the same wait lasts $TOOK ms (at least 4 s)" ||
   not_ok "a load of 8 on 2 cores stretches the wait 4 times: rc $RC after $TOOK ms"
GEMMTOP_TEST_SPEED=150
echo "2.00 2.00 2.00 3/100 12345" >"$T_LOADAVG"
took 1 false
[ "$TOOK" -ge 1500 ] && ok "a CPU 1.5 times slower than the reference's: $TOOK ms (at least 1.5 s)" ||
   not_ok "GEMMTOP_TEST_SPEED=150 stretches the wait: $TOOK ms"
GEMMTOP_TEST_SPEED=100
WAIT_STRETCH_MAX=2
echo "40.00 40.00 40.00 41/100 12345" >"$T_LOADAVG"
slowdown
[ "$SLOWDOWN_PCT" = 200 ] && ok "a load of 40 stretches no more than WAIT_STRETCH_MAX (2 times)" ||
   not_ok "the stretch is capped: $SLOWDOWN_PCT%"
took 1 false
[ "$RC" -ne 0 ] && [ "$TOOK" -ge 2000 ] && ok "and the capped wait fails after $TOOK ms" || not_ok "capped: rc $RC after $TOOK ms"
WAIT_STRETCH_MAX=8
# A condition that holds ends the wait at once, however busy the machine.
echo "8.00 8.00 8.00 9/100 12345" >"$T_LOADAVG"
took 60 true
[ "$RC" -eq 0 ] && [ "$TOOK" -lt 60000 ] && ok "a condition that holds ends a 60 s wait at once ($TOOK ms)" ||
   not_ok "a holding condition: rc $RC after $TOOK ms"
rm -f "$T_DIR/now"
( sleep 1; touch "$T_DIR/now" ) &
took 30 test -e "$T_DIR/now"
wait
[ "$RC" -eq 0 ] && ok "a condition that comes to hold ends the wait ($TOOK ms)" || not_ok "a coming condition: rc $RC"
echo "garbage" >"$T_LOADAVG"
slowdown
[ "$SLOWDOWN_PCT" = 100 ] && ok "an unreadable load counts as an idle machine" || not_ok "garbage load: $SLOWDOWN_PCT%"
finish
