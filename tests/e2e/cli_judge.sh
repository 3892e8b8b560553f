#!/bin/sh
# explain --arch --device-file: the limiter judges a time taken on a device that is not
# here (a profiler's on the H200), with the ceilings measured there (the line `gemmtop list
# devices --format json --measure` printed on it: tests/data/h200-device.json, from the call
# of 2026-11-30 07:25). The kernel is compiled offline (NVRTC) for its registers; nothing
# runs. Bad files and options that need a run are refused, saying why; another machine's
# device name reaches the terminal with its control characters made visible.
. "$(dirname "$0")/lib.sh"

DEV=$PWD/tests/data/h200-device.json
judge() {
   OUT=$("$GEMMTOP_BIN" explain --backend cuda --arch sm_90a "$@" 2>"$T_DIR/err")
   RC=$?
   ERR=$(cat "$T_DIR/err")
}

# Refusals that come before any compile: they hold with or without NVRTC.
judge --device-file "$DEV" --preset 03-wpt --size 2048
expect_rc 2 "without --judge-ms there is nothing to judge"
expect_in "give that time (--judge-ms MS)" "$ERR" "saying what to give"
judge --preset 03-wpt --size 2048 --judge-ms 1
expect_rc 2 "without --device-file there are no ceilings"
expect_in "--device-file FILE" "$ERR" "saying what to give"
judge --device-file "$DEV" --preset 03-wpt --size 2048 --judge-ms 1 --vendor
expect_rc 2 "--vendor is refused: nothing runs"
expect_in "runs nothing: --vendor" "$ERR" "saying why"
printf 'fp32_peak_gflops 1\n' >"$T_DIR/notjson"
judge --device-file "$T_DIR/notjson" --preset 03-wpt --size 2048 --judge-ms 1
expect_rc 2 "a device file that is not JSON is refused"
expect_in "not a JSON object" "$ERR" "saying what it should be"
printf '{"name": "x", "compute_units": 132, "copy_peak_gbps": 4000}\n' >"$T_DIR/noceil"
judge --device-file "$T_DIR/noceil" --preset 03-wpt --size 2048 --judge-ms 1
expect_rc 2 "a device file without measured ceilings is refused"
expect_in '"fp32_peak_gflops"' "$ERR" "naming the ceiling it lacks"
sed 's/"compute_units": 132/"compute_units": "many"/' "$DEV" >"$T_DIR/badcu"
judge --device-file "$T_DIR/badcu" --preset 03-wpt --size 2048 --judge-ms 1
expect_rc 2 "a field of the wrong type is refused"
expect_in '"compute_units" is not a number' "$ERR" "naming the field"
mkfifo "$T_DIR/fifo"
judge --device-file "$T_DIR/fifo" --preset 03-wpt --size 2048 --judge-ms 1
expect_rc 2 "a FIFO is refused, not read"
expect_in "FIFO" "$ERR" "naming what it is"
OUT=$("$GEMMTOP_BIN" explain --device-file "$DEV" --preset 03-wpt --size 64 2>&1)
RC=$?
expect_rc 2 "--device-file without --arch is refused (explain then runs on this device)"
expect_in "for explain --arch" "$OUT" "saying where it belongs"

if ! have_nvrtc; then
   ok "the offline judgements # SKIP $(nvrtc_missing)"
   finish
fi

# A time on the H200 judged offline: the flops over it, at the clock given.
ms=0.02848
judge --device-file "$DEV" --preset hopper-5-order-bf16 --size 2048 --judge-ms $ms --judge-mhz 1757
expect_rc 0 "a Hopper kernel's time on the H200 is judged without a GPU"
expect_in "on NVIDIA H200 (132 multiprocessors; ceilings measured 2026-11-30 07:25), compiled offline for sm_90a: nothing ran here" \
   "$OUT" "the device and its ceilings come from the file, the code from the offline compile"
expect_in "judged     the time given (--judge-ms): $ms ms, 6.032e+05 GFLOPS at 1757 MHz" "$OUT" \
   "2 x 2048^3 flops over the time given, at its clock"
expect_in "of the measured bfloat16 wgmma peak at the clock the run held" "$OUT" \
   "put against the file's wgmma ceiling, scaled to the clock"
judge --device-file "$DEV" --preset hopper-5-order-bf16 --size 2048 --judge-ms $ms --format json
expect_rc 0 "the same as JSON"
if msg=$(printf '%s\n' "$OUT" | python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin]
assert len(lines) == 2, lines
run, lim = lines[0], lines[1]["limits"]
assert run["status"] == "not run" and run["offline"] == "sm_90a" and run["device"] == "NVIDIA H200", run
assert run["compute_units"] == 132 and run["registers"] > 0 and run["judged_mhz"] is None, run
assert abs(lim["judged_ms"] - 0.02848) < 1e-9 and abs(lim["judged_gflops"] - 2 * 2048**3 / 0.02848e6) < 1, lim
assert lim["l2_gbps"] == 9414.82 and lim["local_gbps"] == 32407.4, lim
' 2>&1); then ok "one line of the judged configuration, one of its limits, the file's ceilings in them"
else not_ok "one line of the judged configuration, one of its limits, the file's ceilings in them" "$msg"; fi

# The global loads through the L1: DCU step 1 in FP64 takes 2.5 times the wavefronts its
# bytes need (gemmtop banks --coalescing; ncu on the H200: 5 per request of 2). Judged at the
# time ncu measured, the local memory's unit is then its limit, not latency.
judge --device-file "$DEV" --preset dcu-1-4x4 --size 2048 --judge-ms 11.87
expect_in "limits     latency and overhead" "$OUT" "without the loads' coalescing: latency"
expect_in "local      the model's global loads: 36% of the measured" "$OUT" "every load of A and B counts, at a wavefront per 128 bytes"
judge --device-file "$DEV" --preset dcu-1-4x4 --size 2048 --judge-ms 11.87 --load-ratio 2.5
expect_in "loads      the global loads of A and B take 2.50x the ideal L1 wavefronts" "$OUT" "the ratio given is said"
expect_in "limits     local memory: 89% of the measured 32407 GB/s by the model's global loads (the L1, the local memory's unit), as they coalesce" "$OUT" \
   "at 2.5 times the wavefronts the L1 limits"
expect_in "global loads 2.5x the ideal L1 wavefronts (--load-ratio)" "$OUT" "the judged line names the option"
# Local stores count a wavefront each: 03-wpt's tiles stored once per 32 multiply-adds.
judge --device-file "$DEV" --preset 03-wpt --size 2048 --judge-ms 0.8823 --format json
base=$(printf '%s\n' "$OUT" | tail -n 1)
judge --device-file "$DEV" --preset 03-wpt --size 2048 --judge-ms 0.8823 --store-wavefronts 0.0078125 --format json
if msg=$(printf '%s\n%s\n' "$base" "$(printf '%s\n' "$OUT" | tail -n 1)" | python3 -c '
import json, sys
a, b = (json.loads(l)["limits"] for l in sys.stdin)
fmas = 2048 ** 3
assert a["store_wavefronts"] is None and abs(b["store_wavefronts"] / (fmas / 128) - 1) < 1e-5, b
# 128 bytes a wavefront, over the judged time, against the local ceiling.
extra = fmas / 128 * 128 / 0.8823e-3 / 1e9 / b["local_gbps"] * 100
assert abs(b["local_pct"] - a["local_pct"] - extra) < 0.1, (a["local_pct"], b["local_pct"], extra)
' 2>&1); then ok "local stores add their wavefronts to the local share"
else not_ok "local stores add their wavefronts to the local share" "$msg"; fi

# A persistent wgmma grid of one block a multiprocessor: its tail is its tiles' rounds, not
# a second slot a unit that its registers would admit and its 196 KB ring does not (ncu on
# the H200, 2026-12-02: SMs 71% busy, the L2 82%, where two slots a unit had capped it at
# 48%). 0.2258 ms at 1585 MHz was ncu's launch at 4096.
judge --device-file "$DEV" --preset hopper-7-persistent-bm64n128-bf16 --size 4096 --judge-ms 0.2258 --judge-mhz 1585
expect_in "limits     L2 cache: at the measured" "$OUT" "a persistent grid of one block a unit is not its tail"
# ... where the model's bytes come to 104% of the L2's ceiling: no share above 100% as a fact.
expect_in "come to 104% of it, within its error but not a share" "$OUT" "the L2 above its ceiling is not a share"
expect_in "L2         the model's loads and its stores would need 104% of the measured" "$OUT" \
   "and its detail line says so too"
judge --device-file "$DEV" --preset hopper-7-persistent-bm64n128-bf16 --size 4096 --judge-ms 0.2258 --format json
if msg=$(printf '%s\n' "$OUT" | tail -n 1 | python3 -c '
import json, sys
lim = json.loads(sys.stdin.read())["limits"]
assert lim["limiter"] != "tail" and lim["per_unit"] == 1 and lim["waves"] == 1, lim  # the ring: one a unit
assert abs(lim["slots_busy"] - 2048 / (132 * 16)) < 1e-3, lim  # 2048 tiles in rounds of 16
assert lim["l2_over"] == "unsure" and lim["local_over"] is None, lim  # TMA: the share, or the ceiling
' 2>&1); then ok "its tail: the tiles' rounds 97% full, one group a unit resident (its ring)"
else not_ok "its tail: the tiles' rounds 97% full, one group a unit resident (its ring)" "$msg"; fi

# Stream-K's blocks stand at different K steps (`staggered:`): the L2 answers each of TMA's
# requests, where banded tiles in step share two thirds of them (ncu on the H200, 2026-12-02:
# the L2 read 0.95 of TMA's bytes for this preset at 2048, its busiest unit at 62%; 30.2 us
# at 1767 MHz was ncu's launch). The same kernel with whole tiles in turn (STREAMK=0) is not.
judge --device-file "$DEV" --preset hopper-7-streamk-bf16 --size 2048 --judge-ms 0.030208 --judge-mhz 1767
expect_in "limits     L2 cache: 83% of the measured 9415 GB/s by the model's loads and its stores (its blocks stand at different K steps" \
   "$OUT" "stream-K's blocks: every TMA request reaches the L2, and the L2 limits"
judge --device-file "$DEV" --preset hopper-7-streamk-bf16 --set STREAMK=0 --size 2048 --judge-ms 0.030208
expect_in "L2         two thirds of the model's loads and its stores" "$OUT" "whole tiles in turn: two thirds, as before"

# Hopper step 1's row-by-row grid: one wave at 2048, its blocks together (two thirds of TMA's
# loads reach the L2); past the first wave at 4096 they drift apart (0.83: the H200 read
# 0.81 of TMA's bytes at 4096 and 0.71 at 2048), and the L2 limits, as ncu said (66%).
judge --device-file "$DEV" --preset hopper-1-tma-bf16 --size 4096 --judge-ms 0.259
expect_in "limits     L2 cache: 76% of the measured 9415 GB/s by 83% of the model's loads and its stores (past the first wave" \
   "$OUT" "past the first wave the blocks drift apart: 83% of TMA's loads"
judge --device-file "$DEV" --preset hopper-1-tma-bf16 --size 2048 --judge-ms 0.04
expect_in "L2         two thirds of the model's loads and its stores" "$OUT" "in its one wave at 2048: two thirds"
judge --device-file "$DEV" --preset hopper-1-tma-bf16 --size 4096 --judge-ms 0.259 --format json
if msg=$(printf '%s\n' "$OUT" | tail -n 1 | python3 -c '
import json, sys
lim = json.loads(sys.stdin.read())["limits"]
assert lim["tma_l2_share"] == 0.83 and lim["limiter"] == "L2", lim
' 2>&1); then ok "and the JSON gives tma_l2_share"
else not_ok "the JSON's tma_l2_share" "$msg"; fi

# DRAM's reads: at 2048 A and B (16 MB) fit in the H200's 60 MB L2, each element once; at
# 4096 (64 MB) they do not, and the 3.88 waves of 128 x 256 tiles, banded 8 tile rows at a
# time, read theirs again: 186.6 MB, 2.78 times (ncu measured 2.78 times on the H200).
judge --device-file "$DEV" --preset hopper-5-order-bf16 --size 2048 --judge-ms $ms
expect_in "DRAM       the model's reads: 16.78 MB, each element once (A and B fit in the 60 MB L2)" "$OUT" \
   "at 2048 the model reads each element from DRAM once"
# At 3072 A and B (37.7 MB) fit, but not twice (the L2's two partitions each keep a copy)
# beside C's 18.9 MB of written lines: the groups in step through an LRU of the L2 read
# 1.77 times (ncu on the H200, 2026-12-03: 1.82 times).
judge --device-file "$DEV" --preset hopper-5-order-bf16 --size 3072 --judge-ms 0.1
expect_in "DRAM       the model's reads: 66.85 MB, 1.77x the compulsory (A and B fit in the 60 MB L2, but not twice beside C's written lines" \
   "$OUT" "at 3072 C's lines push the operands' second copies out"
# Hopper step 6 in 3xTF32 at 4096, split in four: each plane's slices of A and B (33.6 MB)
# fit, but not twice beside its 67 MB of partial sums: 2.36 times (ncu: 2.47 times).
judge --device-file "$DEV" --preset hopper-6-splitk --size 4096 --judge-ms 0.3
expect_in "DRAM       the model's reads: 316.4 MB, 2.36x the compulsory (each split-K plane's slices of A and B fit in the 60 MB L2, but not twice beside the plane's partial sums" \
   "$OUT" "split-K planes: their partial sums push the slices out"
judge --device-file "$DEV" --preset hopper-6-splitk --size 4096 --judge-ms 0.3 --format json
if msg=$(printf '%s\n' "$OUT" | tail -n 1 | python3 -c '
import json, sys
lim = json.loads(sys.stdin.read())["limits"]
assert lim["dram_count"] == "beside_writes" and abs(lim["dram_read_bytes"] / 316.4e6 - 1) < 1e-3, lim
' 2>&1); then ok "and the JSON says how: dram_count beside_writes"
else not_ok "the JSON's dram_count" "$msg"; fi
judge --device-file "$DEV" --preset hopper-5-order-bf16 --size 4096 --judge-ms 0.1806
expect_in "DRAM       the model's reads: 186.6 MB, 2.78x the compulsory (A and B exceed the 60 MB L2" "$OUT" \
   "at 4096 each wave reads its rows and columns again"
n=$(printf '%s\n' "$OUT" | grep -c '^DRAM')
[ "$n" = 1 ] && ok "one DRAM line, no second figure" || not_ok "one DRAM line, no second figure" "$n lines: $OUT"
# The decode preset's one wave of 128 blocks, each reading its 64 rows of the weight once:
# the waves' count is the compulsory one, said so, not "again". With one token in its
# 8-token tile the weight is still read whole: 1 flop per byte, memory at 92% of the
# measured copy bandwidth in 35.1 us (the H200, 2026-12-03: 91% by the copy's own figure).
judge --device-file "$DEV" --preset hopper-9-swapab-decode-t8-bf16 --size 1x8192x8192 --judge-ms 0.0351
expect_in "DRAM       the model's reads: 134.3 MB, each element once (A and B exceed the 60 MB L2, but no wave of resident groups reads the rows and columns of another)" \
   "$OUT" "a decode's one wave reads each element once, said so"
expect_in "intensity  0.984 flops per byte of global traffic by the model, 1 if each element moved once" "$OUT" \
   "one token in an 8-token tile reads the weight whole"
expect_in "limits     global memory: 92% of the measured" "$OUT" "and memory limits it, at 92%"
judge --device-file "$DEV" --preset hopper-5-order-bf16 --size 4096 --judge-ms 0.1806 --format json
if msg=$(printf '%s\n' "$OUT" | tail -n 1 | python3 -c '
import json, sys
lim = json.loads(sys.stdin.read())["limits"]
assert abs(lim["dram_read_bytes"] / 186646528 - 1) < 1e-5, lim  # six digits in JSON
assert lim["dram_count"] == "waves", lim
assert abs(lim["min_read_bytes"] / (2 * 4096 * 4096 * 2) - 1) < 1e-5, lim
' 2>&1); then ok "and the JSON gives the bytes: dram_read_bytes beside min_read_bytes"
else not_ok "the JSON's dram_read_bytes" "$msg"; fi
# myGEMM 9's 128 x 128 tiles at 4096 (3.88 waves): the waves' figure for groups that stay
# together in K, 2.55 times, and a second one for groups drifted apart, their tiles through an
# LRU of the L2's size: ncu read 4.42 times, between the two (myGEMM 7 and 8, the same grid,
# 2.55), which the model cannot tell apart.
judge --device-file "$DEV" --preset 09-prefetch --size 4096 --judge-ms 10
expect_in "DRAM       the model's reads: 341.8 MB, 2.55x the compulsory" "$OUT" "myGEMM 9: the waves' figure"
expect_in "groups that drift apart in K read up to 1573 MB, 11.72x the compulsory" "$OUT" \
   "and the drifted groups' beside it"
judge --device-file "$DEV" --preset 09-prefetch --size 4096 --judge-ms 10 --format json
if msg=$(printf '%s\n' "$OUT" | tail -n 1 | python3 -c '
import json, sys
lim = json.loads(sys.stdin.read())["limits"]
assert abs(lim["dram_drift_bytes"] / 1573e6 - 1) < 1e-3 and lim["dram_drift_bytes"] > 1.1 * lim["dram_read_bytes"], lim
' 2>&1); then ok "and the JSON gives dram_drift_bytes"
else not_ok "the JSON's dram_drift_bytes" "$msg"; fi
judge --device-file "$DEV" --preset hopper-5-order-bf16 --size 4096 --judge-ms 0.1806 --format json
if msg=$(printf '%s\n' "$OUT" | tail -n 1 | python3 -c '
import json, sys
assert json.loads(sys.stdin.read())["limits"]["dram_drift_bytes"] is None
' 2>&1); then ok "Hopper step 5 in its band: one figure (drifted apart, its groups would read less)"
else not_ok "Hopper step 5 in its band: one figure" "$msg"; fi

judge --device-file "$DEV" --preset 03-wpt --size 2048 --judge-ms 1 --format csv
expect_rc 0 "and as CSV"
case "$(printf '%s\n' "$OUT" | head -n 1)" in
limiter,words,*) ok "CSV: the limits' header first, no table lines before it" ;;
*) not_ok "CSV: the limits' header first, no table lines before it" "$OUT" ;;
esac

judge --device-file "$DEV" --kernel hopper5_order --precision bfloat16 --layout NT --set BLOCKS=2 --set BN=256 \
   --size 2048 --judge-ms 1
expect_rc 2 "a configuration that device's kind refuses is refused, nothing judged"
expect_in "refused (limits of a sm_90a GPU" "$ERR" "saying which limits and which rule"

# The conflicts a trace measured there: the reads' part of the local memory's share grows by
# that ratio (the global loads' part beside it stays).
share() {
   judge --device-file "$DEV" --preset 03-wpt --size 2048 --judge-ms 1 --format json "$@"
   printf '%s\n' "$OUT" | tail -n 1 | python3 -c 'import json, sys
l = json.loads(sys.stdin.read())["limits"]
print(l["local_pct"], l["local_pct"] * l["local_bytes"] / (l["local_bytes"] + l["lsu_load_bytes"]))'
}
plain=$(share)
banked=$(share --bank-ratio 2)
if python3 -c "import sys; (p, r), b = map(float, '$plain'.split()), float('$banked'.split()[0]); sys.exit(0 if abs(b - p - r) < 0.01 * b else 1)" 2>/dev/null; then
   ok "--bank-ratio 2 doubles the reads' part of the local memory's share ($plain -> $banked)"
else
   not_ok "--bank-ratio 2 doubles the reads' part of the local memory's share" "$plain -> $banked"
fi

# Another machine's words: a device name with an escape reaches the terminal visible.
python3 - "$DEV" "$T_DIR/esc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["name"] = "H200\x1b]0;owned\x07"
open(sys.argv[2], "w").write(json.dumps(d) + "\n")
PY
judge --device-file "$T_DIR/esc.json" --preset 03-wpt --size 2048 --judge-ms 1
expect_rc 0 "a device name with control characters is judged"
case "$OUT" in
*"$(printf '\033')"* | *"$(printf '\007')"*) not_ok "its escape never reaches the terminal" "$OUT" ;;
*) expect_in 'H200^[]0;owned^G' "$OUT" "its escape is shown in caret form" ;;
esac
finish
