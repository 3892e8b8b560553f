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

# use_test_kernels: points GEMMTOP_KERNELS at a copy of the kernels folder with the
# test-only kernels of tests/kernels/ added (never shipped).
use_test_kernels() {
   _tk="$T_DIR/test-kernels"
   if [ ! -d "$_tk" ]; then
      mkdir -p "$_tk"
      cp -R "$GEMMTOP_KERNELS"/. "$_tk"/
      cp "$(dirname "$0")"/../kernels/*.cl "$_tk"/
   fi
   GEMMTOP_KERNELS=$_tk
   export GEMMTOP_KERNELS
}

ok() { T_N=$((T_N + 1)); echo "ok $T_N - $1"; }
not_ok() {
   T_N=$((T_N + 1))
   T_FAILED=$((T_FAILED + 1))
   echo "not ok $T_N - $1"
   [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/#   /'
   return 0
}

# run_gemmtop ARGS...: runs the binary; sets RC, OUT (stdout) and ERR (stderr).
run_gemmtop() {
   "$GEMMTOP_BIN" "$@" >"$T_DIR/out" 2>"$T_DIR/err"
   RC=$?
   OUT=$(cat "$T_DIR/out")
   ERR=$(cat "$T_DIR/err")
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

finish() {
   [ "$T_FAILED" -eq 0 ]
   exit $?
}
