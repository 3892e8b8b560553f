#!/bin/sh
# On the GPU machine (issue 49, item 4): gemmtop tune end to end through CUDA, in under 3
# minutes. Run from the project's root after tools/gpu/gpu_setup.sh, with build/ carried:
#    sh tools/gpu/gpu_tune.sh            (results: $OUT/tune.tgz; a short table last)
#  1. tune the skinny suite with Hopper step 5 in bfloat16 (NT, as its preset; the tile
#     shape, consumers and cluster searched, 3 configurations a shape within 4 s), which
#     writes the dispatch table and each shape's CUDA export;
#  2. build every export with nvcc (make, in parallel) and run each launcher: its GFLOPS
#     over the figure gemmtop stored for that configuration (exports were 100.2-101.1% on
#     2026-11-29), and whether it verified;
#  3. with the time left, bench --shapes skinny --best: each shape's shipped configuration
#     beside cuBLAS in the same process.
# Nothing stops the script but the time: a step that fails is recorded and the next runs.
# A stand-in run elsewhere (no GPU) overrides the commands: TUNE_ARGS (the tune's options),
# BENCH_ARGS (bench's, "" skips it), LIMIT (seconds, default 170), B (the binary).
B=${B:-build/gemmtop}
LIMIT=${LIMIT:-170}
TUNE_ARGS=${TUNE_ARGS:---backend cuda --shapes skinny --preset hopper-5-order-bf16 --set BK=64 --set SW=128 --set STAGES=4 --set BLOCKS=1 --set GROUP=8 --budget 3 --time-budget 4 --reps 5 --warmup 2 --timeout 10}
BENCH_ARGS=${BENCH_ARGS-"--backend cuda --shapes skinny --precision bfloat16 --layout NT --rounds 1 --reps 10"}
out=${OUT:-/tmp}
start=$(date +%s)
left() { echo $((LIMIT - ($(date +%s) - start))); }
w=$(mktemp -d)
mkdir -p "$w/tune" "$out"
{
   date -u
   nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>&1
   "$B" --version 2>&1
   echo "tune: $TUNE_ARGS"
   echo "bench: $BENCH_ARGS"
} >"$w/tune/about.txt"

# 1. tune: its sweeps go to a store of its own; a tune stopped by the time limit resumes
# with a budget of 1 (what the store holds is taken, nothing much measured) to write the files.
store="$w/tune/tune.db"
# shellcheck disable=SC2086 # the options are words
timeout "$(($(left) - 70))" "$B" tune $TUNE_ARGS --store "$store" --dir "$w/tune/ship" \
   >"$w/tune/tune.out" 2>"$w/tune/tune.err"
rc=$?
echo "$rc" >"$w/tune/tune.rc"
if [ "$rc" -eq 124 ]; then
   rm -rf "$w/tune/ship"
   # shellcheck disable=SC2086
   timeout 30 "$B" tune $TUNE_ARGS --budget 1 --store "$store" --dir "$w/tune/ship" \
      >"$w/tune/tune-resumed.out" 2>"$w/tune/tune-resumed.err"
   echo "resumed: $?" >>"$w/tune/tune.rc"
fi

# 2. each export: built with nvcc (or cc, for an OpenCL stand-in) in parallel, then run one
# at a time, its figure against the one in dispatch.json
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
for d in "$w"/tune/ship/*/; do
   [ -f "$d/Makefile" ] && (make -C "$d" >"$d/make.log" 2>&1; echo $? >"$d/make.rc") &
done
wait
for d in "$w"/tune/ship/*/; do
   [ -f "$d/Makefile" ] || continue
   l=
   for f in "$d"*_launch; do [ -x "$f" ] && l=$(basename "$f" _launch); done
   if [ -z "$l" ]; then
      echo "no launcher built" >"$d/launch.txt"
   elif [ -f "$d/$l.cl" ]; then # OpenCL: the kernel's file, the device (the stand-in's PoCL) and the seed
      (cd "$d" && timeout 60 "./${l}_launch" "$l.cl" "${DEVICE_INDEX:-0}" "$seed") >"$d/launch.txt" 2>&1
   else
      (cd "$d" && timeout 60 "./${l}_launch" 0 "$seed") >"$d/launch.txt" 2>&1
   fi
   echo $? >"$d/launch.rc"
done

# 3. bench --best, in the time left
if [ -n "$BENCH_ARGS" ] && [ "$(left)" -gt 25 ]; then
   # shellcheck disable=SC2086
   timeout "$(($(left) - 10))" "$B" bench $BENCH_ARGS --best --store "$store" --format json \
      >"$w/tune/bench.json" 2>"$w/tune/bench.err"
   echo $? >"$w/tune/bench.rc"
else
   echo "skipped: $(left) s left" >"$w/tune/bench.err"
fi

echo "$(($(date +%s) - start)) s in all" >>"$w/tune/about.txt"
(cd "$w" && tar czf "$out/tune.tgz" tune)

# The short table.
python3 - "$w/tune" <<'PY'
import glob, json, os, re, sys
d = sys.argv[1]
print(open(os.path.join(d, "about.txt")).read().strip())
print("tune exit:", open(os.path.join(d, "tune.rc")).read().strip().replace("\n", "; "))
try:
    table = json.load(open(os.path.join(d, "ship", "dispatch.json")))
except Exception as e:
    print("no dispatch.json:", e)
    print(open(os.path.join(d, "tune.err")).read()[-1500:])
    sys.exit(0)
bench = {}
try:
    for line in open(os.path.join(d, "bench.json")):
        r = json.loads(line)
        if "shape" in r:
            bench[r["shape"]] = r
except Exception:
    pass
print("%-12s %-18s %-14s %10s %10s %9s %-12s %9s" % ("shape", "MxNxK", "kernel", "gemmtop", "launcher", "ratio",
                                                     "launcher", "%cuBLAS"))
ratios = []
for e in table["entries"]:
    size = "%dx%dx%d" % (e["m"], e["n"], e["k"])
    folder = os.path.join(d, "ship", e["label"])
    text = open(os.path.join(folder, "launch.txt")).read() if os.path.exists(os.path.join(folder, "launch.txt")) else ""
    made = open(os.path.join(folder, "make.rc")).read().strip() if os.path.exists(os.path.join(folder, "make.rc")) else "-"
    m = re.search(r"([0-9.]+) GFLOPS", text)
    lg = float(m.group(1)) if m else 0
    g = e.get("gflops", 0)
    state = "verified" if "verified:" in text else ("WRONG" if "WRONG" in text else
            ("not built" if made not in ("0", "-") else ("none" if "kernel" not in e else "no run")))
    ratio = "%.1f%%" % (100 * lg / g) if g and lg else "-"
    if g and lg:
        ratios.append(lg / g)
    b = bench.get(e["label"], {})
    pct = "%.1f%%" % b["pct_of_vendor"] if "pct_of_vendor" in b else "-"
    print("%-12s %-18s %-14.14s %10.1f %10.1f %9s %-12s %9s" % (e["label"], size, e.get("kernel", "none"), g, lg,
                                                                ratio, state, pct))
if ratios:
    print("launcher/gemmtop: %d exports, %.1f%% to %.1f%%" % (len(ratios), 100 * min(ratios), 100 * max(ratios)))
PY
rm -rf "$w"
