#!/bin/sh
# On the GPU machine: the driver's figures (NVML: SM and memory clock, power, temperature,
# energy per GEMM, GFLOPS per watt, throttling) in `run`, `bench` and the explorer's header,
# and cold-L2 against warm-L2 timing of the fast presets and cuBLAS (bench --rounds) at
# $SIZE (default 4096). Everything goes under $1 (default $OUT); a short table is printed
# last, for docs/perf.md. Nothing here changes a device setting.
. tools/gpu/gpu_setup.sh
B=build/gemmtop
out=${1:-$OUT}
SIZE=${SIZE:-4096}
R=${ROUNDS:-3}
# Enough launches that the timed window passes the energy counter's 100 ms (observe.h).
REPS=${REPS:-50}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit \
   --format=csv >"$out/nvidia-smi.csv" 2>&1

# The fast presets, FP32 (the vendor's problem is the first configuration's precision).
presets() { ls presets/fast-*.preset | sed 's|presets/||; s|\.preset$||' | grep -v double; }
CUDA_PRESETS=$(presets | grep -- '-cuda$' | tr '\n' ' ')
OCL_PRESETS=$(presets | grep -v -- '-cuda$' | tr '\n' ' ')
# One preset of each for `run` and the explorer: the last in name order (the furthest step).
ONE_CUDA=$(presets | grep -- '-cuda$' | tail -n 1)
ONE_OCL=$(presets | grep -v -- '-cuda$' | tail -n 1)

echo "== run (CUDA, OpenCL; warm, then cold L2) =="
$B run --backend cuda --preset "$ONE_CUDA" --size "$SIZE" --reps "$REPS" --vendor >"$out/run-cuda.txt" 2>&1
$B run --backend cuda --preset "$ONE_CUDA" --size "$SIZE" --reps "$REPS" --vendor --format json \
   >"$out/run-cuda.json" 2>&1
$B run --backend cuda --preset "$ONE_CUDA" --size "$SIZE" --reps "$REPS" --vendor --cold-l2 \
   >"$out/run-cuda-cold.txt" 2>&1
$B run --backend opencl --device NVIDIA --preset "$ONE_OCL" --size "$SIZE" --reps "$REPS" --vendor \
   >"$out/run-opencl.txt" 2>&1
$B run --backend cuda --preset "$ONE_CUDA" --size "$SIZE" --vendor >"$out/run-cuda-default-reps.txt" 2>&1
cat "$out/run-cuda.txt" "$out/run-cuda-cold.txt"

echo "== bench: warm and cold L2, $R rounds at $SIZE =="
for l2 in warm cold; do
   flag=""
   [ "$l2" = cold ] && flag=--cold-l2
   # shellcheck disable=SC2086 # lists of presets
   $B bench --backend cuda $CUDA_PRESETS --sizes "$SIZE" --rounds "$R" --reps "$REPS" $flag \
      --save "$out/bench-cuda-$l2.csv" >"$out/bench-cuda-$l2.txt" 2>"$out/bench-cuda-$l2.err"
   # shellcheck disable=SC2086
   $B bench --backend opencl --device NVIDIA $OCL_PRESETS --sizes "$SIZE" --rounds "$R" --reps "$REPS" $flag \
      --save "$out/bench-opencl-$l2.csv" >"$out/bench-opencl-$l2.txt" 2>"$out/bench-opencl-$l2.err"
   cat "$out/bench-cuda-$l2.txt"
done

echo "== the explorer's header (tmux) =="
if command -v tmux >/dev/null 2>&1; then
   (
      . tests/e2e/lib.sh
      . tests/e2e/ui_lib.sh
      ui_init
      UI_TIMEOUT=120
      ui_start 160 48 -- --backend cuda --preset "$ONE_CUDA" --size "$SIZE"
      ui_wait_re "[0-9]+ MHz +[0-9]+ W" 90 && ok "the header shows the clock and power" ||
         not_ok "the header shows the clock and power" "$UI_LAST"
      ui_screen >"$out/explorer.txt"
      head -n 3 "$out/explorer.txt"
      ui_keys q
      ui_expect_exit 0 "q quits"
   )
else
   echo "no tmux here: the explorer's header was not captured"
fi

echo "== cold L2 against warm L2 at $SIZE ($R rounds of $REPS launches; GFLOPS, SM MHz, GFLOPS/W) =="
python3 - "$out" <<'PY'
import csv, os, sys
out = sys.argv[1]
def rows(backend, l2):
    path = os.path.join(out, "bench-%s-%s.csv" % (backend, l2))
    return list(csv.DictReader(open(path))) if os.path.exists(path) else []
def fmt(v, f="%.0f"):
    return f % float(v) if v not in ("", None) else "-"
print("| backend | configuration | warm GFLOPS | cold GFLOPS | cold/warm | warm SM MHz | cold SM MHz | warm GFLOPS/W | cold GFLOPS/W |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for backend in ("cuda", "opencl"):
    warm, cold = rows(backend, "warm"), rows(backend, "cold")
    lines = []
    if warm and cold:
        w, c = warm[0], cold[0]
        lines.append((w["vendor"] or "vendor", w["vendor_gflops"], c["vendor_gflops"], w["vendor_sm_mhz"],
                      c["vendor_sm_mhz"], w["vendor_gflops_per_w"], c["vendor_gflops_per_w"]))
    cold_by = {r["config"]: r for r in cold}
    for w in warm:
        c = cold_by.get(w["config"], {})
        lines.append((w["config"], w["gflops"], c.get("gflops", ""), w["sm_mhz"], c.get("sm_mhz", ""),
                      w["gflops_per_w"], c.get("gflops_per_w", "")))
    for name, wg, cg, wm, cm, wp, cp in lines:
        ratio = "%.1f%%" % (100 * float(cg) / float(wg)) if wg and cg else "-"
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (backend, name, fmt(wg), fmt(cg), ratio, fmt(wm),
              fmt(cm), fmt(wp, "%.1f"), fmt(cp, "%.1f")))
PY
grep -h "^driver\|^vendor \|^THROTTLED\|^cold L2\|^time" "$out/run-cuda.txt" "$out/run-cuda-cold.txt" "$out/run-opencl.txt"
date -u
