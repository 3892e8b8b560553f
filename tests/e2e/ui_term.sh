#!/bin/sh
# The explorer on a terminal it cannot draw on: TERM unset, unknown or dumb. It once
# started the device's threads first, so that ncurses' exit on an unknown terminal aborted
# with a double free (8 starts in 10), and with TERM=dumb it drew one garbled line. Now
# it refuses at once, saying what to do, with exit status 2: ten starts of each, on a
# real pseudo-terminal.
. "$(dirname "$0")/lib.sh"

# One Python process starts gemmtop 10 times for each TERM and prints, per start, a line
# "TERM EXIT-STATUS OUTPUT" (the output on one line).
cat > "$T_DIR/starts.py" <<'PY'
import os, pty, signal, sys
binary = sys.argv[1]
signal.alarm(120)
for term in sys.argv[2:]:
    env = dict(os.environ)
    if term == "unset":
        env.pop("TERM", None)
    else:
        env["TERM"] = term
    for _ in range(10):
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(binary, [binary, "--kernel", "mygemm01_naive", "--size", "16"], env)
        out = b""
        while True:
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            out += data
        os.close(fd)
        _, status = os.waitpid(pid, 0)
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
        print(term, code, out.decode(errors="replace").replace("\r", " ").replace("\n", " "))
PY
python3 "$T_DIR/starts.py" "$GEMMTOP_BIN" unset dumb nonsense-terminal >"$T_DIR/starts" 2>&1
for term in unset dumb nonsense-terminal; do
   good=$(grep -c "^$term 2 gemmtop: the explorer cannot draw on this terminal: .*set TERM.*gemmtop run" "$T_DIR/starts")
   [ "$good" = 10 ] && ok "TERM $term: 10 starts, each refused with exit 2 and what to do" \
      || not_ok "TERM $term: $good of 10 starts refused as they should" "$(grep "^$term " "$T_DIR/starts" | sort | uniq -c)"
done
expect_in "TERM is not set" "$(grep '^unset ' "$T_DIR/starts" | head -n 1)" "TERM unset: says so"
expect_in "TERM=dumb cannot move the cursor" "$(grep '^dumb ' "$T_DIR/starts" | head -n 1)" "TERM=dumb: says why"
expect_in "TERM=nonsense-terminal is not a terminal type" "$(grep '^nonsense' "$T_DIR/starts" | head -n 1)" \
   "an unknown type is named"
finish
