#!/bin/sh
# run_all.sh's runner for one unit test: runs TEST, writes its output to DIR/NAME.out and
# its exit status to DIR/NAME.rc (several of these run at once with GEMMTOP_UNIT_JOBS).
t=$1 dir=$2
n=$(basename "$t")
out=$("$t" 2>&1)
rc=$?
# LeakSanitizer's own tracer sometimes crashes at exit while PoCL's threads wind down:
# no finding (a leak report says "detected memory leaks"); run the binary once more.
case "$rc:$out" in
99:*"LeakSanitizer has encountered a fatal error"*)
   case "$out" in *"detected memory leaks"*) ;; *)
      out="# $t: LeakSanitizer's tracer crashed at exit; running again
$("$t" 2>&1)"
      rc=$? ;;
   esac ;;
esac
printf '%s\n' "$out" >"$dir/$n.out"
echo "$rc" >"$dir/$n.rc"
