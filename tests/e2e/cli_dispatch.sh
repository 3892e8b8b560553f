#!/bin/sh
# The dispatch header (results export --format dispatch) against other people's text: a
# device name, a kernel name and a suite name made to end a comment or a string reach the
# header only as escaped string literals (the header compiled: no symbol of theirs, each
# name read back whole); and the header compiles included first and alone, in C99, C11
# and C++17 with -Wall -Wextra -Werror, a shape without a result (NULL) among its rows.
# No kernel runs: the rows are imported.
. "$(dirname "$0")/lib.sh"

have() { command -v "$1" >/dev/null 2>&1; }
mkdir -p "$XDG_CONFIG_HOME/gemmtop/shapes"
# The suite's name is its file's: a '*' and a '?' in it.
SUITE='we*rd??'
cat >"$XDG_CONFIG_HOME/gemmtop/shapes/$SUITE.shapes" <<'EOF'
title = one shape with results, one without
64x96x128    tall
96x64x160    wide
EOF
DEVICE='X */ int gemmtop_injected = 1; /* "??/'
KERNEL='k"??/\x'
run_gemmtop results import "$(dirname "$0")/../data/t4_kernel_tuner.json" --store "$T_DIR/r.db" \
   --device "$DEVICE" --kernel "$KERNEL" --size 64x96x128
expect_rc 0 "a T4 file imported under a device and a kernel name made to break out of C"
run_gemmtop results export --store "$T_DIR/r.db" --format dispatch --shapes "$SUITE" --out "$T_DIR/d.h"
expect_rc 0 "the dispatch header is written"
expect_in "1 of 2 shapes have a verified configuration" "$ERR" "one shape has a result, the other none"
expect_in "(a C header)" "$ERR" "the message says which format it wrote"

# A file that includes only the header: it compiles alone, in C and C++, and defines
# nothing but the table.
printf '#include "d.h"\n' >"$T_DIR/only.c"
cp "$T_DIR/only.c" "$T_DIR/only.cc"
for std in c99 c11; do
   if cc -std=$std -Wall -Wextra -Werror -c -o "$T_DIR/only-$std.o" "$T_DIR/only.c" 2>"$T_DIR/cc.err"; then
      ok "the header compiles included first and alone (cc -std=$std -Wall -Wextra -Werror)"
   else
      not_ok "cc -std=$std of a file that includes only the header" "$(cat "$T_DIR/cc.err" "$T_DIR/d.h")"
   fi
done
if have g++; then
   if g++ -std=c++17 -Wall -Wextra -Werror -c -o "$T_DIR/only-cxx.o" "$T_DIR/only.cc" 2>"$T_DIR/cc.err"; then
      ok "the header compiles included first and alone (g++ -std=c++17 -Wall -Wextra -Werror)"
   else
      not_ok "g++ -std=c++17 of a file that includes only the header" "$(cat "$T_DIR/cc.err" "$T_DIR/d.h")"
   fi
else
   ok "g++ -std=c++17 of the header # SKIP g++ is not installed"
fi
if have nm; then
   syms=$(nm "$T_DIR/only-c11.o" 2>&1)
   case "$syms" in
   *gemmtop_injected*) not_ok "the device's text became C code" "$syms" ;;
   *gemmtop_dispatch_we_rd__*) ok "the only symbol is the table (gemmtop_dispatch_we_rd__); no gemmtop_injected" ;;
   *) not_ok "the table's symbol" "$syms" ;;
   esac
else
   ok "symbols of the compiled header # SKIP nm is not installed"
fi

# Each name comes back whole from the compiled header: the escapes are exact.
cat >"$T_DIR/names.c" <<'EOF'
#include "d.h"
#include <stdio.h>
int main(void) {
   const gemmtop_dispatch_entry *t = gemmtop_dispatch_we_rd__;
   printf("%s\n%s\n%s\n%s\n%s\n", GEMMTOP_DISPATCH_WE_RD___SUITE, GEMMTOP_DISPATCH_WE_RD___DEVICE, t[0].kernel,
          t[0].label, t[1].kernel ? "not NULL" : "NULL");
   return GEMMTOP_DISPATCH_WE_RD___COUNT == 2 && t[0].m == 64 && t[1].m == 96 ? 0 : 1;
}
EOF
if cc -std=c99 -Wall -Wextra -Werror -o "$T_DIR/names" "$T_DIR/names.c" 2>"$T_DIR/cc.err" &&
   "$T_DIR/names" >"$T_DIR/names.out"; then
   want=$(printf '%s\n%s\n%s\ntall\nNULL' "$SUITE" "$DEVICE" "$KERNEL")
   if [ "$(cat "$T_DIR/names.out")" = "$want" ]; then
      ok "the suite's, the device's and the kernel's names read back whole from the header; the shape without a result has a NULL kernel"
   else
      not_ok "names read back from the header" "$(cat "$T_DIR/names.out")"
   fi
else
   not_ok "a program using the header" "$(cat "$T_DIR/cc.err" "$T_DIR/d.h")"
fi

# The JSON form holds the same names, as JSON strings.
run_gemmtop results export --store "$T_DIR/r.db" --format dispatch --shapes "$SUITE" --out "$T_DIR/d.json"
if [ "$RC" -eq 0 ] && msg=$(python3 - "$T_DIR/d.json" "$DEVICE" "$KERNEL" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["device"] == sys.argv[2], d["device"]
assert d["entries"][0]["kernel"] == sys.argv[3] and "kernel" not in d["entries"][1], d["entries"]
print("ok")
PY
); then
   ok "the JSON table holds the same names"
else
   not_ok "the dispatch JSON (exit $RC): ${msg:-}" "$ERR"
fi

finish
