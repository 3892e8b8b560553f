#!/bin/sh
# Writes the seed corpora of the fuzz harnesses under $1/<harness>/ from the shipped files:
# the expressions of every kernel's metadata, the kernels' metadata blocks, the presets, the
# shape suites, a class server's client sessions, rosters and ladder exports, and
# a few valid .npy files (made here, with python3: float16/float32/float64, 1-D/2-D, C and
# Fortran order, format versions 1.0, 2.0 and 3.0).
set -eu
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/expr" "$out/metadata" "$out/preset" "$out/npy" "$out/tuners" "$out/serve" "$out/roster" "$out/merge" \
   "$out/shapes"
n=0
for f in "$root"/kernels/*.cl; do
   b=$(basename "$f" .cl)
   # The metadata block only: the kernel's code below it is not read by the parser.
   sed -n '1,/\*\//p' "$f" >"$out/metadata/$b"
   # One expression per file, after a byte that picks the names' values (fuzz_expr.c).
   sed -n 's/^\(require\|localmem\):[[:space:]]*\([^;]*\).*/\2/p; s/^\(global\|local\):[[:space:]]*//p' "$f" |
      while IFS= read -r e; do
         n=$((n + 1))
         printf '\005%s' "$e" >"$out/expr/$b-$n"
      done
done
cp "$root"/presets/*.preset "$out/preset/"
# Other tuners' files (gemmtop results import): a Kernel Tuner T4 file, a CLBlast one.
cp "$root"/tests/data/t4_kernel_tuner.json "$root"/tests/data/clblast_xgemm_1_32.json "$out/tuners/"
# Shape suites: the shipped ones.
cp "$root"/shapes/*.shapes "$out/shapes/"
# A class server's client: a kernel file sent (also with Windows line ends), a job, a run,
# class requests; rosters; ladder exports of fuzz_merge.c's lesson of two steps.
python3 - "$out" "$root/tests/kernels/class/class_honest.cl" <<'PY'
import sys
out, kernel = sys.argv[1], open(sys.argv[2], "rb").read()
job = (b"job opencl 0 class_honest 64 64 64 float 0 0 0x1p+0 0x0p+0 7 3 1 0x1.4p+3 0 tensor /k\n")
def put(folder, name, data):
    with open("%s/%s/%s" % (out, folder, name), "wb") as f:
        f.write(data)
put("serve", "submit", b"file class_honest.cl %d\n" % len(kernel) + kernel + b"submit hw TS=16\n")
crlf = kernel.replace(b"\n", b"\r\n")
put("serve", "run-crlf", b"file class_honest.cl %d\n" % len(crlf) + crlf + job + b"run 16\nvendor\n")
spliced = kernel.replace(b"__kernel", b"#define TWO(a) \\\n   ((a) + (a))\n#pragma unroll\n__kernel", 1)
put("serve", "splice", b"file my-k.cl %d\n" % len(spliced) + spliced + b"class mine hw\nclass board hw json\n")
put("roster", "class", b"# CS 4xx\n20001 Ada Lovelace\n20002  Bob Example  # late\nlecturer 0 Carol Teacher\n")
put("roster", "logins", b"root Root\nlecturer 20003 Zo\xc3\xab \xc4\x80ngstr\xc3\xb6m\n")
head = (b"step,label,gflops,emulated,ablated,refused,speedup_previous,speedup_first,percent_of_best,vs_real,"
        b"reference_gflops,reference,configuration,device,date,timing,limit\n")
put("merge", "alice.csv", head + b"1,1 01-naive: Naive,2.000,false,false,,,,,,,,TS=16,a laptop,2026-11-29 06:00 UTC,,\n"
    b"2,2 02-tiled,5.000,false,false,,2.5000,2.5000,100.0,,,,TS=16,a laptop,2026-11-29 06:00 UTC,,\n")
put("merge", "bob.csv", head + b"1,1 01-naive: Naive,,,,\"work-group of 1024, over 256\",,,,,,,,\"GPU, \"\"big\"\"\",,,\n"
    b"2,2 02-tiled,900.000,true,false,,,,,,,,,\"GPU, \"\"big\"\"\",2026-11-29,,\n")
PY
python3 - "$out/npy" <<'PY'
import struct, sys
out = sys.argv[1]
def npy(name, descr, shape, fortran, version, values):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)
    magic = b"\x93NUMPY" + bytes([version, 0])
    lenfmt = "<H" if version == 1 else "<I"
    pre = len(magic) + struct.calcsize(lenfmt)
    pad = (64 - (pre + len(header) + 1) % 64) % 64
    header = header + " " * pad + "\n"
    fmt = "<%d%s" % (len(values), {"<f2": "e", "<f4": "f", "<f8": "d"}[descr])
    with open("%s/%s" % (out, name), "wb") as f:
        f.write(magic + struct.pack(lenfmt, len(header)) + header.encode("latin1") + struct.pack(fmt, *values))
npy("f4_2x3_v1", "<f4", "(2, 3)", "False", 1, [1, 2, 3, 4, 5, 6])
npy("f8_3x2_fortran_v1", "<f8", "(3, 2)", "True", 1, [0.5, -1, 2, 3e10, -4, 5])
npy("f4_4_v2", "<f4", "(4,)", "False", 2, [1, 2, 3, 4])
npy("f8_1x1_v3", "<f8", "(1, 1)", "False", 3, [7])
npy("f4_0x3_v1", "<f4", "(0, 3)", "False", 1, [])
npy("f2_2x2_v1", "<f2", "(2, 2)", "False", 1, [1, -0.5, 65504, 6e-8])
PY
