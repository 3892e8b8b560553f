#!/bin/sh
# On the GPU machine: how long a change takes to reach a verified figure at N=1024.
# 1. The explorer's own path (worker + compile-ahead pool in one process), OpenCL and CUDA.
# 2. Fresh compiles in new processes with the compiler's optimisation levels, and what each
#    costs in GFLOPS (GEMMTOP_CL_OPTIONS / GEMMTOP_NVRTC_OPTIONS).
. tools/gpu/gpu_setup.sh
export LD_LIBRARY_PATH="$PWD/.device-carry/lib:$LD_LIBRARY_PATH"
K=${1:-fast02_warptile}
# CUDA_CACHE_DISABLE=1: NVIDIA's driver must not answer a compile from its own JIT cache
# (then every compile is real); 0: the default, as a user has it.
for nocache in 1 0; do
   for be in opencl cuda; do
      echo "# CUDA_CACHE_DISABLE=$nocache"
      CUDA_CACHE_DISABLE=$nocache XDG_CACHE_HOME=$(mktemp -d) GEMMTOP_TEST_FILTER=test_latency_of_a_change \
         GEMMTOP_LATENCY_BACKEND=$be GEMMTOP_LATENCY_KERNEL=$K GEMMTOP_LATENCY_SIZE=1024 build/tests/test_ahead 2>&1 |
         grep -E "latency|PASSED|FAILED"
   done
done
fresh() { # backend preset env-assignment
   CUDA_CACHE_DISABLE=1 XDG_CACHE_HOME=$(mktemp -d) env "$3" build/gemmtop run --backend "$1" --device NVIDIA --preset "$2" --size 1024 --reps 20 --format json 2>&1 |
      grep -o '"compile_ms":[0-9.]*\|"wall_ms":[0-9.]*\|"gflops":[0-9.]*\|"ok":[a-z]*' | tr '\n' ' '
   echo " <- $1 $2 $3"
}
for o in "" -cl-nv-opt-level=2 -cl-nv-opt-level=1 -cl-nv-opt-level=0; do fresh opencl fast-02-warptile "GEMMTOP_CL_OPTIONS=$o"; done
for o in "" --ptxas-options=-O2 --ptxas-options=-O1 --ptxas-options=-O0; do fresh cuda fast-02-warptile-cuda "GEMMTOP_NVRTC_OPTIONS=$o"; done
