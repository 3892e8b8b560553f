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
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- gpu limits: begin -->", "<!-- gpu limits: end -->"
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="limits.jsonl files of tools/gpu/gpu_limits.sh runs")
    ap.add_argument("--device", required=True, help="the device, driver, ncu and date, as the section's title says")
    ap.add_argument("--keep-earlier", metavar="LABEL",
                    help="keep the section's rows at sizes the runs did not measure, starred, LABEL saying whence")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a guide would change")
    ap.add_argument("--root", default=ROOT, help="the project's folder (default: the one this script is in)")
    o = ap.parse_args()
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
        new = section(lessons, rows, cell(o.device), earlier, o.keep_earlier)
        if BEGIN in text and END in text:
            head, rest = text.split(BEGIN, 1)
            result = head + new + rest.split(END, 1)[1]
        else:
            result = text.rstrip("\n") + "\n\n" + new + "\n"
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
