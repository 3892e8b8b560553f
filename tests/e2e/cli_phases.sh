#!/bin/sh
# Where a run's time goes (issue 44): run --format json gives each phase's wall time
# (setup, inputs, compile, upload, launches, download, verify, vendor, store) and their
# sum, which is the process's own wall time but for its start and end (within 5% and
# 0.25 s: loading the program, and closing the device after the report); the table says
# them on one line; a run without verification spends nothing on verifying.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2086 # POCL is a list of options
check=$(python3 - "$T_DIR/phases.db" "$GEMMTOP_BIN" $POCL <<'PY'
import json, subprocess, sys, time
store, binary, device = sys.argv[1], sys.argv[2], sys.argv[3:]
run = [binary, "run"] + device + ["--preset", "01-naive", "--size", "192x160x224", "--reps", "30",
                                  "--format", "json", "--store", store]
# The second run is timed: the first one's fresh compile leaves PoCL more to release when
# the device is closed after the report (up to a second on a loaded machine).
subprocess.run(run, capture_output=True)
t0 = time.monotonic()
p = subprocess.run(run, capture_output=True, text=True)
wall = (time.monotonic() - t0) * 1000
if p.returncode != 0:
    print("exit %d: %s" % (p.returncode, p.stderr)); sys.exit()
o = json.loads(p.stdout.splitlines()[0])
ph = o.get("phases", {})
names = ["setup", "inputs", "compile", "upload", "launches", "download", "verify", "vendor", "store"]
missing = [n for n in names if not isinstance(ph.get(n + "_ms"), (int, float)) or ph[n + "_ms"] < 0]
total = sum(ph.get(n + "_ms", 0) for n in names)
if missing:
    print("phases missing or negative: %s in %s" % (missing, ph))
elif abs(total - ph["total_ms"]) > 0.01 * total + 0.1:
    print("total_ms %.3f is not the phases' sum %.3f" % (ph["total_ms"], total))
elif not (ph["launches_ms"] > 0 and ph["verify_ms"] > 0 and ph["download_ms"] > 0 and ph["inputs_ms"] > 0):
    print("a phase that ran took no time: %s" % ph)
elif abs(wall - total) > 0.05 * wall + 250:
    print("the phases add up to %.1f ms, the process took %.1f ms: %s" % (total, wall, ph))
else:
    print("ok %.1f of %.1f ms" % (total, wall))
PY
)
case "$check" in ok*) ok "the phases add up to the process's wall time ($check)" ;;
*) not_ok "the phases add up to the process's wall time" "$check" ;; esac

run_gemmtop run --preset 01-naive --size 128 --seed 5 --no-verify --format json
expect_rc 0 "a run without verification"
[ "$(json_field phases.verify_ms)" = 0 ] && [ "$(json_field phases.download_ms)" = 0 ] &&
   ok "it spends nothing on verifying or reading C back" || not_ok "no verification, no verify phase" "$OUT"

run_gemmtop run --preset 01-naive --size 128 --seed 5
printf '%s\n' "$OUT" | grep -qE '^phases     setup [0-9.]+ ms, inputs [0-9.]+ ms, .*launches [0-9.]+ ms, .*verify [0-9.]+ ms.*; [0-9]+ ms in all$' &&
   ok "the table gives the phases on one line" || not_ok "the table's phases line" "$OUT"
finish
