#!/bin/sh
# tools/gpu/decode_timeline.py and gpu_decode_timeline.sh without a GPU (issue 49): the
# timeline kernel made from today's Hopper step 9 compiles for sm_90a with its stamps and
# without spills; a step 9 that no longer has a place the stamps go stops the tool with a
# message; the stamps of a launch are read back into the right figures, and stamps that
# are missing or out of order are refused. The GPU script runs against a stand-in gemmtop
# that writes known stamps: it must take the 8-token preset up to 8 tokens and the 16-token
# one above, time the shipped kernel verified and the timeline one unverified with --out,
# count the blocks of each size, pass --cold-l2 in the cold pass only, and put each row in
# the short table.
. "$(dirname "$0")/lib.sh"

tl=tools/gpu/decode_timeline.py
python3 $tl make "$T_DIR/made" presets/hopper-9-swapab-decode-t8-bf16.preset >"$T_DIR/make.log" 2>&1 &&
   [ -f "$T_DIR/made/kernels/hopper9_timeline.cl" ] && [ -f "$T_DIR/made/hopper-9-swapab-decode-t8-bf16-timeline.preset" ] &&
   grep -q '^kernel = hopper9_timeline$' "$T_DIR/made/hopper-9-swapab-decode-t8-bf16-timeline.preset" &&
   ok "make writes the timeline kernel and its preset" || not_ok "make" "$(cat "$T_DIR/make.log")"

stamps=$(grep -c 'gtStamp(C, [0-5], ' "$T_DIR/made/kernels/hopper9_timeline.cl")
[ "$stamps" -eq 6 ] && ! grep -q 'storeC(sum' "$T_DIR/made/kernels/hopper9_timeline.cl" &&
   ok "six stamps in place of C's stores" || not_ok "the stamps: $stamps" "$(grep -n gtStamp "$T_DIR/made/kernels/hopper9_timeline.cl")"

if have_nvrtc; then
   GEMMTOP_KERNELS="$GEMMTOP_KERNELS:$T_DIR/made/kernels" run_gemmtop inspect --backend cuda --arch sm_90a \
      --preset "$T_DIR/made/hopper-9-swapab-decode-t8-bf16-timeline.preset" --size 8x8192x8192 --code ptx
   spills=$(printf '%s\n' "$OUT" | sed -n 's/^spills  *\([0-9]*\) B stores, \([0-9]*\) B loads.*/\1\2/p')
   timers=$(printf '%s\n' "$OUT" | grep -c '%globaltimer')
   [ "$RC" -eq 0 ] && [ "$spills" = 00 ] && [ "$timers" -ge 4 ] &&
      ok "the timeline kernel compiles for sm_90a, no spills, reading the global timer" ||
      not_ok "the timeline kernel for sm_90a (rc $RC, spills '$spills', $timers timer reads)" "$(printf '%s\n' "$OUT" | head -12)"
else
   ok "the timeline kernel for sm_90a # SKIP $(nvrtc_missing)"
fi

# A step 9 without the place the first stamp goes: named, nothing written.
mkdir -p "$T_DIR/changed/kernels"
sed 's/const unsigned char gt_dynamic/const unsigned char gt_renamed/; s/unsigned char gt_dynamic\[\]/unsigned char gt_renamed[]/' \
   kernels/hopper9_swapab.cl >"$T_DIR/changed/kernels/hopper9_swapab.cl"
(cd "$T_DIR/changed" && python3 "$OLDPWD/$tl" make "$T_DIR/changed/out") >"$T_DIR/changed.log" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q 'step 9 changed' "$T_DIR/changed.log" && [ ! -e "$T_DIR/changed/out" ] &&
   ok "a changed step 9 stops make with a message" || not_ok "a changed step 9 (rc $rc)" "$(cat "$T_DIR/changed.log")"
python3 $tl make "$T_DIR/other" presets/tensor-9-decode-bfloat16.preset >"$T_DIR/other.log" 2>&1
[ $? -eq 2 ] && grep -q 'not a preset of hopper9_swapab' "$T_DIR/other.log" &&
   ok "a preset of another kernel is refused" || not_ok "another kernel's preset" "$(cat "$T_DIR/other.log")"

# Stamps of four blocks on known multiprocessors, as the kernel writes them into C.
cat >"$T_DIR/stamps.py" <<'PY'
import struct, sys
# block: start, set-up, first stage, last stage, end, last load (ns after a base), smid
base = 1 << 40
blocks = [(0, 300, 1800, 30000, 30300, 28000, 7), (30, 320, 1900, 31000, 31400, 29000, 3),
          (0, 290, 2000, 33000, 33200, 31000, 12), (30, 300, 1700, 29000, 29100, 27000, 5)]
if sys.argv[2] == "disorder":
    blocks[2] = (0, 290, 2000, 1000, 33200, 31000, 12)
words = [0] * (16 * 8)
for b, st in enumerate(blocks):
    for j, t in enumerate(st[:6]):
        words[b * 16 + 2 * j] = (base + t) & 0xffffffff
        words[b * 16 + 2 * j + 1] = (base + t) >> 32
    words[b * 16 + 12] = st[6]
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, %d), }" % len(words)
header += " " * (63 - len(header) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + struct.pack("<%dI" % len(words), *words))
PY
python3 "$T_DIR/stamps.py" "$T_DIR/c.npy" good
python3 $tl read "$T_DIR/c.npy" 4 0.0365 >"$T_DIR/read.txt" 2>&1
rc=$?
first=$(awk '/^first stage/ { print $(NF-3), $(NF-2), $NF }' "$T_DIR/read.txt")
last=$(awk '/^last stage/ { print $(NF-3), $NF }' "$T_DIR/read.txt")
[ "$rc" -eq 0 ] && [ "$first" = "1.67 1.87 2.00" ] && [ "$last" = "29.00 33.00" ] &&
   grep -q '^4 blocks on 4 multiprocessors' "$T_DIR/read.txt" &&
   grep -q '^kernel span (first start to last end) 33.20 us' "$T_DIR/read.txt" &&
   grep -q '^CUDA events 36.50 us: 3.30 us outside' "$T_DIR/read.txt" &&
   grep -q '  3: 31.4    5: 29.1    7: 30.3   12: 33.2$' "$T_DIR/read.txt" &&
   ok "read gives the stamps' figures: stages, span, what lies outside, the end by multiprocessor" ||
   not_ok "read (rc $rc; first '$first', last '$last')" "$(cat "$T_DIR/read.txt")"
python3 $tl read "$T_DIR/c.npy" 5 >"$T_DIR/read5.txt" 2>&1
[ $? -eq 2 ] && grep -q "block 4's stamps are missing" "$T_DIR/read5.txt" &&
   ok "more blocks than were stamped are refused" || not_ok "five blocks of four" "$(cat "$T_DIR/read5.txt")"
python3 "$T_DIR/stamps.py" "$T_DIR/d.npy" disorder
python3 $tl read "$T_DIR/d.npy" 4 >"$T_DIR/readd.txt" 2>&1
[ $? -eq 2 ] && grep -q "block 2's stamps are missing or out of order" "$T_DIR/readd.txt" &&
   ok "stamps out of order are refused" || not_ok "stamps out of order" "$(cat "$T_DIR/readd.txt")"

# The GPU script against a stand-in gemmtop: the timeline preset's run writes stamps for the
# blocks its size has (N / 64 times the token tiles) and logs what it was handed.
mkdir -p "$T_DIR/bin"
cat >"$T_DIR/bin/gemmtop" <<PY
#!/usr/bin/env python3
import json, os, struct, subprocess, sys
a = sys.argv[1:]
with open("$T_DIR/standin.log", "a") as log:
    log.write(json.dumps({"argv": a, "kernels": os.environ.get("GEMMTOP_KERNELS", "")}) + "\n")
if a[:2] == ["list", "devices"]:
    print("    measured peaks  FP32 1 GFLOPS, FP64 1 GFLOPS, copy 4200.0 GB/s (stand-in)")
    sys.exit(0)
opt = lambda k: a[a.index(k) + 1] if k in a else None
m, n, k = map(int, opt("--size").split("x"))
preset = opt("--preset")
if preset.endswith("-timeline.preset"):
    bt = 8 if "-t8-" in preset else 16
    blocks = n // 64 * -(-m // bt)
    subprocess.run([sys.executable, "$T_DIR/many.py", opt("--out"), str(blocks), str(m * n)], check=True)
    print(json.dumps({"status": "ok", "verified": False, "time_ms": 0.0365}))
else:
    print(json.dumps({"status": "ok", "verified": True, "time_ms": 0.0350}))
PY
cat >"$T_DIR/many.py" <<'PY'
import struct, sys
path, blocks, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
words = [0] * size
for b in range(blocks):
    st = [0, 300, 1800 + b, 30000 + 10 * b, 30200 + 10 * b, 28000]
    for j, t in enumerate(st):
        words[b * 16 + 2 * j] = (10 ** 12 + t) & 0xffffffff
        words[b * 16 + 2 * j + 1] = (10 ** 12 + t) >> 32
    words[b * 16 + 12] = b
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % size
header += " " * (63 - len(header) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + struct.pack("<%dI" % size, *words))
PY
chmod +x "$T_DIR/bin/gemmtop"
OUT="$T_DIR/gpu" B="$T_DIR/bin/gemmtop" SIZES="1x4096x512 16x2048x512" ROUNDS=3 \
   sh tools/gpu/gpu_decode_timeline.sh >"$T_DIR/gpu.log" 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok "the GPU script ends (exit 0)" || not_ok "the GPU script ended with exit $rc" "$(tail -5 "$T_DIR/gpu.log")"
rows=$(awk 'NR > 1' "$T_DIR/gpu/short.txt" 2>/dev/null | wc -l)
[ "$rows" -eq 4 ] && grep -Eq '^1x4096x512 +warm +35\.00 +36\.50 +30\.83 +1\.83 +30\.63 +5\.67$' "$T_DIR/gpu/short.txt" &&
   grep -Eq "^16x2048x512 +cold +35\.00 +36\.50 +30\.51 +1\.82 +30\.31 +5\.99$" "$T_DIR/gpu/short.txt" &&
   ok "the short table: both sizes, both passes, the stamps' figures" ||
   not_ok "the short table ($rows rows)" "$(cat "$T_DIR/gpu/short.txt" "$T_DIR/gpu.log" 2>&1)"
python3 - "$T_DIR/standin.log" >"$T_DIR/argv.txt" 2>&1 <<'PY'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
runs = [r for r in runs if r["argv"][:1] == ["run"]]
for r in runs:
    a = r["argv"]
    preset = a[a.index("--preset") + 1]
    size = a[a.index("--size") + 1]
    timeline = preset.endswith("-timeline.preset")
    expect = "t8" if int(size.split("x")[0]) <= 8 else "t16"
    assert "-%s-" % expect in preset, ("wrong preset", size, preset)
    assert ("--no-verify" in a) == timeline and ("--out" in a) == timeline, ("verification", a)
    assert a[a.index("--reps") + 1] == "3", a
    if timeline:
        assert any(p.endswith("/kernels") and "hopper9" not in p for p in r["kernels"].split(":")[1:]), r["kernels"]
cold = [r["argv"] for r in runs if "--cold-l2" in r["argv"]]
assert len(runs) == 8 and len(cold) == 4, (len(runs), len(cold))
print("fine")
PY
grep -q '^fine$' "$T_DIR/argv.txt" &&
   ok "each run took its size's preset, the timeline unverified with --out, --cold-l2 in the cold pass only" ||
   not_ok "what the stand-in was handed" "$(cat "$T_DIR/argv.txt")"
finish
