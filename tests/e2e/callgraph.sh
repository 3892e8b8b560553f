#!/bin/sh
# The calls between source files (tools/callgraph.py: nm of the built objects): no circle
# in src/explorer, whose jobs call down to worker_jobs.c and never back into the loop,
# nor in src/tui, whose panes are classes that the keys, the news and the compositor walk
# (panes_table.h) and which call down to what they share (panehost.c, panectx.c,
# uiview.c, panedraw.c, paint.c).
# The checker is also shown a planted circle, compiled here, so that it is known to catch
# one.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR="$ROOT/${BUILD:-build}"
CG="$ROOT/tools/callgraph.py"

python3 "$CG" --build "$BUILD_DIR" --fail-on explorer --fail-on tui >"$T_DIR/graph" 2>"$T_DIR/graph.err"
rc=$?
graph=$(cat "$T_DIR/graph" "$T_DIR/graph.err")
nfolders=$(grep -c '^src/' "$T_DIR/graph")
if [ "$nfolders" -ge 7 ]; then ok "the call graph read the objects of $nfolders folders"; else
   not_ok "the call graph read the objects" "$graph"; fi
explorer=$(grep '^src/explorer:' "$T_DIR/graph")
if [ "$rc" -eq 0 ] && printf '%s' "$explorer" | grep -q 'no circle'; then
   ok "no call circle in src/explorer ($explorer)"
else
   not_ok "no call circle in src/explorer" "$graph"
fi
grep -q '^src/core:.*no circle' "$T_DIR/graph" && ok "no call circle in src/core" ||
   not_ok "no call circle in src/core" "$(grep -A 30 '^src/core:' "$T_DIR/graph")"
expect_in 'between folders: no circle' "$graph" "no call circle between the folders"
tui=$(grep '^src/tui:' "$T_DIR/graph")
if [ "$rc" -eq 0 ] && printf '%s' "$tui" | grep -q 'no circle'; then
   ok "no call circle in src/tui ($tui)"
else
   not_ok "no call circle in src/tui" "$(sed -n '/^src\/tui:/,/^src\/[a-su-z]\|^between/p' "$T_DIR/graph")"
fi

# A planted circle: two files of a copy's explorer/ that call each other, and a third
# that only calls down; the checker must name the two and the back-call, and fail.
mkdir -p "$T_DIR/tree/src/explorer" "$T_DIR/tree/src/tui"
cat >"$T_DIR/tree/explorer_a.c" <<'EOF'
int Planted_b(int x);
int Planted_a(int x);
int Planted_a(int x) { return x > 0 ? Planted_b(x - 1) : 0; }
EOF
cat >"$T_DIR/tree/explorer_b.c" <<'EOF'
int Planted_a(int x);
int Planted_b(int x);
int Planted_b(int x) { return x > 0 ? Planted_a(x - 1) + 1 : 1; }
EOF
cat >"$T_DIR/tree/explorer_c.c" <<'EOF'
int Planted_a(int x);
int Planted_c(int x);
int Planted_c(int x) { return Planted_a(x); }
EOF
for f in a b c; do
   ${CC:-cc} -c "$T_DIR/tree/explorer_$f.c" -o "$T_DIR/tree/src/explorer/$f.o"
done
cp "$T_DIR/tree/src/explorer/c.o" "$T_DIR/tree/src/tui/c.o"
python3 "$CG" --build "$T_DIR/tree" --fail-on explorer --fail-on tui >"$T_DIR/planted" 2>&1
prc=$?
planted=$(cat "$T_DIR/planted")
[ "$prc" -eq 1 ] && ok "a planted circle fails the check (exit 1)" || not_ok "a planted circle fails the check" "exit $prc: $planted"
expect_in 'circle of 2 files, top to bottom: a.c b.c' "$planted" "the planted circle's files are named"
expect_in 'b.c -> a.c: Planted_a' "$planted" "the planted back-call is listed with its function"
expect_in 'a circle in src/explorer' "$planted" "the failure names the folder"
# The same circle in a copy's tui/ (and none in its explorer/) fails as src/tui's.
mkdir -p "$T_DIR/tree2/src/explorer" "$T_DIR/tree2/src/tui"
cp "$T_DIR/tree/src/explorer/a.o" "$T_DIR/tree/src/explorer/b.o" "$T_DIR/tree2/src/tui/"
cp "$T_DIR/tree/src/explorer/c.o" "$T_DIR/tree2/src/explorer/"
python3 "$CG" --build "$T_DIR/tree2" --fail-on explorer --fail-on tui >"$T_DIR/planted2" 2>&1
prc=$?
planted=$(cat "$T_DIR/planted2")
[ "$prc" -eq 1 ] && ok "a circle planted in tui/ fails the check (exit 1)" || not_ok "a circle planted in tui/ fails the check" "exit $prc: $planted"
expect_in 'a circle in src/tui' "$planted" "the failure names src/tui"
# Without objects the script says so and what to do, rather than passing on nothing.
python3 "$CG" --build "$T_DIR/nothing" >"$T_DIR/none" 2>&1
nrc=$?
[ "$nrc" -eq 2 ] && ok "no objects: exit 2" || not_ok "no objects: exit 2" "exit $nrc"
expect_in 'build first (make)' "$(cat "$T_DIR/none")" "no objects: the message says to build first"
finish
