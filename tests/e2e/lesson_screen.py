#!/usr/bin/env python3
"""Reads one screen of the explorer teaching a lesson (tmux capture-pane, on stdin) and says
whether step STEP is whole on it: its heading and whole text, its measured line (a figure,
a refusal, or the wait for one), and every count its text computes ({EXPR} placeholders,
docs/lessons.md) equal to the expression evaluated here from what the screen shows: M, N
and K of the header, the compute units ("2 CU") and the step's parameters (its preset, the
kernel's defaults). With --launch, a work-group count of the text must also be the launch's
(global / local of the results pane). Prints "ok" or what is wrong; exit status 0 or 1.

Used by ui_lesson_walk.sh: python3 lesson_screen.py LESSON_FILE PRESETS KERNELS STEP [--launch]
"""
import os
import re
import sys


def parse_lesson(path):
    about, steps = [], []
    for raw in open(path, encoding="utf-8"):
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = (p.strip() for p in line.split("=", 1))
        if key == "step":
            steps.append({"preset": value, "title": "", "text": []})
        elif not steps:
            if key == "about":
                about.append(value)
        elif key == "title":
            steps[-1]["title"] = value
        elif key == "text":
            steps[-1]["text"].append(value)
    return about, steps


def key_values(path, pattern):
    out = {}
    for raw in open(path, encoding="utf-8"):
        m = re.match(pattern, raw)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def parameters(preset_path, kernels_dir):
    """The step's parameters: the kernel's defaults, then the preset's values."""
    preset = {}
    kernel = None
    for raw in open(preset_path, encoding="utf-8"):
        m = re.match(r"\s*(\w+)\s*=\s*(\S+)", raw)
        if m and m.group(1) == "kernel":
            kernel = m.group(2)
        elif m and re.fullmatch(r"-?\d+", m.group(2)):
            preset[m.group(1)] = int(m.group(2))
    values = {}
    if kernel:
        path = os.path.join(kernels_dir, kernel + ".cl")
        if os.path.exists(path):
            values = key_values(path, r"param:\s*(\w+)\s*=\s*(-?\d+)")
    values.update({k: v for k, v in preset.items() if k.isupper() and k not in ("M", "N", "K")})
    return values


def c_eval(expr, names):
    """An expression of the kernels' metadata syntax (integers, C division) evaluated."""
    py = re.sub(r"(?<![/])/(?![/])", "//", expr)
    env = {"div": lambda a, b: -(-a // b), "ceil": lambda a, b: -(-a // b) * b, "min": min, "max": max}
    env.update(names)
    return int(eval(py, {"__builtins__": {}}, env))  # the lesson files are the project's own


PLACEHOLDER = re.compile(r"\{([^{}|]*(?:\|\|[^{}|]*)*)(?:\|([A-Za-z -]+))?\}")


def text_pattern(text):
    """A regular expression for text as the pane wraps and renders it, and its placeholders."""
    parts, found, at = [], [], 0
    for m in PLACEHOLDER.finditer(text):
        parts.append(re.escape(text[at:m.start()]))
        noun = (m.group(2) or "").strip()
        parts.append(r"(-?\d+)" + (r" " + re.escape(noun) + r"s?" if noun else ""))
        found.append((m.group(1).strip(), noun))
        at = m.end()
    parts.append(re.escape(text[at:]))
    pattern = "".join(parts)
    pattern = re.sub(r"(\\ )+", r"\\s+", pattern)
    return pattern, found


def main():
    lesson_file, presets, kernels, step = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    launch = "--launch" in sys.argv[5:]
    screen = sys.stdin.read().splitlines()
    _, steps = parse_lesson(lesson_file)
    st = steps[step - 1]
    heading = "Step %d of %d:" % (step, len(steps))
    rows = [i for i, line in enumerate(screen) if heading in line]
    if not rows:
        print("no heading '%s' on the screen" % heading)
        return 1
    top = rows[0]
    col = screen[top].index(heading)
    # The pane's column from the heading down: the step's lines, then what follows them.
    flat = " ".join(line[col:].strip() for line in screen[top:])
    flat = re.sub(r"\s+", " ", flat)
    title = re.sub(r"\s+", " ", heading + " " + (st["title"] or st["preset"]))
    if not flat.startswith(title):
        print("the heading is not whole: wanted '%s'" % title)
        return 1
    if not re.search(r"(measured: |refused: |did not run: )", flat):
        print("no measured line (measured:, refused:, did not run:) under the heading")
        return 1
    text = " ".join(st["text"])
    pattern, found = text_pattern(text)
    m = re.search(pattern, flat)
    if not m:
        print("the step's text is not whole on the screen: wanted '%s'" % text)
        return 1
    if not found:
        print("ok")
        return 0
    header = "\n".join(screen[:2])
    size = re.search(r"M=(\d+) N=(\d+) K=(\d+)", header)
    cus = re.search(r"(\d+) CU\b", header)
    if not size or not cus:
        print("the header does not show M, N, K and the compute units")
        return 1
    names = parameters(os.path.join(presets, st["preset"] + ".preset"), kernels)
    names.update(M=int(size.group(1)), N=int(size.group(2)), K=int(size.group(3)), CUS=int(cus.group(1)))
    # The element sizes the rules take (core/model/config.c): C's (REAL_SIZE) and the inputs'.
    prec = re.search(r"K=\d+\s+(\w+)\s", header)
    sizes = {"float": (4, 4), "double": (8, 8), "tf32": (4, 4), "half": (4, 2), "bfloat16": (4, 2),
             "e4m3": (4, 1), "e5m2": (4, 1)}
    if prec and prec.group(1) in sizes:
        names.update(REAL_SIZE=sizes[prec.group(1)][0], IN_SIZE=sizes[prec.group(1)][1])
    groups = []
    for i, (expr, noun) in enumerate(found):
        shown = int(m.group(i + 1))
        want = c_eval(expr, names)
        if shown != want:
            print("{%s} shows %d; at %dx%dx%d with %d compute units it is %d"
                  % (expr, shown, names["M"], names["N"], names["K"], names["CUS"], want))
            return 1
        if noun == "work-group":
            groups.append(shown)
    if launch and groups:
        lm = re.search(r"launch\s+global (\d+(?:x\d+)*)\s+local (\d+(?:x\d+)*)", "\n".join(screen))
        if not lm:
            print("no launch line on the screen to hold the work-groups against")
            return 1
        g = [int(v) for v in lm.group(1).split("x")]
        loc = [int(v) for v in lm.group(2).split("x")]
        launched = 1
        for a, b in zip(g, loc):
            launched *= a // b
        if launched not in groups:
            print("the text's work-groups (%s) are not the launch's %d" % (", ".join(map(str, groups)), launched))
            return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
