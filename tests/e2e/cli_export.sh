#!/bin/sh
# gemmtop export-kernel on PoCL: the configuration as a standalone OpenCL kernel, a C
# launcher and a Makefile; the launcher builds with the system's compiler and OpenCL and
# verifies on PoCL from the exported files alone (copied elsewhere, without gemmtop's
# kernels), in float and in double with an odd size, a transposed layout, alpha and beta,
# and past its full check's budget on elements drawn at random; a kernel broken after
# export fails the launcher's check. For CUDA (--arch, no GPU needed): CUDA cores, mma.sync,
# wgmma with TMA and split-K with its fix-up build with nvcc; the launcher verifies where a
# GPU is, and says why not where none is; its 16-bit conversions match Python's. What
# cannot be exported is refused with its reason, and nothing is overwritten.
. "$(dirname "$0")/lib.sh"
if ! command -v cc >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
   echo "ok 1 - # SKIP no C compiler or make to build the launcher"
   exit 0
fi
dev=$(printf '%s\n' "$POCL" | sed -E 's/.*--device ([0-9]+).*/\1/')
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')

run_gemmtop export-kernel --kernel mygemm03_wpt --set TS=32 --set WPT=8 --size 128 --dir "$T_DIR/wpt"
expect_rc 0 "export-kernel mygemm03_wpt TS=32 WPT=8 at 128"
expect_in "build and run: make -C $T_DIR/wpt run" "$OUT" "it names the files and how to build them"
if [ -f "$T_DIR/wpt/mygemm03_wpt.cl" ] && [ -f "$T_DIR/wpt/mygemm03_wpt_launch.c" ] && [ -f "$T_DIR/wpt/Makefile" ]; then
   ok "the kernel, the launcher and a Makefile are written"
else
   not_ok "the kernel, the launcher and a Makefile are written" "$(ls -la "$T_DIR/wpt" 2>&1)"
fi
cl=$(cat "$T_DIR/wpt/mygemm03_wpt.cl" 2>/dev/null)
expect_in "#define TS 32" "$cl" "the parameters are baked in as #defines"
expect_in "#define WPT 8" "$cl" "both of them"
if grep -q '^[[:space:]]*#[[:space:]]*include' "$T_DIR/wpt/mygemm03_wpt.cl"; then
   not_ok "the kernel includes nothing: the helpers are inlined" "$(grep -n include "$T_DIR/wpt/mygemm03_wpt.cl")"
else
   ok "the kernel includes nothing: the helpers are inlined"
fi

# Built and run where gemmtop is not: a copy of the three files alone.
mkdir -p "$T_DIR/elsewhere"
cp "$T_DIR/wpt/mygemm03_wpt.cl" "$T_DIR/wpt/mygemm03_wpt_launch.c" "$T_DIR/wpt/Makefile" "$T_DIR/elsewhere/"
if make -s -C "$T_DIR/elsewhere" CFLAGS="-O2 -std=c99 -Wall -Wextra -pedantic" >"$T_DIR/make.out" 2>&1 &&
   [ -x "$T_DIR/elsewhere/mygemm03_wpt_launch" ] && ! grep -q warning "$T_DIR/make.out"; then
   ok "the launcher builds with make (cc, -lOpenCL), no warning with -Wall -Wextra -pedantic"
else
   not_ok "the launcher builds with make (cc, -lOpenCL), no warning" "$(cat "$T_DIR/make.out")"
fi
launch_out=$(cd "$T_DIR/elsewhere" && env -u GEMMTOP_KERNELS ./mygemm03_wpt_launch mygemm03_wpt.cl "$dev" "$seed" 2>&1)
launch_rc=$?
if [ "$launch_rc" -eq 0 ]; then ok "the exported kernel runs on PoCL and verifies (seed $seed)"; else not_ok "the exported kernel runs on PoCL and verifies (seed $seed)" "$launch_out"; fi
expect_in "verified: all 16384 elements, worst relative error" "$launch_out" "the launcher says it verified every element"
expect_in "128x128x128, median" "$launch_out" "and times it"

# Broken after export (a work-item's share of C halved, the launch unchanged): the
# launcher's own check fails it.
sed 's/^#define WPT 8$/#define WPT 4/' "$T_DIR/elsewhere/mygemm03_wpt.cl" >"$T_DIR/elsewhere/broken.cl"
broken_out=$(cd "$T_DIR/elsewhere" && ./mygemm03_wpt_launch broken.cl "$dev" "$seed" 2>&1)
broken_rc=$?
if [ "$broken_rc" -eq 1 ]; then ok "a kernel broken after export fails the launcher's check (exit 1)"; else not_ok "a kernel broken after export fails the launcher's check: exit $broken_rc" "$broken_out"; fi
expect_in "WRONG: " "$broken_out" "saying how many elements are wrong"

# Double, an odd size, both operands transposed, alpha and beta.
run_gemmtop export-kernel --kernel general_any --size 77x45x33 --layout TT --alpha -2 --beta 3 --precision double \
   --dir "$T_DIR/any"
expect_rc 0 "export-kernel general_any double 77x45x33 TT alpha -2 beta 3"
launch_out=$(make -s -C "$T_DIR/any" >/dev/null 2>&1 && cd "$T_DIR/any" && ./general_any_launch general_any.cl "$dev" "$seed" 2>&1)
launch_rc=$?
if [ "$launch_rc" -eq 0 ]; then ok "it verifies in double (seed $seed)"; else not_ok "it verifies in double (seed $seed)" "$launch_out"; fi
expect_in "77x45x33" "$launch_out" "at the odd size"

# Past 2^28 multiply-adds the launcher checks 2^28 / K elements drawn at random.
run_gemmtop export-kernel --kernel mygemm03_wpt --set TS=32 --set WPT=8 --size 1024x1024x512 --dir "$T_DIR/big"
expect_rc 0 "export-kernel mygemm03_wpt at 1024x1024x512"
launch_out=$(make -s -C "$T_DIR/big" >/dev/null 2>&1 && cd "$T_DIR/big" && ./mygemm03_wpt_launch mygemm03_wpt.cl "$dev" "$seed" 2>&1)
launch_rc=$?
if [ "$launch_rc" -eq 0 ]; then ok "it verifies at 1024x1024x512 (seed $seed)"; else not_ok "it verifies at 1024x1024x512 (seed $seed)" "$launch_out"; fi
expect_in "verified: 524289 of 1048576 elements, drawn at random" "$launch_out" "on 2^28 / K elements drawn at random"
sed 's/^#define WPT 8$/#define WPT 4/' "$T_DIR/big/mygemm03_wpt.cl" >"$T_DIR/big/broken.cl"
broken_out=$(cd "$T_DIR/big" && ./mygemm03_wpt_launch broken.cl "$dev" "$seed" 2>&1)
broken_rc=$?
if [ "$broken_rc" -eq 1 ]; then ok "the drawn elements catch a broken kernel (exit 1)"; else not_ok "the drawn elements catch a broken kernel: exit $broken_rc" "$broken_out"; fi

# Nothing is overwritten: a second export into the same folder is refused, the file kept.
sum=$(cksum <"$T_DIR/wpt/mygemm03_wpt.cl")
echo "# a note" >>"$T_DIR/wpt/Makefile"
run_gemmtop export-kernel --kernel mygemm03_wpt --size 256 --dir "$T_DIR/wpt"
expect_rc 2 "an export into a folder that has the files is refused"
expect_in "exists: export-kernel never overwrites a file" "$ERR" "saying which file exists"
if [ "$(cksum <"$T_DIR/wpt/mygemm03_wpt.cl")" = "$sum" ] && grep -q "# a note" "$T_DIR/wpt/Makefile"; then
   ok "the files there are untouched"
else
   not_ok "the files there are untouched" "$(ls -la "$T_DIR/wpt")"
fi

# What the launcher does not make is refused with its reason.
run_gemmtop export-kernel --kernel mygemm06_2d --size 100 --dir "$T_DIR/no1"
expect_rc 2 "a configuration gemmtop refuses is not exported"
expect_in "M must be a multiple of TSM" "$ERR" "naming the rule"
run_gemmtop export-kernel --kernel tensor01_global --size 128 --precision half --dir "$T_DIR/no2"
expect_rc 2 "a tensor-core kernel in half precision is refused"
long=$(python3 -c 'print("d" * 1100)')
run_gemmtop export-kernel --kernel mygemm03_wpt --size 128 --dir "$T_DIR/$long"
expect_rc 2 "a --dir too long to hold is refused, not cut"
expect_in "--dir is " "$ERR" "saying how long it may be"

# CUDA C++ for nvcc, written without a GPU (--arch): FP32 on CUDA cores, half on mma.sync,
# bfloat16 on wgmma with TMA tensor maps (sm_90a; step 7 in clusters, C16 and DADD too),
# split-K with its fix-up launch on CUDA cores and on mma.sync, and FP8 with per-tensor
# scales: e4m3 on wgmma, e5m2 on swap-AB with its split-K fix-up (its scales passed to both
# launches). nvcc's warnings fail the build check (an unreachable loop did once).
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
for spec in "fast-02-warptile-cuda sm_90 1024 NN fast02_warptile" \
   "tensor-5-warptile-h100-half-cuda sm_80 1024 NN tensor05_warptile" \
   "hopper-5-order-bf16 sm_90 1024 NT hopper5_order" \
   "hopper-7-persistent-256-c2-bf16 sm_90 1024 NT hopper7_streamk" \
   "fast-02-warptile-cuda sm_90 128x1024x4096 NN fast03_splitk" \
   "tensor-5-warptile-h100-half-cuda sm_90 256x1024x4096 NN tensor06_splitk" \
   "hopper-fp8-1-wgmma sm_90a 1024x512x1024 NT fp8h1_wgmma" \
   "hopper-9-swapab-t16-split4-e4m3 sm_90a 16x1024x2048 NT hopper9_swapab"; do
   set -- $spec
   case $5 in
   fast03_splitk) sel="--kernel fast03_splitk --set SPLIT=4" ;;
   tensor06_splitk) sel="--preset $1 --kernel tensor06_splitk --set SPLIT=4" ;;
   hopper9_swapab) sel="--preset $1 --precision e5m2" ;;
   hopper7_streamk) sel="--preset $1 --compute-units 132" ;; # a persistent grid: 132 blocks (H100, H200)
   *) sel="--preset $1" ;;
   esac
   out_dir="$T_DIR/cuda-$5"
   run_gemmtop export-kernel --backend cuda --arch "$2" $sel --size "$3" --layout "$4" --alpha 1.5 --beta -0.5 \
      --dir "$out_dir"
   expect_rc 0 "export-kernel --backend cuda --arch $2 $sel at $3"
   if [ -f "$out_dir/$5.cu" ] && [ -f "$out_dir/${5}_launch.cu" ] && [ -f "$out_dir/Makefile" ]; then
      ok "$5: the kernel, the launcher and a Makefile for nvcc are written"
   else
      not_ok "$5: the kernel, the launcher and a Makefile for nvcc are written" "$(ls -la "$out_dir" 2>&1)"
   fi
   # The PyTorch extension beside it: the CUDA half (the kernel and its launch on a stream),
   # the binding and the loader, which Python compiles (torch itself runs on the GPU machine:
   # tools/gpu/gpu_exports.sh).
   if [ -f "$out_dir/${5}_entry.cu" ] && [ -f "$out_dir/${5}_torch.cpp" ] && [ -f "$out_dir/${5}_torch.py" ] &&
      python3 -m py_compile "$out_dir/${5}_torch.py" 2>"$T_DIR/py.err"; then
      ok "$5: and its PyTorch extension, whose loader Python compiles"
   else
      not_ok "$5: and its PyTorch extension, whose loader Python compiles" "$(ls "$out_dir"; cat "$T_DIR/py.err")"
   fi
   if [ -z "$nvcc" ]; then
      ok "$5 builds with nvcc # SKIP nvcc is not installed"
      continue
   fi
   arch=$(sed -n 's/^ARCH ?= //p' "$out_dir/Makefile")
   if (cd "$out_dir" && "$nvcc" -O3 -gencode "arch=$(echo "$arch" | sed 's/sm_/compute_/'),code=$arch" -diag-suppress=1444 \
      -Xcompiler -Wno-deprecated-declarations -c "${5}_entry.cu" -o entry.o) >"$T_DIR/nvcc.out" 2>&1 &&
      ! grep -q 'warning' "$T_DIR/nvcc.out"; then
      ok "$5: the extension's CUDA half builds with nvcc, no warning"
   else
      not_ok "$5: the extension's CUDA half builds with nvcc, no warning" "$(tail -n 20 "$T_DIR/nvcc.out")"
   fi
   if make -C "$out_dir" NVCC="$nvcc" NVCCFLAGS="-O3 -Xptxas -v" >"$T_DIR/nvcc.out" 2>&1 &&
      [ -x "$out_dir/${5}_launch" ] && ! grep -q 'warning' "$T_DIR/nvcc.out"; then
      ok "$5 builds with nvcc for $(sed -n 's/^ARCH ?= //p' "$out_dir/Makefile"), no warning: $(grep -o 'Used [0-9]* registers' "$T_DIR/nvcc.out" | tr '\n' ' ')"
   else
      not_ok "$5 builds with nvcc, no warning" "$(tail -n 20 "$T_DIR/nvcc.out")"
      continue
   fi
   # Where a GPU runs it, it verifies; elsewhere it says why it cannot run (exit 2).
   launch_out=$(cd "$out_dir" && "./${5}_launch" 0 "$seed" 2>&1)
   launch_rc=$?
   case "$launch_rc:$launch_out" in
   0:*"verified: "*) ok "$5 runs on the GPU and verifies (seed $seed): $(printf '%s' "$launch_out" | head -n 1)" ;;
   2:"no CUDA device ("*) ok "$5 without a GPU: the launcher says so (exit 2)" ;;
   2:*"this launcher was built for sm_"*) ok "$5 on another architecture: the launcher says which (exit 2)" ;;
   *) not_ok "$5's launcher: verified, or why it cannot run (exit $launch_rc)" "$launch_out" ;;
   esac
done
hk="$T_DIR/cuda-hopper5_order"
# The binding checks what PyTorch hands it against the problem exported, and launches on
# PyTorch's stream; the loader's check knows the type and the size.
tb="$(cat "$hk/hopper5_order_torch.cpp" 2>/dev/null)"
expect_in "static const int64_t M = 1024, N = 1024, K = 1024;" "$tb" "the binding knows the size exported"
expect_in "IN = torch::kBFloat16, OUT = torch::kFloat;" "$tb" "and the types: bfloat16 in, float out"
expect_in "(the size this kernel was exported for), not " "$tb" "and refuses another size, saying which it takes"
expect_in "at::cuda::getCurrentCUDAStream()" "$tb" "and launches on PyTorch's current stream"
te="$(cat "$hk/hopper5_order_entry.cu" 2>/dev/null)"
expect_in "GEMM_SMEM, stream>>>" "$te" "the extension's launch is on that stream"
expect_in "if ((why = encodeTensorMap(&tm1, db, 1024, 1024, 256, 64, 128))) /* B */" "$te" \
   "and encodes B's tensor map as the launcher does, returning why it could not"
tp="$(cat "$T_DIR/cuda-fp8h1_wgmma/fp8h1_wgmma_torch.py" 2>/dev/null)"
expect_in "IN, OUT = torch.float8_e4m3fn, torch.float32" "$tp" "the e4m3 loader stores float8_e4m3fn"
expect_in "SCALES = 1" "$tp" "with a scale a tensor"
# A user's file of the same name is never replaced: the export is refused before any file.
mkdir -p "$T_DIR/keep"
echo "# my own loader" >"$T_DIR/keep/hopper5_order_torch.py"
run_gemmtop export-kernel --backend cuda --arch sm_90 --preset hopper-5-order-bf16 --size 1024 --layout NT --dir "$T_DIR/keep"
expect_rc 2 "an export over a PyTorch loader of the same name is refused"
expect_in "hopper5_order_torch.py exists: export-kernel never overwrites a file" "$ERR" "naming it"
if [ "$(cat "$T_DIR/keep/hopper5_order_torch.py")" = "# my own loader" ] && [ ! -e "$T_DIR/keep/hopper5_order.cu" ]; then
   ok "the user's file is kept and nothing else written"
else
   not_ok "the user's file is kept and nothing else written" "$(ls -la "$T_DIR/keep")"
fi
expect_in "tensorMap(db, 1024, 1024, 256, 64, 128)" "$(cat "$hk/hopper5_order_launch.cu" 2>/dev/null)" \
   "the launcher encodes B's tensor map with the kernel's box and swizzle"
expect_in "#define GEMM_SMEM " "$(cat "$hk/hopper5_order_launch.cu" 2>/dev/null)" "and gives it its dynamic shared memory"
# Timed as gemmtop times through CUDA (docs/perf.md): each round queued behind the holding
# kernel, released only after the stop event is queued, so the events time the GPU alone.
order=$(awk '/hold_stream<<</ {print "hold"} /cudaEventRecord\(start\)/ {print "start"}
   /^ *GEMM_LAUNCH;/ {print "launch"} /cudaEventRecord\(stop\)/ {print "stop"}
   /\*\(volatile unsigned long long \*\)hold = \(unsigned long long\)\(r \+ 2\)/ {print "release"}
   /cudaEventSynchronize\(stop\)/ {print "wait"}' "$hk/hopper5_order_launch.cu" 2>/dev/null | tr '\n' ' ')
if [ "$order" = "hold start launch stop release wait " ]; then
   ok "the launcher holds the stream while it queues a timed round, and releases it after the stop event"
else
   not_ok "the launcher holds the stream while it queues a timed round" "order seen: $order"
fi
# ... but not under a profiler, which serialises the launches (the hold would wait out its
# 50 ms before every round): told by the variables Nsight Systems and Nsight Compute set.
hl="$(cat "$hk/hopper5_order_launch.cu" 2>/dev/null)"
if printf '%s\n' "$hl" | grep -q 'CUDA_INJECTION64_PATH", "NV_NSIGHT_INJECTION_TRANSPORT_TYPE", "NV_TPS_LAUNCH_TOKEN"' &&
   printf '%s\n' "$hl" | grep -A1 'if (!unheld)' | grep -q 'hold_stream<<<' &&
   printf '%s\n' "$hl" | grep -q 'const int unheld = profiler_injected();'; then
   ok "and holds nothing under a profiler (the launch of the hold is conditional on it)"
else
   not_ok "the launcher's hold under a profiler" "$(printf '%s\n' "$hl" | grep -n -E 'profiler|unheld|hold_stream')"
fi
for k in fast03_splitk tensor06_splitk; do
   expect_in "gemm_fixup<<<" "$(cat "$T_DIR/cuda-$k/${k}_launch.cu" 2>/dev/null)" "$k's launcher makes the fix-up's launch too"
done
# FP8: the patterns' kind, the scales after C in both launches, the accumulator's bound at the
# kernel's promotion interval (PROMOTE tiles of 128 products), one-byte tensor maps.
f8="$(cat "$T_DIR/cuda-fp8h1_wgmma/fp8h1_wgmma_launch.cu" 2>/dev/null)"
expect_in "#define GEMM_IN_KIND 3 " "$f8" "the e4m3 launcher stores FP8 patterns"
expect_in "#define GEMM_FP8_INTERVAL 128" "$f8" "and bounds the FP8 accumulator promoted every 128 products"
expect_in "dc, dsa, dsb, tm0, tm1)" "$f8" "and passes the per-tensor scales after C, before the tensor maps"
sw="$(cat "$T_DIR/cuda-hopper9_swapab/hopper9_swapab_launch.cu" 2>/dev/null)"
expect_in "#define GEMM_IN_KIND 4 " "$sw" "the e5m2 launcher stores e5m2 patterns"
expect_in "gemm_fixup<<<" "$sw" "swap-AB's launcher makes the fix-up's launch"
case "$sw" in
*"dc, dsa, dsb, AnyPointer{dw}, tm0, tm1)"*"dc, dsa, dsb, AnyPointer{dw})"*) ok "with the scales in both launches" ;;
*) not_ok "with the scales in both launches" "$(grep -n 'GEMM_LAUNCH' -A3 "$T_DIR/cuda-hopper9_swapab/hopper9_swapab_launch.cu" 2>&1)" ;;
esac

# The launcher's FP8 conversions, compiled alone: every finite pattern decodes and encodes
# back to itself; each midpoint between neighbours rounds to the even one; the ends of the
# formats (448 and 2^-9 in e4m3, 57344 and 2^-16 in e5m2) are where the formats put them.
for kind in 3 4; do
   fconv="$T_DIR/fconv$kind.c"
   {
      printf '#include <math.h>\n#include <stdio.h>\n#include <string.h>\n#define GEMM_IN_KIND %s\n' "$kind"
      sed -n '/^#elif GEMM_IN_KIND == 3 || GEMM_IN_KIND == 4$/,/^#define GEMM_SCALE_A/p' \
         "$T_DIR/cuda-fp8h1_wgmma/fp8h1_wgmma_launch.cu" | sed -e '1s/.*/#if 1/' -e '$d'
      printf '#endif\nint main(void) {\n   int bad = 0, n = 0;\n'
      printf '   int top = GEMM_IN_KIND == 3 ? 0x7e : 0x7b;\n'
      printf '   for (int b = 0; b <= top; b++) {\n'
      printf '      double v = fromFp8((unsigned char)b), w = fromFp8((unsigned char)(b + 1));\n'
      printf '      n++;\n'
      printf '      if (toFp8(v) != b || toFp8(-v) != (b | 0x80) || fromFp8((unsigned char)(b | 0x80)) != -v) bad++;\n'
      printf '      if (b < top && toFp8((v + w) / 2) != (b %% 2 ? b + 1 : b)) bad++;\n'
      printf '   }\n'
      printf '   double big = GEMM_IN_KIND == 3 ? 448 : 57344, tiny = GEMM_IN_KIND == 3 ? 0x1p-9 : 0x1p-16;\n'
      printf '   if (fromFp8((unsigned char)top) != big || fromFp8(1) != tiny) bad++;\n'
      printf '   printf("patterns %%d bad %%d\\n", n, bad);\n   return 0;\n}\n'
   } >"$fconv"
   if cc -O1 -std=c99 -o "$T_DIR/fconv$kind" "$fconv" -lm 2>"$T_DIR/fconv.err"; then
      fout=$("$T_DIR/fconv$kind")
      case "$fout" in
      *" bad 0") ok "the launcher's $( [ "$kind" = 3 ] && echo e4m3 || echo e5m2) conversions: $fout" ;;
      *) not_ok "the launcher's FP8 conversions (kind $kind)" "$fout" ;;
      esac
   else
      not_ok "the launcher's FP8 conversions compile alone (kind $kind)" "$(cat "$T_DIR/fconv.err")"
   fi
done

# The launcher's 16-bit conversions, compiled alone, against Python's half (struct 'e')
# and bfloat16 rounded to nearest even from the float.
conv="$T_DIR/conv.c"
{
   printf '#include <math.h>\n#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n'
   sed -n '/^#if GEMM_IN_KIND == 1$/,/^#endif$/p' "$T_DIR/cuda-tensor05_warptile/tensor05_warptile_launch.cu" |
      sed -e 's/^#if GEMM_IN_KIND == 1$/#if 1/' -e 's/^#elif GEMM_IN_KIND == 2$/#endif\n#if 1/' -e '/^#else$/,/^#endif$/d' \
         -e '/^#define GEMM_/d'
   printf '#endif\nint main(void) {\n   double x;\n'
   printf '   while (scanf("%%lf", &x) == 1)\n'
   printf '      printf("%%u %%.17g %%u %%.17g\\n", toHalf(x), fromHalf(toHalf(x)), toBf16(x), fromBf16(toBf16(x)));\n'
   printf '   return 0;\n}\n'
} >"$conv"
if cc -O1 -std=c99 -o "$T_DIR/conv" "$conv" -lm 2>"$T_DIR/conv.err"; then
   python3 -c '
import random, struct, sys
r = random.Random(int(sys.argv[1]))
xs = [0.0, -0.0, 1.0, -1.0, 0.5, 2**-14, 2**-24, 3 * 2**-26, 2**-15 + 2**-25, 1 - 2**-12, 0.999755859375, 0.99951171875]
xs += [r.uniform(-1, 1) for _ in range(3000)] + [r.uniform(-1, 1) * 2**-r.randint(0, 30) for _ in range(3000)]
print("\n".join(repr(x) for x in xs))' "$seed" >"$T_DIR/xs"
   conv_out=$("$T_DIR/conv" <"$T_DIR/xs" | python3 -c '
import struct, sys
xs = [float(l) for l in open(sys.argv[1])]
bad = 0
for x, line in zip(xs, sys.stdin):
    h, hv, b, bv = line.split()
    want_h = struct.unpack("<H", struct.pack("<e", x))[0]
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    want_b = ((u + 0x7fff + ((u >> 16) & 1)) >> 16) & 0xffff
    want_bv = struct.unpack("<f", struct.pack("<I", want_b << 16))[0]
    if int(h) != want_h or float(hv) != struct.unpack("<e", struct.pack("<H", want_h))[0] or int(b) != want_b or float(bv) != want_bv:
        bad += 1
        if bad < 4: print("mismatch", x, line.strip(), want_h, want_b)
print("checked", len(xs), "bad", bad)' "$T_DIR/xs")
   case "$conv_out" in
   *"bad 0") ok "the launcher's half and bfloat16 conversions match Python's on $(echo "$conv_out" | sed -n 's/checked \([0-9]*\).*/\1/p') values (seed $seed)" ;;
   *) not_ok "the launcher's half and bfloat16 conversions match Python's" "$conv_out" ;;
   esac
else
   not_ok "the launcher's conversions compile alone" "$(cat "$T_DIR/conv.err")"
fi

# builds_with_nvcc DIR WHAT: the export in DIR builds with nvcc, no warning (skipped without nvcc).
builds_with_nvcc() {
   if [ -z "$nvcc" ]; then
      ok "$2 builds with nvcc # SKIP nvcc is not installed"
   elif make -C "$1" NVCC="$nvcc" >"$T_DIR/nvcc.out" 2>&1 && ! grep -q warning "$T_DIR/nvcc.out"; then
      ok "$2 builds with nvcc, no warning"
   else
      not_ok "$2 builds with nvcc, no warning" "$(tail -n 20 "$T_DIR/nvcc.out")"
   fi
}

# Refused for CUDA, with the reason: a persistent grid without its device, the HIP backend,
# and --arch for a backend that compiles nothing offline.
run_gemmtop export-kernel --backend cuda --arch sm_90 --kernel fast04_streamk --size 1024 --dir "$T_DIR/no3"
expect_rc 2 "a persistent grid is not exported for --arch alone"
expect_in "persistent grid is sized for the device's multiprocessors" "$ERR" "saying why"
expect_in "give them with --compute-units N" "$ERR" "and how to say them"
run_gemmtop export-kernel --backend opencl --compute-units 132 --kernel fast04_streamk --size 1024 --dir "$T_DIR/no7"
expect_rc 2 "--compute-units without --arch is refused"
expect_in "without --arch the device's own count is used" "$ERR" "saying why"
# With the count, the persistent stream-K kernel on mma.sync is exported and nvcc builds it.
run_gemmtop export-kernel --backend cuda --arch sm_90 --compute-units 132 --preset tensor-5-warptile-h100-half-cuda \
   --kernel tensor07_streamk --size 1024x2048x4096 --dir "$T_DIR/cuda-tensor07"
expect_rc 0 "export-kernel --arch sm_90 --compute-units 132 of tensor07_streamk"
expect_in "#define CUS 132" "$(cat "$T_DIR/cuda-tensor07/tensor07_streamk.cu" 2>/dev/null)" "its grid is sized for 132 units"
expect_in "gemm<<<dim3(132, 1, 1)" "$(cat "$T_DIR/cuda-tensor07/tensor07_streamk_launch.cu" 2>/dev/null)" \
   "and the launcher starts 132 work-groups"
builds_with_nvcc "$T_DIR/cuda-tensor07" tensor07_streamk
# FP8 with block scales: the launcher draws a scale per block, as gemmtop lays them out, and
# hands both arrays to the kernel, which is compiled for them.
run_gemmtop export-kernel --backend cuda --arch sm_90 --kernel fp8mma1_scaled --precision e4m3 --scaling block \
   --layout NT --size 1024x512x2048 --dir "$T_DIR/cuda-fp8block"
expect_rc 0 "FP8 with block scales is exported"
blaunch=$(cat "$T_DIR/cuda-fp8block/fp8mma1_scaled_launch.cu" 2>/dev/null)
expect_in "#define GEMM_BLOCK_SCALES 1" "$blaunch" "its launcher draws block scales"
expect_in "#define GEMM_SCALE_OF_A(i, p) ((double)scalesA[(size_t)(i) * GEMM_KB + (size_t)(p) / 128])" "$blaunch" \
   "A's: one per 1x128 slice of a row, M x ceil(K/128)"
expect_in "#define GEMM_SCALE_OF_B(p, j) ((double)scalesB[(size_t)(p) / 128 * GEMM_NB + (size_t)(j) / 128])" "$blaunch" \
   "B's: one per 128x128 block, ceil(K/128) x ceil(N/128)"
expect_in "cudaMalloc((void **)&dsa, nsa * sizeof *dsa)" "$blaunch" "and copies all of them to the GPU"
expect_in "#define GT_SCALE_BLOCK 1" "$(cat "$T_DIR/cuda-fp8block/fp8mma1_scaled.cu" 2>/dev/null)" \
   "the kernel is compiled for block scales"
builds_with_nvcc "$T_DIR/cuda-fp8block" "the block-scaled FP8 export"
run_gemmtop export-kernel --backend hip --arch gfx90a --kernel mygemm03_wpt --size 1024 --dir "$T_DIR/no5"
expect_rc 2 "the HIP backend is refused"
expect_in "the HIP backend's export is not written" "$ERR" "saying which backends export"
run_gemmtop export-kernel --backend opencl --arch sm_90 --kernel mygemm03_wpt --size 1024 --dir "$T_DIR/no6"
expect_rc 2 "--arch with OpenCL is refused"
expect_in "--arch compiles without a device: use it with --backend cuda" "$ERR" "naming the backends that take it"
for d in no1 no2 no3 no5 no6 no7; do [ -e "$T_DIR/$d" ] && wrote="$wrote $d"; done
if [ -z "$wrote" ]; then ok "a refused export writes nothing"; else not_ok "a refused export writes nothing:$wrote" "$(ls -la "$T_DIR")"; fi

# A full disk (a real tmpfs filled to its last page): the cause is named, "No space left on
# device", as the other writers name it (run --out, whose big writes fail the same way),
# not "Input/output error"; no temporary file is left. Mounting needs root.
FULL="$T_DIR/full"
if [ "$(id -u)" = 0 ] && mkdir -p "$FULL" && mount -t tmpfs -o size=64k tmpfs "$FULL" 2>/dev/null; then
   trap 'umount "$FULL" 2>/dev/null; rm -rf "$T_DIR"' EXIT
   head -c 1048576 /dev/zero >"$FULL/fill" 2>/dev/null
   run_gemmtop export-kernel --kernel mygemm03_wpt --size 128 --dir "$FULL/exp"
   expect_rc 1 "export-kernel onto a full disk fails"
   expect_in "mygemm03_wpt.cl: cannot write: No space left on device" "$ERR" "naming the file and the full disk"
   run_gemmtop run --kernel mygemm01_naive --size 256 --reps 1 --out "$FULL/c.npy"
   expect_rc 1 "run --out onto a full disk fails"
   expect_in "c.npy: cannot write: No space left on device" "$ERR" "naming the full disk too"
   case "$(ls -A "$FULL" "$FULL/exp" 2>&1)" in
   *.tmp.*) not_ok "no temporary file is left on the full disk" "$(ls -la "$FULL" "$FULL/exp" 2>&1)" ;;
   *) ok "no temporary file is left on the full disk" ;;
   esac
   umount "$FULL"
else
   ok "a full disk # SKIP mounting a tmpfs needs root"
fi
finish
