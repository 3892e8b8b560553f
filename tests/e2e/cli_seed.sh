#!/bin/sh
# One --seed, one set of inputs (issue 44): a run's random A, B and C0 are the published
# Philox4x32-10 stream (a stream per matrix: the element stored at index s is word s, two
# words for double), made here again by an independent implementation in Python from the
# algorithm alone; the run's C (--out) is then checked against alpha A B + beta C0 computed
# in Python. For float and double, in two layouts; a second run of the same seed gives the
# same C bit for bit.
. "$(dirname "$0")/lib.sh"

cat >"$T_DIR/philox.py" <<'PY'
import struct, sys

M32 = 0xFFFFFFFF

def block(ctr, key):
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0) & M32, p1 & M32, ((p0 >> 32) ^ c3 ^ k1) & M32, p0 & M32
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c0, c1, c2, c3

def word(seed, stream, w):
    b = w // 4
    return block((b & M32, b >> 32, stream, 0), (seed & M32, seed >> 32))[w % 4]

def value(seed, stream, s, wide):
    if wide:  # 53 bits from words 2s (low) and 2s+1 (high)
        x = ((word(seed, stream, 2 * s + 1) << 32) | word(seed, stream, 2 * s)) >> 11
        return (x - 2 ** 52) / 2 ** 52
    return ((word(seed, stream, s) >> 8) - 2 ** 23) / 2 ** 23

def read_npy(path):
    data = open(path, "rb").read()
    hl = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + hl].decode()
    size = 8 if "<f8" in header else 4
    body = data[10 + hl:]
    return struct.unpack("<%d%s" % (len(body) // size, "d" if size == 8 else "f"), body)

seed, m, n, k, ta, tb, alpha, beta, prec, path = sys.argv[1:]
seed, m, n, k, ta, tb, alpha, beta = int(seed), int(m), int(n), int(k), ta == "T", tb == "T", float(alpha), float(beta)
wide = prec == "double"
if not wide:  # the device takes alpha and beta in float
    alpha, beta = struct.unpack("<2f", struct.pack("<2f", alpha, beta))
A = [[value(seed, 1, (kk * m + i) if ta else (i * k + kk), wide) for kk in range(k)] for i in range(m)]
B = [[value(seed, 2, (j * k + kk) if tb else (kk * n + j), wide) for j in range(n)] for kk in range(k)]
C = read_npy(path)
worst = 0.0
for i in range(m):
    for j in range(n):
        c0 = value(seed, 3, i * n + j, wide)
        ref = alpha * sum(A[i][kk] * B[kk][j] for kk in range(k)) + beta * c0
        scale = abs(alpha) * sum(abs(A[i][kk] * B[kk][j]) for kk in range(k)) + abs(beta * c0)
        worst = max(worst, abs(C[i * n + j] - ref) / scale)
tol = 1e-13 if wide else 1e-5
print("ok" if worst <= tol else "off", worst)
PY

check() { # precision layout
   run_gemmtop run --kernel general_any --precision "$1" --layout "$2" -m 9 -n 7 -k 13 --alpha 1.5 --beta 0.75 \
      --seed 20261129 --out "$T_DIR/c.npy"
   expect_rc 0 "$1 $2: a verified run with --seed"
   got=$(python3 "$T_DIR/philox.py" 20261129 9 7 13 "$(printf %.1s "$2")" "$(printf %s "$2" | cut -c2)" 1.5 0.75 \
      "$1" "$T_DIR/c.npy")
   case "$got" in ok*) ok "$1 $2: C is alpha A B + beta C0 of the Philox streams made in Python ($got)" ;;
   *) not_ok "$1 $2: C against the Philox streams made in Python" "$got" ;; esac
}
check float NN
check float TN
check double NT

run_gemmtop run --kernel general_any --precision double --layout NT -m 9 -n 7 -k 13 --alpha 1.5 --beta 0.75 \
   --seed 20261129 --out "$T_DIR/again.npy"
cmp -s "$T_DIR/c.npy" "$T_DIR/again.npy" && ok "the same seed gives the same C, bit for bit" ||
   not_ok "the same seed gave another C"
finish
