#!/bin/sh
# The layers: nothing includes a layer above it. tui -> explorer -> core <- cli, and
# core -> backend; the class server (serve) is a front end beside cli, which starts it; curses only in tui; every include of our own names its folder. The
# engine's floors (src/core's sub-folders, docs/architecture.md) likewise: a floor includes
# only the floors under it. The checker is also shown a tree with a planted violation, so
# that it is known to catch one.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../../src" && pwd)

# What a file in each folder may include of ours. base/ (utilities, output files, the
# random numbers, element types, the disk cache's files) is under everything and includes
# nothing of ours above it; the backends see only base/.
allowed() {
   case "$1" in
   base/*) echo "base/" ;;
   backend/*) echo "backend/ base/" ;;
   # The engine's floors, bottom to top (tools/move_core.py places the files): model (the
   # things measured, no device) <- run (one configuration on a device) <- sweep (the space,
   # its search, the measuring child) <- results (the store) <- tune (one sweep end to end);
   # analyse sits on sweep and run, teach on run. A file directly in src/core has no floor.
   core/model/*) echo "core/model/ backend/ base/" ;;
   core/run/*) echo "core/run/ core/model/ backend/ base/" ;;
   core/sweep/*) echo "core/sweep/ core/run/ core/model/ backend/ base/" ;;
   core/results/*) echo "core/results/ core/sweep/ core/run/ core/model/ backend/ base/" ;;
   core/tune/*) echo "core/tune/ core/results/ core/sweep/ core/run/ core/model/ backend/ base/" ;;
   core/analyse/*) echo "core/analyse/ core/sweep/ core/run/ core/model/ backend/ base/" ;;
   core/teach/*) echo "core/teach/ core/run/ core/model/ backend/ base/" ;;
   explorer/*) echo "explorer/ core/ backend/ base/" ;;
   tui/*) echo "tui/ explorer/ core/ backend/ base/" ;;
   main.c) echo "cli/ tui/ explorer/ core/ backend/ base/" ;; # the composition root: both front ends
   serve/*) echo "serve/ core/ backend/ base/" ;;
   cli/*) echo "cli/ serve/ core/ backend/ base/" ;;
   *) echo "" ;;
   esac
}

# check_tree ROOT: prints one line per include that breaks the rules; the files seen go
# to $T_DIR/seen.
check_tree() {
   : >"$T_DIR/seen"
   (cd "$1" && find . -name '*.[ch]' | sed 's|^\./||' | sort) | while read -r f; do
      echo "$f" >>"$T_DIR/seen"
      case "$f" in core/*/*) ;; core/*) echo "$f: (a file directly in src/core: each belongs to a floor)" ;; esac
      ok_list=$(allowed "$f")
      sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' "$1/$f" | while read -r inc; do
         case "$inc" in
         \<*curses*)
            case "$f" in tui/*) ;; *) echo "$f: $inc (curses outside src/tui)" ;; esac
            continue ;;
         \<*) continue ;;
         esac
         name=$(printf '%s' "$inc" | tr -d '"')
         case "$name" in
         */*) ;;
         *) echo "$f: $inc (an include of ours names its folder)"; continue ;;
         esac
         case "$name" in
         core/*/*) ;;
         core/*) echo "$f: $inc (an include of the engine names its floor: core/FLOOR/...)"; continue ;;
         esac
         pass=no
         for a in $ok_list; do
            case "$name" in "$a"*) pass=yes ;; esac
         done
         [ "$pass" = yes ] || echo "$f: $inc (a layer that $f may not include)"
      done
   done
}

bad=$(check_tree "$SRC")
seen=$(wc -l <"$T_DIR/seen")
if [ "$seen" -ge 40 ]; then ok "the checker read the sources ($seen files)"; else not_ok "the checker read the sources" "only $seen files under $SRC"; fi
if [ -z "$bad" ]; then ok "no file includes a layer above it"; else not_ok "no file includes a layer above it" "$bad"; fi
for layer in base core core/model core/run core/sweep core/results core/tune core/analyse core/teach backend cli serve explorer tui; do
   n=$(grep -c "^$layer/" "$T_DIR/seen")
   if [ "$n" -gt 0 ]; then ok "src/$layer checked ($n files)"; else not_ok "src/$layer checked" "no file"; fi
done

# The checker catches what it is meant to: one violation of each kind in a copy.
mkdir -p "$T_DIR/tree"
cp -R "$SRC"/. "$T_DIR/tree/"
printf '#include "cli/cli.h"\n' >>"$T_DIR/tree/tui/keys.c"
printf '#include <curses.h>\n#include "tui/app.h"\n' >>"$T_DIR/tree/explorer/worker.c"
printf '#include "explorer/worker.h"\n' >>"$T_DIR/tree/core/run/session.c"
printf '#include "core/run/session.h"\n' >>"$T_DIR/tree/backend/backend_opencl.c"
printf '#include "util.h"\n' >>"$T_DIR/tree/base/util.c"
printf '#include "core/model/problem.h"\n' >>"$T_DIR/tree/backend/gpu_common.c"
printf '#include "backend/backend.h"\n' >>"$T_DIR/tree/base/diskcache.c"
printf '#include "cli/cli.h"\n' >>"$T_DIR/tree/serve/fairq.c"
# The engine's floors: an upper floor, a sibling floor, a floor's old flat path, a flat file.
printf '#include "core/analyse/limiter.h"\n' >>"$T_DIR/tree/core/run/session.c"
printf '#include "core/tune/sweeprun.h"\n' >>"$T_DIR/tree/core/results/record.c"
printf '#include "core/run/session.h"\n' >>"$T_DIR/tree/core/model/catalog.c"
printf '#include "core/analyse/inspect.h"\n' >>"$T_DIR/tree/core/teach/export.c"
printf '#include "core/results/store.h"\n' >>"$T_DIR/tree/core/analyse/limiter.c"
printf '#include "core/session.h"\n' >>"$T_DIR/tree/explorer/measure.c"
printf '#include "core/model/problem.h"\n' >"$T_DIR/tree/core/planted.c"
planted=$(check_tree "$T_DIR/tree")
for want in 'core/run/session.c: "core/analyse/limiter.h"' 'core/results/record.c: "core/tune/sweeprun.h"' \
   'core/model/catalog.c: "core/run/session.h"' 'core/teach/export.c: "core/analyse/inspect.h"' \
   'core/analyse/limiter.c: "core/results/store.h"' 'explorer/measure.c: "core/session.h"' \
   'core/planted.c: (a file directly in src/core'; do
   expect_in "$want" "$planted" "a planted $want is caught"
done
for want in 'tui/keys.c: "cli/cli.h"' 'explorer/worker.c: <curses.h>' 'explorer/worker.c: "tui/app.h"' \
   'core/run/session.c: "explorer/worker.h"' 'backend/backend_opencl.c: "core/run/session.h"' 'base/util.c: "util.h"' \
   'backend/gpu_common.c: "core/model/problem.h"' 'base/diskcache.c: "backend/backend.h"' 'serve/fairq.c: "cli/cli.h"'; do
   expect_in "$want" "$planted" "a planted $want is caught"
done

# Element types are decided in one table (base/types.c: TypeTraits): nowhere else a
# comparison with, a case of or a ternary on a type (the backends map types in arrays
# indexed by precision: [PRECISION_HALF] = ...), so that a new type is one row.
# Outside src/backend nothing names a backend: the engine and the front ends go through
# the registry and the tables of backend.h (Backend.caps, Backend.offline), never through
# one backend's functions, header or name.
backend_names() {
   (cd "$1" && find . -name '*.[ch]' ! -path './backend/*' | sort | while read -r f; do
      # comments may name them: what is said, not what is called
      sed -e 's|/\*.*\*/||g' -e 's|//.*||' -e 's|^[[:space:]]*\*.*||' -e 's|/\*.*||' "$f" |
         grep -nE 'Backend_(opencl|cuda|hip)[[:space:]]*\(|\b(Cuda|Hip|Opencl|OpenCL)_[A-Za-z]+[[:space:]]*\(|backend/(backend_(cuda|hip|opencl)|hip_api|gpu_common)\.h|Backend_byName[[:space:]]*\([[:space:]]*"|"(cuda|hip|opencl)"' |
         sed "s|^|$f:|"
   done)
}
named=$(backend_names "$SRC")
[ -z "$named" ] && ok "no file outside src/backend names a backend" ||
   not_ok "files outside src/backend name a backend" "$named"
printf 'static void planted(void) { Hip_disassemble(0, 0, 0); }\n' >>"$T_DIR/tree/core/analyse/inspect.c"
printf '#include "backend/backend_cuda.h"\n' >>"$T_DIR/tree/explorer/panejobs.c"
printf 'static const char *planted = "cuda";\n' >>"$T_DIR/tree/tui/draw_inspect.c"
printf 'static const void *planted(void) { return Backend_byName("hip"); }\n' >>"$T_DIR/tree/cli/cli_inspect.c"
planted=$(backend_names "$T_DIR/tree")
for want in "core/analyse/inspect.c:.*Hip_disassemble" "explorer/panejobs.c:.*backend_cuda.h" 'tui/draw_inspect.c:.*"cuda"' \
   'cli/cli_inspect.c:.*Backend_byName("hip")'; do
   printf '%s\n' "$planted" | grep -q "$want" && ok "a planted backend name ($want) is caught" ||
      not_ok "a planted backend name ($want) is not caught" "$planted"
done

type_decisions() {
   (cd "$1" && grep -rnoE '([=!]=|case)[[:space:]]*PRECISION_[A-Z0-9_]+|PRECISION_[A-Z0-9_]+[[:space:]]*([=!]=|[?])' \
      --include='*.c' --include='*.h' . | grep -vE 'PRECISION_(COUNT|BIT)' | grep -v '^\./base/types\.[ch]:')
}
decisions=$(type_decisions "$SRC")
[ -z "$decisions" ] && ok "no element type is decided outside base/types.c's table" ||
   not_ok "element types decided outside base/types.c" "$decisions"
printf 'static int planted(Precision p) { return p == PRECISION_HALF; }\n' >>"$T_DIR/tree/core/run/session.c"
printf 'static int planted2(Precision p) { return p != PRECISION_TF32 ? 1 : 0; }\n' >>"$T_DIR/tree/backend/backend_hip.c"
printf 'static int planted3(Precision p) { switch (p) { case PRECISION_BF16: return 1; default: return 0; } }\n' >>"$T_DIR/tree/tui/draw.c"
planted=$(type_decisions "$T_DIR/tree")
for want in "core/run/session.c:.*== PRECISION_HALF" "backend/backend_hip.c:.*!= PRECISION_TF32" "tui/draw.c:.*case PRECISION_BF16"; do
   printf '%s\n' "$planted" | grep -q "$want" && ok "a planted type decision ($want) is caught" ||
      not_ok "a planted type decision ($want) is not caught" "$planted"
done

# The same for the storages: a type's storage is a column of its row (TypeTraits.in, .out)
# and what follows from it a trait (TypeTraits.fp64: all in double). Nothing outside
# types.c compares with a STORAGE_ value or branches on one with a ternary; a map is an
# array indexed by the storage ([STORAGE_E5M2] = ...), and a codec's switch over every
# storage (verify.c's row loader, inputs.c's generator) decides nothing about a type.
storage_decisions() {
   (cd "$1" && grep -rnoE '[=!]=[[:space:]]*STORAGE_[A-Z0-9_]+|STORAGE_[A-Z0-9_]+[[:space:]]*([=!]=|[?])' \
      --include='*.c' --include='*.h' . | grep -vE 'STORAGE_KINDS' | grep -v '^\./base/types\.[ch]:')
}
decisions=$(storage_decisions "$SRC")
[ -z "$decisions" ] && ok "no storage is decided outside base/types.c's table" ||
   not_ok "storages decided outside base/types.c" "$decisions"
printf 'static int planted4(const TypeTraits *t) { return t->out == STORAGE_F64; }\n' >>"$T_DIR/tree/core/run/verify.c"
printf 'static int planted5(Storage s) { return STORAGE_E5M2 != s; }\n' >>"$T_DIR/tree/backend/cublaslt.c"
printf 'static int planted6(Storage s) { return s == STORAGE_BF16 ? 2 : 0; }\n' >>"$T_DIR/tree/core/teach/export.c"
planted=$(storage_decisions "$T_DIR/tree")
for want in "core/run/verify.c:.*== STORAGE_F64" "backend/cublaslt.c:.*STORAGE_E5M2 !=" "core/teach/export.c:.*== STORAGE_BF16"; do
   printf '%s\n' "$planted" | grep -q "$want" && ok "a planted storage decision ($want) is caught" ||
      not_ok "a planted storage decision ($want) is not caught" "$planted"
done

# A pane sees its context and its own state (src/tui/panectx.h), never the explorer's: a
# file that defines a pane's class, the header of its state beside it, the pane's other
# files (named after its class's file: draw_lesson_steps.c beside draw_lesson.c), and what
# panes draw and read with (panedraw, panectx) include no app.h, name no Ui and call no
# Ui_ function: docs/architecture.md, "What a pane receives". No pane is let through.
pane_files() {
   (cd "$1" && for f in $(grep -l '^const PaneClass [A-Za-z]*_pane = ' tui/*.c) tui/panedraw.c tui/panectx.c; do
      for g in "$f" "${f%.c}.h" "${f%.c}"_*.c "${f%.c}"_*.h; do
         [ -f "$g" ] && echo "$g"
      done
   done)
}
pane_ui_uses() {
   pane_files "$1" | while read -r g; do
      # comments may name it: what is said, not what is used
      sed -e 's|/\*.*\*/||g' -e 's|//.*||' -e 's|^[[:space:]]*\*.*||' -e 's|/\*.*||' "$1/$g" |
         grep -nE '#[[:space:]]*include[[:space:]]*"tui/app\.h"|\bUi\b|\bstruct Ui_|\bUi_[A-Za-z]+[[:space:]]*\(' |
         sed "s|^|$g:|"
   done
}
npanes=$(pane_files "$SRC" | grep -c '^tui/\(draw_\|sweepview\)[a-z_]*\.c$')
if [ "$npanes" -ge 10 ]; then ok "the panes' files found ($npanes)"; else
   not_ok "the panes' files found" "$(pane_files "$SRC")"; fi
missing=$(for g in tui/draw_lesson.c tui/draw_lesson.h tui/draw_lesson_steps.c tui/draw_lesson_text.c; do
   pane_files "$SRC" | grep -qx "$g" || echo "$g"; done)
[ -z "$missing" ] && ok "the lesson pane's files are checked like any pane's" ||
   not_ok "the lesson pane's files are not all checked" "$missing"
uses=$(pane_ui_uses "$SRC")
[ -z "$uses" ] && ok "no pane sees the explorer's state (app.h, Ui)" ||
   not_ok "panes that see the explorer's state" "$uses"
printf '#include "tui/app.h"\n' >>"$T_DIR/tree/tui/draw_log.c"
printf 'static void planted(struct Ui_ *ui);\n' >>"$T_DIR/tree/tui/sweepview.h"
printf 'static void planted(void) { Ui_flash(0, 0, ""); }\n' >>"$T_DIR/tree/tui/draw_roofline.c"
printf 'static void planted(Ui *ui) { (void)ui; }\n' >>"$T_DIR/tree/tui/panedraw.c"
printf 'static void planted(Ui *ui) { (void)ui; }\n' >>"$T_DIR/tree/tui/draw_lesson.c"
printf 'static void planted(void) { Ui_log(0, 0, ""); }\n' >>"$T_DIR/tree/tui/draw_lesson_steps.c"
printf '#include "tui/app.h"\n' >>"$T_DIR/tree/tui/draw_lesson.h"
planted=$(pane_ui_uses "$T_DIR/tree")
for want in 'tui/draw_log.c:.*tui/app.h' 'tui/sweepview.h:.*struct Ui_' 'tui/draw_roofline.c:.*Ui_flash' \
   'tui/panedraw.c:.*Ui \*ui' 'tui/draw_lesson.c:.*Ui \*ui' 'tui/draw_lesson_steps.c:.*Ui_log' \
   'tui/draw_lesson.h:.*tui/app.h'; do
   printf '%s\n' "$planted" | grep -q "$want" && ok "a planted use of the explorer's state ($want) is caught" ||
      not_ok "a planted use of the explorer's state ($want) is not caught" "$planted"
done
finish
