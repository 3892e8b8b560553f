#!/bin/sh
# Where a decode launch's time goes, on the GPU machine: the shipped decode presets of Hopper
# step 9 timed as usual (CUDA events, median of ROUNDS launches, verified), then the same
# configuration with %globaltimer stamps in each block (tools/gpu/decode_timeline.py), whose
# last launch says when the blocks started, when their first and last stage of the weight
# arrived, when they ended and on which multiprocessor, and how much of the events' time lies
# outside the kernel's first and last instruction.
#
#   OUT=/tmp/timeline sh tools/gpu/gpu_decode_timeline.sh          (on the GPU machine)
#   SIZES="1x8192x8192 8x8192x8192 16x8192x8192" (M up to 8: the t8 preset, else t16),
#   PASSES="warm cold" (cold: --cold-l2), ROUNDS=20, BACKEND=cuda, B=build/gemmtop
#
# Full results under $OUT (peaks.txt, timeline-PASS-SIZE.txt, run-*.json), the short table
# last (short.txt): per size and pass the shipped kernel's time, the timeline kernel's own,
# its span, first and last stage and what lies outside.
set -u
[ -f tools/gpu/gpu_setup.sh ] && . tools/gpu/gpu_setup.sh
B=${B:-build/gemmtop}
BACKEND=${BACKEND:-cuda}
ROUNDS=${ROUNDS:-20}
SIZES=${SIZES:-1x8192x8192 8x8192x8192 16x8192x8192}
PASSES=${PASSES:-warm cold}
T8=${T8:-presets/hopper-9-swapab-decode-t8-bf16.preset}
T16=${T16:-presets/hopper-9-swapab-decode-t16-bf16.preset}
res=${OUT:-/tmp/decode-timeline}
mkdir -p "$res"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 tools/gpu/decode_timeline.py make "$work" "$T8" "$T16" || exit 2
export GEMMTOP_KERNELS="${GEMMTOP_KERNELS:-$PWD/kernels}:$work/kernels"
export GEMMTOP_PRESETS="${GEMMTOP_PRESETS:-$PWD/presets}"
{
   date -u
   nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1
} >"$res/date.txt"
timeout -k 5 60 $B list devices --backend "$BACKEND" --measure >"$res/peaks.txt" 2>&1

median() { # FILE verified|ran: the run's median in ms from its JSON line ("" when it failed or,
   # asked for verified, was not verified)
   python3 -c 'import json,sys
try:
    d = json.loads(open(sys.argv[1]).readline())
    good = d.get("verified") is True if sys.argv[2] == "verified" else d.get("status") == "ok"
    print(d["time_ms"] if good else "")
except Exception:
    print("")' "$1" "$2"
}
key() { # PRESET NAME: the value the preset gives its parameter NAME
   sed -n "s/^$2 *= *\([0-9]*\).*/\1/p" "$1" | head -1
}
printf '%-14s %-5s %10s %10s %9s %11s %11s %9s\n' size pass shipped-us timeline-us span-us first-stage last-stage outside >"$res/short.txt"
for size in $SIZES; do
   m=${size%%x*} n=${size#*x}
   n=${n%%x*}
   # T8 up to its tile of tokens (BT), T16 above; a block a tile of BT tokens and BN weight rows
   if [ "$m" -le "$(key "$T8" BT)" ]; then base=$T8; else base=$T16; fi
   name=$(basename "$base" .preset)
   bt=$(key "$base" BT) bn=$(key "$base" BN)
   blocks=$((n / bn * ((m + bt - 1) / bt)))
   for pass in $PASSES; do
      cold=""
      [ "$pass" = cold ] && cold="--cold-l2"
      tag="$pass-$size"
      timeout -k 5 120 $B run --backend "$BACKEND" --preset "$base" --size "$size" --reps "$ROUNDS" $cold \
         --format json --no-store >"$res/run-shipped-$tag.json" 2>"$res/run-shipped-$tag.err"
      timeout -k 5 120 $B run --backend "$BACKEND" --preset "$work/$name-timeline.preset" --size "$size" \
         --reps "$ROUNDS" $cold --no-verify --out "$res/c-$tag.npy" --format json --no-store \
         >"$res/run-timeline-$tag.json" 2>"$res/run-timeline-$tag.err"
      shipped=$(median "$res/run-shipped-$tag.json" verified)
      own=$(median "$res/run-timeline-$tag.json" ran)
      [ -n "$shipped" ] || echo "shipped $tag: not verified or failed ($(tail -1 "$res/run-shipped-$tag.err"))" >&2
      if [ -z "$own" ] || ! python3 tools/gpu/decode_timeline.py read "$res/c-$tag.npy" "$blocks" "$own" \
         >"$res/timeline-$tag.txt" 2>&1; then
         echo "timeline $tag: no stamps ($(tail -1 "$res/run-timeline-$tag.err" "$res/timeline-$tag.txt" 2>/dev/null | tr '\n' ' '))" >&2
         continue
      fi
      awk -v size="$size" -v pass="$pass" -v shipped="$shipped" -v own="$own" '
         /^first stage/ { first = $(NF-2) }
         /^last stage/ { last = $NF }
         /^kernel span/ { span = $8 }
         /^CUDA events/ { outside = $5 }
         END { printf "%-14s %-5s %10s %10.2f %9.2f %11.2f %11.2f %9.2f\n", size, pass, shipped == "" ? "failed" : sprintf("%.2f", shipped * 1000), own * 1000, span, first, last, outside }
      ' "$res/timeline-$tag.txt" >>"$res/short.txt"
      rm -f "$res/c-$tag.npy"
   done
done
grep -m1 'copy' "$res/peaks.txt"
cat "$res/short.txt"
