#!/bin/sh
# Options on the real program: each command's --help comes from the options table; an
# option a command does not take, a missing, empty or out-of-range value are usage
# errors (exit 2) that name the option; --set and --preset say what is wrong. Nothing
# here compiles a kernel.
. "$(dirname "$0")/lib.sh"

run_gemmtop run --help
expect_rc 0 "run --help"
expect_in "usage: gemmtop run [options]" "$OUT" "run --help names the command"
expect_in "--vendor" "$OUT" "run --help lists --vendor"
case "$OUT" in *--jobs*) not_ok "run --help lists only run's options" "$OUT" ;; *) ok "run --help lists only run's options" ;; esac
expect_in "--reps R                   timed launches (1 to 1024; default 10)" "$OUT" "with each one's range and default"
run_gemmtop bench --help
rounds=$(printf '%s\n' "$OUT" | grep -A1 -- '--rounds R')
expect_in "take turns" "$rounds" "bench --help: --rounds has its own text"
case "$rounds" in *cuBLAS*) not_ok "bench --help: not --reference's under --rounds" "$rounds" ;; *) ok "bench --help: not --reference's under --rounds" ;; esac
run_gemmtop --help
expect_in "options of the explorer:" "$OUT" "--help gives the explorer's options"
expect_in "'gemmtop COMMAND --help'" "$OUT" "and says where the commands' are"

# An option the command does not take was accepted in silence.
run_gemmtop list kernels --jobs 4 --site 3
expect_rc 2 "list kernels --jobs is a usage error"
expect_in "--jobs is for 'gemmtop sweep' and 'gemmtop tune', not for 'gemmtop list'" "$ERR" "naming the option, its command and this one"
expect_in "see 'gemmtop list --help'" "$ERR" "pointing at the command's help"
run_gemmtop --kernel mygemm01_naive --reps 3
expect_rc 2 "the explorer does not take --reps"
expect_in "--reps is for 'gemmtop run', 'gemmtop sweep', 'gemmtop bench', 'gemmtop explain' and 'gemmtop tune', not for the explorer" "$ERR" "saying so"

# A missing value: the next option was taken as the value ("run takes no argument '64'").
run_gemmtop run --kernel --size 64
expect_rc 2 "run --kernel --size 64"
expect_in "--kernel is missing its value (NAME): the next word, '--size', is an option" "$ERR" "names the option without its value"
run_gemmtop run --device '' --kernel mygemm01_naive
expect_rc 2 "an empty --device is refused"
expect_in "--device needs a value (N|NAME|KIND), not an empty word" "$ERR" "saying what it needs"

# Every number names its range; nan is not a number of seconds.
run_gemmtop run --kernel mygemm01_naive --warmup 2000000
expect_rc 2 "--warmup 2000000"
expect_in "--warmup 2000000: use 0 to 1048576" "$ERR" "names the range of --warmup"
run_gemmtop run --kernel mygemm01_naive --max-seconds nan
expect_rc 2 "--max-seconds nan is refused"
expect_in "--max-seconds nan: use more than 0, at most 86400" "$ERR" "with the valid range"
run_gemmtop run --kernel mygemm01_naive --seed -1
expect_rc 2 "a negative --seed is refused, not wrapped"

# --set with a long name: there is no such parameter (it said "expects PARAM=VALUE").
name=$(python3 -c 'print("P" * 70)')
run_gemmtop run --kernel mygemm01_naive --set "$name=4"
expect_rc 2 "--set with a 70-character name"
expect_in "kernel mygemm01_naive has no parameter $name; its parameters: TSN, TSM" "$ERR" "says the kernel has no such parameter"

# A preset naming a kernel that is not there: the message closes its parenthesis.
printf 'kernel = no_such_kernel\n' >"$T_DIR/lost.preset"
run_gemmtop run --preset "$T_DIR/lost.preset"
expect_rc 2 "a preset naming a missing kernel"
expect_in "no kernel named 'no_such_kernel' (named by preset $T_DIR/lost.preset); see" "$ERR" "names the preset in closed parentheses"
finish
