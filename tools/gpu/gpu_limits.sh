#!/bin/sh
# On the GPU machine: gemmtop's limiter against Nsight Compute for every preset of the
# ladders (tools/gpu/gpu_limits_ncu.py, issue 45), its files into the folder $1 (else $OUT):
# limits.jsonl (every figure), limits.md (the table) and ncu-query-metrics.txt. Run by
# tools/gpu/gpu_round.sh (limits:420:tools/gpu/gpu_limits.sh), which sources gpu_setup.sh
# and brings the folder back as one tarball.
#   LIMITS_SIZES   sizes, comma-separated (default 2048,4096: every preset at 2048 first)
#   LIMITS_BUDGET  seconds after which no row starts (default 390: under the round's 420)
#   LIMITS_ARGS    more options or preset names for gpu_limits_ncu.py
dir=${1:-${OUT:?give the results folder as \$1 or OUT}}
mkdir -p "$dir"
# shellcheck disable=SC2086 # LIMITS_ARGS is a list of words
exec python3 tools/gpu/gpu_limits_ncu.py --sizes "${LIMITS_SIZES:-2048,4096}" --budget "${LIMITS_BUDGET:-390}" \
   --out "$dir" ${LIMITS_ARGS:-}
