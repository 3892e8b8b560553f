#!/bin/sh
# A kernel that does not compile: the results pane says so, the log pane shows the
# compiler's messages with the kernel file's line numbers, and the explorer stays up;
# fixing the file on disk recompiles it by itself, and r reloads by hand.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ui_lib.sh"
ui_init

mkdir -p "$T_DIR/kernels"
# A copy of the shipped folder (the first of GEMMTOP_KERNELS) with the broken kernel added.
shipped=${GEMMTOP_KERNELS%%:*}
cp -R "$shipped/." "$T_DIR/kernels/"
src="$shipped/mygemm01_naive.cl"
line=$(grep -n 'GT_FMA(acc, a, b);' "$src" | head -n 1 | cut -d: -f1)
# Named to sort right after mygemm01_naive, so ',' and '.' move between the two.
sed -e 's/^name: .*/name:     mygemm01_zz_broken/' -e 's/^title: .*/title:    Broken on purpose (a test)/' \
   -e "${line}s/GT_FMA(acc, a, b);/GT_FMA(acc, a, b + undefined_thing);/" "$src" >"$T_DIR/broken.cl"
cp "$T_DIR/broken.cl" "$T_DIR/kernels/zz_broken.cl"
export GEMMTOP_KERNELS="$T_DIR/kernels"

ui_start 100 30 -- --kernel mygemm01_zz_broken --size 64
ui_expect " 1 Kernel  mygemm01_zz_broken" "starts on the broken kernel"
ui_expect_re "status +compile error" "the results pane says compile error"
ui_expect "zz_broken.cl:$line:" "the log shows the compiler's message at the kernel file's line $line"
ui_expect "undefined_thing" "the message names the undeclared identifier"
# After the error is drawn: the program has not ended and its screen is the explorer's.
if [ ! -f "$T_DIR/exit" ] && ui_wait " 1 Kernel" 5; then
   ok "the explorer is still up"
else
   not_ok "the explorer is still up" "$UI_LAST"
fi

# Another variant runs meanwhile.
ui_keys ,
ui_expect " 1 Kernel  mygemm01_naive" ", goes to the previous variant"
ui_expect_re "verify +[^ ]+ verified" "which compiles and verifies"
ui_keys .
ui_expect " 1 Kernel  mygemm01_zz_broken" "back on the broken kernel"
ui_expect_re "status +compile error" "still a compile error"

# Fixed on disk: reloaded and measured without a key.
sed "${line}s/ + undefined_thing//" "$T_DIR/broken.cl" >"$T_DIR/kernels/zz_broken.cl.tmp"
mv "$T_DIR/kernels/zz_broken.cl.tmp" "$T_DIR/kernels/zz_broken.cl"
ui_expect_re "verify +[^ ]+ verified" "the fixed kernel compiles and verifies"
# The reload's line is in the log; the lines after it (the verification, the vendor BLAS)
# push it out of the small log pane within a fraction of a second when the compile is
# quick, so it is read from the log pane zoomed: Tab to the log, z.
ui_keys Tab Tab Tab z
ui_expect " 4 Log" "Tab Tab Tab z: the log pane, zoomed"
ui_expect_gone " 2 Results" "alone on the screen" 10
ui_expect "kernels reloaded (a file changed)" "a changed kernel file is noticed (the log says so)"
ui_keys z Tab
ui_expect " 2 Results" "z: the panes again"

# Broken again, reloaded with r.
cp "$T_DIR/broken.cl" "$T_DIR/kernels/zz_broken.cl"
ui_keys r
ui_expect_re "status +compile error" "r reloads: the compile error is back"
ui_keys q
ui_expect_exit 0 "q quits"
finish
