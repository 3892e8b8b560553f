# Shared by the end-to-end scripts: TAP-style "ok N - what" / "not ok N - what" lines.
# GEMMTOP_BIN, GEMMTOP_KERNELS, XDG_* come from tests/run_all.sh; defaults for a manual run.
: "${GEMMTOP_BIN:=$(pwd)/build/gemmtop}"
# The shipped kernels, then the test kernels (tests/kernels: not installed).
: "${GEMMTOP_KERNELS:=$(pwd)/kernels:$(pwd)/tests/kernels}"
export GEMMTOP_KERNELS
T_N=0
T_FAILED=0
T_DIR=$(mktemp -d)
trap 'rm -rf "$T_DIR"' EXIT
: "${XDG_CACHE_HOME:=$T_DIR/cache}"
: "${XDG_CONFIG_HOME:=$T_DIR/config}"
export XDG_CACHE_HOME XDG_CONFIG_HOME
# python3 as the interpreter itself, found once: a version manager's shim on PATH (pyenv's
# runs bash and pyenv before the interpreter: 0.15 s of CPU a start against 0.06 s) would
# be paid again by each of the suite's thousands of python3 calls. The same interpreter,
# and the same for tools run with "#!/usr/bin/env python3".
# An exec of its own path rather than a link to it: a virtual environment's interpreter
# finds its pyvenv.cfg from the path it is run by.
T_PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$T_PY" ] && [ -x "$T_PY" ] && mkdir -p "$T_DIR/python" &&
   printf '#!/bin/sh\nexec "%s" "$@"\n' "$T_PY" >"$T_DIR/python/python3" && chmod +x "$T_DIR/python/python3"; then
   PATH="$T_DIR/python:$PATH"
   export PATH
fi
# Each script its own results store (core/results/store.h), never the user's.
XDG_DATA_HOME="$T_DIR/data"
export XDG_DATA_HOME
unset GEMMTOP_STORE
# OUT, ERR and RC hold each run's output here. An OUT already in the environment (the GPU
# machine exports its results folder so) would stay exported, and a long output, such as
# a kernel's PTX, would then break every later program start: one environment string may
# hold at most 128 KiB.
unset OUT ERR RC
# PoCL keeps what it compiles (its kernel cache) under $XDG_CACHE_HOME/pocl, beside
# gemmtop's own cache: with run_all.sh's shared cache, a kernel PoCL compiled for one script
# is loaded by the next and by the sanitizer pass (a warm run takes 0.07 s against 0.7 s
# when PoCL regenerates its work-group code), and a test that makes its own empty cache
# compiles afresh in PoCL too. With its cache off PoCL would build in a folder named by the
# program's hash and remove it on release, which two scripts at once must not share ("Final
# linking of kernel gemm failed"): so the cache is on here, for manual runs too.
POCL_KERNEL_CACHE=1
export POCL_KERNEL_CACHE
unset POCL_CACHE_DIR

# use_test_kernels: makes sure the test-only kernels of tests/kernels/ (never shipped) are
# in GEMMTOP_KERNELS, a colon-separated list of folders (run_all.sh puts them there).
use_test_kernels() {
   _tk=$(cd "$(dirname "$0")/../kernels" && pwd)
   case ":$GEMMTOP_KERNELS:" in *":$_tk:"*) ;; *) GEMMTOP_KERNELS="$GEMMTOP_KERNELS:$_tk" ;; esac
   export GEMMTOP_KERNELS
}

# A check's scratch files (run_gemmtop's output): T_DIR, or a folder of each item that
# for_each_at_once runs.
T_WORK=$T_DIR

ok() { T_N=$((T_N + 1)); echo "ok $T_N - $1"; }
not_ok() {
   T_N=$((T_N + 1))
   T_FAILED=$((T_FAILED + 1))
   echo "not ok $T_N - $1"
   [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/#   /'
   return 0
}

# The suite runs on PoCL's CPU device, whatever the machine's best device is: what the
# tests promise (a CPU's sizes and speed, its code listing, CLBlast on PoCL, the default
# bank model) is PoCL's, and a GPU that gemmtop would rather take must not change it.
# POCL holds the options that choose it ("--backend opencl --device N"); run_gemmtop and
# ui_start add them unless the test names a backend or a device itself. PoCL is a test
# dependency (scripts/deps.sh test).
POCL=$("$GEMMTOP_BIN" list devices --backend opencl --format json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    if d["type"] == "CPU" and "pocl" in d["kinds"]:
        print("--backend opencl --device %d" % d["index"])
        break' 2>/dev/null)
if [ -z "$POCL" ]; then
   not_ok "PoCL's CPU device, which this suite runs on, is not among the OpenCL devices (install pocl-opencl-icd: sh scripts/deps.sh test)" \
      "$("$GEMMTOP_BIN" list devices --backend opencl 2>&1)"
fi

# have_llvm_tool NAME: whether LLVM's NAME (llvm-objdump, llvm-readelf) is on PATH, or
# installed under Debian's versioned name (/usr/bin/NAME-14), which gemmtop also tries.
have_llvm_tool() {
   command -v "$1" >/dev/null 2>&1 || ls /usr/bin/"$1"-* >/dev/null 2>&1
}

# have_nvrtc: whether NVRTC compiles here (an offline compile for sm_90, no GPU needed);
# when it does not, nvrtc_missing says why, for a SKIP line.
have_nvrtc() {
   "$GEMMTOP_BIN" inspect --kernel general_any --backend cuda --arch sm_90 --code none >/dev/null 2>"$T_DIR/nvrtc.err"
}
nvrtc_missing() { echo "NVRTC is not installed: $(head -c 200 "$T_DIR/nvrtc.err")"; }

# ---- waiting on a busy machine ----
# A wait's SECONDS are those of an idle reference machine. They are counted on a clock that
# runs slower by the machine's slowdown, taken again at every poll: its CPU demand per core
# (the 1-minute load average over the online cores, at least 1) times GEMMTOP_TEST_SPEED,
# how much slower its CPU is than the reference's, in percent (at least 100; run_all.sh
# measures it once per suite: measure_test_speed below). So a deadline follows the
# machine: with a load of 8 on 2 cores a 60 s wait may last 4 minutes, on an idle machine
# it lasts 60 s. A wait returns as soon as its condition holds, so only a check that fails
# waits longer, and never more than WAIT_STRETCH_MAX times its seconds.
T_CORES=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
T_LOADAVG=/proc/loadavg # where the load is read (tests/e2e/waits.sh gives its own)
: "${WAIT_STRETCH_MAX:=8}"
: "${GEMMTOP_TEST_SPEED:=100}"

# now_ms: the time in milliseconds.
now_ms() { date +%s%3N; }

# slowdown: SLOWDOWN_PCT, the machine's slowdown now (100: the idle reference).
slowdown() {
   SLOWDOWN_PCT=$(awk -v cores="$T_CORES" -v speed="$GEMMTOP_TEST_SPEED" -v most="$((WAIT_STRETCH_MAX * 100))" \
      '{ p = 100 * $1 / cores; if (p < 100) p = 100; p = p * speed / 100; if (p > most) p = most; printf "%d", p }' \
      "$T_LOADAVG" 2>/dev/null)
   case "$SLOWDOWN_PCT" in '' | *[!0-9]*) SLOWDOWN_PCT=100 ;; esac
}

# wait_until SECONDS COMMAND [ARGS...]: runs COMMAND every 0.2 s until it succeeds (true)
# or SECONDS of the reference machine's time are spent (false). Calls do not nest.
wait_until() {
   _wu_budget=$(($1 * 1000))
   shift
   _wu_start=$(now_ms)
   _wu_last=$_wu_start
   _wu_used=0
   while :; do
      "$@" && return 0
      _wu_now=$(now_ms)
      slowdown
      _wu_used=$((_wu_used + (_wu_now - _wu_last) * 100 / SLOWDOWN_PCT))
      _wu_last=$_wu_now
      [ "$_wu_used" -ge "$_wu_budget" ] && return 1
      [ $((_wu_now - _wu_start)) -ge $((_wu_budget * WAIT_STRETCH_MAX)) ] && return 1
      sleep 0.2
   done
}

# scaled SECONDS: SECONDS of the reference machine as this one's now (for a limit handed
# to a program, such as a server's time per request).
scaled() {
   slowdown
   echo $(($1 * SLOWDOWN_PCT / 100))
}

# measure_test_speed: GEMMTOP_TEST_SPEED for this machine: the CPU time (user and system,
# every thread) of a fixed PoCL job, a verified 512^3 run of the naive kernel compiled
# beforehand, over the reference machine's 1.3 s (the 2-core AMD EPYC the suite is developed on),
# in percent, at least 100. CPU time, not wall time: the load is slowdown's part.
measure_test_speed() {
   # shellcheck disable=SC2086 # POCL is a list of options
   set -- run $POCL --kernel mygemm01_naive --size 512 --reps 3 --warmup 1 --no-store
   "$GEMMTOP_BIN" "$@" >/dev/null 2>&1 || { echo 100; return; }
   sh -c '"$0" "$@" >/dev/null 2>&1; times' "$GEMMTOP_BIN" "$@" | awk 'NR == 2 {
      n = split($0, t, /[ ms]+/); cpu = 0
      for (i = 1; i + 1 <= n; i += 2) if (t[i] != "") cpu += 60 * t[i] + t[i + 1]
      p = 100 * cpu / 1.3; printf "%d\n", p < 100 ? 100 : p }'
}

# names_device ARGS...: whether ARGS choose a backend or a device themselves.
names_device() {
   for _a in "$@"; do
      case "$_a" in --backend | --backend=* | --device | --device=*) return 0 ;; esac
   done
   return 1
}

# run_gemmtop ARGS...: runs the binary (on PoCL, for a command that runs kernels and names
# no device); sets RC, OUT (stdout) and ERR (stderr).
run_gemmtop() {
   if [ $# -gt 0 ] && ! names_device "$@"; then
      case "$1" in
      run | explain | sweep | bench | banks | inspect | export-kernel | tune)
         _cmd=$1
         shift
         # shellcheck disable=SC2086 # POCL is a list of options
         set -- "$_cmd" $POCL "$@"
         ;;
      esac
   fi
   "$GEMMTOP_BIN" "$@" >"$T_WORK/out" 2>"$T_WORK/err"
   RC=$?
   OUT=$(cat "$T_WORK/out")
   ERR=$(cat "$T_WORK/err")
}

# expect_rc WANT WHAT: checks the last exit code.
expect_rc() {
   if [ "$RC" -eq "$1" ]; then ok "$2 (exit $1)"; else not_ok "$2: exit $RC, wanted $1" "$OUT
$ERR"; fi
}

# expect_in TEXT HAYSTACK WHAT
expect_in() {
   case "$2" in
   *"$1"*) ok "$3" ;;
   *) not_ok "$3: '$1' not found" "$2" ;;
   esac
}

# json_field FIELD: reads one field of the JSON object in OUT (python3 is a test dependency).
json_field() {
   printf '%s\n' "$OUT" | python3 -c 'import json,sys
o=json.loads(sys.stdin.readline())
v=o
for part in sys.argv[1].split("."):
    v=v[part]
print(json.dumps(v) if isinstance(v,(dict,list,bool)) or v is None else v)' "$1"
}

# for_each_at_once FUNC: calls FUNC with the words of each line of stdin (one item, say a
# kernel and its type), GEMMTOP_KERNEL_JOBS items at once (default 1; the GPU machine's
# suite runs more), each in a subshell with its own T_WORK. Their ok / not ok lines come
# out in the order of the input, numbered on from this script's. FUNC keeps its scratch
# files in T_WORK, and runs nothing in the background.
for_each_at_once() {
   _fe_dir=$T_DIR/each.$T_N
   mkdir -p "$_fe_dir"
   _fe_n=0
   while IFS= read -r _fe_line; do
      [ -n "$_fe_line" ] || continue
      _fe_n=$((_fe_n + 1))
      printf '%s\n' "$_fe_line" >"$_fe_dir/$_fe_n.in"
   done
   _fe_jobs=${GEMMTOP_KERNEL_JOBS:-1}
   case "$_fe_jobs" in '' | *[!0-9]* | 0) _fe_jobs=1 ;; esac
   _fe_s=1
   while [ "$_fe_s" -le "$_fe_jobs" ]; do
      (
         _fe_i=$_fe_s
         while [ "$_fe_i" -le "$_fe_n" ]; do
            T_WORK=$_fe_dir/$_fe_i.d
            mkdir -p "$T_WORK"
            # shellcheck disable=SC2046 # an item is its words
            "$1" $(cat "$_fe_dir/$_fe_i.in") >"$_fe_dir/$_fe_i.out" 2>&1
            _fe_i=$((_fe_i + _fe_jobs))
         done
      ) &
      _fe_s=$((_fe_s + 1))
   done
   wait
   _fe_i=1
   while [ "$_fe_i" -le "$_fe_n" ]; do
      [ -e "$_fe_dir/$_fe_i.out" ] || echo "not ok 0 - $(cat "$_fe_dir/$_fe_i.in"): not checked" >"$_fe_dir/$_fe_i.out"
      while IFS= read -r _fe_line; do
         case "$_fe_line" in
         "ok "[0-9]*" - "*) T_N=$((T_N + 1)); printf 'ok %s - %s\n' "$T_N" "${_fe_line#* - }" ;;
         "not ok "[0-9]*" - "*)
            T_N=$((T_N + 1))
            T_FAILED=$((T_FAILED + 1))
            printf 'not ok %s - %s\n' "$T_N" "${_fe_line#* - }"
            ;;
         *) printf '%s\n' "$_fe_line" ;;
         esac
      done <"$_fe_dir/$_fe_i.out"
      _fe_i=$((_fe_i + 1))
   done
}

# sanitizer_keeps CASE KEPT...: whether this pass checks CASE: always in the plain pass,
# and in the sanitizer pass (GEMMTOP_SANITIZE) only when CASE is one of KEPT. For a loop
# whose cases take the same code in gemmtop with other data: the plain pass checks each,
# and a sanitizer run of them all would find nothing the kept ones do not.
sanitizer_keeps() {
   _sk_case=$1
   shift
   [ -z "${GEMMTOP_SANITIZE:-}" ] && return 0
   for _sk_kept in "$@"; do [ "$_sk_case" = "$_sk_kept" ] && return 0; done
   return 1
}

finish() {
   [ "$T_FAILED" -eq 0 ]
   exit $?
}
