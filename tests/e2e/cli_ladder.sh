#!/bin/sh
# Every visible variant, at its defaults, verified on PoCL: float and double, all four
# layouts with alpha and beta; odd sizes through the variants that accept any size.
. "$(dirname "$0")/lib.sh"

kernels=$("$GEMMTOP_BIN" list kernels --format json | python3 -c '
import json,sys
for l in sys.stdin:
    o=json.loads(l)
    if "float" not in o.get("precisions", ["float"]):
        continue  # the tensor ladder: tests/e2e/cli_tensor.sh
    if o.get("arch"):
        continue  # one architecture (sm_90a), refused on PoCL: tests/e2e/cli_hopper.sh
    print(o["name"], "pads" if o["pads"] else ("any" if o["operands"]=="any" and not o["rules"] else "tiles"))')
[ -n "$kernels" ] && ok "the catalog lists kernels" || not_ok "no kernels listed"
# Under the sanitizers what matters is gemmtop's own code on each path a kernel takes (its
# operands as given, transposed or padded, a fix-up and its workspace, a persistent grid),
# the same for every kernel of a kind; whether each kernel computes right does not depend
# on how gemmtop was built, and the plain pass checks every one. So the sanitizer pass
# takes one kernel of each kind, as compile_targets.sh does.
if [ -n "${GEMMTOP_SANITIZE:-}" ]; then
   kernels=$(printf '%s\n' "$kernels" |
      grep -E '^(general_any|mygemm01_naive|mygemm05_transposed|dcu6_lds_conflicts|mygemm10_padding|fast03_splitk|fast04_streamk) ')
   [ "$(printf '%s\n' "$kernels" | grep -c .)" = 7 ] && ok "the sanitizer pass takes one kernel of each kind" ||
      not_ok "the sanitizer pass's kernels" "$kernels"
fi

check_run() { # WHAT ARGS...
   what=$1
   shift
   run_gemmtop run --reps 2 --warmup 0 --format json "$@"
   if [ "$RC" -eq 0 ] && [ "$(json_field verified)" = true ]; then
      ok "$what"
   else
      not_ok "$what (exit $RC)" "$OUT
$ERR"
   fi
}

check_kernel() { # NAME KIND
   name=$1 kind=$2
   for prec in float double; do
      check_run "$name $prec 256 NN verified" --kernel "$name" --size 256 --precision "$prec"
   done
   for layout in NT TN TT; do
      check_run "$name float 256 $layout alpha=0.75 beta=-1.25 verified" --kernel "$name" --size 256 --layout "$layout" \
         --alpha 0.75 --beta -1.25
   done
   check_run "$name double 128x256x64 NN beta=0.5 verified" --kernel "$name" -m 128 -n 256 -k 64 --precision double --beta 0.5
   if [ "$kind" != tiles ]; then
      for layout in NN NT TN TT; do
         check_run "$name odd 97x131x45 $layout alpha=1.5 beta=0.5 verified" --kernel "$name" -m 97 -n 131 -k 45 \
            --layout "$layout" --alpha 1.5 --beta 0.5
         check_run "$name odd 1x7x300 $layout double verified" --kernel "$name" -m 1 -n 7 -k 300 --layout "$layout" \
            --precision double
      done
   fi
}
# A here-document, not a pipe: the checks are numbered on in this shell.
for_each_at_once check_kernel > "$T_DIR/ladder.log" <<KERNELS
$kernels
KERNELS
cat "$T_DIR/ladder.log"
grep -q 'odd 97x131x45' "$T_DIR/ladder.log" && ok "at least one variant accepts odd sizes" || not_ok "no variant accepts odd sizes"
finish
