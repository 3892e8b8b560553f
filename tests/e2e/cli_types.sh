#!/bin/sh
# The tensor-core element types (tf32, half, bfloat16; FP32 accumulation and C) on PoCL,
# with the test kernels of tests/kernels/types/: a scalar GEMM that must verify at odd
# sizes with alpha and beta in every layout, and copies of it that skip a k-step, round
# wrongly or read a wrong element, which must fail; a padded one for the helper kernels;
# a `tensor: yes` one that must be labelled emulated here. Also: the refusal of a type a
# kernel does not list, the JSON and CSV type fields, .npy files of float16 and of float32
# rounded to bfloat16 against a product computed in Python, and the CUDA compile of the
# same kernels through NVRTC (skipped where it is not installed).
. "$(dirname "$0")/lib.sh"

# The shipped kernels (the first folder of GEMMTOP_KERNELS), then the test ones.
GEMMTOP_KERNELS="${GEMMTOP_KERNELS%%:*}:$(cd "$(dirname "$0")/../kernels/types" && pwd)"
export GEMMTOP_KERNELS
SIZE="-m 37 -n 29 -k 19"

# The right kernel verifies in each type, layout and with alpha and beta.
for spec in "tf32 NN 0.75 -1.5" "half TN 0.75 -1.5" "bfloat16 TT -2 0.5" "half NT 1 0"; do
   set -- $spec
   run_gemmtop run --kernel types_scalar $SIZE --precision "$1" --layout "$2" --alpha "$3" --beta "$4" --reps 1 --warmup 0
   if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -q '^verify     verified'; then
      ok "types_scalar $1 $2 alpha=$3 beta=$4 verifies: $(printf '%s\n' "$OUT" | sed -n 's/^verify *//p')"
   else
      not_ok "types_scalar $1 $2 alpha=$3 beta=$4 (exit $RC)" "$OUT
$ERR"
   fi
done

# Each broken copy fails verification (exit 1) in the types it breaks.
for spec in "1 half skips-a-k-step" "2 tf32 cuts-to-bfloat16-instead-of-TF32" "2 half cuts-to-bfloat16-after-decoding" \
   "2 bfloat16 rounds-each-product-again" "3 bfloat16 reads-a-wrong-element-of-A" "3 tf32 reads-a-wrong-element-of-A"; do
   set -- $spec
   run_gemmtop run --kernel types_scalar --set BUG="$1" $SIZE --precision "$2" --alpha 0.75 --beta -1.5 --reps 1 --warmup 0
   if [ "$RC" -eq 1 ] && printf '%s\n' "$OUT" | grep -q '^verify     FAILED'; then
      ok "BUG=$1 $2 ($3) fails: $(printf '%s\n' "$OUT" | sed -n 's/^verify *//p' | cut -c1-90)"
   else
      not_ok "BUG=$1 $2 ($3) should fail verification (exit $RC)" "$OUT
$ERR"
   fi
done

# Padding and transposition of 16-bit operands (gt_copy_pad_in), C padded and unpadded.
run_gemmtop run --kernel types_padded $SIZE --precision half --layout TN --alpha 0.5 --beta 2 --reps 1 --warmup 0
expect_rc 0 "types_padded half TN beta=2 (A padded and transposed as half)"
expect_in "pad+transpose A" "$OUT" "the 16-bit A went through the pad+transpose helper"
expect_in "verify     verified" "$OUT" "and the result verifies"

# A type a kernel does not list is refused before compiling, naming the kernel and its types.
run_gemmtop run --kernel general_any --size 64 --precision half
expect_rc 2 "general_any --precision half is refused"
expect_in "kernel general_any does not take half: it takes float, double" "$ERR" "the refusal names the kernel and its types"
run_gemmtop run --kernel types_scalar --size 64 --precision float
expect_rc 2 "types_scalar --precision float is refused"
expect_in "it takes tf32, half, bfloat16" "$ERR" "the refusal lists what it takes"
run_gemmtop run --kernel general_any --size 64 --precision fp4
expect_rc 2 "--precision fp4 is a usage error"
expect_in "use float, double, tf32, half, bfloat16, e4m3 or e5m2" "$ERR" "naming the valid types"

# The types in JSON and CSV.
run_gemmtop run --kernel types_scalar $SIZE --precision tf32 --layout NN --alpha 0.75 --beta -1.5 --reps 1 --format json
types="$(json_field input_type) $(json_field compute_type) $(json_field output_type) $(json_field emulated)"
[ "$types" = "float tf32 float false" ] && ok "JSON of a tf32 run: input_type, compute_type, output_type, emulated = $types" ||
   not_ok "JSON types of a tf32 run: $types" "$OUT"
run_gemmtop run --kernel types_scalar $SIZE --precision bfloat16 --layout TT --alpha -2 --beta 0.5 --reps 1 --format csv
# The type columns by name (the driver's readings follow them), read as CSV.
types=$(printf '%s\n' "$OUT" | python3 -c 'import csv,sys
r = list(csv.DictReader(sys.stdin))[-1]
print(" ".join(r.get(c, "MISSING") for c in ("input_type", "compute_type", "output_type", "emulated")))')
[ "$types" = "bfloat16 float float false" ] && ok "CSV of a bfloat16 run names its types: $types" ||
   not_ok "CSV type columns of a bfloat16 run: $types" "$OUT"

# A tensor kernel without tensor cores (PoCL) is verified but labelled emulated, and neither
# compared with the vendor library nor ranked.
run_gemmtop run --kernel types_tensor_stub $SIZE --precision half --alpha 0.75 --beta -1.5 --reps 1 --warmup 0 --vendor
expect_rc 0 "types_tensor_stub half runs and verifies on PoCL"
expect_in "EMULATED   no tensor cores here" "$OUT" "the table says it is emulated"
expect_in "--vendor ignored: an emulated tensor kernel" "$ERR" "and does not compare it with the vendor BLAS"
run_gemmtop run --kernel types_tensor_stub $SIZE --precision half --alpha 0.75 --beta -1.5 --reps 1 --warmup 0 --vendor \
   --format json
[ "$(json_field emulated)" = true ] && ok "JSON: \"emulated\": true" || not_ok "JSON emulated" "$OUT"
case "$OUT" in *'"vendor"'* | *pct_of_peak*) not_ok "an emulated run names a vendor or a peak" "$OUT" ;;
*) ok "JSON of an emulated run has no vendor and no % of peak" ;; esac
run_gemmtop sweep --kernel types_tensor_stub $SIZE --precision half --budget 2 --reps 1 --warmup 0 --save-presets 1
expect_rc 0 "a sweep of the emulated kernel runs"
expect_in "EMULATED: no tensor cores" "$OUT" "the sweep says it is emulated"
case "$OUT" in *"rank "*) not_ok "an emulated sweep is ranked" "$OUT" ;; *) ok "and does not rank it" ;; esac
expect_in "--save-presets ignored: an emulated sweep is not ranked" "$ERR" "nor saves its 'best' as presets"

# .npy: half from a float16 file, bfloat16 from float32 (rounded, and said so), C from
# float32; --out is float32; Python computes the product of the rounded values.
cat > "$T_DIR/npy16.py" <<'PY'
import random, struct, sys, ast

def write(path, rows, cols, dtype, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (dtype, rows, cols)
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    code = {"<f2": "e", "<f4": "f"}[dtype]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode()
                + struct.pack("<%d%s" % (rows * cols, code), *values))

def read(path):
    data = open(path, "rb").read()
    hl = struct.unpack("<H", data[8:10])[0]
    h = ast.literal_eval(data[10:10 + hl].decode())
    code = {"<f2": "e", "<f4": "f"}[h["descr"]]
    r, c = h["shape"]
    return h["descr"], struct.unpack("<%d%s" % (r * c, code), data[10 + hl:])

def bf16(x):  # float32 to bfloat16, to nearest even, by the bits
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    u = (u + 0x7fff + ((u >> 16) & 1)) & 0xffff0000
    return struct.unpack("<f", struct.pack("<I", u))[0]

cmd, d, prec, m, n, k = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
if cmd == "make":
    rnd = random.Random()
    adt = "<f2" if prec == "half" else "<f4"
    write(d + "/a.npy", m, k, adt, [rnd.uniform(-1, 1) for _ in range(m * k)])
    write(d + "/b.npy", k, n, "<f4", [rnd.uniform(-1, 1) for _ in range(k * n)])
    write(d + "/c.npy", m, n, "<f4", [rnd.uniform(-1, 1) for _ in range(m * n)])
else:
    alpha, beta = float(sys.argv[7]), float(sys.argv[8])
    _, A = read(d + "/a.npy"); _, B = read(d + "/b.npy"); _, C = read(d + "/c.npy")
    dt, O = read(d + "/out.npy")
    assert dt == "<f4", "C written as %s" % dt
    if prec == "half":  # A is float16 already; B (float32) rounds to half
        B = [struct.unpack("<e", struct.pack("<e", v))[0] for v in B]
    else:
        A = [bf16(v) for v in A]; B = [bf16(v) for v in B]
    worst = 0.0
    for i in range(m):
        for j in range(n):
            s = sum(A[i * k + p] * B[p * n + j] for p in range(k))
            mag = sum(abs(A[i * k + p] * B[p * n + j]) for p in range(k))
            ref = alpha * s + beta * C[i * n + j]
            worst = max(worst, abs(O[i * n + j] - ref) / (abs(alpha) * mag + abs(beta * C[i * n + j])))
    assert worst < 64 * 2.0 ** -23, "max rel err %g" % worst
    print("max rel err %.3g" % worst)
PY
for prec in half bfloat16; do
   python3 "$T_DIR/npy16.py" make "$T_DIR" "$prec" 37 29 19
   run_gemmtop run --kernel types_scalar $SIZE --precision "$prec" --alpha 0.75 --beta -1.5 --a "$T_DIR/a.npy" \
      --b "$T_DIR/b.npy" --c "$T_DIR/c.npy" --out "$T_DIR/out.npy" --reps 1 --warmup 0
   if [ "$RC" -ne 0 ]; then
      not_ok "npy $prec run (exit $RC)" "$OUT
$ERR"
      continue
   fi
   expect_in "--b $T_DIR/b.npy: float32 values rounded to $prec (round to nearest even" "$ERR" \
      "npy $prec: the rounding of B's float32 values is said"
   if [ "$prec" = half ]; then
      case "$ERR" in *"--a "*) not_ok "a float16 A for half is not rounded, so not noted" "$ERR" ;;
      *) ok "npy half: A from a float16 file is taken as it is" ;; esac
   else
      expect_in "--a $T_DIR/a.npy: float32 values rounded to bfloat16" "$ERR" "npy bfloat16: and A's"
   fi
   msg=$(python3 "$T_DIR/npy16.py" check "$T_DIR" "$prec" 37 29 19 0.75 -1.5 2>&1) &&
      ok "npy $prec: --out (float32) matches Python's product of the rounded inputs ($msg)" || not_ok "npy $prec" "$msg"
done

# The same kernels through NVRTC: the CUDA side of the prelude (in_t, IN_TO_FLOAT with the
# PTX conversion for half) and GT_TENSOR_PTX on sm_80+ only.
if have_nvrtc; then
   for prec in tf32 bfloat16 half; do
      run_gemmtop inspect --backend cuda --arch sm_90 --kernel types_scalar --precision "$prec" --size 64 --code ptx
      expect_rc 0 "types_scalar $prec compiles for cuda sm_90"
   done
   expect_in "cvt.f32.f16" "$OUT" "half reaches float through the PTX conversion"
   run_gemmtop inspect --backend cuda --arch sm_90 --kernel types_tensor_stub --precision tf32 --size 64 --code ptx
   expect_in "cvt.rna.tf32.f32" "$OUT" "a tensor kernel gets GT_TENSOR_PTX=1 on sm_90 (inline PTX in its code)"
   run_gemmtop inspect --backend cuda --arch sm_75 --kernel types_tensor_stub --precision tf32 --size 64 --code ptx
   case "$OUT" in *cvt.rna.tf32*) not_ok "GT_TENSOR_PTX on sm_75" "$OUT" ;;
   *) [ "$RC" -eq 0 ] && ok "and not on sm_75 (no tensor-core PTX there)" || not_ok "sm_75 (exit $RC)" "$ERR" ;; esac
else
   ok "the types through NVRTC # SKIP $(nvrtc_missing)"
fi
finish
