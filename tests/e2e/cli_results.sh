#!/bin/sh
# gemmtop results: a store filled by real PoCL runs (two compiles and CLBlast), a Kernel
# Tuner T4 file and a CLBlast tuner file imported beside them; list and its filters, best
# (with % of the vendor), compare (two devices, two date ranges), the three exports (the
# same figures; T4 valid against Kernel Tuner's published schema), re-import, bad input.
. "$(dirname "$0")/lib.sh"
# The store is this script's own (lib.sh puts XDG_DATA_HOME in its folder; say so here).
XDG_DATA_HOME="$T_DIR/data"
export XDG_DATA_HOME
unset GEMMTOP_STORE
STORE="$XDG_DATA_HOME/gemmtop/results.db"
DATA=$(cd "$(dirname "$0")/../data" && pwd)

# py SCRIPT ARGS...: a check in python3; it prints its verdict (a traceback when it fails).
py() { python3 -c "$@"; }
# expect_said WANT WHAT: the check's whole output (in $T_DIR/py.out) is WANT.
expect_said() {
   if [ "$(cat "$T_DIR/py.out")" = "$1" ]; then ok "$2"; else not_ok "$2" "$(cat "$T_DIR/py.out")"; fi
}

# ---- no store yet: reading makes none ----
run_gemmtop results list
expect_rc 0 "list before anything was measured"
expect_in "no results store at $STORE yet" "$ERR" "says there is no store yet"
[ ! -e "$STORE" ] && ok "and makes none" || not_ok "list made a store"
run_gemmtop results export --format t4
printf '%s\n' "$OUT" | py 'import json,sys; assert json.load(sys.stdin)["results"] == []; print("ok")' >"$T_DIR/py.out" 2>&1
expect_said "ok" "export of no store: a T4 file with no results"
run_gemmtop results best --store "$T_DIR/nosuch.db"
expect_rc 2 "a --store that is not there"

# ---- the store: two real runs, one with the vendor library ----
run_gemmtop run --kernel mygemm01_naive --size 64 --vendor
expect_rc 0 "a run at size 64 with CLBlast beside it"
run_gemmtop run --kernel mygemm01_naive --size 64 --set TSM=8 --set TSN=8
expect_rc 0 "a second configuration"
[ -f "$STORE" ] && ok "the runs went to the test's own store" || not_ok "no store at $STORE" "$ERR"
run_gemmtop results export --format jsonl
DEVICE=$(printf '%s\n' "$OUT" | py 'import json,sys; print(json.loads(sys.stdin.readline())["device"])')
[ -n "$DEVICE" ] && ok "the runs' device: $DEVICE" || not_ok "no device in the export" "$OUT$ERR"

# ---- imports: Kernel Tuner (T4) and CLBlast's tuner ----
# A Kernel Tuner T4 file of the same kernel on another GPU: its parameters in its own
# order, 0.01 ms, so 2*64^3/1e-5 s = 52.4288 GFLOPS.
cat >"$T_DIR/kt.json" <<'EOF'
{"schema_version": "1.0.0", "metadata": {"timeunit": "milliseconds"}, "results": [
 {"timestamp": "2026-03-02T10:15:00+00:00", "configuration": {"TSM": 16, "TSN": 16},
  "times": {"compilation": 300.0, "runtimes": [0.01, 0.01]}, "invalidity": "correct", "correctness": 1,
  "measurements": [{"name": "time", "value": 0.01, "unit": "ms"}], "objectives": ["time"]},
 {"configuration": {"TSM": 64, "TSN": 64}, "times": {"runtimes": []}, "invalidity": "compile", "correctness": 1,
  "measurements": [], "objectives": ["time"]}]}
EOF
run_gemmtop results import "$T_DIR/kt.json"
expect_rc 2 "a T4 file without a device is refused"
expect_in "names no device for its results; say which with --device NAME" "$ERR" "the message says what to add"
run_gemmtop results import "$T_DIR/kt.json" --device "NVIDIA A100-SXM4-40GB" --kernel mygemm01_naive --size 64
expect_rc 0 "the T4 file imports with its device, kernel and size given"
expect_in "imported 2 results" "$OUT" "both of its results"
expect_in "(Kernel Tuner T4)" "$OUT" "its format was recognised"
# The CLBlast sample, said to be from this device and size, so that best shows it beside.
sed -e "s/Intel(R) UHD Graphics 620/$DEVICE/" -e 's/"256"/"64"/' "$DATA/clblast_xgemm_1_32.json" >"$T_DIR/cl.json"
run_gemmtop results import "$T_DIR/cl.json"
expect_rc 0 "a CLBlast tuner file imports"
expect_in "imported 3 results" "$OUT" "its three results"
run_gemmtop results import "$DATA/clblast_xgemm_1_32.json" --format clblast
expect_in "imported 3 results" "$OUT" "the sample as it is: another device"
run_gemmtop results import "$T_DIR/cl.json"
expect_rc 0 "importing the same file again"
expect_in "imported 0 results" "$OUT" "adds nothing"
expect_in "3 already there" "$OUT" "and says they are there"

# ---- list ----
run_gemmtop results list --limit 0
expect_rc 0 "list"
rows=$(printf '%s\n' "$OUT" | grep -c '^ *[0-9]')
[ "$rows" -eq 11 ] && ok "list shows the 11 rows (2 runs, 1 vendor, 2 T4, 6 CLBlast)" || not_ok "list: $rows rows" "$OUT"
run_gemmtop results list --origin clblast --device "$DEVICE"
n=$(printf '%s\n' "$OUT" | grep -c ' clblast ')
[ "$n" -eq 3 ] && ok "--origin clblast --device: the 3 rows of this device" || not_ok "--origin clblast --device: $n" "$OUT"
run_gemmtop results list --kernel mygemm01_naive --size 64,64,64 --ok --precision float
n=$(printf '%s\n' "$OUT" | grep -c 'mygemm01_naive')
[ "$n" -eq 3 ] && ok "--kernel --size M,N,K --ok: the two runs and the verified T4 row" || not_ok "filters: $n" "$OUT"
run_gemmtop results list --kernel mygemm01_naive --size 64x64x64 --ok --precision float
n=$(printf '%s\n' "$OUT" | grep -c 'mygemm01_naive')
[ "$n" -eq 3 ] && ok "--size MxNxK, as run and sweep write sizes, selects the same rows" || not_ok "--size 64x64x64: $n" "$OUT"
case "$OUT" in *compile*) not_ok "--ok leaves out the failed compile" "$OUT" ;; *) ok "--ok leaves out the failed compile" ;; esac
run_gemmtop results list --until 2026-03-02 --origin t4
n=$(printf '%s\n' "$OUT" | grep -c 'NVIDIA A100')
[ "$n" -eq 1 ] && ok "--until: only the T4 row dated 2026-03-02" || not_ok "--until: $n" "$OUT"
run_gemmtop results list --since 2099-01-01
expect_in "no results match" "$OUT" "--since in the future: nothing"
run_gemmtop results list --limit 2
expect_in "(the newest 2 of 11 rows; --limit 0 lists all)" "$OUT" "--limit says what it left out"

# ---- exports: the same figures in all three, and in list ----
run_gemmtop results export --out "$T_DIR/all.csv"
expect_rc 0 "export CSV to a file"
run_gemmtop results export --format jsonl --out "$T_DIR/all.jsonl"
run_gemmtop results export --format t4 --out "$T_DIR/all.t4.json"
expect_rc 0 "export T4 to a file"
expect_in "exported 11 results" "$ERR" "export says how many"
py '
import csv, json, sys
d = sys.argv[1]
rows = {int(r["id"]): r for r in csv.DictReader(open(d + "/all.csv"))}
lines = {o["id"]: o for o in map(json.loads, open(d + "/all.jsonl"))}
t4 = json.load(open(d + "/all.t4.json"))["results"]
assert len(rows) == len(lines) == len(t4) == 11, (len(rows), len(lines), len(t4))
for r in t4:
    g = r["gemmtop"]; i = g["id"]
    c, j = rows[i], lines[i]
    m = {x["name"]: x["value"] for x in r["measurements"]}
    assert c["device"] == j["device"] == g["device"] and c["params"] == j["params"] == g["params"]
    if c["gflops"]:
        a, b, t = float(c["gflops"]), j["gflops"], m["GFLOP/s"]
        assert abs(a - b) <= 1e-12 * a and abs(a - t) <= 1e-12 * a, (i, a, b, t)
        assert abs(float(c["median_ms"]) - m["time"]) <= 1e-12 * m["time"]
    else:
        assert j["gflops"] is None and "GFLOP/s" not in m
    assert r["invalidity"] == ("correct" if c["outcome"] == "ok" else r["invalidity"])
    assert (r["correctness"] == 1) == (c["verified"] == "1")
print("ok")' "$T_DIR" >"$T_DIR/py.out" 2>&1
expect_said "ok" "CSV, JSON Lines and T4 hold the same figures for every row"
run_gemmtop results list --limit 0
py '
import csv, sys
shown = {}
for line in sys.stdin:
    f = line.split()
    if f and f[0].isdigit():
        shown[int(f[0])] = f[-1]
for r in csv.DictReader(open(sys.argv[1])):
    want = "%.1f" % float(r["gflops"]) if r["gflops"] else "-"
    assert shown[int(r["id"])] == want, (r["id"], shown[int(r["id"])], want)
print("ok")' "$T_DIR/all.csv" <"$T_DIR/out" >"$T_DIR/py.out" 2>&1
expect_said "ok" "list shows the exported GFLOPS"
py '
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))
print("valid")' "$DATA/t4/results-schema.json" "$T_DIR/all.t4.json" >"$T_DIR/py.out" 2>&1
expect_said "valid" "the T4 export validates against Kernel Tuner's T4 results schema"
# A file that is not valid against the schema is found so (the check can fail).
py '
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
bad = {"schema_version": "1.0.0", "results": [{"configuration": {}, "times": {}, "invalidity": "fine", "correctness": 1}]}
try:
    jsonschema.Draft202012Validator(schema).validate(bad); print("accepted")
except jsonschema.ValidationError:
    print("rejected")' "$DATA/t4/results-schema.json" >"$T_DIR/py.out" 2>&1
expect_said "rejected" "the schema check rejects a bad invalidity"
cp "$T_DIR/all.csv" "$T_DIR/before.csv"
run_gemmtop results export --format jsonl --out "$T_DIR/all.csv"
expect_rc 2 "export refuses to replace a file"
expect_in "all.csv exists; --force replaces it" "$ERR" "and says how to"
cmp -s "$T_DIR/all.csv" "$T_DIR/before.csv" && ok "the file is untouched" || not_ok "the file changed"
run_gemmtop results export --format jsonl --out "$T_DIR/all.csv" --force
expect_rc 0 "--force replaces it"
[ "$(head -c 1 "$T_DIR/all.csv")" = "{" ] && ok "with the JSON Lines" || not_ok "--force did not replace" "$(head -2 "$T_DIR/all.csv")"

# ---- best ----
run_gemmtop results best --size 64 --device "$DEVICE"
expect_rc 0 "best"
py '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
dev = sys.argv[2]
mine = [r for r in rows if r["device"] == dev and r["outcome"] == "ok" and r["verified"] == "1"]
vendor = max(float(r["gflops"]) for r in mine if r["origin"] == "vendor")
want = {}
for r in mine:
    if r["origin"] != "vendor":
        want[r["kernel"]] = max(want.get(r["kernel"], 0), float(r["gflops"]))
got = {}
for line in sys.stdin:
    for k in want:
        if " %s " % k in line:
            f = line.split()  # from the end: GFLOPS MS %VENDOR VENDOR ORIGIN DATE TIME ID
            got[k] = (f[-8], f[-6])
assert set(got) == set(want), (got, want)
for k, g in want.items():
    assert got[k] == ("%.1f" % g, "%.0f%%" % (100 * g / vendor)), (k, got[k], g, vendor)
print("ok", len(want))' "$T_DIR/before.csv" "$DEVICE" <"$T_DIR/out" >"$T_DIR/py.out" 2>&1
expect_said "ok 2" "best: gemmtop's kernel and CLBlast's tuned Xgemm, each its best, with % of the vendor"
case "$OUT" in *"TSM=64"*) not_ok "best leaves out failed rows" "$OUT" ;; *) ok "best leaves out failed rows" ;; esac

# ---- compare: two devices, then two date ranges ----
run_gemmtop results compare --device "$DEVICE" --against a100
expect_rc 0 "compare two devices"
py '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
tsn16 = lambda r: sorted(r["params"].split()) == ["TSM=16", "TSN=16"]
a = float([r for r in rows if r["device"] == sys.argv[2] and tsn16(r) and r["origin"] == "run"][0]["gflops"])
b = float([r for r in rows if r["device"].startswith("NVIDIA A100") and tsn16(r)][0]["gflops"])
assert abs(b - 52.4288) < 1e-9, b  # 2*64^3 / 0.01 ms
want = "%.2f" % (b / a)
for line in sys.stdin:
    if "mygemm01_naive" in line and "TSN=16" in line:
        f = line.split()
        assert f[-1] == want and f[-2] == "%.1f" % b, (f, want)
        print("ok"); break' "$T_DIR/before.csv" "$DEVICE" <"$T_DIR/out" >"$T_DIR/py.out" 2>&1
expect_said "ok" "compare: the PoCL run beside the imported A100 figure, with their ratio"
expect_in "B: NVIDIA A100-SXM4-40GB" "$OUT" "compare names the other device"
# The same device a year earlier: gemmtop's own T4 export, dated back and twice as slow.
py '
import json, sys
f = json.load(open(sys.argv[1]))
keep = []
for r in f["results"]:
    g = r["gemmtop"]
    if g["origin"] != "run":
        continue
    r["timestamp"] = "2025-01-15T12:00:00Z"
    for m in r["measurements"]:
        if m["name"] in ("time", "time_min", "time_max"): m["value"] *= 2
        if m["name"] == "GFLOP/s": m["value"] /= 2
    keep.append(r)
f["results"] = keep
json.dump(f, open(sys.argv[2], "w"))' "$T_DIR/all.t4.json" "$T_DIR/old.json"
run_gemmtop results import "$T_DIR/old.json"
expect_in "imported 2 results" "$OUT" "gemmtop's own T4 export imports back (its context kept)"
run_gemmtop results compare --device "$DEVICE" --until 2025-12-31 --against-since 2026-01-01
expect_rc 0 "compare two date ranges of one device"
n=$(printf '%s\n' "$OUT" | grep 'mygemm01_naive' | grep -c ' 2\.00$')
[ "$n" -eq 2 ] && ok "both configurations twice as fast now (B/A 2.00)" || not_ok "date compare: $n" "$OUT"

# ---- bad input ----
run_gemmtop results
expect_rc 2 "results without a subcommand"
run_gemmtop results frobnicate
expect_rc 2 "an unknown subcommand"
expect_in "unknown subcommand 'frobnicate': use list, best, compare, export or import" "$ERR" "is named, with the valid ones"
run_gemmtop results list --since 2026-02-30
expect_rc 2 "a date that does not exist"
expect_in "--since '2026-02-30' is not a date: use YYYY-MM-DD" "$ERR" "is refused with the form"
run_gemmtop results list --since 2026-03-02 --until 2026-03-01
expect_rc 2 "--since after --until"
run_gemmtop results list --against x
expect_rc 2 "an option of another subcommand"
expect_in "results list does not take --against" "$ERR" "is named"
run_gemmtop results compare --device "$DEVICE"
expect_rc 2 "compare without the other side"
run_gemmtop results export --format clblast
expect_rc 2 "export to CLBlast's format"
run_gemmtop results import
expect_rc 2 "import without a file"
run_gemmtop results import "$T_DIR/nosuch.json"
expect_rc 2 "import of a missing file"
expect_in "nosuch.json: No such file or directory" "$ERR" "names it"
printf '{"schema_version": "1.0.0",\n "results": [\n  {"configuration": {}, }\n]}\n' >"$T_DIR/broken.json"
run_gemmtop results import "$T_DIR/broken.json"
expect_rc 2 "invalid JSON"
expect_in "broken.json: line 3, column" "$ERR" "says where"
run_gemmtop results import "$T_DIR/before.csv"
expect_rc 2 "a CSV file"
expect_in "not JSON" "$ERR" "is not JSON"
run_gemmtop results import "$T_DIR/cl.json" --format t4
expect_rc 2 "a CLBlast file as T4"
expect_in "it is a CLBlast tuner file (use --format clblast" "$ERR" "says what it is"
printf 'not a database' >"$T_DIR/notastore.db"
run_gemmtop results list --store "$T_DIR/notastore.db"
expect_rc 1 "a file that is not a store"
[ "$(cat "$T_DIR/notastore.db")" = "not a database" ] && ok "and it is left alone" || not_ok "the file was changed"
run_gemmtop results list --limit 0
rows=$(printf '%s\n' "$OUT" | grep -c '^ *[0-9]')
[ "$rows" -eq 13 ] && ok "nothing else was added (13 rows)" || not_ok "rows at the end: $rows" "$OUT"
finish
