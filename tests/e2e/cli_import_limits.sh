#!/bin/sh
# results import at scale and against hostile files (issue 28): the time grows linearly
# with the number of results (a file read element by element, not cJSON's linked list
# walked by index), a 400,000-result file imports in seconds with memory near the file's
# own size and says that it goes on; names with terminal escapes are refused at import,
# and a store that another program filled with them is listed with the escapes made
# visible, never obeyed.
. "$(dirname "$0")/lib.sh"

# Generates a T4 file of N results (compact: one result a line) and times its import into
# a fresh store, three times; prints "<fastest seconds> <max RSS KiB> <rows> <progress lines>".
python3 - "$GEMMTOP_BIN" "$T_DIR" >"$T_DIR/scale" 2>"$T_DIR/scale.err" <<'PY'
import os, resource, sqlite3, subprocess, sys, time
binary, tmp = sys.argv[1], sys.argv[2]
def make(n):
    path = "%s/t4_%d.json" % (tmp, n)
    with open(path, "w") as f:
        f.write('{"schema_version": "1.0.0", "metadata": {"timeunit": "ms"}, "results": [\n')
        # Line by line: a child's max RSS counts its parent's pages at fork time, so the
        # generator must not hold the file.
        for i in range(n):
            f.write('%s{"configuration": {"TS": %d, "WPT": %d}, "times": {"runtimes": [0.5]}, '
                    '"invalidity": "correct", "correctness": 1, "measurements": [{"name": "time", '
                    '"value": %d.5, "unit": "ms"}]}' % (",\n" if i else "", i, i % 8, i % 97 + 1))
        f.write("\n]}\n")
    return path
for n, tries in ((5000, 3), (40000, 3), (400000, 1)):
    path = make(n)
    best, progress = None, 0
    for t in range(tries):
        store = "%s/s_%d_%d.db" % (tmp, n, t)
        start = time.monotonic()
        p = subprocess.run([binary, "results", "import", path, "--store", store, "--device", "D", "--kernel", "K",
                            "--size", "64"], capture_output=True, text=True)
        took = time.monotonic() - start
        if p.returncode != 0:
            print("import of %d failed: %s" % (n, p.stderr), file=sys.stderr)
            sys.exit(1)
        best = took if best is None else min(best, took)
        progress = p.stderr.count("results read...")
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    rows = sqlite3.connect(store).execute("SELECT count(*) FROM results").fetchone()[0]
    print(n, "%.3f" % best, rss, rows, progress, os.path.getsize(path) // 1024)
    os.remove(path)
PY
if [ -s "$T_DIR/scale" ]; then
   ok "5,000, 40,000 and 400,000 results imported"
else
   not_ok "the imports failed" "$(cat "$T_DIR/scale.err")"
fi
cat "$T_DIR/scale" | sed 's/^/# results, fastest s, max RSS KiB, rows, progress lines, file KiB: /'
t5=$(awk '$1 == 5000 { print $2 }' "$T_DIR/scale")
t40=$(awk '$1 == 40000 { print $2 }' "$T_DIR/scale")
awk -v a="$t5" -v b="$t40" 'BEGIN { exit !(a > 0 && b < 20 * a) }' &&
   ok "linear: 40,000 results in ${t40} s, within 20 times the ${t5} s of 5,000" ||
   not_ok "not linear: 40,000 results took ${t40} s against ${t5} s for 5,000"
set -- $(awk '$1 == 400000 { print $2, $3, $4, $5, $6 }' "$T_DIR/scale")
[ "${3:-0}" = 400000 ] && ok "all 400,000 rows are in the store" || not_ok "400,000-result import: ${3:-0} rows stored"
awk -v t="${1:-999}" 'BEGIN { exit !(t < 120) }' && ok "the 400,000-result import took ${1} s" ||
   not_ok "the 400,000-result import took ${1:-?} s"
[ "${4:-0}" -ge 3 ] && ok "and said that it went on ($4 progress lines)" || not_ok "progress lines: ${4:-0}"
# Memory: the file's text and one result at a time, not a tree of the whole file (which
# took 1 GB for 100 MB). The sanitizers' shadow memory makes RSS no measure there.
if [ -n "${GEMMTOP_SANITIZE:-}" ]; then
   ok "# SKIP memory bound: RSS under AddressSanitizer includes its shadow memory"
else
   awk -v rss="${2:-0}" -v file="${5:-0}" 'BEGIN { exit !(rss < file + 64 * 1024) }' &&
      ok "memory stayed near the file's size (max RSS ${2} KiB for a ${5} KiB file)" ||
      not_ok "max RSS ${2:-?} KiB for a ${5:-?} KiB file"
fi

# Names with terminal escapes: refused at import, the place named.
printf '{"kernel_family":"xgemm_1","precision":"32","device":"\\u001b]0;pwned\\u0007\\u001b[2J evil","arg_m":"8","arg_n":"8","arg_k":"8","results":[{"kernel":"Xgemm","time":1.5,"parameters":{"MWG":16}}]}' >"$T_DIR/evil.json"
run_gemmtop results import "$T_DIR/evil.json" --store "$T_DIR/e.db"
expect_rc 2 "a CLBlast file whose device name holds escapes is refused"
expect_in "device holds a control character (ESC at byte 1)" "$ERR" "naming the field and the byte"
printf '{"schema_version":"1.0.0","results":[{"configuration":{"\\u001b[2J\\u001b[31mTS":16},"times":{},"invalidity":"correct","correctness":1,"measurements":[{"name":"time","value":1,"unit":"ms"}]}]}' >"$T_DIR/evil_t4.json"
run_gemmtop results import "$T_DIR/evil_t4.json" --store "$T_DIR/e.db" --device D --kernel K --size 8
expect_rc 2 "a T4 parameter named with escapes is refused"
expect_in "configuration key holds a control character" "$ERR" "naming it"
printf '{"schema_version":"1.0.0","results":[{"configuration":{"TS":16},"times":{},"invalidity":"correct","correctness":1,"measurements":[{"name":"time","value":"fast","unit":"ms"}]}]}' >"$T_DIR/fast.json"
run_gemmtop results import "$T_DIR/fast.json" --store "$T_DIR/e.db" --device D --kernel K --size 8
expect_rc 2 "a T4 time that is not a number is refused"
expect_in 'results[0].measurements[0].value of "time" should be a number, not a string' "$ERR" "with its place"
printf '{"schema_version":"1.0.0","results":[{"configuration":{"TS":16},"times":{},"invalidity":"correct","correctness":1,"measurements":[{"name":"time","value":1e400,"unit":"ms"}]}]}' >"$T_DIR/huge.json"
run_gemmtop results import "$T_DIR/huge.json" --store "$T_DIR/e.db" --device D --kernel K --size 8
expect_rc 2 "a time of 1e400 is refused"
expect_in "is not a finite number (too large for a double)" "$ERR" "saying what is wrong with it"

# A store another program filled with escapes: listed and exported with them made visible.
printf '{"schema_version":"1.0.0","results":[{"configuration":{"TS":16},"times":{},"invalidity":"correct","correctness":1,"measurements":[{"name":"time","value":1,"unit":"ms"}]}]}' >"$T_DIR/good.json"
run_gemmtop results import "$T_DIR/good.json" --store "$T_DIR/e.db" --device D --kernel K --size 8
expect_rc 0 "a clean file imports"
python3 -c 'import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); db.execute("UPDATE results SET device = ?, params = ?", ("\x1b]0;pwned\x07\x1b[2J evil\u009b", "TS=\x1b[31m16")); db.commit()' "$T_DIR/e.db"
for how in "list" "export --format csv"; do
   # shellcheck disable=SC2086 # how is a subcommand and its options
   run_gemmtop results $how --store "$T_DIR/e.db"
   if printf '%s' "$OUT" | LC_ALL=C grep -q "$(printf '[\033\007]')" || printf '%s' "$OUT" | grep -q "$(printf '\302\233')"; then
      not_ok "results $how writes the store's control characters raw" "$(printf '%s' "$OUT" | cat -v)"
   else
      ok "results $how writes no control character from the store"
   fi
   expect_in '^[]0;pwned^G^[[2J evilM-^[' "$OUT" "results $how shows them in caret form"
done
finish
