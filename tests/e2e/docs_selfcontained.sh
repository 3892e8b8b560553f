#!/bin/sh
# The project's docs stand alone: users have the project, not the files it grew from.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.." || exit 1
hits=$(grep -rnE '\.\./shared|shared/(DESIGN|DEVICE)\.md|\bDEVICE\.md|\bDESIGN\.md' \
   README.md docs kernels presets tools scripts src tests/unit 2>/dev/null)
if [ -z "$hits" ]; then ok "no doc, script or source cites a file outside the project"
else not_ok "files outside the project are cited" "$hits"; fi
# Every doc a doc links to exists.
missing=""
for f in README.md docs/*.md; do
   for ref in $(grep -oE '`docs/[A-Za-z0-9_.-]+\.md`' "$f" | tr -d '`' | sort -u); do
      [ -f "$ref" ] || missing="$missing $f->$ref"
   done
done
if [ -z "$missing" ]; then ok "every docs/*.md that a doc names exists"
else not_ok "docs name files that do not exist:$missing"; fi
finish
