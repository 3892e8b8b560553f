#!/usr/bin/env python3
"""Writes what limits each lesson step on a GPU into the lesson guides (issue 45).

Reads the rows of one or more runs of tools/gpu/gpu_limits.sh (their limits.jsonl: gemmtop
explain beside Nsight Compute for each preset at a size) and the lessons (lessons/*.lesson:
their steps' presets), and writes into each guide that docs/lessons.md names for a lesson a
section between the markers

    <!-- gpu limits: begin -->
    <!-- gpu limits: end -->

(appended at the end of the guide the first time): per lesson, per step, the size, the
GFLOPS gemmtop measured, its limiter in its own words, ncu's busiest unit and whether the
two agree. A step no run measured says so. Run it again after a new GPU run; nothing else
in a guide changes. With --keep-earlier LABEL, a step's row at a size the new runs did not
measure is kept from the guide's section as it was, its size marked with a star and the
table followed by a line that says where those rows come from (LABEL).

    python3 tools/lesson_limits.py --device "NVIDIA H200, driver 580.159.04, ncu 2025.3.1, 2026-11-29" \\
        RUN/limits.jsonl [RUN2/limits.jsonl ...]

With --pocl (no runs) it writes, between the markers

    <!-- pocl limits: begin -->
    <!-- pocl limits: end -->

what limits each step on this machine's CPU through PoCL, the device a class on laptops has:
for each lesson, `gemmtop lesson NAME --prepare --device pocl` (each step's size on a CPU, and
what the CPU refuses), then `gemmtop explain` of each ready step at that size. GEMMTOP_BIN
names gemmtop (default build/gemmtop); --lessons A,B limits it to some lessons (the other lessons
of a guide they share keep the subsections an earlier run wrote).
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- gpu limits: begin -->", "<!-- gpu limits: end -->"
POCL_BEGIN, POCL_END = "<!-- pocl limits: begin -->", "<!-- pocl limits: end -->"
# A step of `gemmtop lesson NAME --prepare`'s table: number, preset, size, seconds, what became of it.
PREPARED = re.compile(r"^\s*(\d+) (\S+)\s+(\d+x\d+x\d+)\s+[\d.]+ s\s+(.*)$")
UNIT = {"sm__throughput": "SM", "dram__throughput": "DRAM", "lts__throughput": "L2", "l1tex__throughput": "L1/shared"}


def lesson_steps(path):
    """The lesson's title and its steps' presets, in order."""
    title, steps = "", []
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\s*(\w+)\s*=\s*(.*?)\s*$", line)
        if not m:
            continue
        key, value = m.groups()
        if key == "title" and not steps and not title:
            title = value
        elif key == "step":
            steps.append(value)
    return title, steps


def guides(root):
    """lesson name -> guide path, from docs/lessons.md's table."""
    out = {}
    for line in open(os.path.join(root, "docs", "lessons.md"), encoding="utf-8"):
        m = re.match(r"\|\s*`([\w-]+)`\s*\|\s*\d+\s*\|.*\|\s*`(docs/lesson-[\w-]+\.md)`\s*\|\s*$", line)
        if m:
            out[m.group(1)] = os.path.join(root, m.group(2))
    return out


def cell(text):
    """Text from a run, made safe for a Markdown table cell."""
    return str(text).replace("|", "/").replace("\n", " ").replace("<", "&lt;").strip()


def load(paths):
    """preset -> rows (one per size measured), the later file's row replacing an earlier one."""
    rows = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if r.get("kind") != "row" or "preset" not in r:
                continue
            rows.setdefault(r["preset"], {})[r.get("size")] = r
    return rows


def row_text(step, preset, r):
    run = (r.get("explain") or {}).get("run") or {}
    lim = (r.get("explain") or {}).get("limits") or {}
    c = r.get("compare") or {}
    size = r.get("size")
    size = "its own" if size == 0 else size
    if not lim:
        return (f"| {step} | `{preset}` | {size} | - | not explained: {cell(r['explain'].get('error', '?'))[:80]} "
                f"| - | - | - |")
    unit = UNIT.get(c.get("ncu_unit"), c.get("ncu_unit") or "-")
    pct = c.get("ncu_pct")
    yes = {True: "yes", False: "no", None: "-"}
    # Runs since 2026-11-30 also judge ncu's own launch (its time and clock: gpu_limits_ncu.py);
    # the agreement is that one's, gemmtop's own run's in brackets.
    same = (r.get("judged") or {}).get("limiter")
    agree = (f"{yes[c.get('limiter_agrees')]} ({yes[c.get('own_limiter_agrees')]})" if "own_limiter_agrees" in c
             else yes[c.get("limiter_agrees")])
    words = cell(lim.get("words", lim.get("limiter", "")))
    if len(words) > 110:
        words = words[:107].rstrip() + "..."
    theirs = f"{unit} {pct:.0f}%" if pct is not None else "-"
    return (f"| {step} | `{preset}` | {size} | {run.get('gflops', 0):.0f} | {words} | {cell(same or '-')} | "
            f"{theirs} | {agree} |")


def earlier_rows(text):
    """(preset, size cell) -> the row line, from a guide's section as it stands (kept rows lose
    an earlier star)."""
    out = {}
    if BEGIN not in text or END not in text:
        return out
    for line in text.split(BEGIN, 1)[1].split(END, 1)[0].splitlines():
        m = re.match(r"\|\s*\d+\s*\|\s*`([\w.-]+)`\s*\|\s*([^|]*?)\*?\s*\|\s*[\d.]+\s*\|", line)
        if m and m.group(2) not in ("-", ""):
            out[(m.group(1), m.group(2))] = line
    return out


def size_cell(size):
    return "its own" if size == 0 else str(size)


def section(lessons, rows, device, earlier=None, earlier_label=None):
    out = [BEGIN, "", f"## What limits each step on a GPU ({device})", "",
           "`gemmtop explain` on the GPU (its model, no counters) beside Nsight Compute's busiest unit for",
           "the same kernel at the same size (`tools/gpu/gpu_limits.sh`; `docs/limits.md` says how the two",
           "are compared and where they differ). Written by `tools/lesson_limits.py` from that run.",
           "gemmtop's own run and ncu's replay are two launches, often at different clocks: the next",
           "column is gemmtop's limiter of ncu's launch (its time and clock), and the agreement is that",
           "one's, gemmtop's own run's in brackets.", ""]
    for name, (title, steps) in lessons:
        out += [f"### `{name}`: {cell(title)}", "",
                "| step | preset | size | GFLOPS | gemmtop's limiter (its own run) | on ncu's launch | "
                "ncu's busiest unit | agree (own run) |",
                "|---|---|---|---|---|---|---|---|"]
        kept = 0
        for i, preset in enumerate(steps, 1):
            measured = rows.get(preset, {})
            lines = [(size_cell(size), row_text(i, preset, measured[size]))
                     for size in sorted(measured, key=lambda s: (s != 0, s))]
            have = {size for size, _ in lines}
            for (p, size), line in sorted((earlier or {}).items()):
                if p == preset and size not in have:
                    cells = line.split("|")
                    cells[1], cells[3] = f" {i} ", f" {size}* "
                    lines.append((size, "|".join(cells)))
                    kept += 1
            if not lines:
                out.append(f"| {i} | `{preset}` | - | - | not measured in this run | - | - | - |")
            order = {"its own": -1}
            for _, line in sorted(lines, key=lambda x: order.get(x[0], int(x[0]) if x[0].isdigit() else 1 << 30)):
                out.append(line)
        if kept:
            out += ["", f"`*`: kept from {cell(earlier_label)}, which the runs above did not repeat."]
        out.append("")
    out.append(END)
    return "\n".join(out)


def replace_section(text, begin, end, new):
    """text with its section between begin and end replaced by new (appended the first time)."""
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        return head + new + rest.split(end, 1)[1]
    return text.rstrip("\n") + "\n\n" + new + "\n"


def gemmtop(binary, args, timeout=900):
    import subprocess
    try:
        r = subprocess.run([binary] + args, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", f"gemmtop {args[0]} ran past {timeout} s"


def pocl_steps(binary, name):
    """{step number: (preset, size, status)} of the lesson prepared on PoCL, and the device's name."""
    rc, out, err = gemmtop(binary, ["lesson", name, "--prepare", "--device", "pocl"])
    steps, device = {}, "PoCL"
    for line in (out + "\n" + err).splitlines():
        m = re.match(r"lesson \S+ prepared on (.*?) \(opencl\) in", line)
        if m:
            device = m.group(1)
        m = PREPARED.match(line)
        if m:
            steps[int(m.group(1))] = (m.group(2), m.group(3), m.group(4).strip())
    if not steps:
        last = [l for l in (err or out).strip().splitlines() if l.strip()]
        raise SystemExit(f"lesson_limits.py: gemmtop lesson {name} --prepare gave no steps: "
                         f"{last[-1] if last else rc}")
    return steps, device


def step_ablations(path):
    """Each step's `ablate =` (the switches its visit turns on), "" where it has none."""
    out = []
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\s*(\w+)\s*=\s*(.*?)\s*$", line)
        if m and m.group(1) == "step":
            out.append("")
        elif m and m.group(1) == "ablate" and out:
            out[-1] = m.group(2)
    return out


def pocl_row(binary, i, preset, size, status, ablate):
    if status != "ready":
        return f"| {i} | `{preset}` | {size} | - | {cell(status)[:160]} |"
    rc, out, err = gemmtop(binary, ["explain", "--device", "pocl", "--preset", preset, "--size", size, "--reps", "5",
                                    "--format", "json", "--no-store"] + (["--ablate", ablate] if ablate else []))
    lines = []
    for l in out.splitlines():
        try:
            lines.append(json.loads(l))
        except ValueError:
            pass
    if rc != 0 or len(lines) < 2 or "limits" not in lines[1]:
        last = [l for l in (err or out).strip().splitlines() if l.strip()]
        return f"| {i} | `{preset}` | {size} | - | explain failed: {cell(last[-1] if last else rc)[:120]} |"
    run, lim = lines[0], lines[1]["limits"]
    words = cell(lim.get("words", lim.get("limiter", "")))
    if len(words) > 140:
        words = words[:137].rstrip() + "..."
    mark = " (emulated tensor cores: not a figure to rank)" if run.get("emulated") else ""
    mark += f" (ablated: {cell(ablate)}; not verified, not a figure to rank)" if ablate else ""
    return f"| {i} | `{preset}` | {size} | {run.get('gflops', 0):.3g} | {words}{mark} |"


def pocl_subsections(text):
    """lesson name -> its subsection ("### `name`: ..." up to the next one) in a guide's PoCL block."""
    if POCL_BEGIN not in text or POCL_END not in text:
        return {}
    block = text.split(POCL_BEGIN, 1)[1].split(POCL_END, 1)[0]
    found = {}
    for part in re.split(r"(?m)^(?=### `)", block)[1:]:
        m = re.match(r"### `([^`]+)`", part)
        if m:
            found[m.group(1)] = part.rstrip("\n").split("\n")
    return found


def pocl_section(binary, lessons, date, root, kept=None):
    """The PoCL block for a guide's lessons; those in kept (name -> its earlier subsection's
    lines) are not run again but kept as they were, and the title says so."""
    body, devices, kept = [], set(), kept or {}
    for name, (title, steps) in lessons:
        if name in kept:
            body += kept[name] + [""]
            continue
        ablations = step_ablations(os.path.join(root, "lessons", name + ".lesson"))
        prepared, device = pocl_steps(binary, name)
        devices.add(device)
        body += [f"### `{name}`: {cell(title)}", "", "| step | preset | size | GFLOPS | what limits it on the CPU |",
                 "|---|---|---|---|---|"]
        for i, preset in enumerate(steps, 1):
            p, size, status = prepared.get(i, (preset, "-", "not in --prepare's table"))
            body.append(pocl_row(binary, i, preset, size, status, ablations[i - 1] if i <= len(ablations) else ""))
            print(f"  {name} {i} {preset} {size}: {body[-1].split('|')[5].strip()[:70]}", flush=True)
        body.append("")
    earlier = [f"`{n}`" for n, _ in lessons if n in kept]
    since = f"; {', '.join(earlier)} from an earlier run" if earlier else ""
    head = [POCL_BEGIN, "", f"## What limits each step on a CPU (PoCL: {cell(', '.join(sorted(devices)))}, {date}{since})", "",
            "`gemmtop explain` through PoCL at each step's size on a CPU (the size `gemmtop lesson` gives it there,",
            "from `--prepare`), five timed launches: what a class on laptops sees beside the GPU's table. A CPU",
            "has no local-memory banks, so the bank rules stay off; a step that needs a GPU says why. Written by",
            "`tools/lesson_limits.py --pocl`; the figures are one machine's, the limiters the point.", ""]
    return "\n".join(head + body + [POCL_END])


def main_pocl(o):
    import time
    binary = os.path.abspath(os.environ.get("GEMMTOP_BIN") or os.path.join(ROOT, "build", "gemmtop"))
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise SystemExit(f"lesson_limits.py: {binary} is not an executable file: build it (make) or set GEMMTOP_BIN")
    # Shares need the CPU's measured ceilings: measured once here when none are kept.
    rc, out, _ = gemmtop(binary, ["list", "devices", "--backend", "opencl", "--format", "json"])
    pocl = [l for l in out.splitlines() if '"pocl"' in l]
    if not o.no_measure and not any('"fp32_peak_gflops"' in l for l in pocl):
        print("lesson_limits.py: measuring the CPU's ceilings first (gemmtop list devices --measure)...", flush=True)
        rc, out, err = gemmtop(binary, ["list", "devices", "--backend", "opencl", "--measure"])
        if rc != 0:
            raise SystemExit(f"lesson_limits.py: gemmtop list devices --measure failed ({rc}): {err.strip()[-300:]}")
    wanted = set(o.lessons.split(",")) if o.lessons else None
    by_guide = {}
    for name, guide in sorted(guides(o.root).items()):
        path = os.path.join(o.root, "lessons", name + ".lesson")
        if os.path.exists(path):
            by_guide.setdefault(guide, []).append((name, lesson_steps(path)))
    for guide, lessons in sorted(by_guide.items()):
        if wanted is not None and not any(n in wanted for n, _ in lessons):
            continue
        text = open(guide, encoding="utf-8").read()
        # --lessons: the guide's other lessons keep the subsections an earlier run wrote
        earlier = pocl_subsections(text)
        kept = {n: earlier[n] for n, _ in lessons if wanted is not None and n not in wanted and n in earlier}
        result = replace_section(text, POCL_BEGIN, POCL_END,
                                 pocl_section(binary, lessons, time.strftime("%Y-%m-%d"), o.root, kept))
        if result != text:
            with open(guide + ".tmp", "w", encoding="utf-8") as f:
                f.write(result)
            os.replace(guide + ".tmp", guide)
        print(f"{os.path.relpath(guide, o.root)}: {', '.join(n for n, _ in lessons if n not in kept)}"
              f"{' (changed)' if result != text else ''}", flush=True)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="*", help="limits.jsonl files of tools/gpu/gpu_limits.sh runs")
    ap.add_argument("--device", help="the device, driver, ncu and date, as the section's title says")
    ap.add_argument("--pocl", action="store_true",
                    help="instead: each step's limiter on this machine's CPU through PoCL (runs gemmtop)")
    ap.add_argument("--lessons", help="with --pocl: only these lessons (comma-separated)")
    ap.add_argument("--no-measure", action="store_true",
                    help="with --pocl: never measure the CPU's ceilings (without them the limiter says so)")
    ap.add_argument("--keep-earlier", metavar="LABEL",
                    help="keep the section's rows at sizes the runs did not measure, starred, LABEL saying whence")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a guide would change")
    ap.add_argument("--root", default=ROOT, help="the project's folder (default: the one this script is in)")
    o = ap.parse_args()
    if o.pocl:
        if o.runs or o.device or o.keep_earlier or o.check:
            ap.error("--pocl measures here: it takes no runs, --device, --keep-earlier or --check")
        return main_pocl(o)
    if not o.runs or not o.device:
        ap.error("give the runs' limits.jsonl files and --device (or --pocl)")
    rows = load(o.runs)
    by_guide = {}
    for name, guide in sorted(guides(o.root).items()):
        path = os.path.join(o.root, "lessons", name + ".lesson")
        if os.path.exists(path):
            by_guide.setdefault(guide, []).append((name, lesson_steps(path)))
    changed = 0
    for guide, lessons in sorted(by_guide.items()):
        text = open(guide, encoding="utf-8").read()
        earlier = earlier_rows(text) if o.keep_earlier else None
        result = replace_section(text, BEGIN, END, section(lessons, rows, cell(o.device), earlier, o.keep_earlier))
        if result != text:
            changed += 1
            if not o.check:
                with open(guide + ".tmp", "w", encoding="utf-8") as f:
                    f.write(result)
                os.replace(guide + ".tmp", guide)
        print(f"{os.path.relpath(guide, o.root)}: {', '.join(n for n, _ in lessons)}"
              f"{' (changed)' if result != text else ''}")
    return 1 if o.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
