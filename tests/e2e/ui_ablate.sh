#!/bin/sh
# Ablation in the explorer: a cycles none, no-a, no-b, no-fma, const-store, no-a,no-b and
# back; an ablated run is labelled in the results pane and in the history, never
# verified, never the best entry, and a real run comes back verified.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

ui_start 120 40 -- --kernel mygemm02_tiled --size 128
ui_expect_re "verify +[^ ]+ verified" "a real run first: verified"
ui_keys a
ui_expect_re "ABLATED +no-a: work switched off" "a: the results pane says ABLATED no-a"
ui_expect_re "verify +ablated \(not verified\)" "a: the ablated run is not verified"
ui_expect_re "speed +[0-9.]+ .*GB/s global .*GB/s to the cores" "a: speed with global and core GB/s"
ui_expect_re "ABLATED no-a: 02_tiled TS=32 .*[0-9]" "a: the history entry is labelled ABLATED no-a"
line=$(ui_line "ABLATED no-a: 02_tiled")
case "$line" in
\**) not_ok "an ablated entry is never marked best" "$line" ;;
*) ok "an ablated entry is never marked best" ;;
esac
for next in no-b no-fma const-store no-a,no-b; do
   ui_keys a
   ui_expect_re "ABLATED +$next: work switched off" "a again: $next in the results pane"
   ui_expect_re "ABLATED $next: 02_tiled TS=32 .*[0-9]" "a again: $next measured, labelled in the history"
done
ui_keys a
ui_expect_re "ablation off: real, verified runs" "a again: ablation off"
ui_expect_re "verify +[^ ]+ verified" "a real run again: verified"
case "$UI_LAST" in
*"ABLATED no-a: 02_tiled"*"ABLATED no-a,no-b: 02_tiled"*) ok "the ablated entries stay in the history, labelled" ;;
*) not_ok "the ablated entries stay in the history, labelled" "$UI_LAST" ;;
esac
ui_keys q
ui_expect_exit 0 "q quits"
finish
