#!/bin/sh
# Ablation (--ablate): a real run verifies; each ablated run is labelled (table, CSV,
# JSON), not verified, exits 0; bad names are refused with the valid ones. And the
# switches really change the work, in every visible kernel: const-store writes the
# constant everywhere, no-a's result does not depend on A (nor no-b's on B), no-a,no-b's
# and no-fma's are not the product.
. "$(dirname "$0")/lib.sh"

cat > "$T_DIR/abl.py" <<'PY'
import random, struct, sys, ast

def write(path, rows, cols, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode()
                + struct.pack("<%df" % (rows * cols), *values))

def read(path):
    data = open(path, "rb").read()
    hl = struct.unpack("<H", data[8:10])[0]
    h = ast.literal_eval(data[10:10 + hl].decode())
    rows, cols = h["shape"]
    fmt = "f" if h["descr"] == "<f4" else "d"
    return struct.unpack("<%d%s" % (rows * cols, fmt), data[10 + hl:])

cmd = sys.argv[1]
if cmd == "make":  # make DIR N: a1, a2, b1, b2 (N x N), fresh random; a1 b1's product
    d, n = sys.argv[2], int(sys.argv[3])
    rnd = random.Random()
    m = {}
    for name in ("a1", "a2", "b1", "b2"):
        m[name] = [rnd.uniform(-1, 1) for _ in range(n * n)]
        write("%s/%s.npy" % (d, name), n, n, m[name])
    a, b = m["a1"], m["b1"]
    cols = [b[j::n] for j in range(n)]
    c = [sum(x * y for x, y in zip(a[i * n:(i + 1) * n], cols[j])) for i in range(n) for j in range(n)]
    with open("%s/a1b1.txt" % d, "w") as f:
        f.write(" ".join(repr(v) for v in c))
elif cmd == "far":  # far DIR FILE: FILE is not a1 b1's product: most elements far from it
    want = [float(v) for v in open("%s/a1b1.txt" % sys.argv[2]).read().split()]
    got = read(sys.argv[3])
    assert len(got) == len(want), "%d elements, the product has %d" % (len(got), len(want))
    # A quarter of the product's own spread: FP8's rounding of the inputs moves a correct
    # element by about 0.1 of it at N = 128, a switch that drops the work by about all of it.
    rms = (sum(v * v for v in want) / len(want)) ** 0.5
    near = sum(1 for g, w in zip(got, want) if abs(g - w) <= 0.25 * rms)
    assert near < len(want) // 2, "%d of %d elements are within %.3g of the product" % (near, len(want), 0.25 * rms)
elif cmd == "const":  # const FILE VALUE: every element is VALUE
    vals, want = read(sys.argv[2]), float(sys.argv[3])
    bad = [v for v in vals if v != want]
    assert vals and not bad, "%d of %d elements are not %g (e.g. %r)" % (len(bad), len(vals), want, bad[:3])
PY
py() { python3 "$T_DIR/abl.py" "$@"; }

# --- labels, statuses and exit codes on one kernel ---
K=mygemm02_tiled
run_gemmtop run --kernel $K --size 64 --reps 2 --warmup 0 --format json
expect_rc 0 "a real run"
[ "$(json_field verified)" = true ] && [ "$(json_field ablated)" = false ] && [ "$(json_field status)" = ok ] &&
   ok "real run: verified, ablated false, status ok" || not_ok "real run fields" "$OUT"
json_field core_gbps | grep -Eq '^[0-9.e+-]+$' && ok "real run: core_gbps reported" || not_ok "core_gbps" "$OUT"

for a in no-a no-b no-fma const-store no-a,no-b,no-fma,const-store; do
   run_gemmtop run --kernel $K --size 64 --reps 2 --warmup 0 --format json --ablate $a
   expect_rc 0 "--ablate $a completes"
   if [ "$(json_field ablated)" = true ] && [ "$(json_field verified)" = false ] &&
      [ "$(json_field status)" = "ablated (not verified)" ] && [ "$(json_field ablation)" = "$a" ] &&
      json_field gflops | grep -Eq '^[0-9.e+-]+$'; then
      ok "--ablate $a: json ablated true, verified false, status 'ablated (not verified)', timed"
   else
      not_ok "--ablate $a json fields" "$OUT"
   fi
   case "$OUT" in *max_rel_err*|*pct_of_peak*|*vendor_gflops*) not_ok "--ablate $a: no verification or comparison fields" "$OUT" ;;
   *) ok "--ablate $a: no verification or comparison fields" ;; esac
done

run_gemmtop run --kernel $K --size 64 --reps 2 --warmup 0 --format csv --ablate no-b,no-fma
expect_rc 0 "csv ablated run"
printf '%s\n' "$OUT" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
r = rows[0]
assert len(rows) == 1, rows
assert r["ablated"] == "true" and r["ablation"] == "no-b,no-fma", r
assert r["status"] == "ablated (not verified)" and r["verified"] == "false" and r["max_rel_err"] == "", r
assert float(r["gbps"]) > 0 and float(r["core_gbps"]) > 0, r' 2>"$T_DIR/csv.err" &&
   ok "csv: ablated, ablation, status, verified, gbps, core_gbps columns" || not_ok "csv fields" "$OUT
$(cat "$T_DIR/csv.err")"
run_gemmtop run --kernel $K --size 64 --reps 2 --warmup 0 --format csv
printf '%s\n' "$OUT" | python3 -c '
import csv, sys
r = list(csv.DictReader(sys.stdin))[0]
assert r["ablated"] == "false" and r["ablation"] == "none" and r["verified"] == "true", r' 2>/dev/null &&
   ok "csv: a real run says ablated false" || not_ok "csv real run" "$OUT"

run_gemmtop run --kernel $K --size 64 --reps 2 --warmup 0 --ablate no-fma
expect_rc 0 "table ablated run"
expect_in "ABLATED    no-fma" "$OUT" "table: an ABLATED line first"
expect_in "verify     ablated (not verified)" "$OUT" "table: verify says ablated (not verified)"
expect_in "GB/s to the cores" "$OUT" "table: core GB/s"

# --- refused ---
run_gemmtop run --kernel $K --size 64 --ablate no-a,no-c
expect_rc 2 "--ablate no-a,no-c refused"
expect_in "'no-c' is not an ablation; valid: no-a, no-b, no-fma, const-store" "$ERR" "the message lists the valid names"
run_gemmtop sweep --kernel $K --size 64 --ablate no-a
expect_rc 2 "sweep --ablate refused"
expect_in "sweep and bench rank real, verified results only" "$ERR" "sweep: says why"
run_gemmtop bench --kernel $K --sizes 64 --ablate no-fma
expect_rc 2 "bench --ablate refused"

# --- the switches change the work, in every visible kernel ---
N=128
py make "$T_DIR" $N
# Every kernel that runs here: kernels for one architecture (arch:, e.g. sm_90a) are
# refused on PoCL with their reason. Each runs in float, or in the first type it takes: the
# tensor ladder (emulated here: four slow PoCL compiles a kernel) in tf32, its steps 1 and
# 5 standing for the others (between them every kind of load, words and cp.async, and the
# MMA go through the switches).
kernels=$("$GEMMTOP_BIN" list kernels --format json | python3 -c '
import json,sys
for l in sys.stdin:
    k=json.loads(l)
    precs=k.get("precisions",["float"])
    if not k.get("arch"):
        print(k["name"], "float" if "float" in precs else precs[0])')
echo "$kernels" | grep -q "^magma_fermi " && ok "magma_fermi is a visible kernel" || not_ok "magma_fermi listed" "$kernels"
# Under the sanitizers what matters is gemmtop's own code (the switches' defines, the runs,
# the .npy files), the same for every kernel of a kind; what the switches do to each kernel
# does not depend on how gemmtop was built, and the plain pass checks every one. So the
# sanitizer pass takes one kernel of each kind, as compile_targets.sh does: global loads,
# local-memory tiles, transposed A, padding, a fix-up, the tensor ladder's first and last
# loads, FP8.
if [ -n "${GEMMTOP_SANITIZE:-}" ]; then
   kernels=$(printf '%s\n' "$kernels" | grep -E \
      '^(mygemm01_naive|mygemm06_2d|dcu6_lds_conflicts|magma_fermi|fast03_splitk|tensor01_global|tensor05_warptile|fp8mma1_scaled) ')
   [ "$(printf '%s\n' "$kernels" | grep -c .)" = 8 ] && ok "the sanitizer pass takes one kernel of each kind" ||
      not_ok "the sanitizer pass's kernels" "$kernels"
fi
# The configuration a kernel's switches are checked in: its defaults, except where they
# take PoCL longest to compile (fast01_blocktile's 8x8 register tile of real4s: 3.3 s of
# CPU a program at 256, against 2.2 s for the 4x4 below; 50 s and 15 s when its loop over
# BK was unrolled whole on a CPU, before GT_UNROLL), and this check compiles four
# programs a kernel. A smaller tile is the same code: the switches sit in the loads, the
# multiply-adds and the store, whichever the tile's sizes (cli_ladder.sh runs the defaults).
small_tile() { # KERNEL
   case "$1" in
   fast01_blocktile) echo "--set BM=32 --set BN=32 --set RM=1 --set RN=1" ;;
   # 8x8 work per thread: 10.7 and 12.5 s of CPU a program, 3.9 and 3.8 s at 4x4 (2026-12-02)
   mygemm09_prefetch | mygemm10_padding) echo "--set TSM=32 --set TSN=32 --set WPTM=4 --set WPTN=4" ;;
   # the 64 x 64 tile cli_schedule.sh checks: 7.1 and 4.8 s a program, 5.5 and 3.3 s
   tensor06_splitk | tensor07_streamk) echo "--set BM=64 --set BN=64 --set WM=32 --set WN=32" ;;
   esac
}
# Each kernel's outputs in its own T_WORK (for_each_at_once); the inputs are shared.
check_switches() { # KERNEL PRECISION
   k=$1 prec=$2
   case "$k" in tensor02_* | tensor03_* | tensor04_*)
      ok "$k # SKIP the tensor steps 1 and 5 check the same switches, emulated compiles are slow"
      return ;;
   esac
   R="run $POCL --size $N --reps 1 --warmup 0 --seed 7 --precision $prec $(small_tile "$k")"
   out=$T_WORK/$k
   fails=""
   # no-a,no-b is one compile: the result may depend on neither A nor B.
   for spec in "no-a,no-b a1 b1" "no-a,no-b a2 b1" "no-a,no-b a1 b2" "no-fma a1 b1" "const-store a1 b1"; do
      set -- $spec
      "$GEMMTOP_BIN" $R --kernel "$k" --a "$T_DIR/$2.npy" --b "$T_DIR/$3.npy" --ablate "$1" --out "$out.$1.$2$3.ablated.npy" \
         >/dev/null 2>"$T_WORK/err" || fails="$fails; $1 $2 $3 failed: $(cat "$T_WORK/err")"
   done
   cmp -s "$out.no-a,no-b.a1b1.ablated.npy" "$out.no-a,no-b.a2b1.ablated.npy" || fails="$fails; no-a: the result depends on A"
   cmp -s "$out.no-a,no-b.a1b1.ablated.npy" "$out.no-a,no-b.a1b2.ablated.npy" || fails="$fails; no-b: the result depends on B"
   # Against the product itself rather than the kernel's own real run: one compile fewer a
   # kernel (cli_ladder.sh verifies each at its defaults), and a switch that changed a bit
   # or two would not pass.
   for a in no-a,no-b.a1b1 no-fma.a1b1; do
      [ -f "$out.$a.ablated.npy" ] && { py far "$T_DIR" "$out.$a.ablated.npy" 2>"$T_WORK/err" ||
         fails="$fails; $a: the product, not changed: $(tail -1 "$T_WORK/err")"; }
   done
   py const "$out.const-store.a1b1.ablated.npy" 1.25 2>"$T_WORK/err" || fails="$fails; const-store: $(tail -1 "$T_WORK/err")"
   if [ -z "$fails" ]; then
      ok "$k: const-store writes 1.25 everywhere; no-a,no-b ignores A and B; no-a,no-b and no-fma are not the product"
   else
      not_ok "$k: the switches change the work" "$fails"
   fi
}
for_each_at_once check_switches > "$T_DIR/kernels.log" <<KERNELS
$kernels
KERNELS
cat "$T_DIR/kernels.log"

# --- the MAGMA kernel at its defaults, float and double ---
for prec in float double; do
   run_gemmtop run --kernel magma_fermi --size 128 --precision $prec --reps 1 --warmup 0 --format json
   [ "$RC" -eq 0 ] && [ "$(json_field verified)" = true ] && ok "magma_fermi $prec verified" || not_ok "magma_fermi $prec" "$OUT
$ERR"
done
run_gemmtop run --preset magma-1-fermi --size 128 -m 96 -k 80 --layout TT --beta 0.5 --reps 1 --warmup 0 --format json
[ "$RC" -eq 0 ] && [ "$(json_field verified)" = true ] && ok "magma-1-fermi preset, odd sizes padded, TT, beta: verified" ||
   not_ok "magma preset odd" "$OUT
$ERR"
finish
