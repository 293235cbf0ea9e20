/* judge.c - deciding each case's outcome: capability skips, and comparing what
 * a worker produced against the case's expectation. Runs in the parent, on
 * memory the target could not reach except through its own output. */
#include "judge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "call.h"
#include "compare.h"

int br_is_contiguous(const br_arg *a)
{
    int64_t n = br_shape_count(a->shape, a->rank);
    if (n == 0) return 1;
    /* a contiguous view fits its storage, so the products below cannot overflow */
    if (n < 0 || n > a->storage || a->offset != 0) return 0;
    int64_t want = 1;
    for (int i = a->rank - 1; i >= 0; i--) {
        if (a->shape[i] != 1 && a->strides[i] != want) return 0;
        want *= a->shape[i];
    }
    return 1;
}

const char *br_skip_reason(const br_case *c, const br_target_info *t, int profile, char *buf, size_t cap)
{
    if (!(t->ops & ((uint64_t)1 << c->op))) {
        snprintf(buf, cap, "unsupported: op %s", bc_op_name(c->op));
        return buf;
    }
    if (c->mode == BCT_MODE_INPLACE && !(t->flags & BCT_CAP_INPLACE)) { snprintf(buf, cap, "unsupported: in-place mode"); return buf; }
    if (c->mode == BCT_MODE_OUT && !(t->flags & BCT_CAP_OUT)) { snprintf(buf, cap, "unsupported: out= mode"); return buf; }
    const br_expect *e = br_pick_expect(c, profile);
    for (int i = 0; i < c->nargs; i++) {
        const br_arg *a = &c->args[i];
        if (a->dtype != BCT_NONE && !(t->dtypes & (1u << a->dtype))) {
            snprintf(buf, cap, "unsupported: dtype %s", bc_dtype_name(a->dtype));
            return buf;
        }
        if (t->max_rank > 0 && a->rank > t->max_rank) {
            snprintf(buf, cap, "unsupported: rank %d above the target's max_rank %d", a->rank, t->max_rank);
            return buf;
        }
        if (a->dtype != BCT_NONE && !(t->flags & BCT_CAP_STRIDED) && !br_is_contiguous(a)) {
            snprintf(buf, cap, "unsupported: strided/offset arg %s", a->name);
            return buf;
        }
    }
    if (e != NULL && e->status == BCT_OK) {
        if (e->dtype != BCT_NONE && !(t->dtypes & (1u << e->dtype))) {
            snprintf(buf, cap, "unsupported: result dtype %s", bc_dtype_name(e->dtype));
            return buf;
        }
        if (t->max_rank > 0 && e->rank > t->max_rank) {
            snprintf(buf, cap, "unsupported: result rank %d above the target's max_rank %d", e->rank, t->max_rank);
            return buf;
        }
    }
    if (t->max_rank > 0 && c->target_rank > t->max_rank) {
        snprintf(buf, cap, "unsupported: target shape rank %d above max_rank %d", c->target_rank, t->max_rank);
        return buf;
    }
    return NULL;
}

static const char *mode_name(int m)
{
    return m == BCT_MODE_INPLACE ? "inplace" : m == BCT_MODE_OUT ? "out" : "value";
}

void br_rec_describe(br_report *rep, br_rec *x, const br_case *c)
{
    x->id = c->id;          /* case strings outlive the report */
    x->suite = c->suite;
    x->tags = c->tags;
    x->rules = c->rules;
    x->op = bc_op_name(c->op);
    x->mode = mode_name(c->mode);
    x->file = c->file;
    x->line = c->line;
    br_buf d = { 0 }, s = { 0 }, st = { 0 };
    for (int i = 0; i < c->nargs; i++) {
        const br_arg *a = &c->args[i];
        char sh[BC_MAX_RANK * 21 + 4];
        br_buf_puts(&d, i ? " " : "");
        br_buf_puts(&d, a->dtype == BCT_NONE ? "-" : bc_dtype_name(a->dtype));
        br_shape_str(a->shape, a->rank, sh, sizeof sh);
        br_buf_puts(&s, i ? " " : "");
        br_buf_puts(&s, sh);
        if (a->dtype != BCT_NONE) br_shape_str(a->strides, a->rank, sh, sizeof sh);
        else snprintf(sh, sizeof sh, "-");
        br_buf_puts(&st, i ? " " : "");
        br_buf_puts(&st, sh);
    }
    x->dtypes = br_report_str(rep, d.s);
    x->shapes = br_report_str(rep, s.s);
    x->strides = br_report_str(rep, st.s);
    br_buf_free(&d);
    br_buf_free(&s);
    br_buf_free(&st);
}

static void summary(char *buf, size_t cap, int dtype, const int64_t *shape, int rank, const void *data, int64_t n)
{
    char sh[200], vals[300];
    br_shape_str(shape, rank, sh, sizeof sh);
    if (dtype == BCT_NONE) { snprintf(buf, cap, "- %s", sh); return; }
    if (data == NULL) { snprintf(buf, cap, "%s %s", bc_dtype_name(dtype), sh); return; }
    br_format_values(dtype, data, n, 8, vals, sizeof vals);
    snprintf(buf, cap, "%s %s %s", bc_dtype_name(dtype), sh, vals);
}

static void expect_summary(char *buf, size_t cap, const br_expect *e)
{
    if (e->status != BCT_OK) { snprintf(buf, cap, "error %s", bc_status_name(e->status)); return; }
    if (e->data_kind == BR_DATA_DIGEST) {
        char sh[256];
        br_shape_str(e->shape, e->rank, sh, sizeof sh);
        snprintf(buf, cap, "%s %s digest %016llx", bc_dtype_name(e->dtype), sh, (unsigned long long)e->digest);
        return;
    }
    summary(buf, cap, e->dtype, e->shape, e->rank, e->values, e->nelem);
}

/* Whether bytes [lo, hi) of base all hold the canary (compared a word at a time). */
static int canary_ok(const char *base, int64_t lo, int64_t hi)
{
    static const unsigned char word[8] = { BR_CANARY, BR_CANARY, BR_CANARY, BR_CANARY,
                                           BR_CANARY, BR_CANARY, BR_CANARY, BR_CANARY };
    int64_t i = lo;
    for (; i + 8 <= hi; i += 8) if (memcmp(base + i, word, 8) != 0) return 0;
    for (; i < hi; i++) if ((unsigned char)base[i] != BR_CANARY) return 0;
    return 1;
}

/* Checks the slack around a block isolate.c placed at off (n bytes): the
 * block ends on a page boundary after rounding n up to 8. */
static int slack_ok(const char *base, int64_t off, int64_t n)
{
    static int64_t pg;
    if (off < 0) return 1;
    if (pg == 0) { long sp = sysconf(_SC_PAGESIZE); pg = sp > 0 ? sp : 4096; }
    int64_t rn = (n + 7) & ~(int64_t)7;
    int64_t start_page = off / pg * pg;
    return canary_ok(base, start_page, off) && canary_ok(base, off + n, off + rn);
}

typedef struct ref_out { void *p; int dtype, rank; int64_t shape[BC_MAX_RANK]; int calls; } ref_out;

static void *ref_alloc(void *ctx, int dtype, int rank, const int64_t *shape)
{
    ref_out *o = ctx;
    if (o->calls++ || rank < 0 || rank > BC_MAX_RANK) return NULL;
    int64_t n = br_shape_count(shape, rank);
    if (n < 0 || n > BR_MAX_RESULT_BYTES) return NULL;
    o->dtype = dtype;
    o->rank = rank;
    memcpy(o->shape, shape, (size_t)rank * sizeof *shape);
    size_t es = dtype == BCT_NONE ? 1 : (size_t)bc_dtype_size(dtype);
    o->p = calloc((size_t)(n ? n : 1), es);
    return o->p;
}

/* The expected output recomputed on ref, for a digest mismatch: a malloc'd C-order buffer, or NULL. */
static void *ref_expected(const br_case *c, int profile, const br_expect *e)
{
    bct_array args[BR_MAX_ARGS];
    bct_call call;
    void *wcopy = NULL;
    br_case_call(c, profile, args, &call);
    int wi = br_writable_arg(c);
    if (wi >= 0) {
        size_t nb = br_arg_storage_bytes(&c->args[wi]);
        wcopy = malloc(nb ? nb : 1);
        if (wcopy == NULL) return NULL;
        memcpy(wcopy, c->args[wi].data, nb);
        args[wi].data = wcopy;
    }
    ref_out o;
    memset(&o, 0, sizeof o);
    char msg[256];
    call.alloc_output = ref_alloc;
    call.ctx = &o;
    call.message = msg;
    call.message_cap = sizeof msg;
    bc_error err;
    int st = bc_eval(&call, &err);
    void *res = NULL;
    if (st == BCT_OK) {
        if (o.p != NULL && o.dtype == e->dtype) { res = o.p; o.p = NULL; }
        else if (o.p == NULL && wi >= 0) {
            const br_arg *a = &c->args[wi];
            res = malloc((size_t)(e->nelem ? e->nelem : 1) * (size_t)bc_dtype_size(a->dtype));
            if (res != NULL) br_gather(wcopy, a->dtype, a->rank, a->shape, a->strides, a->offset, res);
        }
    }
    free(o.p);
    free(wcopy);
    return res;
}

#define FAIL(outc, ...) do { x->outcome = (outc); snprintf(reason, sizeof reason, __VA_ARGS__); goto done; } while (0)

void br_judge(br_report *rep, br_rec *x, const br_case *c, int profile, int kind,
              const br_wres *r, const char *base, const char *why)
{
    char reason[700] = "", exps[600] = "", acts[600] = "", mism[300] = "";
    void *gathered = NULL, *refbuf = NULL;
    const br_expect *e = br_pick_expect(c, profile);
    /* What the target produced, kept so the texts below are only formatted
     * for a case that does not pass (most cases pass). */
    enum { ACT_NONE, ACT_ERROR, ACT_VALUE } act = ACT_NONE;
    const void *data = NULL;
    int dtype = BCT_NONE, rank = 0;
    const int64_t *shape = NULL;
    int64_t n = 0;
    x->outcome = BR_O_PASS;
    if (kind != BR_RUN_DONE) {
        x->outcome = kind == BR_RUN_TIMEOUT ? BR_O_TIMEOUT : kind == BR_RUN_VIOLATION ? BR_O_VIOLATION : BR_O_CRASH;
        snprintf(reason, sizeof reason, "%s", why ? why : "crashed");
        goto done;
    }
    x->duration_ms = (double)r->dur_ns / 1e6;
    if (e == NULL) FAIL(BR_O_FAIL, "runner: no expectation for profile %s", bc_profile_name(profile));
    if (r->status == -1 && r->w_off < 0 && r->message[0] && strncmp(r->message, "runner:", 7) == 0)
        FAIL(BR_O_SKIP, "%s", r->message);
    for (int i = 0; i < c->nargs && i < 31; i++)
        if (r->inputs_changed & (1 << i)) FAIL(BR_O_VIOLATION, "write into an input (arg %s changed)", c->args[i].name);
    if (r->out_off >= 0 && !slack_ok(base, r->out_off, r->out_bytes))
        FAIL(BR_O_VIOLATION, "write outside the output (the bytes around it changed)");
    if (r->w_off >= 0 && !slack_ok(base, r->w_off, r->w_bytes))
        FAIL(BR_O_VIOLATION, "write outside %s's storage", c->mode == BCT_MODE_INPLACE ? "self" : "out");
    const br_arg *wa = c->mode == BCT_MODE_INPLACE ? &c->args[0] : c->mode == BCT_MODE_OUT ? &c->args[c->nargs - 1] : NULL;
    if (r->status != BCT_OK) {
        if (r->status < 0 || r->status >= BCT_STATUS_COUNT)
            FAIL(BR_O_FAIL, "the target returned an invalid status %d", r->status);
        x->error_class = bc_status_name(r->status);
        x->error_message = br_report_str(rep, r->message);
        act = ACT_ERROR;
        /* B22: a failed in-place op leaves self untouched -- except where the
         * profile's own library writes self before raising (gen tags those
         * cases self-modified): a target that does the same matches it. */
        if (c->mode == BCT_MODE_INPLACE && r->w_off >= 0 && r->w_bytes > 0
            && memcmp(base + r->w_off, wa->data, (size_t)r->w_bytes) != 0
            && !br_has_word(c->tags, "self-modified"))
            FAIL(BR_O_VIOLATION, "self changed by a failed in-place op (B22)");
        if (e->status == BCT_OK) FAIL(BR_O_FAIL, "unexpected error %s: %s", x->error_class, r->message);
        if (e->status != r->status)
            FAIL(BR_O_FAIL, "wrong error class: expected %s, got %s (%s)", bc_status_name(e->status),
                 x->error_class, r->message);
        goto done;
    }
    /* the call succeeded: find what it produced */
    if (r->alloc_refused) FAIL(BR_O_FAIL, "alloc_output refused the request: %s", r->refuse);
    if (c->mode == BCT_MODE_INPLACE) {
        if (r->alloc_calls) FAIL(BR_O_FAIL, "an in-place op called alloc_output");
    } else if (c->mode == BCT_MODE_VALUE && r->alloc_calls == 0) {
        FAIL(BR_O_FAIL, "no output: the target returned OK without calling alloc_output");
    }
    if (r->alloc_calls) {
        dtype = r->out_dtype; rank = r->out_rank; shape = r->out_shape;
        data = r->out_off >= 0 ? base + r->out_off : NULL;
    } else {
        dtype = wa->dtype; rank = wa->rank; shape = wa->shape;
        int64_t cnt = br_shape_count(shape, rank);
        if (cnt < 0 || cnt > BR_MAX_RESULT_BYTES / bc_dtype_size(dtype)) FAIL(BR_O_FAIL, "the call succeeded on a self/out view too large to compare");
        gathered = malloc((size_t)(cnt ? cnt : 1) * (size_t)bc_dtype_size(dtype));
        if (gathered == NULL) FAIL(BR_O_FAIL, "runner: out of memory");
        br_gather(r->w_off >= 0 ? base + r->w_off : NULL, dtype, rank, shape, wa->strides, wa->offset, gathered);
        data = gathered;
    }
    n = dtype == BCT_NONE ? 0 : br_shape_count(shape, rank);
    act = ACT_VALUE;
    if (e->status != BCT_OK) FAIL(BR_O_FAIL, "expected error %s, but the call succeeded", bc_status_name(e->status));
    if (dtype != e->dtype)
        FAIL(BR_O_FAIL, "wrong dtype: expected %s, got %s", e->dtype == BCT_NONE ? "-" : bc_dtype_name(e->dtype),
             dtype == BCT_NONE ? "-" : bc_dtype_name(dtype));
    if (rank != e->rank || memcmp(shape, e->shape, (size_t)rank * sizeof *shape) != 0) {
        char a[256], b[256];
        br_shape_str(e->shape, e->rank, a, sizeof a);
        br_shape_str(shape, rank, b, sizeof b);
        FAIL(BR_O_FAIL, "wrong shape: expected %s, got %s", a, b);
    }
    if (dtype == BCT_NONE || n == 0) goto done;
    const void *want = e->values;
    int64_t first = -1;
    if (e->data_kind == BR_DATA_DIGEST) {
        if (br_digest(dtype, data, n) == e->digest) goto done;
        refbuf = ref_expected(c, profile, e);
        want = refbuf;
        if (want == NULL) FAIL(BR_O_FAIL, "wrong values: digest mismatch (ref could not recompute the result)");
        if (!br_compare(dtype, want, data, n, e->cmp, e->ulp, &first))
            FAIL(BR_O_FAIL, "wrong values: digest mismatch, yet the output equals ref's (the case's digest disagrees with ref)");
    } else if (!br_compare(dtype, want, data, n, e->cmp, e->ulp, &first)) goto done;
    {
        char ev[48], av[48];
        br_format_index(shape, rank, first, mism, sizeof mism);
        br_format_value(dtype, want, first, ev, sizeof ev);
        br_format_value(dtype, data, first, av, sizeof av);
        FAIL(BR_O_FAIL, "wrong values%s: first mismatch at index %s (flat %lld): expected %s, got %s",
             e->data_kind == BR_DATA_DIGEST ? " (digest mismatch, localised on ref)" : "", mism,
             (long long)first, ev, av);
    }
done:
    x->reason = br_report_str(rep, reason);
    if (x->outcome != BR_O_PASS) {
        if (e != NULL) expect_summary(exps, sizeof exps, e);
        if (act == ACT_ERROR) snprintf(acts, sizeof acts, "error %s: %s", x->error_class, r->message);
        else if (act == ACT_VALUE) summary(acts, sizeof acts, dtype, shape, rank, data, n);
        x->expected = br_report_str(rep, exps);
        x->actual = br_report_str(rep, acts);
        x->mismatch = br_report_str(rep, mism);
    }
    free(gathered);
    free(refbuf);
}
