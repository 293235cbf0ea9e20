#!/bin/sh
# run-tests.sh - runs each test command given as an argument, adds up their
# closing "N passed, N failed" lines, and prints the total as the last line.
# A command that exits non-zero without such a line counts as one failure.
passed=0; failed=0; skipped=0
for cmd in "$@"; do
    echo "== $cmd"
    out=$(sh -c "$cmd" 2>&1); rc=$?
    printf '%s\n' "$out"
    last=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -n "$last" ]; then
        p=$(echo "$last" | sed -E 's/^([0-9]+) passed.*/\1/')
        f=$(echo "$last" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
        s=$(echo "$last" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
        passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            echo "!! $cmd exited $rc"; failed=$((failed + 1))
        fi
    else
        echo "!! $cmd printed no 'N passed, N failed' line (exit $rc)"
        failed=$((failed + 1))
    fi
done
[ "$skipped" -gt 0 ] && echo "($skipped skipped, see the lines above for why)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
