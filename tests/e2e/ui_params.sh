#!/bin/sh
# Editing the configuration: a parameter with the arrow keys, an unavailable value and
# its reason, another variant (from the variant row and from the list), pause, cancel.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

# The variant after mygemm01_naive in catalog order.
next=$("$GEMMTOP_BIN" list kernels --format json | python3 -c 'import json,sys
names=[json.loads(l)["name"] for l in sys.stdin]
print(names[names.index("mygemm01_naive")+1])')
short=${next#mygemm}

ui_start 100 30 -- --kernel mygemm01_naive --size 128
ui_expect_re "config +01_naive TSN=16 TSM=16" "starts with the defaults TSN=16 TSM=16"
ui_expect_re "verify +[^ ]+ verified" "the default configuration verifies"

# Down to TSN, Right: the next valid value.
ui_keys Down Right
ui_expect_re "config +01_naive TSN=32 TSM=16" "Right on TSN picks its next value (32)"
ui_expect_re "launch +global 128x128 +local 32x16" "the result is the new configuration's (local 32x16)"
ui_expect_re "verify +[^ ]+ verified" "the new configuration is compiled and verified"
ui_expect_re "01_naive TSN=32 TSM=16 .*[0-9]" "the history has the new configuration"
case "$UI_LAST" in
*"01_naive TSN=16 TSM=16 "*) ok "the history keeps the first configuration" ;;
*) not_ok "the history keeps the first configuration" "$UI_LAST" ;;
esac

# TSM: 16 -> 256 with '+' (unavailable ones too); M=128 refuses 256.
ui_keys Down + + + +
ui_expect_re "config +01_naive TSN=32 TSM=256" "+ steps onto a value that a constraint refuses"
ui_expect "not valid" "the kernel pane says the configuration is not valid"
ui_expect "TSM" "the reason names the parameter"
ui_expect_re "status +not run" "the results pane says it was not run"
# Unavailable values are drawn dim (capture-pane -e shows the attributes).
esc=$(printf '\033')
if ui_tmux capture-pane -p -e | grep "TSM" | grep -q "${esc}\[2m256"; then
   ok "unavailable values are dim"
else
   not_ok "unavailable values are dim" "$(ui_tmux capture-pane -p -e | grep TSM | cat -v)"
fi
ui_keys -- -
ui_expect_re "config +01_naive TSN=32 TSM=128" "- steps back to 128"
ui_expect_re "verify +[^ ]+ verified" "128 runs and verifies"
ui_keys Right
ui_expect "no valid value above 128" "Right skips unavailable values and says so"
ui_expect_re "unavailable here: 256" "the unavailable values are listed with the reason"

# 'd': the defaults again.
ui_keys d
ui_expect_re "config +01_naive TSN=16 TSM=16" "d restores the defaults"

# The variant row: Right is the next variant; each variant keeps its values.
ui_keys Home Down Right
ui_expect_re "config +01_naive TSN=32 TSM=16" "TSN=32 again"
ui_keys Home Right
ui_expect " 1 Kernel  $next" "Right on the variant row switches to the next variant ($next)"
ui_expect_re "config +$short" "the results are of $next"
ui_expect_re "verify +[^ ]+ verified" "$next verifies"
ui_keys ,
ui_expect " 1 Kernel  mygemm01_naive" ", goes back one variant"
ui_expect_re "config +01_naive TSN=32 TSM=16" "the variant's values were remembered"
# The list: End goes to its last row and Enter picks that variant; then back to the
# naive kernel by walking down the list from the top.
last=$("$GEMMTOP_BIN" list kernels --format json | python3 -c 'import json,sys
print([json.loads(l)["name"] for l in sys.stdin][-1])')
ui_keys End Enter
ui_expect " 1 Kernel  $last" "Enter in the variant list picks it ($last)"
# Rows: the variant row, the parameters of $last, then the list.
down=$("$GEMMTOP_BIN" list kernels --format json | python3 -c 'import json,sys
ks=[json.loads(l) for l in sys.stdin]
names=[k["name"] for k in ks]
print(len(ks[-1]["parameters"]) + 1 + names.index("mygemm01_naive"))')
ui_keys Home
i=0
while [ "$i" -lt "$down" ]; do ui_keys Down; i=$((i + 1)); done
ui_keys Enter
ui_expect " 1 Kernel  mygemm01_naive" "Enter on a row of the list picks that variant"
ui_expect_re "config +01_naive TSN=32 TSM=16" "with the values it had"

# The history: Tab to it, Up to an older configuration, Enter goes back to it.
ui_keys Tab Tab
ui_keys Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Home
ui_keys Enter
ui_expect_re "config +01_naive TSN=16 TSM=16" "Enter in the history goes back to its first configuration"
ui_expect_re "verify +[^ ]+ verified" "and measures it again"
ui_keys BTab BTab

# Space pauses and resumes. The header's state says paused once the worker has stopped
# launching (the footer's "paused: space resumes" comes at once, with the key).
ui_expect_re "[0-9]+ launches" "measuring before the pause"
ui_keys Space
ui_expect_re "(❚❚|\|\|) paused" "space pauses"
ui_expect_re "[0-9]+ launches" "paused: the launch count is still shown"
a=$(ui_count)
# Nothing to wait for: what is tested is that no launch comes in this time.
sleep 1.5
ui_expect_re "[0-9]+ launches" "paused: the launch count is still shown, later"
b=$(ui_count)
if [ "$a" = "$b" ]; then ok "paused: no new launches ($a)"; else not_ok "paused: no new launches ($a then $b)" "$UI_LAST"; fi
ui_keys Space
ui_more_launches "space resumes"

# A long run (naive at 1024 on a CPU) cancelled with c.
ui_keys s
ui_expect "Problem setup" "s opens the problem setup"
ui_keys 1 0 2 4 Enter
ui_expect "M=1024 N=1024 K=1024" "the size typed is applied"
# The header's second line: the size and the worker's state together.
ui_expect_re "M=1024 N=1024 K=1024 .*(verifying|measuring)" "the run at 1024 is under way"
ui_keys c
ui_expect_re "M=1024 N=1024 K=1024 .*(❚❚|\|\|) paused" "c cancels the run and pauses"
ui_keys q
ui_expect_exit 0 "q quits"
finish
