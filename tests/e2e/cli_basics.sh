#!/bin/sh
# The command line: help, version, lists, usage errors, refusals, compile errors, wrong
# kernels, missing platform, out of memory, the disk cache, JSON and CSV output.
. "$(dirname "$0")/lib.sh"
# This script clears the cache and checks what is cached: a cache of its own.
export XDG_CACHE_HOME="$T_DIR/cache"

run_gemmtop --help
expect_rc 0 "--help"
expect_in "gemmtop run" "$OUT" "--help lists the run command"
run_gemmtop --version
expect_in "gemmtop $(cat VERSION)" "$OUT" "--version prints the version"

run_gemmtop list devices
expect_rc 0 "list devices"
expect_in "local memory" "$OUT" "list devices shows local memory"
expect_in "double" "$OUT" "list devices shows double support"
expect_in "(default)" "$OUT" "list devices marks the default device"
run_gemmtop list devices --format json
n=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys; print(sum(1 for l in sys.stdin if json.loads(l)["max_work_group"]>0))')
[ "$n" -ge 1 ] && ok "list devices --format json parses ($n devices)" || not_ok "list devices json" "$OUT"

run_gemmtop list kernels
expect_rc 0 "list kernels"
expect_in "mygemm01_naive" "$OUT" "list kernels shows the naive kernel"
case "$OUT" in *test_broken*) not_ok "hidden kernels are not listed" "$OUT" ;; *) ok "hidden kernels are not listed" ;; esac
run_gemmtop list kernels --format json
printf '%s\n' "$OUT" | python3 -c '
import json,sys
for l in sys.stdin:
    o=json.loads(l)
    assert o["schema"]==2 and o["name"] and o["ladder"]
    for p in o["parameters"]:
        assert p["default"] in p["values"], (o["name"], p)
' && ok "list kernels json: every default is among its values" || not_ok "list kernels json" "$OUT"

# Every shipped preset reads (a line too long, an unknown key or kernel is said on stderr,
# and its preset left out of the list: caught here, not on a GPU machine).
run_gemmtop list presets
expect_rc 0 "list presets"
[ -z "$ERR" ] && ok "every shipped preset reads" || not_ok "every shipped preset reads" "$ERR"
n=$(ls presets/*.preset | wc -l)
listed=$(printf '%s\n' "$OUT" | grep -c .)
[ "$listed" -ge "$n" ] && ok "list presets lists all $n shipped presets" || not_ok "list presets lists $listed of $n" "$OUT"

run_gemmtop frobnicate
expect_rc 2 "an unknown command is a usage error"
run_gemmtop run --kernel mygemm01_naive --bogus
expect_rc 2 "an unknown option is a usage error"
expect_in "unknown option --bogus" "$ERR" "the unknown option is named"
run_gemmtop run --kernel mygemm01_naive --size -5
expect_rc 2 "a negative size is a usage error"
run_gemmtop run --kernel mygemm01_naive --layout XY
expect_rc 2 "a bad layout is a usage error"
expect_in "use NN, NT, TN or TT" "$ERR" "the valid layouts are named"
run_gemmtop run --kernel nosuchkernel
expect_rc 2 "an unknown kernel is a usage error"
expect_in "no kernel named 'nosuchkernel'" "$ERR" "the unknown kernel is named"
run_gemmtop run --kernel mygemm01_naive --set TSN=3
expect_rc 2 "a value outside the allowed set is refused"
expect_in "TSN takes 1, 2, 4, 8, 16, 32, 64, 128, 256" "$ERR" "the allowed values are listed"
run_gemmtop run --kernel mygemm01_naive --set NOPE=3
expect_rc 2 "an unknown parameter is refused"
run_gemmtop run --kernel mygemm01_naive -m 100 -n 64 -k 64
expect_rc 2 "a size that does not divide is refused before compiling"
expect_in "M must be a multiple of TSM (rule M % TSM == 0 fails with M=100, TSM=16)" "$ERR" "the broken rule and its values are named"
expect_in "valid TSM: 1, 2, 4" "$ERR" "the valid values are named"
GEMMTOP_DEVICE_LIMITS=max_wg=256 run_gemmtop run --kernel mygemm01_naive --size 64 --set TSN=32 --set TSM=32
expect_rc 2 "a work-group over the device limit is refused"
expect_in "needs 1024 work-items per group (32 x 32); this device allows 256" "$ERR" "the work-group limit is explained"
expect_in "valid TSN: 1, 2, 4, 8" "$ERR" "valid work-group sides are listed"
GEMMTOP_DEVICE_LIMITS=fp64=0 run_gemmtop run --kernel mygemm01_naive --size 64 --precision double
expect_rc 2 "double precision on a device without it is refused"
expect_in "no double-precision support" "$ERR" "missing double support is explained"
# A malformed GEMMTOP_DEVICE_LIMITS is a usage error: never taken as 0, wrapped or cut.
for bad in 'max_wg=' 'max_wg=99999999999999999999999' 'fp64=2' "max_wg=256,$(printf '%0600d' 0)=1"; do
   GEMMTOP_DEVICE_LIMITS="$bad" run_gemmtop run --kernel mygemm01_naive --size 64
   expect_rc 2 "GEMMTOP_DEVICE_LIMITS='$(printf '%.30s' "$bad")' is refused"
   expect_in "GEMMTOP_DEVICE_LIMITS: " "$ERR" "... and the message names the variable"
done
# Matrices of more than 2^31 elements: the int-indexed naive kernel refuses them by a rule,
# before anything is allocated (an 80 GB GPU would hold them).
run_gemmtop run --kernel mygemm01_naive -m 65536 -n 65536 -k 1
expect_rc 2 "mygemm01_naive refuses a 65536 x 65536 C"
expect_in "indexes A, B and C with 32-bit int" "$ERR" "... naming the 32-bit indexing"

# Kernel folders: GEMMTOP_KERNELS is a list, and the user's folder comes last; a kernel of
# a later folder replaces the shipped one of the same name, and stderr says so.
mkdir -p "$T_DIR/xdg/gemmtop/kernels"
sed -e 's/^title: .*/title:    My own general kernel/' "${GEMMTOP_KERNELS%%:*}/general_any.cl" \
   >"$T_DIR/xdg/gemmtop/kernels/mine.cl"
XDG_CONFIG_HOME="$T_DIR/xdg" run_gemmtop list kernels
expect_rc 0 "list kernels with a user kernel folder"
expect_in "My own general kernel" "$OUT" "the user's general_any replaces the shipped one"
expect_in "kernel general_any: $T_DIR/xdg/gemmtop/kernels/mine.cl replaces" "$ERR" "... and stderr says which file replaces which"
case "$OUT" in *test_banks*|*"General: any size"*) not_ok "the replaced and hidden kernels are not listed" "$OUT" ;;
*) ok "the replaced and hidden kernels are not listed" ;; esac

# Presets: control bytes, NUL and keys given twice are refused with the line; the listing
# never sends ESC or BEL to the terminal.
mkdir -p "$T_DIR/presets"
printf '# evil \033[31mred\007\nkernel = mygemm01_naive\n' >"$T_DIR/presets/esc.preset"
printf '# nul\nkernel = mygemm01_naive\nTSN = 16\0\nTSN = 999\n' >"$T_DIR/presets/nul.preset"
printf '# twice\nkernel = mygemm01_naive\nTSN = 16\nTSN = 32\n' >"$T_DIR/presets/twice.preset"
GEMMTOP_PRESETS="$T_DIR/presets" run_gemmtop list presets
if printf '%s%s' "$OUT" "$ERR" | od -An -c | grep -q '033\|\\a'; then not_ok "list presets prints no ESC or BEL" "$OUT$ERR"
else ok "list presets prints no ESC or BEL"; fi
expect_in "esc.preset:1: control character ESC" "$ERR" "a preset with ESC is refused with its line"
expect_in "nul.preset:3: NUL byte" "$ERR" "a preset with a NUL is refused with its line"
expect_in "twice.preset:4: 'TSN' is given twice (first on line 3)" "$ERR" "a key given twice is refused"
run_gemmtop run --preset "$T_DIR/presets/twice.preset" --size 64
expect_rc 2 "running a preset with a key given twice is a usage error"
# By name, the refused file is named with what is wrong, not called missing.
GEMMTOP_PRESETS="$T_DIR/presets" run_gemmtop run --preset twice --size 64
expect_rc 2 "running the refused preset by name is a usage error"
expect_in "preset 'twice' is refused: $T_DIR/presets/twice.preset:4: 'TSN' is given twice" "$ERR" "saying why, with the line"
GEMMTOP_PRESETS="$T_DIR/presets" run_gemmtop bench twice --sizes 64
expect_in "preset 'twice' is refused:" "$ERR" "bench says the same"
GEMMTOP_PRESETS="$T_DIR/presets" run_gemmtop run --preset nosuch --size 64
expect_in "no preset named 'nosuch'" "$ERR" "a name no file has is still called missing"

run_gemmtop run --kernel general_any --size 200000
expect_rc 1 "a problem larger than the device's memory fails cleanly"
expect_in "out of device memory" "$ERR" "out of memory is explained"

OCL_ICD_VENDORS=$T_DIR/none OCL_ICD_FILENAMES= run_gemmtop list devices --backend opencl
expect_rc 1 "no OpenCL platform"
expect_in "no OpenCL platform found" "$ERR" "a missing platform is explained"

# A kernel that does not compile: the build log, with line numbers, and exit 1.
run_gemmtop run --kernel test_syntax_error --size 64
expect_rc 1 "a compile error fails the run"
expect_in "did not compile" "$ERR" "the compile error is reported"
expect_in "test_syntax_error" "$(ls tests/kernels)" "the syntax-error kernel exists"
expect_in "test_syntax_error.cl:14:" "$ERR" "the build log names the kernel file and the line of the error"

# A deliberately wrong kernel must fail verification.
run_gemmtop run --kernel test_broken --size 64 --reps 2
expect_rc 1 "a wrong kernel does not verify"
expect_in "FAILED" "$OUT" "verification says FAILED"
# One dropped term is caught at any K (the tolerance once outgrew it from K of about
# 40,000), and correct kernels still pass in float and double at K=65536.
run_gemmtop run --kernel test_broken -m 16 -n 16 -k 60000 --reps 1 --warmup 0
expect_rc 1 "a kernel that drops one term of 60000 does not verify"
expect_in "sampled entries wrong" "$OUT" "the sampled entries show it"
for prec in float double; do
   run_gemmtop run --kernel mygemm01_naive -m 16 -n 16 -k 65536 --precision $prec --reps 1 --warmup 0
   expect_rc 0 "naive, $prec, K=65536 verifies"
done

# JSON and CSV of a run; the disk cache across processes.
run_gemmtop cache clear
expect_rc 0 "cache clear"
run_gemmtop run --kernel mygemm01_naive --size 64 --reps 3 --format json
expect_rc 0 "a run with JSON output"
[ "$(json_field verified)" = true ] && ok "json: verified is true" || not_ok "json verified" "$OUT"
[ "$(json_field cached)" = false ] && ok "json: the first build is not cached" || not_ok "json cached first" "$OUT"
[ "$(json_field schema)" = 2 ] && ok "json: schema 2" || not_ok "json schema" "$OUT"
python3 -c "import json,sys; o=json.loads(sys.argv[1]); assert o['time_ms']>0 and o['gflops']>0 and o['min_time_ms']<=o['time_ms']<=o['max_time_ms'] and o['max_rel_err']<o['tolerance']" "$OUT" \
   && ok "json: times, GFLOPS and error are consistent" || not_ok "json numbers" "$OUT"
run_gemmtop run --kernel mygemm01_naive --size 64 --reps 3 --format json
[ "$(json_field cached)" = true ] && ok "json: the second process finds the program in the disk cache" || not_ok "disk cache" "$OUT"
run_gemmtop cache clear
expect_in "removed 1 compiled program" "$OUT" "cache clear removes what was cached"
run_gemmtop run --kernel mygemm01_naive --size 64 --reps 3 --format csv
expect_rc 0 "a run with CSV output"
lines=$(printf '%s\n' "$OUT" | python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin)); print(len(r), r[0]["verified"], r[0]["status"])')
[ "$lines" = "1 true ok" ] && ok "csv: one verified row with a header" || not_ok "csv" "$OUT"


# Output that cannot be written is an error, also when it sat in the buffer until the end.
"$GEMMTOP_BIN" run --kernel mygemm01_naive --size 32 --reps 1 --format csv >/dev/full 2>"$T_DIR/err"
RC=$?
ERR=$(cat "$T_DIR/err")
expect_rc 1 "run --format csv into a full standard output fails"
expect_in "gemmtop: write error on standard output" "$ERR" "saying so"
"$GEMMTOP_BIN" list kernels >/dev/full 2>"$T_DIR/err"
RC=$?
ERR=$(cat "$T_DIR/err")
expect_rc 1 "list kernels into a full standard output fails"
expect_in "No space left on device" "$ERR" "naming the error"
"$GEMMTOP_BIN" --version >/dev/null 2>"$T_DIR/err" && [ ! -s "$T_DIR/err" ] \
   && ok "a standard output that takes the output: no complaint" || not_ok "--version to /dev/null" "$(cat "$T_DIR/err")"

# Scalars that cannot give a finite result are refused (exit 2) naming the option, not
# run and reported as a kernel that wrote nothing.
for opt in "--alpha nan" "--alpha inf" "--beta nan" "--beta -inf" "--alpha 1e39"; do
   run_gemmtop run --kernel mygemm01_naive --size 32 $opt
   expect_rc 2 "run $opt is refused"
   expect_in "gemmtop: ${opt%% *}" "$ERR" "naming ${opt%% *}"
   case "$OUT$ERR" in *"not written"*|*"not finite"*) not_ok "$opt: not blamed on the kernel" "$OUT$ERR" ;; *) ok "$opt: not blamed on the kernel" ;; esac
done
run_gemmtop run --kernel mygemm01_naive --size 32 --alpha 1e37
expect_rc 2 "an alpha whose products overflow float is refused"
expect_in "beyond half of float's largest value" "$ERR" "saying why"
run_gemmtop run --kernel mygemm01_naive --size 32 --alpha 1e37 --precision double --reps 1
expect_rc 0 "the same alpha in double runs"
# The bound belongs to C's type (float for the narrow input types): the message names it.
run_gemmtop run --kernel fp8mma1_scaled --precision e4m3 --size 32 --alpha 1e38
expect_rc 2 "an e4m3 alpha whose products overflow float is refused"
expect_in "beyond half of float's largest value (3.4e+38; e4m3 keeps C, alpha and beta in float)" "$ERR" \
   "naming float, the type the bound is of"
run_gemmtop run --kernel mygemm01_naive --size 32 --precision half --alpha 1e39
expect_rc 2 "a half alpha beyond float is refused"
expect_in "--alpha 1e+39 does not fit in float (largest 3.4e+38; half keeps C, alpha and beta in float)" "$ERR" \
   "naming float, alpha's type for half"
# Padding copies only the operands whose own sizes are padded: 5 tokens padded to a tile's
# rows copy A and C, not B (a decode's weight), and the result is still right.
run_gemmtop run --preset fast-02-warptile --size 5x256x256 --beta 0.5 --reps 1 --warmup 0 --no-store --format json
steps=$(printf '%s\n' "$OUT" | python3 -c 'import json, sys
r = json.loads(sys.stdin.readline())
print("verified" if r.get("verified") else "not verified", ",".join(h["what"] for h in r.get("helpers", [])))')
[ "$RC" -eq 0 ] && [ "$steps" = "verified pad A,pad C,unpad C" ] &&
   ok "M padded alone: A and C copied, B read as it is, verified" || not_ok "M padded alone (exit $RC): $steps" "$ERR"
run_gemmtop run --preset fast-02-warptile --size 128x256x250 --reps 1 --warmup 0 --no-store --format json
steps=$(printf '%s\n' "$OUT" | python3 -c 'import json, sys
r = json.loads(sys.stdin.readline())
print("verified" if r.get("verified") else "not verified", ",".join(h["what"] for h in r.get("helpers", [])))')
[ "$RC" -eq 0 ] && [ "$steps" = "verified pad A,pad B" ] &&
   ok "K padded alone: A and B copied, C written in place, verified" || not_ok "K padded alone (exit $RC): $steps" "$ERR"
# GEMMTOP_KERNELS naming only a user's folder: the message blames the variable, not the
# installation, and says how to add the shipped folder back.
mkdir -p "$T_DIR/onlymine"
GEMMTOP_KERNELS="$T_DIR/onlymine" "$GEMMTOP_BIN" list kernels >"$T_DIR/out" 2>"$T_DIR/err"
RC=$?
ERR=$(cat "$T_DIR/err")
expect_rc 1 "GEMMTOP_KERNELS with no helpers"
expect_in "the variable replaces the shipped kernels folder" "$ERR" "says that the variable replaced the shipped folder"
expect_in "GEMMTOP_KERNELS=" "$ERR" "and how to add it back"
case "$ERR" in *"installation is incomplete"*) not_ok "still blames the installation" "$ERR" ;; *) ok "does not blame the installation" ;; esac
finish
