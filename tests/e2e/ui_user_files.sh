#!/bin/sh
# Files in the folders a user fills (kernels, presets, lessons) that are not files to read:
# a FIFO (opening it would wait for a writer forever), a link to /dev/zero (read without
# end) and a 3 MB lesson (read whole before being refused). The lists and the explorer
# skip each, naming it and why, and go on at once (issue 28, item 8).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

USERK="$T_DIR/userkernels"
mkdir -p "$XDG_CONFIG_HOME/gemmtop/lessons" "$XDG_CONFIG_HOME/gemmtop/presets" "$USERK"
for dir in "$XDG_CONFIG_HOME/gemmtop/lessons:lesson" "$XDG_CONFIG_HOME/gemmtop/presets:preset" "$USERK:cl"; do
   d=${dir%:*}
   ext=${dir##*:}
   mkfifo "$d/fifo.$ext"
   ln -s /dev/zero "$d/zero.$ext"
done
head -c 3000000 /dev/zero | tr '\0' '#' >"$XDG_CONFIG_HOME/gemmtop/lessons/huge.lesson"
export GEMMTOP_KERNELS="$GEMMTOP_KERNELS:$USERK"

# list_with_limit WHAT: `gemmtop list WHAT` within 60 s (it hung on the FIFO before).
list_with_limit() {
   timeout 60 "$GEMMTOP_BIN" list "$1" >"$T_DIR/out" 2>"$T_DIR/err"
   RC=$?
   OUT=$(cat "$T_DIR/out")
   ERR=$(cat "$T_DIR/err")
}
list_with_limit lessons
expect_rc 0 "list lessons ends"
expect_in "mygemm" "$OUT" "and lists the shipped lessons"
expect_in "fifo.lesson: skipped: not a regular file (a FIFO)" "$ERR" "a FIFO is skipped, named"
expect_in "zero.lesson: skipped: not a regular file (a character device)" "$ERR" "a link to /dev/zero is skipped"
expect_in "huge.lesson: skipped: 3000000 bytes, more than the 1048576" "$ERR" "a 3 MB lesson is skipped unread"
list_with_limit presets
expect_rc 0 "list presets ends"
expect_in "fifo.preset: skipped: not a regular file (a FIFO)" "$OUT$ERR" "a FIFO preset is named"
expect_in "zero.preset: skipped: not a regular file (a character device)" "$OUT$ERR" "and the /dev/zero one"
list_with_limit kernels
expect_rc 0 "list kernels ends"
expect_in "fifo.cl: skipped: not a regular file (a FIFO)" "$ERR" "a FIFO kernel file is named"
expect_in "mygemm01_naive" "$OUT" "the other kernels are listed"

# The explorer reads the same folders: it starts, measures, and its log names the files.
ui_start 120 40 -- --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "the explorer starts and measures beside them"
ui_keys q
ui_expect_exit 0 "q quits"
ui_start 120 40 lesson mygemm --size 64
ui_expect_re "verify +[^ ]+ verified" "a lesson starts beside them"
ui_keys q
ui_expect_exit 0 "q quits the lesson"
[ -p "$USERK/fifo.cl" ] && ok "the FIFOs are left as they were" || not_ok "a FIFO was replaced"
finish
