#!/bin/sh
# cargo-test.sh - runs `cargo test --locked` in one Rust crate and closes with "N passed, N failed".
#
# Usage: targets/rust/cargo-test.sh CARGO CRATE_DIR [cargo test options...]
# CARGO_TARGET_DIR comes from the environment (targets/rust/target.mk sets the
# shared one). cargo prints one "test result:" line per test binary; their
# counts are added up. A build failure, or cargo failing without a result
# line, is one failure.
cargo=$1; dir=$2; shift 2
out=$(cd "$dir" && "$cargo" test --locked -j2 "$@" 2>&1); rc=$?
printf '%s\n' "$out"
passed=$(printf '%s\n' "$out" | sed -nE 's/^test result: [a-zA-Z]+\. ([0-9]+) passed.*/\1/p' | awk '{s += $1} END {print s + 0}')
failed=$(printf '%s\n' "$out" | sed -nE 's/^test result: .* ([0-9]+) failed.*/\1/p' | awk '{s += $1} END {print s + 0}')
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "cargo test in $dir exited $rc"
    failed=1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
