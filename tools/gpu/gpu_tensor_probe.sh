#!/bin/sh
# On the GPU machine: the tensor-core helpers (kernels/helpers/tensor.h) and the tensor
# ladder on an NVIDIA GPU of sm_80 or newer, through NVIDIA's OpenCL and CUDA (NVRTC).
#  1. Each helper on its own (build/tests/test_tensor: mma.sync tf32/f16/bf16, ldmatrix
#     x1/x2/x4 with and without .trans, cp.async in two commit groups, cvt.rna.tf32) with
#     inline PTX: OpenCL with a __local pointer's integer value as the .shared address
#     (the default), OpenCL converting it with cvta.to.shared (GT_SMEM_CVTA=1), CUDA
#     (__cvta_generic_to_shared); and the portable emulation on the same GPU. The line
#     ADVICE says which OpenCL address form read the right data.
#  2. Every step of the ladder in tf32, half and bfloat16 at an odd size with alpha and
#     beta, verified and not emulated, through both backends; the broken tensor kernels
#     (tests/kernels/tensor/) must fail verification on the GPU too.
#  3. The H100 presets of steps 4 and 5 at 4096 beside the vendor library (cuBLAS GemmEx
#     through CUDA, CLBlast where it has the type), and a short sweep of step 5.
#  4. Step 5's H100 presets through CUDA (the OpenCL one and the -cuda one, in dynamic
#     shared memory) and through OpenCL beside cuBLAS, bench --rounds 3 at 4096 and 8192.
# One JSON line per run in OUTDIR/tensor.jsonl; PASS/FAIL lines; exits 1 when a check
# fails. GEMMTOP_PROBE_SECTIONS (default 1234) names the sections to run.
# Usage: sh tools/gpu/gpu_tensor_probe.sh [OUTDIR] [SWEEP_BUDGET (configurations)]
. tools/gpu/gpu_setup.sh
# The build carried from the developer's machine when it is there (the GPU machine lacks
# some build dependencies), else built here; test_tensor's cmocka from the carried bundle.
sections=${GEMMTOP_PROBE_SECTIONS:-1234}
section() { case "$sections" in *"$1"*) return 0 ;; esac; return 1; }
if [ ! -x build/gemmtop ] || { section 1 && [ ! -x build/tests/test_tensor ]; }; then
   make -j"$(nproc)" all build/tests/test_tensor >/dev/null || { echo "FAIL build"; exit 1; }
fi
for deb in .device-carry/suite/libcmocka0_*.deb; do
   [ -e "$deb" ] || continue
   extra=$(mktemp -d)
   dpkg -x "$deb" "$extra"
   export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$extra/usr/lib/x86_64-linux-gnu"
done
B=$PWD/build/gemmtop
out=${1:-${OUT:-/tmp}}
budget=${2:-120}
mkdir -p "$out"
kdir=$(mktemp -d)
cp -r kernels/helpers kernels/*.cl tests/kernels/tensor/*.cl "$kdir/"
export GEMMTOP_KERNELS="$kdir" GEMMTOP_PRESETS="$PWD/presets"
export XDG_CACHE_HOME="$kdir.cache"
log="$out/tensor.jsonl"
: > "$log"
fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# 1. The helpers one by one.
if section 1; then
probe() { # LABEL BACKEND PTX CVTA [optional: a failure is a NOTE, not a FAIL]
   if GEMMTOP_SOURCE_DIR=$PWD GEMMTOP_TEST_BACKEND=$2 GEMMTOP_TEST_DEVICE=NVIDIA GEMMTOP_TENSOR_PTX=$3 GEMMTOP_SMEM_CVTA=$4 \
      build/tests/test_tensor > "$out/probe-$1.txt" 2>&1; then
      pass "helpers, $1"
      return 0
   fi
   why=$(grep -E 'ERROR|error|expected' "$out/probe-$1.txt" | head -n 3 | tr '\n' ' ')
   if [ -n "${5:-}" ]; then echo "NOTE helpers, $1 (the other address form, not shipped): $why"; else fail "helpers, $1: $why"; fi
   return 1
}
probe opencl-ptx opencl 1 0 && ocl_direct=yes || ocl_direct=no
# The alternative address form only matters when the shipped one fails.
cvta_optional=""
[ $ocl_direct = yes ] && cvta_optional=optional
probe opencl-ptx-cvta opencl 1 1 $cvta_optional && ocl_cvta=yes || ocl_cvta=no
probe cuda-ptx cuda 1 0
probe opencl-emulated opencl 0 0
probe cuda-emulated cuda 0 0
if [ $ocl_direct = yes ]; then
   echo "ADVICE OpenCL: the __local pointer's integer value is the .shared address (GT_SMEM_CVTA=0, as shipped)"
elif [ $ocl_cvta = yes ]; then
   echo "ADVICE OpenCL: only cvta.to.shared read the right data: set GT_SMEM_CVTA to 1 in kernels/helpers/tensor.h"
else
   echo "ADVICE OpenCL: neither address form read the right data: see $out/probe-opencl-ptx*.txt"
fi
fi

# run LABEL ARGS...: one JSON run appended to the log; keeps it in $line.
run() {
   label=$1
   shift
   line=$($B run --format json "$@" 2>"$out/err.txt" | tail -n 1)
   [ -n "$line" ] || line="{\"label\":\"$label\",\"status\":\"no output: $(head -c 300 "$out/err.txt" | tr '"\n' "' ")\"}"
   echo "$line" >> "$log"
}
field() { printf '%s\n' "$line" | python3 -c 'import json,sys
try: v=json.loads(sys.stdin.readline()).get(sys.argv[1])
except Exception: v=None
print(json.dumps(v) if isinstance(v,(bool,dict,list)) or v is None else v)' "$1"; }

# Positive inputs for the rounding test (a wrong rounding then moves every product one way).
python3 - "$out" <<'PY'
import random, struct, sys
def write(path, rows, cols, vals):
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    hdr += ' ' * (63 - (len(hdr) + 10) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode())
        f.write(struct.pack('<%df' % len(vals), *vals))
r = random.Random()
write(sys.argv[1] + '/pos-a.npy', 500, 300, [r.uniform(1, 2) for _ in range(500 * 300)])
write(sys.argv[1] + '/pos-b.npy', 300, 400, [r.uniform(1, 2) for _ in range(300 * 400)])
PY

# 2. The ladder verified on the tensor cores, the broken kernels refused.
section 2 && for be in cuda opencl; do
   dev=""
   [ "$be" = opencl ] && dev="--device NVIDIA"
   for prec in tf32 half bfloat16; do
      for k in tensor01_global tensor02_local tensor03_ldmatrix tensor04_cpasync tensor05_warptile; do
         run "$be $prec $k" --backend $be $dev --kernel $k --precision $prec -m 1000 -n 999 -k 997 --alpha 0.75 \
            --beta -1.5 --reps 3 --warmup 1
         if [ "$(field verified)" = true ] && [ "$(field emulated)" = false ]; then
            pass "$be $prec $k 1000x999x997 verified on the tensor cores ($(field message))"
         else
            fail "$be $prec $k: $(field status) emulated=$(field emulated) $(field message)"
         fi
      done
      for k in test_tensor_fragment test_tensor_kstep; do
         run "$be $prec $k" --backend $be $dev --kernel $k --precision $prec -m 1000 -n 999 -k 997 --reps 1 --warmup 0
         [ "$(field verified)" = false ] && [ "$(field status)" = "wrong result" ] &&
            pass "$be $prec $k fails verification, as it must" || fail "$be $prec $k: $(field status) $(field message)"
      done
   done
   run "$be test_tensor_round" --backend $be $dev --kernel test_tensor_round --precision tf32 -m 500 -n 400 -k 300 \
      --a "$out/pos-a.npy" --b "$out/pos-b.npy" --reps 1 --warmup 0
   [ "$(field verified)" = false ] && pass "$be test_tensor_round fails verification, as it must" ||
      fail "$be test_tensor_round: $(field status) $(field message)"
done

# 3. Speed at 4096 beside the vendor library, then a short sweep of step 5.
section 3 && for be in cuda opencl; do
   dev=""
   [ "$be" = opencl ] && dev="--device NVIDIA"
   cuda_only="" # tiles in dynamic shared memory: more than OpenCL's 48 KiB
   [ "$be" = cuda ] && cuda_only="tensor-5-warptile-h100-half-cuda tensor-5-warptile-h100-bfloat16-cuda
      tensor-5-warptile-h100-tf32-cuda"
   for p in tensor-5-warptile-h100-half tensor-5-warptile-h100-bfloat16 tensor-5-warptile-h100-tf32 \
      tensor-4-cpasync-h100-half $cuda_only; do
      run "$be $p" --backend $be $dev --preset "$PWD/presets/$p.preset" --reps 10 --warmup 3 --vendor
      if [ "$(field verified)" = true ]; then
         pass "$be $p: $(field gflops) GFLOPS; vendor $(field vendor) $(field vendor_gflops) GFLOPS ($(field vendor_status))"
      else
         fail "$be $p: $(field status) $(field message)"
      fi
   done
   for prec in half tf32; do
      $B sweep --backend $be $dev --kernel tensor05_warptile --precision $prec --size 4096 --budget "$budget" \
         --reps 5 --warmup 2 --timeout 20 --save "$out/sweep-$be-$prec.json" > "$out/sweep-$be-$prec.txt" 2>&1
      echo "== sweep $be $prec (best first)"
      head -n 6 "$out/sweep-$be-$prec.txt"
   done
done
# 4. Step 5's H100 presets beside cuBLAS, in one process per type and backend (bench
#    --rounds: medians of the rounds, every result verified): through CUDA the OpenCL
#    preset (48 KiB) and the -cuda one (dynamic shared memory); through OpenCL its preset.
section 4 && for t in half bfloat16 tf32; do
   $B bench --backend cuda tensor-5-warptile-h100-$t tensor-5-warptile-h100-$t-cuda --sizes 4096,8192 --rounds 3 \
      > "$out/bench-cuda-$t.txt" 2>&1
   echo "== bench cuda $t"
   grep -v -e '^size ' -e '^  SM' "$out/bench-cuda-$t.txt" | head -n 5
   $B bench --backend opencl --device NVIDIA --reference cuda tensor-5-warptile-h100-$t --sizes 4096,8192 \
      --rounds 3 > "$out/bench-opencl-$t.txt" 2>&1
   echo "== bench opencl $t"
   grep -v -e '^size ' -e '^  SM' "$out/bench-opencl-$t.txt" | head -n 5
done
echo "tensor probe: $fails check(s) failed; runs in $log"
[ "$fails" -eq 0 ]
