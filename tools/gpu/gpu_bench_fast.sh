#!/bin/sh
# On the GPU machine: the fast ladder's presets and the vendor libraries across sizes, in
# float and double, OpenCL (with cuBLAS as --reference) and CUDA. Writes under $1 (default $OUT).
. tools/gpu/gpu_setup.sh
B=build/gemmtop
out=${1:-$OUT}
S=1024,2048,4096,8192
$B bench --backend opencl --device NVIDIA --reference cuda fast-02-warptile fast-02-warptile-small fast-01-blocktile h100-09-prefetch --sizes $S --save "$out/bench-ocl.csv" 2>/dev/null
$B bench --backend cuda fast-02-warptile-cuda fast-02-warptile-small-cuda fast-01-blocktile-cuda --sizes $S --save "$out/bench-cuda.csv" 2>/dev/null
$B bench --backend cuda fast-02-warptile-double-cuda --sizes $S --save "$out/bench-cuda-double.csv" 2>/dev/null
$B bench --backend opencl --device NVIDIA --reference cuda --precision double fast-02-warptile-double-cuda --sizes 4096 --save "$out/bench-ocl-double.csv" 2>/dev/null
$B list devices --backend cuda --measure 2>/dev/null | grep -E "measured peaks"
date -u
