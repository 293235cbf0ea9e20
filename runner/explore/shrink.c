/* shrink.c - greedy delta debugging over a spec: candidates from ordered passes, run in batches through the workers, kept when they fail the same way and are smaller. */
#include "explore/shrink.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/call.h"
#include "results/findings.h"
#include "judge/judge.h"
#include "target/skip.h"
#include "results/report.h"

/* ---- size: the order candidates must descend in ---- */

/* elems: operands' elements, doubled, an empty operand counting 3 (see measure_of) */
typedef struct measure { int64_t elems, rank, mode, noncontig, storage, values; } measure;

/* How simple a value is: 0 for +0, 1 for 1/true, 2 for small integers, 3 other finite, 4 special. */
static int value_cost(int dtype, const unsigned char *p)
{
    if (dtype == BCT_F32 || dtype == BCT_F64) {
        double v;
        if (dtype == BCT_F32) { float f; memcpy(&f, p, 4); v = f; } else memcpy(&v, p, 8);
        if (v == 0) return signbit(v) ? 4 : 0;
        if (!isfinite(v)) return 4;
        return v == 1 ? 1 : (fabs(v) <= 2 && v == floor(v)) ? 2 : 3;
    }
    int64_t v = 0;
    switch (dtype) {
    case BCT_BOOL: case BCT_U8: v = *p; break;
    case BCT_I8: { int8_t x; memcpy(&x, p, 1); v = x; break; }
    case BCT_I16: { int16_t x; memcpy(&x, p, 2); v = x; break; }
    case BCT_I32: { int32_t x; memcpy(&x, p, 4); v = x; break; }
    default: memcpy(&v, p, 8); break;
    }
    return v == 0 ? 0 : v == 1 ? 1 : (v >= -2 && v <= 2) ? 2 : (v > -1000000 && v < 1000000) ? 3 : 4;
}

/* How far a's layout is from C-contiguous: dims whose stride is not the
 * contiguous one (even in an empty view), plus an offset. */
static int64_t layout_cost(const br_sarg *a)
{
    int64_t st[BC_MAX_RANK], n = a->offset != 0;
    br_sarg_contiguous_strides(a, st);
    for (int d = 0; d < a->rank; d++) n += a->shape[d] != 1 && a->strides[d] != st[d];
    return n;
}

static measure measure_of(const br_spec *s)
{
    measure m = { 0, s->target_rank > 0 ? s->target_rank : 0, s->mode != BCT_MODE_VALUE, 0, 0, 0 };
    for (int i = 0; i < s->nargs; i++) {
        const br_sarg *a = &s->args[i];
        /* an empty operand ranks between 1 element and 2: a one-element
         * repro reads better than an empty one, unless emptiness matters */
        int64_t n = br_sarg_count(a), w = n == 0 ? 3 : n > INT64_MAX / 2 ? INT64_MAX : 2 * n;
        m.elems = m.elems > INT64_MAX - w ? INT64_MAX : m.elems + w;
        m.rank += a->rank;
        if (a->dtype == BCT_NONE) continue;
        m.noncontig += layout_cost(a);
        m.storage += a->storage;
        int es = bc_dtype_size(a->dtype);
        for (int64_t k = 0; k < a->storage; k++) m.values += value_cost(a->dtype, a->data + k * es);
    }
    return m;
}

/* Whether a comes strictly before b in the order (elements, rank, mode, non-contiguous, storage, values). */
static int smaller(const measure *a, const measure *b)
{
    const int64_t x[6] = { a->elems, a->rank, a->mode, a->noncontig, a->storage, a->values };
    const int64_t y[6] = { b->elems, b->rank, b->mode, b->noncontig, b->storage, b->values };
    for (int i = 0; i < 6; i++) if (x[i] != y[i]) return x[i] < y[i];
    return 0;
}

/* ---- dims that belong together ----
 * A group is one dim of the broadcast: the operands' dims that line up with it
 * (right-aligned; for axis_add, y's dims line up at axis; for matmul, the core
 * dims n, k, m, then the batch dims), and the target shape's entry. */

typedef struct member { int arg, dim; } member;
enum { TARGET = -1 };

static int64_t axis_start(const br_spec *s)
{
    return s->axis == -1 ? s->args[0].rank - s->args[1].rank : s->axis;
}

static int max_rank_of(const br_spec *s)
{
    int r = s->target_rank > 0 ? s->target_rank : 0;
    for (int i = 0; i < s->nargs; i++) if (s->args[i].rank > r) r = s->args[i].rank;
    return r;
}

static int ngroups(const br_spec *s)
{
    if (s->op == BCT_AXIS_ADD) return s->args[0].rank;
    if (s->op == BCT_MATMUL) return 3 + (max_rank_of(s) > 2 ? max_rank_of(s) - 2 : 0);
    return max_rank_of(s);
}

/* Members of group g (0 = the outermost dim of the broadcast). Returns the count. */
static int group(const br_spec *s, int g, member *m)
{
    int n = 0, R = max_rank_of(s);
    if (s->op == BCT_AXIS_ADD) {
        int64_t j = g - axis_start(s);
        m[n++] = (member){ 0, g };
        if (j >= 0 && j < s->args[1].rank) m[n++] = (member){ 1, (int)j };
        return n;
    }
    if (s->op == BCT_MATMUL) {
        const br_sarg *x = &s->args[0], *y = &s->args[1];
        if (g == 0 && x->rank >= 1) m[n++] = (member){ 0, x->rank - 1 };             /* k */
        if (g == 0 && y->rank >= 1) m[n++] = (member){ 1, y->rank >= 2 ? y->rank - 2 : 0 };
        if (g == 1 && x->rank >= 2) m[n++] = (member){ 0, x->rank - 2 };             /* n */
        if (g == 2 && y->rank >= 2) m[n++] = (member){ 1, y->rank - 1 };             /* m */
        int p = g - 3 + 3;   /* batch: the p-th dim from the right, p >= 3 */
        for (int i = 0; g >= 3 && i < 2; i++)
            if (s->args[i].rank >= 3 && s->args[i].rank - p >= 0) m[n++] = (member){ i, s->args[i].rank - p };
        return n;
    }
    int p = R - g;   /* from the right, 1-based */
    for (int i = 0; i < s->nargs; i++) if (s->args[i].rank >= p) m[n++] = (member){ i, s->args[i].rank - p };
    if (s->target_rank >= p) m[n++] = (member){ TARGET, s->target_rank - p };
    return n;
}

static int64_t extent_of(const br_spec *s, member mb)
{
    return mb.arg == TARGET ? s->target_shape[mb.dim] : s->args[mb.arg].shape[mb.dim];
}

/* Removes dim d of arg i: the view becomes its slice at index 0 there. */
static void drop_dim(br_spec *s, int i, int d)
{
    if (i == TARGET) {
        memmove(s->target_shape + d, s->target_shape + d + 1, (size_t)(s->target_rank - d - 1) * sizeof(int64_t));
        s->target_rank--;
        return;
    }
    br_sarg *a = &s->args[i];
    memmove(a->shape + d, a->shape + d + 1, (size_t)(a->rank - d - 1) * sizeof(int64_t));
    memmove(a->strides + d, a->strides + d + 1, (size_t)(a->rank - d - 1) * sizeof(int64_t));
    a->rank--;
}

/* Whether every element a's view addresses lies in [0, storage) (the format's rule). */
static int view_ok(const br_sarg *a)
{
    if (a->dtype == BCT_NONE) return 1;
    int64_t lo = a->offset, hi = a->offset;
    if (br_sarg_count(a) == 0) return a->offset >= 0 && a->offset <= a->storage;
    for (int d = 0; d < a->rank; d++) {
        int64_t span = (a->shape[d] - 1) * a->strides[d];
        if (span < 0) lo += span; else hi += span;
    }
    return lo >= 0 && hi < a->storage;
}

static int spec_ok(const br_spec *s)
{
    for (int i = 0; i < s->nargs; i++) if (!view_ok(&s->args[i])) return 0;
    return 1;
}

/* ---- layouts ---- */

/* Moves a's view into a fresh storage laid out with strides st, offset off
 * and `storage` elements (unaddressed elements 0). 0 or -1 (memory). */
static int relayout(br_sarg *a, const int64_t *st, int64_t off, int64_t storage)
{
    int es = bc_dtype_size(a->dtype);
    unsigned char *nd = calloc((size_t)(storage ? storage : 1), (size_t)es);
    if (nd == NULL) return -1;
    int64_t idx[BC_MAX_RANK] = { 0 }, from = a->offset, to = off;
    if (br_sarg_count(a) > 0)
        for (;;) {
            memcpy(nd + to * es, a->data + from * es, (size_t)es);
            int d = a->rank - 1;
            for (; d >= 0; d--) {
                if (++idx[d] < a->shape[d]) { from += a->strides[d]; to += st[d]; break; }
                from -= a->strides[d] * (a->shape[d] - 1);
                to -= st[d] * (a->shape[d] - 1);
                idx[d] = 0;
            }
            if (d < 0) break;
        }
    free(a->data);
    a->data = nd;
    a->datacap = (size_t)(storage ? storage : 1) * (size_t)es;
    memcpy(a->strides, st, (size_t)a->rank * sizeof *st);
    a->offset = off;
    a->storage = storage;
    return 0;
}

static int make_contiguous(br_sarg *a)
{
    int64_t st[BC_MAX_RANK];
    br_sarg_contiguous_strides(a, st);
    return relayout(a, st, 0, br_sarg_count(a));
}

/* The same kind of layout packed tight: the dims' order by |stride|, their
 * signs and stride-0 dims kept; padding and a spare offset dropped. */
static int make_tight(br_sarg *a)
{
    int64_t st[BC_MAX_RANK], acc = 1, lo = 0, hi = 0;
    int order[BC_MAX_RANK], n = 0;
    for (int d = 0; d < a->rank; d++) if (a->strides[d] != 0) order[n++] = d;
    for (int i = 1; i < n; i++)   /* insertion sort by |stride|, innermost first */
        for (int j = i; j > 0 && llabs((long long)a->strides[order[j]]) < llabs((long long)a->strides[order[j - 1]]); j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (int d = 0; d < a->rank; d++) st[d] = 0;
    for (int i = 0; i < n; i++) {
        int d = order[i];
        st[d] = a->strides[d] < 0 ? -acc : acc;
        acc *= a->shape[d] > 1 ? a->shape[d] : 1;
    }
    for (int d = 0; d < a->rank; d++) {
        int64_t span = (a->shape[d] > 0 ? a->shape[d] - 1 : 0) * st[d];
        if (span < 0) lo += span; else hi += span;
    }
    return relayout(a, st, -lo, br_sarg_count(a) == 0 ? 0 : hi - lo + 1);
}

/* The same strides, the storage cut to the span the view addresses (a spare
 * offset and tail dropped; elements inside the span kept as they are). */
static int make_trim(br_sarg *a)
{
    int64_t lo = 0, hi = 0, es = bc_dtype_size(a->dtype);
    if (br_sarg_count(a) == 0) { a->offset = 0; a->storage = 0; return 0; }
    for (int d = 0; d < a->rank; d++) {
        int64_t span = (a->shape[d] - 1) * a->strides[d];
        if (span < 0) lo += span; else hi += span;
    }
    int64_t first = a->offset + lo, n = hi - lo + 1;
    memmove(a->data, a->data + first * es, (size_t)(n * es));
    a->offset -= first;
    a->storage = n;
    return 0;
}

/* ---- values ---- */

static void set_value(br_sarg *a, int64_t k, int one)
{
    unsigned char *p = a->data + k * bc_dtype_size(a->dtype);
    switch (a->dtype) {
    case BCT_F32: { float f = (float)one; memcpy(p, &f, 4); break; }
    case BCT_F64: { double f = one; memcpy(p, &f, 8); break; }
    case BCT_I16: { int16_t v = (int16_t)one; memcpy(p, &v, 2); break; }
    case BCT_I32: { int32_t v = one; memcpy(p, &v, 4); break; }
    case BCT_I64: { int64_t v = one; memcpy(p, &v, 8); break; }
    default: *p = (unsigned char)one; break;   /* bool, i8, u8 */
    }
}

static void set_values(br_sarg *a, int64_t from, int64_t to, int one)
{
    for (int64_t k = from; k < to && k < a->storage; k++) set_value(a, k, one);
}

/* ---- the passes: candidate k of a pass, from the current spec ----
 * Each returns 1 with the candidate in out, 2 when k gives no candidate (go
 * on with k+1), 0 past the pass's last k, -1 when out of memory. */

enum { P_MODE, P_DROP_DIMS, P_DROP_LEAD, P_JOINT, P_SINGLE, P_LAYOUT, P_VALUES, P_COUNT };

static int cmp_member_desc(const void *a, const void *b)
{
    const member *x = a, *y = b;
    if (x->arg != y->arg) return x->arg - y->arg;
    return y->dim - x->dim;
}

/* In-place or out= becomes a plain call: self is x, out= goes. */
static int pass_mode(const br_spec *cur, long k, br_spec *out)
{
    if (k > 0 || cur->mode == BCT_MODE_VALUE || cur->mode == BCT_MODE_GRAD) return 0;   /* a gradient stays one */
    if (br_spec_copy(out, cur) != 0) return -1;
    if (out->mode == BCT_MODE_OUT) out->nargs--;
    else snprintf(out->args[0].name, sizeof out->args[0].name, "x");
    out->mode = BCT_MODE_VALUE;
    return 1;
}

/* Drops the groups [start, start+len) (ddmin order: all, halves, quarters ... single dims). */
static int pass_drop_dims(const br_spec *cur, long k, br_spec *out)
{
    int G = ngroups(cur), start = -1, len;
    long seen = 0;
    for (len = G; len >= 1; len = len == 1 ? 0 : (len + 1) / 2) {
        long chunks = (G + len - 1) / len;
        if (k < seen + chunks) { start = (int)(k - seen) * len; break; }
        seen += chunks;
    }
    if (start < 0) return 0;
    if (start + len > G) len = G - start;
    member all[BC_MAX_RANK * 4], m[BR_MAX_ARGS + 2];
    int n = 0;
    for (int g = start; g < start + len; g++) {
        int c = group(cur, g, m);
        for (int i = 0; i < c && n < BC_MAX_RANK * 4; i++) all[n++] = m[i];
    }
    if (br_spec_copy(out, cur) != 0) return -1;
    qsort(all, (size_t)n, sizeof *all, cmp_member_desc);
    int below = 0;   /* axis_add: x dims dropped before the axis */
    for (int i = 0; i < n; i++) {
        if (cur->op == BCT_AXIS_ADD && all[i].arg == 0 && all[i].dim < cur->axis) below++;
        drop_dim(out, all[i].arg, all[i].dim);
    }
    if (cur->op == BCT_AXIS_ADD && cur->axis != -1) out->axis -= below;
    return 1;
}

/* k < nargs: drops broadcast_shapes operand k; then each operand's leading
 * dim; then the target shape's leading entry. */
static int pass_drop_lead(const br_spec *cur, long k, br_spec *out)
{
    if (k < cur->nargs) {
        if (cur->op != BCT_BROADCAST_SHAPES || cur->nargs < 2) return 2;
        if (br_spec_copy(out, cur) != 0) return -1;
        br_sarg t = out->args[k];
        memmove(out->args + k, out->args + k + 1, (size_t)(out->nargs - k - 1) * sizeof t);
        out->args[out->nargs - 1] = t;   /* keep its buffer for reuse */
        out->nargs--;
        return 1;
    }
    k -= cur->nargs;
    if (k < cur->nargs && cur->args[k].rank == 0) return 2;
    if (k > cur->nargs || (k == cur->nargs && cur->target_rank <= 0)) return 0;
    if (br_spec_copy(out, cur) != 0) return -1;
    if (k < cur->nargs) {
        drop_dim(out, (int)k, 0);
        if (cur->op == BCT_AXIS_ADD && cur->axis > 0 && k == 0) out->axis--;
        if (cur->op == BCT_AXIS_ADD && cur->axis >= 0 && k == 1) out->axis++;
        return 1;
    }
    drop_dim(out, TARGET, 0);
    return 1;
}

/* The k-th lower extent tried for extent e (1, 0, 2, e/2, in that order), or -1 when it is not below e. */
static int64_t lower(int64_t e, long k)
{
    int64_t v = k == 0 ? 1 : k == 1 ? 0 : k == 2 ? 2 : e / 2;
    if (k == 3 && v <= 2) return -1;
    return v < e ? v : -1;
}

/* An operand whose extent was lowered, its storage cut to what it still
 * addresses (trim) or kept (so that a flaw reading past the view still shows). */
static int lowered(br_spec *out, int arg, int trim)
{
    if (arg == TARGET || !trim || out->args[arg].dtype == BCT_NONE) return 0;
    return make_trim(&out->args[arg]);
}

/* Lowers one whole dim of the broadcast: every member at its largest extent E
 * gets the same lower extent; k mod 8: the extent (lower(), k mod 4), storage
 * trimmed (first) or kept. */
static int pass_joint(const br_spec *cur, long k, br_spec *out)
{
    int g = (int)(k / 8), trim = k % 8 < 4;
    if (g >= ngroups(cur)) return 0;
    member m[BR_MAX_ARGS + 2];
    int n = group(cur, g, m);
    int64_t E = -1;
    for (int i = 0; i < n; i++) if (extent_of(cur, m[i]) > E) E = extent_of(cur, m[i]);
    int64_t v = lower(E, k % 4);
    if (v < 0) return 2;
    if (br_spec_copy(out, cur) != 0) return -1;
    for (int i = 0; i < n; i++) {
        if (extent_of(cur, m[i]) != E) continue;
        if (m[i].arg == TARGET) out->target_shape[m[i].dim] = v;
        else out->args[m[i].arg].shape[m[i].dim] = v;
    }
    for (int i = 0; i < n; i++) if (lowered(out, m[i].arg, trim) != 0) return -1;
    return 1;
}

/* Lowers one extent of one operand (or of the target shape); k mod 8 as for pass_joint. */
static int pass_single(const br_spec *cur, long k, br_spec *out)
{
    long slot = k / 8;
    int i = 0, trim = k % 8 < 4;
    while (i < cur->nargs && slot >= cur->args[i].rank) slot -= cur->args[i++].rank;
    int target = i == cur->nargs;
    if (target && slot >= (cur->target_rank > 0 ? cur->target_rank : 0)) return 0;
    int64_t e = target ? cur->target_shape[slot] : cur->args[i].shape[slot], v = lower(e, k % 4);
    if (v < 0) return 2;
    if (br_spec_copy(out, cur) != 0) return -1;
    if (target) out->target_shape[slot] = v;
    else out->args[i].shape[slot] = v;
    return lowered(out, target ? TARGET : i, trim) == 0 ? 1 : -1;
}

/* Operand k/3 made C-contiguous, packed tight, or trimmed (k mod 3). */
static int pass_layout(const br_spec *cur, long k, br_spec *out)
{
    int i = (int)(k / 3);
    if (i >= cur->nargs) return 0;
    const br_sarg *a = &cur->args[i];
    if (a->dtype == BCT_NONE || (layout_cost(a) == 0 && a->storage == br_sarg_count(a))) return 2;
    if (br_spec_copy(out, cur) != 0) return -1;
    br_sarg *w = &out->args[i];
    return (k % 3 == 0 ? make_contiguous(w) : k % 3 == 1 ? make_tight(w) : make_trim(w)) == 0 ? 1 : -1;
}

/* Value edits of one operand of S storage elements: all 0, all 1, then
 * chunks set to 0 (halves down to S/64), then (S <= 64) single elements to 1. */
static long value_edits(int64_t S)
{
    long n = 2;
    for (int64_t len = S / 2; len >= 1 && len * 64 >= S; len /= 2) n += (long)((S + len - 1) / len);
    return n + (S <= 64 ? (long)S : 0);
}

static int pass_values(const br_spec *cur, long k, br_spec *out)
{
    int i;
    for (i = 0; i < cur->nargs; i++) {
        if (cur->args[i].dtype == BCT_NONE) continue;
        long n = value_edits(cur->args[i].storage);
        if (k < n) break;
        k -= n;
    }
    if (i >= cur->nargs) return 0;
    int64_t S = cur->args[i].storage, from = 0, to = S;
    int one = k == 1;
    if (k >= 2) {
        int found = 0;
        k -= 2;
        for (int64_t len = S / 2; len >= 1 && len * 64 >= S; len /= 2) {
            long chunks = (long)((S + len - 1) / len);
            if (k < chunks) { from = k * len; to = from + len; found = 1; break; }
            k -= chunks;
        }
        if (!found) { from = k; to = k + 1; one = 1; }
    }
    if (br_spec_copy(out, cur) != 0) return -1;
    set_values(&out->args[i], from, to, one);
    return 1;
}

static int candidate(int p, const br_spec *cur, long k, br_spec *out)
{
    switch (p) {
    case P_MODE: return pass_mode(cur, k, out);
    case P_DROP_DIMS: return pass_drop_dims(cur, k, out);
    case P_DROP_LEAD: return pass_drop_lead(cur, k, out);
    case P_JOINT: return pass_joint(cur, k, out);
    case P_SINGLE: return pass_single(cur, k, out);
    case P_LAYOUT: return pass_layout(cur, k, out);
    default: return pass_values(cur, k, out);
    }
}

/* ---- running candidates ---- */

#define BATCH_MAX 16

typedef struct batch {
    const br_shrink_cfg *cfg;
    br_report rep;                 /* scratch: the judged records */
    size_t idx[BATCH_MAX];
    int outcome[BATCH_MAX];        /* BR_O_*, -1 when not built */
    char sig[BATCH_MAX][512];
    int n;
} batch;

static void on_done(void *ctx, size_t ci, int kind, const br_wres *res, const char *base, const br_loss *loss)
{
    batch *b = ctx;
    int k = 0;
    while (k < b->n && b->idx[k] != ci) k++;
    if (k == b->n) return;
    const br_case *c = &b->cfg->lv->cs->cases[ci];
    br_rec *x = br_report_add(&b->rep);
    br_judge(&b->rep, x, c, b->cfg->profile, kind, res, base, loss);
    b->outcome[k] = x->outcome;
    if (x->outcome != BR_O_PASS && x->outcome != BR_O_SKIP) br_finding_signature(x, b->sig[k], sizeof b->sig[k]);
}

/* Builds and runs specs[0..n) side by side; outcomes and signatures in b. Returns how many ran. */
static int run_batch(const br_shrink_cfg *cfg, const br_spec *const *specs, int n, batch *b)
{
    size_t torun[BATCH_MAX];
    int profs[BATCH_MAX], m = 0;
    br_live_rewind(cfg->lv);
    b->cfg = cfg;
    b->n = n;
    for (int k = 0; k < n; k++) {
        br_spec_meta meta = { "shrink/candidate", "shrink", "", "", "ref", "shrink", 1u << cfg->profile, 0 };
        b->outcome[k] = -1;
        b->sig[k][0] = '\0';
        if (br_spec_to_live(cfg->lv, specs[k], &meta, &b->idx[k]) != 0) { b->idx[k] = (size_t)-1; continue; }
        char why[200];
        if (!cfg->probed && br_skip_reason(&cfg->lv->cs->cases[b->idx[k]], cfg->info, cfg->profile, why, sizeof why) != NULL) {
            b->outcome[k] = BR_O_SKIP;
            continue;
        }
        torun[m] = b->idx[k];
        profs[m++] = cfg->profile;
    }
    if (m > 0) br_iso_run(cfg->iso, torun, profs, (size_t)m, on_done, b, cfg->stop);
    return m;
}

int br_shrink_judge(const br_shrink_cfg *cfg, const br_spec *s, char *sig, size_t cap, int *outcome)
{
    batch b;
    memset(&b, 0, sizeof b);
    run_batch(cfg, &s, 1, &b);
    *outcome = b.outcome[0];
    snprintf(sig, cap, "%s", b.sig[0]);
    br_report_free(&b.rep);
    return b.outcome[0] < 0 ? -1 : 0;
}

size_t br_shrink_case_bytes(const br_spec *s)
{
    size_t total = 4096 + (size_t)(s->target_rank > 0 ? s->target_rank : 0) * 16;
    int64_t ext[BC_MAX_RANK] = { 0 }, res = 1;
    int zero[BC_MAX_RANK] = { 0 };
    int R = max_rank_of(s);
    for (int i = 0; i < s->nargs; i++) {
        const br_sarg *a = &s->args[i];
        int64_t m = a->storage;   /* a view's elements live in its storage: a stride-0 view of 2^60 costs one */
        total += 512 + (size_t)a->rank * 32;
        for (int d = 0; d < a->rank; d++) {
            int64_t *e = &ext[R - a->rank + d];
            if (a->shape[d] > *e) *e = a->shape[d];
            zero[R - a->rank + d] |= a->shape[d] == 0;
        }
        if (a->dtype != BCT_NONE) total += (size_t)m * (size_t)bc_dtype_size(a->dtype) + 128;
    }
    for (int d = 0; d < s->target_rank; d++) {
        int64_t *e = &ext[R - s->target_rank + d];
        if (s->target_shape[d] > *e) *e = s->target_shape[d];
        zero[R - s->target_rank + d] |= s->target_shape[d] == 0;
    }
    /* A dim where an operand is 0 broadcasts to 0 or not at all (B3, B5): the
     * result is empty then, however large the other dims (a stride-0 view of
     * 2^61 rows next to an empty operand costs nothing). */
    for (int d = 0; d < R; d++) if (zero[d]) return total + 4096;
    for (int d = 0; d < R; d++) if (br_mul_i64(res, ext[d] > 1 ? ext[d] : 1, &res) != 0) return SIZE_MAX;
    /* the result (an upper bound: the largest extent of every dim), once per profile, 8-byte elements */
    if (res > ((int64_t)1 << 40)) return SIZE_MAX;
    return total + 2 * (size_t)res * 8 + 4096;
}

/* ---- the loop ---- */

typedef struct shrinker {
    const br_shrink_cfg *cfg;
    const char *want;
    br_spec cand[BATCH_MAX];
    int width;                     /* candidates per batch */
    int64_t t0;
    br_shrink_stats *st;
} shrinker;

static int out_of_budget(const shrinker *z)
{
    const br_shrink_cfg *cfg = z->cfg;
    if (cfg->stop != NULL && *cfg->stop) return 1;
    if (cfg->max_runs > 0 && z->st->runs >= cfg->max_runs) return 1;
    return cfg->seconds > 0 && (double)(br_now_ns() - z->t0) / 1e9 >= cfg->seconds;
}

/* Collects up to width candidates of pass p from *k on that are valid and
 * smaller than cur. Returns how many; *end is set when the pass has no more. */
static int collect(shrinker *z, int p, const br_spec *cur, const measure *mc, long *k, int *end, int *err)
{
    int n = 0, width = z->width;
    if (z->cfg->max_runs > 0 && z->cfg->max_runs - z->st->runs < width) width = (int)(z->cfg->max_runs - z->st->runs);
    *end = 0;
    while (n < width) {
        int rc = candidate(p, cur, (*k)++, &z->cand[n]);
        if (rc < 0) { *err = 1; return n; }
        if (rc == 0) { *end = 1; break; }
        if (rc == 2) continue;
        measure m = measure_of(&z->cand[n]);
        if (smaller(&m, mc) && spec_ok(&z->cand[n])) n++;
    }
    return n;
}

/* Runs pass p to a fixed point on cur. Returns 1 when it changed cur, 0 when not, -1 on error. */
static int run_pass(shrinker *z, int p, br_spec *cur)
{
    int changed = 0, end = 0, err = 0;
    long k = 0;
    measure mc = measure_of(cur);
    batch b;
    memset(&b, 0, sizeof b);
    while (!end && !out_of_budget(z)) {
        int n = collect(z, p, cur, &mc, &k, &end, &err);
        if (err) { br_report_free(&b.rep); return -1; }
        if (n == 0) break;
        const br_spec *specs[BATCH_MAX];
        for (int i = 0; i < n; i++) specs[i] = &z->cand[i];
        z->st->runs += run_batch(z->cfg, specs, n, &b);
        for (int i = 0; i < n; i++) {
            if (b.outcome[i] < 0 || b.outcome[i] == BR_O_PASS || b.outcome[i] == BR_O_SKIP) continue;
            if (strcmp(b.sig[i], z->want) != 0) continue;
            if (br_spec_copy(cur, &z->cand[i]) != 0) { br_report_free(&b.rep); return -1; }
            mc = measure_of(cur);
            z->st->steps++;
            changed = 1;
            k = 0;     /* a new case: its candidates from the start */
            end = 0;
            break;
        }
        /* the scratch report grows by one record per run: start it afresh */
        br_report_free(&b.rep);
    }
    return changed;
}

int br_shrink(const br_shrink_cfg *cfg, br_spec *s, const char *want, br_shrink_stats *st)
{
    shrinker z;
    memset(&z, 0, sizeof z);
    memset(st, 0, sizeof *st);
    z.cfg = cfg;
    z.want = want;
    z.st = st;
    z.t0 = br_now_ns();
    z.width = cfg->jobs < 1 ? 1 : cfg->jobs > BATCH_MAX ? BATCH_MAX : cfg->jobs;
    for (int i = 0; i < BATCH_MAX; i++) br_spec_init(&z.cand[i]);
    int rc = 0, progress = 1;
    while (progress && rc == 0 && !out_of_budget(&z)) {
        progress = 0;
        for (int p = 0; p < P_COUNT && rc == 0; p++) {
            int r = run_pass(&z, p, s);
            if (r < 0) rc = -1;
            else if (r > 0) progress = 1;
        }
    }
    st->budget_hit = out_of_budget(&z) && progress;
    st->seconds = (double)(br_now_ns() - z.t0) / 1e9;
    for (int i = 0; i < BATCH_MAX; i++) br_spec_free(&z.cand[i]);
    return rc;
}

void br_shrink_iso_caps(const br_spec *s, br_iso_cfg *cfg)
{
    int64_t in = 0;
    for (int i = 0; i < s->nargs; i++) {
        const br_sarg *a = &s->args[i];
        if (a->dtype == BCT_NONE) continue;
        int64_t m = a->storage * bc_dtype_size(a->dtype);   /* storage, as session.c sizes a run's arenas */
        if (m > cfg->arena_cap) cfg->arena_cap = m;
        in += m + 2 * 4096;
    }
    if (in > cfg->in_cap) cfg->in_cap = in;
}
