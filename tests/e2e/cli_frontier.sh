#!/bin/sh
# gemmtop bench --frontier on PoCL: one set of float32 inputs through every type. Every path
# that runs here verifies (the tensor and FP8 ones emulated, so labelled and not compared),
# 3xTF32 (wgmma only) is refused with its reason, the errors against the float64 product
# order as the types' precision does (FP32 < half < bfloat16 < e4m3 < e5m2, at their
# medians), FP32's is near FP32's rounding and CLBlast's beside it, every other type's and
# FP8 scaling's vendor row says it has no reference on OpenCL, and the SVG chart renders
# (rsvg-convert) with a point per path.
. "$(dirname "$0")/lib.sh"

run_gemmtop bench --frontier --sizes 64 --reps 2 --warmup 0 --seed 11 --format json --save "$T_DIR/frontier.svg"
expect_rc 0 "bench --frontier --sizes 64"
if msg=$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
rows=[json.loads(l) for l in sys.stdin if l.strip()]
k={r["path"]:r for r in rows if r["kind"]=="kernel"}
v={r["path"]:r for r in rows if r["kind"]=="vendor"}
want=["FP32","3xTF32","tf32","bfloat16","half","e4m3 tensor","e4m3 block","e5m2 tensor","e5m2 block"]
assert list(k)==want, list(k)
assert k["3xTF32"]["status"]=="invalid" and "sm_90a" in k["3xTF32"]["reason"], k["3xTF32"]
for p in want[2:]:
    assert k[p]["verified"] and k[p]["emulated"] and "pct_of_vendor" not in k[p], k[p]
    assert k[p]["samples"]==4096 and k[p]["m"]==64, k[p]
assert k["FP32"]["verified"] and not k["FP32"]["emulated"]
assert k["FP32"]["max_err"] < 1e-5 and v["FP32"]["max_err"] < 1e-5, (k["FP32"], v.get("FP32"))
assert k["FP32"]["pct_of_vendor"] > 0
# CLBlast is measured once per type and FP8 scaling, beside emulated kernels too: it has no
# GEMM of the other types, which each vendor row says (the FP8 ones naming cuBLASLt).
assert list(v)==["FP32"]+want[2:], list(v)
for p in want[2:]:
    assert v[p]["status"]=="invalid" and "no vendor reference" in v[p]["reason"] and "gflops" not in v[p], v[p]
for p in want[5:]:
    assert "cuBLASLt" in v[p]["reason"], v[p]
m={p:k[p]["median_err"] for p in want if "median_err" in k[p]}
order=["FP32","half","bfloat16","e4m3 tensor","e5m2 tensor"]
assert all(m[a] < m[b] for a,b in zip(order,order[1:])), m
assert m["FP32"] < m["tf32"] < m["bfloat16"], m
assert m["e4m3 block"] < m["e5m2 block"], m
print(", ".join("%s %.2g" % (p, m[p]) for p in order))' 2>&1); then
   ok "every path verified, 3xTF32 refused (sm_90a), median errors in the types' order: $msg"
else
   not_ok "the frontier's rows: $msg" "$OUT
$ERR"
fi
if rsvg-convert "$T_DIR/frontier.svg" >"$T_DIR/frontier.png" 2>"$T_DIR/rsvg.err" && [ -s "$T_DIR/frontier.png" ]; then
   ok "the SVG chart renders"
else
   not_ok "the SVG chart renders" "$(cat "$T_DIR/rsvg.err")"
fi
n=$(grep -c "<circle" "$T_DIR/frontier.svg")
[ "$n" -eq 9 ] && ok "a point per path that ran and for CLBlast (9)" || not_ok "points in the SVG: $n, wanted 9" "$(cat "$T_DIR/frontier.svg")"
expect_in "e5m2 block" "$(cat "$T_DIR/frontier.svg")" "the points are labelled"

run_gemmtop bench --frontier --kernel mygemm06_2d
expect_rc 2 "--frontier with a kernel is refused"
expect_in "--frontier chooses a configuration per type itself" "$ERR" "saying it chooses them"
run_gemmtop bench --frontier --sizes 64,128
expect_rc 2 "--frontier with two sizes is refused"
expect_in "--frontier measures one size" "$ERR" "saying it measures one"
finish
