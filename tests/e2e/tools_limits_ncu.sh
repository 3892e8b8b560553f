#!/bin/sh
# tools/gpu/gpu_limits_ncu.py on PoCL with a stand-in for Nsight Compute (issue 45): its first
# run on the H200 handed ncu `run ...` without the program, and every row said "ncu gave
# nothing". The stand-in, first on PATH, records each argv, refuses a program that is not
# an executable file as ncu does, refuses one metric name as an ncu that lacks it would,
# leaves another out of its --query-metrics listing, runs the program it was handed (so
# the command must be a real one) and prints its figures as ncu's CSV. The script must
# hand it gemmtop by an absolute path, record the names refused instead of failing (and
# not ask them again), keep both lines of explain and the bank trace per preset and size,
# go on past a preset that fails, fall back to the names the comparison needs when ncu
# refuses without naming what, and leave everything in one tarball.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T_DIR/bin" "$T_DIR/out"
cat >"$T_DIR/bin/ncu" <<'PY'
#!/usr/bin/env python3
import json, os, subprocess, sys
argv = sys.argv[1:]
if argv == ["--version"]:
    print("NVIDIA (R) Nsight Compute Command Line Profiler\nVersion stand-in")
    sys.exit(0)
if argv == ["--query-metrics"]:
    print("Device stand-in\nMetric Name    Metric Description")
    print(open(os.environ["STANDIN_LISTING"]).read())
    sys.exit(0)
VALUED = {"--clock-control", "--kernel-name", "--launch-count", "--metrics", "--print-units", "--page",
          "--cache-control", "--launch-skip", "-k", "-c", "-s"}
opts, i = {}, 0
while i < len(argv) and argv[i].startswith("-"):
    if argv[i] in VALUED:
        opts[argv[i]] = argv[i + 1]
        i += 2
    else:
        opts[argv[i]] = True
        i += 1
prog = argv[i:]
ok = bool(prog) and os.path.isfile(prog[0]) and os.access(prog[0], os.X_OK)
with open(os.environ["STANDIN_LOG"], "a") as log:
    log.write(json.dumps({"argv": argv, "program": prog[:1], "executable": ok}) + "\n")
if not ok:
    print(f"==ERROR== '{prog[0] if prog else ''}' does not exist or is not an executable.")
    sys.exit(1)
metrics = opts.get("--metrics", "").split(",")
refuse = os.environ["STANDIN_REFUSE"]
if any(m.split(".")[0] == refuse for m in metrics):
    print(f"==ERROR== Failed to find metric {refuse}")
    sys.exit(1)
# A name refused without being named: only a smaller set can tell.
mute = os.environ.get("STANDIN_MUTE", "")
if mute and any(m.split(".")[0] == mute for m in metrics):
    print("==ERROR== An error occurred while trying to profile.")
    sys.exit(1)
r = subprocess.run(prog, capture_output=True, text=True)
sys.stdout.write(r.stdout)
if r.returncode != 0:
    print("==WARNING== No kernels were profiled.")
    sys.exit(r.returncode)
print('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",'
      '"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"')
for n, m in enumerate(metrics):
    pct = "pct" in m
    # No wgmma on PoCL's kernels: its shared-memory wavefronts 0, as ncu gives for them.
    value = ("61.5" if m.startswith("lts__throughput") else "0" if "_op_gmma" in m else f"{10 + n}.5" if pct
             else f"{1000 * (n + 1):,}")
    print(f'"0","1","gemmtop","host","gemm","1","7","(32, 4, 1)","(4, 4, 1)","0","9.0","Command line profiler metrics",'
          f'"{m}","{"%" if pct else "byte"}","{value}"')
PY
chmod +x "$T_DIR/bin/ncu"

# Every metric the script asks for, less one: the stand-in's listing.
METRICS=$(python3 tools/gpu/gpu_limits_ncu.py --list-metrics)
UNLISTED=sm__pipe_tensor_op_gmma_cycles_active
printf '%s\n' "$METRICS" | sed 's/\..*//' | grep -vx "$UNLISTED" | sed 's/$/   a counter/' >"$T_DIR/listing"
# shellcheck disable=SC2086 # POCL is "--backend opencl --device N"
set -- $POCL
BACKEND=$2 DEVICE=$4

# limits PRESET... : runs the script with the stand-in first on PATH.
limits() {
   PATH="$T_DIR/bin:$PATH" STANDIN_MUTE="${STANDIN_MUTE:-}" STANDIN_LOG="$T_DIR/ncu.log" STANDIN_LISTING="$T_DIR/listing" \
      STANDIN_REFUSE=l1tex__t_sector_hit_rate GEMMTOP_BIN="$GEMMTOP_BIN" \
      python3 tools/gpu/gpu_limits_ncu.py --backend "$BACKEND" --device "$DEVICE" --no-measure --reps 2 --jobs 2 "$@" \
      >"$T_DIR/stdout" 2>"$T_DIR/stderr"
   RC=$?
   OUT=$(cat "$T_DIR/stdout")
   ERR=$(cat "$T_DIR/stderr")
}

# A Hopper preset first: PoCL refuses it, and the rows after it must still come.
limits --sizes 64,96 --banks --tgz "$T_DIR/out/limits.tgz" hopper-1-tma 03-wpt 02-tiled-ts16
expect_rc 0 "the comparison runs to its end on PoCL"
if tar -xzf "$T_DIR/out/limits.tgz" -C "$T_DIR/out" limits.jsonl limits.md ncu-query-metrics.txt 2>"$T_DIR/tar.err"; then
   ok "one tarball holds the JSON Lines, the Markdown table and ncu's listing"
else
   not_ok "one tarball holds the JSON Lines, the Markdown table and ncu's listing" "$(cat "$T_DIR/tar.err")"
fi

if msg=$(python3 - "$T_DIR/ncu.log" "$GEMMTOP_BIN" <<'PY' 2>&1
import json, os, sys
calls = [json.loads(l) for l in open(sys.argv[1])]
assert calls, "ncu was never started"
for c in calls:
    p = c["program"]
    assert c["executable"], f"ncu was handed {p}, not an executable file: {c['argv']}"
    assert os.path.isabs(p[0]), f"the program {p[0]} is not an absolute path"
    assert os.path.samefile(p[0], sys.argv[2]), f"the program {p[0]} is not gemmtop"
    run = c["argv"][c["argv"].index(p[0]) + 1:]
    assert run[0] == "run" and "--preset" in run and "--reps" in run, run
print(len(calls))
PY
); then
   ok "ncu was handed gemmtop by its absolute path, then its run ($msg calls)"
else
   not_ok "ncu was handed gemmtop by its absolute path, then its run" "$msg"
fi

if msg=$(python3 - "$T_DIR/out/limits.jsonl" "$UNLISTED" <<'PY' 2>&1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
kinds = [l["kind"] for l in lines]
assert kinds[0] == "device" and kinds[-1] == "end", kinds
dev, unlisted = lines[0], sys.argv[2]
assert any(m.startswith(unlisted + ".") for m in dev["metrics_not_listed"]), dev["metrics_not_listed"]
assert not any(m.startswith(unlisted + ".") for m in dev["metrics_asked"]), "an unlisted name was asked for"
rows = {(l["preset"], l["size"]): l for l in lines if l["kind"] == "row"}
want = {(p, s) for p in ("hopper-1-tma", "03-wpt", "02-tiled-ts16") for s in (64, 96)}
assert set(rows) == want, sorted(rows)
for s in (64, 96):
    h = rows[("hopper-1-tma", s)]
    assert "limits" not in h["explain"] and "PoCL" in h["explain"]["error"], h["explain"]
    for p in ("03-wpt", "02-tiled-ts16"):
        r = rows[(p, s)]
        ex = r["explain"]
        assert ex["run"]["status"] == "ok" and ex["run"]["m"] == s, ex["run"]
        assert "limiter" in ex["limits"] and "model_bytes" in ex["limits"], ex["limits"]
        assert r["banks"]["sites"], r["banks"]
        n = r["ncu"]
        assert n["argv"] and "--launch-count" in n["argv"] and n["argv"][n["argv"].index("--launch-count") + 1] == "1"
        assert not any(m.startswith("l1tex__t_sector_hit_rate") for m in n["values"]), "a refused name has a value"
        assert n["values"]["dram__bytes_read.sum"] > 0 and n["units"]["dram__bytes_read.sum"] == "byte", n["values"]
        assert "gpu__time_duration.sum" in n["values"] and "sm__cycles_elapsed.avg.per_second" in n["values"]
        big = [v for k, v in n["values"].items() if n["raw"][k].count(",")]
        assert big and all(v >= 1000 for v in big), "thousands separators were not read"
        c = r["compare"]
        assert c["ncu_unit"] == "lts__throughput" and c["ncu_pct"] == 61.5, c
        # The SMs' requests to the L2: what they received and wrote; the L2's own count beside.
        asked = n["values"]["l1tex__m_xbar2l1tex_read_bytes.sum"] + n["values"]["l1tex__m_l1tex2xbar_write_bytes.sum"]
        assert c["l2_request_bytes"] == asked and c["l2_request_source"] == "the SMs' reads and writes", c
        assert c["lts_request_bytes"] == 32 * n["values"]["lts__t_sectors_srcunit_tex.sum"], c
        # Reads against reads: A and B once (beta 0) against DRAM's reads; C's writes beside.
        lim = ex["limits"]
        assert lim["min_read_bytes"] == 2 * s * s * 4 and c["min_bytes"] == lim["min_read_bytes"], (lim, c)
        assert c["dram_bytes"] == n["values"]["dram__bytes_read.sum"], c
        assert c["dram_write_bytes"] == n["values"]["dram__bytes_write.sum"], c
        assert c["model_bytes"] == lim["l2_model_bytes"], (lim, c)
        # ncu's own launch judged by gemmtop: its duration and clock handed to explain.
        j = r["judged"]
        t, hz = n["values"]["gpu__time_duration.sum"], n["values"]["sm__cycles_elapsed.avg.per_second"]
        assert abs(j["judged_ms"] - t / 1e6) <= 1e-5 * t / 1e6, (j["judged_ms"], t)
        assert abs(j["judged_gflops"] - 2 * s**3 / t) <= 1e-3 * 2 * s**3 / t, (j["judged_gflops"], t)
        assert c["same_run_limiter"] == j["limiter"] and c["own_limiter_agrees"] is not None, c
        # The model's loads (C's stores out) against what the SMs received from the L2.
        assert c["model_loads"] == lim["l2_model_bytes"] - s * s * 4, (lim, c)
        assert c["sm_received_bytes"] == n["values"]["l1tex__m_xbar2l1tex_read_bytes.sum"], c
        # Local wavefronts from the bank trace: its small launch's load wavefronts as compiled,
        # per multiply-add of the groups traced, times this problem's multiply-adds.
        b = r["banks"]
        L, done = b["launch"], b["groups"]
        assert b["as_compiled"]["sites"] and L["work_groups"] >= done >= 1, b
        wf = sum(x["wavefronts"] for x in b["as_compiled"]["sites"] if x["kind"] == "load")
        want = wf / (L["m"] * L["n"] * L["k"] * done / L["work_groups"]) * s ** 3
        assert c["wavefronts_from"] == "trace" and abs(c["model_wavefronts"] - want) <= 1e-9 * want, (c, want)
# The refused name: recorded on the first row profiled, never asked again.
first = rows[("03-wpt", 64)]["ncu"]
assert any(m.startswith("l1tex__t_sector_hit_rate") for m in first["rejected"]), first["rejected"]
for key, r in rows.items():
    if key != ("03-wpt", 64) and r["ncu"]["argv"]:
        asked = r["ncu"]["argv"][r["ncu"]["argv"].index("--metrics") + 1]
        assert "l1tex__t_sector_hit_rate" not in asked and not r["ncu"]["rejected"], (key, r["ncu"]["rejected"])
assert any(m.startswith("l1tex__t_sector_hit_rate") for m in lines[-1]["rejected_when_profiling"]), lines[-1]
print(len(rows))
PY
); then
   ok "each preset and size has explain's two lines, its bank trace and ncu's figures; refused names recorded"
else
   not_ok "each preset and size has explain's two lines, its bank trace and ncu's figures; refused names recorded" "$msg"
fi

expect_in "| 03-wpt | 96 | " "$(cat "$T_DIR/out/limits.md")" "the Markdown table has a row per preset and size"
expect_in "- the same limiter (ncu's launch judged by gemmtop: its time and clock): " "$(cat "$T_DIR/out/limits.md")" \
   "and the shares that agree, the limiter of ncu's own launch first"
expect_in "- model loads within 10% of the bytes the SMs received from the L2: " "$(cat "$T_DIR/out/limits.md")" \
   "and the model's loads against what the SMs received"
last=$(printf '%s\n' "$OUT" | tail -n 6)
expect_in "| 96 | 3 | 2 | " "$last" "the short table comes last: each size's rows and those ncu measured"
expect_in "${UNLISTED}.avg.pct_of_peak_sustained_active" "$last" "and it names the metrics ncu lacks"

# ncu refusing the broad set without naming what: the names the comparison needs, alone.
rm -f "$T_DIR/ncu.log"
STANDIN_MUTE=sm__pipe_fma_cycles_active limits --sizes 64 --tgz "$T_DIR/out/mute.tgz" 03-wpt
expect_rc 0 "ncu refusing without naming a metric does not stop the run"
if msg=$(tar -xzOf "$T_DIR/out/mute.tgz" limits.jsonl 2>&1 | python3 -c 'import json, sys
row = [json.loads(l) for l in sys.stdin if json.loads(l)["kind"] == "row"][0]
n, c = row["ncu"], row["compare"]
assert n["fallback"] and "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active" not in n["values"], n
assert "not taken" in row["banks"]["error"] and c["bank_ratio"] is None, (row["banks"], c)
assert "dram__bytes_read.sum" in n["values"] and c["ncu_unit"] == "lts__throughput", (n["values"], c)' 2>&1); then
   ok "and the comparison's own metrics are measured instead"
else
   not_ok "and the comparison's own metrics are measured instead" "$msg"
fi

# --rescore: the recorded rows compared again, without gemmtop or ncu. Unchanged rows give
# the same comparison; a row whose kernel stores partial sums (store_bytes, or an older
# run's workspace where a fix-up ran) counts them instead of C; a row whose model gives two
# DRAM figures (groups in step, drifted apart in K) is judged by whether DRAM's reads lie
# between them, in a column of its own, not by the first; a row whose gemmtop gives no DRAM
# figure (PoCL's: no L2 known) is not compared, one from a gemmtop before those figures is
# compared by the compulsory reads; a file that is not a run's
# is refused, saying why, and an existing --out is written over by nothing.
cp "$T_DIR/out/limits.jsonl" "$T_DIR/rec.jsonl"
python3 - "$T_DIR/rec.jsonl" "$T_DIR/rec2.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
rows = [l for l in lines if l["kind"] == "row" and l.get("compare")]
rows[0]["explain"]["limits"]["store_bytes"] = 12345678.0
dram = rows[0]["compare"]["dram_bytes"]
rows[0]["explain"]["limits"].update(dram_read_bytes=0.5 * dram, dram_drift_bytes=2.0 * dram)
rows[1]["explain"]["run"].update(fixup_ms=0.02, workspace_bytes=7654321)
rows[1]["explain"]["limits"].pop("store_bytes", None)
rows[1]["explain"]["limits"].pop("dram_read_bytes", None)
with open(sys.argv[2], "w") as f:
    for l in lines:
        f.write(json.dumps(l) + "\n")
PY
rescore() {
   GEMMTOP_BIN=$T_DIR/none python3 tools/gpu/gpu_limits_ncu.py --rescore "$@" >"$T_DIR/stdout" 2>"$T_DIR/stderr"
   RC=$?
   OUT=$(cat "$T_DIR/stdout")
   ERR=$(cat "$T_DIR/stderr")
}
rescore "$T_DIR/rec2.jsonl" --out "$T_DIR/rescored"
expect_rc 0 "--rescore compares a recorded run again, with no gemmtop and no ncu"
if msg=$(python3 - "$T_DIR/rec2.jsonl" "$T_DIR/rescored/limits.jsonl" <<'PY' 2>&1
import json, sys
before = [json.loads(l) for l in open(sys.argv[1])]
after = [json.loads(l) for l in open(sys.argv[2])]
assert after[0]["kind"] == "device" and after[0]["rescored"]["from"] == sys.argv[1], after[0]
old = [l for l in before if l["kind"] == "row"]
new = [l for l in after if l["kind"] == "row"]
assert [(r["preset"], r["size"]) for r in old] == [(r["preset"], r["size"]) for r in new]
measured = [i for i, r in enumerate(old) if r.get("compare")]
first, second = measured[0], measured[1]
for i, (o, n) in enumerate(zip(old, new)):
    if i in (first, second):
        continue
    assert o.get("compare") == n.get("compare"), (o["preset"], o.get("compare"), n.get("compare"))
for i, stores in ((first, 12345678.0), (second, 7654321)):
    o, n = old[i]["compare"], new[i]["compare"]
    lim = old[i]["explain"]["limits"]
    c = lim["min_bytes"] - lim["min_read_bytes"]
    assert abs(n["model_bytes"] - (o["model_bytes"] - c + stores)) < 1, (o, n)
    assert abs(n["model_loads"] - o["model_loads"]) < 1, (o, n)
n = new[first]["compare"]
assert n["dram_model_bytes"] == 0.5 * n["dram_bytes"] and n["dram_drift_bytes"] == 2.0 * n["dram_bytes"], n
assert new[second]["compare"]["dram_drift_bytes"] is None, new[second]["compare"]
assert new[second]["compare"]["dram_model_bytes"] == new[second]["compare"]["min_bytes"], new[second]["compare"]
# As the run compared them: PoCL's gemmtop gave dram_read_bytes as null, so no figure.
assert old[first]["compare"]["dram_model_bytes"] is None and old[second]["compare"]["dram_model_bytes"] is None
print(len(new))
PY
); then
   ok "unchanged rows compare as recorded; partial sums count instead of C, the loads unchanged"
else
   not_ok "unchanged rows compare as recorded; partial sums count instead of C, the loads unchanged" "$msg"
fi
expect_in "Re-scored from rec2.jsonl" "$(cat "$T_DIR/rescored/limits.md")" "the table says it was compared again"
expect_in "| 64 | 3 | 2 | " "$OUT" "and the short table comes last"
expect_in "model vs DRAM reads | DRAM inside the drift range |" "$OUT" "with the drift range's column beside the DRAM one"
# The second row keeps one figure (its own column: 1 row); the first's reads lie inside its two.
expect_in " of 1) | 100% (1 of 1) |" "$OUT" "each DRAM row counted in one of the two columns"
expect_in " inside |" "$(cat "$T_DIR/rescored/limits.md")" "and the row says its reads lie inside the range"
rescore "$T_DIR/rec2.jsonl" --out "$T_DIR/rescored"
expect_rc 2 "--rescore into a folder that has a limits.jsonl is refused"
printf '{"kind": "end"}\n' >"$T_DIR/notrun.jsonl"
rescore "$T_DIR/notrun.jsonl"
expect_rc 1 "a file with no rows is refused"
expect_in "no device line or no rows" "$ERR" "saying why"
# The calls kept in docs/data are gzipped: read as they are.
gzip -c "$T_DIR/rec2.jsonl" >"$T_DIR/rec2.jsonl.gz"
rescore "$T_DIR/rec2.jsonl.gz"
expect_rc 0 "--rescore reads a gzipped call"
expect_in "| 64 | 3 | 2 | " "$OUT" "the same rows as the plain file"

# --part K/N: every N-th preset from the K-th, so that two calls share the set out evenly.
limits --sizes 64 --part 2/2 --raw "$T_DIR/part.jsonl" 03-wpt 02-tiled-ts16
expect_rc 0 "--part 2/2 runs"
got=$(python3 -c 'import json, sys; print(" ".join(r["preset"] for r in map(json.loads, open(sys.argv[1])) if r["kind"] == "row"))' "$T_DIR/part.jsonl")
[ "$got" = "02-tiled-ts16" ] && ok "--part 2/2 takes the second of two presets only" \
   || not_ok "--part 2/2 takes the second of two presets only" "rows: $got"
limits --sizes 64 --part 3/2 03-wpt
expect_rc 1 "--part 3/2 is refused"
expect_in "give K/N with 1 <= K <= N" "$ERR" "saying what would be valid"

# --replay: gemmtop's limiter judges recorded rows again without the GPU (explain --arch on
# the call's device): two rows of the H200 call of 2026-11-30 07:25 (tests/data), each judged
# at ncu's time and at the run's own, what they said before kept under "recorded". A call
# whose device names no sm_ architecture (PoCL's) cannot be replayed, and says so.
GEMMTOP_BIN=$GEMMTOP_BIN python3 tools/gpu/gpu_limits_ncu.py --rescore "$T_DIR/rec2.jsonl" --replay \
   --out "$T_DIR/noreplay" >"$T_DIR/stdout" 2>"$T_DIR/stderr"
RC=$?
ERR=$(cat "$T_DIR/stderr")
expect_rc 1 "--replay of a call on PoCL is refused"
expect_in "names no sm_ architecture" "$ERR" "saying why"
if have_nvrtc; then
   GEMMTOP_BIN=$GEMMTOP_BIN python3 tools/gpu/gpu_limits_ncu.py --rescore tests/data/h200-limits-rows.jsonl --replay \
      --jobs 2 --out "$T_DIR/replayed" >"$T_DIR/stdout" 2>"$T_DIR/stderr"
   RC=$?
   expect_rc 0 "--replay judges the H200's rows again offline"
   expect_in "# replayed 2 of 2 rows offline for sm_90" "$(cat "$T_DIR/stdout")" "every row"
   if msg=$(python3 - "$T_DIR/replayed/limits.jsonl" <<'PY' 2>&1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["kind"] == "row"]
assert len(rows) == 2
for r in rows:
    v, run = r["ncu"]["values"], r["explain"]["run"]
    assert r["recorded"]["judged"]["limiter"] and r["recorded"]["limits"]["limiter"], r["recorded"]
    assert abs(r["judged"]["judged_ms"] - v["gpu__time_duration.sum"] / 1e6) < 1e-6, (r["judged"], v)
    assert abs(r["explain"]["limits"]["judged_ms"] - run["time_ms"]) < 1e-6 * run["time_ms"], r["explain"]
    assert r["compare"]["same_run_limiter"] == r["judged"]["limiter"], r["compare"]
print(len(rows))
PY
   ); then ok "each row judged at ncu's time and at its own, the recorded judgement kept"
   else not_ok "each row judged at ncu's time and at its own, the recorded judgement kept" "$msg"; fi
   # With --banks, what the call did not trace is traced here on PoCL under NVIDIA's model:
   # 03-wpt's loads' coalescing (the call predates it), judged with it and with its bank
   # trace's stores; the TMA row has no loads through the L1 to trace.
   GEMMTOP_BIN=$GEMMTOP_BIN python3 tools/gpu/gpu_limits_ncu.py --rescore tests/data/h200-limits-rows.jsonl --replay \
      --banks --jobs 2 --out "$T_DIR/replayed-banks" >"$T_DIR/stdout" 2>"$T_DIR/stderr"
   RC=$?
   expect_rc 0 "--replay --banks"
   if msg=$(python3 - "$T_DIR/replayed-banks/limits.jsonl" <<'PY' 2>&1
import json, sys
rows = {r["preset"]: r for r in map(json.loads, open(sys.argv[1])) if r["kind"] == "row"}
w, h = rows["03-wpt"], rows["hopper-6-splitk-bf16"]
c = w["coalescing"]
assert c["total"]["requests"] > 0 and c["total"]["ratio"] >= 1 and "PoCL" in c["traced_offline"], c
assert abs(w["judged"]["load_ratio"] - c["total"]["ratio"]) < 1e-4 * c["total"]["ratio"], w["judged"]
assert w["judged"]["store_wavefronts"] > 0 and w["judged"]["lsu_load_bytes"] > 0, w["judged"]
assert "coalescing" not in h and h["judged"]["load_ratio"] is None, h.get("coalescing")
PY
   ); then ok "--replay --banks: the loads' coalescing traced offline and judged with, the TMA row without"
   else not_ok "--replay --banks: the loads' coalescing traced offline and judged with" "$msg"; fi
else
   ok "--replay offline # SKIP $(nvrtc_missing)"
fi

# The GPU call's script (tools/gpu/gpu_limits.sh, as gpu_round.sh runs it): the three files
# in its folder; a second run into the same folder writes over nothing.
wrapper() {
   PATH="$T_DIR/bin:$PATH" STANDIN_LOG="$T_DIR/ncu.log" STANDIN_LISTING="$T_DIR/listing" \
      STANDIN_REFUSE=l1tex__t_sector_hit_rate GEMMTOP_BIN="$GEMMTOP_BIN" LIMITS_SIZES=64 \
      LIMITS_ARGS="--backend $BACKEND --device $DEVICE --no-measure --reps 2 --jobs 2 03-wpt" \
      sh tools/gpu/gpu_limits.sh "$T_DIR/round" >"$T_DIR/stdout" 2>"$T_DIR/stderr"
   RC=$?
}
wrapper
expect_rc 0 "tools/gpu/gpu_limits.sh runs the comparison into its folder"
if [ -s "$T_DIR/round/limits.jsonl" ] && grep -q '^| 03-wpt | 64 | ' "$T_DIR/round/limits.md" &&
   [ -s "$T_DIR/round/ncu-query-metrics.txt" ] && [ "$(ls "$T_DIR/round")" = "$(printf 'limits.jsonl\nlimits.md\nncu-query-metrics.txt')" ]; then
   ok "its folder holds limits.jsonl, limits.md and ncu's listing, nothing else"
else
   not_ok "its folder holds limits.jsonl, limits.md and ncu's listing, nothing else" "$(ls -la "$T_DIR/round"; cat "$T_DIR/stderr")"
fi
cp "$T_DIR/round/limits.jsonl" "$T_DIR/first.jsonl"
wrapper
expect_rc 2 "a second run into the same folder is refused"
expect_in "exists already; remove it or name another" "$(cat "$T_DIR/stderr")" "saying why"
cmp -s "$T_DIR/first.jsonl" "$T_DIR/round/limits.jsonl" && ok "and the first run's figures are kept" ||
   not_ok "and the first run's figures are kept"

# A budget spent before the first row: nothing measured, every row recorded as left out,
# and the tarball still written.
rm -f "$T_DIR/ncu.log"
limits --sizes 64 --budget 0.01 --tgz "$T_DIR/out/budget.tgz" 03-wpt
expect_rc 0 "a spent budget ends the run cleanly"
if msg=$(tar -xzOf "$T_DIR/out/budget.tgz" limits.jsonl 2>&1 | python3 -c 'import json, sys
kinds = [json.loads(l)["kind"] for l in sys.stdin]
assert kinds == ["device", "skipped", "end"], kinds' 2>&1) && [ ! -e "$T_DIR/ncu.log" ]; then
   ok "and records what it left out, profiling nothing"
else
   not_ok "and records what it left out, profiling nothing" "$msg"
fi

# A program that is not there is refused before ncu starts.
GEMMTOP_BIN=$T_DIR/none limits 03-wpt
expect_rc 1 "a gemmtop that is not built is refused"
expect_in "is not an executable file" "$ERR" "saying what is wrong"
finish
