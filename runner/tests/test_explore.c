/* test_explore.c - unit tests of explore and shrink: the PRNG stream, the generator, the case writer, live sets and the shrinker on broken targets. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "bcast_ref.h"
#include "case/casewrite.h"
#include "judge/compare.h"
#include "case/caseio.h"
#include "explore/explore_gen.h"
#include "results/findings.h"
#include "judge/judge.h"
#include "case/view.h"
#include "case/live.h"
#include "base/rng.h"
#include "explore/shrink.h"
#include "explore/spec.h"

static char bindir[PATH_MAX];   /* the build directory: where test-explore lives */

/* ---- comparing cases field by field ---- */

static int same_dims(const int64_t *a, const int64_t *b, int rank)
{
    return rank == 0 || memcmp(a, b, (size_t)rank * sizeof *a) == 0;
}

static int same_arg(const br_arg *a, const br_arg *b)
{
    if (strcmp(a->name, b->name) || a->dtype != b->dtype || a->rank != b->rank || !same_dims(a->shape, b->shape, a->rank))
        return 0;
    if (a->dtype == BCT_NONE) return 1;
    if (!same_dims(a->strides, b->strides, a->rank) || a->offset != b->offset || a->storage != b->storage) return 0;
    if (a->data_kind != b->data_kind) return 0;
    if (a->data_kind == BR_DATA_PATTERN) return memcmp(a->pat, b->pat, sizeof a->pat) == 0;
    int64_t first;   /* any NaN reads back as the canonical NaN: the format spells them all "nan" */
    return br_compare(a->dtype, a->data, b->data, a->storage, BR_CMP_EXACT, 0, &first) == 0;
}

static int same_expect(const br_expect *a, const br_expect *b)
{
    if (a->profile != b->profile || a->status != b->status) return 0;
    if (a->status != BCT_OK) return 1;
    if (a->dtype != b->dtype || a->rank != b->rank || !same_dims(a->shape, b->shape, a->rank)) return 0;
    if (a->cmp != b->cmp || a->ulp != b->ulp || a->abs_tol != b->abs_tol || a->data_kind != b->data_kind) return 0;
    if (a->grad_arg != b->grad_arg) return 0;
    if (a->data_kind == BR_DATA_DIGEST) return a->digest == b->digest && a->nelem == b->nelem;
    if (a->dtype == BCT_NONE || a->nelem == 0) return 1;
    int64_t first;
    return br_compare(a->dtype, a->values, b->values, a->nelem, BR_CMP_EXACT, 0, &first) == 0;
}

/* Whether b (read back) is a (written): every field the format carries. */
static int same_case(const br_case *a, const br_case *b)
{
    int ok = !strcmp(a->id, b->id) && !strcmp(a->suite, b->suite) && !strcmp(a->tags, b->tags)
          && !strcmp(a->rules, b->rules) && !strcmp(a->source, b->source) && a->op == b->op && a->mode == b->mode
          && a->has_axis == b->has_axis && a->axis == b->axis && a->target_rank == b->target_rank
          && (a->target_rank < 0 || same_dims(a->target_shape, b->target_shape, a->target_rank))
          && a->nargs == b->nargs && a->nexpect == b->nexpect && a->nmsg == b->nmsg;
    for (int i = 0; ok && i < a->nargs; i++) ok = same_arg(&a->args[i], &b->args[i]);
    for (int i = 0; ok && i < a->nexpect; i++) ok = same_expect(&a->expect[i], &b->expect[i]);
    for (int i = 0; ok && i < a->nmsg; i++) ok = !strcmp(a->msg[i], b->msg[i]);
    if (!ok) fprintf(stderr, "  case %s does not read back as written\n", a->id);
    return ok;
}

/* Writes cases[0..n) of cs as one file and reads it back into out. 0 or -1. */
static int write_and_read(const br_caseset *cs, size_t first, size_t n, br_caseset *out)
{
    br_buf b = { 0 };
    br_err err;
    br_casefile_header(&b, "test", "2026-11-22");
    for (size_t i = first; i < first + n; i++) { br_buf_puts(&b, "\n"); br_case_write(&cs->cases[i], &b); }
    memset(out, 0, sizeof *out);
    int rc = br_load_buffer(out, "written.cases", b.s, b.len, &err);   /* takes the buffer */
    if (rc == 0) rc = br_finish(out, &err);
    if (rc != 0) fprintf(stderr, "  read back: %s\n", err.msg);
    return rc;
}

/* ---- the PRNG ---- */

/* splitmix64's and xoshiro256**'s published streams: a seed gives the same
 * numbers on every machine (values from the reference algorithms). */
static void test_rng_stream_is_fixed_for_a_seed(void)
{
    uint64_t st = 0;
    CHECK(br_splitmix64(&st) == 0xe220a8397b1dcdafull);
    static const uint64_t want[4] = { 0xb3f2af6d0fc710c5ull, 0x853b559647364ceaull, 0x92f89756082a4514ull,
                                      0x642e1c7bc266a3a7ull };
    br_rng r;
    br_rng_seed(&r, 1);
    for (int i = 0; i < 4; i++) CHECK(br_rng_next(&r) == want[i]);
    int seen[7] = { 0 };
    for (int i = 0; i < 7000; i++) {
        uint64_t v = br_rng_below(&r, 7);
        CHECK(v < 7);
        if (v < 7) seen[v]++;
    }
    for (int i = 0; i < 7; i++) CHECK(seen[i] > 800 && seen[i] < 1200);
    CHECK(br_rng_case_seed(1, 0) != br_rng_case_seed(1, 1));
    CHECK(br_rng_case_seed(1, 0) != br_rng_case_seed(2, 0));
    CHECK(br_rng_case_seed(7, 9) == br_rng_case_seed(7, 9));
}

/* ---- the generator ---- */

static br_gen_cfg everything(void)
{
    br_gen_cfg g;
    memset(&g, 0, sizeof g);
    g.ops = ((uint64_t)1 << BCT_OP_COUNT) - 1;
    g.dtypes = (1u << BCT_DTYPE_COUNT) - 1;
    g.max_rank = BC_MAX_RANK;
    g.flags = BCT_CAP_STRIDED | BCT_CAP_INPLACE | BCT_CAP_OUT;
    g.profile = BCT_PROFILE_NUMPY;
    return g;
}

/* Case i of a stream depends on (seed, i) only: out of order, or again, it is the same. */
static void test_generator_is_reproducible_case_by_case(void)
{
    br_gen_cfg g = everything();
    br_spec a, b;
    br_spec_init(&a);
    br_spec_init(&b);
    int same = 1, differ = 0;
    for (uint64_t i = 0; i < 200; i++) {
        br_gen_case(&g, 42, 199 - i, &a);   /* backwards ... */
        br_gen_case(&g, 42, 7, &b);
        br_gen_case(&g, 42, 199 - i, &b);   /* ... and again after another case */
        same &= a.op == b.op && a.mode == b.mode && a.nargs == b.nargs && a.target_rank == b.target_rank;
        for (int k = 0; same && k < a.nargs; k++) {
            const br_sarg *x = &a.args[k], *y = &b.args[k];
            same &= x->dtype == y->dtype && x->rank == y->rank && x->offset == y->offset && x->storage == y->storage
                 && same_dims(x->shape, y->shape, x->rank) && (x->dtype == BCT_NONE || same_dims(x->strides, y->strides, x->rank))
                 && (br_sarg_bytes(x) == 0 || memcmp(x->data, y->data, br_sarg_bytes(x)) == 0);
        }
        br_gen_case(&g, 43, 199 - i, &b);
        differ += b.op != a.op || b.nargs != a.nargs || (a.nargs && b.args[0].rank != a.args[0].rank);
    }
    CHECK(same);
    CHECK(differ > 100);   /* another seed, another stream */
    br_spec_free(&a);
    br_spec_free(&b);
}

/* A target with grad_ops gets gradient cases (the incoming gradient last, at
 * the forward result's shape, and expectations ref computes per gradient;
 * matmul among them, div and pow never),
 * and the first BR_GEN_LARGE_WINDOW cases hold about 1 large case in 128,
 * between 2^13 and 2^21 + 2^18 elements; cases past the window are never large. */
static void test_generator_makes_gradient_and_large_cases(void)
{
    br_gen_cfg g = everything();
    g.grad_ops = BC_GRAD_OPS;
    br_spec s;
    br_spec_init(&s);
    int grads = 0, large = 0, late_large = 0, bad_grad = 0, too_big = 0, matmul_grads = 0;
    for (uint64_t i = 0; i < 6000; i++) {
        uint64_t idx = i < 4000 ? i : BR_GEN_LARGE_WINDOW + i;
        CHECK(br_gen_case(&g, 3, idx, &s) == 0);
        int64_t most = 0;
        for (int k = 0; k < s.nargs; k++) { int64_t n = br_sarg_count(&s.args[k]); if (n > most && n != INT64_MAX) most = n; }
        if (s.op != BCT_BROADCAST_SHAPES && idx < BR_GEN_LARGE_WINDOW) large += most >= 8192;
        if (s.op != BCT_BROADCAST_SHAPES && idx >= BR_GEN_LARGE_WINDOW) late_large += most > 3 * BR_GEN_MAX_ELEMS;   /* a clash may add a little */
        too_big += most > BR_GEN_LARGE_ELEMS + (BR_GEN_LARGE_ELEMS >> 3);
        if (s.mode != BCT_MODE_GRAD) continue;
        grads++;
        matmul_grads += s.op == BCT_MATMUL;
        bad_grad += !(BC_GRAD_OPS >> s.op & 1) || s.op == BCT_DIV || s.op == BCT_POW
                    || strcmp(s.args[s.nargs - 1].name, "grad") != 0
                    || (s.args[s.nargs - 1].dtype != BCT_F32 && s.args[s.nargs - 1].dtype != BCT_F64);
    }
    CHECK(grads > 300);
    CHECK(matmul_grads > 0);   /* matmul's gradient is explored (B47 models torch's -0) */
    CHECK_EQ_I64(bad_grad, 0);
    CHECK(large >= 10 && large <= 70);   /* about 4000 / 128 */
    CHECK_EQ_I64(late_large, 0);
    CHECK_EQ_I64(too_big, 0);
    br_spec_free(&s);
}

/* Every generated case is a valid case record: built with ref's expectations
 * under both profiles, written, and read back by the strict reader unchanged.
 * The stream covers every op explore generates (add ... uni_add), every mode,
 * strided layouts and errors. */
static void test_generated_cases_round_trip_through_writer_and_reader(void)
{
    enum { N = 3000 };
    br_caseset cs, back;
    br_live lv;
    memset(&cs, 0, sizeof cs);
    CHECK(br_live_init(&lv, &cs, N, (size_t)256 << 20) == 0);
    br_gen_cfg g = everything();
    br_spec s;
    br_spec_init(&s);
    uint64_t ops = 0;
    int modes = 0, strided = 0, errors = 0, built = 0;
    for (uint64_t i = 0; i < N; i++) {
        char id[40];
        size_t ci;
        snprintf(id, sizeof id, "gen/%05llu", (unsigned long long)i);
        br_spec_meta m = { id, "explore", "explored", "", "ref", "t", 3u, 1 };
        if (br_gen_case(&g, 5, i, &s) != 0 || br_spec_to_live(&lv, &s, &m, &ci) != 0) continue;
        const br_case *c = &cs.cases[ci];
        built++;
        ops |= (uint64_t)1 << c->op;
        modes |= 1 << c->mode;
        errors += c->expect[0].status != BCT_OK;
        for (int k = 0; k < c->nargs; k++) strided += c->args[k].dtype != BCT_NONE && !br_is_contiguous(&c->args[k]);
    }
    CHECK_EQ_I64(built, N);
    CHECK(ops == ((uint64_t)1 << (BCT_UNI_ADD + 1)) - 1);   /* every op explore generates (B38-B45's have no generator) */
    CHECK_EQ_I64(modes, 7);
    CHECK(strided > N / 10 && errors > N / 20 && errors < N / 2);
    CHECK(write_and_read(&cs, lv.first, lv.n, &back) == 0);
    CHECK_EQ_I64(back.n, lv.n);
    int ok = 1;
    for (size_t i = 0; ok && i < back.n && i < lv.n; i++) ok = same_case(&cs.cases[lv.first + i], &back.cases[i]);
    CHECK(ok);
    br_spec_free(&s);
    br_caseset_free(&back);
    br_caseset_free(&cs);
}

/* In-place cases whose oracle writes self before raising carry the tag
 * self-modified (as gen/builder.py tags suite cases), so the judge does not
 * flag a target that behaves like its oracle: torch's integer floor_divide_/
 * remainder_ by zero and NumPy 2's integer power with a negative exponent;
 * no other case carries it. */
static void test_inplace_cases_that_may_write_before_raising_are_tagged(void)
{
    enum { N = 8000 };
    br_caseset cs;
    br_live lv;
    memset(&cs, 0, sizeof cs);
    CHECK(br_live_init(&lv, &cs, N, (size_t)256 << 20) == 0);
    br_gen_cfg g = everything();
    br_spec s;
    br_spec_init(&s);
    int tagged = 0, wrong = 0, divzero = 0, npow = 0;
    for (uint64_t i = 0; i < N; i++) {
        char id[40];
        size_t ci;
        snprintf(id, sizeof id, "gen/%05llu", (unsigned long long)i);
        br_spec_meta m = { id, "explore", "explored", "", "ref", "t", 15u, (int)(i & 1) };   /* as judged, and as emitted */
        if (br_gen_case(&g, 1, i, &s) != 0 || br_spec_to_live(&lv, &s, &m, &ci) != 0) continue;
        const br_case *c = &cs.cases[ci];
        int want = 0;
        for (int k = 0; c->mode == BCT_MODE_INPLACE && k < c->nexpect; k++) {
            const br_expect *e = &c->expect[k];
            int dz = e->status == BCT_ERR_DIVISION_BY_ZERO && e->profile != BCT_PROFILE_NUMPY && e->profile != BCT_PROFILE_NUMPY2;
            int np = e->status == BCT_ERR_OTHER && c->op == BCT_POW && e->profile == BCT_PROFILE_NUMPY2;
            divzero += dz;
            npow += np;
            want |= dz || np;
        }
        int has = strstr(c->tags, "self-modified") != NULL;
        tagged += has;
        wrong += has != want;
    }
    CHECK(divzero > 0 && npow > 0);
    CHECK(tagged > 0);
    CHECK_EQ_I64(wrong, 0);
    br_spec_free(&s);
    br_caseset_free(&cs);
}

/* out= cases whose oracle writes out before raising carry out-modified
 * (issue #25 item 7): torch's integer floor_divide/remainder by zero, NumPy's
 * integer power with a negative exponent (both generations); no other case. */
static void test_out_cases_that_may_write_before_raising_are_tagged(void)
{
    enum { N = 8000 };
    br_caseset cs;
    br_live lv;
    memset(&cs, 0, sizeof cs);
    CHECK(br_live_init(&lv, &cs, N, (size_t)256 << 20) == 0);
    br_gen_cfg g = everything();
    br_spec s;
    br_spec_init(&s);
    int tagged = 0, wrong = 0, self_tag = 0;
    for (uint64_t i = 0; i < N; i++) {
        char id[40];
        size_t ci;
        snprintf(id, sizeof id, "gen/%05llu", (unsigned long long)i);
        br_spec_meta m = { id, "explore", "explored", "", "ref", "t", 15u, (int)(i & 1) };
        if (br_gen_case(&g, 1, i, &s) != 0 || br_spec_to_live(&lv, &s, &m, &ci) != 0) continue;
        const br_case *c = &cs.cases[ci];
        int want = 0;
        for (int k = 0; c->mode == BCT_MODE_OUT && k < c->nexpect; k++) {
            const br_expect *e = &c->expect[k];
            want |= e->status == BCT_ERR_DIVISION_BY_ZERO && e->profile != BCT_PROFILE_NUMPY && e->profile != BCT_PROFILE_NUMPY2;
            want |= e->status == BCT_ERR_OTHER && c->op == BCT_POW &&
                    (e->profile == BCT_PROFILE_NUMPY || e->profile == BCT_PROFILE_NUMPY2);
        }
        int has = strstr(c->tags, "out-modified") != NULL;
        tagged += has;
        wrong += has != want;
        self_tag += c->mode == BCT_MODE_OUT && strstr(c->tags, "self-modified") != NULL;
    }
    CHECK(tagged > 0);
    CHECK_EQ_I64(wrong, 0);
    CHECK_EQ_I64(self_tag, 0);
    br_spec_free(&s);
    br_caseset_free(&cs);
}

/* ---- the writer ---- */

/* Every committed case (cases/, the large suite's patterns and digests
 * included) reads back exactly as the writer writes it. */
static void test_writer_round_trips_committed_cases(void)
{
    br_caseset cs, back;
    br_err err;
    memset(&cs, 0, sizeof cs);
    if (access("cases", R_OK) != 0) { fprintf(stderr, "  skipped: no cases/ here\n"); return; }
    CHECK(br_load_path(&cs, "cases", &err) == 0 && br_finish(&cs, &err) == 0);
    CHECK(cs.n > 10000);
    CHECK(write_and_read(&cs, 0, cs.n, &back) == 0);
    CHECK_EQ_I64(back.n, cs.n);
    size_t bad = 0;
    for (size_t i = 0; i < cs.n && i < back.n && bad < 5; i++) bad += !same_case(&cs.cases[i], &back.cases[i]);
    CHECK_EQ_I64(bad, 0);
    br_caseset_free(&back);
    br_caseset_free(&cs);
}

/* A large operand that shrinking left at one value is written as a one-value
 * `pattern ramp` (a megabyte values line otherwise) that reads back bit for
 * bit: +0, -0, dyadic fractions, integers; NaN, inf, a value that needs a
 * denominator past 2^53, an integer past 2^53 and a non-constant storage stay values. */
static void set_const_arg(br_spec *s, int dtype, const void *one, int differ_last)
{
    br_sarg *a = &s->args[0];
    snprintf(a->name, sizeof a->name, "x");
    a->dtype = dtype; a->rank = 1; a->shape[0] = 300; a->strides[0] = 1; a->offset = 0; a->storage = 300;
    CHECK(br_sarg_alloc(a) == 0);
    size_t es = (size_t)bc_dtype_size(dtype);
    for (int i = 0; i < 300; i++) memcpy(a->data + (size_t)i * es, one, es);
    if (differ_last) memset(a->data + 299 * es, 0x11, es);
    br_sarg *y = &s->args[1];
    snprintf(y->name, sizeof y->name, "y");
    y->dtype = dtype; y->rank = 0; y->offset = 0; y->storage = 1;
    CHECK(br_sarg_alloc(y) == 0);
    memcpy(y->data, one, es);
}

static void test_constant_large_operand_is_written_as_a_pattern(void)
{
    float f32s[] = { 0.0f, -0.0f, 0.75f, -3.0f, 1e30f, 1.0f / 3.0f };
    int f32_pat[] = { 1, 1, 1, 1, 0, 1 };   /* 1e30f: an integer past 2^53; 1/3f is 11184811 * 2^-25 */
    double f64s[] = { -0.0, 0x1p-40, 0.1, (double)INFINITY, (double)NAN };
    int f64_pat[] = { 1, 1, 0, 0, 0 };      /* 0.1 needs 2^-56 */
    int64_t i64s[] = { 5, -7, (int64_t)1 << 60, INT64_MIN };
    int i64_pat[] = { 1, 1, 0, 0 };
    struct { int dtype; const void *vals; size_t es; int n; const int *pat; } kinds[] = {
        { BCT_F32, f32s, 4, 6, f32_pat }, { BCT_F64, f64s, 8, 5, f64_pat }, { BCT_I64, i64s, 8, 4, i64_pat },
    };
    br_caseset cs, back;
    br_live lv;
    br_err err;
    memset(&cs, 0, sizeof cs);
    CHECK(br_live_init(&lv, &cs, 64, (size_t)16 << 20) == 0);
    br_spec s;
    br_spec_init(&s);
    int want[64], n = 0;
    unsigned char *data[64];
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int v = 0; v < kinds[k].n; v++)
            for (int differ = 0; differ < 2; differ++) {
                char id[40];
                size_t ci;
                snprintf(id, sizeof id, "const/%zu/%d/%d", k, v, differ);
                CHECK(br_spec_reset(&s, BCT_ADD, BCT_MODE_VALUE, 2) == 0);
                set_const_arg(&s, kinds[k].dtype, (const char *)kinds[k].vals + (size_t)v * kinds[k].es, differ);
                br_spec_meta m = { id, "explore", "explored", "", "ref", "t", 3u, 0 };
                CHECK(br_spec_to_live(&lv, &s, &m, &ci) == 0);
                want[n] = kinds[k].pat[v] && !differ;
                CHECK_EQ_I64(cs.cases[ci].args[0].data_kind == BR_DATA_PATTERN, want[n]);
                data[n] = cs.cases[ci].args[0].data;
                n++;
            }
    CHECK(write_and_read(&cs, lv.first, lv.n, &back) == 0);
    CHECK_EQ_I64(back.n, n);
    for (size_t i = 0; i < back.n && i < (size_t)n; i++) {
        br_case *c = &back.cases[i];
        CHECK_EQ_I64(c->args[0].data_kind == BR_DATA_PATTERN, want[i]);
        CHECK(br_materialize(&back, c, &err) == 0);
        CHECK(memcmp(c->args[0].data, data[i], 300 * (size_t)bc_dtype_size(c->args[0].dtype)) == 0);
    }
    br_spec_free(&s);
    br_caseset_free(&back);
    br_caseset_free(&cs);
}

/* ---- the shrinker, through the isolated workers ---- */

typedef struct shrink_env {
    br_caseset cs;
    br_live lv;
    br_iso *iso;
    br_target_info info;
    br_spec spec;
} shrink_env;

/* Loads fixture case `id`, starts target `name` (a broken test target) over
 * it with room for shrink candidates. 0 or -1. */
static int shrink_setup(shrink_env *e, const char *name, const char *id)
{
    br_err err;
    memset(e, 0, sizeof *e);
    br_spec_init(&e->spec);
    if (br_load_path(&e->cs, "tests/runner/fixtures/basic/basic.cases", &err) != 0 || br_finish(&e->cs, &err) != 0) return -1;
    size_t ci = 0;
    while (ci < e->cs.n && strcmp(e->cs.cases[ci].id, id) != 0) ci++;
    if (ci == e->cs.n || br_materialize(&e->cs, &e->cs.cases[ci], &err) != 0) return -1;
    if (br_spec_from_case(&e->spec, &e->cs.cases[ci]) != 0) return -1;
    if (br_live_init(&e->lv, &e->cs, 4, 4 * br_shrink_case_bytes(&e->spec)) != 0) return -1;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/targets/test/%s.so", bindir, name);
    br_iso_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.target = path;
    cfg.jobs = 2;
    cfg.timeout_s = 5;
    cfg.out_cap = (int64_t)1 << 30;
    cfg.fork_server = 1;
    cfg.no_rlimit = 1;
    br_shrink_iso_caps(&e->spec, &cfg);
    e->iso = br_iso_start(&e->cs, &cfg, &e->info, &err);
    if (e->iso == NULL) fprintf(stderr, "  %s\n", err.msg);
    return e->iso ? 0 : -1;
}

static void shrink_teardown(shrink_env *e)
{
    br_iso_stop(e->iso);
    br_spec_free(&e->spec);
    br_caseset_free(&e->cs);
}

/* Shrinks fixture case id on target name; the result must fail with the same
 * signature (containing want) and hold at most max_elems elements. */
static void shrink_on(const char *name, const char *id, const char *want, int64_t max_elems)
{
    shrink_env e;
    if (shrink_setup(&e, name, id) != 0) { CHECK(0 && "setup failed"); shrink_teardown(&e); return; }
    br_shrink_cfg cfg = { e.iso, &e.lv, &e.info, BCT_PROFILE_NUMPY, 2, 0, 200, 30, NULL };
    char sig[512], after[512];
    int oc = -1;
    CHECK(br_shrink_judge(&cfg, &e.spec, sig, sizeof sig, &oc) == 0);
    CHECK(oc != BR_O_PASS && strstr(sig, want) != NULL);
    br_shrink_stats st;
    CHECK(br_shrink(&cfg, &e.spec, sig, &st) == 0);
    CHECK(st.steps > 0 && st.runs > 0 && st.runs <= 200);
    CHECK(br_shrink_judge(&cfg, &e.spec, after, sizeof after, &oc) == 0);
    CHECK_STREQ(after, sig);
    int64_t elems = 0;
    for (int i = 0; i < e.spec.nargs; i++) elems += br_sarg_count(&e.spec.args[i]);
    if (elems > max_elems) fprintf(stderr, "  %s: %lld elements left\n", name, (long long)elems);
    CHECK(elems <= max_elems);
    shrink_teardown(&e);
}

/* wrong_shape drops the stretched dim: (2,1)+(3,) shrinks to (1,)+(2,) or smaller. */
static void test_shrink_wrong_shape_keeps_its_signature(void)
{
    shrink_on("wrong_shape", "binary/add/i32/(2,1)x(3,)", "one dim fewer", 3);
}

/* ignores_zero_size reports 0 extents as 1: the repro stays zero-size but tiny. */
static void test_shrink_ignores_zero_size_keeps_its_signature(void)
{
    shrink_on("ignores_zero_size", "zero-size/add/i32/(1,3)x(0,1)", "succeeds with", 1);
}

/* read_past_input reads one element past y: a memory violation that stays one.
 * (Under valgrind, which tests/hardening/valgrind.sh says with
 * BCAST_UNDER_VALGRIND=1, guard pages do not fault: skipped there.) */
static void test_shrink_read_past_input_keeps_its_signature(void)
{
    if (getenv("BCAST_UNDER_VALGRIND") != NULL) {
        fprintf(stderr, "  skipped under valgrind: its guard pages do not fault\n");
        return;
    }
    shrink_on("read_past_input", "binary/add/i32/(2,1)x(3,)", "memory violation: read-past-end-input-y", 2);
}

/* A live set's cases are seen by workers started before they were built. */
/* A huge stride-0 view next to an empty operand has an empty result (B3):
 * the shrinker's memory bound for it is small, so such a case can be shrunk;
 * without the empty operand the bound is the whole broadcast. */
static void test_shrink_bound_of_an_empty_broadcast(void)
{
    br_spec s;
    br_spec_init(&s);
    CHECK(br_spec_reset(&s, BCT_ADD, BCT_MODE_VALUE, 2) == 0);
    s.target_rank = -1;
    const int64_t xs[3] = { 0, (int64_t)1 << 61, 1 }, ys[3] = { 1, 1, 2 };
    for (int i = 0; i < 2; i++) {
        br_sarg *a = &s.args[i];
        a->dtype = BCT_I16;
        a->rank = 3;
        memcpy(a->shape, i ? ys : xs, sizeof xs);
        a->storage = i ? 2 : 0;
    }
    CHECK(br_shrink_case_bytes(&s) < ((size_t)1 << 20));
    s.args[0].shape[0] = 1;   /* (1, 2^61, 1) x (1,1,2): 2^62 result elements */
    s.args[0].storage = 1;
    CHECK(br_shrink_case_bytes(&s) == SIZE_MAX);
    /* a stride-0 operand costs its storage, not its 2^60 elements: (0,1,1) x (1,2^30,2^30) */
    const int64_t xe[3] = { 0, 1, 1 }, yb[3] = { 1, (int64_t)1 << 30, (int64_t)1 << 30 };
    memcpy(s.args[0].shape, xe, sizeof xe);
    s.args[0].storage = 0;
    memcpy(s.args[1].shape, yb, sizeof yb);
    s.args[1].storage = 1;
    CHECK(br_shrink_case_bytes(&s) < ((size_t)1 << 20));
    br_spec_free(&s);
}

static void test_live_cases_reach_running_workers(void)
{
    shrink_env e;
    if (shrink_setup(&e, "wrong_shape", "binary/add/i32/(2,1)x(3,)") != 0) { CHECK(0 && "setup failed"); shrink_teardown(&e); return; }
    br_shrink_cfg cfg = { e.iso, &e.lv, &e.info, BCT_PROFILE_NUMPY, 1, 0, 10, 10, NULL };
    char sig[512];
    int oc = -1;
    for (int round = 0; round < 3; round++) {   /* rewound and refilled while the workers live */
        e.spec.op = round == 1 ? BCT_MUL : BCT_ADD;   /* wrong_shape fails add only */
        CHECK(br_shrink_judge(&cfg, &e.spec, sig, sizeof sig, &oc) == 0);
        CHECK_EQ_I64(oc, round == 1 ? BR_O_PASS : BR_O_FAIL);
    }
    shrink_teardown(&e);
}

int main(int argc, char **argv)
{
    (void)argc;
    snprintf(bindir, sizeof bindir, "%s", argv[0]);
    char *sl = strrchr(bindir, '/');
    if (sl) *sl = '\0'; else snprintf(bindir, sizeof bindir, ".");
    RUN(test_rng_stream_is_fixed_for_a_seed);
    RUN(test_generator_is_reproducible_case_by_case);
    RUN(test_generator_makes_gradient_and_large_cases);
    RUN(test_generated_cases_round_trip_through_writer_and_reader);
    RUN(test_inplace_cases_that_may_write_before_raising_are_tagged);
    RUN(test_out_cases_that_may_write_before_raising_are_tagged);
    RUN(test_writer_round_trips_committed_cases);
    RUN(test_constant_large_operand_is_written_as_a_pattern);
    RUN(test_live_cases_reach_running_workers);
    RUN(test_shrink_wrong_shape_keeps_its_signature);
    RUN(test_shrink_ignores_zero_size_keeps_its_signature);
    RUN(test_shrink_read_past_input_keeps_its_signature);
    RUN(test_shrink_bound_of_an_empty_broadcast);
    return check_summary();
}
