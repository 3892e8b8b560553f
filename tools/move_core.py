#!/usr/bin/env python3
"""Moves src/core's files into its floors (issue 46) and rewrites the paths that name them.

src/core was one flat folder; its include graph already had levels with no circle. The
floors below are those levels, grouped by what the files do (docs/architecture.md lists
each floor and tests/e2e/layers.sh checks that a floor includes only the ones it may).

What it does, in the repository it is run from (or --root):
 1. `git mv src/core/X.c src/core/FLOOR/X.c` (and X.h) for every file still flat;
 2. in src/, tests/, tools/, kernels/, docs/ and README.md, rewrites `#include "core/X.h"`
    to `#include "core/FLOOR/X.h"`, and a mention of `core/X.c`, `core/X.h` or
    `src/core/X.c` in a comment or a doc the same way.

It is idempotent: a file already in its floor is left, a path already rewritten does not
match again (`core/FLOOR/X.h` never contains `core/X.h`), so it can run again after a
merge brings files that still use the old paths. A flat file of src/core that the table
does not place stops it before anything changes: add it to FLOORS, by what it includes.

Usage: tools/move_core.py [--root DIR] [--dry-run]
"""
import argparse
import os
import re
import subprocess
import sys

# Bottom to top; a floor includes only itself and the floors under it that
# tests/e2e/layers.sh allows (model <- run <- sweep <- results <- tune; run <- analyse,
# sweep <- analyse; run <- teach).
FLOORS = {
    # the things measured, described, no device: kernels, rules, problems, inputs
    "model": ["catalog", "expr", "config", "problem", "scales", "preset", "shapes", "inputs", "npy"],
    # one configuration on a device: compile, launch, time, verify
    "run": ["session", "session_internal", "session_run", "session_trace", "session_vendor",
            "session_verify", "verify", "coldl2", "ablate", "listing", "peaks", "ahead", "select"],
    # a kernel's parameter space, its search strategies, the child process that measures
    "sweep": ["sweep", "search", "measurer"],
    # the results store, a measurement as a record, ranked, as files
    "results": ["store", "record", "results", "resultfmt"],
    # one sweep end to end: searched, measured, resumed from and recorded into the store
    "tune": ["sweeprun"],
    # why a configuration is as fast as it is
    "analyse": ["banks", "banks_compiled", "swizzle", "occupancy", "waves", "traffic", "inspect",
                "inspectchild", "preproc", "limiter", "frontier"],
    # lessons, their ladders, exports, a class server's client
    "teach": ["lesson", "lessonprep", "ladder", "laddermerge", "export", "classclient"],
}
FLOOR_OF = {stem: floor for floor, stems in FLOORS.items() for stem in stems}

# Where paths are rewritten; layers.sh states the rules with its own planted paths.
REWRITE_DIRS = ["src", "tests", "tools", "kernels", "docs"]
REWRITE_FILES = ["README.md"]
REWRITE_EXT = (".c", ".h", ".cl", ".cu", ".sh", ".py", ".md", ".1", ".dict")
SKIP = {os.path.join("tests", "e2e", "layers.sh"), os.path.join("tools", "move_core.py")}

STEMS = "|".join(sorted(FLOOR_OF, key=len, reverse=True))
# `src/core/X.c` anywhere, or `core/X.h` not part of a longer path (`tree/core/X.c` is left).
PATH_RE = re.compile(r"(src/core/|(?<![\w/])core/)(%s)\.([ch])\b" % STEMS)


def move_files(root, dry):
    core = os.path.join(root, "src", "core")
    flat = sorted(n for n in os.listdir(core) if os.path.isfile(os.path.join(core, n)))
    unplaced = [n for n in flat if os.path.splitext(n)[0] not in FLOOR_OF]
    if unplaced:
        sys.exit("move_core: no floor for %s: add it to FLOORS in tools/move_core.py" % ", ".join(unplaced))
    for n in flat:
        floor = FLOOR_OF[os.path.splitext(n)[0]]
        src, dst = os.path.join("src", "core", n), os.path.join("src", "core", floor, n)
        if os.path.exists(os.path.join(root, dst)):
            sys.exit("move_core: both %s and %s exist: merge them by hand" % (src, dst))
        print("move %s -> %s" % (src, dst))
        if not dry:
            os.makedirs(os.path.join(root, "src", "core", floor), exist_ok=True)
            subprocess.run(["git", "mv", src, dst], cwd=root, check=True)
    return len(flat)


def rewrite(root, dry):
    files = [os.path.join(root, f) for f in REWRITE_FILES if os.path.isfile(os.path.join(root, f))]
    for d in REWRITE_DIRS:
        for folder, dirs, names in os.walk(os.path.join(root, d)):
            dirs[:] = [x for x in dirs if not x.startswith(".")]
            files += [os.path.join(folder, n) for n in names if n.endswith(REWRITE_EXT)]
    changed = 0
    for path in sorted(files):
        if os.path.relpath(path, root) in SKIP:
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = PATH_RE.sub(lambda m: "%s%s/%s.%s" % (m.group(1), FLOOR_OF[m.group(2)], m.group(2), m.group(3)), text)
        if new != text:
            changed += 1
            print("rewrite %s" % os.path.relpath(path, root))
            if not dry:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
    return changed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    help="the repository (default: the one this script is in)")
    ap.add_argument("--dry-run", action="store_true", help="print what would change, change nothing")
    args = ap.parse_args()
    moved = move_files(args.root, args.dry_run)
    changed = rewrite(args.root, args.dry_run)
    print("move_core: %d files moved, %d files rewritten" % (moved, changed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
