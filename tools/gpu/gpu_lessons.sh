#!/bin/sh
# On the GPU machine: every step of every shipped lesson (or of the lessons named), run
# without the explorer exactly as `gemmtop lesson NAME` loads it (the step's preset whole,
# its ablation, its simulated limits) through `gemmtop run`, and the ladder table printed
# as Markdown: GFLOPS, speed-up over the previous step and over step 1, % of the best and
# the source's figure; ablated and refused steps labelled, never ranked. These are the
# figures to paste into the docs/lesson-*.md guides.
# Usage: sh tools/gpu/gpu_lessons.sh [--backend opencl|cuda] [--device DEV] [--size S] [LESSON...]
# (default: OpenCL on the NVIDIA device, each preset's own size). The runs' CSV lines go to
# $OUT (default lesson-runs) for the record.
[ -f tools/gpu/gpu_setup.sh ] && [ -d /usr/local/cuda ] && . tools/gpu/gpu_setup.sh
backend=opencl device=NVIDIA size=""
while [ $# -gt 0 ]; do
   case "$1" in
   --backend) backend=$2; shift 2 ;;
   --device) device=$2; shift 2 ;;
   --size) size=$2; shift 2 ;;
   *) break ;;
   esac
done
out=${OUT:-lesson-runs}
mkdir -p "$out"
exec python3 - "$backend" "$device" "$size" "$out" "$@" <<'PY'
import csv, io, os, subprocess, sys

backend, device, size, out = sys.argv[1:5]
names = sys.argv[5:]
B = os.environ.get("GEMMTOP_BIN", "build/gemmtop")
folder = os.environ.get("GEMMTOP_LESSONS", "lessons")

def parse(path):
    """The lesson file as gemmtop reads it (docs/lessons.md): the lesson's keys, then steps."""
    lesson, steps = {"title": os.path.basename(path)[:-7]}, []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = (s.strip() for s in line.split("=", 1))
        if key == "step":
            steps.append({"preset": value, "title": "", "reference": "", "ablate": "", "limits": ""})
        elif steps and key in steps[-1]:
            steps[-1][key] = value
        elif not steps and key == "title":
            lesson["title"] = value
    return lesson, steps

def run(step):
    cmd = [B, "run", "--backend", backend, "--device", device, "--preset", step["preset"], "--format", "csv",
           "--reps", "20", "--warmup", "3"]
    if size:
        cmd += ["--size", size]
    if step["ablate"]:
        cmd += ["--ablate", step["ablate"]]
    env = dict(os.environ)
    if step["limits"]:
        env["GEMMTOP_DEVICE_LIMITS"] = step["limits"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    return rows[0] if rows else {"status": "error", "message": p.stderr.strip()}, p.stdout

if not names:
    names = sorted(f[:-7] for f in os.listdir(folder) if f.endswith(".lesson"))
for name in names:
    lesson, steps = parse(os.path.join(folder, name + ".lesson"))
    rows, device_name = [], "?"
    with open(os.path.join(out, name + ".csv"), "w") as record:
        for i, st in enumerate(steps, 1):
            r, text = run(st)
            record.write(text)
            device_name = r.get("device", device_name)
            ablated = r.get("ablated") == "true"
            ok = bool(r.get("gflops")) and (ablated or (r.get("status") == "ok" and r.get("verified") == "true"))
            rows.append({"step": st, "r": r, "gflops": float(r["gflops"]) if ok and r.get("gflops") else 0,
                         "ranked": ok and r.get("ablated") != "true" and r.get("emulated") != "true"})
    best = max([x["gflops"] for x in rows if x["ranked"]] or [0])
    print(f"## {lesson['title']}\n\nDevice: {device_name} ({backend}){', size ' + size if size else ''}\n")
    print("| step | GFLOPS | vs previous | vs step 1 | % of best | source reported | configuration |")
    print("|---|---:|---:|---:|---:|---|---|")
    for i, x in enumerate(rows):
        st, r = x["step"], x["r"]
        label = f"{i + 1} {st['preset']}" + (f": {st['title']}" if st["title"] else "")
        if x["gflops"]:
            fig = f"{x['gflops']:.1f}" + (" (ablated)" if r.get("ablated") == "true" else "") + \
                  (" (emulated)" if r.get("emulated") == "true" else "")
        else:
            fig = ("refused: " if r.get("status") == "invalid" else f"{r.get('status', 'error')}: ") + r.get("message", "")
        prev = f"{x['gflops'] / rows[i - 1]['gflops']:.2f}x" if i and x["ranked"] and rows[i - 1]["ranked"] else "-"
        first = f"{x['gflops'] / rows[0]['gflops']:.2f}x" if x["ranked"] and rows[0]["ranked"] else "-"
        pct = f"{100 * x['gflops'] / best:.1f}%" if x["ranked"] and best else "-"
        conf = f"{r.get('kernel', '')} {r.get('params', '')}, {r.get('m', '')}x{r.get('n', '')}x{r.get('k', '')} " \
               f"{r.get('precision', '')}"
        cells = [label, fig, prev, first, pct, st["reference"] or "-", conf]
        print("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    print()
PY
