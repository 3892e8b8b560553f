#!/bin/sh
# Presets: the dialog lists shipped and user presets, names a corrupt file and its line,
# loads one (kernel, parameters, problem), saves the current configuration atomically
# into the user's folder (asking before replacing), and --preset starts from one.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

mkdir -p "$T_DIR/presets"
cat >"$T_DIR/presets/01-naive-small.preset" <<'P'
# The naive kernel on a small problem, narrow work-groups
kernel = mygemm01_naive
size = 64
TSN = 8
TSM = 4
P
cat >"$T_DIR/presets/02-corrupt.preset" <<'P'
# broken on purpose
kernel = mygemm01_naive
this line has no equals sign
P
cat >"$T_DIR/presets/03-bad-value.preset" <<'P'
# a value the kernel does not allow
kernel = mygemm01_naive
TSN = 3
P
export GEMMTOP_PRESETS="$T_DIR/presets"

ui_start 100 30 -- --kernel mygemm01_naive --size 128
ui_expect_re "verify +[^ ]+ verified" "the explorer is up"
ui_keys F3
ui_expect "Presets (F3)" "F3 opens the presets"
ui_expect "01-naive-small" "a shipped preset is listed"
ui_expect "02-corrupt.preset:3" "a corrupt preset is named with its file and line"
# 03-bad-value parses but cannot apply: loading it says why, naming file and line.
ui_keys Down Enter
ui_expect "03-bad-value.preset:3" "loading a preset with a bad value names file and line"
ui_keys Up Enter
ui_expect "M=64 N=64 K=64" "loading sets the preset's problem"
ui_expect_re "config +01_naive TSN=8 TSM=4" "and its parameters"
ui_expect_re "verify +[^ ]+ verified" "the preset's configuration is measured and verified"

# Save it under a new name.
ui_keys w
ui_expect "Save as preset" "w opens the save dialog"
ui_keys C-u
ui_tmux send-keys -l "mine"
ui_keys Tab C-u
ui_tmux send-keys -l "my own small naive"
ui_keys Enter
file="$XDG_CONFIG_HOME/gemmtop/presets/mine.preset"
ui_expect "saved" "Enter saves"
if [ -f "$file" ] && grep -q "^kernel = mygemm01_naive$" "$file" && grep -q "^TSN = 8$" "$file" &&
   grep -q "^m = 64$" "$file" && grep -q "^# my own small naive$" "$file"; then
   ok "the preset file has the kernel, parameters, problem and description"
else
   not_ok "the preset file has the kernel, parameters, problem and description" "$(cat "$file" 2>&1)"
fi
ls "$XDG_CONFIG_HOME/gemmtop/presets" | grep -v '^mine.preset$' | grep -q . &&
   not_ok "no temporary file is left behind" "$(ls -a "$XDG_CONFIG_HOME/gemmtop/presets")" ||
   ok "no temporary file is left behind"

# Saving over it asks first.
ui_keys F4
ui_expect "Save as preset" "F4 opens the save dialog"
ui_keys C-u
ui_tmux send-keys -l "mine"
ui_keys Enter
ui_expect "Enter again replaces it" "an existing preset is not replaced silently"
ui_keys Enter
# The first save's message may still be on the screen: wait for the dialog to close.
ui_expect_gone "Save as preset" "Enter again closes the dialog" 10
ui_expect "preset mine saved to" "Enter again replaces it"

ui_keys p
ui_expect "mine (yours)" "p lists the user's preset too"
ui_keys Escape
ui_expect_gone "Presets (F3)" "Esc closes the dialog" 10
ui_keys q
ui_expect_exit 0 "q quits"

ui_start 100 30 -- --preset mine
ui_expect "M=64 N=64 K=64" "--preset starts from the user's preset"
ui_expect_re "config +01_naive TSN=8 TSM=4" "with its parameters"
ui_keys q
ui_expect_exit 0 "q quits"
finish
