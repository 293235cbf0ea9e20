/* test_runner.c - unit tests of the runner: parser, comparison, fnv1a64, filters, shards, expectations. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "bcast_ref.h"
#include "case/caseio.h"
#include "judge/compare.h"
#include "judge/judge.h"
#include "target/skip.h"
#include "case/view.h"
#include "results/report.h"
#include "results/expect.h"
#include "results/case_features.h"
#include "results/findings.h"
#include "judge/message_norm.h"
#include "case/select.h"

static const char two_cases[] =
    "bcast-cases 1\n"
    "case a/one\nsuite s\ntags\nrules B1\nop add\nmode value\nsource numpy\n"
    "arg x i32 (2,) (1,) 0 2\nvalues 1 2\narg y i32 () () 0 1\nvalues 3\n"
    "expect * ok i32 (2,) exact\nvalues 4 5\nend\n"
    "case b/two\nsuite s\ntags\nrules B1\nop add\nmode value\nsource numpy\n"
    "arg x i32 (2,) (1,) 0 2\nvalues 1 2\narg y i32 () () 0 1\nvalues 3\n"
    "expect * ok i32 (2,) exact\nvalues 4 5\nend\n";

static const char good_case[] =
    "bcast-cases 1\n"
    "# case-set 2026-11-22\n"
    "\n"
    "case binary/add/i32/(2,1)x(3,)\n"
    "suite exhaustive\n"
    "tags rank-mismatch stretch\n"
    "rules B1 B2\n"
    "op add\n"
    "mode value\n"
    "source numpy torch\n"
    "arg x i32 (2,1) (1,1) 0 2\n"
    "values 1 2\n"
    "arg y i32 (3,) (1,) 0 3\n"
    "values 10 20 30\n"
    "expect * ok i32 (2,3) exact\n"
    "values 11 21 31 12 22 32\n"
    "end\n";

/* Parses text as file "t.cases"; returns the loader's status, err filled. */
static int load_text(br_caseset *cs, const char *text, br_err *err)
{
    memset(cs, 0, sizeof *cs);
    size_t n = strlen(text);
    char *b = malloc(n + 1);
    memcpy(b, text, n + 1);
    int rc = br_load_buffer(cs, "t.cases", b, n, err);
    if (rc == 0) rc = br_finish(cs, err);
    return rc;
}

/* text with the first occurrence of `from` replaced by `to` (malloc'd), or NULL. */
static char *replace_in(const char *text, const char *from, const char *to)
{
    const char *p = strstr(text, from);
    if (p == NULL) return NULL;
    size_t a = (size_t)(p - text), fl = strlen(from), tl = strlen(to), n = strlen(text);
    char *s = malloc(n - fl + tl + 1);
    memcpy(s, text, a);
    memcpy(s + a, to, tl);
    memcpy(s + a + tl, p + fl, n - a - fl + 1);
    return s;
}

/* good_case with the first occurrence of `from` replaced by `to`. */
static char *mutate(const char *from, const char *to)
{
    return replace_in(good_case, from, to);
}

/* Expects loading text to fail with an error containing want (file:line included). */
static void expect_error(const char *text, const char *want)
{
    br_caseset cs;
    br_err err;
    err.msg[0] = '\0';
    int rc = load_text(&cs, text, &err);
    CHECK(rc == -1);
    if (rc != -1 || strstr(err.msg, want) == NULL)
        fprintf(stderr, "  for error '%s' got '%s'\n", want, rc == -1 ? err.msg : "(no error)");
    CHECK(rc == -1 && strstr(err.msg, want) != NULL);
    br_caseset_free(&cs);
}

static void expect_mutation_error(const char *from, const char *to, const char *want)
{
    char *s = mutate(from, to);
    CHECK(s != NULL);
    if (s == NULL) return;
    expect_error(s, want);
    free(s);
}

/* B34: weak scalars read as 0-d I64/F64/BOOL marked weak; malformed ones are refused by name. */
static void test_weak_scalar_args(void)
{
    static const char weak_case[] =
        "bcast-cases 1\n"
        "case w/one\nsuite weak\ntags weak-scalar\nrules B34\nop add\nmode value\nsource numpy\n"
        "arg x i32 (2,) (1,) 0 2\nvalues 1 2\narg y weak-int () () 0 1\nvalues 1000\n"
        "expect * ok i32 (2,) exact\nvalues 1001 1002\nend\n";
    br_caseset cs;
    br_err err;
    CHECK(load_text(&cs, weak_case, &err) == 0);
    if (cs.n == 1) {
        const br_arg *y = &cs.cases[0].args[1];
        CHECK(y->weak && y->dtype == BCT_I64 && y->rank == 0);
        CHECK_STREQ(br_arg_dtype_name(y), "weak-int");
        CHECK(!cs.cases[0].args[0].weak);
    }
    br_caseset_free(&cs);
    char *s = replace_in(weak_case, "weak-int () () 0 1\nvalues 1000", "weak-int (1,) (1,) 0 1\nvalues 1000");
    expect_error(s, "a weak scalar (weak-int) has shape (), strides (), offset 0 and storage 1");
    free(s);
    s = replace_in(weak_case, "values 1000", "values 1.5");
    expect_error(s, "t.cases:12: bad i64 value '1.5' (arg y is weak-int: a decimal int within int64)");
    free(s);
    s = replace_in(weak_case, "weak-int", "weak-complex");
    expect_error(s, "unknown dtype 'weak-complex'");
    free(s);
    s = replace_in(weak_case, "values 1000", "pattern ramp 0 1 2 0 1");
    expect_error(s, "a weak scalar takes a values line, not a pattern");
    free(s);
    s = replace_in(weak_case, "arg x i32 (2,) (1,) 0 2\nvalues 1 2\narg y weak-int () () 0 1\nvalues 1000",
                   "arg x weak-int () () 0 1\nvalues 1\narg y i32 (2,) (1,) 0 2\nvalues 1 2");
    {   /* in-place with a weak self */
        char *t = replace_in(s, "mode value", "mode inplace");
        expect_error(t, "a weak scalar cannot be the written arg");
        free(t);
    }
    free(s);
}

static void test_valid_record_round_trips(void)
{
    br_caseset cs;
    br_err err;
    CHECK(load_text(&cs, good_case, &err) == 0);
    CHECK_EQ_I64(cs.n, 1);
    const br_case *c = &cs.cases[0];
    CHECK_STREQ(c->id, "binary/add/i32/(2,1)x(3,)");
    CHECK_STREQ(c->suite, "exhaustive");
    CHECK_STREQ(c->tags, "rank-mismatch stretch");
    CHECK_STREQ(c->rules, "B1 B2");
    CHECK_STREQ(cs.caseset_version, "2026-11-22");
    CHECK_EQ_I64(c->op, BCT_ADD);
    CHECK_EQ_I64(c->nargs, 2);
    CHECK_EQ_I64(c->args[0].rank, 2);
    CHECK_EQ_I64(c->args[0].shape[0], 2);
    CHECK_EQ_I64(((const int32_t *)c->args[1].data)[2], 30);
    CHECK_EQ_I64(c->nexpect, 1);
    CHECK_EQ_I64(c->expect[0].profile, BR_PROFILE_ANY);
    CHECK_EQ_I64(c->expect[0].nelem, 6);
    CHECK_EQ_I64(((const int32_t *)c->expect[0].values)[5], 32);
    CHECK_EQ_I64(c->line, 4);
    br_caseset_free(&cs);
}

static void test_header_errors(void)
{
    expect_error("", "t.cases:1: empty file");
    expect_error("bcast-cases 2\n", "t.cases:1: unknown format version '2'");
    expect_error("hello\n", "t.cases:1: not a bcast case file");
    expect_error("bcast-cases 1\n\x01\x02garbage\n", "t.cases:2: control character");
    char bin[] = "bcast-cases 1\ncase a\0b\n";
    br_caseset cs;
    br_err err;
    memset(&cs, 0, sizeof cs);
    char *b = malloc(sizeof bin);
    memcpy(b, bin, sizeof bin);
    CHECK(br_load_buffer(&cs, "t.cases", b, sizeof bin - 1, &err) == -1);
    CHECK(strstr(err.msg, "t.cases:2: binary data") != NULL);
    br_caseset_free(&cs);
}

static void test_truncated_files(void)
{
    /* cut the file at every line boundary: never a crash, always file:line */
    for (size_t cut = 14; cut < sizeof good_case - 2; cut++) {
        if (good_case[cut - 1] != '\n') continue;
        char *s = malloc(cut + 1);
        memcpy(s, good_case, cut);
        s[cut] = '\0';
        br_caseset cs;
        br_err err;
        int rc = load_text(&cs, s, &err);
        /* only the cut right after the comment/blank lines leaves a valid (empty) file */
        if (rc == 0) CHECK(cs.n == 0);
        else CHECK(strncmp(err.msg, "t.cases:", 8) == 0);
        br_caseset_free(&cs);
        free(s);
    }
    expect_error("bcast-cases 1\ncase a\nsuite s\nop add\n", "truncated: case a has no 'end'");
    /* a values line cut short */
    expect_mutation_error("values 10 20 30\n", "values 10 20\n", "t.cases:14: expected 3 values, found 2");
}

static void test_bad_numbers_and_values(void)
{
    expect_mutation_error("values 10 20 30", "values 10 2x 30", "t.cases:14: bad i32 value '2x'");
    expect_mutation_error("values 10 20 30", "values 10 20 30 40", "t.cases:14: too many values");
    expect_mutation_error("values 10 20 30", "values 10 20 3000000000", "out of range for i32");
    expect_mutation_error("values 10 20 30", "values 10 20 99999999999999999999999", "bad i32 value");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3", "arg y i32 (3,) (1,) zero 3", "t.cases:13: bad offset");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3", "arg y i32 (3,) (1,) 0 -3", "storage -3 outside");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30", "arg y f32 (3,) (1,) 0 3\nvalues 1 0x1p+200 nan",
                          "out of range for f32");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30", "arg y u8 (3,) (1,) 0 3\nvalues 1 256 3",
                          "out of range for u8");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30", "arg y bool (3,) (1,) 0 3\nvalues 1 2 0",
                          "out of range for bool");
}

/* [-]nan(0xP) args (docs/case-format.md): stored bit for bit, signalling NaNs
 * included; a zero or too wide payload is refused. */
static void test_nan_payloads(void)
{
    char *s = mutate("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30",
                     "arg y f32 (3,) (1,) 0 3\nvalues nan(0x1) -nan(0x4005a5) nan");
    br_caseset cs;
    br_err err;
    CHECK(s != NULL);
    if (s == NULL) return;
    CHECK(load_text(&cs, s, &err) == 0);
    const uint32_t *b = cs.cases[0].args[1].data;
    CHECK(b[0] == 0x7f800001u && b[1] == 0xffc005a5u && b[2] == 0x7fc00000u);
    br_caseset_free(&cs);
    free(s);
    s = mutate("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30", "arg y f64 (3,) (1,) 0 3\nvalues 1 -nan(0x1) 2");
    CHECK(s != NULL && load_text(&cs, s, &err) == 0);
    const uint64_t *d = cs.cases[0].args[1].data;
    CHECK(d[1] == 0xfff0000000000001ull);
    br_caseset_free(&cs);
    free(s);
    expect_mutation_error("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30", "arg y f32 (3,) (1,) 0 3\nvalues 1 nan(0x0) 2",
                          "bad NaN payload 'nan(0x0)' for f32");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30", "arg y f32 (3,) (1,) 0 3\nvalues 1 nan(0x800000) 2",
                          "bad NaN payload");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30", "arg y f64 (3,) (1,) 0 3\nvalues 1 nan(0x1 2",
                          "bad NaN payload");
}

/* The reader's own hex-float and integer paths (fast_hexfloat, fast_i64)
 * must give exactly what strtod/strtoll give, for every kind of token the
 * generator writes: normals, subnormals, signed zeros, extremes, decimals. */
static void test_number_fast_paths_agree_with_libc(void)
{
    enum { N = 400 };
    static char text[N * 40 + 4096];
    char toks[N][40];
    uint64_t state = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < N; i++) {
        double d;
        if (i < 8) {
            static const double fixed[8] = { 0.0, -0.0, 1.5, -2.75, 4.9406564584124654e-324,
                                             2.2250738585072014e-308, 1.7976931348623157e308, -1e-310 };
            d = fixed[i];
        } else do {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17;
            memcpy(&d, &state, sizeof d);
        } while (!isfinite(d));
        if (i % 50 == 49) snprintf(toks[i], sizeof toks[i], "%.17g", d);   /* decimal: strtod's path */
        else snprintf(toks[i], sizeof toks[i], "%a", d);
    }
    size_t o = (size_t)snprintf(text, sizeof text,
        "bcast-cases 1\ncase t\nsuite s\nop add\nmode value\narg x f64 (%d,) (1,) 0 %d\nvalues", N, N);
    for (int i = 0; i < N; i++) o += (size_t)snprintf(text + o, sizeof text - o, " %s", toks[i]);
    static const char *const ints[] = { "0", "-0", "7", "-9223372036854775808", "9223372036854775807",
                                        "999999999999999999", "-1000000000000000000", "+5" };
    enum { NI = sizeof ints / sizeof ints[0] };
    o += (size_t)snprintf(text + o, sizeof text - o, "\narg y i64 (%d,) (1,) 0 %d\nvalues", NI, NI);
    for (int i = 0; i < NI; i++) o += (size_t)snprintf(text + o, sizeof text - o, " %s", ints[i]);
    snprintf(text + o, sizeof text - o, "\nexpect * ok f64 (1,) exact\nvalues 0x1p+0\nend\n");
    br_caseset cs;
    br_err err;
    int rc = load_text(&cs, text, &err);
    if (rc != 0) fprintf(stderr, "  %s\n", err.msg);
    CHECK(rc == 0);
    if (rc != 0) { br_caseset_free(&cs); return; }
    const double *x = cs.cases[0].args[0].data;
    int same = 1;
    for (int i = 0; i < N; i++) {
        double want = strtod(toks[i], NULL);
        if (memcmp(&want, &x[i], sizeof want) != 0) {
            fprintf(stderr, "  %s read as %a, strtod gives %a\n", toks[i], x[i], want);
            same = 0;
        }
    }
    CHECK(same);
    const int64_t *y = cs.cases[0].args[1].data;
    for (int i = 0; i < NI; i++) CHECK_EQ_I64(y[i], strtoll(ints[i], NULL, 10));
    br_caseset_free(&cs);
    /* beyond double's range: an error, not inf */
    expect_mutation_error("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30", "arg y f64 (3,) (1,) 0 3\nvalues 1 0x1p+1024 2",
                          "bad f64 value '0x1p+1024'");
}

static void test_bad_shapes(void)
{
    expect_mutation_error("arg y i32 (3,)", "arg y i32 (-3,)", "t.cases:13: arg y: negative extent");
    expect_mutation_error("arg y i32 (3,)", "arg y i32 (9223372036854775808,)", "bad shape");
    expect_mutation_error("arg y i32 (3,)", "arg y i32 (3", "bad shape");
    expect_mutation_error("arg y i32 (3,) (1,)", "arg y i32 (3,) (1,1)", "2 strides for rank 1");
    /* huge extents with stride 0 stay inside a one-element storage (B16 cases) */
    expect_mutation_error("arg y i32 (3,) (1,)", "arg y i32 (4611686018427387904,4611686018427387904) (1,1)",
                          "outside its storage");
    /* rank 10^6: rejected by counting commas, before anything is allocated */
    size_t n = 1000000;
    char *big = malloc(2 * n + 16);
    size_t o = 0;
    big[o++] = '(';
    for (size_t i = 0; i < n; i++) { big[o++] = '1'; big[o++] = ','; }
    big[o++] = ')';
    big[o] = '\0';
    size_t tl = strlen("arg y i32 ") + o + 1;
    char *line = malloc(tl);
    snprintf(line, tl, "arg y i32 %s", big);
    expect_mutation_error("arg y i32 (3,)", line, "rank above 128");
    free(line);
    free(big);
}

static void test_views_outside_storage(void)
{
    expect_mutation_error("arg y i32 (3,) (1,) 0 3", "arg y i32 (3,) (1,) 1 3", "the view addresses elements outside its storage");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3", "arg y i32 (3,) (-1,) 0 3", "outside its storage");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3", "arg y i32 (3,) (4611686018427387904,) 0 3", "outside its storage");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30",
                          "arg y i32 (3,) (1,) 0 3000000000\nvalues 1", "storage 3000000000 outside");
    /* values above the values-line cap need a pattern */
    expect_mutation_error("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30",
                          "arg y i32 (3,) (0,) 0 100000000\nvalues 1", "too many for a values line");
}

static void test_record_structure_errors(void)
{
    expect_mutation_error("suite exhaustive\n", "suite exhaustive\nsuite ops\n", "t.cases:6: key 'suite' repeats");
    expect_mutation_error("op add\n", "op frobnicate\n", "t.cases:8: unknown op 'frobnicate'");
    expect_mutation_error("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30\n", "", "t.cases:15: case binary/add/i32/(2,1)x(3,): op add takes 2 args, found 1");
    expect_mutation_error("rules B1 B2\n", "colour red\n", "t.cases:7: unknown key 'colour'");
    expect_mutation_error("tags rank-mismatch stretch\nrules B1 B2\n", "rules B1 B2\ntags x\n", "out of order");
    expect_mutation_error("expect * ok i32 (2,3) exact\nvalues 11 21 31 12 22 32\n", "", "has no expect line");
    expect_mutation_error("expect * ok i32 (2,3) exact", "expect numpy ok i32 (2,3) exact", "needs a matching expect");
    expect_mutation_error("expect * ok i32 (2,3) exact", "expect * ok i32 (2,3) fuzzy", "unknown comparison");
    expect_mutation_error("expect * ok i32 (2,3) exact\nvalues 11 21 31 12 22 32\n",
                          "expect * error sadness\n", "unknown error class 'sadness'");
    expect_mutation_error("end\n", "end\nend\n", "t.cases:18: 'end' outside a case record");
    /* duplicate ids name both places */
    size_t n = strlen(good_case);
    char *two = malloc(2 * n);
    memcpy(two, good_case, n);
    memcpy(two + n, good_case + 14, n - 14 + 1);
    expect_error(two, "t.cases:20: duplicate case id binary/add/i32/(2,1)x(3,) (first at t.cases:4)");
    free(two);
}

static void test_pattern_materializes(void)
{
    char *s = mutate("arg y i32 (3,) (1,) 0 3\nvalues 10 20 30", "arg y i32 (3,) (1,) 0 3\npattern ramp 3 1 5 2 1");
    br_caseset cs;
    br_err err;
    CHECK(load_text(&cs, s, &err) == 0);
    br_case *c = &cs.cases[0];
    CHECK(c->args[1].data == NULL);
    CHECK(br_materialize(&cs, c, &err) == 0);
    const int32_t *v = c->args[1].data;
    /* i=0: (1 mod 5)-2 = -1; i=1: (4 mod 5)-2 = 2; i=2: (7 mod 5)-2 = 0 */
    CHECK(v != NULL && v[0] == -1 && v[1] == 2 && v[2] == 0);
    br_caseset_free(&cs);
    free(s);
    expect_mutation_error("values 10 20 30", "pattern ramp 1 0 0 0 1", "modulus M");
    expect_mutation_error("values 10 20 30", "pattern ramp 1 0 5 0 2", "divisor D must be 1");
    expect_mutation_error("values 10 20 30", "pattern sine 1 2", "pattern needs");
}

static void test_fnv1a64_known_vectors(void)
{
    CHECK(br_fnv1a64(BR_FNV_BASIS, "", 0) == 0xcbf29ce484222325ull);
    CHECK(br_fnv1a64(BR_FNV_BASIS, "a", 1) == 0xaf63dc4c8601ec8cull);
    CHECK(br_fnv1a64(BR_FNV_BASIS, "foobar", 6) == 0x85944171f73967e8ull);
}

static void test_digest_canonicalises_nan(void)
{
    double a[2] = { 1.0, NAN }, b[2] = { 1.0, -NAN };
    uint64_t bits = 0x7ff0000000000123ull;   /* a signalling-payload NaN */
    memcpy(&b[1], &bits, 8);
    CHECK(br_digest(BCT_F64, a, 2) == br_digest(BCT_F64, b, 2));
    double c[2] = { 1.0, 2.0 };
    CHECK(br_digest(BCT_F64, a, 2) != br_digest(BCT_F64, c, 2));
    /* bytes are hashed little-endian: an i32 1 is 01 00 00 00 */
    int32_t one = 1;
    unsigned char le[4] = { 1, 0, 0, 0 };
    CHECK(br_digest(BCT_I32, &one, 1) == br_fnv1a64(BR_FNV_BASIS, le, 4));
}

static void test_exact_nan_equals_nan_but_zero_signs_differ(void)
{
    double e[3] = { NAN, 0.0, 1.0 }, a[3] = { -NAN, 0.0, 1.0 };
    int64_t first = -1;
    CHECK(br_compare(BCT_F64, e, a, 3, BR_CMP_EXACT, 0, &first) == 0);
    a[1] = -0.0;
    CHECK(br_compare(BCT_F64, e, a, 3, BR_CMP_EXACT, 0, &first) == 1);
    CHECK_EQ_I64(first, 1);
    float fe[1] = { 1.0f }, fa[1] = { NAN };
    CHECK(br_compare(BCT_F32, fe, fa, 1, BR_CMP_EXACT, 0, &first) == 1);
}

static void test_ulp_tolerance(void)
{
    float e = 1.0f, a = nextafterf(nextafterf(1.0f, 2.0f), 2.0f);   /* 2 ulp above */
    int64_t first;
    CHECK(br_compare(BCT_F32, &e, &a, 1, BR_CMP_ULP, 2, &first) == 0);
    CHECK(br_compare(BCT_F32, &e, &a, 1, BR_CMP_ULP, 1, &first) == 1);
    CHECK(br_compare(BCT_F32, &e, &a, 1, BR_CMP_EXACT, 0, &first) == 1);
    double z = 0.0, nz = -0.0, tiny = 4.9406564584124654e-324;
    CHECK_EQ_I64(br_ulp_distance(BCT_F64, &z, &nz), 0);
    CHECK_EQ_I64(br_ulp_distance(BCT_F64, &nz, &tiny), 1);
    double inf = INFINITY, big = 1.7976931348623157e308;   /* 1 ulp apart, but infinities must match */
    CHECK(br_compare(BCT_F64, &inf, &big, 1, BR_CMP_ULP, 5, &first) == 1);
    int32_t ie = 5, ia = 6;   /* integers stay exact under ulp */
    CHECK(br_compare(BCT_I32, &ie, &ia, 1, BR_CMP_ULP, 10, &first) == 1);
}

static void test_gather_follows_negative_and_zero_strides(void)
{
    int32_t st[6] = { 0, 1, 2, 3, 4, 5 }, out[6];
    int64_t shape[2] = { 2, 3 }, strides[2] = { -3, 1 };
    br_gather(st, BCT_I32, 2, shape, strides, 3, out);   /* rows reversed */
    CHECK(out[0] == 3 && out[2] == 5 && out[3] == 0 && out[5] == 2);
    int64_t s0[2] = { 0, 1 };
    br_gather(st, BCT_I32, 2, shape, s0, 1, out);        /* B17: stride 0 repeats */
    CHECK(out[0] == 1 && out[3] == 1 && out[5] == 3);
}

static br_case fake_case(const char *id, const char *suite, const char *tags, int op, br_arg *args, int nargs)
{
    br_case c;
    memset(&c, 0, sizeof c);
    c.id = id; c.suite = suite; c.tags = tags; c.rules = ""; c.op = op;
    c.args = args; c.nargs = nargs;
    return c;
}

static void test_filters_or_within_and_across(void)
{
    br_arg a[1];
    memset(a, 0, sizeof a);
    a[0].dtype = BCT_F32;
    br_case c1 = fake_case("binary/add/f32/x", "exhaustive", "stretch scalar", BCT_ADD, a, 1);
    br_case c2 = fake_case("big/add", "large", "stretch", BCT_ADD, a, 1);
    br_case c3 = fake_case("explored/add/f32/x", "explored", "explored", BCT_ADD, a, 1);
    br_filter f;
    memset(&f, 0, sizeof f);
    CHECK(br_filter_match(&f, &c1));
    CHECK(!br_filter_match(&f, &c2));          /* large is excluded unless asked for */
    CHECK(br_filter_match(&f, &c3));           /* explored is part of the default run */
    br_filter_add(&f, BR_F_SUITE, "large");
    CHECK(br_filter_match(&f, &c2) && !br_filter_match(&f, &c1));
    br_filter_add(&f, BR_F_SUITE, "exhaustive");
    CHECK(br_filter_match(&f, &c1) && br_filter_match(&f, &c2));   /* OR within a kind */
    br_filter_add(&f, BR_F_TAG, "scalar");
    CHECK(br_filter_match(&f, &c1) && !br_filter_match(&f, &c2)); /* AND across kinds */
    br_filter_add(&f, BR_F_DTYPE, "i8");
    CHECK(!br_filter_match(&f, &c1));
    br_filter_add(&f, BR_F_DTYPE, "f32");
    CHECK(br_filter_match(&f, &c1));
    br_filter_add(&f, BR_F_ID, "binary/*");
    CHECK(br_filter_match(&f, &c1));
    br_filter_add(&f, BR_F_OP, "sub");
    CHECK(!br_filter_match(&f, &c1));
    br_filter_free(&f);
    /* a tag matches whole words only */
    br_filter g;
    memset(&g, 0, sizeof g);
    br_filter_add(&g, BR_F_TAG, "scal");
    CHECK(!br_filter_match(&g, &c1));
    br_filter_free(&g);
}

static void test_glob_and_literal_ids(void)
{
    CHECK(br_glob_match("binary/add/*", "binary/add/f32/(2,1)x(3,)"));
    CHECK(!br_glob_match("binary/sub/*", "binary/add/f32/(2,1)x(3,)"));
    CHECK(br_glob_match("odd[id]", "odd[id]"));   /* literal equality wins over bracket syntax */
}

static void test_shard_slices_partition(void)
{
    long k, n;
    CHECK(br_parse_shard("2/3", &k, &n) == 0 && k == 2 && n == 3);
    CHECK(br_parse_shard("0/3", &k, &n) != 0);
    CHECK(br_parse_shard("4/3", &k, &n) != 0);
    CHECK(br_parse_shard("1/", &k, &n) != 0);
    CHECK(br_parse_shard("a/b", &k, &n) != 0);
    /* every id lands in exactly one shard; shard 1/6 is inside shard 1/3; the shards are balanced */
    int sizes[3] = { 0, 0, 0 };
    for (int i = 0; i < 3000; i++) {
        char id[32];
        snprintf(id, sizeof id, "suite/op/%d", i);
        int hits = 0;
        for (long s = 1; s <= 3; s++) if (br_shard_keeps(id, s, 3)) { hits++; sizes[s - 1]++; }
        CHECK(hits == 1);
        CHECK(!br_shard_keeps(id, 1, 6) || br_shard_keeps(id, 1, 3));
    }
    for (int s = 0; s < 3; s++) CHECK(sizes[s] > 900 && sizes[s] < 1100);
}

static void test_expectations_file(void)
{
    const char *text = "# known failures\n\nbinary/add/*  adds wrong\nexact/id\tthe reason\n  spaced/id   \nlast/id reason at eof";
    char *b = malloc(strlen(text) + 1);
    strcpy(b, text);
    br_expectations x;
    memset(&x, 0, sizeof x);
    br_err err;
    CHECK(br_expectations_parse(&x, "k.txt", b, &err) == 0);
    CHECK_EQ_I64(x.n, 4);
    int exact;
    CHECK_STREQ(br_expectations_find(&x, "binary/add/f32", &exact), "adds wrong");
    CHECK(exact == 0);
    CHECK_STREQ(br_expectations_find(&x, "exact/id", &exact), "the reason");
    CHECK(exact == 1);
    CHECK_STREQ(br_expectations_find(&x, "spaced/id", NULL), "");
    CHECK_STREQ(br_expectations_find(&x, "last/id", NULL), "reason at eof");
    CHECK(br_expectations_find(&x, "other", NULL) == NULL);
    CHECK_EQ_I64(x.v[1].line, 4);
    br_expectations_free(&x);
}

static void test_totals_line_and_exit(void)
{
    br_report r;
    memset(&r, 0, sizeof r);
    br_rec *a = br_report_add(&r); a->outcome = BR_O_PASS;
    br_rec *b = br_report_add(&r); b->outcome = BR_O_FAIL; b->expected_failure = 1;
    br_rec *c = br_report_add(&r); c->outcome = BR_O_SKIP;
    br_totals t;
    br_report_totals(&r, &t);
    char line[200];
    br_totals_line(&t, line, sizeof line);
    CHECK_STREQ(line, "1 passed, 0 failed, 1 skipped, 1 expected failures (1 failed)");
    CHECK(br_report_exit(&t) == 0);
    br_rec *d = br_report_add(&r); d->outcome = BR_O_CRASH;
    br_rec *e = br_report_add(&r); e->outcome = BR_O_VIOLATION;
    br_report_totals(&r, &t);
    br_totals_line(&t, line, sizeof line);
    CHECK_STREQ(line, "1 passed, 1 failed, 1 skipped, 1 crashed, 1 expected failures (1 failed)");
    CHECK(br_report_exit(&t) == 1);
    br_report_free(&r);
}

/* Issue 13.7: a known crash is still counted as a crash, and a known memory
 * violation as one, wherever counts are shown. */
static void test_known_failures_counted_by_what_happened(void)
{
    br_report r;
    memset(&r, 0, sizeof r);
    br_rec *a = br_report_add(&r); a->outcome = BR_O_CRASH; a->expected_failure = 1;
    br_rec *b = br_report_add(&r); b->outcome = BR_O_VIOLATION; b->expected_failure = 1;
    br_rec *c = br_report_add(&r); c->outcome = BR_O_FAIL; c->expected_failure = 1;
    br_rec *d = br_report_add(&r); d->outcome = BR_O_FAIL; d->probed = 1;
    br_totals t;
    br_report_totals(&r, &t);
    CHECK_EQ_I64((int64_t)t.actual[BR_O_CRASH], 1);
    CHECK_EQ_I64((int64_t)t.known[BR_O_VIOLATION], 1);
    CHECK_EQ_I64((int64_t)t.actual[BR_O_FAIL], 1);   /* the probed case is not part of the gate */
    CHECK_EQ_I64((int64_t)t.probed, 1);
    char line[300];
    br_totals_line(&t, line, sizeof line);
    CHECK_STREQ(line, "0 passed, 0 failed, 0 skipped, 3 expected failures (1 failed, 1 crashed, 1 memory violations)");
    br_buf txt = { 0 };
    r.bcast_version = r.target_name = r.target_version = r.profile_used = r.caseset_version = "";
    a->suite = b->suite = c->suite = d->suite = "s";
    br_write_text(&r, &txt, 0, 0);
    /* the suite row: pass fail skip crash timeout memviol known */
    CHECK(strstr(txt.s, "s                      0       1       0       1       0       1       3") != NULL);
    br_buf_free(&txt);
    br_report_free(&r);
}


/* Issue 13.8: every differing element is counted and classified, so a
 * dropped NaN is not hidden behind a first mismatch on -0. */
static void test_diff_classifies_each_kind(void)
{
    br_diff d;
    float ef[16] = { NAN, 0.0f, 1.0f, 2.0f, INFINITY, 5.0f, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    float af[16] = { 3.0f, -0.0f, 1.0f, 1.0f, 7.0f, 5.0000005f, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    /* 1.0 occurs elsewhere in expected, and its 16 values are mostly distinct: misplaced */
    CHECK_EQ_I64(br_diff_compute(BCT_F32, ef, af, 16, BR_CMP_EXACT, 0, &d), 5);
    CHECK_EQ_I64(d.by_class[BR_DC_NAN_DROPPED], 1);
    CHECK_EQ_I64(d.by_class[BR_DC_SIGNED_ZERO], 1);
    CHECK_EQ_I64(d.by_class[BR_DC_MISPLACED], 1);   /* 1.0 occurs at index 2 */
    CHECK_EQ_I64(d.by_class[BR_DC_INF], 1);
    CHECK_EQ_I64(d.by_class[BR_DC_ROUNDING], 1);
    CHECK_EQ_I64(d.first[0], 0);
    CHECK_EQ_I64(d.nfirst, 5);
    /* in a 6-element output a value found elsewhere is chance, not a stride bug */
    CHECK_EQ_I64(br_diff_compute(BCT_F32, ef, af, 6, BR_CMP_EXACT, 0, &d), 5);
    CHECK_EQ_I64(d.by_class[BR_DC_MISPLACED], 0);
    int16_t ei[3] = { 300, -200, 7 }, ai[3] = { 44, 32767, 7 };
    br_diff_compute(BCT_I16, ei, ai, 3, BR_CMP_EXACT, 0, &d);
    CHECK_EQ_I64(d.by_class[BR_DC_WRAPPED], 1);     /* 300 wrapped to 8 bits is 44 */
    CHECK_EQ_I64(d.by_class[BR_DC_SATURATED], 1);
    /* a row left at 0: zero, not "wrapped" where the expected value is a multiple of 256 */
    int32_t er[4] = { 256, 7, 512, 3 }, ar[4] = { 0, 0, 0, 3 };
    br_diff_compute(BCT_I32, er, ar, 4, BR_CMP_EXACT, 0, &d);
    CHECK_EQ_I64(d.by_class[BR_DC_ZERO], 3);
    CHECK_EQ_I64(d.by_class[BR_DC_WRAPPED], 0);
    float ez[2] = { 1.5f, NAN }, az[2] = { -0.0f, 0.0f };
    br_diff_compute(BCT_F32, ez, az, 2, BR_CMP_EXACT, 0, &d);
    CHECK_EQ_I64(d.by_class[BR_DC_ZERO], 1);          /* a dropped NaN stays nan-dropped */
    CHECK_EQ_I64(d.by_class[BR_DC_NAN_DROPPED], 1);
    int64_t el[2] = { ((int64_t)5 << 32) | 9, 1 }, al[2] = { ((int64_t)7 << 32) | 9, 1 };
    br_diff_compute(BCT_I64, el, al, 2, BR_CMP_EXACT, 0, &d);
    CHECK_EQ_I64(d.by_class[BR_DC_HIGH_HALF], 1);
    CHECK_EQ_I64(d.dominant, BR_DC_HIGH_HALF);
    char buf[300];
    int64_t shape[1] = { 2 };
    br_diff_describe(&d, shape, 1, buf, sizeof buf);
    CHECK(strstr(buf, "1 of 2 elements differ: 1 high-half; first at (0,)") != NULL);
    float same[2] = { NAN, 1.0f };
    CHECK_EQ_I64(br_diff_compute(BCT_F32, same, same, 2, BR_CMP_EXACT, 0, &d), 0);
    CHECK_EQ_I64(d.dominant, -1);
}

static void test_normalise_message_strips_numbers_and_shapes(void)
{
    char buf[200];
    br_normalise_message("The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1", buf, sizeof buf);
    CHECK_STREQ(buf, "The size of tensor a (#) must match the size of tensor b (#) at");   /* 64 characters, at a word end */
    br_normalise_message("operands could not be broadcast together with shapes (2,3) (4,)  ", buf, sizeof buf);
    CHECK_STREQ(buf, "operands could not be broadcast together with shapes (#) (#)");
    br_normalise_message("Chunks do not add up to shape. Got chunks=((1,), (4,), (2, 2)), shape=(1, 3)", buf, sizeof buf);
    CHECK_STREQ(buf, "Chunks do not add up to shape. Got chunks=(#), shape=(#)");
    br_normalise_message("Unable to allocate 8.00 TiB for an array with data type float64; bool is not int32", buf, sizeof buf);
    CHECK_STREQ(buf, "Unable to allocate # for an array with data type DT; DT is not");
    br_normalise_message("Incompatible dimension of arrays: LHS shape = (1, 2, 3, 4, 5, 6, 7", buf, sizeof buf);
    CHECK_STREQ(buf, "Incompatible dimension of arrays: LHS shape = (#)");   /* a list cut short is a shape */
    br_normalise_message("returned non-numeric elements: 2.37 - 1.5i; 7 TiB", buf, sizeof buf);
    CHECK_STREQ(buf, "returned non-numeric elements: #; #");
    br_normalise_message("Type parameter (T) of Optype (Add) bound to different types", buf, sizeof buf);
    CHECK_STREQ(buf, "Type parameter (T) of Optype (W) bound to different types");   /* a one-letter type parameter stays */
    br_normalise_message("implementation for Max(13) node; shape. x: 2,3, y: ", buf, sizeof buf);
    CHECK_STREQ(buf, "implementation for W(#) node; shape. x: #, y: #");
    br_normalise_message("BitwiseAnd: Tensors must have the same shape. x: , y: 3", buf, sizeof buf);
    CHECK_STREQ(buf, "BitwiseAnd: Tensors must have the same shape. x: #, y: #");   /* an empty shape first */
    char many[400], small[40];   /* empty shapes never grow the text past its buffer */
    for (int i = 0; i < 99; i++) memcpy(many + 4 * i, "x: ,", 4);
    many[396] = '\0';
    br_normalise_message(many, small, sizeof small);
    CHECK(strlen(small) < sizeof small);
    br_normalise_message("output operand with shape () doesn't match (3,)", buf, sizeof buf);
    CHECK_STREQ(buf, "output operand with shape (#) doesn't match (#)");
    br_normalise_message("bad dim 'x7' in [1, 2, 3]", buf, sizeof buf);
    CHECK_STREQ(buf, "bad dim 'x#' in [#]");
    br_normalise_message("bad value '2, 3' in 'x: 4'", buf, sizeof buf);
    CHECK_STREQ(buf, "bad value '' in ''");                                 /* not identifiers: the case's */
    br_normalise_message("AttributeError: module 'jax.numpy' has no attribute 'erfcx'", buf, sizeof buf);
    CHECK_STREQ(buf, "AttributeError: module 'jax.numpy' has no attribute 'erfcx'");
    br_normalise_message("ufunc 'add' output (typecode 'd') could not be coerced to 'int64'", buf, sizeof buf);
    CHECK_STREQ(buf, "ufunc 'add' output (typecode 'd') could not be coerced to 'DT'");
    br_normalise_message("int_matmul: unsupported dtype U8 (expected F32 or BF16)", buf, sizeof buf);
    CHECK_STREQ(buf, "int_matmul: unsupported dtype DT (expected DT or DT)");   /* candle's dtype names */
    br_normalise_message("void broadcast(): Assertion `a[i] == 1' failed () [#]", buf, sizeof buf);
    CHECK_STREQ(buf, "void broadcast(): Assertion `' failed (#) [#]");
    br_normalise_message("a binary op on int32_t and float (Tensor<uint8_t>)", buf, sizeof buf);
    CHECK_STREQ(buf, "a binary op on DT and DT (Tensor<DT>)");   /* C/C++ type names are dtypes */
    br_normalise_message("floats and floating-point values", buf, sizeof buf);
    CHECK_STREQ(buf, "floats and floating-point values");                    /* only whole words */
    br_crash_line("bcast-run: /usr/include/eigen3/unsupported/Eigen/CXX11/src/Tensor/TensorBroadcasting.h:123: "
                  "Eigen::TensorEvaluator<const Eigen::TensorBroadcastingOp<...>, Device>::TensorEvaluator(...) "
                  "[with Broadcast = std::array<long int, 2>]: Assertion `input_dims[i] > 0' failed.", buf, sizeof buf);
    CHECK_STREQ(buf, "assertion failed in TensorBroadcasting.h: input_dims[i] > 0");
    br_crash_line("long int, 2>]: Assertion `dimensions_match(a, b)' failed.", buf, sizeof buf);   /* a cut tail */
    CHECK_STREQ(buf, "assertion failed: dimensions_match(a, b)");
    br_crash_line("Segmentation fault at 0x10", buf, sizeof buf);
    CHECK_STREQ(buf, "Segmentation fault at 0x10");
    br_normalise_message("NotImplementedError: couldn't find matching opcode for 'sub_bbb'", buf, sizeof buf);
    CHECK_STREQ(buf, "NotImplementedError: couldn't find matching opcode for 'sub_bbb'");
}

/* Issue 26.4: a crash is named by the line of its stderr that says what went
 * wrong: the bridge's `fatal` report, the library's error line, faulthandler's. */
static void test_telling_line(void)
{
    char buf[300];
    br_telling_line("Fatal Python error: Segmentation fault\n\nCurrent thread 0x7f (most recent call first):\n"
                    "  File \"/x/lib.py\", line 3 in add\nbcast pipe target (python3 b.py): bridge died: eof "
                    "(killed by signal 11)", buf, sizeof buf);
    CHECK_STREQ(buf, "Fatal Python error: Segmentation fault");            /* the library's words, not the adapter's */
    br_telling_line("Traceback (most recent call last):\n  File \"b.py\", line 9, in run\n    x = f()\n"
                    "    ^^^^^\nZeroDivisionError: division by zero\nbcast pipe target (b): bridge died: eof", buf, sizeof buf);
    CHECK_STREQ(buf, "ZeroDivisionError: division by zero");
    br_telling_line("bcast pipe target (b): bridge died: eof (exited with status 1)", buf, sizeof buf);
    CHECK_STREQ(buf, "bcast pipe target (b): bridge died: eof (exited with status 1)");   /* nothing else said */
    br_telling_line("note: something\nworker log line", buf, sizeof buf);
    CHECK_STREQ(buf, "worker log line");
    br_telling_line("ValueError: an earlier line\nbcast pipe target (b): the library said: RuntimeError: trap 'oob'\n"
                    "bcast pipe target (b): bridge died: it reported a fatal error (exited with status 1)", buf, sizeof buf);
    CHECK_STREQ(buf, "RuntimeError: trap 'oob'");                           /* the bridge's `fatal` report first */
    br_telling_line("free(): invalid pointer\nFatal Python error: Aborted\n\nStack (most recent call first):\n"
                    "  File \"b.py\", line 3 in run\nbcast pipe target (b): bridge died: eof (killed by signal 6)", buf, sizeof buf);
    CHECK_STREQ(buf, "free(): invalid pointer");                            /* the library's line before faulthandler's */
    {   /* a C++ assertion names a long template signature before the word Assertion */
        char tail[2000], told[4200];
        int o = snprintf(tail, sizeof tail, "bcast-run: /usr/include/eigen3/T.h:12: void f(");
        while (o < 1500) o += snprintf(tail + o, sizeof tail - (size_t)o, "Eigen::TensorMap<float, 4>, ");
        snprintf(tail + o, sizeof tail - (size_t)o, "int): Assertion `d > 0' failed.\nbcast pipe target (x): bridge died");
        br_telling_line(tail, told, sizeof told);
        br_crash_line(told, buf, sizeof buf);
        CHECK_STREQ(buf, "assertion failed in T.h: d > 0");
    }
}

/* Issue 13.5: rewriting an expectations file keeps its comments and
 * reasons, marks entries that no longer fail or match no case, and appends
 * new failures in blocks per finding. */
static void test_expectations_rewrite_keeps_what_people_wrote(void)
{
    br_caseset cs;
    memset(&cs, 0, sizeof cs);
    char *buf = malloc(sizeof two_cases);
    memcpy(buf, two_cases, sizeof two_cases);
    br_err err;
    CHECK(br_load_buffer(&cs, "t.cases", buf, sizeof two_cases - 1, &err) == 0);
    CHECK(br_finish(&cs, &err) == 0);
    br_report r;
    memset(&r, 0, sizeof r);
    br_rec *a = br_report_add(&r); a->id = "a/one"; a->outcome = BR_O_PASS;
    br_rec *b = br_report_add(&r); b->id = "b/two"; b->outcome = BR_O_CRASH; b->reason = "crashed with SIGSEGV";
    b->shapes = "(2,)"; b->failure = "crash"; b->detail = "SIGSEGV"; b->behaviour = "crashes with SIGSEGV";
    br_findings_build(&r);
    const char *old = "# my header\n\na/one  hand-written reason\ngone/case  renamed long ago\n";
    br_buf out = { 0 };
    br_expectations_render(old, &r, &cs, &out);
    CHECK(strstr(out.s, "# my header\n\n") == out.s);
    CHECK(strstr(out.s, "# [no longer fails] a/one  hand-written reason\n") != NULL);
    CHECK(strstr(out.s, "# [matches no case] gone/case  renamed long ago\n") != NULL);
    CHECK(strstr(out.s, "# [new] F1: crashes with SIGSEGV, where the profile succeeds: 1 cases") != NULL);
    CHECK(strstr(out.s, "b/two crash: crashed with SIGSEGV\n") != NULL);
    br_buf_free(&out);
    /* an entry that still fails is kept as written, and not appended again */
    b->expected_failure = 0;
    const char *kept = "b/two  my own words\n";
    br_expectations_render(kept, &r, &cs, &out);
    CHECK_STREQ(out.s, "b/two  my own words\n");
    br_buf_free(&out);
    br_report_free(&r);
    br_caseset_free(&cs);
}

/* Adds n results of one kind to r: outcome, behaviour, expected summary, features. */
static void add_recs(br_report *r, int n, int o, const char *behaviour, const char *expected, const char *features)
{
    for (int i = 0; i < n; i++) {
        br_rec *x = br_report_add(r);
        x->id = "c"; x->op = "add"; x->outcome = o; x->shapes = "(2,)";
        x->behaviour = behaviour; x->expected = expected; x->features = features;
        if (o != BR_O_PASS) x->failure = "fail";
    }
}

/* The failures of one run for the level-2 tests: 50 passes, a groups of
 * rank-33+ cases that succeed and b that raise (no passing case is rank
 * 33+), 4 wrong values and 2 errors at low rank. */
static void rank33_report(br_report *r, int a, int b)
{
    memset(r, 0, sizeof *r);
    add_recs(r, 40, BR_O_PASS, "", "ok f32 (2,)", "dtype:f32 rank:1-2");
    add_recs(r, 10, BR_O_PASS, "", "error not-broadcastable", "dtype:f32 error-expected rank:1-2");
    add_recs(r, a, BR_O_FAIL, "succeeds with a shape the profile refuses", "error rank-limit", "dtype:f32 error-expected rank:33+");
    add_recs(r, b, BR_O_FAIL, "raises not-broadcastable: Incompatible dims", "error rank-limit", "dtype:f32 error-expected rank:33+");
    add_recs(r, 4, BR_O_FAIL, "values: other", "ok f32 (2,)", "dtype:f32 rank:1-2");
    add_recs(r, 2, BR_O_FAIL, "raises other: something", "ok f32 (2,)", "dtype:f32 rank:1-2");
    br_findings_build(r);
}

/* docs/findings.md level 2: a condition no passing case has (lift 1) joins
 * groups whose target did different things, and the name lists what it did;
 * groups with nothing deciding them stay apart, and so do groups too small
 * (fewer than 10 cases between them) for a perfect lift to mean much. */
static void test_findings_one_condition_several_behaviours(void)
{
    br_report r;
    rank33_report(&r, 7, 5);
    CHECK(r.nfindings == 3);
    if (r.nfindings == 3) {
        CHECK(r.findings[0].count == 12);
        CHECK(strstr(r.findings[0].name, "rank 33+: 2 behaviours: succeeds with a shape the profile refuses (7), "
                                         "raises not-broadcastable: Incompatible dims (5), where the profile raises rank-limit") != NULL);
        CHECK(r.findings[1].count == 4 && strstr(r.findings[1].name, "behaviours") == NULL);
    }
    br_report_free(&r);
    rank33_report(&r, 3, 2);
    CHECK(r.nfindings == 4);
    br_report_free(&r);
}

/* Issue 26.4: a family whose cases did different things names each kind of
 * failure, worst first, however few cases it has: the one crash among 34
 * cases is named first, not left to the outcomes column. */
static void test_findings_name_behaviours_worst_first(void)
{
    static const struct { int n, o; const char *failure, *behaviour; } kinds[] = {
        { 20, BR_O_FAIL, "unexpected-error", "raises other: Boom" },
        { 6, BR_O_FAIL, "wrong-shape", "succeeds with a wrong shape" },
        { 4, BR_O_FAIL, "wrong-dtype", "result dtype differs from the profile's promotion" },
        { 3, BR_O_FAIL, "wrong-values", "values: other" },
        { 1, BR_O_CRASH, "crash", "crashes with SIGSEGV: Fatal Python error: Segmentation fault" },
        { 2, BR_O_FAIL, "unexpected-error", "raises other: Bang" },
    };
    br_report r;
    memset(&r, 0, sizeof r);
    add_recs(&r, 40, BR_O_PASS, "", "ok f32 (2,)", "dtype:f32 rank:1-2");
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t from = r.n;
        add_recs(&r, kinds[k].n, kinds[k].o, kinds[k].behaviour, "ok f32 (2,)", "dtype:f32 rank:33+");
        for (size_t i = from; i < r.n; i++) r.recs[i].failure = kinds[k].failure;
    }
    br_findings_build(&r);
    CHECK(r.nfindings == 1);
    if (r.nfindings == 1)
        CHECK(strstr(r.findings[0].name, "6 behaviours: crashes with SIGSEGV: Fatal Python error: Segmentation fault (1), "
                                         "values: other (3), succeeds with a wrong shape (6), result dtype differs from the "
                                         "profile's promotion (4), raises other: Boom (20), and 1 more (2 cases), where") != NULL);
    br_report_free(&r);
}

/* B16: a requested shape with a negative entry is a case feature. */
static void test_negative_extent_feature(void)
{
    br_caseset cs;
    br_err err;
    char feats[512];
    const char *neg = "bcast-cases 1\ncase v/neg\nsuite views\ntags error\nrules B5\nop broadcast_to\nmode value\n"
                      "source numpy\nattr shape (-1,2)\narg x f32 (2,) (1,) 0 2\nvalues 1 2\n"
                      "expect * error invalid-shape\nend\n";
    CHECK(load_text(&cs, neg, &err) == 0);
    if (cs.n == 1) {
        br_case_features(&cs.cases[0], BCT_PROFILE_NUMPY, feats, sizeof feats);
        CHECK(br_has_word(feats, "negative-extent"));
    }
    br_caseset_free(&cs);
    CHECK(load_text(&cs, good_case, &err) == 0);
    if (cs.n == 1) {
        br_case_features(&cs.cases[0], BCT_PROFILE_NUMPY, feats, sizeof feats);
        CHECK(!br_has_word(feats, "negative-extent"));
    }
    br_caseset_free(&cs);
}

/* A case measured by all four oracles, a line per profile (issue #22). The
 * values are not judged here, only which line each profile selects. */
static const char four_lines[] =
    "bcast-cases 1\n"
    "case p/four\nsuite promotion\ntags divergent\nrules B19 B32\nop add\nmode value\n"
    "source numpy torch numpy2 torch2\n"
    "arg x i8 (1,) (1,) 0 1\nvalues 1\narg y i64 () () 0 1\nvalues 1000\n"
    "expect numpy ok i16 (1,) exact\nvalues 1001\n"
    "expect torch ok i8 (1,) exact\nvalues -23\n"
    "expect numpy2 ok i64 (1,) exact\nvalues 1001\n"
    "expect torch2 ok i8 (1,) exact\nvalues -23\n"
    "end\n";

/* issue #22: `expect *` covers the generation(s) the source names; a case
 * from before NumPy 2 has no numpy2/torch2 expectation and is skipped with
 * that reason; the reader names a bad profile, a repeat, a line the source
 * does not back and an incomplete generation. */
static void test_profiles_select_skip_and_reader_errors(void)
{
    br_caseset cs;
    br_err err;
    br_target_info info;
    char why[256];
    memset(&info, 0, sizeof info);
    info.ops = ~(uint64_t)0;
    info.dtypes = ~0u;
    CHECK(load_text(&cs, good_case, &err) == 0);
    CHECK(br_pick_expect(&cs.cases[0], BCT_PROFILE_NUMPY) != NULL);
    CHECK(br_pick_expect(&cs.cases[0], BCT_PROFILE_TORCH) != NULL);
    CHECK(br_pick_expect(&cs.cases[0], BCT_PROFILE_NUMPY2) == NULL);
    CHECK(br_pick_expect(&cs.cases[0], BCT_PROFILE_TORCH2) == NULL);
    CHECK(br_skip_reason(&cs.cases[0], &info, BCT_PROFILE_NUMPY, why, sizeof why) == NULL);
    CHECK(br_skip_reason(&cs.cases[0], &info, BCT_PROFILE_NUMPY2, why, sizeof why) != NULL);
    CHECK(strcmp(why, "no numpy2 expectation: the case predates NumPy 2 in cases/ (source numpy torch)") == 0);
    CHECK(br_skip_reason(&cs.cases[0], &info, BCT_PROFILE_TORCH2, why, sizeof why) != NULL);
    CHECK(strstr(why, "no torch2 expectation: the case predates torch 2") == why);
    br_caseset_free(&cs);
    {
        char *all = mutate("source numpy torch\n", "source numpy torch numpy2 torch2\n");
        CHECK(all != NULL && load_text(&cs, all, &err) == 0);
        for (int p = 0; p < BCT_PROFILE_COUNT; p++) CHECK(br_pick_expect(&cs.cases[0], p) == &cs.cases[0].expect[0]);
        br_caseset_free(&cs);
        free(all);
    }
    {
        char *gen2 = mutate("source numpy torch\n", "source numpy2 torch2\n");
        CHECK(gen2 != NULL && load_text(&cs, gen2, &err) == 0);
        CHECK(br_pick_expect(&cs.cases[0], BCT_PROFILE_NUMPY2) != NULL);
        CHECK(br_pick_expect(&cs.cases[0], BCT_PROFILE_NUMPY) == NULL);
        CHECK(br_skip_reason(&cs.cases[0], &info, BCT_PROFILE_TORCH, why, sizeof why) != NULL);
        CHECK(strcmp(why, "no torch expectation: the case has only numpy2/torch2 ones (source numpy2 torch2)") == 0);
        br_caseset_free(&cs);
        free(gen2);
    }
    CHECK(load_text(&cs, four_lines, &err) == 0);
    for (int p = 0; p < BCT_PROFILE_COUNT; p++) {
        const br_expect *e = br_pick_expect(&cs.cases[0], p);
        CHECK(e != NULL && e->profile == p);
    }
    br_caseset_free(&cs);
    expect_mutation_error("expect * ok", "expect numpy3 ok",
                          "t.cases:15: unknown profile 'numpy3' (profiles: * numpy torch numpy2 torch2)");
    expect_mutation_error("expect * ok i32 (2,3) exact", "expect numpy2 ok i32 (2,3) exact",
                          "expect numpy2, but source 'numpy torch' does not name numpy2 (the oracle that measured it)");
    {
        char *src = mutate("source numpy torch\n", "source numpy2 torch2\n");
        char *only = src ? replace_in(src, "expect * ok", "expect numpy2 ok") : NULL;
        CHECK(only != NULL);
        if (only != NULL)
            expect_error(only, "case binary/add/i32/(2,1)x(3,): expect numpy2 needs a matching expect for profile torch2");
        free(only);
        free(src);
    }
    {
        char *t = replace_in(four_lines, "expect torch2", "expect numpy2");
        CHECK(t != NULL);
        if (t != NULL) expect_error(t, "t.cases:19: expect for profile numpy2 repeats or conflicts with another");
        free(t);
    }
}

static void test_contiguity_decides_strided_skip(void)
{
    int64_t shape[2] = { 2, 3 }, c[2] = { 3, 1 }, t[2] = { 1, 2 }, one[2] = { 1, 3 }, s1[2] = { 99, 1 };
    br_arg a;
    memset(&a, 0, sizeof a);
    a.rank = 2; a.shape = shape; a.strides = c; a.storage = 6;
    CHECK(br_is_contiguous(&a));
    a.strides = t;
    CHECK(!br_is_contiguous(&a));
    a.shape = one; a.strides = s1;    /* an extent-1 dim's stride does not matter */
    CHECK(br_is_contiguous(&a));
    a.strides = c; a.shape = shape; a.offset = 1;
    CHECK(!br_is_contiguous(&a));
}

int main(void)
{
    RUN(test_valid_record_round_trips);
    RUN(test_weak_scalar_args);
    RUN(test_header_errors);
    RUN(test_truncated_files);
    RUN(test_bad_numbers_and_values);
    RUN(test_nan_payloads);
    RUN(test_number_fast_paths_agree_with_libc);
    RUN(test_bad_shapes);
    RUN(test_views_outside_storage);
    RUN(test_record_structure_errors);
    RUN(test_profiles_select_skip_and_reader_errors);
    RUN(test_pattern_materializes);
    RUN(test_fnv1a64_known_vectors);
    RUN(test_digest_canonicalises_nan);
    RUN(test_exact_nan_equals_nan_but_zero_signs_differ);
    RUN(test_ulp_tolerance);
    RUN(test_gather_follows_negative_and_zero_strides);
    RUN(test_filters_or_within_and_across);
    RUN(test_glob_and_literal_ids);
    RUN(test_shard_slices_partition);
    RUN(test_expectations_file);
    RUN(test_totals_line_and_exit);
    RUN(test_known_failures_counted_by_what_happened);
    RUN(test_diff_classifies_each_kind);
    RUN(test_normalise_message_strips_numbers_and_shapes);
    RUN(test_expectations_rewrite_keeps_what_people_wrote);
    RUN(test_findings_one_condition_several_behaviours);
    RUN(test_findings_name_behaviours_worst_first);
    RUN(test_telling_line);
    RUN(test_negative_extent_feature);
    RUN(test_contiguity_decides_strided_skip);
    return check_summary();
}
