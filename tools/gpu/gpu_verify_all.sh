#!/bin/sh
# On the GPU machine: every visible variant at its defaults through OpenCL (NVIDIA) and CUDA
# at the given sizes (default 1024 and 4096), verified; one JSON line per run in $1/verify.jsonl
# and a summary. A correctness sweep, not a benchmark (3 timed launches each).
. tools/gpu/gpu_setup.sh
B=build/gemmtop
out=${1:-$OUT}
sizes=${2:-"1024 4096"}
kernels=$($B list kernels --format json | python3 -c 'import json,sys
for l in sys.stdin: print(json.loads(l)["name"])')
: > "$out/verify.jsonl"
for k in $kernels; do
   for be in opencl cuda; do
      dev=""; [ "$be" = opencl ] && dev="--device NVIDIA"
      for n in $sizes; do
         $B run --backend $be $dev --kernel "$k" --size "$n" --reps 3 --warmup 1 --format json >> "$out/verify.jsonl" 2>/dev/null ||
            echo "{\"kernel\":\"$k\",\"backend\":\"$be\",\"m\":$n,\"status\":\"exit $?\",\"verified\":false}" >> "$out/verify.jsonl"
      done
   done
done
python3 - "$out/verify.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
bad = [r for r in rows if not r.get("verified")]
print(f"{len(rows)} runs, {len(rows) - len(bad)} verified, {len(bad)} not")
for r in bad:
    print("NOT VERIFIED:", r.get("kernel"), r.get("backend"), r.get("m"), r.get("status"), r.get("message", "")[:200])
PY
