#!/bin/sh
# On the GPU machine: gemmtop's limiter against Nsight Compute for every preset of the
# ladders (tools/gpu/gpu_limits_ncu.py, issue 45), its files into the folder $1 (else $OUT):
# limits.jsonl (every figure), limits.md (the table), ncu-query-metrics.txt and peaks.txt
# (what list devices --measure said, measured first within LIMITS_MEASURE seconds). Run
# by tools/gpu/gpu_round.sh (limits:300:tools/gpu/gpu_limits.sh), which sources
# gpu_setup.sh and brings the folder back as one tarball. Python unbuffered: a run killed
# at its limit still leaves each row it printed in log.txt.
#   LIMITS_SIZES    sizes, comma-separated (default 2048: the first 15 presets cover every ladder)
#   LIMITS_BUDGET   seconds after which no row starts (default 280, in a round of 300: about 70
#                   rows of 3.5-5 s without bank traces; the whole set, 158 presets a size,
#                   takes two calls: LIMITS_ARGS="--part 1/2", then "--part 2/2")
#   LIMITS_BANKS    1: take each row's bank trace too (about 1 s a row more)
#   LIMITS_MEASURE  seconds allowed to the ceilings (default 40)
#   LIMITS_ARGS     more options or preset names for gpu_limits_ncu.py
dir=${1:-${OUT:?give the results folder as \$1 or OUT}}
mkdir -p "$dir"
# shellcheck disable=SC2086 # LIMITS_ARGS is a list of words
PYTHONUNBUFFERED=1 exec python3 -u tools/gpu/gpu_limits_ncu.py --sizes "${LIMITS_SIZES:-2048}" \
   --budget "${LIMITS_BUDGET:-280}" --measure-seconds "${LIMITS_MEASURE:-40}" --out "$dir" \
   ${LIMITS_BANKS:+--banks} ${LIMITS_ARGS:-}
