#!/usr/bin/env python3
"""What limits each kernel, by gemmtop's model (gemmtop explain, no counters) and by Nsight
Compute, side by side, on the GPU machine (issue 32, docs/limits.md). For every preset of
the ladders (myGEMM, DCU, MAGMA, fast, tensor, hopper; CUDA backend, the kernel text
gemmtop runs) at one size:

  python3 tools/gpu/gpu_limits_ncu.py [--size N] [PRESET ...] > limits-vs-ncu.md

It needs the device's ceilings measured (gemmtop list devices --backend cuda --measure, run
first if missing) and ncu on the PATH with counters allowed. Per configuration:

- bytes: the model's global bytes (every load it counts asks the L2) against the bytes L1
  asked of the L2 (lts__t_sectors_srcunit_tex x 32), and the compulsory bytes (each
  element once) against DRAM's (dram__bytes read + write);
- local-memory wavefronts of the loads: the model's reads (bytes / 128, a warp's 32 4-byte
  words a wavefront) times the bank trace's ratio (gemmtop banks: wavefronts over the
  ideal, loads) against l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld;
- occupancy: gemmtop's estimate against ncu's theoretical and achieved; waves against
  launch__waves_per_multiprocessor;
- the limiter: gemmtop's against the unit ncu's speed-of-light puts highest (SM: compute;
  DRAM: memory; L2: L2; L1/shared: local memory or bank conflicts). gemmtop's tail,
  occupancy, latency and launch agree when no unit reaches 60%.

The last lines give the shares that agree (bytes and wavefronts within 10%, the same
limiter): the targets are 90%. Figures within 10% are marked ok, else the ratio. All the
presets (about 65) take about ten minutes; name some to take fewer.

Written on 2026-11-28 without a GPU (no device in that session): its first run on the GPU
machine is still to come, and what it prints then goes into docs/limits.md."""
import json, os, subprocess, sys

import ncu_csv

B = os.environ.get("GEMMTOP_BIN", "build/gemmtop")
SIZE = 4096
args = sys.argv[1:]
if len(args) >= 2 and args[0] == "--size":
    SIZE, args = int(args[1]), args[2:]

METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex.sum",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "sm__maximum_warps_per_active_cycle_pct",
           "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__waves_per_multiprocessor",
           "sm__throughput.avg.pct_of_peak_sustained_elapsed", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
           "lts__throughput.avg.pct_of_peak_sustained_elapsed", "l1tex__throughput.avg.pct_of_peak_sustained_elapsed"]
# ncu's unit -> the limiters of gemmtop's that name it (core/limiter.c: LimitKind_name).
UNITS = {"sm__throughput": ("compute",), "dram__throughput": ("memory",), "lts__throughput": ("L2",),
         "l1tex__throughput": ("local memory", "bank conflicts")}
NO_CEILING = ("tail", "occupancy", "latency", "launch")


def presets():
    names = sorted(p[:-len(".preset")] for p in os.listdir("presets") if p.endswith(".preset"))
    keep = ("0", "1", "dcu", "magma", "fast", "tensor", "hopper")
    return [n for n in names if n.startswith(keep)]


def gemmtop(cmd):
    r = subprocess.run([B] + cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def explain(preset):
    rc, out, err = gemmtop(["explain", "--backend", "cuda", "--preset", preset, "--size", str(SIZE), "--reps", "20",
                            "--format", "json"])
    lines = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    if rc != 0 or len(lines) < 2:
        return None, (err or out).strip().splitlines()[-1:] or ["no output"]
    return (lines[0], lines[1]["limits"]), None


def bank_ratio(preset):
    """Loads' wavefronts over the ideal in the bank trace of the same configuration (1 when
    the kernel reads no local memory)."""
    rc, out, _ = gemmtop(["banks", "--backend", "cuda", "--preset", preset, "--size", "256", "--format", "json"])
    try:
        sites = [s for s in json.loads(out)["sites"] if s["kind"] == "load"]
    except (ValueError, KeyError):
        return None
    wf = sum(s["wavefronts"] for s in sites)
    ideal = sum(s["wavefronts"] - s["conflicts"] for s in sites)
    return wf / ideal if ideal > 0 else 1.0


def near(ours, theirs):
    if ours is None or theirs is None or theirs <= 0:
        return "-", None
    r = ours / theirs
    return ("ok" if abs(r - 1) <= 0.10 else f"{r:.2f}x"), abs(r - 1) <= 0.10


def top_unit(v):
    known = {u: v.get(u + ".avg.pct_of_peak_sustained_elapsed") for u in UNITS}
    known = {u: x for u, x in known.items() if x is not None}
    if not known:
        return None, None
    u = max(known, key=known.get)
    return u, known[u]


rc, out, _ = gemmtop(["list", "devices", "--backend", "cuda", "--format", "json"])
devs = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
dev = next((d for d in devs if d.get("default")), devs[0] if devs else None)
if not dev:
    sys.exit("gemmtop sees no CUDA device")
if "copy_peak_gbps" not in dev:
    gemmtop(["list", "devices", "--backend", "cuda", "--measure"])
    rc, out, _ = gemmtop(["list", "devices", "--backend", "cuda", "--format", "json"])
    dev = next(json.loads(l) for l in out.splitlines() if l.startswith("{"))
print(f"# gemmtop's limiter against Nsight Compute: {dev['name']}, driver {dev['driver']}, ceilings measured "
      f"{dev.get('peaks_measured', '?')}, size {SIZE}\n")
print("| preset | GFLOPS | gemmtop limiter | ncu highest unit | agree | model bytes / L2 requests | compulsory / DRAM "
      "| local wavefronts (model x banks / ncu) | occupancy ours / theoretical / achieved | waves ours / ncu |")
print("|---|---|---|---|---|---|---|---|---|---|")
tally = {"limiter": [], "bytes": [], "dram": [], "wavefronts": []}
for preset in (args or presets()):
    got, why = explain(preset)
    if not got:
        print(f"| {preset} | | gemmtop failed: {why[0][:160]} | | | | | | | |", flush=True)
        continue
    run, lim = got
    if run.get("status") != "ok" or not run.get("gflops"):
        print(f"| {preset} | | {run.get('status')}: {str(run.get('message', ''))[:160]} | | | | | | | |", flush=True)
        continue
    ratio = bank_ratio(preset)
    cmd = ["run", "--backend", "cuda", "--preset", preset, "--size", str(SIZE), "--reps", "1", "--warmup", "0",
           "--no-verify", "--no-store"]
    v, tail = ncu_csv.measure(cmd, METRICS)
    if not v:
        print(f"| {preset} | {run['gflops']:.0f} | {lim['limiter']} | ncu gave nothing | | | | | | |", flush=True)
        print(tail, file=sys.stderr)
        continue
    unit, pct = top_unit(v)
    if lim["limiter"] in NO_CEILING:
        agree = pct is not None and pct < 60
    else:
        agree = unit is not None and lim["limiter"] in UNITS[unit]
    tally["limiter"].append(agree)
    l2_bytes = v.get("lts__t_sectors_srcunit_tex.sum")
    l2_bytes = l2_bytes * 32 if l2_bytes is not None else None
    dram = (v.get("dram__bytes_read.sum") or 0) + (v.get("dram__bytes_write.sum") or 0) or None
    b, bok = near(lim.get("model_bytes"), l2_bytes)
    d, dok = near(lim.get("min_bytes"), dram)
    model_wf = lim["local_bytes"] / 128 * (ratio or 1) if lim.get("local_bytes") else None
    w, wok = near(model_wf, v.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"))
    for key, ok in (("bytes", bok), ("dram", dok), ("wavefronts", wok)):
        if ok is not None:
            tally[key].append(ok)
    occ = lim.get("occupancy")
    waves = lim.get("waves")
    fmt = lambda x, f="{:.0f}": "-" if x is None else f.format(x)
    print(f"| {preset} | {run['gflops']:.0f} | {lim['limiter']}: {lim['words'][:90]} | "
          f"{unit.split('__')[0] if unit else '-'} {fmt(pct)}% | {'yes' if agree else 'NO'} | "
          f"{fmt(lim.get('model_bytes'), '{:.3g}')} / {fmt(l2_bytes, '{:.3g}')} {b} | "
          f"{fmt(lim.get('min_bytes'), '{:.3g}')} / {fmt(dram, '{:.3g}')} {d} | "
          f"{fmt(model_wf, '{:.3g}')} / {fmt(v.get('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum'), '{:.3g}')} {w} | "
          f"{fmt(occ * 100 if occ else None)}% / {fmt(v.get('sm__maximum_warps_per_active_cycle_pct'))}% / "
          f"{fmt(v.get('sm__warps_active.avg.pct_of_peak_sustained_active'))}% | "
          f"{fmt(waves, '{:.2f}')} / {fmt(v.get('launch__waves_per_multiprocessor'), '{:.2f}')} |", flush=True)

print()
for key, what in (("limiter", "the same limiter"), ("bytes", "model bytes within 10% of the L2's requests"),
                  ("dram", "compulsory bytes within 10% of DRAM's"),
                  ("wavefronts", "local wavefronts within 10% of ncu's")):
    xs = tally[key]
    share = f"{100 * sum(xs) / len(xs):.0f}% ({sum(xs)} of {len(xs)})" if xs else "none measured"
    print(f"- {what}: {share}")
