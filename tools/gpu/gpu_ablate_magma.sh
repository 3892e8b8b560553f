#!/bin/sh
# On the GPU machine: the MAGMA Fermi kernel with each ablation, through OpenCL and CUDA, in
# float (and double on CUDA) at 4096; CSV in $1/ablate.csv and a short table.
. tools/gpu/gpu_setup.sh
B=build/gemmtop
out=${1:-$OUT}
first=1
for run in "opencl float" "cuda float" "cuda double"; do
   set -- $run
   dev=""; [ "$1" = opencl ] && dev="--device NVIDIA"
   for a in none no-a no-b no-a,no-b no-fma const-store no-a,no-b,no-fma,const-store; do
      $B run --backend $1 $dev --preset magma-1-fermi --size 4096 --precision $2 --ablate $a --reps 10 --warmup 3 --format csv 2>/dev/null |
         if [ $first = 1 ]; then cat; else tail -n +2; fi >> "$out/ablate.csv"
      first=0
   done
done
python3 - "$out/ablate.csv" <<'PY'
import csv, sys
print("| backend | precision | ablation | ms | GFLOPS | global GB/s | core GB/s | status |")
print("|---|---|---|---|---|---|---|---|")
for r in csv.DictReader(open(sys.argv[1])):
    print(f"| {r['backend']} | {r['precision']} | {r['ablation'] or 'none'} | {float(r['time_ms']):.3f} | {float(r['gflops']):.0f} | "
          f"{float(r['gbps']):.1f} | {float(r['core_gbps']):.0f} | {r['status']} |")
PY
