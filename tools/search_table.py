#!/usr/bin/env python3
"""Turns recorded spaces into the rows of docs/search.md's table.

    python3 tools/search_table.py [--repeat R] [--gemmtop PATH] SPACE.csv ...

Each SPACE is what `gemmtop sweep --exhaustive --save` wrote (CSV or JSON lines). For
each, every strategy is replayed R times (gemmtop sweep --simulate, seeds 1..R) and one
Markdown row per strategy is printed: evaluations to 95% and 99% of the space's best
(median [least-most] over the seeds) and the share of the space that is. Prints nothing
else on stdout, so that the rows can be pasted (or diffed) as they are.
"""
import argparse
import json
import os
import subprocess
import sys


def space_name(path):
    """'kernel MxNxK precision, device (N configurations)' from the file's first result."""
    with open(path) as f:
        first = f.readline()
        if first.startswith("kernel,params,"):
            import csv
            rows = list(csv.DictReader([first] + f.readlines()))
            r = rows[0]
            return "%s %sx%sx%s %s, %s" % (r["kernel"], r["m"], r["n"], r["k"], r["precision"], r["device"]), len(rows)
        rows = [first] + [l for l in f if l.strip()]
        r = json.loads(rows[0])
        return "%s %dx%dx%d %s, %s" % (r["kernel"], r["m"], r["n"], r["k"], r["precision"], r["device"]), len(rows)


def cell(med, lo, hi, reached, repeat, space):
    if med < 0:
        return "not reached (%d/%d)" % (reached, repeat)
    spread = "%d-%d" % (lo, hi) if reached == repeat else "%d-, %d/%d reached" % (lo, reached, repeat)
    return "%d [%s] (%.1f%%)" % (med, spread, 100.0 * med / space)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=25)
    ap.add_argument("--gemmtop", default=os.environ.get("GEMMTOP_BIN", "build/gemmtop"))
    ap.add_argument("spaces", nargs="+")
    a = ap.parse_args()
    print("| space | strategy | evaluations to 95% | evaluations to 99% |")
    print("|---|---|---|---|")
    for path in a.spaces:
        name, count = space_name(path)
        out = subprocess.run([a.gemmtop, "sweep", "--simulate", path, "--strategies", "all", "--repeat",
                              str(a.repeat), "--format", "json"], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit("search_table.py: %s: %s" % (path, out.stderr.strip()))
        for line in out.stdout.splitlines():
            r = json.loads(line)
            print("| %s (%d configurations) | %s | %s | %s |" % (
                name, r["space"], r["strategy"],
                cell(r["evals95_median"], r["evals95_min"], r["evals95_max"], r["reached95"], r["repeat"], r["space"]),
                cell(r["evals99_median"], r["evals99_min"], r["evals99_max"], r["reached99"], r["repeat"], r["space"])))


if __name__ == "__main__":
    main()
