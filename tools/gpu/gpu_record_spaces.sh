#!/bin/sh
# On the GPU machine: records whole parameter spaces for comparing search strategies
# without a GPU (gemmtop sweep --simulate; docs/search.md). Each is an exhaustive sweep
# saved as CSV under $1 (default $OUT):
#   fast02   fast02_warptile, float, 4096, CUDA backend      -> space-fast02-4096.csv
#   tensor05 tensor05_warptile, half, 4096, CUDA backend     -> space-tensor05-half-4096.csv
# Names on the command line after the folder record only those (each takes minutes:
# thousands of configurations, compiled 16 at a time); none records both. Then
#   python3 tools/search_table.py "$OUT"/space-*.csv
# prints the rows of docs/search.md's table.
. tools/gpu/gpu_setup.sh
B=build/gemmtop
out=${1:-$OUT}
[ $# -gt 0 ] && shift
which=${*:-fast02 tensor05}
# Five timed launches after one warm-up: enough to rank thousands of configurations; a
# launch over 2 s (a configuration hopelessly slow at 4096) is dropped as a timeout.
common="--backend cuda --size 4096 --exhaustive --reps 5 --warmup 1 --timeout 2 --seed 1"
# shellcheck disable=SC2086 # common is a list of options
for w in $which; do
   case $w in
   fast02) $B sweep $common --kernel fast02_warptile --save "$out/space-fast02-4096.csv" >"$out/space-fast02-4096.txt" ;;
   tensor05) $B sweep $common --kernel tensor05_warptile --precision half \
      --save "$out/space-tensor05-half-4096.csv" >"$out/space-tensor05-half-4096.txt" ;;
   *) echo "gpu_record_spaces.sh: no space named '$w': use fast02 or tensor05" >&2; exit 2 ;;
   esac
   echo "$w: exit $?, $(($(wc -l <"$out/space-$w"*.csv) - 1)) configurations"
done
date -u
