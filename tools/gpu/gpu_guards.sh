#!/bin/sh
# On the GPU machine: the guard zones around a kernel's buffers and the verdicts that name
# their cause, through CUDA and NVIDIA's OpenCL (PoCL checks them in tests/e2e/cli_verdicts.sh).
#  - tests/kernels/test_misbehave.cl: BUG=0 verifies; BUG=1 writes C[M*N+7] and C[-3], BUG=2
#    A[-2], BUG=3 B[K*N+1]: each fails saying where ("wrote outside C at offset -3 ...");
#    BUG=4 computes NaN (not "not written"), BUG=5 leaves a column unwritten ("not
#    written"), in float at 64 and in double at 40x24x30 TT; BUG=4 and 5 again at 97x131x77
#    with C checked on the device and on the host (--verify-on);
#  - the shipped kernels still verify on guarded buffers: a padded tile kernel (fast02, its
#    padded C), split-K's workspace, the Hopper TMA kernel (tensor maps over guarded A and
#    B) and cuBLAS or CLBlast timed beside them (--vendor), each at 4096 (fast02 at 4095);
#  - what the guard check costs: the wall time of 200 launches of mygemm01 at 256.
# Every run's JSON line and stderr go to $OUT/guards.txt (one file); PASS/FAIL lines and a
# short table last. Never stops at a failure. Usage: sh tools/gpu/gpu_guards.sh
# A stand-in without a GPU: GUARDS_DEVICES="opencl:pocl" GUARDS_SIZE=256 (the machine's own
# setup then untouched).
if [ -z "${GUARDS_DEVICES:-}" ]; then
   . tools/gpu/gpu_setup.sh
fi
DEVICES=${GUARDS_DEVICES:-cuda opencl:NVIDIA}
SIZE=${GUARDS_SIZE:-4096}
B=$PWD/build/gemmtop
out=${OUT:-/tmp}
mkdir -p "$out"
log="$out/guards.txt"
: >"$log"
export GEMMTOP_KERNELS="$PWD/kernels:$PWD/tests/kernels"
export XDG_CACHE_HOME="$(mktemp -d)"
fails=0
passes=0
table=""
pass() { echo "PASS $*" | tee -a "$log"; passes=$((passes + 1)); }
fail() { echo "FAIL $*" | tee -a "$log"; fails=$((fails + 1)); }
# run LABEL ARGS...: one run; its JSON line in $line, its stderr in $err, both in the log.
run() {
   label=$1
   shift
   line=$(timeout 300 "$B" run --format json "$@" 2>"$out/err.tmp" | tail -n 1)
   err=$(head -c 2000 "$out/err.tmp")
   printf '== %s: %s\n%s\n%s\n' "$label" "$*" "$line" "$err" >>"$log"
}
field() { printf '%s\n' "$line" | python3 -c 'import json,sys
try: v=json.loads(sys.stdin.readline()).get(sys.argv[1])
except Exception: v=None
print(json.dumps(v) if isinstance(v,(bool,dict,list)) or v is None else v)' "$1"; }
said() { case "$(field message) $err" in *"$1"*) return 0 ;; esac; return 1; }

for spec in $DEVICES; do
   be=${spec%%:*}
   dev=""
   [ "$spec" != "$be" ] && dev="--device ${spec#*:}"
   run "$be BUG=0" --backend $be $dev --kernel test_misbehave --size 64 --reps 3
   [ "$(field verified)" = true ] && pass "$be test_misbehave BUG=0 verifies" || fail "$be BUG=0: $(field message) $err"
   for spec in "1:wrote outside C at offset -3 (before its start) and at offset 4103 (past its end)" \
      "2:wrote outside A at offset -2 (before its start)" "3:wrote outside B at offset 4097 (past its end)" \
      "4:64 elements NaN, computed by the kernel" "5:64 elements not written (NaN), first at (0,2)"; do
      bug=${spec%%:*}
      run "$be BUG=$bug" --backend $be $dev --kernel test_misbehave --set BUG=$bug --size 64 --reps 3
      [ "$(field status)" = "wrong result" ] && said "${spec#*:}" && pass "$be BUG=$bug: ${spec#*:}" ||
         fail "$be BUG=$bug: $(field status): $(field message) $err"
   done
   # C checked on the device (auto on a GPU) and on the host: the poison's bits (filled on the
   # device, Backend.fill) tell an unwritten element from a computed NaN either way.
   for on in device host; do
      for spec in "4:float:131 elements NaN, computed by the kernel" "5:float:97 elements not written (NaN), first at (0,2)" \
         "5:double:97 elements not written (NaN), first at (0,2)"; do
         bug=${spec%%:*} rest=${spec#*:}
         prec=${rest%%:*}
         run "$be BUG=$bug $prec on the $on" --backend $be $dev --kernel test_misbehave --set BUG=$bug -m 97 -n 131 \
            -k 77 --precision $prec --reps 1 --verify-on $on
         [ "$(field status)" = "wrong result" ] && [ "$(field verified_on)" = "$on" ] && said "${rest#*:}" &&
            pass "$be BUG=$bug $prec checked on the $on: ${rest#*:}" ||
            fail "$be BUG=$bug $prec on the $on: $(field verified_on): $(field message) $err"
      done
   done
   run "$be BUG=1 --no-verify" --backend $be $dev --kernel test_misbehave --set BUG=1 --size 64 --reps 3 --no-verify
   said "wrote outside C at offset -3" && pass "$be BUG=1 --no-verify: the timed launches' check finds it" ||
      fail "$be BUG=1 --no-verify: $(field status) $err"
   run "$be BUG=1 double TT" --backend $be $dev --kernel test_misbehave --set BUG=1 -m 40 -n 24 -k 30 --precision double \
      --layout TT --reps 1
   said "at offset 967 (past its end); C holds 960 elements" && pass "$be BUG=1 double TT: offsets in doubles" ||
      fail "$be BUG=1 double TT: $(field message) $err"
   # fast02 one short of the size: its operands and C padded (the guarded padded copies).
   for cfg in "fast02 $((SIZE - 1)) --preset fast-02-warptile" "splitk $SIZE --kernel fast03_splitk --set SPLIT=4" \
      "hopper-tma $SIZE --preset hopper-1-tma-half"; do
      set -- $cfg
      name=$1
      size=$2
      shift 2
      [ "$name" = hopper-tma ] && [ "$be" != cuda ] && continue # sm_90a: CUDA only
      run "$be $name $size" --backend $be $dev "$@" --size $size --reps 5 --warmup 1 --vendor
      if [ "$(field verified)" = true ]; then
         pass "$be $name $size verifies on guarded buffers: $(field gflops) GFLOPS; vendor $(field vendor_status)" \
            "$(field vendor_gflops) GFLOPS"
         table="$table
$be $name $size: $(field gflops) GFLOPS, vendor $(field vendor_gflops)"
      else
         fail "$be $name $size: $(field status): $(field message) $err"
      fi
   done
   t0=$(date +%s%3N)
   run "$be cost" --backend $be $dev --kernel mygemm01_naive --size 256 --reps 200 --warmup 0
   t1=$(date +%s%3N)
   [ "$(field verified)" = true ] && pass "$be 200 launches at 256 with the guards checked: $(field wall_ms) ms wall" ||
      fail "$be cost run: $(field message) $err"
   table="$table
$be 200 launches of mygemm01 at 256: median $(field time_ms) ms each, wall $(field wall_ms) ms ($((t1 - t0)) ms with the process)"
done
rm -f "$out/err.tmp"
echo "guards: $passes passed, $fails failed (full log: $log)$table" | tee -a "$log"
