#!/usr/bin/env python3
"""Which source file of gemmtop calls which, and the circles among them.

Method: `nm` of every object of src/ (the build folder, built as `make` builds it).
An object defines symbols (T, D, B, R, ...) and leaves the ones it uses undefined (U);
an undefined symbol that another object of ours defines is an edge from the file that
uses it to the file that defines it. Edges between files of one folder make that
folder's graph; a circle is a strongly connected component of more than one file.
Within a circle the files are put in an order that leaves as few edges pointing back
as it can (Eades, Lin and Smyth's greedy heuristic), and the edges left pointing back
are listed with the symbols they use: the back-calls a restructuring has to remove.

Limits: what the linker does not see is not an edge. A static or inline function of a
header is compiled into each file that includes it; a function reached through a
pointer is an edge where its address is taken (a table), not where it is called; a
use of another file's global data counts as a call; a function the compiler inlined
across files (no LTO here) or a macro still shows as the call it expands to.

Usage: tools/callgraph.py [--build DIR] [--fail-on FOLDER ...] [--only FOLDER ...]
Prints, per folder, its files, the calls between them and its circles with their
back-calls; exits 1 when a folder named by --fail-on has a circle, 2 when the objects
cannot be read.
"""
import argparse
import os
import subprocess
import sys

DEFINED = set("TDBRGSVWuiv")  # nm's letters for a global symbol this object defines


def moved_away(obj, src_root):
    """Whether obj is left over from a source that is no longer there (a file moved to
    another folder, as src/core's were into its floors): its make dependency file (.d,
    beside it) names the source, relative to the folder make ran in, above the build's."""
    dep = obj[:-2] + ".d"
    if not os.path.isfile(dep):
        return False
    with open(dep) as f:
        first = f.readline().split()
    if len(first) < 2 or not first[1].endswith(".c"):
        return False
    repo = os.path.dirname(os.path.dirname(os.path.abspath(src_root)))
    return not os.path.isfile(os.path.join(repo, first[1]))


def read_objects(src_root):
    """{file: (defined symbols, undefined symbols)} for each object under src_root,
    keyed by the source's path relative to src/ ("tui/keys.c")."""
    objs = []
    for folder, _, names in os.walk(src_root):
        for n in sorted(names):
            if n.endswith(".o") and not moved_away(os.path.join(folder, n), src_root):
                objs.append(os.path.join(folder, n))
    if not objs:
        return None
    out = {}
    for obj in sorted(objs):
        rel = os.path.relpath(obj, src_root)[:-2] + ".c"
        res = subprocess.run(["nm", "-P", obj], capture_output=True, text=True)
        if res.returncode != 0:
            sys.exit("callgraph: nm %s: %s" % (obj, res.stderr.strip()))
        defined, undefined = set(), set()
        for line in res.stdout.splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            name, kind = parts[0], parts[1]
            if kind == "U":
                undefined.add(name)
            elif kind in DEFINED:
                defined.add(name)
        out[rel] = (defined, undefined)
    return out


def call_edges(objects):
    """{(caller, callee): sorted symbols} between distinct files."""
    owner = {}
    for f, (defined, _) in objects.items():
        for s in defined:
            owner.setdefault(s, f)
    edges = {}
    for f, (_, undefined) in objects.items():
        for s in undefined:
            g = owner.get(s)
            if g and g != f:
                edges.setdefault((f, g), set()).add(s)
    return {e: sorted(s) for e, s in edges.items()}


def circles(nodes, edges):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    succ = {n: sorted(b for (a, b) in edges if a == n) for n in nodes}
    index, low, on_stack, stack, comps = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(succ[root]))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ[w])))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return sorted(comps, key=lambda c: (-len(c), c))


def order_with_few_back_edges(comp, edges):
    """Eades-Lin-Smyth: callers first, callees last; ties by the most calls out minus in.
    Each edge is weighted by its symbols, so a file called by many is put low."""
    left = set(comp)
    weight = {e: len(s) for e, s in edges.items() if e[0] in left and e[1] in left}
    head, tail = [], []

    def w_in(n):
        return sum(w for (a, b), w in weight.items() if b == n and a in left)

    def w_out(n):
        return sum(w for (a, b), w in weight.items() if a == n and b in left)

    while left:
        moved = True
        while moved:
            moved = False
            for n in sorted(left):
                if w_out(n) == 0:  # calls nothing left: goes to the bottom
                    tail.insert(0, n)
                    left.discard(n)
                    moved = True
                elif w_in(n) == 0:  # called by nothing left: goes to the top
                    head.append(n)
                    left.discard(n)
                    moved = True
        if left:
            n = max(sorted(left), key=lambda x: w_out(x) - w_in(x))
            head.append(n)
            left.discard(n)
    return head + tail


def report_folder(folder, files, edges, out):
    """Prints the folder's summary and circles; returns the number of files in circles."""
    local = {e: s for e, s in edges.items() if e[0] in files and e[1] in files}
    ncalls = sum(len(s) for s in local.values())
    comps = circles(files, local)
    print("src/%s: %d files, %d file-to-file edges (%d symbols), %s" %
          (folder, len(files), len(local), ncalls,
           "no circle" if not comps else "%d circle%s" % (len(comps), "" if len(comps) == 1 else "s")), file=out)
    in_circles = 0
    for comp in comps:
        in_circles += len(comp)
        order = order_with_few_back_edges(comp, local)
        rank = {n: i for i, n in enumerate(order)}
        back = sorted((e, s) for e, s in local.items()
                      if e[0] in rank and e[1] in rank and rank[e[0]] > rank[e[1]])
        nback = sum(len(s) for _, s in back)
        short = lambda p: p.split("/", 1)[1]
        print("  circle of %d files, top to bottom: %s" % (len(comp), " ".join(short(n) for n in order)), file=out)
        print("  %d back-calls in %d edges (a file calling one above it):" % (nback, len(back)), file=out)
        for (a, b), syms in back:
            print("    %s -> %s: %s" % (short(a), short(b), ", ".join(syms)), file=out)
    return in_circles


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.environ.get("BUILD", "build"),
                    help="the build folder whose src/ holds the objects (default: $BUILD or build)")
    ap.add_argument("--fail-on", action="append", default=[], metavar="FOLDER",
                    help="exit 1 when this folder of src/ has a circle (repeatable)")
    ap.add_argument("--only", action="append", default=[], metavar="FOLDER",
                    help="print only these folders (repeatable; default: all)")
    args = ap.parse_args()
    src_root = os.path.join(args.build, "src")
    objects = read_objects(src_root) if os.path.isdir(src_root) else None
    if not objects:
        print("callgraph: no objects under %s: build first (make), or name the build folder with --build" %
              src_root, file=sys.stderr)
        return 2
    edges = call_edges(objects)
    folders = {}
    for f in objects:
        folders.setdefault(f.split("/", 1)[0] if "/" in f else ".", set()).add(f)
    for want in args.fail_on + args.only:
        if want not in folders:
            print("callgraph: no folder src/%s among the objects (folders: %s)" %
                  (want, ", ".join(sorted(folders))), file=sys.stderr)
            return 2
    failed = []
    for folder in sorted(folders):
        if folder == "." or (args.only and folder not in args.only):
            continue
        n = report_folder(folder, folders[folder], edges, sys.stdout)
        if n and folder in args.fail_on:
            failed.append(folder)
    # Between folders: the layers' direction as calls (layers.sh checks it as includes).
    up = {}
    for (a, b), syms in edges.items():
        fa, fb = a.split("/", 1)[0], b.split("/", 1)[0]
        if fa != fb and "/" in a and "/" in b:
            up.setdefault((fa, fb), 0)
            up[(fa, fb)] += len(syms)
    fcomps = circles(set(folders) - {"."}, up)
    if not args.only:
        print("between folders: %s" % ("no circle" if not fcomps else
                                         "; ".join("circle " + " ".join(c) for c in fcomps)))
    if failed:
        print("callgraph: a circle in %s" % ", ".join("src/" + f for f in failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
