#!/bin/sh
# On the GPU machine: where step 5's warps wait, from Nsight Compute, for the presets named
# (default: the CUDA presets in half and tf32, and the 48 KiB half preset through CUDA).
# One launch of each at 4096, clocks as they are; every metric of the sections below in
# $1/stalls-PRESET.csv (ncu's raw page), and a short table last: the tensor pipe's and
# shared memory's use, issue slots, and the reasons warps did not issue, largest first.
. tools/gpu/gpu_setup.sh
out=${1:-$OUT}
shift
presets=${*:-tensor-5-warptile-h100-half-cuda tensor-5-warptile-h100-tf32-cuda tensor-5-warptile-h100-half}
for p in $presets; do
   ncu --clock-control none --kernel-name gemm --launch-skip 1 --launch-count 1 --section SpeedOfLight \
      --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
      --section MemoryWorkloadAnalysis --section Occupancy --page raw --csv \
      build/gemmtop run --backend cuda --preset "$p" --size 4096 --reps 3 --warmup 2 \
      >"$out/stalls-$p.csv" 2>"$out/stalls-$p.err"
   echo "$p: ncu exit $?"
done
python3 - "$out" $presets <<'PY'
import csv, io, sys
out, presets = sys.argv[1], sys.argv[2:]
def raw(p):
    text = open("%s/stalls-%s.csv" % (out, p)).read()
    text = text[text.find('"ID"'):] if '"ID"' in text else ""
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) < 3:
        return {}
    vals = {}
    for name, v in zip(rows[0], rows[2]):
        try:
            vals[name] = float(v.replace(",", ""))
        except ValueError:
            pass
    return vals
for p in presets:
    v = raw(p)
    print("\n== %s" % p)
    if not v:
        print("  no figures: see stalls-%s.err" % p)
        continue
    for key in ("gpu__time_duration.sum", "sm__cycles_active.avg", "smsp__issue_active.avg.pct_of_peak_sustained_active",
                "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
                "sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_active",
                "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed",
                "l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed",
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "sm__warps_active.avg.pct_of_peak_sustained_active",
                "smsp__average_warp_latency_per_inst_issued.ratio", "smsp__average_warps_issue_stalled_per_issue_active.ratio"):
        if key in v:
            print("  %-78s %12.2f" % (key, v[key]))
    other = [k for k in v if ("pipe_tensor" in k or "mem_shared" in k) and "pct" in k and k not in ()]
    for k in sorted(other)[:12]:
        print("  %-78s %12.2f" % (k, v[k]))
    stalls = sorted(((x, k) for k, x in v.items() if "issue_stalled" in k and (k.endswith(".ratio") or k.endswith(".pct"))),
                    reverse=True)
    print("  reasons warps did not issue (largest first):")
    for x, k in stalls[:12]:
        print("    %-76s %12.3f" % (k, x))
PY
