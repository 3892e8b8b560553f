#!/bin/sh
# The sweep pane (7): S sweeps the current kernel on the current problem as `gemmtop
# sweep` does (core's one sweep: --budget valid configurations proposed by a strategy,
# each measured in a child process, what the results store holds taken); the pane counts
# the progress, names the best verified configuration and what was skipped, and plots
# GFLOPS against a parameter (X picks which) in braille, or in ASCII with -U; B puts the
# best in the kernel pane; c stops a sweep (its measuring child killed) and keeps what it
# measured; Y picks the next sweep's strategy; a sweep again takes what the store holds.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init
utf8=$(locale -a 2>/dev/null | grep -i -m1 -E '^c\.utf-?8$')

# plot_dots [braille|ascii|best]: the points drawn in the sweep pane of the last screen
# polled (braille dots, or '*' cells; the best point's marker, a diamond or '#', counts as
# one), from the line below its title down; best: the markers alone.
plot_dots() {
   printf '%s\n' "$UI_LAST" | python3 -c '
import sys
mode = sys.argv[1]
lines = sys.stdin.read().split("\n")
start = next((i for i, l in enumerate(lines) if " 7 Sweep " in l), None)
n = 0
if start is not None:
    col = lines[start].index(" 7 Sweep ")
    for l in lines[start + 1:]:
        # The plot: a label, then an axis bar, then the points.
        part = l[col:]
        for bar in ("\u2502", "|"):
            if bar in part[:12]:
                plot = part[part.index(bar, 0, 12) + 1:]
                marks = plot.count("\u25c6") + plot.count("#")
                if mode == "best":
                    n += marks
                elif mode == "braille":
                    n += sum(bin(ord(c) - 0x2800).count("1") for c in plot if 0x2800 < ord(c) <= 0x28FF) + marks
                else:
                    n += plot.count("*") + marks
                break
print(n)' "$1"
}

ui_start 120 40 LC_ALL="${utf8:-C}" -- --kernel mygemm03_wpt --size 64 --budget 6
ui_expect_re "verify +[^ ]+ verified" "the starting configuration verifies"
ui_keys 3
ui_keys 7
ui_expect " 7 Sweep  mygemm03_wpt 64x64x64" "7 shows the sweep pane, naming the kernel and the size"
ui_expect "S sweeps mygemm03_wpt on 64x64x64: 6 valid configurations proposed by" \
   "before a sweep, the pane says what S does"
ui_expect "the random strategy (Y changes it" "and by which strategy"
ui_keys S
ui_expect_re "\] [0-6]/6 " "S starts a sweep of 6 configurations"
ui_expect_re "6/6 +done in [0-9.]+ s +\| +[0-9]+ valid of 20: random" "the sweep ends: 6 of the 20 configurations" 120
ui_expect_re "best [0-9.]+ GFLOPS: TS=[0-9]+ WPT=[0-9]+ +\(B applies it\)" "the best verified configuration is named"
ui_expect_re "skipped: [1-9][0-9]* invalid, 0 compile failed, 0 wrong result, 0 timeout" \
   "skipped configurations are counted by reason (the invalid ones dropped before compiling)"
ui_expect_re "GFLOPS│" "the y axis is labelled"
ui_expect_re "TS└ +8 +16 +32 +64" "the x axis is TS, with its values"
dots=$(plot_dots braille)
if [ "$dots" -ge 1 ] && [ "$dots" -le 6 ]; then
   ok "the scatter shows the verified points in braille ($dots dots for 6 configurations)"
else
   not_ok "the scatter shows the verified points in braille ($dots dots for 6 configurations)" "$UI_LAST"
fi
best_marks=$(plot_dots best)
if [ "$best_marks" -eq 1 ]; then
   ok "the best point is marked, once"
else
   not_ok "the best point is marked, once ($best_marks markers)" "$UI_LAST"
fi
ui_expect_re "sweep of mygemm03_wpt done: 6 of 6 verified; best" "the log has the sweep's result"
ui_keys X
ui_expect_re "WPT└ +1 +2 +4 +8 +16" "X plots against WPT"
dots=$(plot_dots braille)
if [ "$dots" -ge 1 ]; then ok "the points are drawn against WPT too"; else not_ok "the points are drawn against WPT too" "$UI_LAST"; fi

# The same sweep again: the store has all six under the sweep's key; none is measured.
ui_keys S
ui_expect_re "6/6 +done in [0-9.]+ s +\| +[0-9]+ valid of 20: random" "S again: a sweep of the same six" 60
ui_expect "6 from the results store, not measured again" "S again takes the six from the results store"
ui_expect_re "sweep: 6 of them taken from the results store" "the log says so"

# B: the best goes to the kernel pane and is measured there.
best=$(ui_line "best [0-9.]+ GFLOPS: " | sed -E 's/.*GFLOPS: (TS=[0-9]+ WPT=[0-9]+).*/\1/')
ui_keys B
ui_expect "applied the sweep's best: mygemm03_wpt $best" "B applies the best ($best)"
ui_expect_re "config +03_wpt $best" "the results pane measures it"
ui_expect_re "status +measuring" "and measures it live"
ui_keys q
ui_expect_exit 0 "q quits"

# -U: the same scatter in ASCII; c stops a sweep and keeps the points measured. (The
# panes shown start afresh, not from the preferences the first run saved.)
rm -rf "$XDG_CONFIG_HOME/gemmtop"
ui_start 120 40 LC_ALL="${utf8:-C}" -- -U --kernel mygemm03_wpt --size 128 --exhaustive
ui_expect_re "verify +ok verified" "-U: the starting configuration verifies"
ui_keys 3 7
ui_expect "128x128x128: every valid configuration" "--exhaustive: the pane says every configuration"
ui_keys S
ui_expect_re "\] +[1-9][0-9]*/[0-9]+ +ETA [0-9]+:[0-9][0-9] +\| +[0-9]+ valid of 20: all" \
   "-U: the sweep runs, with an ETA, over every valid configuration" 120
# Each configuration is measured in a child process of the explorer's.
explorer=$(ui_pid)
measuring() { [ -n "$(pgrep -P "$explorer" -f __measure-child)" ]; }
if ui_wait_for measuring 60; then ok "the sweep measures in a child process"; else not_ok "the sweep measures in a child process" "$(ps -ef | grep gemmtop)"; fi
ui_keys c
ui_expect_re "\] +[0-9]+/[0-9]+ +stopped in [0-9.]+ s" "c stops the sweep"
line=$(ui_line "stopped in")
done_n=$(printf '%s\n' "$line" | sed -E 's/.*\] +([0-9]+)\/([0-9]+).*/\1/')
total_n=$(printf '%s\n' "$line" | sed -E 's/.*\] +([0-9]+)\/([0-9]+).*/\2/')
if [ -n "$done_n" ] && [ "$done_n" -ge 1 ] && [ "$done_n" -lt "$total_n" ]; then
   ok "stopped after $done_n of $total_n"
else
   not_ok "stopped after some of them ($done_n of $total_n)" "$UI_LAST"
fi
not_measuring() { ! measuring; }
if ui_wait_for not_measuring 30; then ok "stopping ends the measuring child"; else not_ok "stopping ends the measuring child" "$(ps -ef | grep gemmtop)"; fi
ui_expect_re "TS\+ +8 +16 +32 +64" "-U: the axis in ASCII"
ui_expect_re "best [0-9.]+ GFLOPS" "-U: the best of those measured is named"
dots=$(plot_dots ascii)
if [ "$dots" -ge 1 ] && [ "$dots" -le "$done_n" ]; then
   ok "-U: the points measured stay, drawn as '*' ($dots for $done_n tried)"
else
   not_ok "-U: the points measured stay, drawn as '*' ($dots for $done_n tried)" "$UI_LAST"
fi
if ui_screen | LC_ALL=C grep -q '[^ -~]'; then
   not_ok "-U: nothing but ASCII on the screen" "$(ui_screen | LC_ALL=C grep '[^ -~]')"
else
   ok "-U: nothing but ASCII on the screen"
fi

# Y: the next sweep's strategy; the sweep of the same space with another strategy takes
# what the stopped one measured from the store and measures the rest.
ui_keys Y
ui_expect "next sweep: random (" "Y: the next strategy after exhaustive is random"
ui_keys Y
ui_expect "next sweep: anneal (" "Y again: anneal"
ui_keys S
ui_expect_re "\] +[0-9]+/[0-9]+ +done in [0-9.]+ s +\| +[0-9]+ valid of 20: anneal" "the anneal sweep ends" 180
line=$(ui_line "done in")
done_n2=$(printf '%s\n' "$line" | sed -E 's/.*\] +([0-9]+)\/([0-9]+).*/\1/')
total_n2=$(printf '%s\n' "$line" | sed -E 's/.*\] +([0-9]+)\/([0-9]+).*/\2/')
if [ -n "$done_n2" ] && [ "$done_n2" = "$total_n2" ] && [ "$total_n2" = "$total_n" ]; then
   ok "it tried every valid configuration ($done_n2 of $total_n2)"
else
   not_ok "it tried every valid configuration ($done_n2 of $total_n2, $total_n valid)" "$UI_LAST"
fi
ui_expect "$done_n from the results store, not measured again" \
   "it takes the $done_n measured before from the store and measures the rest"
ui_keys q
ui_expect_exit 0 "-U: q quits"
finish
