#!/usr/bin/env python3
"""Runs every variant of the ladder on one device at one size, trying random parameter
sets within a budget, and writes one JSON line per run (gemmtop's own output) plus a
summary table: the best verified configuration of each variant.

   python3 tools/gpu/gpu_ladder.py --device NVIDIA --size 4096 --budget 20 --out results.jsonl

Each configuration is one `gemmtop run` process, so a crash or a hang in one cannot take the
others with it. Used for docs/perf.md; it is a benchmark, not a test."""
import argparse, itertools, json, os, random, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="build/gemmtop")
ap.add_argument("--device", default=None)
ap.add_argument("--size", type=int, default=4096)
ap.add_argument("--budget", type=int, default=20, help="valid configurations per variant besides the defaults")
ap.add_argument("--kernels", default="", help="comma-separated names (default: every visible variant)")
ap.add_argument("--reps", type=int, default=10)
ap.add_argument("--seconds", type=float, default=500, help="stop starting new runs after this long")
ap.add_argument("--out", default="ladder.jsonl")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--extra", default="", help="extra options for every run, e.g. '--precision double'")
args = ap.parse_args()

t0 = time.time()
listing = subprocess.run([args.bin, "list", "kernels", "--format", "json"], capture_output=True, text=True, check=True)
kernels = [json.loads(l) for l in listing.stdout.splitlines() if l.strip()]
if args.kernels:
    want = args.kernels.split(",")
    kernels = [k for k in kernels if k["name"] in want]

rnd = random.Random(args.seed)
best = {}
out = open(args.out, "a")
base = [args.bin, "run", "--size", str(args.size), "--reps", str(args.reps), "--warmup", "3", "--format", "json"]
if args.device:
    base += ["--device", args.device]
base += args.extra.split()

def run(kernel, params):
    cmd = base + ["--kernel", kernel] + sum((["--set", f"{n}={v}"] for n, v in params.items()), [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return {"kernel": kernel, "params": params, "status": "timeout"}
    line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    try:
        r = json.loads(line)
    except ValueError:
        r = {"kernel": kernel, "params": params, "status": "crash", "stderr": p.stderr[-2000:]}
    r["exit"] = p.returncode
    return r

for k in kernels:
    names = [p["name"] for p in k["parameters"]]
    defaults = {p["name"]: p["default"] for p in k["parameters"]}
    space = list(itertools.product(*[p["values"] for p in k["parameters"]])) if names else [()]
    rnd.shuffle(space)
    candidates = [defaults] + [dict(zip(names, c)) for c in space if dict(zip(names, c)) != defaults]
    valid = 0
    tried = 0
    for params in candidates:
        if time.time() - t0 > args.seconds or valid > args.budget or tried > 40 * (args.budget + 1):
            break
        tried += 1
        r = run(k["name"], params)
        if r.get("status") == "invalid":
            continue
        valid += 1
        out.write(json.dumps(r) + "\n")
        out.flush()
        if r.get("verified") and r.get("gflops", 0) > best.get(k["name"], {}).get("gflops", 0):
            best[k["name"]] = r
        print(f'{k["name"]:24s} {" ".join(f"{n}={v}" for n, v in params.items()):50s} '
              f'{r.get("status","?"):12s} {r.get("gflops", 0):10.1f} GFLOPS', flush=True)

print("\nbest verified configuration per variant (size %d):" % args.size)
for k in kernels:
    r = best.get(k["name"])
    if r:
        print(f'{k["name"]:24s} {r["gflops"]:10.1f} GFLOPS  {r["time_ms"]:9.3f} ms  '
              f'{" ".join(f"{n}={v}" for n, v in r["params"].items())}')
    else:
        print(f'{k["name"]:24s} no verified run')
