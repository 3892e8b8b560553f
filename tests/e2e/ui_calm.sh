#!/bin/sh
# Calm controls: a stray Esc never pauses (F1, Esc, Esc leaves measuring on); pause and
# cancel say at once that the launch in progress ends first; the wait's elapsed time is
# shown; simulated device limits are marked "simulated" wherever a refusal is shown.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

ui_start 80 24 -- --kernel mygemm01_naive --size 64
ui_expect_re "[0-9]+ launches" "the explorer measures"
ui_keys F1
ui_expect "gemmtop explorer: keys" "F1 opens the help"
ui_keys Escape
ui_expect " 2 Results" "Esc closes the help"
ui_keys Escape
ui_keys Escape
# The keys are read in order: once this z has zoomed, the Escapes before it were handled.
ui_keys z
ui_expect " 1 Kernel  mygemm01_naive" "z zooms the kernel pane"
ui_keys Escape
ui_expect " 2 Results" "Esc leaves the zoom"
if ui_line "paused" >/dev/null; then not_ok "Esc, Esc, Esc did not pause" "$UI_LAST"; else ok "Esc, Esc, Esc did not pause"; fi
ui_more_launches "measuring goes on after the stray Escapes"
ui_keys q
ui_expect_exit 0 "q quits"

# A launch of seconds: naive at 1024 on a CPU. While its first launch runs, Space and c
# are answered at once, before the launch ends (the header says so until it does).
ui_start 100 24 -- --kernel mygemm01_naive --size 1024
ui_expect_re "first launch, verifying [0-9]+\.[0-9] s" "the first launch is said, with its elapsed time" 120
ui_keys Space
ui_expect "pausing: launch ends first" "Space: pausing is said at once"
ui_keys c
ui_expect "cancelling: launch ends first" "c: cancelling is said at once"
ui_expect "cancelling: the launch in progress ends first" "c: the footer says what it waits for"
ui_keys q
ui_expect_exit 0 "q quits during the launch"

# Simulated limits: TS=32 needs 1024 work-items, the simulated device allows 256.
# side_text LEFT|RIGHT REGEX: one side of the divider, its lines joined (the panes wrap).
side_text() {
   if [ "$1" = LEFT ]; then _s='s/│.*//p'; else _s='s/^[^│]*│//p'; fi
   printf '%s\n' "$UI_LAST" | sed -n "$_s" | sed 's/^ *//; s/ *$//' | tr '\n' ' ' | grep -Eq -- "$2"
}
results_marked() { side_text RIGHT "status +not run: .*this device allows 256; .*\(device limits simulated by GEMMTOP_DEVICE_LIMITS\)"; }
kernel_marked() { side_text LEFT "not valid: .*this device allows 256; .*\(device limits simulated by GEMMTOP_DEVICE_LIMITS\)"; }
log_marked() { side_text RIGHT "[0-9:]+ mygemm02_tiled TS=32: not run: .*\(device limits simulated by GEMMTOP_DEVICE_LIMITS\)"; }
ui_start 120 30 GEMMTOP_DEVICE_LIMITS=max_wg=256 -- --kernel mygemm02_tiled --set TS=32 --size 64
ui_expect "[limits simulated]" "the header says the limits are simulated"
for what in results kernel log; do
   if ui_wait_for ${what}_marked 20; then ok "the $what pane marks the refusal simulated"
   else not_ok "the $what pane marks the refusal simulated" "$UI_LAST"; fi
done
ui_keys q
ui_expect_exit 0 "q quits"
finish
