# Shared by the explorer's end-to-end tests (tests/e2e/ui_*.sh), sourced after lib.sh:
# the real program in tmux (its own server per test), the screen polled with timeouts,
# golden screens compared. Sourcing it does nothing but define functions.

# Each test keeps its own preferences and caches.
ui_init() {
   UI_BASE="gemmtop-test-$$-$(basename "$0" .sh)"
   UI_SOCK="$UI_BASE-0"
   UI_STARTS=0
   UI_TIMEOUT=${UI_TIMEOUT:-60}
   export XDG_CONFIG_HOME="$T_DIR/config" XDG_CACHE_HOME="$T_DIR/cache" XDG_DATA_HOME="$T_DIR/data"
   trap 'tmux -L "$UI_SOCK" kill-server >/dev/null 2>&1; rm -rf "$T_DIR"' EXIT
   trap 'exit 1' INT TERM HUP
   if ! command -v tmux >/dev/null 2>&1; then
      echo "ok 1 - # SKIP tmux is not installed"
      exit 0
   fi
}

ui_tmux() { tmux -L "$UI_SOCK" "$@"; }

# ui_start COLS ROWS [ENV=VALUE...] [--] ARGS...: starts gemmtop in a fresh tmux server,
# on PoCL's CPU device unless ARGS name a backend or a device (lib.sh: POCL); afterwards
# its exit code is in $T_DIR/exit and the terminal's modes in $T_DIR/stty.
# ui_start_any_device: the same on the device gemmtop chooses by itself.
ui_start() {
   _cols=$1
   _rows=$2
   shift 2
   _env=""
   while [ $# -gt 0 ]; do
      case "$1" in
      --) shift; break ;;
      *=*) _env="$_env '$1'"; shift ;;
      *) break ;;
      esac
   done
   if [ "${UI_ANY_DEVICE:-0}" != 1 ] && ! names_device "$@"; then
      # After a command word (gemmtop lesson NAME), else first.
      case "${1:-}" in
      -* | "")
         # shellcheck disable=SC2086 # POCL is a list of options
         set -- $POCL "$@"
         ;;
      *)
         _cmd=$1
         shift
         # shellcheck disable=SC2086 # POCL is a list of options
         set -- "$_cmd" $POCL "$@"
         ;;
      esac
   fi
   _args=""
   for _a in "$@"; do _args="$_args '$_a'"; done
   rm -f "$T_DIR/exit" "$T_DIR/stty"
   # A fresh server each time: a server still shutting down must not be reused.
   ui_tmux kill-server >/dev/null 2>&1
   UI_STARTS=$((UI_STARTS + 1))
   UI_SOCK="$UI_BASE-$UI_STARTS"
   _pass=""
   for _v in GEMMTOP_KERNELS GEMMTOP_PRESETS XDG_CONFIG_HOME XDG_CACHE_HOME XDG_DATA_HOME POCL_KERNEL_CACHE POCL_CACHE_DIR ASAN_OPTIONS \
      LSAN_OPTIONS UBSAN_OPTIONS LANG LC_ALL NO_COLOR; do
      eval "_val=\${$_v-__unset__}"
      [ "$_val" = "__unset__" ] || _pass="$_pass $_v='$_val'"
   done
   # The pane outlives the program (sleep 600), so that its last screen can still be read.
   ui_tmux -f /dev/null new-session -d -x "$_cols" -y "$_rows" \
      "env $_pass $_env '$GEMMTOP_BIN' $_args; echo \$? > '$T_DIR/exit.tmp'; stty -a > '$T_DIR/stty' 2>&1; mv '$T_DIR/exit.tmp' '$T_DIR/exit'; sleep 600"
}

ui_start_any_device() {
   UI_ANY_DEVICE=1
   ui_start "$@"
   UI_ANY_DEVICE=0
}

ui_screen() { ui_tmux capture-pane -p 2>/dev/null; }

# The waits below return false (the screen kept in UI_LAST) when what they wait for never
# comes: a test uses that result (ui_expect, or if/&&/|| with not_ok), never ignores it,
# so a wait that times out fails the test with the screen. Poll them, never sleep. Their
# SECONDS (UI_TIMEOUT by default) are an idle machine's: lib.sh's wait_until stretches
# them by the machine's measured slowdown.

# The conditions, on a fresh screen each poll: UI_WANT on it, matched by it, gone.
_ui_has() {
   UI_LAST=$(ui_screen)
   case "$UI_LAST" in *"$UI_WANT"*) return 0 ;; esac
   return 1
}
_ui_matches() {
   UI_LAST=$(ui_screen)
   printf '%s\n' "$UI_LAST" | grep -aEq -- "$UI_WANT"
}
_ui_lacks() { ! _ui_has; }
_ui_holds() {
   UI_LAST=$(ui_screen)
   "$UI_WANT"
}

# ui_wait TEXT [SECONDS]: until TEXT is on the screen.
ui_wait() {
   UI_WANT=$1
   wait_until "${2:-$UI_TIMEOUT}" _ui_has
}

# ui_wait_re REGEX [SECONDS]: the same with an extended regular expression.
ui_wait_re() {
   UI_WANT=$1
   wait_until "${2:-$UI_TIMEOUT}" _ui_matches
}

# ui_wait_for FUNCTION [SECONDS]: until FUNCTION (a shell function that reads the screen in
# UI_LAST) succeeds.
ui_wait_for() {
   UI_WANT=$1
   wait_until "${2:-$UI_TIMEOUT}" _ui_holds
}

# ui_gone TEXT [SECONDS]: until TEXT has left the screen.
ui_gone() {
   UI_WANT=$1
   wait_until "${2:-$UI_TIMEOUT}" _ui_lacks
}

# ui_expect TEXT WHAT [SECONDS]
ui_expect() {
   if ui_wait "$1" "${3:-}"; then ok "$2"; else not_ok "$2: '$1' never showed" "$UI_LAST"; fi
}
ui_expect_re() {
   if ui_wait_re "$1" "${3:-}"; then ok "$2"; else not_ok "$2: /$1/ never showed" "$UI_LAST"; fi
}

# ui_expect_gone TEXT WHAT [SECONDS]
ui_expect_gone() {
   if ui_gone "$1" "${3:-}"; then ok "$2"; else not_ok "$2: '$1' is still there" "$UI_LAST"; fi
}

ui_keys() { ui_tmux send-keys "$@"; }

# ui_resize COLS ROWS: resizes the terminal and waits until the program has drawn itself at
# that size: its footer (which always shows F10 Quit) on the new last row, or its "terminal
# too small ... now COLSxROWS". Until then the screen is the old one, cropped or padded by
# tmux, so nothing on it says anything of the new size. ROWS must differ from the old
# height (an old footer would still be on the last row). A redraw that never comes is a
# failed test (and false).
ui_resize() {
   UI_RESIZE_TO="${1}x$2"
   ui_tmux resize-window -x "$1" -y "$2"
   ui_wait_for ui_drawn_at_size && return 0
   not_ok "resized to $UI_RESIZE_TO: never redrawn at that size" "$UI_LAST"
   return 1
}
ui_drawn_at_size() {
   case "$UI_LAST" in *"now $UI_RESIZE_TO; q quits"*) return 0 ;; esac
   printf '%s\n' "$UI_LAST" | tail -n 1 | grep -aq "Quit"
}

# ui_count: the launch count in the results pane (of the last screen polled).
ui_count() { ui_line "[0-9]+ launches" | sed -E 's/.* ([0-9]+) launches.*/\1/'; }

# ui_more_launches WHAT: the launch count grows (measuring goes on by itself).
_ui_counted_more() {
   UI_LAST=$(ui_screen)
   _n2=$(ui_count)
   [ -n "$_n1" ] && [ -n "$_n2" ] && [ "$_n2" -gt "$_n1" ]
}
ui_more_launches() {
   if ! ui_wait_re "[0-9]+ launches"; then
      not_ok "$1: no launch count on the screen" "$UI_LAST"
      return
   fi
   _n1=$(ui_count)
   if wait_until "$UI_TIMEOUT" _ui_counted_more; then
      ok "$1 ($_n1 then $_n2 launches)"
   else
      not_ok "$1 ($_n1 then $_n2 launches)" "$UI_LAST"
   fi
}

# ui_line REGEX: the first screen line matching REGEX (of the last screen polled).
ui_line() { printf '%s\n' "$UI_LAST" | grep -aE -m1 -- "$1"; }

# ui_exited [SECONDS]: waits for the program to end; sets UI_RC.
ui_exited() {
   if ! wait_until "${1:-$UI_TIMEOUT}" test -f "$T_DIR/exit"; then
      UI_RC=none
      return 1
   fi
   UI_RC=$(cat "$T_DIR/exit")
   return 0
}

# ui_expect_exit CODE WHAT: the program ended with CODE and left the terminal as it was:
# canonical mode and echo back on, the normal screen, the cursor shown, no mouse reports.
ui_expect_exit() {
   if ! ui_exited; then
      not_ok "$2: still running" "$(ui_screen)"
      return
   fi
   if [ "$UI_RC" != "$1" ]; then
      not_ok "$2: exit $UI_RC, wanted $1" "$(ui_screen)"
      return
   fi
   _modes=$(cat "$T_DIR/stty")
   _flags=$(ui_tmux display-message -p '#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{keypad_flag}')
   case " $_modes " in
   *" -icanon "* | *" -echo "* | *" -isig "*)
      not_ok "$2: terminal modes not restored" "$_modes"
      return
      ;;
   esac
   if [ "$_flags" != "0 1 0 0" ]; then
      not_ok "$2: terminal not restored (alternate screen, cursor, mouse, keypad: $_flags)" "$(ui_screen)"
      return
   fi
   ok "$2 (exit $1, terminal restored)"
}

# ui_golden NAME WHAT: the screen equals tests/e2e/golden/NAME (GEMMTOP_UPDATE_GOLDEN=1
# writes it instead).
ui_golden() {
   _file="$(dirname "$0")/golden/$1"
   _got=$(ui_screen)
   if [ -n "${GEMMTOP_UPDATE_GOLDEN:-}" ]; then
      printf '%s\n' "$_got" >"$_file"
      ok "$2 (golden $1 written)"
      return
   fi
   if printf '%s\n' "$_got" | diff -u "$_file" - >"$T_DIR/golden.diff" 2>&1; then
      ok "$2"
   else
      not_ok "$2: differs from golden/$1" "$(cat "$T_DIR/golden.diff")"
   fi
}

# ui_pid: the gemmtop process in the pane.
ui_pid() {
   _sh=$(ui_tmux display-message -p '#{pane_pid}')
   ps -o pid= --ppid "$_sh" 2>/dev/null | head -n 1 | tr -d ' '
}
