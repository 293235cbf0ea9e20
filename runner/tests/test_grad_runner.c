/* test_grad_runner.c - unit tests of grad mode in the runner: the reader's rules for `mode grad`
 * (docs/case-format.md), the `ulp N abs A` comparison, and how the judge classifies wrong gradients. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "bcast_ref.h"
#include "case/caseio.h"
#include "judge/compare.h"
#include "judge/judge_grad.h"
#include "results/report.h"
#include "target/call.h"
#include "target/skip.h"
#include "case/casewrite.h"

/* x (3,1) and y (4,) f32, the incoming gradient (3,4): gradients (3,1) and (4,). */
static const char grad_case[] =
    "bcast-cases 1\n"
    "case grad/add/f32/(3,1)x(4,)\n"
    "suite grad\n"
    "tags stretch\n"
    "rules B1 B2 B23\n"
    "op add\n"
    "mode grad\n"
    "source numpy torch\n"
    "arg x f32 (3,1) (1,1) 0 3\n"
    "values 1 2 3\n"
    "arg y f32 (4,) (1,) 0 4\n"
    "values 1 1 1 1\n"
    "arg grad f32 (3,4) (4,1) 0 12\n"
    "values 0 1 2 3 4 5 6 7 8 9 10 11\n"
    "expect * grad x f32 (3,1) exact\n"
    "values 6 22 38\n"
    "expect * grad y f32 (4,) ulp 0 abs 0x1p-20\n"
    "values 12 15 18 21\n"
    "end\n";

/* One element each: a gradient of 6 where 2 was expected is 3 times it, as
 * any number is some multiple of another: no "scaled by a constant". */
static const char one_case[] =
    "bcast-cases 1\n"
    "case grad/add/f32/(1,)x(1,)\n"
    "suite grad\n"
    "rules B1\n"
    "op add\n"
    "mode grad\n"
    "source numpy torch\n"
    "arg x f32 (1,) (1,) 0 1\n"
    "values 1\n"
    "arg y f32 (1,) (1,) 0 1\n"
    "values 1\n"
    "arg grad f32 (1,) (1,) 0 1\n"
    "values 2\n"
    "expect * grad x f32 (1,) exact\n"
    "values 2\n"
    "expect * grad y f32 (1,) exact\n"
    "values 2\n"
    "end\n";

static int load_text(br_caseset *cs, const char *text, br_err *err)
{
    memset(cs, 0, sizeof *cs);
    size_t n = strlen(text);
    char *b = malloc(n + 1);
    memcpy(b, text, n + 1);
    int rc = br_load_buffer(cs, "g.cases", b, n, err);
    if (rc == 0) rc = br_finish(cs, err);
    return rc;
}

/* grad_case with the first `from` replaced by `to` (malloc'd). */
static char *mutate(const char *from, const char *to)
{
    const char *p = strstr(grad_case, from);
    if (p == NULL) { fprintf(stderr, "mutate: '%s' not in the case\n", from); abort(); }
    size_t a = (size_t)(p - grad_case), fl = strlen(from), tl = strlen(to), n = strlen(grad_case);
    char *s = malloc(n - fl + tl + 1);
    memcpy(s, grad_case, a);
    memcpy(s + a, to, tl);
    memcpy(s + a + tl, p + fl, n - a - fl + 1);
    return s;
}

/* The mutated case must be refused with an error naming g.cases:LINE and containing want. */
static void refused(const char *from, const char *to, const char *want)
{
    br_caseset cs;
    br_err err;
    char *text = mutate(from, to);
    err.msg[0] = '\0';
    int rc = load_text(&cs, text, &err);
    CHECK(rc == -1);
    CHECK(strstr(err.msg, "g.cases:") != NULL);
    if (rc != -1 || strstr(err.msg, want) == NULL) {
        fprintf(stderr, "  for '%s' -> '%s': expected error '%s', got '%s'\n", from, to, want, rc == -1 ? err.msg : "(none)");
        check_failures_in_test++;
    }
    br_caseset_free(&cs);
    free(text);
}

static void accepted(const char *from, const char *to)
{
    br_caseset cs;
    br_err err;
    char *text = mutate(from, to);
    int rc = load_text(&cs, text, &err);
    CHECK(rc == 0);
    if (rc != 0) fprintf(stderr, "  for '%s' -> '%s': %s\n", from, to, err.msg);
    br_caseset_free(&cs);
    free(text);
}

/* A grad case loads: mode, the gradient expectations with their inputs and tolerance. */
static void test_grad_case_loads(void)
{
    br_caseset cs;
    br_err err;
    CHECK(load_text(&cs, grad_case, &err) == 0);
    CHECK_EQ_I64(cs.n, 1);
    const br_case *c = &cs.cases[0];
    CHECK_EQ_I64(c->mode, BCT_MODE_GRAD);
    CHECK_EQ_I64(c->nargs, 3);
    CHECK_EQ_I64(c->nexpect, 2);
    const br_expect *gx = br_pick_grad(c, BCT_PROFILE_TORCH, 0), *gy = br_pick_grad(c, BCT_PROFILE_NUMPY, 1);
    CHECK(gx != NULL && gy != NULL && br_pick_grad(c, BCT_PROFILE_NUMPY, 2) == NULL);
    if (gx && gy) {
        CHECK_EQ_I64(gx->nelem, 3);
        CHECK(((const float *)gx->values)[2] == 38.0f);
        CHECK_EQ_I64(gy->cmp, BR_CMP_ULP);
        CHECK(gy->abs_tol == 0x1p-20);
    }
    CHECK(br_pick_expect(c, BCT_PROFILE_NUMPY) == gx);
    br_caseset_free(&cs);
}

/* Divergent: each profile its own lines; a profile may expect an error. */
static void test_grad_divergent_profiles(void)
{
    accepted("expect * grad x f32 (3,1) exact\nvalues 6 22 38\nexpect * grad y f32 (4,) ulp 0 abs 0x1p-20\n"
             "values 12 15 18 21\n",
             "expect numpy grad x f32 (3,1) exact\nvalues 6 22 38\nexpect numpy grad y f32 (4,) exact\nvalues 1 2 3 4\n"
             "expect torch error dtype\n");
    accepted("expect * grad y f32 (4,) ulp 0 abs 0x1p-20\nvalues 12 15 18 21\n", "");   /* only x: y not asked */
    accepted("expect * grad x f32 (3,1) exact\nvalues 6 22 38\nexpect * grad y f32 (4,) ulp 0 abs 0x1p-20\n"
             "values 12 15 18 21\n", "expect * error not-broadcastable\n");
}

/* What the reader refuses in grad mode, each with FILE:LINE and a reason. */
static void test_grad_reader_refuses(void)
{
    refused("expect * grad x f32 (3,1) exact", "expect * ok f32 (3,1) exact", "must be grad");
    refused("mode grad", "mode value", "must be ok");
    refused("expect * grad x f32 (3,1) exact", "expect * grad z f32 (3,1) exact", "no input of that name");
    refused("expect * grad x f32 (3,1) exact", "expect * grad grad f32 (3,1) exact", "no input of that name");
    refused("expect * grad x f32 (3,1) exact", "expect * grad x f32 (3,4) exact", "its input's dtype and shape");
    refused("expect * grad x f32 (3,1) exact", "expect * grad x f64 (3,1) exact", "its input's dtype and shape");
    refused("arg x f32 (3,1) (1,1) 0 3\nvalues 1 2 3", "arg x i32 (3,1) (1,1) 0 3\nvalues 1 2 3", "only f32/f64");
    refused("expect * grad y f32 (4,) ulp 0 abs 0x1p-20", "expect * grad x f32 (3,1) exact", "repeats or conflicts");
    refused("expect * grad y f32 (4,) ulp", "expect numpy grad y f32 (4,) ulp", "repeats or conflicts");
    refused("expect * grad y f32 (4,) ulp 0 abs 0x1p-20\nvalues 12 15 18 21\n",
            "expect * grad y f32 (4,) ulp 0 abs 0x1p-20\nvalues 12 15 18 21\nexpect * error dtype\n", "repeats or conflicts");
    refused("expect * grad x f32 (3,1) exact\nvalues 6 22 38\nexpect * grad y f32 (4,) ulp 0 abs 0x1p-20\nvalues 12 15 18 21\n",
            "expect numpy grad x f32 (3,1) exact\nvalues 6 22 38\n", "needs a matching expect for profile torch");
    refused("arg grad f32 (3,4)", "arg g f32 (3,4)", "the last arg, and only it, is named grad");
    refused("op add", "op eq", "has no grad mode");
    refused("arg y f32 (4,) (1,) 0 4\nvalues 1 1 1 1\n", "", "no input of that name");
    refused("arg y f32 (4,) (1,) 0 4\nvalues 1 1 1 1\narg grad f32 (3,4) (4,1) 0 12\nvalues 0 1 2 3 4 5 6 7 8 9 10 11\n"
            "expect * grad x f32 (3,1) exact\nvalues 6 22 38\nexpect * grad y f32 (4,) ulp 0 abs 0x1p-20\nvalues 12 15 18 21\n",
            "arg grad f32 (3,4) (4,1) 0 12\nvalues 0 1 2 3 4 5 6 7 8 9 10 11\nexpect * grad x f32 (3,1) exact\nvalues 6 22 38\n",
            "takes 3 args");
    {   /* an arg named grad outside grad mode */
        static const char v[] =
            "bcast-cases 1\ncase v\nsuite s\ntags\nrules B1\nop add\nmode value\nsource numpy\n"
            "arg x f32 () () 0 1\nvalues 1\narg grad f32 () () 0 1\nvalues 2\n"
            "expect * ok f32 () exact\nvalues 3\nend\n";
        br_caseset cs;
        br_err err;
        CHECK(load_text(&cs, v, &err) == -1);
        CHECK(strstr(err.msg, "belongs to grad mode only") != NULL);
        br_caseset_free(&cs);
    }
    refused("ulp 0 abs 0x1p-20", "ulp 0 abs -0x1p-20", "finite and >= 0");
    refused("ulp 0 abs 0x1p-20", "ulp 0 abs", "optionally followed by abs A");
    refused("ulp 0 abs 0x1p-20", "ulp 0 rel 0x1p-20", "expected 'abs A'");
    refused("ulp 0 abs 0x1p-20", "ulp 0 abs x", "bad abs tolerance");
    refused("values 6 22 38", "values 6 22", "expected 3 values");
}

/* where: cond never has a gradient; its x and y may. */
static void test_where_cond_has_no_gradient(void)
{
    static const char w[] =
        "bcast-cases 1\ncase w\nsuite grad\ntags\nrules B28\nop where\nmode grad\nsource torch\n"
        "arg cond bool (2,) (1,) 0 2\nvalues 1 0\narg x f32 (2,) (1,) 0 2\nvalues 1 2\n"
        "arg y f32 () () 0 1\nvalues 3\narg grad f32 (2,) (1,) 0 2\nvalues 1 1\n"
        "expect * grad cond bool (2,) exact\nvalues 1 0\nend\n";
    br_caseset cs;
    br_err err;
    CHECK(load_text(&cs, w, &err) == -1);
    CHECK(strstr(err.msg, "only f32/f64") != NULL || strstr(err.msg, "cond") != NULL);
    br_caseset_free(&cs);
}

/* `ulp N abs A`: finite floats within A agree; infinities and NaN as under ulp. */
static void test_abs_tolerance(void)
{
    float want[3] = { 1.0f, 0.0f, INFINITY }, got[3] = { 1.0f, 3e-7f, INFINITY };
    int64_t first = -1;
    CHECK(br_compare_tol(BCT_F32, want, got, 3, BR_CMP_ULP, 0, 0x1p-20, &first) == 0);
    CHECK(br_compare_tol(BCT_F32, want, got, 3, BR_CMP_ULP, 0, 0x1p-23, &first) == 1 && first == 1);
    CHECK(br_compare_tol(BCT_F32, want, got, 3, BR_CMP_EXACT, 0, 1.0, &first) == 1);   /* exact ignores it */
    got[2] = 3e38f;
    CHECK(br_compare_tol(BCT_F32, want, got, 3, BR_CMP_ULP, 0, 1e39, &first) == 1 && first == 2);
    {
        br_diff d;
        CHECK_EQ_I64(br_diff_compute_tol(BCT_F32, want, got, 3, BR_CMP_ULP, 0, 1e-3, &d), 1);
    }
}

/* The judge: one fabricated worker result per classic autodiff bug. The
 * arena holds the produced gradients; offsets point into it. */
typedef struct fake { br_wres r; float arena[64]; } fake;

static void put_grad(fake *f, int k, int rank, const int64_t *shape, const float *v, int n, int at)
{
    f->r.grad[k].calls = 1;
    f->r.grad[k].dtype = BCT_F32;
    f->r.grad[k].rank = rank;
    for (int i = 0; i < rank; i++) f->r.grad[k].shape[i] = shape[i];
    f->r.grad[k].off = (int64_t)(at * 4);
    f->r.grad[k].bytes = n * 4;
    memcpy(&f->arena[at], v, (size_t)n * 4);
}

static void judged(const br_case *c, fake *f, const char *want_detail, const char *want_behaviour)
{
    br_grad_verdict gv;
    memset(&gv, 0, sizeof gv);
    br_judge_grads(c, BCT_PROFILE_NUMPY, &f->r, (const char *)f->arena, &gv);
    CHECK(want_detail == NULL ? !gv.failed : gv.failed);
    if (want_detail != NULL && (strcmp(gv.detail, want_detail) != 0 || strstr(gv.behaviour, want_behaviour) == NULL)) {
        fprintf(stderr, "  expected %s / '%s', got %s / '%s' (%s)\n", want_detail, want_behaviour, gv.detail,
                gv.behaviour, gv.reason);
        check_failures_in_test++;
    }
}

static void test_judge_classifies_gradient_bugs(void)
{
    br_caseset cs;
    br_err err;
    CHECK(load_text(&cs, grad_case, &err) == 0);
    const br_case *c = &cs.cases[0];
    static const float gx[3] = { 6, 22, 38 }, gy[4] = { 12, 15, 18, 21 }, g12[12] = { 0 };
    static const float gx_scaled[3] = { 24, 88, 152 }, gx_mean[3] = { 1.5f, 5.5f, 9.5f }, zero3[3] = { 0 };
    static const float gx_three[3] = { 18, 66, 114 };
    fake f;
    memset(&f, 0, sizeof f);
    put_grad(&f, 0, 2, (const int64_t[]){ 3, 1 }, gx, 3, 0);
    put_grad(&f, 1, 1, (const int64_t[]){ 4 }, gy, 4, 8);
    judged(c, &f, NULL, "");                                                      /* right */
    put_grad(&f, 0, 2, (const int64_t[]){ 3, 4 }, g12, 12, 16);
    judged(c, &f, "gradient-not-reduced", "not reduced");                         /* forgot sum_to_size */
    put_grad(&f, 0, 1, (const int64_t[]){ 3 }, gx, 3, 0);
    judged(c, &f, "gradient-ones-dropped", "dropped instead of kept");            /* keepdims=False */
    put_grad(&f, 0, 2, (const int64_t[]){ 1, 4 }, gy, 4, 0);
    judged(c, &f, "gradient-wrong-dims", "wrong dims");                           /* summed over dim 0 */
    put_grad(&f, 1, 2, (const int64_t[]){ 1, 4 }, gy, 4, 8);
    put_grad(&f, 0, 2, (const int64_t[]){ 3, 1 }, gx, 3, 0);
    judged(c, &f, "gradient-leading-kept", "kept as 1");                          /* leading dim kept */
    put_grad(&f, 1, 1, (const int64_t[]){ 4 }, gy, 4, 8);
    put_grad(&f, 0, 2, (const int64_t[]){ 3, 1 }, gx_scaled, 3, 0);
    judged(c, &f, "gradient-scaled-by-broadcast-factor", "broadcast factor");     /* x4 */
    put_grad(&f, 0, 2, (const int64_t[]){ 3, 1 }, gx_mean, 3, 0);
    judged(c, &f, "gradient-averaged", "averaged");                               /* a mean */
    put_grad(&f, 0, 2, (const int64_t[]){ 3, 1 }, zero3, 3, 0);
    judged(c, &f, "gradient-zeros", "all zeros");   /* the runner zeroes the buffer: written or not, unknown */
    {
        br_grad_verdict gv;
        memset(&gv, 0, sizeof gv);
        br_judge_grads(c, BCT_PROFILE_NUMPY, &f.r, (const char *)f.arena, &gv);
        CHECK(strcmp(gv.behaviour, "gradient values: all zeros") == 0);   /* says no more than it measured */
    }
    put_grad(&f, 0, 2, (const int64_t[]){ 3, 1 }, gx_three, 3, 0);
    judged(c, &f, "gradient-scaled", "scaled by a constant");                     /* x3, three elements agree */
    put_grad(&f, 0, 2, (const int64_t[]){ 3, 1 }, gx, 3, 0);
    f.r.grad[1].calls = 0;
    judged(c, &f, "gradient-missing", "gradient of y missing");
    f.r.grad[1].calls = 1;
    f.r.grad[1].dtype = BCT_F64;
    judged(c, &f, "another-dtype", "gradient dtype");
    f.r.grad[1].dtype = BCT_F32;
    f.r.alloc_calls = 1;
    judged(c, &f, "alloc-output-in-grad-mode", "alloc_output");
    br_caseset_free(&cs);
    CHECK(load_text(&cs, one_case, &err) == 0);
    memset(&f, 0, sizeof f);
    put_grad(&f, 0, 1, (const int64_t[]){ 1 }, (const float[]){ 6 }, 1, 0);
    put_grad(&f, 1, 1, (const int64_t[]){ 1 }, (const float[]){ 2 }, 1, 8);
    judged(&cs.cases[0], &f, "gradient-other", "gradient values: other");          /* one element: no constant */
    br_caseset_free(&cs);
}

/* B46: `mode grad inplace` / `mode grad out` load, reach the call as
 * grad_form, are written back as read, and are skipped (not probed, not
 * called) for a target that does not claim BCT_CAP_GRAD_FORMS: an adapter
 * built before the field existed is never handed one. */
static void test_grad_forms(void)
{
    br_caseset cs;
    br_err err;
    br_target_info info;
    char why[256];
    bct_array args[4];
    bct_call call;
    char *inplace = mutate("mode grad\n", "mode grad inplace\n");
    CHECK(load_text(&cs, inplace, &err) == 0);
    const br_case *c = &cs.cases[0];
    CHECK_EQ_I64(c->mode, BCT_MODE_GRAD);
    CHECK_EQ_I64(c->grad_form, BCT_GRAD_INPLACE);
    br_case_call(c, BCT_PROFILE_TORCH, args, &call);
    CHECK_EQ_I64(call.grad_form, BCT_GRAD_INPLACE);
    memset(&info, 0, sizeof info);
    info.ops = info.grad_ops = ~(uint64_t)0;
    info.dtypes = ~0u;
    info.flags = BCT_CAP_STRIDED | BCT_CAP_INPLACE | BCT_CAP_OUT | BCT_CAP_WEAK_SCALAR;   /* everything but B46 */
    CHECK(br_skip_reason(c, &info, BCT_PROFILE_NUMPY, why, sizeof why) != NULL);
    CHECK(strcmp(why, "unsupported: in-place gradient (no grad_form)") == 0);
    CHECK(!br_skip_probeable(why));   /* --probe-limits must not hand it over either */
    info.grad_ops = (uint64_t)1 << BCT_MUL;   /* an unclaimed gradient op is probeable: the form comes first */
    CHECK(br_skip_reason(c, &info, BCT_PROFILE_NUMPY, why, sizeof why) != NULL);
    CHECK(strcmp(why, "unsupported: in-place gradient (no grad_form)") == 0);
    info.grad_ops = ~(uint64_t)0;
    info.flags |= BCT_CAP_GRAD_FORMS;
    CHECK(br_skip_reason(c, &info, BCT_PROFILE_NUMPY, why, sizeof why) == NULL);
    {
        br_buf b = { 0 };
        br_case_write(c, &b);
        CHECK(b.s != NULL && strstr(b.s, "\nmode grad inplace\n") != NULL);
        br_buf_free(&b);
    }
    br_caseset_free(&cs);
    free(inplace);
    /* the value form: grad_form 0, and run by a target without the flag */
    CHECK(load_text(&cs, grad_case, &err) == 0);
    br_case_call(&cs.cases[0], BCT_PROFILE_TORCH, args, &call);
    CHECK_EQ_I64(call.grad_form, BCT_GRAD_VALUE);
    info.flags &= ~BCT_CAP_GRAD_FORMS;
    CHECK(br_skip_reason(&cs.cases[0], &info, BCT_PROFILE_NUMPY, why, sizeof why) == NULL);
    br_caseset_free(&cs);
    /* out=: x, y, out, grad; the reader checks the arity, the out arg and the op */
    refused("mode grad\n", "mode grad out\n", "the arg before grad is named out");
    refused("mode grad\n", "mode grad sideways\n", "unknown mode");
    refused("op add\nmode grad\n", "op maximum\nmode grad inplace\n", "has no in-place gradient");
    refused("op add\nmode grad\n", "op matmul\nmode grad out\n", "has no out= gradient");
    accepted("mode grad\n", "mode grad inplace\n");
    refused("arg grad f32 (3,4)", "arg out f32 (3,4) (4,1) 0 12\nvalues 0 0 0 0 0 0 0 0 0 0 0 0\narg grad f32 (3,4)",
            "takes 3 args, found 4");   /* an out arg belongs to mode grad out only */
    {
        char *o = mutate("arg grad f32 (3,4)", "arg out f32 (3,4) (4,1) 0 12\nvalues 0 0 0 0 0 0 0 0 0 0 0 0\n"
                                               "arg grad f32 (3,4)");
        char *o2 = NULL;
        const char *m = strstr(o, "mode grad\n");
        CHECK(m != NULL);
        if (m != NULL) {   /* the same with mode grad out: loads, 4 args, form out */
            size_t a = (size_t)(m - o);
            o2 = malloc(strlen(o) + 5);
            memcpy(o2, o, a);
            strcpy(o2 + a, "mode grad out\n");
            strcat(o2, m + strlen("mode grad\n"));
            CHECK(load_text(&cs, o2, &err) == 0);
            CHECK_EQ_I64(cs.cases[0].nargs, 4);
            CHECK_EQ_I64(cs.cases[0].grad_form, BCT_GRAD_OUT);
            info.flags = 0;
            CHECK(br_skip_reason(&cs.cases[0], &info, BCT_PROFILE_NUMPY, why, sizeof why) != NULL);
            CHECK(strcmp(why, "unsupported: out= gradient (no grad_form)") == 0);
            br_caseset_free(&cs);
        }
        free(o);
        free(o2);
    }
}

int main(void)
{
    RUN(test_grad_case_loads);
    RUN(test_grad_divergent_profiles);
    RUN(test_grad_reader_refuses);
    RUN(test_where_cond_has_no_gradient);
    RUN(test_abs_tolerance);
    RUN(test_judge_classifies_gradient_bugs);
    RUN(test_grad_forms);
    return check_summary();
}
