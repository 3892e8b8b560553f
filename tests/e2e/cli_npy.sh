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
finish
