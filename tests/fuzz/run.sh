#!/bin/sh
# `make fuzz`: runs each libFuzzer harness for FUZZ_SECONDS (default 60) from its seed
# corpus (seeds.sh) and its kept crashes, and fails on any crash, leak or time-out. A
# crashing input is written to tests/fuzz/regressions/<harness>/, where the ordinary suite
# replays it (tests/unit/test_fuzz_replay.c): fix the bug and commit the file. Prints each
# harness's executions and coverage (libFuzzer's cov: and ft:) on one line.
#   FUZZ_BUILD   the folder with the fuzz_* binaries (build-fuzz)
#   FUZZ_ONLY    harnesses to run (default: expr metadata preset npy tuners serve roster merge shapes)
#   FUZZ_JOBS    harnesses run at once (default: the online cores; a harness is one thread)
set -u
cd "$(dirname "$0")/../.."
seconds=${FUZZ_SECONDS:-60}
build=${FUZZ_BUILD:-build-fuzz}
harnesses=${FUZZ_ONLY:-expr metadata preset npy tuners serve roster merge shapes}
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# The preset, .npy and roster harnesses write each input to a file: on tmpfs that is 50 times faster.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
   export TMPDIR=/dev/shm
fi

# run.sh --one HARNESS: runs one harness; its line (and a failure's report) goes to
# $build/fuzz_HARNESS.result, its exit status is the harness's (0: no crash).
if [ "${1:-}" = --one ]; then
   h=$2
   corpus="$build/corpus/$h"
   kept="tests/fuzz/regressions/$h"
   mkdir -p "$corpus" "$kept"
   log="$build/fuzz_$h.log"
   # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: one that takes 2 GB a leak
   # or a bomb. New inputs go to the work corpus; crashes to regressions/.
   # Inputs as long as the real files get: a rule is at most 255 characters, but nesting
   # and chains need room; a kernel's metadata, a preset or an .npy header are shorter.
   # A client's requests to a server go past a line's 8191 bytes, which must be refused.
   case $h in expr) max_len=2048 ;; serve) max_len=20000 ;; *) max_len=8192 ;; esac
   "$build/fuzz/fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
      -dict="tests/fuzz/dict/$h.dict" -artifact_prefix="$kept/" -print_final_stats=1 \
      "$corpus" "$build/seeds/$h" "$kept" >"$log" 2>&1
   rc=$?
   execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
   last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
   cov=$(printf '%s\n' "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
   ft=$(printf '%s\n' "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
   if [ "$rc" -eq 0 ]; then
      echo "fuzz $h: ok, ${execs:-?} executions in ${seconds} s, cov ${cov:-?} ft ${ft:-?}"
   else
      echo "fuzz $h: FAILED (exit $rc) after ${execs:-?} executions; the input is kept in $kept/:"
      grep -E 'ERROR|SUMMARY|runtime error|Test unit written|fuzz_' "$log" | head -n 20
   fi >"$build/fuzz_$h.result"
   exit $((rc != 0))
fi

sh tests/fuzz/seeds.sh "$build/seeds" || exit 1
# Each harness is one thread for FUZZ_SECONDS: FUZZ_JOBS of them at once (xargs -P, as
# tests/run_all.sh runs its scripts), their lines printed in the harnesses' order after.
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case "$jobs" in '' | *[!0-9]* | 0) jobs=1 ;; esac
for h in $harnesses; do rm -f "$build/fuzz_$h.result"; done
printf '%s\n' $harnesses | xargs -P "$jobs" -I{} sh tests/fuzz/run.sh --one {}
passed=0
failed=0
for h in $harnesses; do
   if grep -q "^fuzz $h: ok," "$build/fuzz_$h.result" 2>/dev/null; then
      passed=$((passed + 1))
      cat "$build/fuzz_$h.result"
   else
      failed=$((failed + 1))
      cat "$build/fuzz_$h.result" 2>/dev/null || echo "fuzz $h: FAILED: it did not run (see $build/fuzz_$h.log)"
   fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
