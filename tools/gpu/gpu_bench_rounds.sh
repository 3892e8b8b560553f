#!/bin/sh
# On the GPU machine: the fast ladder's best presets against cuBLAS in rounds (bench --rounds),
# through CUDA and through NVIDIA's OpenCL (cuBLAS as --reference). Writes under $1 (default $OUT).
. tools/gpu/gpu_setup.sh
B=build/gemmtop
out=${1:-$OUT}
S=${SIZES:-1024,2048,4096,8192}
R=${ROUNDS:-5}
$B bench --backend cuda fast-02-warptile-cuda fast-03-pipelined-cuda fast-02-warptile-small-cuda --sizes $S --rounds $R --save "$out/rounds-cuda.csv" 2>/dev/null
$B bench --backend opencl --device NVIDIA --reference cuda fast-02-warptile fast-03-pipelined fast-02-warptile-small --sizes $S --rounds $R --save "$out/rounds-ocl.csv" 2>/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
date -u
