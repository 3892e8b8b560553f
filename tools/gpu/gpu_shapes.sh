#!/bin/sh
# On the GPU machine: issue 49's figures in one call (docs/shapes.md). Everything it measures
# goes into $OUT/shapes.tgz (or $1/shapes.tgz); a short table is printed last. Run it from
# the project's root with the build carried (build/gemmtop):
#
#    sh tools/gpu/gpu_shapes.sh
#
#  1. the peaks and the driver's clocks (list devices --measure): the copy bandwidth the
#     decode kernels are put against;
#  2. every new step verified at odd sizes first (hopper6_splitk, hopper7_streamk,
#     hopper8_hybrid, hopper9_swapab, tensor08_swapab, fast05_decode; none had run on a GPU
#     when this was written), each launch abandoned after 20 s, so that a step that hangs or
#     computes wrong is named in the table and the rest still runs;
#  3. decode at the memory roofline: M = 1 to 16 by 8192 x 8192 (and the down projection
#     16 x 4096 x 14336), bfloat16, FP32 and half, each kernel's % of the measured copy
#     bandwidth beside % of cuBLAS;
#  4. the suites llama3-8b, skinny and llama3-70b against cuBLAS in the same process
#     (bench --shapes --rounds 3, layout NT as a model stores its weights): bfloat16, half
#     and FP32, each shape benched with the steps that are for it (a few tokens: swap-AB,
#     decode and the 64-row tile; few tiles: split-K and stream-K; many tiles: stream-K and
#     the hybrid; step 5 everywhere in bfloat16 for comparison). The table gives each
#     configuration's weighted geometric mean over the shapes it ran, and the mean of the
#     best configuration per shape (what a dispatch that picks per shape would reach).
# Every bench has a time limit (SIGINT, then a kill: bench saves the rounds it measured), and
# the stages run in order of importance until BUDGET seconds (default 285) are spent; the
# table says what timed out or was skipped. Nothing stops at the first failure.
#
# A stand-in run without a GPU (paths and parsing; the Hopper steps are refused there):
#    STANDIN=1 BACKEND=opencl DEVICE="--device pocl" SUITES=tiny.shapes DECODE_SIZES=2x64x256 \
#       ROUNDS=1 VERIFY_SIZE=1 MANY_TILES=8 TIME_SCALE=10 BUDGET=3000 sh tools/gpu/gpu_shapes.sh /tmp/out
[ "${STANDIN:-0}" = 1 ] || . tools/gpu/gpu_setup.sh
B=${GEMMTOP:-build/gemmtop}
BACKEND=${BACKEND:-cuda}
DEVICE=${DEVICE:-}
ROUNDS=${ROUNDS:-3}
BUDGET=${BUDGET:-285}
SCALE=${TIME_SCALE:-1} # the stand-in's PoCL compiles the emulated tensor cores slowly: 10
SUITES=${SUITES:-"llama3-8b skinny llama3-70b"}
DECODE_SIZES=${DECODE_SIZES:-1x8192x8192,2x8192x8192,4x8192x8192,8x8192x8192,16x8192x8192,16x4096x14336}
out=${1:-$OUT}
if [ -z "$out" ]; then
   echo "gpu_shapes.sh: no results folder: give one, or set OUT" >&2
   exit 2
fi
mkdir -p "$out"
start=$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
res="$work/shapes"
mkdir -p "$res"
# Presets of this run (variants of the shipped ones) in a configuration folder of its own.
XDG_CONFIG_HOME="$work/config"
export XDG_CONFIG_HOME
P="$XDG_CONFIG_HOME/gemmtop/presets"
mkdir -p "$P"
: >"$res/status.txt"

# left: seconds of the budget still unspent.
left() { echo $((BUDGET - ($(date +%s) - start))); }

# limited NAME SECONDS CMD...: CMD with at most SECONDS (less when the budget is nearly
# spent; skipped when it is), SIGINT first so that bench keeps what it measured; its
# outcome is a line of status.txt.
limited() {
   name=$1 want=$(($2 * SCALE))
   shift 2
   have=$(($(left) - 10))
   if [ "$have" -lt 10 ]; then
      echo "$name skipped: the ${BUDGET} s budget was spent" >>"$res/status.txt"
      return
   fi
   [ "$want" -gt "$have" ] && want=$have
   t0=$(date +%s)
   timeout -s INT -k 15 "$want" "$@"
   rc=$?
   t=$(($(date +%s) - t0))
   case $rc in
   124 | 137) echo "$name timed out after $want s" >>"$res/status.txt" ;;
   *) echo "$name exit $rc in $t s" >>"$res/status.txt" ;;
   esac
}

{
   date -u
   nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>&1
   $B --version 2>&1
} >"$res/date.txt"

# 1. The peaks.
limited peaks 60 $B list devices --backend "$BACKEND" --measure >"$res/peaks.txt" 2>&1
$B list devices --backend "$BACKEND" --format json >"$res/peaks.json" 2>/dev/null

# Variants: the decode kernel for 1 to 16 tokens (MR, a work-group's rows of A, at least M),
# swap-AB with 8 and 64 tokens a tile.
for t in float half bfloat16; do
   for mr in 1 2 4 8 16; do
      { grep -v -E '^(#|MR) ' presets/fast-05-decode-$t.preset; echo "MR = $mr"; } >"$P/fast-05-decode-$t-m$mr.preset"
   done
done
for t in bf16 half; do
   { grep -v -E '^(#|BT) ' presets/hopper-9-swapab-$t.preset; echo "BT = 8"; } >"$P/hopper-9-swapab-$t-bt8.preset"
   { grep -v -E '^(#|BT|BLOCKS|STAGES) ' presets/hopper-9-swapab-$t.preset; printf 'BT = 64\nBLOCKS = 1\nSTAGES = 5\n'; } \
      >"$P/hopper-9-swapab-$t-bt64.preset"
done

# 2. Every new step at odd sizes, verified; each launch abandoned after 20 s, each run
# after 60, and the stage ended after VERIFY_S seconds.
VERIFY_S=$((${VERIFY_S:-90} * SCALE))
VERIFY_SIZE=${VERIFY_SIZE:-0} # 1: the stand-in's smaller sizes
verify_end=$(($(date +%s) + VERIFY_S))
check() { # WHAT ARGS...
   what=$1
   shift
   if [ "$(date +%s)" -ge "$verify_end" ] || [ "$(left)" -lt 60 ]; then
      printf '{"what": "%s", "rc": -1, "status": "skipped: no time left", "verified": false, "message": ""}\n' "$what" \
         >>"$res/verify.jsonl"
      return
   fi
   timeout -k 5 $((60 * SCALE)) $B run --backend "$BACKEND" $DEVICE "$@" --reps 1 --warmup 0 --max-seconds 20 --format json \
      >"$work/check.json" 2>"$work/check.err"
   rc=$?
   python3 - "$what" "$rc" "$work/check.json" "$work/check.err" >>"$res/verify.jsonl" <<'PY'
import json, sys
what, rc, jf, ef = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
try:
    r = json.loads(open(jf).readline())
except Exception:
    r = {}
err = open(ef).read().strip().splitlines()
status = r.get("status") or ("timed out" if rc in (124, 137) else "did not run")
print(json.dumps({"what": what, "rc": rc, "status": status, "verified": bool(r.get("verified")),
                  "emulated": bool(r.get("emulated")), "max_rel_err": r.get("max_rel_err"),
                  "message": (r.get("message") or (err[-1] if err else ""))[:300]}))
PY
   cat "$work/check.err" >>"$res/verify.err"
}
if [ "$VERIFY_SIZE" = 1 ]; then
   ODD="-m 61 -n 130 -k 200" FEW="-m 13 -n 130 -k 200" MANY="-m 300 -n 260 -k 96"
else
   ODD="-m 1000 -n 520 -k 1030" FEW="-m 13 -n 520 -k 1030" MANY="-m 4096 -n 8192 -k 512"
fi
: >"$res/verify.jsonl"
for t in bf16 half; do
   check "hopper-6-splitk-$t odd" --preset hopper-6-splitk-$t $ODD --beta 0.5
   check "hopper-6-splitk-$t CLUSTER=2 odd" --preset hopper-6-splitk-$t $ODD --set CLUSTER=2 --alpha -1.5
   check "hopper-6-splitk-bm64-$t few" --preset hopper-6-splitk-bm64-$t $FEW --beta 0.5
   check "hopper-7-streamk-$t odd" --preset hopper-7-streamk-$t $ODD --beta 0.5
   check "hopper-7-streamk-$t STREAMK=0 odd" --preset hopper-7-streamk-$t $ODD --set STREAMK=0
   check "hopper-8-hybrid-$t odd (all stream-K)" --preset hopper-8-hybrid-$t $ODD --beta 0.5
   check "hopper-8-hybrid-$t many (waves and stream-K)" --preset hopper-8-hybrid-$t $MANY --beta 0.5
   for v in "" -bt8 -bt64; do
      check "hopper-9-swapab-$t$v few" --preset hopper-9-swapab-$t$v $FEW --beta 0.5
   done
done
check "hopper-6-splitk (3xTF32) odd" --preset hopper-6-splitk $ODD --beta 0.5
check "hopper-7-streamk (3xTF32) odd" --preset hopper-7-streamk $ODD --beta 0.5
check "hopper-9-swapab tf32 few" --preset hopper-9-swapab-bf16 --precision tf32 --set BK=32 $FEW
for t in half bfloat16; do
   check "tensor-8-swapab-$t few" --preset tensor-8-swapab-$t $FEW --beta 0.5
done
for t in float half bfloat16; do
   check "fast-05-decode-$t few" --preset fast-05-decode-$t $FEW --beta 0.5
done

# bench_one NAME SECONDS ARGS...: one bench, its table and its JSON rows in res/.
bench_one() {
   name=$1 secs=$2
   shift 2
   limited "$name" "$secs" $B bench --backend "$BACKEND" $DEVICE "$@" --layout NT --rounds "$ROUNDS" \
      --save "$res/bench-$name.json" >"$res/bench-$name.txt" 2>&1
}

# 3. Decode at the memory roofline.
bench_one decode-bf16 45 fast-05-decode-bfloat16-m1 fast-05-decode-bfloat16-m2 fast-05-decode-bfloat16-m4 \
   fast-05-decode-bfloat16-m8 fast-05-decode-bfloat16-m16 tensor-8-swapab-bfloat16 hopper-9-swapab-bf16-bt8 \
   hopper-9-swapab-bf16 --sizes "$DECODE_SIZES"
bench_one decode-float 25 fast-05-decode-float-m1 fast-05-decode-float-m4 fast-05-decode-float-m8 \
   fast-05-decode-float-m16 --sizes "$DECODE_SIZES"
bench_one decode-half 30 fast-05-decode-half-m1 fast-05-decode-half-m4 fast-05-decode-half-m8 fast-05-decode-half-m16 \
   tensor-8-swapab-half hopper-9-swapab-half-bt8 hopper-9-swapab-half --sizes "$DECODE_SIZES"

# 4. The suites, each split by what its shapes are: a few tokens (M <= 64), few tiles (fewer
# than two waves of 128 x 256 tiles on 132 multiprocessors), many tiles.
for suite in $SUITES; do
   base=$(basename "$suite" .shapes)
   $B list shapes "$suite" --format json >"$res/suite-$base.json" 2>"$res/suite-$base.err"
   python3 - "$res/suite-$base.json" "$work" "$base" "${MANY_TILES:-264}" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
work, base, many = sys.argv[2], sys.argv[3], int(sys.argv[4])
classes = {"m64": [], "few": [], "many": []}
for r in rows:
    tiles = -(-r["m"] // 128) * -(-r["n"] // 256)
    c = "m64" if r["m"] <= 64 else "few" if tiles < many else "many"
    classes[c].append(r)
for c, rs in classes.items():
    if rs:
        with open("%s/%s--%s.shapes" % (work, base, c), "w") as f:
            f.write("title = %s, the shapes of class %s\n" % (base, c))
            for r in rs:
                f.write("%dx%dx%d %s %g\n" % (r["m"], r["n"], r["k"], r["label"], r["weight"]))
PY
done
# suite_bench SUITE CLASS PRECISION SECONDS CONFIGS...: the configurations on one class of a
# suite's shapes (skipped when the suite has none of that class).
suite_bench() {
   base=$(basename "$1" .shapes) class=$2 prec=$3 secs=$4
   shift 4
   [ -f "$work/$base--$class.shapes" ] || return 0
   bench_one "$base-$class-$prec" "$secs" "$@" --shapes "$work/$base--$class.shapes"
}
BF_M64="hopper-5-order-bf16 hopper-6-splitk-bm64-bf16 hopper-9-swapab-bf16 hopper-9-swapab-bf16-bt64 tensor-8-swapab-bfloat16
   fast-05-decode-bfloat16-m16"
BF_FEW="hopper-5-order-bf16 hopper-6-splitk-bf16 hopper-7-streamk-bf16 hopper-8-hybrid-bf16"
BF_MANY="hopper-5-order-bf16 hopper-7-streamk-bf16 hopper-8-hybrid-bf16"
HF_M64="hopper-6-splitk-bm64-half hopper-9-swapab-half tensor-8-swapab-half fast-05-decode-half-m16"
HF_FEW="hopper-5-order-half hopper-6-splitk-half hopper-7-streamk-half"
F_M64="fast-02-warptile-cuda shapes-2-splitk hopper-6-splitk fast-05-decode-float-m16"
F_FEW="fast-02-warptile-cuda shapes-2-splitk shapes-4-streamk hopper-5-order hopper-6-splitk hopper-7-streamk"
F_MANY="fast-02-warptile-cuda hopper-5-order hopper-7-streamk"
# In order of importance: the budget may end before the last.
for suite in $SUITES; do
   case "$(basename "$suite" .shapes)" in llama3-8b | skinny) ;; *) continue ;; esac
   suite_bench "$suite" m64 bf16 35 $BF_M64
   suite_bench "$suite" few bf16 45 $BF_FEW
done
for suite in $SUITES; do
   case "$(basename "$suite" .shapes)" in llama3-8b | skinny) continue ;; esac
   suite_bench "$suite" m64 bf16 30 $BF_M64
   suite_bench "$suite" few bf16 35 $BF_FEW
done
for suite in $SUITES; do
   suite_bench "$suite" m64 half 25 $HF_M64
   suite_bench "$suite" few half 30 $HF_FEW
   suite_bench "$suite" m64 float 20 $F_M64
   suite_bench "$suite" few float 30 $F_FEW
done
for suite in $SUITES; do
   suite_bench "$suite" many bf16 40 $BF_MANY
   suite_bench "$suite" many float 25 $F_MANY
done

# The tables, from the files alone: summary.txt in full, short.txt printed last (the call's
# output keeps only its last lines).
python3 - "$res" >"$res/summary.err" 2>&1 <<'PY'
import glob, json, math, os, sys
d = sys.argv[1]
full, short = open(d + "/summary.txt", "w"), open(d + "/short.txt", "w")
def both(s=""):
    print(s, file=full)
    print(s, file=short)
def lines(path):
    try:
        return [json.loads(l) for l in open(path) if l.strip()]
    except Exception:
        return []
def cut(cfg):
    return cfg.replace("-order", "").replace("-warptile-cuda", "").replace("bfloat16", "bf16")
def geomean(pairs):
    pairs = [(p, w) for p, w in pairs if p and p > 0]
    if not pairs:
        return 0, 0
    return math.exp(sum(w * math.log(p) for p, w in pairs) / sum(w for _, w in pairs)), len(pairs)

head = open(d + "/date.txt").read().strip().splitlines()
copy = None
for r in lines(d + "/peaks.json"):
    if r.get("copy_peak_gbps"):
        copy = r["copy_peak_gbps"]
        both("%s  %s: copy %.0f GB/s, read %s GB/s" % (head[0], r.get("name"), copy, r.get("read_peak_gbps")))
        break
else:
    both("%s  (no measured copy bandwidth)" % head[0])

v = lines(d + "/verify.jsonl")
bad = [r for r in v if not r["verified"]]
both("new steps at odd sizes: %d of %d verified%s" % (len(v) - len(bad), len(v), "; FAILED:" if bad else ""))
for r in bad:
    print("  FAILED %-44s %s: %s" % (r["what"], r["status"], r["message"][:110]), file=full)
if bad:
    print("  " + "; ".join("%s (%s)" % (r["what"], r["status"][:40]) for r in bad)[:600], file=short)

# A bench stopped at its time limit leaves its rows in FILE.json.tmp.*: rows, no means.
both("decode against the measured copy bandwidth (best configuration per size: % of copy / % of the vendor):")
for f in sorted(glob.glob(d + "/bench-decode-*.json*")):
    rows = [r for r in lines(f) if "m" in r and r.get("status") == "ok"]
    cells = []
    for size in sorted({(r["m"], r["n"], r["k"]) for r in rows}):
        rs = [r for r in rows if (r["m"], r["n"], r["k"]) == size]
        best = max(rs, key=lambda r: r.get("pct_of_copy") or 0)
        vend = "%.0f%%" % best["pct_of_vendor"] if best.get("pct_of_vendor") else "-"
        print("  %-8s %5dx%dx%-6d %-28s %5.1f%% of copy  %s of %s  %8.0f GFLOPS" % (
            best["precision"], size[0], size[1], size[2], cut(best["config"]), best.get("pct_of_copy") or 0, vend,
            best.get("vendor"), best.get("gflops") or 0), file=full)
        cells.append("%dx%dx%d %.0f%%/%s" % (size + (best.get("pct_of_copy") or 0, vend)))
    if rows:
        print("  %-8s %s" % (rows[0]["precision"], ", ".join(cells)), file=short)

# Suites: the rows of every class of a suite in one precision, merged by shape.
suites = {}
for f in glob.glob(d + "/bench-*.json*"):
    if not os.path.basename(f).startswith("bench-decode-"):
        for r in lines(f):
            if "shape" in r and "m" in r:
                suites.setdefault((r["suite"].split("--")[0], r["precision"]), []).append(r)
both("suites against the vendor (weighted geometric mean of %; best per shape: what a per-shape dispatch reaches):")
for (suite, prec), rows in sorted(suites.items()):
    shapes = {}
    for r in rows:
        shapes.setdefault(r["shape"], []).append(r)
    total = len(lines(d + "/suite-%s.json" % suite)) or len(shapes)
    best, low, wins = [], None, {}
    for label, rs in shapes.items():
        b = max(rs, key=lambda r: r.get("pct_of_vendor") or 0)
        if b.get("pct_of_vendor"):
            best.append((b["pct_of_vendor"], b["weight"]))
            wins[cut(b["config"])] = wins.get(cut(b["config"]), 0) + 1
            if low is None or b["pct_of_vendor"] < low[0]:
                low = (b["pct_of_vendor"], label, cut(b["config"]))
    g, n = geomean(best)
    line = "  %-10s %-8s best per shape %s (%d of %d shapes)%s" % (suite, prec, "%5.1f%%" % g if n else "    -", n,
            total, ", lowest %s %.1f%% (%s)" % (low[1], low[0], low[2]) if low else "")
    both(line)
    print("      best at: " + ", ".join("%s %d" % kv for kv in sorted(wins.items(), key=lambda kv: -kv[1])), file=full)
    configs = {}
    for r in rows:
        configs.setdefault(r["config"], []).append((r.get("pct_of_vendor"), r["weight"]))
    for cfg, pairs in sorted(configs.items()):
        g, n = geomean(pairs)
        print("      %-34s %s" % (cut(cfg), "%6.1f%% (%d shapes)" % (g, n) if n else
              "     - (no shape compared: refused, failed or emulated; see its .txt)"), file=full)
late = [l for l in open(d + "/status.txt").read().splitlines() if "timed out" in l or "skipped" in l]
both("timed out or skipped (rows measured before are kept): %s" % ("none" if not late else "; ".join(late)))
PY
tar -czf "$out/shapes.tgz" -C "$work" shapes
cat "$res/summary.err" "$res/short.txt"
echo "full results: $out/shapes.tgz (summary.txt, every bench's table and JSON; $(($(date +%s) - start)) s)"
