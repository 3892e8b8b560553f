#!/bin/sh
# Backends and devices: 'list devices' shows every backend, its devices or what it found
# instead (the same as --backend NAME says); --device takes an index, part of a device's
# or platform's name, or a kind (pocl, cpu, nvidia, ...); and nothing outside the backend
# layer tells backends or platforms apart by comparing their names.
. "$(dirname "$0")/lib.sh"
SRC=$(dirname "$0")/../../src

# ---- the source: capabilities and device properties, not names ----
# Prints the lines of the C files under $1 (but not $1/backend) that compare a backend's
# name or a platform or vendor string: a literal backend name, a DeviceInfo's platform or
# vendor field, a platform's or vendor's own words, or a Backend's name field.
name_tests() {
   grep -rnE --include='*.c' --include='*.h' 'str(n?case|n)?(cmp|str)\(' "$1" | grep -v "^$1/backend/" |
      grep -iE 'str(n?case|n)?(cmp|str)\([^;]*("(opencl|cl|cuda|hip|rocm|pocl)"|(->|\.)(platform|vendor)\b|"[^"]*(portable computing|pocl|nvidia|advanced micro|authenticamd|genuineintel)|\bbe->name\b)'
}
hits=$(name_tests "$SRC")
[ -z "$hits" ] && ok "no strcmp/strstr on a backend's name or a platform string outside src/backend/" ||
   not_ok "names compared outside src/backend/ (use Backend caps or DeviceInfo properties)" "$hits"
# The check itself finds each kind of comparison it forbids (and not those in the backends).
mkdir -p "$T_DIR/src/cli" "$T_DIR/src/backend"
cat >"$T_DIR/src/cli/planted.c" <<'EOF'
if (!strcmp(be->name, "cuda")) return 1;
if (o->backend && !strcmp(o->backend, "hip")) return 2;
if (strstr(dev->platform, "Portable Computing Language")) return 3;
if (strcasestr(d.vendor, "amd")) return 4;
if (strncmp(info->name, "NVIDIA", 6) == 0) return 5;
if (!strcmp(k->name, "mygemm01_naive")) return 6;
EOF
printf 'if (strstr(d->platform, "NVIDIA")) x = 1;\n' >"$T_DIR/src/backend/allowed.c"
planted=$(name_tests "$T_DIR/src" | wc -l)
[ "$planted" -eq 5 ] && ok "the check finds 5 planted comparisons of names, and not a kernel's name or the backend's own" ||
   not_ok "the check found $planted of 5 planted comparisons" "$(name_tests "$T_DIR/src")"

# ---- list devices: every backend ----
run_gemmtop list devices
expect_rc 0 "list devices"
all=$OUT
run_gemmtop list devices --format json
expect_rc 0 "list devices --format json"
json=$OUT
for b in opencl:OpenCL cuda:CUDA hip:HIP; do
   name=${b%%:*} title=${b#*:}
   line=$(printf '%s\n' "$all" | grep "^$title: ")
   run_gemmtop list devices --backend "$name" --format json
   if [ "$RC" -eq 0 ]; then
      n=$(printf '%s\n' "$OUT" | grep -c '"backend"')
      n_all=$(printf '%s\n' "$json" | python3 -c 'import json,sys; print(sum(json.loads(l)["backend"]==sys.argv[1] for l in sys.stdin))' "$name")
      expect_in "$title: $n device" "$line" "list devices shows $title's $n device(s), as --backend $name does"
      [ "$n" = "$n_all" ] && ok "its JSON carries the $n $name device(s) under \"backend\":\"$name\"" ||
         not_ok "JSON of all backends has $n_all $name devices, --backend $name $n" "$json"
   else
      reason=${line#"$title: "}
      [ -n "$line" ] && [ -n "$reason" ] && expect_in "$title backend: $reason" "$ERR" \
         "list devices says what $title found instead, as --backend $name does: $reason" ||
         not_ok "list devices has no '$title: reason' line" "$all"
   fi
done
printf '%s\n' "$json" | python3 -c '
import json,sys
devs=[json.loads(l) for l in sys.stdin]
assert sum(d["default"] for d in devs)==1, "one default device"
assert any(d["backend"]=="opencl" and "pocl" in d["kinds"] for d in devs), "PoCL is listed"
' && ok "JSON: one default device among all backends, and PoCL's among OpenCL's" || not_ok "JSON of list devices" "$json"
run_gemmtop list devices --format csv
printf '%s\n' "$OUT" | python3 -c '
import csv,sys
rows=list(csv.DictReader(sys.stdin))
assert rows and all(r["backend"] for r in rows) and any("pocl" in r["kinds"].split(", ") for r in rows)
' && ok "CSV: every row names its backend; PoCL is among them" || not_ok "CSV of list devices" "$OUT"

# ---- --device ----
pocl=$(printf '%s\n' "$json" | python3 -c '
import json,sys
print(next(d["name"] for d in map(json.loads, sys.stdin) if d["backend"]=="opencl" and "pocl" in d["kinds"]))')
for want in pocl cpu "portable computing"; do
   run_gemmtop run --backend opencl --device "$want" --kernel mygemm01_naive --size 64 --reps 2 --format json
   expect_rc 0 "run --device '$want'"
   [ "$RC" -eq 0 ] && [ "$(json_field platform)" = "Portable Computing Language" ] &&
      ok "--device '$want' selects PoCL ($(json_field device))" || not_ok "--device '$want' selects PoCL" "$OUT$ERR"
done
if printf '%s\n' "$json" | grep '"backend":"opencl"' | grep -q '"nvidia"'; then
   ok "--device nvidia without an NVIDIA device # SKIP OpenCL has an NVIDIA device here"
else
   run_gemmtop run --backend opencl --device nvidia --kernel mygemm01_naive --size 64
   expect_rc 2 "--device nvidia with no NVIDIA device is a usage error"
   expect_in "no device matches 'nvidia'" "$ERR" "it says no device matches"
   expect_in "$pocl (Portable Computing Language, CPU)" "$ERR" "it lists the devices there are"
   expect_in "pocl, nvidia, amd, intel, cpu, gpu" "$ERR" "and the kinds --device takes"
fi
run_gemmtop run --backend opencl --device 99 --kernel mygemm01_naive --size 64
expect_rc 2 "--device 99 is a usage error"
expect_in "no device 99" "$ERR" "it says there is no device 99"
finish
