#!/bin/sh
# Checks, before anything compiles, that the build's dependencies are there: the C
# compiler, each library's header (compiled in a one-line probe with the build's own
# flags) and each library (linked). Quiet when all are; otherwise one line naming what is
# missing with the Debian package that has it, and that `make deps` (or `make run`) installs
# them; exit 1. The Makefile runs it first (its stamp: build/deps.checked).
#   sh scripts/checkdeps.sh CC "CFLAGS" "LIBS"
cc=${1:-cc}
cflags=${2:-}
libs=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'int main(void) { return 0; }\n' >"$tmp/main.c"
# shellcheck disable=SC2086 # CC may hold options
if ! $cc -o "$tmp/main" "$tmp/main.c" >"$tmp/log" 2>&1; then
   echo "gemmtop: cannot build: the C compiler '$cc' does not work ($(head -c 160 "$tmp/log" | tr '\n' ' '));" \
      "'make deps' (or 'make run') installs gcc" >&2
   exit 1
fi
missing="" # "what (the Debian package that has it)", comma-separated
# header|the Debian package that has it
for pair in "CL/cl.h|opencl-c-headers" "curses.h|libncurses-dev" "term.h|libncurses-dev" \
   "sqlite3.h|libsqlite3-dev" "cJSON.h|libcjson-dev"; do
   header=${pair%%|*}
   printf '#include <%s>\nint gemmtop_probe;\n' "$header" >"$tmp/probe.c"
   # shellcheck disable=SC2086
   if ! $cc $cflags -c -o "$tmp/probe.o" "$tmp/probe.c" >/dev/null 2>&1; then
      missing="$missing${missing:+,} $header (${pair#*|})"
   fi
done
# The libraries, once each header is there: each alone (with the flags that say where
# libraries are), so that the message names it.
paths=""
for word in $libs; do
   case "$word" in -l*) ;; *) paths="$paths $word" ;; esac
done
if [ -z "$missing" ]; then
   for lib in $libs; do
      case "$lib" in -l*) ;; *) continue ;; esac
      case "$lib" in
      -lOpenCL) pkg=ocl-icd-opencl-dev ;;
      -lncursesw | -ltinfo) pkg=libncurses-dev ;;
      -lsqlite3) pkg=libsqlite3-dev ;;
      -lcjson) pkg=libcjson-dev ;;
      *) pkg="" ;;
      esac
      # shellcheck disable=SC2086
      if ! $cc -o "$tmp/main" "$tmp/main.c" $paths $lib >/dev/null 2>&1; then
         missing="$missing${missing:+,} lib${lib#-l}${pkg:+ ($pkg)}"
      fi
   done
fi
[ -z "$missing" ] && exit 0
echo "gemmtop: cannot build: missing${missing}; 'make deps' (or 'make run') installs them (Debian packages)" >&2
exit 1
