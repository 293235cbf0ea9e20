/* grad_expect.c - the expectations of an explored gradient case: ref's backward pass, one per differentiable input, with a bound for the summation order. */
#include "explore/grad_expect.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "bcast_ref.h"
#include "base/util.h"
#include "target/call.h"

typedef struct grad_out {
    br_live *lv;
    int refused, n;
    int arg[BR_MAX_ARGS], dtype[BR_MAX_ARGS], rank[BR_MAX_ARGS];
    int64_t *shape[BR_MAX_ARGS], nelem[BR_MAX_ARGS];
    void *p[BR_MAX_ARGS];
} grad_out;

/* alloc_grad for ref: each gradient goes straight into the live set. */
static void *grad_alloc(void *ctx, int arg, int dtype, int rank, const int64_t *shape)
{
    grad_out *o = ctx;
    int64_t n = br_shape_count(shape, rank), bytes = 0;
    if (o->n >= BR_MAX_ARGS || rank < 0 || rank > BC_MAX_RANK || n < 0 ||
        br_mul_i64(n, bc_dtype_size(dtype), &bytes) != 0 || (uint64_t)bytes > br_live_room(o->lv)) {
        o->refused = 1;
        return NULL;
    }
    void *p = br_live_alloc(o->lv, (size_t)(bytes ? bytes : 1));
    int64_t *d = br_live_alloc(o->lv, (size_t)(rank ? rank : 1) * sizeof *d);
    if (p == NULL || d == NULL) { o->refused = 1; return NULL; }
    if (rank > 0) memcpy(d, shape, (size_t)rank * sizeof *d);
    memset(p, 0, (size_t)(bytes ? bytes : 1));
    o->arg[o->n] = arg;
    o->dtype[o->n] = dtype;
    o->rank[o->n] = rank;
    o->shape[o->n] = d;
    o->nelem[o->n] = n;
    o->p[o->n++] = p;
    return p;
}

/* The largest magnitude in a's storage (every element, not only the view's). */
static double max_abs(const br_arg *a)
{
    double m = 0;
    int es = bc_dtype_size(a->dtype);
    const unsigned char *p = a->data;
    for (int64_t i = 0; p != NULL && i < a->storage; i++, p += es) {
        double v = 0;
        switch (a->dtype) {
        case BCT_BOOL: case BCT_U8: v = *p; break;
        case BCT_I8: { int8_t x; memcpy(&x, p, 1); v = x; break; }
        case BCT_I16: { int16_t x; memcpy(&x, p, 2); v = x; break; }
        case BCT_I32: { int32_t x; memcpy(&x, p, 4); v = x; break; }
        case BCT_I64: { int64_t x; memcpy(&x, p, 8); v = (double)x; break; }
        case BCT_F32: { float x; memcpy(&x, p, 4); v = x; break; }
        default: memcpy(&v, p, 8); break;
        }
        v = fabs(v);
        if (!(v <= m)) m = v;   /* NaN makes m NaN: no bound */
    }
    return m;
}

/* A of `ulp 0 abs A` for the gradient of input `arg` (see grad_expect.h); 0: exact. */
static double tolerance(const br_case *c, int arg, int gdtype)
{
    const br_arg *g = &c->args[c->nargs - 1], *a = &c->args[arg];
    int64_t nres = br_shape_count(g->shape, g->rank), nin = br_shape_count(a->shape, a->rank);
    if (nres <= 0 || nin <= 0) return 0;
    double T = ceil((double)nres / (double)nin), F = 1, eps = gdtype == BCT_F32 ? FLT_EPSILON : DBL_EPSILON;
    for (int i = 0; i < c->nargs - 1; i++) {
        const br_arg *o = &c->args[i];
        if (o->dtype == BCT_F32) eps = FLT_EPSILON;
        if (i == arg || !(c->op == BCT_MUL || c->op == BCT_MATMUL)) continue;
        F = max_abs(o);
        if (c->op == BCT_MATMUL)
            for (int d = o->rank >= 2 ? o->rank - 2 : 0; d < o->rank; d++) T *= (double)(o->shape[d] > 1 ? o->shape[d] : 1);
    }
    if (T <= 1) return 0;   /* one term per element: no order to differ in */
    double S = T * max_abs(g) * F, bound = (T + 8) * eps * S;
    if (!(bound > 0) || isinf(bound)) return 0;   /* nothing to sum, or no finite bound: exact */
    return ldexp(1.0, (int)ceil(log2(bound)));
}

int br_grad_expect(br_live *lv, const br_case *c, int profile, br_expect *e, int cap)
{
    bct_array args[BR_MAX_ARGS];
    bct_call call;
    char msg[256];
    grad_out o;
    memset(&o, 0, sizeof o);
    o.lv = lv;
    br_case_call(c, profile, args, &call);
    call.alloc_grad = grad_alloc;
    call.ctx = &o;
    call.message = msg;
    call.message_cap = sizeof msg;
    bc_error err;
    int st = bc_eval(&call, &err);
    if (o.refused || cap < (st == BCT_OK ? o.n : 1)) return -1;
    if (st != BCT_OK || o.n == 0) {
        memset(e, 0, sizeof *e);
        e->profile = profile;
        e->status = st == BCT_OK ? BCT_ERR_OTHER : st;   /* ok without a gradient: cannot happen */
        e->grad_arg = -1;
        return 1;
    }
    for (int k = 0; k < o.n; k++) {   /* in argument order (ref allocates them so; sorted to be sure) */
        int j = k;
        for (int i = k + 1; i < o.n; i++) if (o.arg[i] < o.arg[j]) j = i;
        br_expect *x = &e[k];
        memset(x, 0, sizeof *x);
        x->profile = profile;
        x->status = BCT_OK;
        x->grad_arg = o.arg[j];
        x->dtype = o.dtype[j];
        x->rank = o.rank[j];
        x->shape = o.shape[j];
        x->nelem = o.nelem[j];
        x->values = o.p[j];
        x->data_kind = BR_DATA_VALUES;
        x->abs_tol = tolerance(c, o.arg[j], o.dtype[j]);
        x->cmp = x->abs_tol > 0 ? BR_CMP_ULP : BR_CMP_EXACT;
        if (j != k) {   /* swap the unsorted entry into j's place */
            int ta = o.arg[k], td = o.dtype[k], tr = o.rank[k];
            int64_t *ts = o.shape[k], tn = o.nelem[k];
            void *tp = o.p[k];
            o.arg[k] = o.arg[j]; o.dtype[k] = o.dtype[j]; o.rank[k] = o.rank[j];
            o.shape[k] = o.shape[j]; o.nelem[k] = o.nelem[j]; o.p[k] = o.p[j];
            o.arg[j] = ta; o.dtype[j] = td; o.rank[j] = tr; o.shape[j] = ts; o.nelem[j] = tn; o.p[j] = tp;
        }
    }
    return o.n;
}
