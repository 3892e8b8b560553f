#!/bin/sh
# NumPy files in and out: gemmtop's C against a product computed independently in Python
# (plain Python, so numpy is not needed), for float and double, with transposed storage.
. "$(dirname "$0")/lib.sh"

cat > "$T_DIR/npy.py" <<'PY'
import random, struct, sys, ast

def write(path, rows, cols, dtype, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (dtype, rows, cols)
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * pad + "\n"
    fmt = "<%d%s" % (rows * cols, "f" if dtype == "<f4" else "d")
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + struct.pack(fmt, *values))

def read(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", "not npy"
    hl = struct.unpack("<H", data[8:10])[0]
    h = ast.literal_eval(data[10:10 + hl].decode())
    rows, cols = h["shape"]
    size = 4 if h["descr"] == "<f4" else 8
    vals = struct.unpack("<%d%s" % (rows * cols, "f" if size == 4 else "d"), data[10 + hl:])
    return rows, cols, h["descr"], vals

cmd = sys.argv[1]
if cmd == "make":
    _, d, prec, m, n, k, ta, tb = sys.argv[1:]
    m, n, k, ta, tb = int(m), int(n), int(k), ta == "T", tb == "T"
    dtype = "<f4" if prec == "float" else "<f8"
    rnd = random.Random()
    A = [rnd.uniform(-1, 1) for _ in range(m * k)]
    B = [rnd.uniform(-1, 1) for _ in range(k * n)]
    C = [rnd.uniform(-1, 1) for _ in range(m * n)]
    write(d + "/a.npy", k if ta else m, m if ta else k, dtype, A)
    write(d + "/b.npy", n if tb else k, k if tb else n, dtype, B)
    write(d + "/c.npy", m, n, dtype, C)
elif cmd == "special":
    # special PATH DTYPE ROWS COLS INDEX VALUE: random values, VALUE at INDEX (-1: everywhere)
    _, path, dtype, rows, cols, index, value = sys.argv[1:]
    rows, cols, index, value = int(rows), int(cols), int(index), float(value)
    rnd = random.Random()
    vals = [value if index in (-1, i) else rnd.uniform(-1, 1) for i in range(rows * cols)]
    write(path, rows, cols, dtype, vals)
elif cmd == "check":
    _, d, m, n, k, ta, tb, alpha, beta = sys.argv[1:]
    m, n, k, ta, tb, alpha, beta = int(m), int(n), int(k), ta == "T", tb == "T", float(alpha), float(beta)
    _, _, dt, A = read(d + "/a.npy")
    _, _, _, B = read(d + "/b.npy")
    _, _, _, C = read(d + "/c.npy")
    r, c, dto, O = read(d + "/out.npy")
    assert (r, c) == (m, n), "shape %s" % ((r, c),)
    assert dto == dt, "dtype %s" % dto
    eps = 2.0 ** -23 if dt == "<f4" else 2.0 ** -52
    worst = 0.0
    for i in range(m):
        for j in range(n):
            s = 0.0; mag = 0.0
            for p in range(k):
                a = A[p * m + i] if ta else A[i * k + p]
                b = B[j * k + p] if tb else B[p * n + j]
                s += a * b; mag += abs(a * b)
            ref = alpha * s + beta * C[i * n + j]
            scale = abs(alpha) * mag + abs(beta * C[i * n + j])
            worst = max(worst, abs(O[i * n + j] - ref) / scale)
    assert worst < 64 * eps, "max rel err %g" % worst
    print("max rel err %.3g" % worst)
PY

for prec in float double; do
   for layout in NN TN NT TT; do
      ta=$(echo $layout | cut -c1)
      tb=$(echo $layout | cut -c2)
      python3 "$T_DIR/npy.py" make "$T_DIR" "$prec" 24 40 32 "$ta" "$tb"
      run_gemmtop run --kernel mygemm01_naive --set TSN=8 --set TSM=8 -m 24 -n 40 -k 32 --precision "$prec" --layout "$layout" \
         --alpha 0.5 --beta 2 --a "$T_DIR/a.npy" --b "$T_DIR/b.npy" --c "$T_DIR/c.npy" --out "$T_DIR/out.npy" --reps 1
      if [ "$RC" -ne 0 ]; then
         not_ok "npy $prec $layout run (exit $RC)" "$ERR"
         continue
      fi
      msg=$(python3 "$T_DIR/npy.py" check "$T_DIR" 24 40 32 "$ta" "$tb" 0.5 2 2>&1) \
         && ok "npy $prec $layout: --out matches Python's product ($msg)" || not_ok "npy $prec $layout" "$msg"
   done
done

# Shapes that don't fit the problem, and files that aren't .npy, are refused clearly.
python3 "$T_DIR/npy.py" make "$T_DIR" float 24 40 32 N N
run_gemmtop run --kernel mygemm01_naive --set TSN=8 --set TSM=8 -m 24 -n 40 -k 32 --layout TN --a "$T_DIR/a.npy"
expect_rc 2 "an A of the wrong shape for TN is refused"
expect_in "needs (32, 24)" "$ERR" "the needed shape is named"
echo "not numpy" > "$T_DIR/bad.npy"
run_gemmtop run --kernel mygemm01_naive --set TSN=8 --set TSM=8 -m 24 -n 40 -k 32 --a "$T_DIR/bad.npy"
expect_rc 2 "a file that is not .npy is refused"
expect_in "bad.npy" "$ERR" "the bad file is named"
run_gemmtop run --kernel mygemm01_naive --set TSN=8 --set TSM=8 -m 24 -n 40 -k 32 --c "$T_DIR/c.npy"
expect_rc 2 "--c without beta is refused"

# --out writes through a symbolic link (the link stays), creates a dangling link's target,
# and never replaces a FIFO or a device node (refused before the run, exit 2).
small="--kernel mygemm01_naive --set TSN=8 --set TSM=8 -m 24 -n 40 -k 32 --reps 1"
echo old > "$T_DIR/target.npy"
ln -s target.npy "$T_DIR/link.npy"
run_gemmtop run $small --out "$T_DIR/link.npy"
expect_rc 0 "--out through a symbolic link"
[ -L "$T_DIR/link.npy" ] && [ "$(readlink "$T_DIR/link.npy")" = target.npy ] \
   && ok "the link is still a link to its target" || not_ok "the link was replaced" "$(ls -l "$T_DIR")"
head -c 6 "$T_DIR/target.npy" | grep -q NUMPY && ok "the link's target holds the result" \
   || not_ok "the link's target holds the result" "$(head -c 40 "$T_DIR/target.npy")"
ln -s new-target.npy "$T_DIR/dangling.npy"
run_gemmtop run $small --out "$T_DIR/dangling.npy"
[ "$RC" -eq 0 ] && [ -L "$T_DIR/dangling.npy" ] && head -c 6 "$T_DIR/new-target.npy" | grep -q NUMPY \
   && ok "a dangling link: its target is created, the link stays" || not_ok "dangling link" "$ERR $(ls -l "$T_DIR")"
mkfifo "$T_DIR/fifo"
run_gemmtop run $small --out "$T_DIR/fifo"
expect_rc 2 "--out to a FIFO is refused"
expect_in "is a FIFO" "$ERR" "saying what it is"
[ -p "$T_DIR/fifo" ] && ok "the FIFO is still a FIFO" || not_ok "the FIFO was replaced" "$(ls -l "$T_DIR")"
case "$OUT" in *verify*) not_ok "refused before running" "$OUT" ;; *) ok "refused before running" ;; esac
if mknod "$T_DIR/null" c 1 3 2>/dev/null; then
   run_gemmtop run $small --out "$T_DIR/null"
   expect_rc 2 "--out to a device node is refused"
   expect_in "is a character device" "$ERR" "saying what it is"
   [ -c "$T_DIR/null" ] && ok "the device node is still one" || not_ok "the device node was replaced" "$(ls -l "$T_DIR")"
else
   ok "--out to a device node # SKIP mknod needs root"
fi
run_gemmtop run $small --out "$T_DIR/no-such-dir/out.npy"
expect_rc 1 "--out into a missing folder fails"
expect_in "no-such-dir: No such file or directory" "$ERR" "naming the folder and the error"

# --out holds the verified launch's C, not the last timed one: test_drift is right on the
# verification run (C poisoned with NaN) and drifts on every later launch.
use_test_kernels
python3 "$T_DIR/npy.py" make "$T_DIR" float 24 40 32 N N
run_gemmtop run --kernel test_drift -m 24 -n 40 -k 32 --reps 3 --a "$T_DIR/a.npy" --b "$T_DIR/b.npy" --out "$T_DIR/out.npy"
expect_rc 0 "a kernel that drifts after its verified launch still verifies"
msg=$(python3 "$T_DIR/npy.py" check "$T_DIR" 24 40 32 N N 1 0 2>&1) \
   && ok "--out is the verified launch's C ($msg)" || not_ok "--out is the verified launch's C" "$msg"
run_gemmtop run $small --ablate no-fma --out "$T_DIR/abl.npy"
expect_rc 2 "--out with --ablate is refused (an ablated C is wrong on purpose)"
expect_in "--ablate" "$ERR" "naming the clash"
expect_in ".ablated.npy" "$ERR" "saying where an ablated C may go"
[ ! -e "$T_DIR/abl.npy" ] && ok "nothing written under the plain name" || not_ok "abl.npy was written"
run_gemmtop run $small --ablate no-fma --out "$T_DIR/abl.ablated.npy"
expect_rc 0 "--out NAME.ablated.npy with --ablate writes the ablated C"
[ -s "$T_DIR/abl.ablated.npy" ] && ok "the ablated C is in abl.ablated.npy" || not_ok "abl.ablated.npy missing" "$ERR"
[ -e "$T_DIR/abl.npy" ] && not_ok "nothing written" "$(ls -l "$T_DIR")" || ok "nothing written"

# float64 files read with --precision float: said on stderr, not done silently.
python3 "$T_DIR/npy.py" make "$T_DIR" double 24 40 32 N N
run_gemmtop run $small --a "$T_DIR/a.npy"
expect_rc 0 "a float64 A with --precision float runs"
expect_in "note: --a $T_DIR/a.npy: float64 values read as float" "$ERR" "the narrowing is said"

# Inputs whose result cannot be finite are refused (exit 2) before the run, naming the
# file and the element, rather than run and blamed on the kernel.
for case in "a <f4 24 32 77 nan:is NaN" "b <f4 32 40 5 inf:is +Inf" "a <f8 24 32 3 -inf:is -Inf" \
            "b <f8 32 40 0 1e300:does not fit in float"; do
   what=${case%%:*}
   want=${case#*:}
   set -- $what
   python3 "$T_DIR/npy.py" special "$T_DIR/$1x.npy" "$2" "$3" "$4" "$5" "$6"
   run_gemmtop run $small --$1 "$T_DIR/$1x.npy"
   expect_rc 2 "--$1 with $6 at element $5 ($2) is refused"
   expect_in "$want" "$ERR" "saying it $want"
done
python3 "$T_DIR/npy.py" special "$T_DIR/big-a.npy" "<f4" 24 32 -1 1e20
python3 "$T_DIR/npy.py" special "$T_DIR/big-b.npy" "<f4" 32 40 -1 1e20
run_gemmtop run $small --a "$T_DIR/big-a.npy" --b "$T_DIR/big-b.npy"
expect_rc 2 "operands whose products overflow float are refused"
expect_in "overflow float" "$ERR" "saying they overflow"
case "$OUT" in *verify*) not_ok "refused before running" "$OUT" ;; *) ok "refused before running" ;; esac
run_gemmtop run $small --a "$T_DIR/big-a.npy" --b "$T_DIR/big-b.npy" --precision double
expect_rc 0 "the same operands in double: no overflow, run and verified"
# The other end: products far below float's smallest normal value (1e-44 here), which
# FP32's underflow (or a GPU's flushing to zero) changes by more than the check allows, are
# refused too, not blamed on the kernel.
python3 "$T_DIR/npy.py" special "$T_DIR/tiny-a.npy" "<f4" 24 32 -1 1e-22
python3 "$T_DIR/npy.py" special "$T_DIR/tiny-b.npy" "<f4" 32 40 -1 -1e-22
run_gemmtop run $small --a "$T_DIR/tiny-a.npy" --b "$T_DIR/tiny-b.npy"
expect_rc 2 "operands whose products underflow float are refused"
expect_in "the inputs underflow float: |alpha| |a(i,k) b(k,j)| reach at most 1e-44" "$ERR" "saying they underflow"
expect_in "scale them up" "$ERR" "and what to do"
case "$OUT" in *verify*) not_ok "refused before running" "$OUT" ;; *) ok "refused before running" ;; esac
run_gemmtop run $small --a "$T_DIR/tiny-a.npy" --b "$T_DIR/tiny-b.npy" --precision double
expect_rc 0 "the same operands in double: far above its smallest normal value, run and verified"
finish
