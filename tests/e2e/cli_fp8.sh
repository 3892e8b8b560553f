#!/bin/sh
# The FP8 types (e4m3, e5m2) on PoCL: the mma.sync kernel of the fp8 ladder emulated, in
# both formats and both scalings, odd sizes, every layout, alpha and beta; the broken copies
# of tests/kernels/types/types_fp8.cl (a wrong block's scale, a dropped k-slice, a reduced
# accumulator, scales applied twice), which must fail; the refusals; .npy files quantised
# by gemmtop, and FP8 patterns with their scales, against a product computed independently
# in plain Python (its own FP8 decoder and quantiser); the scaling in JSON, CSV and the store.
. "$(dirname "$0")/lib.sh"

GEMMTOP_KERNELS="${GEMMTOP_KERNELS%%:*}:$(cd "$(dirname "$0")/../kernels/types" && pwd)"
export GEMMTOP_KERNELS

verifies() { [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -q '^verify     verified'; }
verdict() { printf '%s\n' "$OUT" | sed -n 's/^verify *//p' | cut -c1-90; }

# The mma.sync kernel, emulated: both formats, both scalings, odd sizes (padded to the
# tiles), the four layouts, alpha and beta; bigger tiles with the 128-deep k step.
for spec in "e4m3 tensor NN 1 0 -m 96 -n 64 -k 160" "e5m2 block NN 1.5 -0.5 -m 70 -n 136 -k 300" \
   "e4m3 block TN 0.75 2 -m 33 -n 65 -k 257" "e5m2 tensor TT -2 0 -m 64 -n 40 -k 130" \
   "e4m3 block NT 1 0.5 -m 64 -n 64 -k 384 --set BK=128 --set BM=128 --set WM=64"; do
   set -- $spec
   prec=$1 scaling=$2 layout=$3 alpha=$4 beta=$5
   shift 5
   run_gemmtop run --kernel fp8mma1_scaled --precision "$prec" --scaling "$scaling" --layout "$layout" \
      --alpha "$alpha" --beta "$beta" "$@" --reps 1 --warmup 0
   if verifies && printf '%s\n' "$OUT" | grep -q "^problem .* $prec $scaling scales  $layout"; then
      ok "fp8mma1_scaled $prec $scaling $layout alpha=$alpha beta=$beta $*: $(verdict)"
   else
      not_ok "fp8mma1_scaled $prec $scaling $layout alpha=$alpha beta=$beta $* (exit $RC)" "$OUT
$ERR"
   fi
done
expect_in "EMULATED" "$OUT" "an emulated FP8 run says so"
expect_in "types      A and B e4m3, multiplied in FP32 (exactly), accumulated in FP32, C float" "$OUT" \
   "the types line names FP8 inputs and FP32 accumulation"

# PROMOTE=0 keeps all of K in the MMA's accumulators: for per-tensor scales only.
run_gemmtop run --kernel fp8mma1_scaled --precision e5m2 --scaling tensor --set PROMOTE=0 --size 128 --reps 1 --warmup 0
if verifies; then ok "PROMOTE=0 with per-tensor scales verifies (emulated: FP32 accumulators)"; else
   not_ok "PROMOTE=0 tensor (exit $RC)" "$OUT
$ERR"; fi
run_gemmtop run --kernel fp8mma1_scaled --precision e4m3 --scaling block --set PROMOTE=0 --size 128
expect_rc 2 "PROMOTE=0 with block scales is refused"
expect_in "PROMOTE=0 is for --scaling tensor" "$ERR" "naming the rule's reason"

# The plain reference kernel verifies; each broken copy fails, in both scalings.
for prec in e4m3 e5m2; do
   for scaling in tensor block; do
      run_gemmtop run --kernel types_fp8 --precision "$prec" --scaling "$scaling" -m 37 -n 133 -k 300 --alpha 0.75 \
         --beta -1.5 --reps 1 --warmup 0
      if verifies; then ok "types_fp8 $prec $scaling verifies: $(verdict)"; else
         not_ok "types_fp8 $prec $scaling (exit $RC)" "$OUT
$ERR"; fi
   done
done
for spec in "1 e4m3 block wrong-block-scale" "1 e5m2 tensor A's-scale-for-B's" "2 e4m3 tensor drops-a-k-slice" \
   "2 e5m2 block drops-a-k-slice" "3 e4m3 tensor reduced-precision-accumulator" \
   "3 e5m2 block reduced-precision-accumulator" "4 e4m3 block scales-twice"; do
   set -- $spec
   run_gemmtop run --kernel types_fp8 --set BUG="$1" --precision "$2" --scaling "$3" -m 37 -n 133 -k 1000 --reps 1 --warmup 0
   if [ "$RC" -eq 1 ] && printf '%s\n' "$OUT" | grep -q '^verify     FAILED'; then
      ok "BUG=$1 $2 $3 ($4) fails: $(verdict)"
   else
      not_ok "BUG=$1 $2 $3 ($4) should fail verification (exit $RC)" "$OUT
$ERR"
   fi
done

# Words that are not a scaling, a kernel that does not take FP8.
run_gemmtop run --kernel types_fp8 --precision e4m3 --scaling row --size 64
expect_rc 2 "--scaling row is a usage error"
expect_in "use tensor (one scale for A and one for B) or block" "$ERR" "naming both scalings"
run_gemmtop run --kernel general_any --precision e5m2 --size 64
expect_rc 2 "general_any --precision e5m2 is refused"
expect_in "kernel general_any does not take e5m2" "$ERR" "naming the kernel"
# A scaling without an FP8 type is refused, not ignored: given as an option or by a preset.
run_gemmtop run --kernel general_any --scaling block --size 64
expect_rc 2 "--scaling block with float is refused"
expect_in "--scaling block is for the FP8 types (--precision e4m3 or e5m2), not float" "$ERR" "naming the types it is for"
run_gemmtop sweep --kernel general_any --precision half --scaling tensor --size 64
expect_rc 2 "sweep --scaling tensor with half is refused"
expect_in "--scaling tensor is for the FP8 types (--precision e4m3 or e5m2), not half" "$ERR" "naming half"
printf 'kernel = general_any\nscaling = block\n' >"$T_DIR/scaled.preset"
run_gemmtop run --preset "$T_DIR/scaled.preset" --size 64
expect_rc 2 "a preset's scaling with float is refused"
expect_in "$T_DIR/scaled.preset: scaling = block is for the FP8 types" "$ERR" "naming the preset"

# The scaling in JSON and CSV, and in the store.
run_gemmtop run --kernel types_fp8 --precision e5m2 --scaling block --size 64 --reps 1 --warmup 0 --format json \
   --store "$T_DIR/fp8.db"
if [ "$(json_field precision)" = e5m2 ] && [ "$(json_field scaling)" = block ] && [ "$(json_field input_type)" = e5m2 ]; then
   ok "JSON: precision e5m2, scaling block, input_type e5m2"
else
   not_ok "JSON fields" "$OUT"
fi
run_gemmtop run --kernel types_fp8 --precision e4m3 --size 64 --reps 1 --warmup 0 --format csv --store "$T_DIR/fp8.db"
if printf '%s\n' "$OUT" | python3 -c 'import csv,sys
r=list(csv.DictReader(sys.stdin))[0]
sys.exit(0 if r["precision"]=="e4m3" and r["scaling"]=="tensor" else 1)'; then
   ok "CSV: precision e4m3, scaling tensor"
else
   not_ok "CSV fields" "$OUT"
fi
stored=$(python3 -c 'import sqlite3,sys
c=sqlite3.connect(sys.argv[1])
print(";".join("%s %s"%r for r in c.execute("SELECT precision, scaling FROM results WHERE origin = ? ORDER BY id", ("run",))))' \
   "$T_DIR/fp8.db" 2>&1)
expect_in "e5m2 block;e4m3 tensor" "$stored" "the store keeps each run's scaling ($stored)"

# .npy: gemmtop's quantising and its FP8 patterns with scales, against plain Python.
cat > "$T_DIR/fp8.py" <<'PY'
import random, struct, sys, ast

FMT = {"e4m3": (3, 7, 448.0, False), "e5m2": (2, 15, 57344.0, True)}

def decode(b, fmt):
    frac, bias, _, ieee = FMT[fmt]
    e, m = (b & 0x7f) >> frac, b & ((1 << frac) - 1)
    emax = (1 << (7 - frac)) - 1
    if ieee and e == emax:
        return float("nan") if m else float("inf")
    if not ieee and e == emax and m == (1 << frac) - 1:
        return float("nan")
    v = m * 2.0 ** (1 - bias - frac) if e == 0 else (m + (1 << frac)) * 2.0 ** (e - bias - frac)
    return -v if b & 0x80 else v

def encode(x, fmt):
    # the nearest finite value, ties to the even pattern, saturated
    best, bd = 0, None
    for b in range(0x80):
        v = decode(b, fmt)
        if v != v or v == float("inf"):
            continue
        d = abs(v - abs(x))
        if bd is None or d < bd or (d == bd and b % 2 == 0):
            best, bd = b, d
    return best | (0x80 if x < 0 else 0)

def write(path, rows, cols, dtype, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (dtype, rows, cols)
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    code = {"<f4": "f", "<f8": "d", "|u1": "B"}[dtype]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode()
                + struct.pack("<%d%s" % (rows * cols, code), *values))

def read(path):
    data = open(path, "rb").read()
    hl = struct.unpack("<H", data[8:10])[0]
    h = ast.literal_eval(data[10:10 + hl].decode())
    rows, cols = h["shape"]
    return rows, cols, struct.unpack("<%df" % (rows * cols), data[10 + hl:])

def scales_of(vals, rows, cols, block, fmt):
    # amax per block of `block` (rows, cols) elements, scale = amax / max rounded up to FP32
    nr, nc = (rows + block[0] - 1) // block[0], (cols + block[1] - 1) // block[1]
    amax = [0.0] * (nr * nc)
    for i in range(rows):
        for j in range(cols):
            b = (i // block[0]) * nc + j // block[1]
            amax[b] = max(amax[b], abs(vals[i * cols + j]))
    out = []
    for a in amax:
        s = struct.unpack("<f", struct.pack("<f", a / FMT[fmt][2]))[0] if a else 1.0
        while s * FMT[fmt][2] < a:
            s = struct.unpack("<f", struct.pack("<I", struct.unpack("<I", struct.pack("<f", s))[0] + 1))[0]
        out.append(s)
    return nr, nc, out

cmd, d, fmt, scaling = sys.argv[1:5]
m, n, k = 24, 40, 300
rnd = random.Random()
if cmd in ("make", "make-fp8"):
    # A (M x K) and B (K x N) with a magnitude per block, so that block scales differ
    A = [rnd.uniform(-1, 1) * 2 ** (((i // 128) % 3) - (i % 3)) for i in range(m * k)]
    B = [rnd.uniform(-1, 1) * 2 ** (((i // 40) // 128) % 4) for i in range(k * n)]
    if cmd == "make":
        write(d + "/a.npy", m, k, "<f4", A)
        write(d + "/b.npy", k, n, "<f4", B)
    else:
        ablk, bblk = ((1, 128), (128, 128)) if scaling == "block" else ((m, k), (k, n))
        ar, ac, sa = scales_of(A, m, k, ablk, fmt)
        br, bc, sb = scales_of(B, k, n, bblk, fmt)
        qa = [encode(A[i * k + j] / sa[(i // ablk[0]) * ac + j // ablk[1]], fmt) for i in range(m) for j in range(k)]
        qb = [encode(B[i * n + j] / sb[(i // bblk[0]) * bc + j // bblk[1]], fmt) for i in range(k) for j in range(n)]
        write(d + "/a8.npy", m, k, "|u1", qa)
        write(d + "/b8.npy", k, n, "|u1", qb)
        write(d + "/sa.npy", ar, ac, "<f4", sa)
        write(d + "/sb.npy", br, bc, "<f4", sb)
elif cmd in ("check", "check-fp8"):
    if cmd == "check":  # quantise the float files the way gemmtop says it does
        A, B = read(d + "/a.npy")[2], read(d + "/b.npy")[2]
        ablk, bblk = ((1, 128), (128, 128)) if scaling == "block" else ((m, k), (k, n))
        ar, ac, sa = scales_of(A, m, k, ablk, fmt)
        br, bc, sb = scales_of(B, k, n, bblk, fmt)
        qa = [encode(A[i * k + j] / sa[(i // ablk[0]) * ac + j // ablk[1]], fmt) for i in range(m) for j in range(k)]
        qb = [encode(B[i * n + j] / sb[(i // bblk[0]) * bc + j // bblk[1]], fmt) for i in range(k) for j in range(n)]
    else:
        data = open(d + "/a8.npy", "rb").read(); qa = list(data[-m * k:])
        data = open(d + "/b8.npy", "rb").read(); qb = list(data[-k * n:])
        ablk, bblk = ((1, 128), (128, 128)) if scaling == "block" else ((m, k), (k, n))
        ac, sa = read(d + "/sa.npy")[1], read(d + "/sa.npy")[2]
        bc, sb = read(d + "/sb.npy")[1], read(d + "/sb.npy")[2]
    Ad = [decode(qa[i * k + j], fmt) * sa[(i // ablk[0]) * ac + j // ablk[1]] for i in range(m) for j in range(k)]
    Bd = [decode(qb[i * n + j], fmt) * sb[(i // bblk[0]) * bc + j // bblk[1]] for i in range(k) for j in range(n)]
    r, c, O = read(d + "/out.npy")
    assert (r, c) == (m, n), "shape %s" % ((r, c),)
    worst = 0.0
    for i in range(m):
        for j in range(n):
            s = sum(Ad[i * k + p] * Bd[p * n + j] for p in range(k))
            mag = sum(abs(Ad[i * k + p] * Bd[p * n + j]) for p in range(k))
            worst = max(worst, abs(O[i * n + j] - s) / mag)
    assert worst < 64 * 2.0 ** -23, "max rel err %g" % worst
    print("max rel err %.3g" % worst)
PY
for spec in "e4m3 block" "e5m2 tensor"; do
   set -- $spec
   python3 "$T_DIR/fp8.py" make "$T_DIR" "$1" "$2"
   run_gemmtop run --kernel fp8mma1_scaled --precision "$1" --scaling "$2" -m 24 -n 40 -k 300 --a "$T_DIR/a.npy" \
      --b "$T_DIR/b.npy" --out "$T_DIR/out.npy" --reps 1 --warmup 0
   expect_in "float32 values quantised to $1 with $2 scales" "$ERR" "float32 .npy files are quantised to $1 ($2), with a note"
   if verifies && msg=$(python3 "$T_DIR/fp8.py" check "$T_DIR" "$1" "$2" 2>&1); then
      ok "$1 $2 from float32 files: C matches Python's own quantising and product ($msg)"
   else
      not_ok "$1 $2 from float32 files (exit $RC): ${msg:-}" "$OUT
$ERR"
   fi
   python3 "$T_DIR/fp8.py" make-fp8 "$T_DIR" "$1" "$2"
   run_gemmtop run --kernel fp8mma1_scaled --precision "$1" --scaling "$2" -m 24 -n 40 -k 300 --a "$T_DIR/a8.npy" \
      --a-scale "$T_DIR/sa.npy" --b "$T_DIR/b8.npy" --b-scale "$T_DIR/sb.npy" --out "$T_DIR/out.npy" --reps 1 --warmup 0
   if verifies && msg=$(python3 "$T_DIR/fp8.py" check-fp8 "$T_DIR" "$1" "$2" 2>&1); then
      ok "$1 $2 from FP8 patterns and scales: C matches Python's product ($msg)"
   else
      not_ok "$1 $2 from FP8 patterns and scales (exit $RC): ${msg:-}" "$OUT
$ERR"
   fi
done

# What is refused, named: patterns without scales, scales for a float file or a float type,
# scales of the wrong shape or sign, a NaN pattern, uint8 for a float type.
FP8="--kernel types_fp8 --precision e5m2 --scaling tensor -m 24 -n 40 -k 300"
run_gemmtop run $FP8 --a "$T_DIR/a8.npy" --b "$T_DIR/b8.npy"
expect_rc 2 "FP8 patterns without their scales are refused"
expect_in "their scales are needed too, --a-scale FILE.npy of shape (1, 1)" "$ERR" "naming --a-scale and its shape"
run_gemmtop run $FP8 --a "$T_DIR/a.npy" --a-scale "$T_DIR/sa.npy"
expect_rc 2 "--a-scale with a float32 A is refused"
expect_in "which gemmtop quantises with scales of its own" "$ERR" "saying gemmtop computes those"
run_gemmtop run --kernel general_any --size 64 --a-scale "$T_DIR/sa.npy" --a "$T_DIR/a.npy"
expect_rc 2 "--a-scale with --precision float is refused"
expect_in "is for the FP8 types" "$ERR" "naming the types it is for"
run_gemmtop run $FP8 --scaling block --a "$T_DIR/a8.npy" --a-scale "$T_DIR/sa.npy" --b "$T_DIR/b8.npy" --b-scale "$T_DIR/sb.npy"
expect_rc 2 "per-tensor scales for block scaling are refused"
expect_in "block scaling of this problem needs float32 of shape (24, 3)" "$ERR" "naming the shape needed"
python3 - "$T_DIR" <<'PY'
import struct, sys
d = sys.argv[1]
def write(path, rows, cols, dtype, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (dtype, rows, cols)
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    code = {"<f4": "f", "<f8": "d", "|u1": "B"}[dtype]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode()
                + struct.pack("<%d%s" % (rows * cols, code), *values))
write(d + "/neg.npy", 1, 1, "<f4", [-0.5])
write(d + "/subnormal.npy", 1, 1, "<f4", [1e-45])
write(d + "/huge.npy", 1, 1, "<f8", [1e300])
write(d + "/tenth.npy", 1, 1, "<f8", [0.1])
write(d + "/half.npy", 1, 1, "<f8", [0.5])
write(d + "/small.npy", 1, 1, "<f4", [1e-30])
write(d + "/nan8.npy", 24, 300, "|u1", [0x3c if i != 77 else 0x7f for i in range(24 * 300)])
PY
run_gemmtop run $FP8 --a "$T_DIR/a8.npy" --a-scale "$T_DIR/neg.npy"
expect_rc 2 "a negative scale is refused"
expect_in "a scale must be a finite positive float" "$ERR" "saying what a scale must be"
# Scales are FP32: a subnormal one (1e-45) leaves its values with a few bits, a GPU may
# flush them: refused, not run and every entry blamed on the kernel; one beyond float32
# says it overflows float32 (not "not finite"); float64 scales are rounded with a note.
run_gemmtop run $FP8 --a "$T_DIR/a8.npy" --a-scale "$T_DIR/subnormal.npy" --b "$T_DIR/b8.npy" --b-scale "$T_DIR/sb.npy"
expect_rc 2 "a subnormal float32 scale (1e-45) is refused"
expect_in "element (0, 0) is 1.4013e-45, below float32's smallest normal value (1.18e-38)" "$ERR" \
   "saying it is below float32's normal range"
expect_in "scale the operands up" "$ERR" "and what to do"
case "$OUT$ERR" in *"wrong result"*|*FAILED*) not_ok "the subnormal scale is not blamed on the kernel" "$OUT$ERR" ;;
   *) ok "the subnormal scale is not blamed on the kernel" ;; esac
run_gemmtop run $FP8 --a "$T_DIR/a8.npy" --a-scale "$T_DIR/huge.npy" --b "$T_DIR/b8.npy" --b-scale "$T_DIR/sb.npy"
expect_rc 2 "a float64 scale of 1e300 is refused"
expect_in "element (0, 0) is 1e+300, beyond float32's largest value (3.4e+38): scales are float32, which it overflows" \
   "$ERR" "saying it overflows float32"
run_gemmtop run $FP8 --a "$T_DIR/a8.npy" --a-scale "$T_DIR/tenth.npy" --b "$T_DIR/b8.npy" --b-scale "$T_DIR/half.npy" \
   --reps 1 --warmup 0
if verifies; then ok "float64 scales run and verify"; else not_ok "float64 scales (exit $RC)" "$OUT
$ERR"; fi
expect_in "--a-scale $T_DIR/tenth.npy: float64 scales read as float32, the type kernels take: 1 of 1 rounded, by at most" \
   "$ERR" "the rounding of 0.1 to float32 is said"
expect_in "--b-scale $T_DIR/half.npy: float64 scales read as float32, the type kernels take: every scale fits exactly" \
   "$ERR" "and that 0.5 fits exactly"
# Normal scales whose products still underflow FP32 (1e-30 * 1e-30): refused, scale up.
run_gemmtop run $FP8 --a "$T_DIR/a8.npy" --a-scale "$T_DIR/small.npy" --b "$T_DIR/b8.npy" --b-scale "$T_DIR/small.npy"
expect_rc 2 "scales whose products underflow float are refused"
expect_in "the inputs underflow float" "$ERR" "saying so"
expect_in "scale them up" "$ERR" "and what to do"
run_gemmtop run $FP8 --a "$T_DIR/nan8.npy" --a-scale "$T_DIR/sa.npy"
expect_rc 2 "a NaN pattern of e5m2 is refused"
expect_in "element (0, 77) is the pattern 0x7f, NaN in e5m2" "$ERR" "naming the element and the pattern"
run_gemmtop run --kernel types_scalar --precision half -m 24 -n 40 -k 300 --a "$T_DIR/a8.npy"
expect_rc 2 "uint8 patterns for half are refused"
expect_in "uint8 values are read as FP8 patterns" "$ERR" "saying what uint8 files are for"

finish
