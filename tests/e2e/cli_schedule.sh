#!/bin/sh
# Scheduling kernels on PoCL: split-K (fast03_splitk, and tensor06_splitk on emulated tensor
# cores in half, bfloat16 and tf32), stream-K / persistent (fast04_streamk, and
# tensor07_streamk on emulated tensor cores), and small M: swap-AB on emulated mma.sync
# (tensor08_swapab), the decode kernels (fast05_decode, tensor09_decode), memory-bound by design (their runs
# against the measured copy bandwidth). Every configuration verified on odd and skinny shapes
# with alpha and beta, in float and double and transposed layouts; the fix-up launch there exactly when the
# configuration needs one (its time reported, part of the GEMM's); C checked against an
# independent product computed here in plain Python from .npy files; the same bits on a second
# run (the fix-up adds in a fixed order); planted bugs in the fix-ups (a plane dropped, the
# wrong slot, a K step lost at each share's end) fail verification; export-kernel writes both
# launches, and its launcher verifies (and fails a broken fix-up) from the files alone, the
# decode kernel's too. Where cases take the same code in gemmtop with other values (split
# counts, units, the planted bugs, which kernel's bits repeat or is exported), the sanitizer
# pass checks some (sanitizer_keeps, lib.sh): SPLIT 1 and 3, a persistent and a stream-K
# grid, four planted bugs (one a kind), one kernel's repeated bits in each loop, the
# stream-K export with its broken fix-up; everything else in both passes.
. "$(dirname "$0")/lib.sh"

SMALL="--set BM=64 --set BN=64 --set WM=32 --set WN=32"

# run_json ARGS...: one verified run; FIELDS gets "status verified fixup workspace".
run_json() {
   run_gemmtop run "$@" --reps 1 --warmup 0 --format json
   FIELDS=$(printf '%s\n' "$OUT" | head -1 | python3 -c 'import json,sys
d=json.loads(sys.stdin.readline())
print(d["status"], d["verified"], "fixup" if d.get("fixup_ms",0)>0 else "nofixup", d.get("workspace_bytes",0))' 2>&1)
}

# check_config WANT_FIXUP(yes|no) WHAT ARGS...
check_config() {
   want=$1
   what=$2
   shift 2
   run_json "$@"
   case "$want:$FIELDS" in
   "yes:ok True fixup "[1-9]* | "no:ok True nofixup 0")
      ok "$what: verified, $(printf '%s' "$FIELDS" | cut -d' ' -f3-)" ;;
   *) not_ok "$what (exit $RC): $FIELDS" "$OUT
$ERR" ;;
   esac
}

# Split-K: SPLIT 1 (no workspace, no fix-up) to 8, an odd and a skinny long-K shape.
for sp in 1 2 3 8; do
   sanitizer_keeps $sp 1 3 || continue
   want=yes
   [ "$sp" = 1 ] && want=no
   check_config $want "split-K SPLIT=$sp, 77x45x333, alpha -1.5 beta 0.5" \
      --kernel fast03_splitk $SMALL --set SPLIT=$sp --size 77x45x333 --alpha -1.5 --beta 0.5
done
check_config yes "split-K SPLIT=16, skinny 16x200x2049, TT, beta 2" \
   --kernel fast03_splitk $SMALL --set SPLIT=16 --size 16x200x2049 --layout TT --alpha 0.75 --beta 2
check_config yes "split-K SPLIT=3 in double, 33x70x257, TN" \
   --kernel fast03_splitk $SMALL --set SPLIT=3 --size 33x70x257 --precision double --layout TN --beta -1

# Stream-K and the persistent kernel: whole tiles in turn (STREAMK=0, no fix-up) and shares
# that begin and end inside tiles (STREAMK=1), with 1 and 3 work-groups per compute unit.
for sk in 0 1; do
   for u in 1 3; do
      sanitizer_keeps $sk/$u 0/1 1/3 || continue
      want=yes
      [ "$sk" = 0 ] && want=no
      check_config $want "STREAMK=$sk UNITS=$u, 100x70x333, alpha -1.5 beta 0.5" \
         --kernel fast04_streamk $SMALL --set STREAMK=$sk --set UNITS=$u --size 100x70x333 --alpha -1.5 --beta 0.5
   done
done
for sk in 0 1; do
   check_config $([ $sk = 1 ] && echo yes || echo no) "STREAMK=$sk in bands of GROUP=2 tile rows, 300x200x333 (5 rows: a short last band)" \
      --kernel fast04_streamk $SMALL --set STREAMK=$sk --set UNITS=3 --set GROUP=2 --size 300x200x333 --beta 0.5
done
check_config yes "stream-K UNITS=4, skinny 16x300x1111, NT, beta 1" \
   --kernel fast04_streamk $SMALL --set UNITS=4 --size 16x300x1111 --layout NT --beta 1
check_config yes "stream-K in double, 130x64x99, alpha 2 beta -0.5" \
   --kernel fast04_streamk $SMALL --set UNITS=3 --size 130x64x99 --precision double --alpha 2 --beta -0.5
check_config yes "stream-K with more work-groups than K steps (60x60x16: 2 steps, 4 per unit, some shares empty)" \
   --kernel fast04_streamk $SMALL --set UNITS=4 --size 60x60x16 --beta 0.5

# Split-K on the tensor cores (emulated here: the same fragments and fix-up as on a GPU).
TSMALL="--kernel tensor06_splitk $SMALL"
check_config yes "tensor split-K SPLIT=3 in half, 77x45x333 (21 K steps: 7 each), alpha -1.5 beta 0.5" \
   $TSMALL --set SPLIT=3 --precision half --size 77x45x333 --alpha -1.5 --beta 0.5
check_config no "tensor split-K SPLIT=1 in bfloat16 (step 5: no workspace, no fix-up), 77x45x333" \
   $TSMALL --set SPLIT=1 --precision bfloat16 --size 77x45x333 --beta -1
check_config yes "tensor split-K SPLIT=16 in tf32, skinny 16x200x2049, TT, beta 2" \
   $TSMALL --set SPLIT=16 --precision tf32 --size 16x200x2049 --layout TT --alpha 0.75 --beta 2

# Stream-K and the persistent grid on the tensor cores (emulated): shares that begin and end
# inside tiles, whole tiles in turn, a short last band, and the transposed MMA's epilogue.
TSK="--kernel tensor07_streamk $SMALL"
check_config yes "tensor stream-K UNITS=3 in half, 100x70x333, alpha -1.5 beta 0.5" \
   $TSK --set STREAMK=1 --set UNITS=3 --precision half --size 100x70x333 --alpha -1.5 --beta 0.5
check_config no "tensor persistent STREAMK=0 UNITS=2 in bfloat16, 100x70x333, beta -1" \
   $TSK --set STREAMK=0 --set UNITS=2 --precision bfloat16 --size 100x70x333 --beta -1
check_config yes "tensor stream-K in bands of GROUP=2, tf32 with TMMA=1, 300x200x333 (5 rows: a short last band), NT" \
   $TSK --set STREAMK=1 --set UNITS=3 --set GROUP=2 --set TMMA=1 --precision tf32 --size 300x200x333 --layout NT --beta 0.5
GEMMTOP_DEVICE_LIMITS=compute_units=2 check_config yes \
   "tensor stream-K UNITS=4 on 2 units in half, 60x60x64 (4 K steps for 8 work-groups: some shares empty)" \
   $TSK --set STREAMK=1 --set UNITS=4 --precision half --size 60x60x64 --beta 0.5

# A persistent grid's items of work: tiles, or tiles times K steps for stream-K (2 x 64).
for sk in 0 1; do
   run_gemmtop run --kernel fast04_streamk --set STREAMK=$sk --size 128x256x512 --reps 1 --warmup 0 --format json
   w=$(printf '%s\n' "$OUT" | head -1 | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline()).get("work_items"))' 2>&1)
   want=2
   [ $sk = 1 ] && want=128
   [ "$RC" -eq 0 ] && [ "$w" = "$want" ] && ok "STREAMK=$sk at 128x256x512: $want items of work" ||
      not_ok "STREAMK=$sk: work_items $w, want $want (exit $RC)" "$ERR"
done

# The persistent grid follows the compute units: one unit simulated, UNITS=3 groups of 128.
GEMMTOP_DEVICE_LIMITS=compute_units=1
export GEMMTOP_DEVICE_LIMITS
run_gemmtop run --kernel fast04_streamk $SMALL --set UNITS=3 --size 100x70x333 --reps 1 --warmup 0 --format json
unset GEMMTOP_DEVICE_LIMITS
g=$(printf '%s\n' "$OUT" | head -1 | python3 -c 'import json,sys; d=json.loads(sys.stdin.readline()); print(d["global_size"][0], d["verified"])' 2>&1)
[ "$RC" -eq 0 ] && [ "$g" = "384 True" ] && ok "compute_units=1: a grid of 3 x 128 work-items, verified" ||
   not_ok "compute_units=1: the grid ($g, exit $RC)" "$OUT
$ERR"
GEMMTOP_DEVICE_LIMITS=compute_units=0
export GEMMTOP_DEVICE_LIMITS
run_gemmtop run --kernel fast04_streamk --size 64
unset GEMMTOP_DEVICE_LIMITS
expect_rc 2 "compute_units=0 is refused"
expect_in "compute_units=0: use a number from 1" "$ERR" "saying what would be valid"

# Against a product computed here: fresh random A, B and C written as .npy, C read back.
SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
python3 - "$T_DIR" "$SEED" <<'EOF'
import random, struct, sys
d, seed = sys.argv[1], int(sys.argv[2])
random.seed(seed)
def write(path, rows, cols, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(values), *values))
m, n, k = 37, 45, 300
write(d + "/a.npy", m, k, [random.uniform(-1, 1) for _ in range(m * k)])
write(d + "/b.npy", k, n, [random.uniform(-1, 1) for _ in range(k * n)])
write(d + "/c.npy", m, n, [random.uniform(-1, 1) for _ in range(m * n)])
EOF

# In half against Python's product: A and B as float16 .npy files (the values the tensor
# cores multiply, exactly), C as float32; K = 300 is 19 steps of 16 (the last padded), cut
# 6 + 6 + 7 by SPLIT=3.
python3 - "$T_DIR" "$SEED" <<'EOF'
import random, struct, sys
d, seed = sys.argv[1], int(sys.argv[2])
random.seed(seed + 1)
def write(path, rows, cols, code, descr, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (descr, rows, cols)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), code), *values))
m, n, k = 37, 45, 300
write(d + "/ha.npy", m, k, "e", "<f2", [random.uniform(-1, 1) for _ in range(m * k)])
write(d + "/hb.npy", k, n, "e", "<f2", [random.uniform(-1, 1) for _ in range(k * n)])
EOF
# check_product WHAT A B ARGS...: the run of ARGS on A and B (.npy files in T_DIR, float32 or
# float16: the values the kernel multiplies) and C (c.npy, or PC), against Python's product of
# them, computed once per pair of files (kept in T_DIR) and compared with each run's C; the
# size is 37 x 45 x 300, or PSIZE ("-m 7 -n 45 -k 300").
check_product() {
   what=$1 a=$2 b=$3
   shift 3
   rm -f "$T_DIR/out.npy"
   run_gemmtop run "$@" ${PSIZE:--m 37 -n 45 -k 300} --a "$T_DIR/$a" --b "$T_DIR/$b" --c "$T_DIR/${PC:-c.npy}" \
      --alpha -1.25 --beta 0.5 --out "$T_DIR/out.npy" --reps 1 --warmup 0
   msg=$(python3 - "$T_DIR" "$a" "$b" "${PC:-c.npy}" <<'EOF' 2>&1
import json, struct, sys
d = sys.argv[1]
def read(path):
    data = open(path, "rb").read()
    hl = struct.unpack("<H", data[8:10])[0]
    h = eval(data[10:10 + hl].decode())
    code, size = {"<f2": ("e", 2), "<f4": ("f", 4)}[h["descr"]]
    count = h["shape"][0] * h["shape"][1]
    return h["shape"], struct.unpack("<%d%s" % (count, code), data[10 + hl:10 + hl + size * count]), h["descr"]
(m, k), A, _ = read(d + "/" + sys.argv[2])
(_, n), B, _ = read(d + "/" + sys.argv[3])
_, C, cd = read(d + "/" + sys.argv[4])
shape, O, od = read(d + "/out.npy")
assert cd == od == "<f4", (cd, od)
assert shape == (m, n), shape
kept = "%s/product-%s-%s.json" % (d, sys.argv[2], sys.argv[3])
try:
    S, MAG = json.load(open(kept))
except OSError:
    S = [sum(A[i * k + p] * B[p * n + j] for p in range(k)) for i in range(m) for j in range(n)]
    MAG = [sum(abs(A[i * k + p] * B[p * n + j]) for p in range(k)) for i in range(m) for j in range(n)]
    json.dump([S, MAG], open(kept, "w"))
worst = 0.0
for i in range(m):
    for j in range(n):
        s, mag = S[i * n + j], MAG[i * n + j]
        want = -1.25 * s + 0.5 * C[i * n + j]
        bound = (k + 4) * 2.0 ** -24 * (1.25 * mag + 0.5 * abs(C[i * n + j]))
        err = abs(O[i * n + j] - want)
        assert err <= bound, "C[%d,%d] = %r, want %r (error %.3g, bound %.3g)" % (i, j, O[i * n + j], want, err, bound)
        worst = max(worst, err / bound)
print("worst error %.2f of its bound" % worst)
EOF
   )
   if [ "$RC" -eq 0 ] && printf '%s' "$msg" | grep -q '^worst error'; then
      ok "$what: C equals Python's product within rounding ($msg)"
   else
      not_ok "$what against Python's product (exit $RC): $msg" "$OUT
$ERR"
   fi
}
check_product "split-K SPLIT=3" a.npy b.npy --kernel fast03_splitk $SMALL --set SPLIT=3
check_product "stream-K UNITS=3" a.npy b.npy --kernel fast04_streamk $SMALL --set UNITS=3
check_product "persistent STREAMK=0" a.npy b.npy --kernel fast04_streamk $SMALL --set STREAMK=0 --set UNITS=2
check_product "tensor split-K SPLIT=3 in half, float16 inputs" ha.npy hb.npy $TSMALL --set SPLIT=3 --precision half
check_product "tensor stream-K UNITS=3 in half, float16 inputs" ha.npy hb.npy $TSK --set STREAMK=1 --set UNITS=3 \
   --precision half

# Small M. Swap-AB on mma.sync (tensor08_swapab, emulated here with mma.sync's own fragment
# layouts: the weight's rows as the MMA's 16 rows, the tokens as its n8, fragments loaded 16
# bytes a lane with the run's word order) and the decode kernel (fast05_decode, CUDA cores),
# at odd sizes in every type they take, with and without their fix-up.
SWAP="--kernel tensor08_swapab"
DEC="--kernel fast05_decode"
check_config yes "swap-AB SPLIT=3 in half, 13x70x333 (N past the 32-column block, K padded), NT, alpha -1.5 beta 0.5" \
   $SWAP --set SPLIT=3 --precision half --size 13x70x333 --layout NT --alpha -1.5 --beta 0.5
check_config no "swap-AB SPLIT=1 in bfloat16, 5x45x100 (one run of 16 words for 4 warps), beta 2" \
   $SWAP --set SPLIT=1 --precision bfloat16 --size 5x45x100 --layout NT --beta 2
check_config yes "swap-AB in tf32 with 8 warps, 16 runs per split, 3x200x2049, TN, beta 1" \
   $SWAP --set SPLIT=16 --set WARPS=8 --set RF=1 --precision tf32 --size 3x200x2049 --layout TN --beta 1
check_config yes "swap-AB RF=4 TF=4 KU=4, one warp, 37x130x1000 (two token blocks), TT" \
   $SWAP --set RF=4 --set TF=4 --set WARPS=1 --set KU=4 --set SPLIT=2 --precision bfloat16 --size 37x130x1000 \
   --layout TT --beta -1
# The decode step on mma.sync (tensor09_decode): runs of 16 x PL words, the K split among the
# warps of a block (one launch with SPLIT=1), a last turn that runs past the block's end
# (zeroed re-reads of its first run), token padding, and the fix-up when SPLIT > 1.
DEC9="--kernel tensor09_decode"
check_config no "decode on mma.sync, one launch, 3x70x333 (K padded, a partial last turn), bfloat16, beta 0.5" \
   $DEC9 --precision bfloat16 --size 3x70x333 --layout NT --alpha -1.5 --beta 0.5
check_config no "decode on mma.sync TF=2 PL=4 KU=1 WARPS=16, 13x45x1000, half, TT" \
   $DEC9 --set TF=2 --set PL=4 --set KU=1 --set WARPS=16 --precision half --size 13x45x1000 --layout TT --beta 2
check_config yes "decode on mma.sync RF=2 PL=1 SPLIT=3 in tf32, 6x200x777, TN" \
   $DEC9 --set RF=2 --set PL=1 --set SPLIT=3 --set WARPS=2 --precision tf32 --size 6x200x777 --layout TN --beta -1
for prec in float double half bfloat16; do
   check_config yes "decode SPLIT=6 in $prec, 5x33x257 (a short last row block), NT, alpha 2 beta -0.5" \
      $DEC --set SPLIT=6 --set RN=4 --set LK=4 --set WG=64 --set UNROLL=4 --precision $prec --size 5x33x257 \
      --layout NT --alpha 2 --beta -0.5
done
check_config no "decode SPLIT=1 MR=1 in half, 1x45x100 (one token), beta 2" \
   $DEC --set SPLIT=1 --set MR=1 --precision half --size 1x45x100 --layout NT --beta 2
check_config yes "decode MR=16 LK=32 in float, 16x130x2049 over 64 runs of K, TT" \
   $DEC --set MR=16 --set RN=1 --set LK=32 --set WG=256 --set UNROLL=1 --set SPLIT=64 --size 16x130x2049 --layout TT
check_config yes "decode MR=4 in bfloat16, 11x300x515 (three token blocks, M padded)" \
   $DEC --set MR=4 --set SPLIT=3 --precision bfloat16 --size 11x300x515 --layout NT --beta 0.5

# Against Python's product: 7 tokens x 45 x 300, fresh random float16 (exact in every type
# here) and float32 inputs.
python3 - "$T_DIR" "$SEED" <<'EOF'
import random, struct, sys
d, seed = sys.argv[1], int(sys.argv[2])
random.seed(seed + 2)
def write(path, rows, cols, code, descr, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (descr, rows, cols)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), code), *values))
m, n, k = 7, 45, 300
write(d + "/sa.npy", m, k, "e", "<f2", [random.uniform(-1, 1) for _ in range(m * k)])
write(d + "/sb.npy", k, n, "e", "<f2", [random.uniform(-1, 1) for _ in range(k * n)])
write(d + "/fa.npy", m, k, "f", "<f4", [random.uniform(-1, 1) for _ in range(m * k)])
write(d + "/fb.npy", k, n, "f", "<f4", [random.uniform(-1, 1) for _ in range(k * n)])
write(d + "/sc.npy", m, n, "f", "<f4", [random.uniform(-1, 1) for _ in range(m * n)])
EOF
PSIZE="-m 7 -n 45 -k 300"
PC=sc.npy
check_product "swap-AB SPLIT=3 in half, float16 inputs" sa.npy sb.npy $SWAP --set SPLIT=3 --precision half
check_product "swap-AB SPLIT=1 TF=1 in half, float16 inputs" sa.npy sb.npy $SWAP --set SPLIT=1 --set TF=1 \
   --precision half
check_product "decode on mma.sync TF=1 in half, float16 inputs" sa.npy sb.npy $DEC9 --set TF=1 --precision half
check_product "decode SPLIT=4 in float" fa.npy fb.npy $DEC --set SPLIT=4
check_product "decode SPLIT=1 in half, float16 inputs" sa.npy sb.npy $DEC --set SPLIT=1 --precision half
unset PSIZE PC

# The same bits on every run: the warps' and lanes' sums and the planes added in a fixed order.
for cfg in "sa.npy sb.npy tensor08_swapab --set SPLIT=3 --precision half" "fa.npy fb.npy fast05_decode --set SPLIT=3" \
   "sa.npy sb.npy tensor09_decode --set TF=1 --precision half"; do
   set -- $cfg
   a=$1 b=$2 kern=$3
   shift 3
   sanitizer_keeps "$kern" fast05_decode || continue
   for i in 1 2; do
      run_gemmtop run --kernel "$kern" "$@" -m 7 -n 45 -k 300 --a "$T_DIR/$a" --b "$T_DIR/$b" \
         --c "$T_DIR/sc.npy" --beta 0.5 --out "$T_DIR/same$i.npy" --reps 3 --warmup 1
   done
   if [ "$RC" -eq 0 ] && [ -s "$T_DIR/same1.npy" ] && cmp -s "$T_DIR/same1.npy" "$T_DIR/same2.npy"; then
      ok "$kern $*: two runs give the same bits"
   else
      not_ok "$kern $*: two runs differ (exit $RC)" "$ERR"
   fi
   rm -f "$T_DIR/same1.npy" "$T_DIR/same2.npy"
done

# Memory-bound by design: the decode kernel's run is put against the measured copy
# bandwidth (the bytes of A, B and C over its time), a compute-bound one's is not.
run_gemmtop list devices --backend opencl --format json
if ! printf '%s\n' "$OUT" | grep -q '"copy_peak_gbps"'; then
   run_gemmtop list devices --backend opencl --measure --format json
fi
run_gemmtop run $DEC --size 8x256x1024 --layout NT --beta 0.5 --reps 2 --warmup 0 --format json
if msg=$(printf '%s\n' "$OUT" | head -1 | python3 -c 'import json,sys
d = json.loads(sys.stdin.readline())
assert d["verified"] and d["copy_peak_gbps"] > 0, d
want = 100 * d["gbps"] / d["copy_peak_gbps"]
assert abs(d["pct_of_copy"] - want) <= 1e-3 * want, (d["pct_of_copy"], want)
print("%.3g%% of %.3g GB/s" % (d["pct_of_copy"], d["copy_peak_gbps"]))' 2>&1); then
   ok "decode: pct_of_copy is its bytes over its time against the copy peak ($msg)"
else
   not_ok "decode: pct_of_copy (exit $RC): $msg" "$OUT
$ERR"
fi
run_gemmtop run $DEC --size 8x256x1024 --layout NT --reps 2 --warmup 0
expect_in "of the measured copy bandwidth" "$OUT" "the table says it"
run_gemmtop run --kernel fast03_splitk $SMALL --size 64x64x64 --reps 1 --warmup 0 --format json
case "$OUT" in *pct_of_copy*) not_ok "a compute-bound kernel has no pct_of_copy" "$OUT" ;;
*) ok "a compute-bound kernel has no pct_of_copy" ;; esac
run_gemmtop bench $DEC --sizes 8x256x1024 --layout NT --rounds 1
expect_in "memory (memory-bound by design: % of the measured copy bandwidth):" "$OUT" "bench gives the share under its table"
run_gemmtop list kernels --format json
bounds=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
for l in sys.stdin:
    k = json.loads(l)
    if k["bound"] == "memory": print(k["name"])' | sort | tr '\n' ' ')
case "$bounds" in *fast05_decode*tensor08_swapab*tensor09_decode*) ok "list kernels: the memory-bound ones say so ($bounds)" ;;
*) not_ok "list kernels: bound" "$bounds" ;; esac

# The same bits on every run: the pieces are added in a fixed order.
for cfg in "fast03_splitk --set SPLIT=8" "fast04_streamk --set UNITS=3" \
   "tensor06_splitk --set BM=64 --set BN=64 --set WM=32 --set WN=32 --set SPLIT=3 --precision half" \
   "tensor07_streamk --set BM=64 --set BN=64 --set WM=32 --set WN=32 --set UNITS=3 --precision half"; do
   set -- $cfg
   kern=$1
   shift
   sanitizer_keeps "$kern" fast04_streamk || continue
   for i in 1 2; do
      run_gemmtop run --kernel "$kern" $SMALL "$@" -m 37 -n 45 -k 300 --a "$T_DIR/a.npy" --b "$T_DIR/b.npy" \
         --c "$T_DIR/c.npy" --beta 0.5 --out "$T_DIR/same$i.npy" --reps 3 --warmup 1
   done
   if [ "$RC" -eq 0 ] && [ -s "$T_DIR/same1.npy" ] && cmp -s "$T_DIR/same1.npy" "$T_DIR/same2.npy"; then
      ok "$kern $*: two runs give the same bits"
   else
      not_ok "$kern $*: two runs differ (exit $RC)" "$ERR"
   fi
   rm -f "$T_DIR/same1.npy" "$T_DIR/same2.npy"
done

# Planted bugs, made from the shipped kernels (so the test follows them): each must fail.
mkdir -p "$T_DIR/broken"
plant() { # NAME FROM SED-EXPRESSION: the kernel FROM under NAME with one change
   sed -e "s/^name: .*/name:     $1/" -e "$3" "kernels/$2.cl" >"$T_DIR/broken/$1.cl"
   if cmp -s "kernels/$2.cl" "$T_DIR/broken/$1.cl" || ! grep -q "^name:     $1" "$T_DIR/broken/$1.cl"; then
      not_ok "the bug $1 could not be planted in $2 (the kernel changed?)"
      return 1
   fi
}
expect_wrong() { # NAME WHAT ARGS...
   name=$1
   what=$2
   shift 2
   sanitizer_keeps "$name" drop_plane empty_share swap_word decode_lane || return 0
   GEMMTOP_KERNELS="$GEMMTOP_KERNELS:$T_DIR/broken" run_gemmtop run --kernel "$name" "$@" --reps 1 --warmup 0
   if [ "$RC" -eq 1 ] && printf '%s' "$ERR" | grep -q "wrong result"; then
      ok "planted bug ($what): the result is wrong and said so"
   else
      not_ok "planted bug ($what) was not caught (exit $RC)" "$OUT
$ERR"
   fi
}
plant drop_plane fast03_splitk 's/for (int z = 1; z < SPLIT; z++)/for (int z = 1; z < SPLIT - 1; z++)/' &&
   expect_wrong drop_plane "split-K's fix-up drops the last plane" $SMALL --set SPLIT=3 --size 77x45x333 --beta 0.5
plant wrong_slot fast04_streamk 's/>= tile \* steps ? 0 : 1)/>= tile * steps ? 1 : 0)/' &&
   expect_wrong wrong_slot "stream-K's fix-up reads the other slot" $SMALL --set UNITS=3 --size 100x70x333
plant drop_tplane tensor06_splitk 's/for (int z = 1; z < SPLIT; z++)/for (int z = 1; z < SPLIT - 1; z++)/' &&
   expect_wrong drop_tplane "tensor split-K's fix-up drops the last plane" $SMALL --set SPLIT=3 --precision half \
      --size 77x45x333
plant short_share tensor06_splitk 's|t1 = (z + 1) \* (K / BK) / SPLIT;|t1 = t0 + (K / BK) / SPLIT;|' &&
   expect_wrong short_share "tensor split-K's shares drop the K steps that SPLIT does not divide" $SMALL \
      --set SPLIT=4 --precision bfloat16 --size 64x64x336
# With more work-groups than K steps some shares are empty: a fix-up that adds their slots
# reads what no work-group wrote (the workspace is poisoned with NaN before the check).
plant empty_share fast04_streamk '/if (shareStart(u, total, units) == shareStart(u + 1, total, units))/,+1d' &&
   GEMMTOP_DEVICE_LIMITS=compute_units=2 expect_wrong empty_share "stream-K's fix-up adds the slots of empty shares" \
      $SMALL --set UNITS=4 --size 60x60x16 --beta 0.5
plant empty_tshare tensor07_streamk '/if (shareStart(u, total, units) == shareStart(u + 1, total, units))/,+1d' &&
   GEMMTOP_DEVICE_LIMITS=compute_units=2 expect_wrong empty_tshare "tensor stream-K's fix-up adds the slots of empty shares" \
      $SMALL --set UNITS=4 --precision half --size 60x60x64 --beta 0.5
plant lost_tstep tensor07_streamk 's/it1 = shareStart(grp + 1, total, units);/it1 = shareStart(grp + 1, total, units) - 1;/' &&
   expect_wrong lost_tstep "each tensor stream-K share loses its last K step" $SMALL --set UNITS=3 --precision half \
      --size 100x70x333
# The shares depend on the compute units: two, as on the CI machine, whatever this one has.
plant short_band fast04_streamk 's/return (long)first \* TILES_N + (long)tn \* rows + (tm - first);/return (long)first * TILES_N + (long)tn * GROUP + (tm - first);/' &&
   GEMMTOP_DEVICE_LIMITS=compute_units=2 expect_wrong short_band "the fix-up's tile order forgets the short last band" \
      $SMALL --set UNITS=4 --set GROUP=2 --size 300x200x333
plant lost_step fast04_streamk 's/it1 = shareStart(g + 1, total, units);/it1 = shareStart(g + 1, total, units) - 1;/' &&
   expect_wrong lost_step "each stream-K share loses its last K step" $SMALL --set UNITS=3 --size 100x70x333

# Small M's planted bugs: each must fail verification.
plant swap_word tensor08_swapab 's/b\[0\] = GT_FRAG_WORD(WORD_OF(x\[u\]\[j\], q, 0));/b[0] = GT_FRAG_WORD(WORD_OF(x[u][j], q, 1));/' &&
   expect_wrong swap_word "swap-AB's tokens take another word order than the weight's" --set SPLIT=3 --precision half \
      --size 13x70x333
plant swap_row tensor08_swapab 's/a\[1\] = GT_FRAG_WORD(WORD_OF(w\[u\]\[f\]\[1\], q, 0));/a[1] = GT_FRAG_WORD(WORD_OF(w[u][f][0], q, 0));/' &&
   expect_wrong swap_row "swap-AB's fragment takes row g for g + 8" --set SPLIT=1 --precision bfloat16 --size 5x45x100
plant swap_warp tensor08_swapab 's/for (int v = 1; v < WARPS; v++)/for (int v = 1; v < WARPS - 1; v++)/' &&
   expect_wrong swap_warp "swap-AB drops the last warp's sums" --set SPLIT=2 --precision half --size 13x70x333
plant decode_lane fast05_decode 's/for (int l = 0; l < LK; l++)/for (int l = 0; l < LK - 1; l++)/' &&
   expect_wrong decode_lane "decode drops a lane of each row" --size 5x33x257 --layout NT
plant decode_plane fast05_decode 's/for (int z = 1; z < SPLIT; z++)/for (int z = 1; z < SPLIT - 1; z++)/' &&
   expect_wrong decode_plane "decode's fix-up drops the last plane" --set SPLIT=3 --size 5x33x257 --layout NT
plant decode_run fast05_decode 's/p1 = (int)gt_sched_share_start(z + 1, pieces, SPLIT);/p1 = (int)gt_sched_share_start(z + 1, pieces, SPLIT) - 1;/' &&
   expect_wrong decode_run "decode's runs of K lose their last piece" --set SPLIT=3 --precision bfloat16 --size 5x33x257 \
      --layout NT

# export-kernel: both launches and the workspace in the standalone launcher, built from the
# exported files alone and verified on PoCL; the fix-up broken after export fails it.
if command -v cc >/dev/null 2>&1 && command -v make >/dev/null 2>&1; then
   dev=$(printf '%s\n' "$POCL" | sed -E 's/.*--device ([0-9]+).*/\1/')
   for cfg in "fast03_splitk --set SPLIT=3" "fast04_streamk --set UNITS=3"; do
      set -- $cfg
      kern=$1
      shift
      sanitizer_keeps "$kern" fast04_streamk || continue
      rm -rf "$T_DIR/export"
      run_gemmtop export-kernel --kernel "$kern" $SMALL "$@" --size 128x128x336 --alpha -2 --beta 0.5 --dir "$T_DIR/export"
      launch_out=$( (make -s -C "$T_DIR/export" && cd "$T_DIR/export" && env -u GEMMTOP_KERNELS "./${kern}_launch" \
         "$kern.cl" "$dev" "$SEED") 2>&1)
      if [ "$RC" -eq 0 ] && printf '%s' "$launch_out" | grep -q "^verified: all 16384 elements, worst relative error" &&
         grep -q '^#define FIXUP "gemm_fixup"' "$T_DIR/export/${kern}_launch.c"; then
         ok "export-kernel $kern $*: the launcher makes both launches and verifies on PoCL"
      else
         not_ok "export-kernel $kern $* (exit $RC)" "$OUT
$ERR
$launch_out"
      fi
   done
   # The decode kernel with its fix-up (a grid of N rounded up to 64 columns), NT as a model
   # stores its weight.
   if sanitizer_keeps decode_export; then
      rm -rf "$T_DIR/export5"
      run_gemmtop export-kernel $DEC --set SPLIT=3 --size 8x200x1000 --layout NT --alpha -2 --beta 0.5 --dir "$T_DIR/export5"
      launch_out=$( (make -s -C "$T_DIR/export5" && cd "$T_DIR/export5" && env -u GEMMTOP_KERNELS ./fast05_decode_launch \
         fast05_decode.cl "$dev" "$SEED") 2>&1)
      if [ "$RC" -eq 0 ] && printf '%s' "$launch_out" | grep -q "^verified: all 1600 elements, worst relative error"; then
         ok "export-kernel fast05_decode SPLIT=3: the launcher makes both launches and verifies on PoCL"
      else
         not_ok "export-kernel fast05_decode (exit $RC)" "$OUT
$ERR
$launch_out"
      fi
   fi
   # The exported stream-K kernel with its fix-up reading the wrong slot: the launcher fails it.
   sed 's/>= tile \* steps ? 0 : 1)/>= tile * steps ? 1 : 0)/' "$T_DIR/export/fast04_streamk.cl" >"$T_DIR/export/broken.cl"
   broken_out=$(cd "$T_DIR/export" && ./fast04_streamk_launch broken.cl "$dev" "$SEED" 2>&1)
   broken_rc=$?
   if ! cmp -s "$T_DIR/export/broken.cl" "$T_DIR/export/fast04_streamk.cl" && [ "$broken_rc" -eq 1 ] &&
      printf '%s' "$broken_out" | grep -q "^WRONG"; then
      ok "the exported stream-K kernel with a broken fix-up fails the launcher's check"
   else
      not_ok "a broken exported fix-up was not caught (exit $broken_rc)" "$broken_out"
   fi
else
   echo "ok $((T_N + 1)) - # SKIP no C compiler or make to build the launcher"
   T_N=$((T_N + 1))
fi

finish
