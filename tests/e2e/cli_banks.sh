#!/bin/sh
# gemmtop banks on PoCL: the synthetic test_banks kernel (one warp stores, then loads, one
# vector of VEC floats at word lane*STRIDE*VEC) gives known wavefronts under the 32 x 4 B,
# SIMD 32 model; the grid; bad --site/--warp/--iteration values; a ladder kernel. The
# sanitizer pass checks four of the known patterns and two of the paddings, all the rest.
. "$(dirname "$0")/lib.sh"

MODEL="--banks 32 --bank-width 4 --simd-width 32"

# Under the sanitizers gemmtop's code is the same for every stride (the analysis is a pure
# function of the traced addresses, and the plain pass checks each pattern): there
# banks_case takes one address for all lanes and one conflicting stride for each vector
# width, and pad_case two of its paddings (sanitizer_keeps, lib.sh).

# banks_case VEC STRIDE WAVEFRONTS IDEAL: both sites (store, load) of one request each.
banks_case() {
   sanitizer_keeps "$1/$2" 1/0 1/32 2/2 4/2 || return 0
   run_gemmtop banks --kernel test_banks --set VEC="$1" --set STRIDE="$2" $MODEL --format json
   got=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
o=json.loads(sys.stdin.readline())
s=o["sites"]
assert o["schema"]==2 and len(s)==2 and s[0]["kind"]=="store" and s[1]["kind"]=="load", o
print(" ".join("%d/%d/%d/%d" % (x["requests"],x["wavefronts"],x["ideal_wavefronts"],x["conflicts"]) for x in s))' 2>&1)
   want="1/$3/$4/$(($3 - $4))"
   if [ "$RC" -eq 0 ] && [ "$got" = "$want $want" ]; then
      ok "VEC=$1 STRIDE=$2: $3 wavefronts, ideal $4, $(($3 - $4)) conflicts"
   else
      not_ok "VEC=$1 STRIDE=$2: wanted $want for store and load, got '$got' (exit $RC)" "$ERR"
   fi
}

# Floats: the Nsight Compute figures (stride 2 -> 2 and 1, 32 -> 32 and 31, 33 or one address -> 1 and 0).
banks_case 1 0 1 1
banks_case 1 1 1 1
banks_case 1 2 2 1
banks_case 1 4 4 1
banks_case 1 8 8 1
banks_case 1 16 16 1
banks_case 1 32 32 1
banks_case 1 33 1 1
# float2: two half-warp phases.
banks_case 2 0 2 2
banks_case 2 1 2 2
banks_case 2 2 4 2
banks_case 2 32 32 2
banks_case 2 33 2 2
# float4: four quarter-warp phases.
banks_case 4 1 4 4
banks_case 4 2 8 4
banks_case 4 32 32 4
banks_case 4 33 4 4

# The JSON object: model, traced problem, totals.
run_gemmtop banks --kernel test_banks --set STRIDE=2 --format json
expect_rc 0 "banks --format json with the device's model"
[ "$(json_field model.banks)/$(json_field model.bank_width_bytes)/$(json_field model.simd_width)" = "32/4/32" ] &&
   ok "PoCL's CPU gets the default model, 32 banks x 4 B, SIMD 32" || not_ok "default model" "$OUT"
[ "$(json_field model.known)" = "false" ] && ok "the default model is marked as not known" || not_ok "model.known" "$OUT"
[ "$(json_field problem.n)/$(json_field groups)/$(json_field work_group_items)/$(json_field dropped)" = "32/1/32/0" ] &&
   ok "the traced problem is small: one group of 32, nothing dropped" || not_ok "traced problem" "$OUT"
[ "$(json_field total.wavefronts)/$(json_field total.conflicts)/$(json_field total.worst_degree)" = "4/2/2" ] &&
   ok "totals add up over both sites" || not_ok "totals" "$OUT"

# The table.
run_gemmtop banks --kernel test_banks --set STRIDE=32
expect_rc 0 "banks table"
expect_in "(assumed)" "$OUT" "the table says the model is assumed"
expect_in "1  pattern load" "$OUT" "sites are named from the kernel's sites: line"
case "$OUT" in *"load    4 B         1          32       1         31"*) ok "the table shows 32 wavefronts, 31 conflicts" ;;
*) not_ok "table row for stride 32" "$OUT" ;; esac
expect_in "traced     1 work-group of 32 work-items (1 warp each) on a 32x32x16 problem" "$OUT" "the traced size is shown"

# Overrides: 16 banks split a warp's 4-byte access into two phases.
run_gemmtop banks --kernel test_banks --set STRIDE=1 --banks 16 --format json
got=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
o=json.loads(sys.stdin.readline()); s=o["sites"][1]
print(o["model"]["name"], o["model"]["banks"], s["wavefronts"], s["ideal_wavefronts"], s["conflicts"])')
[ "$got" = "custom 16 2 2 0" ] && ok "--banks 16: custom model, 2 wavefronts, ideal 2" || not_ok "--banks 16" "$got"
run_gemmtop banks --kernel test_banks --set STRIDE=2 --bank-width 8 --format json
got=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys; s=json.loads(sys.stdin.readline())["sites"][1]; print(s["wavefronts"], s["conflicts"])')
[ "$got" = "1 0" ] && ok "--bank-width 8: stride-2 floats share 8-byte words, no conflict" || not_ok "--bank-width 8" "$got"
run_gemmtop banks --kernel test_banks --set STRIDE=32 --simd-width 16 --format json
got=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); s=o["sites"][1]; print(o["warps_per_group"], s["requests"], s["wavefronts"], s["conflicts"])')
[ "$got" = "2 2 32 30" ] && ok "--simd-width 16: two warps of 16 passes each" || not_ok "--simd-width 16" "$got"

# Two work-groups traced.
run_gemmtop banks --kernel test_banks --set STRIDE=2 --size 64 --groups 2 --format json
got=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys; o=json.loads(sys.stdin.readline()); s=o["sites"][1]; print(o["groups"], s["requests"], s["wavefronts"], s["conflicts"])')
[ "$got" = "2 2 4 2" ] && ok "--groups 2: one request per group" || not_ok "--groups 2" "$got $ERR"
run_gemmtop banks --kernel test_banks --set STRIDE=2 --size 64 --groups 2 --site 1 --warp 1 --format json
[ "$RC" -eq 0 ] && [ "$(json_field grid.group)/$(json_field grid.group_warp)" = "1/0" ] &&
   ok "--warp counts on across traced groups" || not_ok "--warp 1 with two groups" "$OUT $ERR"

# The grid of one request.
run_gemmtop banks --kernel test_banks --set STRIDE=2 --site "pattern load" --warp 0
expect_rc 0 "banks --site NAME --warp 0"
expect_in "site 1 (pattern load), warp 0 (group 0, warp 0), execution 0 of 1 (seq 0)" "$OUT" "the grid names its request"
expect_in "2 wavefronts, ideal 1, 1 conflict" "$OUT" "the grid gives its wavefronts"
expect_in "lane  0 1..............................." "$OUT" "lane 0 is served in the first pass, bank 0"
expect_in "lane  1 ..1............................." "$OUT" "lane 1 in bank 2"
expect_in "lane 16 2..............................." "$OUT" "lane 16 waits for the second pass of bank 0"
expect_in "bank    0         1         2         3" "$OUT" "bank numbers head the grid"
run_gemmtop banks --kernel test_banks --set STRIDE=32 --site 1 --format json
got=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
g=json.loads(sys.stdin.readline())["grid"]
print(g["wavefronts"], g["conflicts"], g["rows"][0], g["rows"][31], g["addresses"][1])')
[ "$got" = "32 31 1............................... w............................... 128" ] &&
   ok "JSON grid: stride 32 stacks 32 passes in bank 0" || not_ok "JSON grid" "$got"
run_gemmtop banks --kernel test_banks --set VEC=4 --set STRIDE=2 --site 0 --warp 0
expect_in "4 phases of 8 lanes; 8 wavefronts, ideal 4, 4 conflicts" "$OUT" "float4 grid: quarter-warp phases"
expect_in "phase 1: 2 wavefronts" "$OUT" "each phase is labelled"
expect_in "lane  4 2222............................" "$OUT" "float4 lane 4 shares banks 0-3 with lane 0"

# Bad values: exit 2 with a clear message.
run_gemmtop banks --kernel test_banks --site 7
expect_rc 2 "--site past the kernel's sites"
expect_in "has no site 7; its sites: 0=pattern store, 1=pattern load" "$ERR" "the kernel's sites are listed"
run_gemmtop banks --kernel test_banks --site nosuch
expect_rc 2 "--site with an unknown name"
expect_in "names no site of kernel test_banks" "$ERR" "an unknown site name is explained"
run_gemmtop banks --kernel test_banks --site pattern
expect_rc 2 "--site naming two sites"
expect_in "names more than one" "$ERR" "an ambiguous site name is explained"
run_gemmtop banks --kernel test_banks --site load --warp 1
expect_rc 2 "--warp past the traced warps"
expect_in "--warp 1: the trace has 1 warp (0 to 0" "$ERR" "the valid warps are named"
run_gemmtop banks --kernel test_banks --site load --iteration 1
expect_rc 2 "--iteration past the executions"
expect_in "executed site 1 (pattern load) 1 time (0 to 0)" "$ERR" "the executions are counted"
run_gemmtop banks --kernel test_banks --warp 0
expect_rc 2 "--warp without --site"
expect_in "give --site too" "$ERR" "--warp needs --site"
run_gemmtop banks --kernel test_banks --site 1 --warp -1
expect_rc 2 "a negative --warp"
run_gemmtop banks --kernel test_banks --banks 65
expect_rc 2 "--banks out of range"
expect_in "--banks 65: use 1 to 64" "$ERR" "the bank range is named"
run_gemmtop banks --kernel test_banks --bank-width 3
expect_rc 2 "--bank-width 3"
run_gemmtop banks --kernel test_banks --simd-width 0
expect_rc 2 "--simd-width 0"
run_gemmtop banks --kernel test_banks extra
expect_rc 2 "a stray argument"
run_gemmtop banks
expect_rc 2 "banks without a kernel"

# CSV: one line per site and a total.
run_gemmtop banks --kernel test_banks --set STRIDE=33 --format csv
expect_in "1,pattern load,load,4,1,1,1,0,1,1" "$OUT" "CSV row of the load site"
expect_in "total,,,0,2,2,2,0,1,1" "$OUT" "CSV total"

# A ladder kernel with local memory: every site traced, loads conflict-free as it claims.
# Its block (128 x 64, four warps) and micro tile (RM = RN = 2) as at its defaults, which
# the claim is about, but BK = 8 rather than 16: the traced program then takes PoCL 6 s of
# CPU instead of 8 (19 s and 56 s when the loop over BK was unrolled whole on a CPU; the
# same sites and widths; the transposed store of A 2-way, the rest conflict-free).
BLOCKTILE="--kernel fast01_blocktile --set BK=8 --size 256"
# shellcheck disable=SC2086 # BLOCKTILE is a list of options
run_gemmtop banks $BLOCKTILE --format json
expect_rc 0 "banks on fast01_blocktile"
printf '%s\n' "$OUT" | python3 -c '
import json,sys
o=json.loads(sys.stdin.readline())
s={x["name"]:x for x in o["sites"]}
assert set(s)=={"A store (transposed)","B store","A load","B load"}, s.keys()
for x in o["sites"]:
    assert x["wavefronts"]>=x["ideal_wavefronts"]>0 and x["conflicts"]==x["wavefronts"]-x["ideal_wavefronts"], x
assert s["A load"]["width_bytes"]==16 and s["A load"]["conflicts"]==0, s["A load"]
assert s["B load"]["conflicts"]==0 and s["B store"]["conflicts"]==0, s
assert o["total"]["requests"]==sum(x["requests"] for x in o["sites"])
assert o["warps_per_group"]==o["work_group_items"]//32
' && ok "fast01_blocktile: four named sites, real4 loads conflict-free" || not_ok "fast01_blocktile sites" "$OUT"
# shellcheck disable=SC2086
run_gemmtop banks $BLOCKTILE --site "A load" --warp 3 --iteration 5
expect_rc 0 "a grid of a ladder kernel's request"
expect_in "execution 5 of" "$OUT" "--iteration picks a later execution"

# Padding the transposed B tile of myGEMM kernel 5 (TS=32): with TSDK=16 a warp writes two
# half-columns, 16 words apart in one bank each (16-way); one word of padding leaves them
# 2-way, two words remove them. With TSDK=32 a warp writes one column: one word suffices.
# pad_case TSDK PADDING WORST CONFLICTS: the transposed store's worst degree and conflicts per request.
pad_case() {
   sanitizer_keeps "$1/$2" 16/0 16/1 || return 0
   run_gemmtop banks --kernel mygemm05_transposed --set TS=32 --set WPT=8 --set TSDK="$1" --set PADDING="$2" \
      --size 256 $MODEL --format json
   got=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
s={x["name"]:x for x in json.loads(sys.stdin.readline())["sites"]}
b=s["Bsub store (transposed)"]
print("%g %g %d" % (b["worst_degree"], b["conflicts"] / b["requests"], s["Bsub load"]["conflicts"]))' 2>&1)
   [ "$RC" -eq 0 ] && [ "$got" = "$3 $4 0" ] && ok "mygemm05 TSDK=$1 PADDING=$2: transposed store ${3}x, $4 conflicts per request" ||
      not_ok "mygemm05 TSDK=$1 PADDING=$2: wanted '$3 $4 0', got '$got' (exit $RC)" "$ERR"
}
if [ -f "${GEMMTOP_KERNELS%%:*}/mygemm05_transposed.cl" ]; then
   pad_case 16 0 16 15
   pad_case 16 1 2 1
   pad_case 16 2 1 0
   pad_case 32 0 32 31
   pad_case 32 1 1 0
fi

# --as-compiled: beside the source's view, the accesses as the compiler merges them. DCU
# step 4 writes and reads its tiles as four scalars at [k][4q+e]: on a CPU the rule alone
# (said so) makes them 16-byte accesses, 4-way store conflicts gone (docs/banks-ncu.md).
run_gemmtop banks --kernel dcu4_lds -m 64 -n 64 -k 16 --as-compiled --format json
expect_rc 0 "banks --as-compiled"
if printf '%s\n' "$OUT" | python3 -c '
import json, sys
o = json.load(sys.stdin)
c = o["as_compiled"]
assert c["widths_from_code"] is False and "CPU" in c["widths"], c
src = {s["site"]: s for s in o["sites"]}
for s in c["sites"]:
    assert s["merged"] == 4 and s["width_bytes"] == 16, s
    assert s["requests"] * 4 == src[s["site"]]["requests"], (s, src[s["site"]])
assert src[0]["conflicts"] > 0 and c["sites"][0]["conflicts"] == 0, c
'; then ok "as compiled: four scalars become one 16-byte access per site; the store conflicts go; the rule is named"
else not_ok "banks --as-compiled JSON" "$OUT"; fi
run_gemmtop banks --kernel dcu4_lds -m 64 -n 64 -k 16 --as-compiled
expect_in "as written and as compiled (the rule" "$OUT" "the table shows both views and says where the widths come from"

# --bank-model: NVIDIA's rules on PoCL. Step 3 as compiled is Nsight Compute's count on an H100
# (640 load wavefronts, docs/banks-ncu.md) under it, more under the default model; the JSON
# names the model and says what the traced groups are a share of (the launch's sizes, padded,
# and its work-groups), so that the counts scale to another problem.
run_gemmtop banks --preset 03-wpt --bank-model nvidia --as-compiled --format json
expect_rc 0 "banks --bank-model nvidia"
nv=$OUT
run_gemmtop banks --preset 03-wpt --as-compiled --format json
if printf '%s\n%s\n' "$nv" "$OUT" | python3 -c '
import json, sys
nv, plain = (json.loads(l) for l in sys.stdin)
def loads(o): return sum(s["wavefronts"] for s in o["as_compiled"]["sites"] if s["kind"] == "load")
assert nv["model"]["name"] == "NVIDIA" and nv["model"]["known"] is True, nv["model"]
assert plain["model"]["name"] == "default" and plain["model"]["known"] is False, plain["model"]
assert loads(nv) == 640 and loads(plain) > 640, (loads(nv), loads(plain))
'; then ok "--bank-model nvidia counts what an NVIDIA GPU serves, the default model more; the JSON names each"
else not_ok "--bank-model nvidia against the default model" "$nv"; fi
run_gemmtop banks --kernel mygemm02_tiled --set TS=16 -m 32 -n 32 -k 16 --format json
if printf '%s\n' "$OUT" | python3 -c '
import json, sys
o = json.load(sys.stdin)
assert o["launch"] == {"m": 32, "n": 32, "k": 16, "work_groups": 4} and o["groups"] == 1, (o["launch"], o["groups"])
'; then ok "the JSON gives the traced launch: its sizes and its 4 work-groups, 1 of them traced"
else not_ok "the traced launch in the JSON" "$OUT"; fi
run_gemmtop banks --kernel fast02_warptile -m 32 -n 32 -k 16 --format json
if printf '%s\n' "$OUT" | python3 -c '
import json, sys
o = json.load(sys.stdin)
L = o["launch"]
assert L["m"] > 32 and L["n"] > 32 and L["work_groups"] == 1, L
'; then ok "a kernel that pads: the launch gives the padded sizes it ran on"
else not_ok "the padded launch in the JSON" "$OUT"; fi
run_gemmtop banks --kernel test_banks --bank-model intel
expect_rc 2 "--bank-model intel"
expect_in "use nvidia, amd or default" "$ERR" "names the three models"
run_gemmtop banks --preset hopper-5-order-bf16 --size 256 --bank-model amd
expect_rc 2 "--bank-model amd on a TMA-swizzled kernel"
expect_in "NVIDIA's TMA swizzle" "$ERR" "says the swizzled tiles are NVIDIA's"

# --coalescing: the global loads of A and B per phase of lanes, on a problem of 256 each
# way. myGEMM step 1 (16 x 16 groups, dimension 0 along M): a warp's A loads are 16 rows
# side by side, one line; its B loads two columns K apart, two lines: 1.5 per request of
# 128 bytes (ncu on the H200: 1.5). DCU step 1 in FP64, 8-byte loads in half-warps: B's 16
# addresses 32 bytes apart are 4 lines per half, A's one: 5 per request of 256 bytes, 2.5x.
run_gemmtop banks --preset 01-naive --bank-model nvidia --coalescing --format json
expect_rc 0 "banks --coalescing"
if msg=$(printf '%s\n' "$OUT" | python3 -c '
import json, sys
o = json.load(sys.stdin)
c = o["coalescing"]
assert o["problem"]["m"] >= 256 and o["problem"]["k"] >= 256, o["problem"]
ops = {s["operand"]: s for s in c["sites"]}
assert ops["A"]["width"] == 4 and ops["A"]["wavefronts"] == 2 * ops["A"]["requests"], ops
assert ops["B"]["wavefronts"] == ops["B"]["requests"], ops
t = c["total"]
assert t["requests"] == ops["A"]["requests"] + ops["B"]["requests"] and abs(t["ratio"] - 1.5) < 1e-9, t
assert t["bytes"] == 128 * t["requests"] and t["sectors"] == 2 * t["requests"], t
' 2>&1); then ok "01-naive: a line for A, two for B, 1.5 wavefronts per request"
else not_ok "01-naive coalescing" "$msg"; fi
run_gemmtop banks --preset dcu-1-4x4 --bank-model nvidia --coalescing
expect_rc 0 "banks --coalescing, table"
if printf '%s\n' "$OUT" | grep -Eq '^total +[0-9]+ +[0-9]+ +[0-9]+ +5\.00 +[0-9.]+ +2\.50x$'; then
   ok "DCU step 1: 5 wavefronts per request, 2.5 times the ideal"
else not_ok "DCU step 1: 5 wavefronts per request, 2.5 times the ideal" "$OUT"; fi
if printf '%s\n' "$OUT" | grep -Eq '^B +8 B .* 8\.00 +[0-9.]+ +4\.00x$'; then
   ok "its B loads: 8 lines per request of 256 bytes"
else not_ok "its B loads: 8 lines per request of 256 bytes" "$OUT"; fi
run_gemmtop banks --preset tensor-4-cpasync-tf32 --bank-model nvidia --coalescing
expect_rc 0 "banks --coalescing on a cp.async kernel"
expect_in "none traced: this configuration loads A and B another way" "$OUT" "cp.async's loads are not GT_LOAD's: said"
run_gemmtop banks --preset 01-naive --coalescing --format csv
expect_rc 2 "--coalescing with CSV"
expect_in "--coalescing has no CSV form" "$ERR" "says which formats take it"
run_gemmtop banks --preset hopper-5-order-bf16 --size 256 --coalescing
expect_rc 2 "--coalescing on a TMA kernel"
expect_in "loads A and B through TMA" "$ERR" "says TMA does not pass the L1"

# Ranges from the options table.
run_gemmtop banks --kernel test_banks --groups 1025
expect_rc 2 "--groups past 1024"
expect_in "--groups 1025: use 1 to 1024" "$ERR" "names the range"
run_gemmtop banks --kernel test_banks --simd-width 65
expect_rc 2 "--simd-width past 64"
expect_in "--simd-width 65: use 1 to 64" "$ERR" "names the range"
run_gemmtop banks --kernel test_banks --bank-width 3
expect_in "--bank-width '3': use 4 or 8" "$ERR" "--bank-width names its two values"

finish
