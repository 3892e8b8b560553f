#!/bin/sh
# On the GPU machine: several of these scripts in one device call. A call brings back at
# most 8 files, so each script gets a folder of its own (as $1 and as OUT), a time limit,
# and comes back as one tarball, $OUT/NAME.tgz, its output in NAME/log.txt (compile
# caches, folders named cache, left out: a file over 16 MiB would not come back). The tail of
# each script's output is printed last, in order, as the call's short table.
#   sh tools/gpu/gpu_round.sh NAME:SECONDS:SCRIPT ...
# e.g. sh tools/gpu/gpu_round.sh limits:420:tools/gpu/gpu_limits.sh fp8:240:tools/gpu/gpu_fp8.sh
. tools/gpu/gpu_setup.sh
dest=${OUT:?OUT names the folder that comes back}
work=$(mktemp -d /tmp/gpu_round.XXXXXX)
{
   date -u
   nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
      --format=csv 2>&1
   build/gemmtop --version 2>&1
} >"$dest/round.txt"
names=""
for job in "$@"; do
   name=${job%%:*} rest=${job#*:}
   secs=${rest%%:*} script=${rest#*:}
   mkdir -p "$work/$name"
   start=$(date +%s)
   OUT="$work/$name" timeout -k 10 "$secs" sh "$script" "$work/$name" >"$work/$name/log.txt" 2>&1
   rc=$?
   echo "$name: $script rc=$rc in $(($(date +%s) - start)) s (limit $secs)" >>"$dest/round.txt"
   tar czf "$dest/$name.tgz" --exclude=cache -C "$work" "$name"
   names="$names $name"
done
cat "$dest/round.txt"
for name in $names; do
   echo "== $name (last lines)"
   tail -n 25 "$work/$name/log.txt"
done
