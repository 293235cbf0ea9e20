#!/bin/sh
# malformed.sh - bcast-run on malformed case files and bad command lines:
# every one must exit 2 with "FILE:LINE: message" (or a usage message), within
# 10 s, in 512 MiB of address space and 256 MiB of RSS. Never a crash, a hang,
# or an allocation sized by a number in the file.
#
#   sh tests/hardening/malformed.sh [BUILD]     (from the repository root)
BUILD=${1:-build}
. tests/hardening/lib.sh

# rec BODY: a one-case file (version line, blank, header lines 3-9, BODY from
# line 10, end). The good body's lines: 10 arg x, 11 values, 12 arg y,
# 13 values, 14 expect, 15 values, then 16 end.
rec() {
    printf 'bcast-cases 1\n\ncase t/1\nsuite seeds\ntags\nrules B1\nop add\nmode value\nsource numpy\n%s\nend\n' "$1"
}
GOOD='arg x f32 (2,) (1,) 0 2
values 0x1p+0 0x1p+1
arg y f32 () () 0 1
values 0x1p+0
expect * ok f32 (2,) exact
values 0x1p+1 0x1.8p+1'
# good SED: the good record with one sed edit applied.
good() { rec "$GOOD" | sed "$1"; }

# bad NAME LINE REGEX: runs bcast-run on $TMP/NAME.cases (bounded); it must
# exit 2 and say "$TMP/NAME.cases:LINE: ..." matching REGEX (grep -E).
bad() {
    f=$TMP/$1.cases
    bounded "$1" --as "$RUN" --target "$REF" --no-color "$f"
    [ "$rc" = 2 ] || fail "$1: exit $rc, expected 2"
    msg=$(head -n 1 "$TMP/$1.err")
    case $msg in
        *"$f:$2: "*) ;;
        *) fail "$1: no '$f:$2:' in: $msg" ;;
    esac
    printf '%s\n' "$msg" | grep -Eq -- "$3" || fail "$1: message does not match /$3/: $msg"
    [ -s "$TMP/$1.out" ] && fail "$1: something on stdout: $(head -c 200 "$TMP/$1.out")"
}

# ---- sanity: the good record itself runs ------------------------------------
good_record_passes() {
    rec "$GOOD" >"$TMP/good.cases"
    bounded good "$RUN" --target "$REF" --no-color "$TMP/good.cases"
    [ "$rc" = 0 ] || fail "good record: exit $rc: $(head -c 300 "$TMP/good.err")"
}

# ---- empty and truncated files -------------------------------------------------
empty_file() { : >"$TMP/empty.cases"; bad empty 1 'empty file'; }
only_blank_lines() { printf '\n\n\n' >"$TMP/blank.cases"; bad blank 1 "bcast-cases"; }
truncated_mid_record() { rec "$GOOD" | head -c 150 >"$TMP/trunc.cases"; bad trunc 13 'values|pattern'; }
truncated_no_end() { rec "$GOOD" | sed '$d' >"$TMP/noend.cases"; bad noend 15 "no 'end'"; }
truncated_mid_values_line() {
    rec "$GOOD" | head -n 11 | sed '$s/ 0x1p+1$/ 0x1/' | head -c -1 >"$TMP/midline.cases"
    bad midline 11 "no 'end'"
}

# ---- format version -------------------------------------------------------------
unknown_format_version() { good 's/^bcast-cases 1$/bcast-cases 2/' >"$TMP/ver2.cases"; bad ver2 1 "version '2'"; }
missing_version_line() { rec "$GOOD" | tail -n +3 >"$TMP/nover.cases"; bad nover 1 'bcast-cases'; }
huge_format_version() {
    good 's/^bcast-cases 1$/bcast-cases 99999999999999999999999/' >"$TMP/verbig.cases"; bad verbig 1 'version'
}

# ---- bad numbers ------------------------------------------------------------------
bad_float_value() { good '11s/0x1p+1/1.5zz/' >"$TMP/badf.cases"; bad badf 11 "1.5zz"; }
int_value_out_of_range() {
    good '10s/f32/u8/;11s/.*/values 1 256/;12s/f32/u8/;13s/.*/values 1/;14s/f32/u8/;15s/.*/values 2 3/' \
        >"$TMP/u8.cases"
    bad u8 11 '256'
}
int64_value_overflows() {
    good '10s/f32/i64/;11s/.*/values 1 99999999999999999999/;12s/f32/i64/;13s/.*/values 1/;14s/f32/i64/;15s/.*/values 2 3/' \
        >"$TMP/i64.cases"
    bad i64 11 '99999999999999999999'
}
bad_offset_number() { good '10s/ 0 2$/ 1e3 2/' >"$TMP/off.cases"; bad off 10 '1e3|offset'; }
offset_overflows_int64() { good '10s/ 0 2$/ 99999999999999999999 2/' >"$TMP/offbig.cases"; bad offbig 10 ''; }
bad_stride_number() { good '10s/(1,)/(x,)/' >"$TMP/stride.cases"; bad stride 10 'x'; }
bad_ulp_number() { good '14s/exact/ulp -3/' >"$TMP/ulp.cases"; bad ulp 14 'ulp|-3'; }

# ---- absurd shapes ------------------------------------------------------------------
negative_extent() { good '10s/(2,) (1,)/(-2,) (1,)/' >"$TMP/neg.cases"; bad neg 10 'negative'; }
extent_2_pow_63() { good '10s/(2,) (1,)/(9223372036854775808,) (1,)/' >"$TMP/e63.cases"; bad e63 10 'shape'; }
extent_2_pow_63_minus_1_addresses_outside() {
    good '10s/(2,) (1,)/(9223372036854775807,) (1,)/' >"$TMP/e63m1.cases"; bad e63m1 10 'storage|address|outside|bound'
}
rank_one_million() {
    { rec "$GOOD" | head -n 9
      awk 'BEGIN { printf "arg x f32 (1"; for (i = 1; i < 1000000; i++) printf ",1"; print ") (1,) 0 2" }'
      rec "$GOOD" | tail -n +11; } >"$TMP/rank.cases"
    bad rank 10 'rank'
}
element_count_overflows() {
    # Strides that really address the elements: the view cannot fit STORAGE.
    good '10s/(2,) (1,) 0 2/(4294967296,4294967296) (4294967296,1) 0 2/' >"$TMP/ovf.cases"
    bad ovf 10 ''
}
expected_count_overflows() {
    good '14s/(2,)/(4294967296,4294967296)/' >"$TMP/eovf.cases"; bad eovf 14 'overflow'
}
huge_storage_rejected() { good '10s/ 0 2$/ 0 1099511627776/' >"$TMP/stor.cases"; bad stor 10 'storage'; }
huge_storage_short_values() {
    # 2^30 f32 elements is allowed storage, but a values line that short must
    # be rejected without first allocating 4 GiB for it.
    good '10s/ 0 2$/ 0 1073741824/' >"$TMP/storv.cases"; bad storv 11 'values'
}
huge_pattern_modulus() {
    good '11s/.*/pattern ramp 1 0 0 0 1/' >"$TMP/pat.cases"; bad pat 11 'M|pattern|ramp'
}

# ---- value counts ----------------------------------------------------------------------
too_few_values() { good '11s/.*/values 0x1p+0/' >"$TMP/few.cases"; bad few 11 'expected 2 values, found 1'; }
too_many_values() { good '11s/$/ 0x1p+0/' >"$TMP/many.cases"; bad many 11 'too many values: expected 2'; }
expect_count_mismatch() { good '15s/$/ 0x1p+0/' >"$TMP/ecnt.cases"; bad ecnt 15 'too many values: expected 2'; }
million_values_for_two() {
    { rec "$GOOD" | head -n 10
      awk 'BEGIN { printf "values"; for (i = 0; i < 1000000; i++) printf " 0"; print "" }'
      rec "$GOOD" | tail -n +12; } >"$TMP/mill.cases"
    bad mill 11 'expected 2'
}

# ---- duplicate ids -----------------------------------------------------------------------
duplicate_id_same_file() {
    { rec "$GOOD"; rec "$GOOD" | tail -n +2; } >"$TMP/dup.cases"
    bad dup 18 "first at $TMP/dup.cases:3"
}
duplicate_id_across_files() {
    mkdir -p "$TMP/two"
    rec "$GOOD" >"$TMP/two/a.cases"; rec "$GOOD" >"$TMP/two/b.cases"
    bounded two --as "$RUN" --target "$REF" "$TMP/two"
    [ "$rc" = 2 ] || fail "two files: exit $rc"
    grep -q "b.cases:3: .*a.cases:3" "$TMP/two.err" || fail "two files: message does not name both places: $(head -c 300 "$TMP/two.err")"
}
duplicate_key() { good '5s/$/\nsuite seeds/' >"$TMP/dupkey.cases"; bad dupkey 6 'suite'; }

# ---- binary garbage ------------------------------------------------------------------------
garbage_with_nul() {
    { printf 'bcast-cases 1\n'; awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 256) }'; } \
        >"$TMP/bin.cases"
    bounded bin --as "$RUN" --target "$REF" "$TMP/bin.cases"
    [ "$rc" = 2 ] || fail "garbage: exit $rc"
    grep -q "^bcast-run: $TMP/bin.cases:[0-9][0-9]*: " "$TMP/bin.err" || fail "garbage: no FILE:LINE: $(head -c 300 "$TMP/bin.err")"
}
garbage_without_nul() {
    # Bytes 1..255 only, after a valid version line: no NUL shortcut.
    { printf 'bcast-cases 1\n'; awk 'BEGIN { srand(11); for (i = 0; i < 65536; i++) printf "%c", 1 + int(rand() * 255) }'; } \
        >"$TMP/bin2.cases"
    bounded bin2 --as "$RUN" --target "$REF" "$TMP/bin2.cases"
    [ "$rc" = 2 ] || fail "garbage: exit $rc"
    grep -q "^bcast-run: $TMP/bin2.cases:[0-9][0-9]*: " "$TMP/bin2.err" || fail "garbage: no FILE:LINE: $(head -c 300 "$TMP/bin2.err")"
}
garbage_from_start() {
    awk 'BEGIN { srand(3); for (i = 0; i < 1024; i++) printf "%c", 1 + int(rand() * 255) }' >"$TMP/bin3.cases"
    bad bin3 1 ''
}

# ---- the command line --------------------------------------------------------------------------
# usage NAME ARGS...: exit 2, a message and the usage text on stderr, nothing on stdout.
usage() {
    uname=$1; shift
    bounded "$uname" --as "$RUN" "$@"
    [ "$rc" = 2 ] || fail "$uname ($*): exit $rc, expected 2"
    grep -q '^usage: bcast-run' "$TMP/$uname.err" || fail "$uname ($*): no usage on stderr: $(head -c 200 "$TMP/$uname.err")"
    [ -s "$TMP/$uname.out" ] && fail "$uname ($*): output on stdout"
}
bad_command_lines() {
    rec "$GOOD" >"$TMP/cli.cases"
    usage c1 --bogus "$TMP/cli.cases"
    usage c2 --jobs
    usage c3 --jobs abc "$TMP/cli.cases"
    usage c4 --jobs 0 "$TMP/cli.cases"
    usage c5 --jobs 257 "$TMP/cli.cases"
    usage c6 --jobs 99999999999999999999 "$TMP/cli.cases"
    usage c7 --timeout -1 "$TMP/cli.cases"
    usage c8 --timeout nan "$TMP/cli.cases"
    usage c9 --timeout 1e400 "$TMP/cli.cases"
    usage c10 --shard 0/2 "$TMP/cli.cases"
    usage c11 --shard 3/2 "$TMP/cli.cases"
    usage c12 --shard x "$TMP/cli.cases"
    usage c13 --format yaml "$TMP/cli.cases"
    usage c14 --profile jax "$TMP/cli.cases"
    usage c15 show
}
bad_paths() {
    bounded p1 --as "$RUN" --target "$REF" "$TMP/does-not-exist.cases"
    [ "$rc" = 2 ] || fail "missing case file: exit $rc"
    grep -q "does-not-exist.cases" "$TMP/p1.err" || fail "missing case file not named: $(head -c 200 "$TMP/p1.err")"
    rec "$GOOD" >"$TMP/p.cases"
    bounded p2 "$RUN" --target "$REF" --format json --output "$TMP/no/such/dir/r.json" "$TMP/p.cases"
    [ "$rc" = 2 ] || fail "unwritable output: exit $rc"
    grep -q "no/such/dir/r.json" "$TMP/p2.err" || fail "unwritable output not named: $(head -c 200 "$TMP/p2.err")"
    printf 'bad line without a reason\n%s\n' '[' >"$TMP/p.expect"
    bounded p3 --as "$RUN" --target "$REF" --expectations "$TMP/no-such.expect" "$TMP/p.cases"
    [ "$rc" = 2 ] || fail "missing expectations file: exit $rc"
}

if [ ! -x "$RUN" ] || [ ! -f "$REF" ]; then
    echo "FAIL malformed: $RUN or $REF missing"; echo "0 passed, 1 failed"; exit 1
fi
for test in good_record_passes empty_file only_blank_lines truncated_mid_record truncated_no_end \
    truncated_mid_values_line unknown_format_version missing_version_line huge_format_version \
    bad_float_value int_value_out_of_range int64_value_overflows bad_offset_number \
    offset_overflows_int64 bad_stride_number bad_ulp_number negative_extent extent_2_pow_63 \
    extent_2_pow_63_minus_1_addresses_outside rank_one_million element_count_overflows \
    expected_count_overflows huge_storage_rejected huge_storage_short_values huge_pattern_modulus \
    too_few_values too_many_values expect_count_mismatch million_values_for_two \
    duplicate_id_same_file duplicate_id_across_files duplicate_key garbage_with_nul \
    garbage_without_nul garbage_from_start bad_command_lines bad_paths; do
    t "$test"
done
finish
