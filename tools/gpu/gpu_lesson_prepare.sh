#!/bin/sh
# On the GPU machine: issue 47's prepare, measured where a class would use a GPU. For each
# lesson named (default: the tensor, Hopper, fast and shapes lessons), into a fresh cache:
# `gemmtop lesson NAME --prepare` timed, with what it said up front (no record yet) and its
# per-step report; a second prepare, which must say how long the first took (the record)
# and take seconds; then each step's first figure after the prepare (`gemmtop run` of the
# step's preset at the size the lesson gives it, its wall time: the class's first visit).
# Last, `gemmtop list devices --measure` timed, with its estimate and any contradiction it
# warns of. Everything goes to $OUT/lesson_prepare.txt; a short table is printed last. A
# failure is recorded and the script goes on.
# Usage: sh tools/gpu/gpu_lesson_prepare.sh [--backend cuda|opencl] [--device DEV] [--size S] [FOLDER] [LESSON...]
# (FOLDER: where lesson_prepare.txt goes, else $OUT; gpu_round.sh gives it)
# (the stand-in here: --backend opencl --device pocl --size 64 m1)
[ -f tools/gpu/gpu_setup.sh ] && [ -d /usr/local/cuda ] && . tools/gpu/gpu_setup.sh
backend=cuda device="" size=""
while [ $# -gt 0 ]; do
   case "$1" in
   --backend) backend=$2; shift 2 ;;
   --device) device=$2; shift 2 ;;
   --size) size=$2; shift 2 ;;
   *) break ;;
   esac
done
# tools/gpu/gpu_round.sh gives every script its results folder as $1: a folder is not a lesson.
if [ $# -gt 0 ] && [ -d "$1" ]; then
   OUT=$1
   shift
fi
lessons=${*:-tensor hopper hopper-bf16 fast shapes shapes-half}
B=${GEMMTOP_BIN:-build/gemmtop}
out=${OUT:-.}
mkdir -p "$out"
log="$out/lesson_prepare.txt"
work=$(mktemp -d /tmp/gpu_lesson_prepare.XXXXXX)
export XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
sel="--backend $backend${device:+ --device $device}"
sized=${size:+--size $size}
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
: >"$log"
table=""
{
   date -u
   "$B" --version 2>&1
   "$B" list devices --backend "$backend" 2>&1 | head -n 12
} >>"$log"
for name in $lessons; do
   echo "== $name" >>"$log"
   t0=$(now)
   # shellcheck disable=SC2086 # sel and sized are lists of options
   "$B" lesson "$name" --prepare $sel $sized >"$work/p1" 2>"$work/p1.err"
   rc1=$? cold=$(secs "$t0")
   { echo "-- cold prepare: exit $rc1 in $cold s"; cat "$work/p1"; tail -n 3 "$work/p1.err"; } >>"$log"
   t0=$(now)
   # shellcheck disable=SC2086
   "$B" lesson "$name" --prepare $sel $sized >"$work/p2" 2>"$work/p2.err"
   rc2=$? warm=$(secs "$t0")
   said=$(head -n 1 "$work/p2")
   { echo "-- second prepare: exit $rc2 in $warm s"; cat "$work/p2"; } >>"$log"
   case "$said" in *"as a prepare here took"*) record=yes ;; *) record=NO ;; esac
   # Each ready step's first figure after the prepare, as the explorer's first visit would
   # take it (its preset at the size the report gives).
   worst=0
   grep -E '^ +[0-9]+ [^ ]+ +[0-9]+x[0-9]+x[0-9]+ .* ready$' "$work/p1" | while read -r n preset mnk rest; do
      m=${mnk%%x*} k=${mnk##*x} nn=${mnk#*x}
      nn=${nn%%x*}
      t0=$(now)
      # shellcheck disable=SC2086
      "$B" run $sel --preset "$preset" -m "$m" -n "$nn" -k "$k" --reps 1 --warmup 0 >"$work/r" 2>&1
      rc=$? took=$(secs "$t0")
      echo "   step $n $preset $mnk: first figure in $took s (exit $rc) $(grep -E '^(compile|verify) ' "$work/r" | tr -s ' ' | tr '\n' ' ')"
   done >"$work/firsts"
   cat "$work/firsts" >>"$log"
   worst=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "in") { v = $(i + 1) + 0; if (v > w) w = v } } END { printf "%.1f", w + 0 }' "$work/firsts")
   steps=$(grep -c "first figure" "$work/firsts")
   table="$table
$(printf '%-13s cold %7s s (exit %d)  again %6s s, record said: %-3s  %2d first figures, worst %6s s' "$name" "$cold" "$rc1" "$warm" "$record" "$steps" "$worst")"
done
echo "== list devices --measure" >>"$log"
t0=$(now)
"$B" list devices --measure --backend "$backend" >"$work/m" 2>"$work/m.err"
rc=$? took=$(secs "$t0")
{ cat "$work/m.err"; cat "$work/m"; echo "-- exit $rc in $took s"; } >>"$log"
contradict=$(grep -c "contradict each other" "$work/m.err")
table="$table
$(printf 'peaks         measured in %s s (exit %d); it said: %s; contradictions warned: %d' "$took" "$rc" "$(grep -m1 'measuring ' "$work/m.err" | sed 's/.*: about/about/')" "$contradict")"
rm -rf "$work"
printf '%s\n' "$table" >>"$log"
printf '%s\n' "$table"
