#!/bin/sh
# Runs the whole suite: cmocka unit tests, then end-to-end tests (command line on PoCL,
# the explorer in tmux). Prints one closing line: "tests: N passed, N failed".
# BUILD names the build folder (build or build-asan).
BUILD=${BUILD:-build}
export BUILD
export GEMMTOP_BIN="$PWD/$BUILD/gemmtop"
# The shipped kernels, then the test kernels (tests/kernels: not installed with the others).
export GEMMTOP_KERNELS="$PWD/kernels:$PWD/tests/kernels"
export GEMMTOP_PRESETS="$PWD/presets"
# Keep the suite away from the user's own config and cache. Compiled kernels are kept in
# .test-cache between the plain and the sanitizer pass: PoCL takes a minute for some
# kernels, and the programs do not depend on how gemmtop itself was built. Tests that
# need an empty cache make their own.
tmp=$(mktemp -d)
export XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$PWD/.test-cache"
export POCL_KERNEL_CACHE=0
if [ -n "${GEMMTOP_SANITIZE:-}" ]; then
   # PoCL and its LLVM keep allocations for the life of the process: not ours to report.
   export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99"
   export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
   export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fi
passed=0
failed=0
failures=""
for t in "$BUILD"/tests/test_*; do
   [ -x "$t" ] || continue
   out=$("$t" 2>&1)
   rc=$?
   # LeakSanitizer's own tracer sometimes crashes at exit while PoCL's threads wind down:
   # no finding (a leak report says "detected memory leaks"); run the binary once more.
   case "$rc:$out" in
   99:*"LeakSanitizer has encountered a fatal error"*)
      case "$out" in *"detected memory leaks"*) ;; *)
         echo "# $t: LeakSanitizer's tracer crashed at exit; running again"
         out=$("$t" 2>&1)
         rc=$? ;;
      esac ;;
   esac
   printf '%s\n' "$out"
   p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
   f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
   passed=$((passed + ${p:-0}))
   failed=$((failed + ${f:-0}))
   if [ "$rc" -ne 0 ] && [ -z "$f" ]; then
      failed=$((failed + 1))
      failures="$failures $(basename "$t")(exit $rc)"
   elif [ -n "$f" ] && [ "$f" -gt 0 ]; then
      failures="$failures $(basename "$t")"
   fi
done
# The end-to-end scripts run many short gemmtop processes that compile on PoCL. At their
# exit LeakSanitizer's thread-stopping tracer crashed ("Tracer caught signal 11 ...
# LeakSanitizer has encountered a fatal error", exit 99) after fresh PoCL compiles, in
# every CI run of this submission, replacing the program's own exit status. So the sanitizer
# pass checks them with ASan and UBSan only; leaks are checked by the unit tests above,
# which drive the same engine (sessions, workers, caches, PoCL) with LeakSanitizer on.
if [ -n "${GEMMTOP_SANITIZE:-}" ]; then
   export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:exitcode=99"
fi
for t in tests/e2e/*.sh; do
   case "$(basename "$t")" in *lib.sh) continue ;; esac
   [ -f "$t" ] || continue
   echo "=== $t"
   out=$(sh "$t" 2>&1)
   rc=$?
   printf '%s\n' "$out"
   p=$(printf '%s\n' "$out" | grep -c '^ok ')
   f=$(printf '%s\n' "$out" | grep -c '^not ok ')
   passed=$((passed + p))
   failed=$((failed + f))
   if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
      failed=$((failed + 1))
      failures="$failures $t(exit $rc)"
   elif [ "$f" -gt 0 ]; then
      failures="$failures $t"
   fi
done
rm -rf "$tmp"
[ -n "$failures" ] && echo "failing:$failures"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
