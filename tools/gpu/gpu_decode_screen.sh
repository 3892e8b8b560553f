#!/bin/sh
# Decode screen on the GPU machine: the shipped decode presets of Hopper step 9 (swap-AB)
# beside variants of the way they stream the weight, every variant verified at odd sizes
# first, then `bench --rounds ROUNDS` at M x 8192 x 8192 in bfloat16 with cuBLAS in the same
# process, against the copy bandwidth measured at the start of the call. Each pass may set
# an environment (PASSES: NAME=VAR=VALUE ...; "base" for none) to compare a host-side switch.
#
#   OUT=/tmp/screen sh tools/gpu/gpu_decode_screen.sh            (on the GPU machine)
#   VARIANTS="t8-deep:t8:BK=256,STAGES=5 ..." sets the variants: NAME:BASE:KEY=VALUE,KEY=VALUE
#   (BASE t8 or t16: the shipped presets hopper-9-swapab-decode-t8-bf16 and -t16-bf16, or
#   BASE_T8 and BASE_T16; T8_SIZES and T16_SIZES the sizes each is benched at)
#
# Full results under $OUT (peaks, verify.jsonl, bench-PASS-{t8,t16}.json and .txt), a short
# table last: % of the copy bandwidth and % of cuBLAS per variant and M.
set -u
[ -f tools/gpu/gpu_setup.sh ] && . tools/gpu/gpu_setup.sh
B=${B:-build/gemmtop}
BACKEND=${BACKEND:-cuda}
DEVICE=${DEVICE:-}
ROUNDS=${ROUNDS:-5}
T8_SIZES=${T8_SIZES:-1x8192x8192,8x8192x8192}
T16_SIZES=${T16_SIZES:-16x8192x8192}
PASSES=${PASSES:-base}
VARIANTS=${VARIANTS:-}
res=${OUT:-/tmp/decode-screen}
mkdir -p "$res"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The variants as user presets (a config folder of the call's own), beside the shipped ones.
export XDG_CONFIG_HOME="$work/config"
P="$XDG_CONFIG_HOME/gemmtop/presets"
mkdir -p "$P"
export GEMMTOP_KERNELS="${GEMMTOP_KERNELS:-$PWD/kernels}"
export GEMMTOP_PRESETS="${GEMMTOP_PRESETS:-$PWD/presets}"

# The presets the variants start from (t8: up to 8 tokens, t16: 9 to 16).
BASE_T8=${BASE_T8:-hopper-9-swapab-decode-t8-bf16}
BASE_T16=${BASE_T16:-hopper-9-swapab-decode-t16-bf16}
base_preset() { # t8 | t16: the preset a variant starts from
   case $1 in t8) echo "$BASE_T8" ;; t16) echo "$BASE_T16" ;; *) echo "gpu_decode_screen.sh: base $1: t8 or t16" >&2 ;; esac
}
t8="" t16=""
for v in $VARIANTS; do
   name=${v%%:*} rest=${v#*:}
   base=${rest%%:*} kvs=${rest#*:}
   keys=$(printf '%s' "$kvs" | tr ',' '\n' | sed 's/=.*//' | paste -sd '|')
   {
      grep -v -E "^(#|$keys) " "$GEMMTOP_PRESETS/$(base_preset "$base").preset"
      printf '%s\n' "$kvs" | tr ',' '\n' | sed 's/=/ = /'
   } >"$P/$name.preset"
   case $base in t8) t8="$t8 $name" ;; t16) t16="$t16 $name" ;; esac
done
t8="$(base_preset t8)$t8" t16="$(base_preset t16)$t16"

{
   date -u
   nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.max.mem --format=csv 2>&1
   $B --version 2>&1
} >"$res/date.txt"
timeout -k 5 60 $B list devices --backend "$BACKEND" $DEVICE --measure >"$res/peaks.txt" 2>&1
timeout -k 5 15 $B list devices --backend "$BACKEND" $DEVICE --format json >"$res/peaks.json" 2>/dev/null

# Every variant verified at odd sizes (FEW tokens with beta, ONE with alpha) first.
: >"$res/verify.jsonl"
FEW=${FEW:-13x520x1030} ONE=${ONE:-1x4100x4000}
for cfg in $t8 $t16; do
   for args in "--size $FEW --beta 0.5" "--size $ONE --alpha -1.5"; do
      timeout -k 5 40 $B run --backend "$BACKEND" $DEVICE --preset "$cfg" $args --reps 1 --warmup 0 \
         --format json >"$work/v.json" 2>"$work/v.err"
      rc=$?
      python3 - "$cfg" "$args" "$rc" "$work/v.json" "$work/v.err" >>"$res/verify.jsonl" <<'PY'
import json, sys
cfg, args, rc, jf, ef = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
try:
    r = json.loads(open(jf).readline())
except Exception:
    r = {}
err = open(ef).read().strip().splitlines()
print(json.dumps({"config": cfg, "args": args, "rc": rc, "verified": bool(r.get("verified")),
                  "max_rel_err": r.get("max_rel_err"), "message": (r.get("message") or (err[-1] if err else ""))[:300]}))
PY
   done
done

for pass in $PASSES; do
   # NAME, NAME=VAR=VALUE (an environment), NAME+ARG (an argument of bench, as +--cold-l2)
   args=""
   case $pass in *+*) args=${pass#*+} pass=${pass%%+*} ;; esac
   name=${pass%%=*}
   case $pass in *=*) setting=${pass#*=} ;; *) setting="" ;; esac
   for group in t8 t16; do
      eval "cfgs=\$$group"
      eval "sizes=\$$(echo "$group" | tr a-z A-Z)_SIZES"
      env $setting timeout -k 5 200 $B bench --backend "$BACKEND" $DEVICE $cfgs --sizes "$sizes" --layout NT $args \
         --rounds "$ROUNDS" --save "$res/bench-$name-$group.json" >"$res/bench-$name-$group.txt" 2>&1
      echo "$name $group exit $?" >>"$res/status.txt"
   done
done

python3 - "$res" <<'PY' | tee "$res/short.txt"
import glob, json, os, sys
d = sys.argv[1]
print(open(d + "/date.txt").read().strip().splitlines()[0])
copy = None
try:
    for l in open(d + "/peaks.json"):
        r = json.loads(l)
        if r.get("copy_peak_gbps"):
            copy = r["copy_peak_gbps"]
            print("copy %.0f GB/s, read %s GB/s" % (copy, r.get("read_peak_gbps")))
            break
except (OSError, ValueError):
    pass
v = [json.loads(l) for l in open(d + "/verify.jsonl")]
bad = [r for r in v if not r["verified"]]
print("verified %d of %d%s" % (len(v) - len(bad), len(v), "; FAILED: " + "; ".join(
    "%s %s (%s)" % (r["config"], r["args"], r["message"][:80]) for r in bad) if bad else ""))
print("%-10s %-44s %6s %8s %8s %8s" % ("pass", "config", "M", "% copy", "% cuBLAS", "cuBLAS%c"))
for f in sorted(glob.glob(d + "/bench-*.json")):
    pas = os.path.basename(f)[6:-5].rsplit("-", 1)[0]
    for l in open(f):
        try:
            r = json.loads(l)
        except ValueError:
            continue
        if "m" not in r or r.get("status") != "ok":
            continue
        pc = r.get("pct_of_copy")
        vendor_pc = pc * 100 / r["pct_of_vendor"] if pc and r.get("pct_of_vendor") else None
        print("%-10s %-44s %6d %8s %8s %8s%s" % (pas, r["config"], r["m"], "%.1f" % pc if pc else "-",
              "%.1f" % r["pct_of_vendor"] if r.get("pct_of_vendor") else "-",
              "%.1f" % vendor_pc if vendor_pc else "-", "" if r.get("verified") else " NOT VERIFIED"))
PY
