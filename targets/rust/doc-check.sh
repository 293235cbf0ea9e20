#!/bin/sh
# doc-check.sh - docs/target-abi.md's Rust adapter must be targets/rust/example, byte for byte; closes with "N passed, N failed".
#
# Usage: sh targets/rust/doc-check.sh (from the repository root). The section
# "Writing an adapter in Rust" quotes the crate's Cargo.toml (its ```toml
# block) and src/lib.rs (its ```rust block); make test builds and runs the
# crate, and this check keeps the quotes from drifting from what was tested.
doc=docs/target-abi.md
passed=0; failed=0
# check LANG FILE: the doc's first ```LANG block equals FILE.
check() {
    tmp=$(mktemp)
    awk -v open="\`\`\`$1" '$0 == open && !done { inblk = 1; next } /^```$/ && inblk { inblk = 0; done = 1; next } inblk { print }' "$doc" > "$tmp"
    if [ -s "$tmp" ] && cmp -s "$tmp" "$2"; then
        echo "PASS $doc quotes $2"; passed=$((passed + 1))
    else
        echo "FAIL $doc: its \`\`\`$1 block differs from $2:"; diff "$tmp" "$2" | head -n 20; failed=$((failed + 1))
    fi
    rm -f "$tmp"
}
check toml targets/rust/example/Cargo.toml
check rust targets/rust/example/src/lib.rs
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
