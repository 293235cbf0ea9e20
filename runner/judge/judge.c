/* judge.c - deciding each case's outcome: comparing what a worker produced
 * against the case's expectation. Runs in the parent, on memory the target could not reach except through its own output. */
#include "judge/judge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/call.h"
#include "judge/compare.h"
#include "results/case_features.h"
#include "judge/message_norm.h"
#include "judge/judge_grad.h"
#include "isolate/guard.h"

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

/* How a produced shape relates to the case, in words that do not depend on
 * which operand it was (so findings merge across ops): an operand's shape
 * (the zero-size one's, the first one's, another's), or how it differs from
 * the expected shape e (NULL when an error was expected). */
static const char *shape_relation(const br_case *c, const br_expect *e, const int64_t *shape, int rank)
{
    for (int pass = 0; pass < 2; pass++)   /* a zero-size operand's shape first: it names the cause */
        for (int i = 0; i < c->nargs; i++) {
            const br_arg *a = &c->args[i];
            int64_t n = br_shape_count(a->shape, a->rank);
            if ((pass == 0) != (n == 0) || a->dtype == BCT_NONE) continue;
            if (a->rank == rank && memcmp(a->shape, shape, (size_t)rank * sizeof *shape) == 0)
                return n == 0 ? "the zero-size operand's shape" : i == 0 ? "the first operand's shape" : "another operand's shape";
        }
    if (e == NULL || e->status != BCT_OK) return "a shape no operand has";
    if (rank == e->rank - 1) return "one dim fewer";
    if (rank == e->rank + 1) return "one dim more";
    if (rank != e->rank) return rank < e->rank ? "fewer dims" : "more dims";
    int zero_one = 0, other = 0;
    for (int d = 0; d < rank; d++) {
        if (shape[d] == e->shape[d]) continue;
        if (e->shape[d] == 0 && shape[d] == 1) zero_one++;
        else other++;
    }
    return zero_one && !other ? "a 0 extent became 1" : "other extents";
}

/* Whether an error class is about shapes (a produced shape then tells how
 * the target got them wrong) rather than dtypes or values. */
static int shape_class(int status)
{
    return status == BCT_ERR_NOT_BROADCASTABLE || status == BCT_ERR_INPLACE_SHAPE || status == BCT_ERR_INVALID_SHAPE
        || status == BCT_ERR_MATMUL_CORE || status == BCT_ERR_RANK_LIMIT || status == BCT_ERR_OVERFLOW || status == BCT_ERR_AXIS;
}

/* How a wrong result dtype relates to the expected one, without naming
 * either (so i8->i64 and i16->i64 widening is one behaviour). */
static const char *dtype_relation(int want, int got)
{
    static const int bits[] = { 1, 8, 8, 16, 32, 64, 32, 64 };
    if (want < 0 || got < 0 || want >= BCT_DTYPE_COUNT || got >= BCT_DTYPE_COUNT) return "not a dtype of the profile";
    int wf = want == BCT_F32 || want == BCT_F64, gf = got == BCT_F32 || got == BCT_F64;
    if (want == BCT_BOOL) return gf ? "a float instead of bool" : "an integer instead of bool";
    if (got == BCT_BOOL) return "bool instead of a number";
    if (wf != gf) return gf ? "a float instead of an integer" : "an integer instead of a float";
    if (bits[got] > bits[want]) return wf ? "a wider float" : "a wider integer";
    if (bits[got] < bits[want]) return wf ? "a narrower float" : "a narrower integer";
    return "the other signedness";
}

/* The first storage element of the writable arg that the call changed but
 * its view does not address, or -1 (B22's neighbour: a write outside the view). */
static int64_t changed_outside_view(const br_arg *a, const char *copy)
{
    int64_t n = br_shape_count(a->shape, a->rank), es = bc_dtype_size(a->dtype);
    if (copy == NULL || a->storage == 0 || memcmp(copy, a->data, (size_t)(a->storage * es)) == 0) return -1;
    if (n == 0) return 0;
    if (n < 0 || a->storage > ((int64_t)1 << 28)) return -1;   /* too large to map: the canaries still guard it */
    unsigned char *hit = calloc((size_t)a->storage, 1);
    if (hit == NULL) return -1;
    int64_t idx[BC_MAX_RANK] = { 0 }, pos = a->offset;
    for (;;) {
        if (pos >= 0 && pos < a->storage) hit[pos] = 1;
        int d = a->rank - 1;
        while (d >= 0) {
            if (++idx[d] < a->shape[d]) { pos += a->strides[d]; break; }
            pos -= a->strides[d] * (a->shape[d] - 1);
            idx[d] = 0;
            d--;
        }
        if (d < 0) break;
    }
    int64_t found = -1;
    for (int64_t i = 0; i < a->storage && found < 0; i++)
        if (!hit[i] && memcmp(copy + i * es, (const char *)a->data + i * es, (size_t)es) != 0) found = i;
    free(hit);
    return found;
}

typedef struct verdict {
    br_rec *x;
    br_report *rep;
    char reason[700];
    char detail[160];
    char behaviour[400];   /* what the target did, normalised (findings group on it) */
} verdict;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void fail_as(verdict *v, int outcome, int failure, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->reason, sizeof v->reason, fmt, ap);
    va_end(ap);
    v->x->outcome = outcome;
    v->x->failure = br_failure_names[failure];
}

/* Memory checks after a call that returned: inputs, the slack around the
 * output and the self/out copy, and the self/out storage outside its view.
 * Returns 1 when it found a violation. */
static int check_memory(verdict *v, const br_case *c, const br_wres *r, const char *base)
{
    for (int i = 0; i < c->nargs && i < 31; i++)
        if (r->inputs_changed & (1 << i)) {
            fail_as(v, BR_O_VIOLATION, BR_FK_VIOLATION, "write into an input (arg %s changed)", c->args[i].name);
            snprintf(v->detail, sizeof v->detail, "write-input");
            return 1;
        }
    if (r->out_off >= 0 && !br_slack_ok(base, r->out_off, r->out_bytes)) {
        fail_as(v, BR_O_VIOLATION, BR_FK_VIOLATION, "write outside the output (the bytes around it changed)");
        snprintf(v->detail, sizeof v->detail, "write-outside-output");
        return 1;
    }
    const char *wname = c->mode == BCT_MODE_INPLACE ? "self" : "out";
    if (r->w_off >= 0 && !br_slack_ok(base, r->w_off, r->w_bytes)) {
        fail_as(v, BR_O_VIOLATION, BR_FK_VIOLATION, "write outside %s's storage (the bytes around it changed)", wname);
        snprintf(v->detail, sizeof v->detail, "write-outside-%s-storage", wname);
        return 1;
    }
    int wi = br_writable_arg(c);
    if (wi >= 0 && r->w_off >= 0) {
        int64_t k = changed_outside_view(&c->args[wi], base + r->w_off);
        if (k >= 0) {
            fail_as(v, BR_O_VIOLATION, BR_FK_VIOLATION, "write into %s's storage outside its view (storage element %lld)",
                    wname, (long long)k);
            snprintf(v->detail, sizeof v->detail, "write-%s-outside-view", wname);
            return 1;
        }
    }
    return 0;
}

/* B22 for out='s metadata: a target reports that its library resized out
 * by calling alloc_output with out's new shape (docs/target-abi.md), so an
 * alloc_output call followed by an error says the failed call left out with
 * another shape, and strides that no longer describe out's storage. 1 when
 * it found that (the failure is set). */
static int out_resized_by_error(verdict *v, const br_case *c, const br_wres *r)
{
    if (c->mode != BCT_MODE_OUT || r->alloc_calls == 0 || r->alloc_refused) return 0;
    const br_arg *oa = &c->args[c->nargs - 1];
    char was[256], now[256];
    br_shape_str(oa->shape, oa->rank, was, sizeof was);
    br_shape_str(r->out_shape, r->out_rank, now, sizeof now);
    fail_as(v, BR_O_FAIL, BR_FK_OUT_METADATA, "out= left resized to %s (it was %s) by a call that raised %s: "
            "a failed out= call leaves out as it was (B22)", now, was, v->x->error_class);
    snprintf(v->detail, sizeof v->detail, "out-resized-after-error");
    snprintf(v->behaviour, sizeof v->behaviour, "raises %s, leaving out= resized", v->x->error_class);
    return 1;
}

/* B22 for self's and out='s memory: a failed in-place or out= call leaves
 * the written operand's storage as it was -- except where the profile's own
 * library writes it before raising (gen tags those cases self-modified or
 * out-modified): a target that does the same matches it. The copy's pre-call
 * bytes are the case's own storage, so this costs a memcmp on failed calls
 * only. 1 when it found a write (the violation is set). */
static int written_by_error(verdict *v, const br_case *c, const br_wres *r, const char *base)
{
    int inplace = c->mode == BCT_MODE_INPLACE;
    if ((!inplace && c->mode != BCT_MODE_OUT) || r->w_off < 0 || r->w_bytes <= 0) return 0;
    const br_arg *wa = inplace ? &c->args[0] : &c->args[c->nargs - 1];
    const char *wname = inplace ? "self" : "out";
    if (br_has_word(c->tags, inplace ? "self-modified" : "out-modified")
        || memcmp(base + r->w_off, wa->data, (size_t)r->w_bytes) == 0) return 0;
    if (inplace) fail_as(v, BR_O_VIOLATION, BR_FK_VIOLATION, "self changed by a failed in-place op (B22)");
    else fail_as(v, BR_O_VIOLATION, BR_FK_VIOLATION, "out= changed by a failed out= call (B22)");
    snprintf(v->detail, sizeof v->detail, "%s-modified-after-error", wname);
    return 1;
}

/* The call raised: compare classes; B22 for self's and out='s memory and out='s shape. */
static void judge_error(verdict *v, const br_case *c, const br_expect *e, const br_wres *r, const char *base)
{
    br_rec *x = v->x;
    if (r->status < 0 || r->status >= BCT_STATUS_COUNT) {
        fail_as(v, BR_O_FAIL, BR_FK_BAD_STATUS, "the target returned an invalid status %d", r->status);
        return;
    }
    x->error_class = bc_status_name(r->status);
    x->error_message = br_report_str(v->rep, r->message);
    if (written_by_error(v, c, r, base)) return;
    if (out_resized_by_error(v, c, r)) return;
    char msg[300];
    br_normalise_message(r->message, msg, sizeof msg);
    snprintf(v->behaviour, sizeof v->behaviour, "raises %s%s%s", x->error_class, msg[0] ? ": " : "", msg);
    if (e->status == BCT_OK) {
        fail_as(v, BR_O_FAIL, BR_FK_UNEXPECTED_ERROR, "unexpected error %s: %s", x->error_class, r->message);
        snprintf(v->detail, sizeof v->detail, "%s", x->error_class);
    } else if (e->status != r->status) {
        fail_as(v, BR_O_FAIL, BR_FK_WRONG_CLASS, "wrong error class: expected %s, got %s (%s)",
                bc_status_name(e->status), x->error_class, r->message);
        snprintf(v->detail, sizeof v->detail, "%s-got-%s", bc_status_name(e->status), x->error_class);
    }
}

typedef struct produced {
    const void *data;
    int dtype, rank;
    const int64_t *shape;
    int64_t n;
    void *gathered;   /* owned: the self/out view in C order */
} produced;

/* What a successful call produced: the output block, or the self/out view
 * gathered into C order (o->gathered, owned). 0, or -1 when too large. */
static int locate_output(const br_case *c, const br_wres *r, const char *base, produced *o)
{
    const br_arg *wa = c->mode == BCT_MODE_INPLACE ? &c->args[0] : c->mode == BCT_MODE_OUT ? &c->args[c->nargs - 1] : NULL;
    if (r->alloc_calls) {
        o->dtype = r->out_dtype; o->rank = r->out_rank; o->shape = r->out_shape;
        o->data = r->out_off >= 0 ? base + r->out_off : NULL;
    } else {
        if (wa == NULL) return -1;
        o->dtype = wa->dtype; o->rank = wa->rank; o->shape = wa->shape;
        int64_t cnt = br_shape_count(o->shape, o->rank);
        if (cnt < 0 || cnt > BR_MAX_RESULT_BYTES / bc_dtype_size(o->dtype)) return -1;
        o->gathered = malloc((size_t)(cnt ? cnt : 1) * (size_t)bc_dtype_size(o->dtype));
        if (o->gathered == NULL) return -1;
        br_gather(r->w_off >= 0 ? base + r->w_off : NULL, o->dtype, o->rank, o->shape, wa->strides, wa->offset, o->gathered);
        o->data = o->gathered;
    }
    o->n = o->dtype == BCT_NONE ? 0 : br_shape_count(o->shape, o->rank);
    return 0;
}

/* The call succeeded: find what it produced (0), or fail (-1). A self/out
 * view too large to gather still has its shape, which is all the judge needs
 * when e is an error. */
static int find_output(verdict *v, const br_case *c, const br_expect *e, const br_wres *r, const char *base,
                       produced *o)
{
    if (r->alloc_refused) { fail_as(v, BR_O_FAIL, BR_FK_NO_OUTPUT, "alloc_output refused the request: %s", r->refuse); return -1; }
    if (c->mode == BCT_MODE_INPLACE && r->alloc_calls) { fail_as(v, BR_O_FAIL, BR_FK_NO_OUTPUT, "an in-place op called alloc_output"); return -1; }
    if (c->mode == BCT_MODE_VALUE && r->alloc_calls == 0) {
        fail_as(v, BR_O_FAIL, BR_FK_NO_OUTPUT, "no output: the target returned OK without calling alloc_output");
        return -1;
    }
    if (locate_output(c, r, base, o) != 0) {
        if (o->shape != NULL && e->status != BCT_OK) {
            o->data = NULL;   /* the profile refuses the case: its values are never compared */
            o->n = 0;
            return 0;
        }
        fail_as(v, BR_O_FAIL, BR_FK_RUNNER, "the call succeeded on a self/out view too large to compare");
        return -1;
    }
    return 0;
}

void *br_produced_copy(const br_case *c, const br_wres *r, const char *base, int *dtype, int *rank,
                       int64_t *shape, int64_t *n)
{
    produced o;
    memset(&o, 0, sizeof o);
    if (r == NULL || r->status != BCT_OK || r->alloc_refused || locate_output(c, r, base, &o) != 0) return NULL;
    *dtype = o.dtype;
    *rank = o.rank;
    memcpy(shape, o.shape, (size_t)o.rank * sizeof *shape);
    *n = o.n;
    if (o.gathered != NULL) return o.gathered;
    size_t bytes = o.dtype == BCT_NONE ? 0 : (size_t)o.n * (size_t)bc_dtype_size(o.dtype);
    void *p = malloc(bytes ? bytes : 1);
    if (p != NULL && bytes && o.data != NULL) memcpy(p, o.data, bytes);
    return p;
}

/* Compares the values; on a mismatch, classifies every differing element. */
static void judge_values(verdict *v, const br_case *c, int profile, const br_expect *e, const produced *o)
{
    void *refbuf = NULL;
    const void *want = e->values;
    int64_t first = -1;
    if (e->data_kind == BR_DATA_DIGEST) {
        if (br_digest(o->dtype, o->data, o->n) == e->digest) return;
        refbuf = ref_expected(c, profile, e);
        want = refbuf;
        if (want == NULL) { fail_as(v, BR_O_FAIL, BR_FK_WRONG_VALUES, "wrong values: digest mismatch (ref could not recompute the result)"); return; }
        if (!br_compare(o->dtype, want, o->data, o->n, e->cmp, e->ulp, &first)) {
            fail_as(v, BR_O_FAIL, BR_FK_RUNNER, "wrong values: digest mismatch, yet the output equals ref's (the case's digest disagrees with ref)");
            free(refbuf);
            return;
        }
    } else if (!br_compare(o->dtype, want, o->data, o->n, e->cmp, e->ulp, &first)) return;
    br_diff d;
    br_diff_compute(o->dtype, want, o->data, o->n, e->cmp, e->ulp, &d);
    char ix[300], ev[48], av[48], desc[600];
    br_format_index(o->shape, o->rank, first, ix, sizeof ix);
    br_format_value(o->dtype, want, first, ev, sizeof ev);
    br_format_value(o->dtype, o->data, first, av, sizeof av);
    br_diff_describe(&d, o->shape, o->rank, desc, sizeof desc);
    fail_as(v, BR_O_FAIL, BR_FK_WRONG_VALUES, "wrong values%s: %s; at %s expected %s, got %s",
            e->data_kind == BR_DATA_DIGEST ? " (digest mismatch, localised on ref)" : "", desc, ix, ev, av);
    snprintf(v->detail, sizeof v->detail, "%s", d.dominant >= 0 ? br_diff_class_names[d.dominant] : "other");
    snprintf(v->behaviour, sizeof v->behaviour, "values: %s", v->detail);
    v->x->mismatch = br_report_str(v->rep, ix);
    v->x->diff = br_report_str(v->rep, desc);
    free(refbuf);
}

/* Judges a call that returned a result (not an error) against e. */
static void judge_result(verdict *v, const br_case *c, int profile, const br_expect *e, const produced *o)
{
    if (e->status != BCT_OK) {
        fail_as(v, BR_O_FAIL, BR_FK_EXPECTED_ERROR, "expected error %s, but the call succeeded", bc_status_name(e->status));
        snprintf(v->detail, sizeof v->detail, "%s", bc_status_name(e->status));
        /* the shape it produced says something only when the profile refused the shapes */
        if (shape_class(e->status)) {
            snprintf(v->behaviour, sizeof v->behaviour, "succeeds with a shape the profile refuses");
            snprintf(v->detail, sizeof v->detail, "%s", shape_relation(c, NULL, o->shape, o->rank));
        } else snprintf(v->behaviour, sizeof v->behaviour, "succeeds");
        return;
    }
    if (o->dtype != e->dtype) {
        const char *a = e->dtype == BCT_NONE ? "-" : bc_dtype_name(e->dtype), *b = o->dtype == BCT_NONE ? "-" : bc_dtype_name(o->dtype);
        fail_as(v, BR_O_FAIL, BR_FK_WRONG_DTYPE, "wrong dtype: expected %s, got %s", a, b ? b : "?");
        /* one behaviour for every promotion difference: a library's promotion
         * rules are one design; the relation (detail) tells the kinds apart */
        snprintf(v->detail, sizeof v->detail, "%s", dtype_relation(e->dtype, o->dtype));
        snprintf(v->behaviour, sizeof v->behaviour, "result dtype differs from the profile's promotion");
        return;
    }
    if (o->rank != e->rank || memcmp(o->shape, e->shape, (size_t)o->rank * sizeof *o->shape) != 0) {
        char a[256], b[256];
        br_shape_str(e->shape, e->rank, a, sizeof a);
        br_shape_str(o->shape, o->rank, b, sizeof b);
        fail_as(v, BR_O_FAIL, BR_FK_WRONG_SHAPE, "wrong shape: expected %s, got %s", a, b);
        snprintf(v->detail, sizeof v->detail, "%s", shape_relation(c, e, o->shape, o->rank));
        snprintf(v->behaviour, sizeof v->behaviour, "succeeds with a wrong shape");
        return;
    }
    if (o->dtype != BCT_NONE && o->n > 0) judge_values(v, c, profile, e, o);
}

/* Copies a grad-mode verdict into v when use is set and it failed; returns
 * whether it did. */
static int grad_verdict(verdict *v, const br_grad_verdict *gv, int use)
{
    if (!use || !gv->failed) return 0;
    fail_as(v, gv->outcome, gv->failure, "%s", gv->reason);
    snprintf(v->detail, sizeof v->detail, "%s", gv->detail);
    snprintf(v->behaviour, sizeof v->behaviour, "%s", gv->behaviour);
    return 1;
}

/* What a lost case did: the signal and the last line the target printed,
 * the violation, or the timeout. */
static void loss_behaviour(verdict *v, int outcome, const br_loss *loss)
{
    if (outcome == BR_O_TIMEOUT) { snprintf(v->behaviour, sizeof v->behaviour, "hangs (timeout)"); return; }
    if (outcome == BR_O_VIOLATION) { snprintf(v->behaviour, sizeof v->behaviour, "memory violation: %s", v->detail); return; }
    char msg[300] = "", told[4200], line[600];   /* told: a whole stderr line (a tail is at most 4 KiB) */
    br_telling_line(loss && loss->stderr_tail ? loss->stderr_tail : "", told, sizeof told);
    br_crash_line(told, line, sizeof line);
    br_normalise_message(line, msg, sizeof msg);
    snprintf(v->behaviour, sizeof v->behaviour, "crashes with %s%s%s", v->detail, msg[0] ? ": " : "", msg);
}

/* Clears what a verdict sets, so that judging a record again (a re-run in a
 * fresh worker judges a copy of the first run's record) keeps nothing of the
 * earlier verdict: an error class left from a first run that raised, judged
 * with the re-run's crash (no result), was read through its NULL result. */
static void clear_verdict(br_rec *x)
{
    x->reason = x->expected = x->actual = x->mismatch = "";
    x->error_class = x->error_message = "";
    x->failure = x->detail = x->behaviour = x->stderr_tail = x->diff = "";
    x->duration_ms = 0;
}

void br_judge(br_report *rep, br_rec *x, const br_case *c, int profile, int kind,
              const br_wres *r, const char *base, const br_loss *loss)
{
    clear_verdict(x);
    verdict v;
    v.x = x;
    v.rep = rep;
    v.reason[0] = v.detail[0] = v.behaviour[0] = '\0';
    produced o;
    memset(&o, 0, sizeof o);
    br_grad_verdict gv;
    memset(&gv, 0, sizeof gv);
    int act_value = 0;
    const br_expect *e = br_pick_expect(c, profile);
    x->outcome = BR_O_PASS;
    if (kind != BR_RUN_DONE) {
        int oc = kind == BR_RUN_TIMEOUT ? BR_O_TIMEOUT : kind == BR_RUN_VIOLATION ? BR_O_VIOLATION : BR_O_CRASH;
        fail_as(&v, oc, kind == BR_RUN_TIMEOUT ? BR_FK_TIMEOUT : kind == BR_RUN_VIOLATION ? BR_FK_VIOLATION : BR_FK_CRASH,
                "%s", loss && loss->why ? loss->why : "crashed");
        snprintf(v.detail, sizeof v.detail, "%s", loss && loss->detail ? loss->detail : "");
        x->stderr_tail = br_report_str(rep, loss ? loss->stderr_tail : "");
        loss_behaviour(&v, oc, loss);
        goto done;
    }
    x->duration_ms = (double)r->dur_ns / 1e6;
    if (e == NULL) { fail_as(&v, BR_O_FAIL, BR_FK_RUNNER, "runner: no expectation for profile %s", bc_profile_name(profile)); goto done; }
    if (r->status == -1 && r->w_off < 0 && r->message[0] && strncmp(r->message, "runner:", 7) == 0) {
        fail_as(&v, BR_O_SKIP, BR_FK_RUNNER, "%s", r->message);
        x->failure = "";
        goto done;
    }
    if (check_memory(&v, c, r, base)) goto done;
    if (c->mode == BCT_MODE_GRAD && grad_verdict(&v, &gv, br_grad_memory(c, r, base, &gv))) goto done;
    if (r->status != BCT_OK) { judge_error(&v, c, e, r, base); goto done; }
    if (c->mode == BCT_MODE_GRAD && e->status != BCT_OK) {   /* expected an error, got gradients */
        br_judge_grads(c, profile, r, base, &gv);             /* for the summary of what it produced */
        fail_as(&v, BR_O_FAIL, BR_FK_EXPECTED_ERROR, "expected error %s, but the call succeeded",
                bc_status_name(e->status));
        snprintf(v.detail, sizeof v.detail, "%s", bc_status_name(e->status));
        snprintf(v.behaviour, sizeof v.behaviour, "succeeds");
        goto done;
    }
    if (c->mode == BCT_MODE_GRAD) {
        br_judge_grads(c, profile, r, base, &gv);
        grad_verdict(&v, &gv, 1);
        goto done;
    }
    if (find_output(&v, c, e, r, base, &o) != 0) goto done;
    act_value = 1;
    judge_result(&v, c, profile, e, &o);
done:
    x->reason = br_report_str(rep, v.reason);
    x->detail = br_report_str(rep, v.detail);
    if (x->outcome != BR_O_PASS && x->outcome != BR_O_SKIP && !v.behaviour[0])
        snprintf(v.behaviour, sizeof v.behaviour, "%s: %s", x->failure, v.detail[0] ? v.detail : v.reason);
    x->behaviour = br_report_str(rep, v.behaviour);
    if (x->outcome != BR_O_PASS) {
        char exps[600] = "", acts[600] = "";
        if (e != NULL) expect_summary(exps, sizeof exps, e);
        if (gv.expected[0]) snprintf(exps, sizeof exps, "%s", gv.expected);
        if (x->error_class[0]) snprintf(acts, sizeof acts, "error %s: %s", x->error_class, r->message);
        else if (act_value) summary(acts, sizeof acts, o.dtype, o.shape, o.rank, o.data, o.n);
        else if (gv.actual[0]) snprintf(acts, sizeof acts, "%s", gv.actual);
        x->expected = br_report_str(rep, exps);
        x->actual = br_report_str(rep, acts);
    }
    free(o.gathered);
}
