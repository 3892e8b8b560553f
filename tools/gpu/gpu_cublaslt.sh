#!/bin/sh
# On the GPU machine, after tools/gpu/gpu_setup.sh: cuBLASLt's FP8 GEMM as gemmtop's vendor
# reference (docs/fp8.md), its first run. Under a minute on the H200. Every step runs
# whatever the one before it did; each failure is recorded, not fatal.
#   1. gemmtop run --vendor through CUDA: e4m3 and e5m2, per-tensor and block scales, FP32
#      and bfloat16 C, at 4096 and 8192 (layout NT, the one cuBLASLt's FP8 takes; the
#      kernel beside it is fp8mma1_scaled, not verified here: this is cuBLASLt's check, and
#      cuBLASLt's own C is verified); cuBLASLt's name, note, TFLOPS, verdict or refusal.
#      The inputs are fresh random FP8 patterns and scales in .npy files, one set a case.
#   2. layout NN (gemmtop transposes B for cuBLASLt first: the note says so) and an odd M
#      (1001: the padding of the 1x128 scales' rows), both verified.
#   3. torch._scaled_mm beside it, e4m3 per-tensor (and block-wise where this PyTorch takes
#      it), bfloat16 and FP32 C, same sizes: an independent figure for cuBLASLt.
#   4. TF32: the tf32 vendor note (gemmtop run --vendor --precision tf32), and how cuBLAS's
#      cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32 (the call gemmtop makes) rounds FP32
#      inputs, probed through ctypes on inputs between two TF32 values.
# Usage: sh tools/gpu/gpu_cublaslt.sh [DIR]   (DIR defaults to $OUT): writes DIR/cublaslt.txt
# (everything) and prints a short table last. A stand-in run elsewhere (PoCL: the FP8
# kernel emulated, so no vendor figure; the steps, files and table are the same):
#   GPU_CUBLASLT_BACKEND=opencl GPU_CUBLASLT_SIZES="64 128" GPU_CUBLASLT_ODD_M=65 \
#      sh tools/gpu/gpu_cublaslt.sh /tmp/x
B=${GEMMTOP_BIN:-build/gemmtop}
out=${1:-${OUT:-.}}
be=${GPU_CUBLASLT_BACKEND:-cuda}
sizes=${GPU_CUBLASLT_SIZES:-4096 8192}
odd=${GPU_CUBLASLT_ODD_M:-1001}
mkdir -p "$out"
work=$(mktemp -d)
log="$work/log.txt"
: >"$log"
# gm NAME ARGS...: one gemmtop command, its JSON in $work/NAME.json, its stderr and exit code beside.
gm() {
   name=$1
   shift
   echo "### gemmtop $*" >>"$log"
   timeout 120 "$B" "$@" >"$work/$name.json" 2>"$work/$name.err"
   echo $? >"$work/$name.rc"
   cat "$work/$name.json" "$work/$name.err" >>"$log"
}
first=${sizes%% *}
# inputs PREC SCALING M N K DIR: fresh FP8 patterns (every finite one alike) and FP32 scales
# as .npy files in DIR (A stored M x K, B N x K: layout NT). Made from os.urandom in a
# moment, where gemmtop's own quantiser takes seconds at 8192 and would be paid again by
# every run; gemmtop reads them as FP8 patterns with their scales (docs/fp8.md).
inputs() {
   python3 - "$@" <<'PY'
import os, random, struct, sys
prec, scaling, m, n, k, d = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
os.makedirs(d, exist_ok=True)
def npy(path, descr, shape, data):
    head = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (descr, shape[0], shape[1])
    head += " " * (63 - (10 + len(head)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode() + data)
# NaN (and for e5m2 the infinities) become zero: every other pattern stays.
bad = [0x7f, 0xff] if prec == "e4m3" else list(range(0x7c, 0x80)) + list(range(0xfc, 0x100))
table = bytes(0 if b in bad else b for b in range(256))
npy(d + "/a.npy", "|u1", (m, k), os.urandom(m * k).translate(table))
npy(d + "/b.npy", "|u1", (n, k), os.urandom(n * k).translate(table))
kb, nb = (k + 127) // 128, (n + 127) // 128
sa, sb = ((m, kb), (kb, nb)) if scaling == "block" else ((1, 1), (1, 1))
rnd = random.Random(os.urandom(16))
for name, shape in (("sa", sa), ("sb", sb)):  # 2^-6 .. 2^-2 times [1, 2): block to block apart
    vals = [rnd.uniform(1, 2) * 2.0 ** rnd.randint(-6, -2) for _ in range(shape[0] * shape[1])]
    npy(d + "/%s.npy" % name, "<f4", shape, struct.pack("<%df" % len(vals), *vals))
PY
}
# files DIR: the options that read them.
files() { echo "--a $1/a.npy --b $1/b.npy --a-scale $1/sa.npy --b-scale $1/sb.npy"; }
for n in $sizes; do
   for prec in e4m3 e5m2; do
      for sc in tensor block; do
         d="$work/in-$prec-$sc-$n"
         inputs "$prec" "$sc" "$n" "$n" "$n" "$d" >>"$log" 2>&1
         for c in float bfloat16; do
            # shellcheck disable=SC2046 # files gives separate words
            gm "run-$prec-$sc-$n-$c" run --backend "$be" --kernel fp8mma1_scaled --precision "$prec" --scaling "$sc" \
               --size "$n" --layout NT $(files "$d") --vendor --vendor-output "$c" --no-verify --reps 10 --warmup 2 \
               --no-store --format json
         done
         rm -rf "$d"
      done
   done
done
# Layout NN: B stored K x N, which gemmtop transposes for cuBLASLt (the note says so).
d="$work/in-nn"
inputs e4m3 tensor "$first" "$first" "$first" "$d" >>"$log" 2>&1
python3 - "$d" "$first" <<'PY' >>"$log" 2>&1
import sys
d, n = sys.argv[1], int(sys.argv[2])
with open(d + "/b.npy", "rb") as f:
    raw = f.read()
head = raw[:len(raw) - n * n]
b = raw[len(head):]
t = bytearray(n * n)
for j in range(n):  # B (N x K) into its transpose (K x N)
    t[j::n] = b[j * n:(j + 1) * n]
with open(d + "/b.npy", "wb") as f:
    f.write(head + bytes(t))
PY
# shellcheck disable=SC2046
gm layout-NN run --backend "$be" --kernel fp8mma1_scaled --precision e4m3 --scaling tensor --size "$first" --layout NN \
   $(files "$d") --vendor --no-verify --reps 5 --no-store --format json
rm -rf "$d"
for sc in tensor block; do
   d="$work/in-odd-$sc"
   inputs e4m3 "$sc" "$odd" "$first" "$first" "$d" >>"$log" 2>&1
   # shellcheck disable=SC2046
   gm "odd-m-$sc" run --backend "$be" --kernel fp8mma1_scaled --precision e4m3 --scaling "$sc" -m "$odd" -n "$first" \
      -k "$first" --layout NT $(files "$d") --vendor --no-verify --reps 5 --no-store --format json
   rm -rf "$d"
done
gm tf32 run --backend "$be" --preset tensor-5-warptile-h100-tf32 --size "$first" --vendor --reps 5 --no-store \
   --format json

# 3 and 4: PyTorch and cuBLAS itself, on the same GPU.
python3 - "$sizes" >"$work/torch.txt" 2>&1 <<'PY'
import ctypes, statistics, sys
try:
    import torch
except Exception as e:
    print("torch: not available (%s)" % e); sys.exit(0)
if not torch.cuda.is_available():
    print("torch: no CUDA device"); sys.exit(0)
print("torch %s (CUDA %s) on %s" % (torch.__version__, torch.version.cuda, torch.cuda.get_device_name()))
def median_ms(fn, reps=10):
    for _ in range(3):
        fn()
    t = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); e.synchronize()
        t.append(s.elapsed_time(e))
    return statistics.median(t)
for n in [int(x) for x in sys.argv[1].split()]:
    a = (torch.rand(n, n, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
    b = (torch.rand(n, n, device="cuda") * 2 - 1).to(torch.float8_e4m3fn).t()  # column-major: K-major B
    one = torch.ones((), device="cuda")
    # DeepGEMM's blocks as PyTorch checks them: A's 1x128 scales M x K/128, M-major; B's
    # 128x128 ones K/128 x N/128 with K/128 contiguous.
    blocks = {"tensor": (one, one),
              "block": ((torch.rand(n // 128, n, device="cuda") + 0.5).t(),
                        (torch.rand(n // 128, n // 128, device="cuda") + 0.5).t())}
    short = []
    for scaling, (sa, sb) in blocks.items():
        for out, tag in ((torch.bfloat16, "bf16 C"), (torch.float32, "FP32 C")):
            try:
                ms = median_ms(lambda: torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=out))
                print("  torch._scaled_mm e4m3 %-6s %s %5d: %8.3f ms %8.1f TFLOPS" % (
                    scaling, tag, n, ms, 2 * n ** 3 / ms / 1e9))
                short.append("%s %s %.0f" % (scaling, tag, 2 * n ** 3 / ms / 1e9))
            except Exception as e:
                print("  torch._scaled_mm e4m3 %-6s %s %5d: refused: %s" % (scaling, tag, n, str(e).splitlines()[0][:160]))
                short.append("%s %s refused" % (scaling, tag))
    print("torch._scaled_mm e4m3 %5d TFLOPS: %s" % (n, ", ".join(short)))
# cuBLAS's FAST_TF32, as gemmtop calls it (cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
# default math mode), on A = x everywhere, B = 1: C / K is x as the tensor cores took it.
lib = None
for name in ("libcublas.so.13", "/usr/local/cuda/lib64/libcublas.so.13", "libcublas.so"):
    try:
        lib = ctypes.CDLL(name); break
    except OSError:
        pass
if lib is None:
    print("tf32 probe: libcublas not found"); sys.exit(0)
h = ctypes.c_void_p()
ver = ctypes.c_int()
if lib.cublasCreate_v2(ctypes.byref(h)) != 0:
    print("tf32 probe: cublasCreate failed"); sys.exit(0)
lib.cublasGetVersion_v2(h, ctypes.byref(ver))
m = nn = 2048
k = 256
u = 2.0 ** -10  # TF32's unit in the last place at 1
off = {}
for label, x in (("1 + 0.75 ulp", 1 + 0.75 * u), ("1 + 0.5 ulp", 1 + 0.5 * u), ("-(1 + 0.75 ulp)", -(1 + 0.75 * u))):
    A = torch.full((k, m), x, device="cuda", dtype=torch.float32)   # column-major m x k
    Bm = torch.ones((nn, k), device="cuda", dtype=torch.float32)   # column-major k x n
    C = torch.zeros((nn, m), device="cuda", dtype=torch.float32)
    alpha, beta = ctypes.c_float(1), ctypes.c_float(0)
    torch.cuda.synchronize()
    st = lib.cublasGemmEx(h, 0, 0, m, nn, k, ctypes.byref(alpha), ctypes.c_void_p(A.data_ptr()), 0, m,
                          ctypes.c_void_p(Bm.data_ptr()), 0, k, ctypes.byref(beta), ctypes.c_void_p(C.data_ptr()), 0, m,
                          77, -1)
    torch.cuda.synchronize()
    r = C[0, 0].item() / k if st == 0 else float("nan")
    off[label] = (abs(r) - 1) / u  # ulps above 1 in magnitude that the input kept
    print("  tf32 probe: cuBLAS %d GemmEx FAST_TF32 took %s as %s(1 + %.3f ulp), status %d" % (
        ver.value, label, "-" if r < 0 else "", off[label], st))
up, tie, neg = off["1 + 0.75 ulp"], off["1 + 0.5 ulp"], off["-(1 + 0.75 ulp)"]
mode = ("toward zero (the 13 low bits dropped)" if (up, tie, neg) == (0, 0, 0) else
        "toward minus infinity" if (up, neg) == (0, 1) else
        "to nearest, ties to even" if (up, tie, neg) == (1, 0, 1) else
        "to nearest, ties away from zero (as cvt.rna)" if (up, tie, neg) == (1, 1, 1) else
        "unclear (see the probe lines)")
print("tf32 rounding: cuBLAS %d cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32 rounds FP32 inputs %s" % (ver.value, mode))
PY
cat "$work/torch.txt" >>"$log"

python3 - "$work" "$sizes" >"$work/table.txt" 2>&1 <<'PY'
import json, os, sys
work, sizes = sys.argv[1], sys.argv[2].split()
def text(name, ext):
    try:
        with open(os.path.join(work, name + ext)) as f:
            return f.read().strip()
    except OSError:
        return ""
def load(name):
    try:
        return json.loads(text(name, ".json").splitlines()[0])
    except Exception:
        rc, err = text(name, ".rc"), text(name, ".err").splitlines()
        why = "timed out after 120 s" if rc == "124" else err[-1] if err else "no output (exit %s)" % rc
        return {"error": why[:150]}
def cell(r):
    if "error" in r:
        return "gemmtop failed: " + r["error"][:60]
    if "vendor" not in r:
        return "no vendor figure (%s)" % ("emulated kernel" if r.get("emulated") else r.get("status", "?"))
    if r.get("vendor_status") == "ok":
        return "%.1f%s" % (r["vendor_gflops"] / 1000, "" if r.get("vendor_verified") else " NOT VERIFIED")
    return "%s: %s" % (r.get("vendor_status"), r.get("vendor_message", "")[:70])
name = ""
print("cuBLASLt FP8 through gemmtop run --vendor (layout NT), TFLOPS and cuBLASLt's own C verified:")
for n in sizes:
    for prec in ("e4m3", "e5m2"):
        for sc in ("tensor", "block"):
            cells = []
            for c, tag in (("float", "FP32 C"), ("bfloat16", "bf16 C")):
                r = load("run-%s-%s-%s-%s" % (prec, sc, n, c))
                name = r.get("vendor", name) if r.get("vendor_status") == "ok" else name
                cells.append("%s %s" % (tag, cell(r)))
            print(" %-4s %-6s %5s  %s | %s" % (prec, sc, n, cells[0], cells[1]))
for label, f in (("layout NN", "layout-NN"), ("odd M, tensor", "odd-m-tensor"), ("odd M, block", "odd-m-block")):
    r = load(f)
    moved = " (B transposed first)" if "B transposed" in r.get("vendor_note", "") else ""
    print(" %-14s %s%s" % (label, cell(r), moved))
r = load("tf32")
print("tf32 vendor%s: %s" % ((" " + r["vendor"]) if r.get("vendor") else "", cell(r)))
if name:
    print("library: %s" % name)
PY
{
   cat "$work/table.txt"
   grep -E "^torch|^tf32 rounding" "$work/torch.txt"
} >"$work/short.txt"
{
   echo "# tools/gpu/gpu_cublaslt.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), backend $be, sizes $sizes"
   nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader 2>&1 | head -2
   echo "## short table"
   cat "$work/short.txt"
   echo "## everything"
   cat "$log"
} >"$out/cublaslt.txt"
rm -rf "$work"
sed -n '/^## short table$/,/^## everything$/p' "$out/cublaslt.txt" | sed '1d;$d'
