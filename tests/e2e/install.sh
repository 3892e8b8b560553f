#!/bin/sh
# make install PREFIX=...: the installed program finds its kernels and presets by itself;
# and make on a machine without a dependency says what is missing, compiling nothing.
. "$(dirname "$0")/lib.sh"
prefix="$T_DIR/prefix"
# make install builds what is not built: on a machine without the build's headers (the GPU
# machine, which has no network for scripts/deps.sh) there is nothing to test.
if ! printf '#include <cJSON.h>\n#include <sqlite3.h>\n#include <ncurses.h>\n#include <CL/cl.h>\n' |
   cc -E -I/usr/include/cjson -x c - >/dev/null 2>"$T_DIR/headers.err"; then
   ok "make install # SKIP the build's headers are not installed (sh scripts/deps.sh installs them): $(grep -m1 'fatal error' "$T_DIR/headers.err")"
   finish
   exit
fi
if make -s install PREFIX="$prefix" BUILD="${BUILD:-build}" >"$T_DIR/install.log" 2>&1; then
   ok "make install PREFIX=$prefix"
else
   not_ok "make install" "$(cat "$T_DIR/install.log")"
fi
[ -x "$prefix/bin/gemmtop" ] && ok "the binary is installed" || not_ok "no installed binary"
[ -f "$prefix/share/man/man1/gemmtop.1" ] && ok "the man page is installed" || not_ok "no man page"
cmp -s LICENSE "$prefix/share/doc/gemmtop/LICENSE" && ok "the licence is installed" || not_ok "no licence installed"
# Plain make (no goal) builds the program, as make all does: in a fresh clone it names the
# link of build/gemmtop, here (built) it has nothing to do for 'all'.
plain=$(make -n BUILD="${BUILD:-build}" 2>&1)
case "$plain" in
*"gemmtop.tmp"* | *"Nothing to be done for 'all'"* | *"is up to date"*) ok "plain make builds the program (its goal is all)" ;;
*) not_ok "plain make does not build the program" "$plain" ;;
esac
n_src=$(ls kernels/*.cl | wc -l)
n_inst=$(ls "$prefix/share/gemmtop/kernels/"*.cl | wc -l)
[ "$n_src" -eq "$n_inst" ] && ok "all $n_src kernel files are installed" || not_ok "kernels installed: $n_inst of $n_src"
ls "$prefix/share/gemmtop/kernels/" | grep -q '^test_' && not_ok "test kernels are installed" "$(ls "$prefix/share/gemmtop/kernels/")" ||
   ok "no test kernel is installed (they live in tests/kernels)"
# shellcheck disable=SC2086 # POCL is a list of options (lib.sh): PoCL's CPU device
out=$(cd "$T_DIR" && env -u GEMMTOP_KERNELS -u GEMMTOP_PRESETS "$prefix/bin/gemmtop" run $POCL --kernel mygemm01_naive --size 64 --reps 1 2>&1)
expect_in "verified" "$out" "the installed program runs a kernel from its share folder"
out=$(cd "$T_DIR" && env -u GEMMTOP_KERNELS -u GEMMTOP_PRESETS "$prefix/bin/gemmtop" list presets 2>&1)
n_presets=$(ls presets/*.preset 2>/dev/null | wc -l)
if [ "$n_presets" -gt 0 ]; then
   first=$(ls presets/*.preset | head -n 1 | xargs basename | sed 's/\.preset$//')
   expect_in "$first" "$out" "the installed program lists the shipped presets"
fi
n_lessons=$(ls lessons/*.lesson | wc -l)
n_inst=$(ls "$prefix/share/gemmtop/lessons/"*.lesson 2>/dev/null | wc -l)
[ "$n_lessons" -eq "$n_inst" ] && ok "all $n_lessons lessons are installed" || not_ok "lessons installed: $n_inst of $n_lessons"
out=$(cd "$T_DIR" && env -u GEMMTOP_KERNELS -u GEMMTOP_PRESETS -u GEMMTOP_LESSONS "$prefix/bin/gemmtop" list lessons 2>&1)
expect_in "mygemm" "$out" "the installed program lists the shipped lessons"
n_shapes=$(ls shapes/*.shapes | wc -l)
n_inst=$(ls "$prefix/share/gemmtop/shapes/"*.shapes 2>/dev/null | wc -l)
[ "$n_shapes" -eq "$n_inst" ] && ok "all $n_shapes shape suites are installed" || not_ok "shape suites installed: $n_inst of $n_shapes"
out=$(cd "$T_DIR" && env -u GEMMTOP_KERNELS -u GEMMTOP_SHAPES "$prefix/bin/gemmtop" list shapes 2>&1)
expect_in "llama3-8b" "$out" "the installed program lists the shipped shape suites"

# A fresh machine without a dependency: the build says in one line what is missing and
# what installs it before compiling anything, not a compiler error halfway. Here a compiler
# whose include path is the system's without CL/ (as without opencl-c-headers), and a
# library that is nowhere, each into a fresh build folder (make -j2, as a user would).
gccinc=$(cc -print-file-name=include)
arch=$(cc -print-multiarch 2>/dev/null)
mkdir -p "$T_DIR/include"
for f in /usr/include/*; do [ "$(basename "$f")" = CL ] || ln -s "$f" "$T_DIR/include/"; done
NOCL="cc -nostdinc -isystem $gccinc${arch:+ -isystem /usr/include/$arch} -isystem $T_DIR/include"
make -j2 BUILD="$T_DIR/fresh" CC="$NOCL" >"$T_DIR/make.out" 2>&1
RC=$?
expect_rc 2 "make without the OpenCL headers stops"
expect_in "gemmtop: cannot build: missing CL/cl.h (opencl-c-headers); 'make deps' (or 'make run') installs them" \
   "$(cat "$T_DIR/make.out")" "naming the header, its package and make deps"
case "$(cat "$T_DIR/make.out")" in *"fatal error"*) not_ok "no compiler error is met" "$(cat "$T_DIR/make.out")" ;;
*) ok "no compiler error is met" ;; esac
[ -z "$(find "$T_DIR/fresh" -name '*.o' 2>/dev/null)" ] && ok "nothing was compiled" ||
   not_ok "nothing was compiled" "$(find "$T_DIR/fresh" -name '*.o')"
make -j2 BUILD="$T_DIR/fresh" EXTRA_LIBS=-lgemmtop_nowhere >"$T_DIR/make.out" 2>&1
RC=$?
expect_rc 2 "make without a library stops"
expect_in "gemmtop: cannot build: missing libgemmtop_nowhere;" "$(cat "$T_DIR/make.out")" "naming the library"
make --no-print-directory BUILD="$T_DIR/fresh" "$T_DIR/fresh/deps.checked" >"$T_DIR/make.out" 2>&1
RC=$?
expect_rc 0 "with everything there the check passes"
[ ! -s "$T_DIR/make.out" ] && ok "quietly" || not_ok "the check passes quietly" "$(cat "$T_DIR/make.out")"
finish
