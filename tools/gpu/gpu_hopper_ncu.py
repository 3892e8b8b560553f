#!/usr/bin/env python3
"""gemmtop's bank model of the Hopper ladder's shared-memory accesses (gemmtop banks: the
TMA's writes and wgmma's reads of a tile under each swizzle mode) against Nsight Compute,
on the GPU machine. wgmma reads shared memory through its own path, which ncu counts
apart (op_gmma): its bytes, and its wavefronts, which a bank conflict would add to. The
TMA's writes have no wavefront or conflict counter in ncu; what it gives is the bank
writes, which stay the same under every swizzle mode, and the bytes the copy engine reads
from L2 (twice the tile's bytes without swizzle: each 16-byte row takes a 32-byte sector).
   python3 tools/gpu/gpu_hopper_ncu.py [OUTDIR] > hopper-vs-ncu.md
Every counter collected goes to OUTDIR/hopper-ncu.txt; the table to standard output, and a
last line that says whether every case agrees."""
import json, os, subprocess, sys

import ncu_csv

B = os.environ.get("GEMMTOP_BIN", "build/gemmtop")
out = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", ".")
SIZE = 256
METRICS = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum", "sm__sass_data_bytes_mem_shared_op_gmma.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_writes.sum",
           "l1tex__m_xbar2l1tex_read_bytes_pipe_tma.sum", "smsp__sass_inst_executed_op_tma_ld.sum"]
# (kernel or "preset", precision, parameters or preset name)
CASES = [("hopper1_tma", "half", {"BM": 128, "BN": 128, "BK": 64, "SW": sw}) for sw in (0, 32, 64, 128)]
CASES += [("hopper1_tma", "tf32", {"BM": 128, "BN": 128, "BK": 32, "SW": sw}) for sw in (0, 128)]
CASES += [("preset", "", p) for p in ("hopper-3-warpspec-half", "hopper-5-order-half", "hopper-5-order")]
ES = {"half": 2, "bfloat16": 2, "tf32": 4, "float": 4}


def args(kernel, precision, params):
    if kernel == "preset":
        return ["--preset", params]
    return ["--kernel", kernel, "--precision", precision] + sum((["--set", f"{k}={v}"] for k, v in params.items()), [])


def wgmma_bytes(o):
    """The bytes the kernel's wgmma read, from its parameters: per k-step of 32 bytes, BM/64
    instructions, each reading 64 rows of A and BN rows of B (three times in 3xTF32)."""
    p, prm = o["problem"], o["params"]
    es = ES[p["precision"]]
    bm, bn, bk = prm["BM"], prm["BN"], prm["BK"]
    mp = -(-p["m"] // (bm * prm.get("CLUSTER", 1))) * bm * prm.get("CLUSTER", 1)
    np_, kp = -(-p["n"] // bn) * bn, -(-p["k"] // bk) * bk
    blocks, tiles, ksteps = (mp // bm) * (np_ // bn), kp // bk, bk * es // 32
    per_step = bm // 64 * (64 * 32 + bn * 32) * (3 if p["precision"] == "float" else 1)
    return blocks * tiles * ksteps * per_step


log = open(os.path.join(out, "hopper-ncu.txt"), "w")
print("| case | precision | swizzle | wgmma bytes: kernel / ncu | wgmma wavefronts: gemmtop / ncu | "
      "TMA: gemmtop conflicts | ncu bank writes | ncu bytes from L2 | agree |")
print("|---|---|---|---|---|---|---|---|---|")
agree_all, writes_by_case = True, {}
for kernel, precision, params in CASES:
    a = args(kernel, precision, params)
    prec = precision
    if kernel == "preset":  # a preset's precision is in its file
        for line in open(f"presets/{params}.preset"):
            if line.split("=")[0].strip() == "precision":
                prec = line.split("=")[1].strip()
    g = subprocess.run([B, "banks", "--backend", "cuda", "--size", str(SIZE), "--format", "json"] + a,
                       capture_output=True, text=True)
    try:
        o = json.loads(g.stdout)
        sites = {s["name"]: s for s in o["sites"]}
        tma, read = sites["TMA write A (model)"], sites["wgmma read A (model)"]
    except (ValueError, KeyError):
        print(f"| {kernel} {params} | {prec} | | gemmtop banks failed: {g.stderr.strip()[:200]} | | | | | no |")
        agree_all = False
        continue
    o["problem"] = {"m": SIZE, "n": SIZE, "k": SIZE, "precision": prec}
    run = [B, "run", "--backend", "cuda", "--size", str(SIZE), "--reps", "1", "--warmup", "0", "--no-verify"] + a
    vals, tail = ncu_csv.measure(run, METRICS)
    log.write(f"\n## {kernel} {precision} {params}\nmodel: {json.dumps(o['sites'])}\n" +
              "".join(f"{k} = {v:g}\n" for k, v in sorted(vals.items())) + ("" if vals else tail))
    if not vals:
        print(f"| {kernel} {params} | | | ncu gave nothing (see hopper-ncu.txt) | | | | | no |")
        agree_all = False
        continue
    kbytes = wgmma_bytes(o)
    ratio = read["wavefronts"] / read["ideal_wavefronts"]
    predicted = kbytes / 128 * ratio  # 128 bytes a wavefront when conflict-free
    nbytes, nwaves = vals.get(METRICS[1], -1), vals.get(METRICS[0], -1)
    agree = nbytes == kbytes and nwaves == predicted and tma["conflicts"] == 0
    agree_all &= agree
    sw = o["params"]["SW"]
    key = (o["kernel"], o["problem"]["precision"], o["params"]["BM"], o["params"]["BN"], o["params"]["BK"])
    writes_by_case.setdefault(key, set()).add(vals.get(METRICS[3], -1))
    label = params if kernel == "preset" else o["kernel"]
    print(f"| {label} | {o['problem']['precision']} | {sw or 'none'} | {kbytes} / {nbytes:.0f} | {predicted:.0f} / "
          f"{nwaves:.0f} | {tma['conflicts']} | {vals.get(METRICS[3], -1):.0f} | "
          f"{vals.get(METRICS[4], -1):.0f} | {'yes' if agree else 'NO'} |", flush=True)
log.close()
# The TMA's writes: the same bank writes under every swizzle mode of one tile shape.
same = all(len(w) == 1 for w in writes_by_case.values())
print(f"\nTMA bank writes the same under every swizzle mode of a tile shape: {'yes' if same else 'NO'}")
print("all agree" if agree_all and same else "some disagree: see above")
