#!/usr/bin/env python3
"""Compares gemmtop's bank-conflict analysis (gemmtop banks, CUDA backend) with Nsight
Compute's shared-memory counters for the same kernels, problems and parameters, on the GPU
machine. Loads and stores are compared separately, summed over every work-group of the
traced problem (gemmtop traces all of them here, ncu counts all of them).
   python3 tools/gpu/gpu_banks_ncu.py [KERNEL|PRESET|FILE.preset ...] > banks-vs-ncu.md

Each row also gives gemmtop's view "as compiled" (gemmtop banks --as-compiled: a
work-item's neighbouring scalar accesses of a site merged as NVCC merges them, widths from
the PTX) and whether that view agrees with ncu: on 2026-11-23 the source's view disagreed
for myGEMM steps 2, 3, 5 and DCU 4-6 without padding, the compiled view is expected to
agree everywhere. The tensor ladder (kernels/tensor*.cl, through its presets) is compared
too. The last line says whether every compiled view agrees."""
import json, subprocess, sys

import ncu_csv

B = "build/gemmtop"
CASES = [
    ("test_banks", {"STRIDE": 1, "VEC": 1}), ("test_banks", {"STRIDE": 2, "VEC": 1}),
    ("test_banks", {"STRIDE": 32, "VEC": 1}), ("test_banks", {"STRIDE": 33, "VEC": 1}),
    ("test_banks", {"STRIDE": 0, "VEC": 1}), ("test_banks", {"STRIDE": 4, "VEC": 1}),
    ("test_banks", {"STRIDE": 1, "VEC": 2}), ("test_banks", {"STRIDE": 2, "VEC": 2}),
    ("test_banks", {"STRIDE": 33, "VEC": 2}), ("test_banks", {"STRIDE": 1, "VEC": 4}),
    ("test_banks", {"STRIDE": 2, "VEC": 4}), ("test_banks", {"STRIDE": 33, "VEC": 4}),
    ("mygemm02_tiled", {"TS": 16}), ("mygemm03_wpt", {"TS": 32, "WPT": 8}),
    ("mygemm04_wide", {"TS": 32, "WIDTH": 4}),
    ("mygemm05_transposed", {"TS": 32, "TSDK": 16, "WPT": 8, "PADDING": 0}),
    ("mygemm05_transposed", {"TS": 32, "TSDK": 16, "WPT": 8, "PADDING": 1}),
    ("mygemm05_transposed", {"TS": 32, "TSDK": 16, "WPT": 8, "PADDING": 2}),
    ("mygemm06_2d", {}), ("mygemm07_wide2d", {}), ("mygemm08_kepler", {}), ("mygemm09_prefetch", {}),
    ("mygemm10_padding", {}), ("fast01_blocktile", {}),
    ("fast02_warptile", {}), ("fast02_warptile", {"AMAP": 0, "PADA": 0}), ("fast02_warptile", {"AMAP": 0, "PADA": 4}),
    ("dcu4_lds", {}), ("dcu5_lds_double", {}), ("dcu6_lds_conflicts", {"PADDING": 0}), ("dcu6_lds_conflicts", {"PADDING": 1}),
]
# Kernels added later (another branch) join when present in the catalog.
for extra in ("magma_fermi",):
    if subprocess.run([B, "list", "kernels"], capture_output=True, text=True).stdout.find(extra) >= 0:
        CASES.append((extra, {}))
# The tensor ladder, through its presets (their precision and parameters): ("preset", name).
import glob, os
for path in sorted(glob.glob("presets/tensor-*.preset")):
    CASES.append(("preset", os.path.basename(path)[:-len(".preset")]))
# Kernel or preset names on the command line: only those cases; a .preset file joins them.
if len(sys.argv) > 1:
    CASES = [c for c in CASES if c[0] in sys.argv[1:] or (c[0] == "preset" and c[1] in sys.argv[1:])]
    CASES += [("preset", a) for a in sys.argv[1:] if a.endswith(".preset") and os.path.isfile(a)]
METRICS = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]
# cp.async (LDGSTS) writes shared memory outside the LSU's store counters; where this ncu
# has counters for its shared-memory side, they are added to the stores (gemmtop traces a
# cp.async as a 16-byte store).
listed = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True).stdout
LDGSTS = []
for pair in (("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts"),
             ("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts",
              "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts")):
    if not LDGSTS and all(m in listed.split() for m in pair):
        LDGSTS = list(pair)
if len(LDGSTS) == 2:
    METRICS += [m + ".sum" for m in LDGSTS]
print("<!-- cp.async counters: " + (", ".join(LDGSTS) if len(LDGSTS) == 2 else "none in this ncu; " +
      ", ".join(sorted({w for w in listed.split() if "ldgsts" in w and "shared" in w})[:8])) + " -->")
# The test kernels (test_banks) live beside the shipped ones in tests/kernels.
os.environ["GEMMTOP_KERNELS"] = os.pathsep.join(["kernels", "tests/kernels"])

def sets(params):
    if isinstance(params, str):  # a preset
        return ["--preset", params]
    return sum((["--set", f"{k}={v}"] for k, v in params.items()), [])

def totals(sites):
    ld = [s for s in sites if s["kind"] == "load"]
    st = [s for s in sites if s["kind"] == "store"]
    return (sum(s["wavefronts"] for s in ld), sum(s["conflicts"] for s in ld),
            sum(s["wavefronts"] for s in st), sum(s["conflicts"] for s in st))

print("| kernel | parameters | problem | groups | loads: gemmtop wavefronts / conflicts | as compiled | ncu | stores: gemmtop | as compiled | ncu | agree | compiled agrees |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
agree_all = True
compiled_all = True
for kernel, params in CASES:
    size = ["-m", "32", "-n", "32", "-k", "16"] if kernel == "test_banks" else ["--size", "256"]
    which = [] if kernel == "preset" else ["--kernel", kernel]
    g = subprocess.run([B, "banks", "--backend", "cuda"] + which + ["--groups", "1024", "--format", "json", "--as-compiled"]
                       + size + sets(params), capture_output=True, text=True)
    try:
        o = json.loads(g.stdout)
    except ValueError:
        print(f"| {kernel} | {params} | | | gemmtop failed: {g.stderr.strip()[:200]} | | | | | | no | no |")
        agree_all = compiled_all = False
        continue
    p = o["problem"]
    ours = totals(o["sites"])
    comp = totals(o["as_compiled"]["sites"])
    run = [B, "run", "--backend", "cuda"] + which + ["-m", str(p["m"]), "-n", str(p["n"]), "-k", str(p["k"]),
           "--precision", p["precision"], "--reps", "1", "--warmup", "0", "--no-verify"] + sets(params)
    vals, tail = ncu_csv.measure(run, METRICS)
    theirs = tuple(int(vals.get(m, -1)) for m in METRICS[:4])
    if len(METRICS) > 4:  # cp.async's writes join the stores
        theirs = theirs[:2] + (theirs[2] + int(vals.get(METRICS[4], 0)), theirs[3] + int(vals.get(METRICS[5], 0)))
    agree = ours == theirs
    agree_all &= agree
    compiled = comp == theirs
    compiled_all &= compiled
    label = os.path.basename(params) if isinstance(params, str) else (' '.join(f'{k}={v}' for k, v in params.items()) or 'defaults')
    print(f"| {o['kernel']} | {label} | {p['m']}x{p['n']}x{p['k']} | "
          f"{o['groups']}{'' if o['complete'] else ' (incomplete)'} | {ours[0]} / {ours[1]} | {comp[0]} / {comp[1]} | "
          f"{theirs[0]} / {theirs[1]} | {ours[2]} / {ours[3]} | {comp[2]} / {comp[3]} | {theirs[2]} / {theirs[3]} | "
          f"{'yes' if agree else 'NO'} | {'yes' if compiled else 'NO'} |", flush=True)
    print(f"<!-- {o['kernel']} {label}: {o['as_compiled']['widths']} -->", flush=True)
    if theirs[0] < 0:
        print(tail, file=sys.stderr)
print("\nall agree" if agree_all else "\nsome disagree: see above")
print("as compiled: all agree" if compiled_all else "as compiled: some disagree: see above")
