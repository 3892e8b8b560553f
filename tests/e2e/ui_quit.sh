#!/bin/sh
# Leaving: q, F10, Ctrl-C (exit 0) and SIGTERM restore the terminal, also in the middle
# of a compile or a long run; no device or a bad --device give a plain message and never
# touch the screen. And the plain screens: -U/--ascii and NO_COLOR.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

ui_start 80 24 -- --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "the explorer is up"
ui_keys C-c
ui_expect_exit 0 "Ctrl-C quits"

# While compiling (a new cache, gemmtop's and PoCL's under it, so this start compiles afresh; PoCL
# takes seconds over it).
ui_start 80 24 XDG_CACHE_HOME="$T_DIR/cache-fresh" -- --kernel mygemm02_tiled --size 64
ui_expect_re "M=64 N=64 K=64 .*compiling" "a fresh start compiles" 30
ui_keys q
ui_expect_exit 0 "q in the middle of a compile"

# While the vendor library compiles its kernels (its first call in a process, seconds on
# PoCL): leaving does not wait for it (nothing of it is kept), and says so, not "a launch".
ui_start 100 30 -- --kernel mygemm01_naive --size 64
if ui_wait "vendor BLAS" 60; then
   ui_keys q
   ui_expect "gemmtop: leaving without waiting for the vendor BLAS" \
      "q while the vendor library compiles: leaves without waiting for it" 10
   ui_expect "compiles its kernels" "naming the compile"
   case "$UI_LAST" in *"waiting up to 5 s"* | *"busy with a launch"*) not_ok "no wait, not called a launch" "$UI_LAST" ;;
   *) ok "no 5 s wait, not called a launch" ;; esac
   ui_expect_exit 0 "q while the vendor library compiles"
else
   ok "q while the vendor library compiles # SKIP no vendor BLAS timing showed (CLBlast absent?)"
fi

# A long run on a CPU: naive at 2048 takes seconds per launch, so once verifying (the
# first run) or measuring shows, a run is in progress.
ui_start 80 24 -- --kernel mygemm01_naive --size 2048
ui_expect_re "M=2048 N=2048 K=2048 .*(verifying|measuring)" "naive at 2048 runs" 60
ui_keys F10
ui_expect_exit 0 "F10 during a long run"

ui_start 80 24 -- --kernel mygemm01_naive --size 64
ui_expect " 2 Results" "started again"
pid=$(ui_pid)
if [ -n "$pid" ] && kill -TERM "$pid"; then
   ui_expect_exit 143 "SIGTERM ends it (128+15)"
else
   not_ok "SIGTERM ends it: no process found" "$(ui_screen)"
fi

# A crash: the fatal-signal handler restores the terminal, then dies of the signal.
ui_start 80 24 -- --kernel mygemm01_naive --size 64
ui_expect " 2 Results" "started again"
pid=$(ui_pid)
if [ -n "$pid" ] && kill -ABRT "$pid"; then
   ui_expect_exit 134 "a crash (SIGABRT) still leaves the terminal restored"
else
   not_ok "a crash (SIGABRT): no process found" "$(ui_screen)"
fi

ui_start 40 10 -- --kernel mygemm01_naive --size 64
ui_expect "terminal too small" "starting too small says so"
ui_keys q
ui_expect_exit 0 "q quits from the too-small screen"

# No OpenCL platform at all: a message, exit 1, terminal untouched. With no backend named,
# the explorer would also take a CUDA or HIP GPU; that path is tried only where there is
# none (where there is one, it would rightly start on it).
# no_device WHAT: the explorer just started with no device to measure on.
no_device() {
   if ui_exited; then ok "$1: it ends"; else not_ok "$1: it ends" "$(ui_screen)"; fi
   if [ "$UI_RC" = 1 ]; then ok "$1: exit 1"; else not_ok "$1: exit 1 (got $UI_RC)" "$(ui_screen)"; fi
   ui_expect "gemmtop: no device to measure on" "$1: the message is on the normal screen"
   ui_expect_exit 1 "$1"
}
mkdir -p "$T_DIR/no-icd"
ui_start 80 24 OCL_ICD_VENDORS="$T_DIR/no-icd" OCL_ICD_FILENAMES= -- --backend opencl
no_device "no OpenCL device, --backend opencl"
if "$GEMMTOP_BIN" list devices --backend cuda >/dev/null 2>&1 || "$GEMMTOP_BIN" list devices --backend hip >/dev/null 2>&1; then
   ok "no device of any backend # SKIP a CUDA or HIP GPU is here: with no OpenCL platform the explorer starts on it"
else
   ui_start_any_device 80 24 OCL_ICD_VENDORS="$T_DIR/no-icd" OCL_ICD_FILENAMES= --
   no_device "no device of any backend"
fi

ui_start 80 24 -- --device 9
ui_expect "no device 9" "--device 9: says which devices there are"
ui_expect_exit 2 "--device 9: a usage error"

# Not a terminal: a clear refusal.
"$GEMMTOP_BIN" </dev/null >"$T_DIR/out" 2>"$T_DIR/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "needs a terminal" "$T_DIR/err"; then
   ok "without a terminal: refused with a message (exit 2)"
else
   not_ok "without a terminal: refused with a message (exit 2, got $rc)" "$(cat "$T_DIR/err")"
fi

# -U: only ASCII on the screen, even in a UTF-8 locale.
utf8=$(locale -a 2>/dev/null | grep -i -m1 -E '^c\.utf-?8$')
ui_start 80 24 LC_ALL="${utf8:-C}" -- -U --kernel mygemm01_naive --size 64
ui_expect_re "verify +ok verified" "-U: verified shown as 'ok'"
ui_expect_re "[0-9]+ launches" "-U: measuring"
if ui_screen | LC_ALL=C grep -q '[^ -~]'; then
   not_ok "-U: nothing but ASCII on the screen" "$(ui_screen | LC_ALL=C grep '[^ -~]')"
else
   ok "-U: nothing but ASCII on the screen"
fi
ui_keys q
ui_expect_exit 0 "-U: q quits"

if [ -n "$utf8" ]; then
   ui_start 80 24 LC_ALL="$utf8" -- --kernel mygemm01_naive --size 64
   ui_expect_re "verify +✓ verified" "UTF-8: a check mark"
   # Braille (U+2800..28FF: e2 a0..a3) or block elements (U+2580..259F: e2 96), once the
   # charts have points to draw.
   chart_glyphs() { printf '%s\n' "$UI_LAST" | LC_ALL=C grep -q "$(printf '\342[\240-\243\226]')"; }
   if ui_wait_for chart_glyphs; then ok "UTF-8: braille or block glyphs in the charts"; else not_ok "UTF-8: braille or block glyphs in the charts" "$UI_LAST"; fi
   ui_keys q
   ui_expect_exit 0 "UTF-8: q quits"
else
   ok "UTF-8 glyphs # SKIP no C.UTF-8 locale here (locale -a)"
fi

# NO_COLOR: attributes but no colours (capture-pane -e shows the escape sequences).
esc=$(printf '\033')
colour="$esc\\[([0-9]*;)*(3[0-7]|4[0-7])(;[0-9]*)*m"
has_colour() { ui_tmux capture-pane -p -e | grep -Eq "$colour"; }
ui_start 80 24 NO_COLOR=1 -- --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "NO_COLOR: up"
if has_colour; then
   not_ok "NO_COLOR: no colour on the screen" "$(ui_tmux capture-pane -p -e | head -5 | cat -v)"
else
   ok "NO_COLOR: no colour on the screen"
fi
ui_keys q
ui_expect_exit 0 "NO_COLOR: q quits"
ui_start 80 24 -- --no-color --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "--no-color: up"
if has_colour; then
   not_ok "--no-color: no colour on the screen" "$(ui_tmux capture-pane -p -e | head -5 | cat -v)"
else
   ok "--no-color: no colour on the screen"
fi
ui_keys q
ui_expect_exit 0 "--no-color: q quits"
ui_start 80 24 -- --kernel mygemm01_naive --size 64
ui_expect_re "verify +[^ ]+ verified" "colours by default"
if has_colour; then
   ok "colours by default: the check sees them"
else
   not_ok "colours by default: the check sees them" "$(ui_tmux capture-pane -p -e | head -5 | cat -v)"
fi
ui_keys q
ui_expect_exit 0 "q quits"
finish
