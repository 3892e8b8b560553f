#!/bin/sh
# gemmtop explain on PoCL: a run, then what limits it (core/analyse/limiter.h) in the three
# formats. Without measured ceilings it says how to measure them; with them (list devices
# --measure, in this script's own cache) the JSON's percentages are the run's GFLOPS over
# the measured peak and the model's bandwidth, the roofline is the smaller ceiling, the
# naive kernel's intensity is the model's 2 loads per multiply-add, and a refused
# configuration explains nothing.
. "$(dirname "$0")/lib.sh"
# The measured peaks go to a cache of this script's own: other scripts expect none.
XDG_CACHE_HOME="$T_DIR/cache"
export XDG_CACHE_HOME

run_gemmtop explain --preset 03-wpt --size 128 --reps 3 --warmup 1
expect_rc 0 "explain 03-wpt at 128"
expect_in "limits     latency and overhead: no ceiling is near (no ceiling measured" "$OUT" \
   "with no ceiling measured, the limiter says so"
expect_in "ceilings   not all measured on this device: gemmtop list devices --measure" "$OUT" "and how to measure them"
expect_in "intensity  " "$OUT" "the model's intensity is given"
run_gemmtop explain --preset 03-wpt --size 128 --reps 3 --warmup 1 --save "$T_DIR/roof.svg"
expect_rc 1 "explain --save with no ceilings measured fails"
expect_in "there is no roof (gemmtop list devices --measure)" "$ERR" "saying why"
if [ ! -e "$T_DIR/roof.svg" ]; then ok "and writes nothing"; else not_ok "and writes nothing" "$(ls -la "$T_DIR")"; fi
run_gemmtop explain --preset 03-wpt --size 128 --save "$T_DIR/roof.csv"
expect_rc 2 "explain --save into a file not named .svg is refused"
expect_in "name the file *.svg" "$ERR" "saying what to name it"

run_gemmtop list devices --backend opencl --measure
expect_rc 0 "list devices --measure"
expect_in "local, launch   local memory " "$OUT" "the ceilings include the local-memory bandwidth and an empty launch's time"
if printf '%s\n' "$OUT" | grep -qE "reads, L2       reads [0-9.]+ GB/s, L2 [0-9.]+ GB/s"; then
   ok "and the read bandwidth and the L2's"
else
   not_ok "and the read bandwidth and the L2's" "$OUT"
fi
run_gemmtop list devices --backend opencl --format json
if msg=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
d=[json.loads(l) for l in sys.stdin if l.strip()]
p=[x for x in d if "copy_peak_gbps" in x]
assert p, d
x=p[0]
assert x["local_peak_gbps"]>0 and x["launch_us"]>0 and x["copy_peak_gbps"]>0, x
assert x["read_peak_gbps"]>0 and x["l2_peak_gbps"]>0 and x["l2_bytes"]>0, x
assert x["peaks_not_measured"]=="", x["peaks_not_measured"]
print("local %.1f GB/s, launch %.3g us, reads %.1f GB/s, L2 %.1f GB/s" % (x["local_peak_gbps"], x["launch_us"],
      x["read_peak_gbps"], x["l2_peak_gbps"]))' 2>&1); then
   ok "list devices --format json gives them ($msg)"
else
   not_ok "list devices --format json gives them: $msg" "$OUT"
fi
# What was not measured, read back from the file: a reason whole, and an empty list empty
# (the line after it once stood in for it).
nm_cache=$(ls "$XDG_CACHE_HOME"/gemmtop/peaks/*.txt 2>/dev/null | head -n 1)
cp "$nm_cache" "$T_DIR/peaks.nm"
sed 's/^not_measured .*/not_measured L2 ceiling: the device reports no L2 cache size/' "$T_DIR/peaks.nm" >"$nm_cache"
run_gemmtop list devices --backend opencl
expect_in "not measured    L2 ceiling: the device reports no L2 cache size" "$OUT" "a reason for a ceiling not measured reads back whole"
cp "$T_DIR/peaks.nm" "$nm_cache"
# A file of the ceilings measured before these four (their lines gone): read as unknown,
# not as zero bandwidth, and the rest stands.
cache=$(ls "$XDG_CACHE_HOME"/gemmtop/peaks/*.txt 2>/dev/null | head -n 1)
cp "$cache" "$T_DIR/peaks.new"
grep -v -e '^local_gbps ' -e '^launch_us ' -e '^read_gbps ' -e '^l2_gbps ' "$T_DIR/peaks.new" >"$cache"
run_gemmtop list devices --backend opencl --format json
if printf '%s\n' "$OUT" | python3 -c 'import json,sys
d=[json.loads(l) for l in sys.stdin if l.strip()]
x=[x for x in d if "copy_peak_gbps" in x][0]
assert x["local_peak_gbps"] is None and x["launch_us"] is None and x["copy_peak_gbps"]>0, x
assert x["read_peak_gbps"] is None and x["l2_peak_gbps"] is None, x' 2>/dev/null; then
   ok "an older file of ceilings reads them as unknown (null), the others kept"
else
   not_ok "an older file of ceilings reads them as unknown (null), the others kept" "$OUT"
fi
# A file whose L2 figure came from the reads that each group repeated (the L1 served them,
# twice the L2's figure on the H200): that figure is dropped, the read bandwidth kept.
grep -v -e '^l2_reads spread$' "$T_DIR/peaks.new" >"$cache"
run_gemmtop list devices --backend opencl --format json
if printf '%s\n' "$OUT" | python3 -c 'import json,sys
d=[json.loads(l) for l in sys.stdin if l.strip()]
x=[x for x in d if "copy_peak_gbps" in x][0]
assert x["l2_peak_gbps"] is None and x["read_peak_gbps"]>0, x' 2>/dev/null; then
   ok "an L2 figure measured before its reads were spread is dropped, the reads kept"
else
   not_ok "an L2 figure measured before its reads were spread is dropped, the reads kept" "$OUT"
fi
# The clocks the driver reported while measuring: none on PoCL (said so); a file that has
# them (as NVML gives them on a GPU) shows them beside the date.
run_gemmtop list devices --backend opencl
expect_in "; no clock reported by the driver)" "$OUT" "PoCL reports no clock, and the ceilings say so"
grep -v -e '^sm_mhz ' -e '^mem_mhz ' "$T_DIR/peaks.new" >"$cache"
printf 'sm_mhz 1980\nmem_mhz 2619\n' >>"$cache"
run_gemmtop list devices --backend opencl
expect_in ", SM clock 1980 MHz, memory 2619 MHz by the driver)" "$OUT" "a file with the driver's clocks shows them"
run_gemmtop list devices --backend opencl --format json
if printf '%s\n' "$OUT" | python3 -c 'import json,sys
d=[json.loads(l) for l in sys.stdin if l.strip()]
x=[x for x in d if "copy_peak_gbps" in x][0]
assert x["peaks_sm_mhz"]==1980 and x["peaks_mem_mhz"]==2619, x' 2>/dev/null; then
   ok "and JSON gives them"
else
   not_ok "and JSON gives them" "$OUT"
fi
cp "$T_DIR/peaks.new" "$cache"

run_gemmtop explain --preset 03-wpt --size 256 --reps 3 --warmup 1 --format json
expect_rc 0 "explain --format json"
if msg=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
lines=[json.loads(l) for l in sys.stdin if l.strip()]
assert len(lines)==2, len(lines)
run,lim=lines[0],lines[1]["limits"]
g=run["gflops"]
assert lim["peak_gflops"]>0 and lim["copy_gbps"]>0, lim
assert abs(lim["compute_pct"]-100*g/lim["peak_gflops"])<1e-3*lim["compute_pct"]+1e-9, (g, lim)
fpb=lim["flops_per_byte"]
# 03-wpt (TS=32): A and B once per 32 multiply-adds, C once: 2/(2/32*4+4/256) flops per byte
assert abs(fpb/(2/(2/32*4+4/256))-1)<1e-3, fpb
# Memory by the model bytes, or by the compulsory ones when caches serve the rest (the
# operands fit in the L2, or the model bytes exceed the bandwidth).
mfpb = lim["flops_per_byte_min"] if lim["caches"] else fpb
assert abs(lim["memory_pct"]-100*g/mfpb/lim["copy_gbps"])<1e-3*lim["memory_pct"]+1e-9, lim
assert abs(lim["attainable_gflops"]-min(lim["peak_gflops"], fpb*lim["copy_gbps"]))<1e-3, lim
# every load of the model asks the L2 (unless they would need more than it gives: the L1)
assert lim["l2_gbps"]>0, lim
if lim["l1"]:
   assert lim["l2_pct"] is None, lim
else:
   assert abs(lim["l2_pct"]-100*g/fpb/lim["l2_gbps"])<1e-3*lim["l2_pct"]+1e-9, lim
assert lim["limiter"] in ("compute","memory","L2","local memory","latency","launch"), lim
# 03-wpt local_reuse A=1 B=WPT (8): 1 + 1/8 local reads of 4 bytes per multiply-add
assert abs(lim["local_bytes"]/(256**3*(1+1/8)*4)-1)<1e-5, lim
assert lim["waves"] is None and "work_groups" not in lim, lim   # a CPU: no waves
assert abs(lim["flops_per_byte_min"]/(2*256**3/(3*256*256*4))-1)<1e-3, lim
print("%s: %.1f%% compute, %.1f%% memory" % (lim["limiter"], lim["compute_pct"], lim["memory_pct"]))' 2>&1); then
   ok "the limits line agrees with the run and the measured ceilings ($msg)"
else
   not_ok "the limits line agrees with the run and the measured ceilings: $msg" "$OUT
$ERR"
fi

run_gemmtop explain --kernel mygemm01_naive --size 256 --reps 3 --warmup 1 --format csv
expect_rc 0 "explain --format csv"
if msg=$(printf '%s\n' "$OUT" | python3 -c 'import csv,sys
rows=list(csv.reader(sys.stdin))
# the run: a header and a row; the limits: a header and a row
assert len(rows)==4, rows
h,r=rows[2],rows[3]
d=dict(zip(h,r))
assert h[0]=="limiter" and d["limiter"] in ("compute","memory","L2","local memory","launch","latency"), d
assert float(d["l2_gbps"])>0, d
fpb=float(d["flops_per_byte"])
assert abs(fpb-2/(2*4+4/256))<1e-3, fpb   # the naive kernel: 2 loads per multiply-add
assert d["words"] and float(d["compute_pct"])>0, d
print("%s, %.3g flops per byte" % (d["limiter"], fpb))' 2>&1); then
   ok "the CSV has the limits' header and row; the naive kernel's intensity is 2 loads per multiply-add ($msg)"
else
   not_ok "the CSV's limits: $msg" "$OUT"
fi

run_gemmtop explain --preset 03-wpt --size 256 --reps 3 --warmup 1
expect_rc 0 "explain, a table"
expect_in "roofline   " "$OUT" "with measured ceilings, the roofline line"
expect_in "GFLOPS attainable at that intensity" "$OUT" "saying what is attainable"
expect_in "local      the model's reads: " "$OUT" "the local-memory ceiling from 03-wpt's local_reuse"
expect_in "launch     an empty kernel's launch: " "$OUT" "and the launch's share of the time"
case "$OUT" in
*"L2         the model's loads: "*"% of the measured "* | *"L2         the model's loads would need "*) ok "and the L2's share" ;;
*) not_ok "and the L2's share" "$OUT" ;;
esac
case "$OUT" in
*"limits     compute: "* | *"limits     global memory: "* | *"limits     L2 cache: "* | *"limits     local memory: "* | *"limits     the launch itself: "* | *"limits     latency and overhead: no ceiling is near (compute "*) ok "the limiter is named with its figures" ;;
*) not_ok "the limiter is named with its figures" "$OUT" ;;
esac

# A kernel with bank conflicts (by a GPU's model) on a CPU: the conflicts are not judged,
# since a CPU has no banks; the table says so, and the limiter names no conflicts.
run_gemmtop explain --preset dcu-6-lds-conflicts --size 128 --reps 2 --warmup 1
expect_rc 0 "explain a DCU step with conflicts"
expect_in "banks      not judged: a CPU has no local-memory banks" "$OUT" "on a CPU the bank conflicts are not judged"
case "$OUT" in *"limits     local memory: bank conflicts"*) not_ok "and the limiter names none" "$OUT" ;;
*) ok "and the limiter names none" ;; esac

run_gemmtop explain --preset 03-wpt --size 256 --reps 3 --warmup 1 --save "$T_DIR/roof.svg"
expect_rc 0 "explain --save roof.svg with measured ceilings"
if rsvg-convert "$T_DIR/roof.svg" >"$T_DIR/roof.png" 2>"$T_DIR/rsvg.err" && [ -s "$T_DIR/roof.png" ]; then
   ok "the roofline SVG renders"
else
   not_ok "the roofline SVG renders" "$(cat "$T_DIR/rsvg.err")"
fi
svg=$(cat "$T_DIR/roof.svg" 2>/dev/null)
expect_in "<polyline points=" "$svg" "with the roof"
expect_in "peak " "$svg" "labelled with the measured peak"
expect_in "the model: 7.53 flops per byte" "$svg" "the configuration at the model's intensity (TS=32 at 256)"
expect_in "if each element moved once: 42.7 flops per byte" "$svg" "and at the compulsory one"
expect_in "limit: " "$svg" "and the limiter as the caption"
# The L2's roof is drawn where the measured L2 is above the copy bandwidth: on a busy CPU the
# two measure close and either may lead, so the measured pair decides what the test expects.
l2_over_copy=$(printf '%s\n' "$svg" | sed -n 's/.*copy \([0-9.]*\) GB\/s.*, L2 \([0-9.]*\) GB\/s.*/\1 \2/p' | head -n 1 |
   awk 'NF == 2 { print ($2 > $1) ? "above" : "not above" }')
case "$l2_over_copy" in
above) expect_in ">L2 " "$svg" "with the L2's roof, labelled (the L2 measured above the copy bandwidth)" ;;
"not above") case "$svg" in
   *">L2 "*) not_ok "no L2 roof where the L2 measured at or below the copy bandwidth" "$svg" ;;
   *) ok "no L2 roof where the L2 measured at or below the copy bandwidth" ;;
   esac ;;
*) not_ok "the subtitle names the measured copy and L2 bandwidths" "$(printf '%s\n' "$svg" | head -n 6)" ;;
esac

# With the ceilings measured, sweep's table names each configuration's limiter.
run_gemmtop sweep --kernel mygemm03_wpt --size 128 --budget 2 --reps 2 --warmup 1 --no-store
expect_rc 0 "a sweep with the ceilings measured"
if printf '%s\n' "$OUT" | head -n 1 | grep -q ' limit$' &&
   [ "$(printf '%s\n' "$OUT" | grep -cE '^[12] +TS=.*  (launch|tail|compute|issue|memory|L2|local|banks|occupancy) ([0-9.]+(%|x)|>100%)$|^[12] +TS=.*  latency$')" -eq 2 ]; then
   ok "its table has a limit column, one limiter a row"
else
   not_ok "its table has a limit column, one limiter a row" "$OUT"
fi

LIMIT_RE='(launch|tail|compute|issue|memory|L2|local|banks|occupancy) ([0-9.]+(%|x)|>100%)|latency'
run_gemmtop sweep --kernel mygemm03_wpt --size 128 --budget 2 --reps 2 --warmup 1 --no-store --format json
if [ "$(printf '%s\n' "$OUT" | grep -cE "\"limit\":\"($LIMIT_RE)\"")" -eq 2 ]; then
   ok "sweep's JSON gives each configuration's limit"
else
   not_ok "sweep's JSON gives each configuration's limit" "$OUT"
fi

# bench: a line per configuration under the table, a field in its JSON.
run_gemmtop bench 03-wpt --sizes 64,128 --rounds 1 --reps 2 --warmup 1 --no-store
expect_rc 0 "a bench with the ceilings measured"
if printf '%s\n' "$OUT" | grep -q '^limit (against the measured ceilings, docs/limits.md):$' &&
   printf '%s\n' "$OUT" | grep -qE "^  03-wpt +64 ($LIMIT_RE), 128 ($LIMIT_RE)$"; then
   ok "bench says what limits each configuration at each size"
else
   not_ok "bench says what limits each configuration at each size" "$OUT"
fi
run_gemmtop bench 03-wpt --sizes 64 --rounds 1 --reps 2 --warmup 1 --no-store --format json
printf '%s\n' "$OUT" | grep -qE "\"limit\":\"($LIMIT_RE)\"" && ok "and bench's JSON has it" ||
   not_ok "and bench's JSON has it" "$OUT"

# A local-memory ceiling far below what the model's reads need (a file that says 0.001
# GB/s): the figure is above the ceiling, so no share of it is shown; PoCL has no bank
# model, so explain cannot tell the micro-kernel's fault from the model's, and says so.
cache=$(ls "$XDG_CACHE_HOME"/gemmtop/peaks/*.txt 2>/dev/null | head -n 1)
cp "$cache" "$T_DIR/peaks.real"
sed 's/^local_gbps .*/local_gbps 0.001/' "$T_DIR/peaks.real" >"$cache"
run_gemmtop explain --preset 03-wpt --size 128 --reps 2 --warmup 1
expect_rc 0 "explain with the model's reads above the local ceiling"
local_line=$(printf '%s\n' "$OUT" | grep '^local ')
expect_in "the model's reads would need " "$local_line" "the local line gives the model's need, not a share"
expect_in "no bank model here to tell which" "$local_line" "and why it cannot tell which side is wrong"
case "$local_line" in *%*) not_ok "and no percentage" "$local_line" ;; *) ok "and no percentage" ;; esac
run_gemmtop explain --preset 03-wpt --size 128 --reps 2 --warmup 1 --format json
if printf '%s\n' "$OUT" | python3 -c 'import json,sys
lim=[json.loads(l) for l in sys.stdin if l.strip()][1]["limits"]
assert lim["local_over"]=="unsure" and lim["compute_over"] is None and lim["local_pct"]>100, lim
assert lim["limiter"]=="local memory" and "would need" in lim["words"], lim' 2>/dev/null; then
   ok "the JSON marks the local figure as above its ceiling"
else
   not_ok "the JSON marks the local figure as above its ceiling" "$OUT"
fi
cp "$T_DIR/peaks.real" "$cache"

# A time taken elsewhere (a profiler's), judged instead of the run's: the shares are of that
# time, its clock scales the compute ceiling, and the run's own time is said beside it. The
# time: a third of the run's own, so every share must triple.
run_gemmtop explain --preset 03-wpt --size 128 --reps 3 --warmup 1 --format json
own="$OUT"
judge=$(printf '%s\n' "$own" | python3 -c 'import json,sys
d=[json.loads(l) for l in sys.stdin if l.strip()]; print("%.6g" % (d[1]["limits"]["judged_ms"]/3))')
run_gemmtop explain --preset 03-wpt --size 128 --reps 3 --warmup 1 --format json --judge-ms "$judge"
if msg=$(printf '%s\n%s\n' "$own" "$OUT" | python3 -c 'import json,sys
d=[json.loads(l) for l in sys.stdin if l.strip()]
a,b=d[1]["limits"],d[3]["limits"]
assert abs(b["judged_ms"]*3-a["judged_ms"])<=1e-4*a["judged_ms"], (a["judged_ms"],b["judged_ms"])
for k in ("compute_pct","memory_min_pct"):
    assert abs(b[k]-3*a[k])<=0.02*3*a[k]+0.01, (k,a[k],b[k])
print("compute %.3g%% -> %.3g%%" % (a["compute_pct"],b["compute_pct"]))' 2>&1); then
   ok "explain --judge-ms judges the time given: a third of the time, three times each share ($msg)"
else
   not_ok "explain --judge-ms judges the time given" "$msg"
fi
run_gemmtop explain --preset 03-wpt --size 128 --reps 2 --warmup 1 --judge-ms "$judge" --judge-mhz 1500
expect_rc 0 "explain --judge-ms with --judge-mhz"
expect_in "judged     the time given (--judge-ms): $judge ms" "$OUT" "the table says which time it judged"
expect_in " at 1500 MHz, not this run's " "$OUT" "at which clock, and the run's own time beside"
run_gemmtop explain --preset 03-wpt --size 128 --judge-mhz 1500
expect_rc 2 "--judge-mhz alone is refused"
expect_in "give both, or neither" "$ERR" "and says what would be valid"
run_gemmtop run --preset 03-wpt --size 128 --judge-ms 1
expect_rc 2 "run does not take --judge-ms (only explain judges)"

run_gemmtop explain --kernel mygemm06_2d --size 100
expect_rc 2 "a refused configuration is not explained"
case "$OUT" in *"limits "*) not_ok "and no limits are printed" "$OUT" ;; *) ok "and no limits are printed" ;; esac
finish
