#!/usr/bin/env python3
"""The Hopper ladder's shared-memory traffic as Nsight Compute counts it, beside gemmtop's
model of the same accesses (gemmtop banks: the TMA's writes of A and wgmma's reads of A,
under each swizzle mode). TMA and wgmma reach shared memory outside the LSU, so the
counters that gpu_banks_ncu.py compares (LSU wavefronts and bank conflicts) do not see
them; this script lists the counters this ncu has for shared memory, the TMA and GMMA,
collects them for each case, and prints the nonzero ones with gemmtop's model beside them.
   python3 tools/gpu/gpu_hopper_ncu.py OUTDIR
Everything goes to OUTDIR/hopper-ncu.txt; the summary to standard output."""
import csv, io, json, os, re, subprocess, sys

B = os.environ.get("GEMMTOP_BIN", "build/gemmtop")
out = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", ".")
log = open(os.path.join(out, "hopper-ncu.txt"), "w")
WANT = re.compile(r"shared|tma|gmma|data_bank|dsmem|utma|shmem", re.I)

listed = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True).stdout
names = sorted({w for line in listed.splitlines() for w in line.split()[:1] if WANT.search(w) and "__" in w})
log.write("# counters of this ncu for shared memory, TMA and GMMA:\n" + "\n".join(names) + "\n")
print(f"{len(names)} counters name shared memory, TMA or GMMA")

CASES = [("hopper1_tma", "half", {"BM": 128, "BN": 128, "BK": 64, "SW": sw}) for sw in (0, 32, 64, 128)]
CASES += [("preset", "", "hopper-5-order-half"), ("preset", "", "hopper-5-order")]


def args(kernel, precision, params):
    if kernel == "preset":
        return ["--preset", params]
    return ["--kernel", kernel, "--precision", precision] + sum((["--set", f"{k}={v}"] for k, v in params.items()), [])


def ncu(run, metrics):
    n = subprocess.run(["ncu", "--clock-control", "none", "--kernel-name", "gemm", "--launch-count", "1", "--csv",
                        "--metrics", metrics] + run, capture_output=True, text=True)
    vals = {}
    text = n.stdout[n.stdout.find('"ID"'):] if '"ID"' in n.stdout else ""
    for row in csv.DictReader(io.StringIO(text)):
        try:
            vals[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
        except (KeyError, ValueError):
            pass
    if not vals:
        log.write(f"# ncu gave nothing for {metrics[:80]}:\n{n.stdout[-2000:]}\n{n.stderr[-2000:]}\n")
    return vals


for kernel, precision, params in CASES:
    a = args(kernel, precision, params)
    g = subprocess.run([B, "banks", "--backend", "cuda", "--size", "256", "--format", "json"] + a,
                       capture_output=True, text=True)
    try:
        model = json.loads(g.stdout)
        sites = [(s["name"], s["kind"], s["wavefronts"], s["ideal"], s["conflicts"]) for s in model["sites"]]
    except (ValueError, KeyError):
        sites = [("gemmtop banks failed", g.stderr.strip()[:200])]
    run = [B, "run", "--backend", "cuda", "--size", "256", "--reps", "1", "--warmup", "0", "--no-verify"] + a
    # every family in one request; where this ncu refuses that, a request per family
    families = [r"l1tex__data_bank_.*", r"l1tex__data_pipe_.*mem_shared.*", r".*tma.*", r".*gmma.*",
                r"smsp__.*shared.*", r"sm__sass.*shared.*"]
    vals = ncu(run, "regex:^(" + "|".join(families) + r")\.sum$")
    if not vals:
        for f in families:
            vals.update(ncu(run, "regex:^" + f + r"\.sum$") or ncu(run, "regex:^" + f + "$"))
    label = f"{kernel} {precision} {params}"
    log.write(f"\n## {label}\nmodel: {sites}\n" + "".join(f"{k} = {v:g}\n" for k, v in sorted(vals.items())))
    print(f"\n## {label}\nmodel (one request of the traced problem): {sites}")
    for k, v in sorted(vals.items()):
        if v:
            print(f"   {k} = {v:g}")
log.close()
