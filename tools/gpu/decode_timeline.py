#!/usr/bin/env python3
"""Where a decode launch's time goes, block by block (tools/gpu/gpu_decode_timeline.sh).

  decode_timeline.py make DIR [PRESET.preset ...]
      writes DIR/kernels/hopper9_timeline.cl, Hopper step 9 (kernels/hopper9_swapab.cl) with
      %globaltimer stamps in place of its results, and DIR/NAME.preset for each preset given
      (its kernel renamed). The stamps go where C would: run it with --no-verify --out C.npy.
  decode_timeline.py read C.npy BLOCKS [EVENT_MS]
      the stamps of the last launch: when the blocks started, when their first and last
      stage of the weight arrived, when they ended, on which multiprocessor; with EVENT_MS
      (the run's median by CUDA events) what lies outside the kernel's first and last
      instruction.

The stamps of block b (32-bit words of C): 16 from b * 16, u64 pairs for its start, the end
of its set-up, its first and last full stage (seen by the first consumer thread), the
producer's last load issued and its end, and word 12 its %smid. C must hold 16 * BLOCKS
words (M x N floats). The kernel otherwise computes what step 9 computes, so the timing is
the shipped kernel's plus a few stores.
"""
import ast
import os
import struct
import sys

SOURCE = "kernels/hopper9_swapab.cl"
NAME = "hopper9_timeline"
SLOTS = ("start", "set-up done", "first stage", "last stage", "end", "last load issued")

STAMP_HELPERS = """/* The timeline's stamps (tools/gpu/decode_timeline.py): u64 pairs in C's words. */
__device__ inline unsigned long long gtNow(void) {
   unsigned long long t;
   asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
   return t;
}
__device__ inline void gtStamp(float *C, int slot, unsigned long long t) {
   unsigned *w = (unsigned *)C + blockIdx.x * 16 + slot * 2;
   w[0] = (unsigned)t;
   w[1] = (unsigned)(t >> 32);
}
__device__ inline void gtSmid(float *C) {
   unsigned s;
   asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
   ((unsigned *)C)[blockIdx.x * 16 + 12] = s;
}
"""

# (what the kernel has, what the timeline puts there): each must be found exactly once, so
# that a change to step 9 stops this tool with a message instead of a wrong timeline.
EDITS = (
    ("name:     hopper9_swapab", "name:     " + NAME),
    ("step:     9\n", "step:     90\n"),
    ("__kernel __launch_bounds__", STAMP_HELPERS + "__kernel __launch_bounds__"),
    ("   extern __shared__ __align__(1024) unsigned char gt_dynamic[];",
     "   const unsigned long long tStart = gtNow();\n"
     "   extern __shared__ __align__(1024) unsigned char gt_dynamic[];"),
    ("   __syncthreads();\n   if (wg == 0) {",
     "   __syncthreads();\n"
     "   if (tid == 0) {\n      gtStamp(C, 0, tStart);\n      gtStamp(C, 1, gtNow());\n      gtSmid(C);\n   }\n"
     "   if (wg == 0) {"),
    ("            loadTiles(ring + s * STAGE, &tmA, &tmB, t0 + (t + rot) % tiles, m0, n0, &full[s]);\n         }\n",
     "            loadTiles(ring + s * STAGE, &tmA, &tmB, t0 + (t + rot) % tiles, m0, n0, &full[s]);\n         }\n"
     "      if (tid == 0)\n         gtStamp(C, 5, gtNow());\n"),
    ("         gt_mbar_wait(&full[s], (t / STAGES) & 1);\n         FENCE_ACC();",
     "         gt_mbar_wait(&full[s], (t / STAGES) & 1);\n"
     "         if (tid == 128 && t == 0)\n            gtStamp(C, 2, gtNow());\n"
     "         if (tid == 128 && t == tiles - 1)\n            gtStamp(C, 3, gtNow());\n"
     "         FENCE_ACC();"),
    # The sums kept alive (an unlikely total is stored) instead of C written.
    ("      storeC(sum, ctid, n0 + r0, m0, N, alpha * SCALE_AB, beta, SPLIT > 1 ? W + (size_t)z * M * N : C);",
     "      float total = 0.0f;\n"
     "      for (int m = 0; m < WN / 64; m++)\n         for (int i = 0; i < BT / 2; i++)\n"
     "            total += sum[m][i];\n"
     "      if (total == 12345.5f)\n         W[ctid] = total;\n"
     "      __syncwarp();\n"
     "      if (tid == 128)\n         gtStamp(C, 4, gtNow());"),
)


def fail(msg):
    sys.stderr.write("decode_timeline.py: %s\n" % msg)
    sys.exit(2)


def make(out, presets):
    try:
        src = open(SOURCE).read()
    except OSError as e:
        fail("%s: %s (run from the repository's root)" % (SOURCE, e.strerror))
    for old, new in EDITS:
        n = src.count(old)
        if n != 1:
            fail("%s has %d places like %r where 1 was expected: step 9 changed, so the timeline's "
                 "stamps need placing again" % (SOURCE, n, old.strip().splitlines()[0]))
        src = src.replace(old, new)
    os.makedirs(os.path.join(out, "kernels"), exist_ok=True)
    with open(os.path.join(out, "kernels", NAME + ".cl"), "w") as f:
        f.write(src)
    for p in presets:
        try:
            lines = open(p).read().splitlines()
        except OSError as e:
            fail("%s: %s" % (p, e.strerror))
        kept = [l for l in lines if not l.startswith("#")]
        if not any(l.replace(" ", "") == "kernel=hopper9_swapab" for l in kept):
            fail("%s is not a preset of hopper9_swapab" % p)
        name = os.path.basename(p)[:-len(".preset")] if p.endswith(".preset") else os.path.basename(p)
        with open(os.path.join(out, name + "-timeline.preset"), "w") as f:
            for l in kept:
                f.write(("kernel = " + NAME if l.replace(" ", "") == "kernel=hopper9_swapab" else l) + "\n")


def words(path):
    b = open(path, "rb").read()
    if b[:6] != b"\x93NUMPY":
        fail("%s is not a .npy file" % path)
    hl = struct.unpack("<H", b[8:10])[0] if b[6] == 1 else struct.unpack("<I", b[8:12])[0]
    start = 10 if b[6] == 1 else 12
    header = ast.literal_eval(b[start:start + hl].decode("latin-1"))
    if header.get("descr") not in ("<f4", "<u4", "<i4"):
        fail("%s holds %s, not 32-bit words" % (path, header.get("descr")))
    data = b[start + hl:]
    return struct.unpack("<%dI" % (len(data) // 4), data[:len(data) // 4 * 4])


def spread(vals):
    v = sorted(vals)
    n = len(v)
    return v[0], v[n // 2], v[min(n - 1, int(n * 0.9))], v[-1]


def read(path, blocks, event_ms):
    w = words(path)
    if len(w) < 16 * blocks:
        fail("%s has %d words: %d blocks' stamps need %d (C of at least %d floats)" %
             (path, len(w), blocks, 16 * blocks, 16 * blocks))
    rows = []
    for b in range(blocks):
        o = b * 16
        st = [w[o + 2 * j] | (w[o + 2 * j + 1] << 32) for j in range(len(SLOTS))]
        if not all(st) or not st[0] <= st[1] <= st[2] <= st[3] <= st[4]:
            fail("block %d's stamps are missing or out of order (%s): not a timeline kernel's C, or "
                 "BLOCKS is more than the launch had" % (b, ", ".join(str(x) for x in st)))
        rows.append((st, w[o + 12]))
    t0 = min(st[0] for st, _ in rows)
    us = lambda ns: ns / 1e3
    print("%d blocks on %d multiprocessors; microseconds from the first block's start" %
          (blocks, len(set(sm for _, sm in rows))))
    print("%-34s %8s %8s %8s %8s" % ("", "min", "median", "p90", "max"))
    lines = (
        ("blocks start", [st[0] - t0 for st, _ in rows]),
        ("set-up (start to its end)", [st[1] - st[0] for st, _ in rows]),
        ("first stage (from the block's start)", [st[2] - st[0] for st, _ in rows]),
        ("last load issued", [st[5] - t0 for st, _ in rows]),
        ("last stage", [st[3] - t0 for st, _ in rows]),
        ("blocks end", [st[4] - t0 for st, _ in rows]),
        ("stream (first to last stage)", [st[3] - st[2] for st, _ in rows]),
    )
    for name, vals in lines:
        print("%-34s %8.2f %8.2f %8.2f %8.2f" % ((name,) + tuple(us(x) for x in spread(vals))))
    span = max(st[4] for st, _ in rows) - t0
    first = sorted(st[2] for st, _ in rows)[blocks // 2] - t0
    last = max(st[3] for st, _ in rows) - t0
    print("kernel span (first start to last end) %.2f us; the weight streamed from the median first "
          "stage to the last one in %.2f us" % (us(span), us(last - first)))
    if event_ms is not None:
        print("CUDA events %.2f us: %.2f us outside the kernel's first and last instruction" %
              (event_ms * 1e3, event_ms * 1e3 - us(span)))
    by_sm = sorted((sm, st[4] - t0) for st, sm in rows)
    print("end by multiprocessor (id: us):")
    for i in range(0, len(by_sm), 12):
        print("  " + "  ".join("%3d:%5.1f" % (sm, us(t)) for sm, t in by_sm[i:i + 12]))


def main(argv):
    if len(argv) >= 3 and argv[1] == "make":
        make(argv[2], argv[3:])
    elif len(argv) in (4, 5) and argv[1] == "read":
        try:
            blocks = int(argv[3])
            event_ms = float(argv[4]) if len(argv) == 5 else None
        except ValueError:
            fail("BLOCKS is a whole number and EVENT_MS a number of milliseconds")
        if blocks < 1:
            fail("BLOCKS is at least 1")
        read(argv[2], blocks, event_ms)
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
