#!/bin/sh
# A ceiling's micro-kernel that never finishes (issue 45, round 2: on an H200 the
# measurement once ran past a minute). Here a copy of the helpers whose gt_peak_local spins
# for hours (a test-only change, made below): list devices --measure abandons it after its
# 5 s, names it in the peaks, names those it could not run after it, keeps and caches the
# ceilings measured before it, and ends. `timeout 90` stands for the user who would
# otherwise kill it (124: it hung). On PoCL's CPU device only.
. "$(dirname "$0")/lib.sh"

# list devices --measure measures every device of the backend: with another OpenCL device
# here (a GPU) the spin would hold it for hours.
if [ "$("$GEMMTOP_BIN" list devices --backend opencl --format json 2>/dev/null | grep -c '^{')" != 1 ]; then
   ok "a micro-kernel that never ends # SKIP PoCL is not the only OpenCL device: the spin would hold the others"
   finish
fi
KDIR="$T_DIR/kernels"
mkdir -p "$KDIR"
cp -r kernels/helpers "$KDIR/helpers"
# The spin: dependent steps on a run-time value whose result is used (no compiler drops it).
if python3 - "$KDIR/helpers/peak.cl" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
anchor = "   barrier(CLK_LOCAL_MEM_FENCE);\n"
assert text.count(anchor) == 1, "gt_peak_local's barrier is not where this test expects it"
spin = ("   barrier(CLK_LOCAL_MEM_FENCE);\n"
        "   float spin = tile[lid].x;\n"
        "   for (long i = 0; i < (1L << 40); i++)\n"
        "      spin = spin * 0.999999f + 1e-7f;\n"
        "   if (spin == 12345.5f)\n"
        "      out[0] = spin;\n")
open(path, "w").write(text.replace(anchor, spin))
PY
then ok "a copy of the helpers whose local-memory micro-kernel never finishes"
else not_ok "peak.cl changed: the spin could not be put into gt_peak_local"; finish; fi

# The copied helpers first (the helpers come from the first folder that has them).
GEMMTOP_KERNELS="$KDIR:$GEMMTOP_KERNELS"
export GEMMTOP_KERNELS
BACKEND_ARGS=$(printf '%s' "$POCL" | sed 's/--device [0-9]*//')
start=$(date +%s)
# shellcheck disable=SC2086 # POCL's words
timeout 90 "$GEMMTOP_BIN" list devices $BACKEND_ARGS --measure >"$T_DIR/out" 2>"$T_DIR/err"
RC=$?
OUT=$(cat "$T_DIR/out")
ERR=$(cat "$T_DIR/err")
[ "$RC" != 124 ] && ok "list devices --measure with a micro-kernel that never ends: gemmtop ends ($(($(date +%s) - start)) s)" ||
   not_ok "list devices --measure hung" "$OUT $ERR"
expect_rc 0 "the measurement succeeds with what it could measure"
expect_in "local-memory ceiling: the micro-kernel did not finish in 5 s: abandoned" "$ERR" \
   "the hung micro-kernel is named, with its limit"
expect_in "empty launch ceiling: not measured: the device is still busy with the local-memory micro-kernel" "$ERR" \
   "those after it are named as not run, and why"
# The PoCL device of the listing, with the ceilings measured before the hang, from the cache.
GEMMTOP_KERNELS=${GEMMTOP_KERNELS#"$KDIR:"}
# shellcheck disable=SC2086
"$GEMMTOP_BIN" list devices $BACKEND_ARGS --format json >"$T_DIR/json" 2>&1
if python3 - "$T_DIR/json" <<'PY'
import json, sys
devs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
d = next(d for d in devs if "pocl" in d["kinds"])
assert d["fp32_peak_gflops"] > 0 and d["copy_peak_gbps"] > 0, d
assert d["local_peak_gbps"] is None and d["launch_us"] is None and d["read_peak_gbps"] is None, d
assert "local-memory ceiling: the micro-kernel did not finish in 5 s" in d["peaks_not_measured"], d
PY
then ok "the cache keeps FP32 and copy, leaves local, launch and reads unknown, and says why"
else not_ok "cached peaks" "$(cat "$T_DIR/json")"; fi
# shellcheck disable=SC2086
run_gemmtop list devices $BACKEND_ARGS
expect_in "not measured    local-memory ceiling: the micro-kernel did not finish in 5 s" "$OUT" \
   "the table shows what was not measured"
finish
