#!/bin/sh
# What the lessons' texts claim, held against what gemmtop computes: every `check =` line
# of every shipped lesson (core/teach/lesson.h). A bank claim is the worst wavefronts-to-ideal
# ratio of the named access site, as 'gemmtop banks' reports it on PoCL (the default bank
# model, NVIDIA's: the one the texts speak of); 'refused' is a step refused with its
# simulated limits; 'verifies pocl' a step that runs and verifies on PoCL. A text that
# says a figure without its check line is caught by test_lesson (every number-way claim).
. "$(dirname "$0")/lib.sh"
LESSONS=$(cd "$(dirname "$0")/../../lessons" && pwd)

# One line per check: LESSON STEP PRESET LIMITS CPU_SIZE KIND ARGS (LIMITS "-" for none;
# CPU_SIZE the step's or the lesson's cpu_size, MxNxK, "-" for none: every dimension at most
# 512).
python3 - "$LESSONS" >"$T_DIR/checks" <<'PY'
import glob, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.lesson"))):
    name = os.path.basename(path)[:-len(".lesson")]
    step, preset, limits, cpu, own = 0, None, "-", "-", None
    for line in open(path):
        if line.lstrip().startswith("#") or "=" not in line:
            continue
        key, value = (x.strip() for x in line.split("=", 1))
        if key == "step":
            step, preset, limits, own = step + 1, value, "-", None
        elif key == "cpu_size" and not step:
            cpu = value
        elif key == "cpu_size":
            own = value
        elif key == "limits":
            limits = value
        elif key == "check":
            print(name, step, preset, limits, own or cpu, value)
PY
n=$(wc -l <"$T_DIR/checks")
[ "$n" -ge 20 ] && ok "the shipped lessons make $n checked claims" || not_ok "too few checked claims ($n)" "$(cat "$T_DIR/checks")"
grep -q " refused$" "$T_DIR/checks" && grep -q " banks " "$T_DIR/checks" && grep -q " verifies pocl$" "$T_DIR/checks" &&
   ok "every kind of claim is among them" || not_ok "a kind of claim is missing" "$(cat "$T_DIR/checks")"

# The bank reports of a preset, once each (a step may claim several sites).
banks_of() { # PRESET LIMITS -> $T_DIR/banks.PRESET.json
   f="$T_DIR/banks.$1.json"
   [ -s "$f" ] && return 0
   if [ "$2" = - ]; then
      "$GEMMTOP_BIN" banks $POCL --preset "$1" --format json >"$f" 2>"$T_DIR/err"
   else
      GEMMTOP_DEVICE_LIMITS="$2" "$GEMMTOP_BIN" banks $POCL --preset "$1" --format json >"$f" 2>"$T_DIR/err"
   fi
}

# claim LESSON STEP PRESET LIMITS KIND ARGS...: holds the claim against gemmtop; prints
# what was found into CLAIM_SEEN; returns 0 when it holds, 1 when not, 2 when skipped.
claim() {
   lesson=$1 step=$2 preset=$3 limits=$4 cpu=$5 kind=$6
   shift 6
   rest="$*"
   case "$kind" in
   banks)
      if ! banks_of "$preset" "$limits"; then
         CLAIM_SEEN=$(cat "$T_DIR/err")
         return 1
      fi
      site=${rest% =*}
      want=${rest##*= }
      got=$(python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
s = [x for x in o["sites"] if x["name"] == sys.argv[2]]
print("%.2f" % s[0]["worst_degree"] if s else "no such site; the sites are: " + ", ".join(x["name"] for x in o["sites"]))' \
         "$T_DIR/banks.$preset.json" "$site")
      CLAIM_SEEN="the bank report: $got"
      python3 -c 'import sys; sys.exit(0 if abs(float(sys.argv[1]) - float(sys.argv[2])) < 0.005 else 1)' "$got" "$want" 2>/dev/null ;;
   refused)
      if [ "$limits" = - ]; then
         "$GEMMTOP_BIN" run $POCL --preset "$preset" --size 64 --reps 1 --warmup 0 >"$T_DIR/out" 2>"$T_DIR/err"
      else
         GEMMTOP_DEVICE_LIMITS="$limits" "$GEMMTOP_BIN" run $POCL --preset "$preset" --reps 1 --warmup 0 >"$T_DIR/out" 2>"$T_DIR/err"
      fi
      rc=$?
      CLAIM_SEEN="exit $rc: $(cut -c1-90 "$T_DIR/err")"
      [ "$rc" = 2 ] && grep -q "refused" "$T_DIR/err" ;;
   verifies)
      if [ "$rest" != pocl ]; then
         CLAIM_SEEN="only PoCL is certain on the machines this suite runs on"
         return 2
      fi
      # at the lesson's CPU size: its cpu_size (MxNxK), or each of M, N, K brought down to 512
      if [ "$cpu" = - ]; then
         run_gemmtop run --preset "$preset" --size 512 --reps 1 --warmup 0 --format json
      else
         run_gemmtop run --preset "$preset" -m "${cpu%%x*}" -n "$(echo "$cpu" | cut -dx -f2)" -k "${cpu##*x}" \
            --reps 1 --warmup 0 --format json
      fi
      CLAIM_SEEN="exit $RC, verified $(json_field verified 2>/dev/null)"
      [ "$RC" = 0 ] && [ "$(json_field verified)" = true ] ;;
   *)
      CLAIM_SEEN="an unknown kind of check"
      return 1 ;;
   esac
}

while read -r lesson step preset limits cpu kind rest; do
   what="$lesson step $step ($preset): $kind${rest:+ $rest}"
   claim "$lesson" "$step" "$preset" "$limits" "$cpu" "$kind" $rest
   case $? in
   0) ok "$what ($CLAIM_SEEN)" ;;
   2) ok "$what # SKIP $CLAIM_SEEN" ;;
   *) not_ok "$what" "$CLAIM_SEEN" ;;
   esac
done <"$T_DIR/checks"

# Wrong claims are caught: a ratio the report does not give, a site it does not have, a
# step said to be refused that runs.
for wrong in "tensor 2 tensor-2-local-h100-half - - banks A fragment load = 8.00" \
   "tensor 2 tensor-2-local-h100-half - - banks A fragment loads = 4.00" "m1 1 m1-naive-float - - refused"; do
   claim $wrong
   [ $? = 1 ] && ok "a wrong claim is caught: $wrong ($CLAIM_SEEN)" || not_ok "a wrong claim passes: $wrong" "$CLAIM_SEEN"
done
finish
