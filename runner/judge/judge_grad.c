/* judge_grad.c - judging a grad-mode call (B23-B31): every gradient the
 * target produced against the case's, and the autodiff bug it looks like:
 * a gradient left at the result's shape, size-1 dims dropped, summed over
 * the wrong dims, scaled by the broadcast factor, missing, extra. */
#include "judge/judge_grad.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_ref.h"
#include "target/call.h"
#include "judge/compare.h"
#include "isolate/guard.h"
#include "results/report.h"

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void gfail(br_grad_verdict *gv, int outcome, int failure, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(gv->reason, sizeof gv->reason, fmt, ap);
    va_end(ap);
    gv->failed = 1;
    gv->outcome = outcome;
    gv->failure = failure;
}

int br_grad_memory(const br_case *c, const br_wres *r, const char *base, br_grad_verdict *gv)
{
    for (int i = 0; i < BR_MAX_GRADS && i < c->nargs; i++)
        if (r->grad[i].calls > 0 && r->grad[i].off >= 0 && !br_slack_ok(base, r->grad[i].off, r->grad[i].bytes)) {
            gfail(gv, BR_O_VIOLATION, BR_FK_VIOLATION, "write outside the gradient of %s (the bytes around it changed)",
                  c->args[i].name);
            snprintf(gv->detail, sizeof gv->detail, "write-outside-gradient");
            snprintf(gv->behaviour, sizeof gv->behaviour, "memory violation: write outside a gradient");
            return 1;
        }
    return 0;
}

/* ---- what a wrong gradient shape means ---- */

static int dims_equal(const int64_t *a, int ra, const int64_t *b, int rb)
{
    return ra == rb && (ra == 0 || memcmp(a, b, (size_t)ra * sizeof *a) == 0);
}

/* Whether p (rank rp) is r (rank rr) summed with keepdims over some dims:
 * the same rank, each extent r's or 1. */
static int keepdims_sum_of(const int64_t *p, int rp, const int64_t *r, int rr)
{
    if (rp != rr) return 0;
    for (int d = 0; d < rp; d++)
        if (p[d] != r[d] && p[d] != 1) return 0;
    return 1;
}

/* How a produced gradient shape p relates to input a's shape e and the
 * result's shape r (the incoming gradient's): the classic ways a backward
 * pass gets sum-to-shape wrong (B23), in words that name no operand, so
 * findings merge across ops. Returns the words; *tag gets a short detail. */
static const char *shape_relation(const br_case *c, int arg, const int64_t *p, int rp, const char **tag)
{
    const br_arg *a = &c->args[arg], *g = &c->args[c->nargs - 1];
    const int64_t *e = a->shape, *r = g->shape;
    int re = a->rank, rr = g->rank, lead = rr - re;
    int64_t kept[BC_MAX_RANK], lead1[BC_MAX_RANK];
    int nk = 0;
    if (dims_equal(p, rp, r, rr)) { *tag = "not-reduced"; return "not reduced: the gradient has the result's shape"; }
    for (int d = 0; d < re; d++)   /* e without the 1s that were stretched */
        if (!(e[d] == 1 && lead + d >= 0 && r[lead + d] != 1)) kept[nk++] = e[d];
    if (nk != re && dims_equal(p, rp, kept, nk)) {
        *tag = "ones-dropped";
        return "a stretched size-1 dim dropped instead of kept as 1";
    }
    if (lead >= 0 && !dims_equal(r + lead, re, e, re) && dims_equal(p, rp, r + lead, re)) {
        *tag = "ones-not-summed";
        return "leading dims summed away, stretched size-1 dims not summed";
    }
    if (lead > 0 && rp == rr) {
        int ok = 1;
        for (int d = 0; d < rr && ok; d++) lead1[d] = d < lead ? 1 : e[d - lead];
        ok = dims_equal(p, rp, lead1, rr);
        if (ok) { *tag = "leading-kept"; return "leading dims summed but kept as 1 instead of removed"; }
    }
    if (keepdims_sum_of(p, rp, r, rr) || (lead >= 0 && keepdims_sum_of(p, rp, r + lead, re))) {
        *tag = "wrong-dims";
        return "summed over the wrong dims";
    }
    for (int i = 0; i + 1 < c->nargs; i++)
        if (i != arg && dims_equal(p, rp, c->args[i].shape, c->args[i].rank)) {
            *tag = "other-operand";
            return "another operand's shape";
        }
    *tag = "other";
    return "a shape no rule explains";
}

/* ---- what wrong gradient values mean ---- */

static double elem(int dtype, const void *p, int64_t i)
{
    if (dtype == BCT_F32) { float f; memcpy(&f, (const char *)p + i * 4, 4); return f; }
    double d;
    memcpy(&d, (const char *)p + i * 8, 8);
    return d;
}

/* Whether got is want times k in every element (zeros to zeros; NaN/inf
 * rule the ratio out): the number of non-zero elements of want that agree
 * (0 when they do not). Sets *k. */
static int64_t scaled(int dtype, const void *want, const void *got, int64_t n, double *k)
{
    int64_t have = 0;
    for (int64_t i = 0; i < n; i++) {
        double w = elem(dtype, want, i), g = elem(dtype, got, i);
        if (!isfinite(w) || !isfinite(g)) return 0;
        if (w == 0) { if (g != 0) return 0; continue; }
        if (!have) { *k = g / w; have = 1; continue; }
        if (fabs(g - *k * w) > 1e-5 * fabs(g) + 1e-30) return 0;
        have++;
    }
    return have;
}

/* The classic value bugs of a gradient whose shape is right, as measured:
 * all zeros (whether the library wrote them or left the zeroed buffer is not
 * told apart), sign flipped, scaled by the broadcast factor (summed twice or
 * over the broadcast), averaged instead of summed (a mean), scaled by some
 * other constant (only when at least two non-zero elements share the ratio:
 * any one number is a multiple of any other). NULL when none fits. */
static const char *value_relation(const br_case *c, int arg, int dtype, const void *want, const void *got,
                                  int64_t n, const char **tag)
{
    const br_arg *a = &c->args[arg], *g = &c->args[c->nargs - 1];
    int64_t ne = br_shape_count(a->shape, a->rank), nr = br_shape_count(g->shape, g->rank);
    double k = 0, f = ne > 0 && nr > 0 ? (double)nr / (double)ne : 0;
    int64_t agree = scaled(dtype, want, got, n, &k);
    if (agree == 0) return NULL;
    if (k == 0) { *tag = "zeros"; return "all zeros"; }
    if (k == -1) { *tag = "sign-flipped"; return "the sign flipped"; }
    if (f > 1 && fabs(k - f) < 1e-6 * f) { *tag = "scaled-by-broadcast-factor"; return "scaled by the broadcast factor"; }
    if (f > 1 && fabs(k * f - 1) < 1e-6) { *tag = "averaged"; return "averaged over the stretched dims instead of summed"; }
    if (agree < 2) return NULL;   /* one element: a different value, nothing more */
    *tag = "scaled";
    return "scaled by a constant";
}

/* ---- summaries ---- */

static void put_summary(char *buf, size_t cap, const char *name, int dtype, int rank, const int64_t *shape,
                        const void *data, int64_t n)
{
    char sh[200], vals[200] = "";
    size_t o = strlen(buf);
    if (o + 1 >= cap) return;
    br_shape_str(shape, rank, sh, sizeof sh);
    if (data != NULL && n >= 0) br_format_values(dtype, data, n, 6, vals, sizeof vals);
    snprintf(buf + o, cap - o, "%s%s: %s %s%s%s", o ? "; " : "", name, bc_dtype_name(dtype), sh,
             vals[0] ? " " : "", vals);
}

static void summaries(const br_case *c, int profile, const br_wres *r, const char *base, br_grad_verdict *gv)
{
    gv->expected[0] = gv->actual[0] = '\0';
    for (int i = 0; i + 1 < c->nargs && i < BR_MAX_GRADS; i++) {
        const br_expect *e = br_pick_grad(c, profile, i);
        const br_wgrad *g = &r->grad[i];
        if (e != NULL)
            put_summary(gv->expected, sizeof gv->expected, c->args[i].name, e->dtype, e->rank, e->shape,
                        e->data_kind == BR_DATA_VALUES ? e->values : NULL, e->nelem);
        if (g->calls > 0 && g->dtype >= 0 && g->dtype < BCT_DTYPE_COUNT)
            put_summary(gv->actual, sizeof gv->actual, c->args[i].name, g->dtype, g->rank, g->shape,
                        g->off >= 0 ? base + g->off : NULL, br_shape_count(g->shape, g->rank));
    }
    if (!gv->actual[0]) snprintf(gv->actual, sizeof gv->actual, "no gradient");
}

/* ---- one gradient ---- */

/* Compares input i's gradient g with e; fills gv on a mismatch (returns 1). */
static int judge_one(const br_case *c, int profile, int i, const br_expect *e, const br_wgrad *g,
                     const char *base, br_grad_verdict *gv)
{
    const char *name = c->args[i].name, *tag = "";
    char a[256], b[256];
    if (g->dtype != e->dtype) {
        int res = c->args[c->nargs - 1].dtype;
        gfail(gv, BR_O_FAIL, BR_FK_WRONG_DTYPE, "gradient of %s: dtype %s, expected %s (its operand's)", name,
              bc_dtype_name(g->dtype), bc_dtype_name(e->dtype));
        snprintf(gv->detail, sizeof gv->detail, "%s", g->dtype == res ? "the-result-dtype" : "another-dtype");
        snprintf(gv->behaviour, sizeof gv->behaviour, "gradient dtype: %s instead of its operand's",
                 g->dtype == res ? "the result's dtype" : "another dtype");
        return 1;
    }
    if (!dims_equal(g->shape, g->rank, e->shape, e->rank)) {
        const char *rel = shape_relation(c, i, g->shape, g->rank, &tag);
        br_shape_str(e->shape, e->rank, a, sizeof a);
        br_shape_str(g->shape, g->rank, b, sizeof b);
        gfail(gv, BR_O_FAIL, BR_FK_WRONG_SHAPE, "gradient of %s: shape %s, expected %s: %s", name, b, a, rel);
        snprintf(gv->detail, sizeof gv->detail, "gradient-%s", tag);
        snprintf(gv->behaviour, sizeof gv->behaviour, "gradient shape: %s", rel);
        return 1;
    }
    if (e->nelem == 0) return 0;
    const void *got = base + g->off;
    void *refbuf = NULL;
    const void *want = e->values;
    int64_t first = -1;
    if (e->data_kind == BR_DATA_DIGEST) {
        if (br_digest(e->dtype, got, e->nelem) == e->digest) return 0;
        want = refbuf = br_ref_grad(c, profile, i);
        if (want == NULL) {
            gfail(gv, BR_O_FAIL, BR_FK_WRONG_VALUES, "gradient of %s: digest mismatch (ref could not recompute it)", name);
            snprintf(gv->detail, sizeof gv->detail, "gradient-digest");
            return 1;
        }
    }
    if (!br_compare_tol(e->dtype, want, got, e->nelem, e->cmp, e->ulp, e->abs_tol, &first)) { free(refbuf); return 0; }
    {
        br_diff d;
        char ix[300], ev[48], av[48], desc[600];
        const char *rel = value_relation(c, i, e->dtype, want, got, e->nelem, &tag);
        br_diff_compute_tol(e->dtype, want, got, e->nelem, e->cmp, e->ulp, e->abs_tol, &d);
        br_format_index(e->shape, e->rank, first, ix, sizeof ix);
        br_format_value(e->dtype, want, first, ev, sizeof ev);
        br_format_value(e->dtype, got, first, av, sizeof av);
        br_diff_describe(&d, e->shape, e->rank, desc, sizeof desc);
        gfail(gv, BR_O_FAIL, BR_FK_WRONG_VALUES, "gradient of %s: wrong values%s%s: %s; at %s expected %s, got %s",
              name, rel ? ", " : "", rel ? rel : "", desc, ix, ev, av);
        if (rel == NULL) tag = d.dominant >= 0 ? br_diff_class_names[d.dominant] : "other";
        snprintf(gv->detail, sizeof gv->detail, "gradient-%s", tag);
        snprintf(gv->behaviour, sizeof gv->behaviour, "gradient values: %s", rel ? rel : tag);
    }
    free(refbuf);
    return 1;
}

void br_judge_grads(const br_case *c, int profile, const br_wres *r, const char *base, br_grad_verdict *gv)
{
    summaries(c, profile, r, base, gv);
    if (r->alloc_calls > 0) {
        gfail(gv, BR_O_FAIL, BR_FK_NO_OUTPUT, "alloc_output called in grad mode (gradients come from alloc_grad)");
        snprintf(gv->detail, sizeof gv->detail, "alloc-output-in-grad-mode");
        snprintf(gv->behaviour, sizeof gv->behaviour, "calls alloc_output in grad mode");
        return;
    }
    if (r->grad_bad > 0) {
        gfail(gv, BR_O_FAIL, BR_FK_NO_OUTPUT, "alloc_grad refused a request: %s", r->refuse);
        snprintf(gv->detail, sizeof gv->detail, "alloc-grad-refused");
        snprintf(gv->behaviour, sizeof gv->behaviour, "alloc_grad misuse: %s", r->refuse);
        return;
    }
    for (int i = 0; i + 1 < c->nargs && i < BR_MAX_GRADS; i++) {
        const br_expect *e = br_pick_grad(c, profile, i);
        const br_wgrad *g = &r->grad[i];
        const char *name = c->args[i].name;
        if (e != NULL && g->calls == 0) {
            gfail(gv, BR_O_FAIL, BR_FK_NO_OUTPUT, "no gradient of %s (alloc_grad was not called for it)", name);
            snprintf(gv->detail, sizeof gv->detail, "gradient-missing");
            snprintf(gv->behaviour, sizeof gv->behaviour, "gradient of %s missing", name);
            return;
        }
        if (e == NULL && g->calls > 0) {
            gfail(gv, BR_O_FAIL, BR_FK_NO_OUTPUT, "a gradient of %s, which has none (%s)", name,
                  c->op == BCT_WHERE && i == 0 ? "where's cond" : "not a floating-point input (B31)");
            snprintf(gv->detail, sizeof gv->detail, "gradient-extra");
            snprintf(gv->behaviour, sizeof gv->behaviour, "a gradient for a non-differentiable operand");
            return;
        }
        if (e != NULL && judge_one(c, profile, i, e, g, base, gv)) return;
    }
}

/* ---- ref's gradient, for a digest mismatch ---- */

typedef struct ref_grads { void *p[BR_MAX_GRADS]; } ref_grads;

static void *ref_alloc_grad(void *ctx, int k, int dtype, int rank, const int64_t *shape)
{
    ref_grads *g = ctx;
    int64_t n = br_shape_count(shape, rank);
    if (k < 0 || k >= BR_MAX_GRADS || g->p[k] != NULL || n < 0 || n > BR_MAX_RESULT_BYTES / 8) return NULL;
    g->p[k] = calloc((size_t)(n ? n : 1), (size_t)bc_dtype_size(dtype));
    return g->p[k];
}

void *br_ref_grad(const br_case *c, int profile, int arg)
{
    bct_array args[BR_MAX_ARGS];
    bct_call call;
    ref_grads g;
    char msg[256];
    bc_error err;
    void *res = NULL;
    memset(&g, 0, sizeof g);
    br_case_call(c, profile, args, &call);
    call.alloc_grad = ref_alloc_grad;
    call.ctx = &g;
    call.message = msg;
    call.message_cap = sizeof msg;
    if (bc_eval(&call, &err) == BCT_OK && arg >= 0 && arg < BR_MAX_GRADS) { res = g.p[arg]; g.p[arg] = NULL; }
    for (int k = 0; k < BR_MAX_GRADS; k++) free(g.p[k]);
    return res;
}
