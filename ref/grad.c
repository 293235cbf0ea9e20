/* grad.c - BCT_MODE_GRAD, the backward pass of the broadcasting ops: each
 * differentiable input's gradient is the op's local derivative times the
 * incoming gradient, summed over the dims along which that input was
 * stretched (B23-B31). One odometer walk over the result; each gradient is
 * read and written through stride 0 where its operand was stretched, so
 * nothing is ever materialised at the result's shape (B17). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ref_internal.h"

#define GCHUNK 256   /* terms computed per step; also the block of B23's summation order */

/* ---- B23: adding terms into a gradient, in the documented order ---- */

/* Adds n terms (src, byte stride ss) into dst (byte stride ds), all of dtype
 * T. ds == 0 (the row runs along a stretched dim: every term goes to one
 * element): the terms are summed in sixteen interleaved partial sums (lane j
 * takes terms j, j+16, ..., so four vector adds run in parallel), combined
 * pairwise (lane j += lane j+8, then j+4, j+2, j+1), and that sum is added to
 * the element; a single term is added as it is (the iterator gives a row of
 * extent 1 stride 0: summed through +0 lanes, a -0 term of an operand that
 * was not stretched became +0, found by explore's gradient cases). Otherwise each term is added to its own element. Callers pass
 * at most GCHUNK terms per call. */
#define ACC_FN(NAME, T)                                                                  \
    static void NAME(char *dst, int64_t ds, const char *src, int64_t ss, int64_t n)      \
    {                                                                                    \
        const int64_t z = (int64_t)sizeof(T);                                            \
        if (ds == 0 && n == 1) {   /* one term (a row of extent 1): no lanes, no +0 */  \
            *(T *)(void *)dst += *(const T *)(const void *)src;                          \
        } else if (ds == 0) {                                                            \
            T l[16] = { 0 }, sum;                                                        \
            int64_t i = 0;                                                               \
            if (ss == z) {                                                               \
                const T *s = (const T *)(const void *)src;                               \
                for (; i + 16 <= n; i += 16)                                             \
                    for (int j = 0; j < 16; j++) l[j] += s[i + j];                       \
            }                                                                            \
            for (; i < n; i++) l[i % 16] += *(const T *)(const void *)(src + i * ss);    \
            for (int w = 8; w > 0; w /= 2)   /* pairwise: lane j += lane j+w */          \
                for (int j = 0; j < w; j++) l[j] += l[j + w];                            \
            sum = l[0];                                                                  \
            *(T *)(void *)dst += sum;                                                    \
        } else if (ds == z && ss == z) {                                                 \
            T *d = (T *)(void *)dst;                                                     \
            const T *s = (const T *)(const void *)src;                                   \
            for (int64_t i = 0; i < n; i++) d[i] += s[i];                                \
        } else {                                                                         \
            for (int64_t i = 0; i < n; i++)                                              \
                *(T *)(void *)(dst + i * ds) += *(const T *)(const void *)(src + i * ss); \
        }                                                                                \
    }

ACC_FN(acc_f32, float)
ACC_FN(acc_f64, double)

static void acc(int dtype, char *dst, int64_t ds, const char *src, int64_t ss, int64_t n)
{
    if (dtype == BCT_F32) acc_f32(dst, ds, src, ss, n);
    else acc_f64(dst, ds, src, ss, n);
}

/* ---- local derivatives (B25-B28), one chunk of terms at a time ---- */

/* The terms for input `which` (its argument index) of op: t[i] is the
 * incoming gradient g[i] times the derivative of the op's result with respect
 * to that input, in the compute dtype T. c is where's cond (as bool). Zero
 * terms are +0. Where the derivative does not exist the profile decides
 * (B26 pow at x = 0, B27 ties). */
#define TERMS_FN(NAME, T, POW, LOG)                                                       \
    static void NAME(int op, int which, int profile, T *t, const T *g, const T *x,        \
                     const T *y, const uint8_t *c, int64_t m, int log_f32)                \
    {                                                                                     \
        int np = bc_profile_is_numpy(profile);                                            \
        for (int64_t i = 0; i < m; i++) {                                                 \
            T gi = g[i], r = gi;                                                          \
            switch (op) {                                                                 \
            case BCT_SUB: r = which == 0 ? gi : -gi; break;                               \
            case BCT_MUL: r = which == 0 ? gi * y[i] : gi * x[i]; break;                  \
            case BCT_DIV: r = which == 0 ? gi / y[i] : -gi * ((x[i] / y[i]) / y[i]); break; \
            case BCT_POW:                                                                 \
                if (which == 0)                                                           \
                    r = np ? gi * y[i] * POW(x[i], y[i] - 1)                              \
                       : y[i] == 0 ? (T)0 : gi * (y[i] * POW(x[i], y[i] - 1));            \
                else {   /* torch 1.13 takes log of an f32 base in f32; torch 2 not (B36) */ \
                    T lg = log_f32 ? (T)logf((float)x[i]) : LOG(x[i]);                    \
                    r = np ? gi * POW(x[i], y[i]) * LOG(x[i])                             \
                       : (x[i] == 0 && y[i] >= 0) ? (T)0 : gi * (POW(x[i], y[i]) * lg);   \
                }                                                                         \
                break;                                                                    \
            case BCT_MAXIMUM: case BCT_MINIMUM: {                                         \
                T a = which == 0 ? x[i] : y[i], b = which == 0 ? y[i] : x[i];             \
                int mx = op == BCT_MAXIMUM;                                               \
                if (np) {   /* to the operand np.maximum/np.minimum returns */            \
                    int x_wins = isnan(x[i]) || (mx ? x[i] > y[i] : x[i] < y[i]);         \
                    r = (which == 0) == x_wins ? gi : (T)0;                               \
                } else {    /* torch: the loser gets 0, a tie halves */                   \
                    r = (mx ? a < b : a > b) ? (T)0 : a == b ? gi / 2 : gi;               \
                }                                                                         \
                break;                                                                    \
            }                                                                             \
            case BCT_WHERE: r = (which == 1) == (c[i] != 0) ? gi : (T)0; break;           \
            default: break;   /* add, expand, broadcast_to: the gradient itself */        \
            }                                                                             \
            t[i] = r;                                                                     \
        }                                                                                 \
    }

TERMS_FN(terms_f32, float, powf, logf)
TERMS_FN(terms_f64, double, pow, log)

/* Whether input `which`'s terms are the incoming gradient itself (B23, B30):
 * then they are summed straight from g, with no copy. */
static int terms_are_g(int op, int which)
{
    return op == BCT_ADD || op == BCT_BROADCAST_TO || op == BCT_EXPAND || (op == BCT_SUB && which == 0);
}

/* ---- the forward op's outcome ---- */

/* What the forward op produces, found by running it (value mode) up to its
 * alloc_output call, which refuses: every forward check, in each profile's
 * order, is then exactly value mode's, so a forward error is the same error
 * in grad mode (B23). */
typedef struct plan { int called, dtype, rank; int64_t shape[BC_MAX_RANK]; } plan;

static void *plan_alloc(void *ctx, int dtype, int rank, const int64_t *shape)
{
    plan *p = ctx;
    p->called = 1;
    p->dtype = dtype;
    p->rank = rank;
    if (rank > 0) memcpy(p->shape, shape, (size_t)rank * sizeof *shape);
    return NULL;
}

static int forward_plan(const bct_call *call, int nin, plan *p, bc_error *err)
{
    bct_call fwd = *call;
    int st;
    memset(p, 0, sizeof *p);
    fwd.mode = BCT_MODE_VALUE;
    fwd.nargs = nin;
    fwd.alloc_output = plan_alloc;
    fwd.alloc_grad = NULL;
    fwd.ctx = p;
    fwd.message = NULL;
    fwd.message_cap = 0;
    st = bc_eval(&fwd, err);
    if (!p->called) return st;
    bc_clear_error(err);
    return BCT_OK;
}

/* ---- one gradient ---- */

typedef struct gsink {
    int arg;                  /* the input's argument index */
    int dtype, rank;
    char *base;
    int64_t shape[BC_MAX_RANK], strides[BC_MAX_RANK];
} gsink;

/* The inputs that get a gradient (B31): floating-point ones; where's cond never. */
static int differentiable(const bct_call *call, int k)
{
    int dt = call->args[k].dtype;
    return !(call->op == BCT_WHERE && k == 0) && (dt == BCT_F32 || dt == BCT_F64);
}

/* Asks the caller for input k's zeroed, C-contiguous gradient buffer. */
static int alloc_sink(const bct_call *call, int k, gsink *s, bc_error *err)
{
    const bct_array *a = &call->args[k];
    int64_t stride = 1;
    s->arg = k;
    s->dtype = a->dtype;
    s->rank = a->rank;
    s->base = call->alloc_grad(call->ctx, k, a->dtype, a->rank, a->shape);
    if (s->base == NULL)
        return bc_fail(err, BCT_ERR_OTHER, k, -1, -1, "alloc_grad refused the gradient of operand %d", k);
    for (int i = a->rank - 1; i >= 0; i--) {   /* an empty gradient is never written */
        s->shape[i] = a->shape[i];
        s->strides[i] = stride;
        stride *= a->shape[i] > 0 ? a->shape[i] : 1;
    }
    return BCT_OK;
}

/* Converts m elements of a row (byte stride ss, dtype st) into buf as dt. */
static const char *load(void *buf, int dt, const char *src, int st, int64_t ss, int64_t m)
{
    bc_cast(buf, dt, bc_dtype_size(dt), src, st, ss, m);
    return buf;
}

/* B23: element-wise ops, where, expand and broadcast_to. The iterator walks
 * the result (shape p) with the incoming gradient, the inputs and the
 * gradient buffers; a gradient buffer has stride 0 wherever its input was
 * stretched, so every term lands on the element it belongs to. */
static void elementwise_grad(const bct_call *call, int nin, const plan *p, const gsink *s, int ns)
{
    static _Thread_local double gb[GCHUNK], xb[GCHUNK], yb[GCHUNK], tb[GCHUNK], cvt[GCHUNK];
    static _Thread_local uint8_t cb[GCHUNK];
    bc_operand ops[BC_ITER_MAXOP];
    const bct_array *g = &call->args[nin];
    int T = p->dtype, op = call->op, nop = 0, w = op == BCT_WHERE;
    bc_iter it;
    char *row[BC_ITER_MAXOP];
    ops[nop++] = (bc_operand){ bc_base(g), bc_dtype_size(g->dtype), g->rank, g->shape, g->strides };
    for (int k = 0; k < nin; k++)
        ops[nop++] = (bc_operand){ bc_base(&call->args[k]), bc_dtype_size(call->args[k].dtype),
                                   call->args[k].rank, call->args[k].shape, call->args[k].strides };
    for (int j = 0; j < ns; j++)
        ops[nop++] = (bc_operand){ s[j].base, bc_dtype_size(s[j].dtype), s[j].rank, s[j].shape, s[j].strides };
    bc_iter_init(&it, p->rank, p->shape, nop, ops);
    while (bc_iter_next(&it, row)) {
        for (int64_t at = 0; at < it.n; at += GCHUNK) {
            int64_t m = it.n - at < GCHUNK ? it.n - at : GCHUNK;
            const char *gp = row[0] + at * it.inner[0], *xp = NULL, *yp = NULL, *cp = NULL;
            int loaded = 0;
            for (int j = 0; j < ns; j++) {
                int q = 1 + nin + j, which = s[j].arg;
                char *dst = row[q] + at * it.inner[q];
                const char *src;
                int64_t ss;
                if (terms_are_g(op, which) && g->dtype == s[j].dtype) {
                    acc(s[j].dtype, dst, it.inner[q], gp, it.inner[0], m);
                    continue;
                }
                if (!loaded) {   /* this chunk's g, inputs and cond, in the compute dtype */
                    load(gb, T, gp, g->dtype, it.inner[0], m);
                    if (nin > 1) {
                        xp = load(xb, T, row[1 + w] + at * it.inner[1 + w], call->args[w].dtype, it.inner[1 + w], m);
                        yp = load(yb, T, row[2 + w] + at * it.inner[2 + w], call->args[1 + w].dtype, it.inner[2 + w], m);
                    }
                    if (w) cp = load(cb, BCT_BOOL, row[1] + at * it.inner[1], call->args[0].dtype, it.inner[1], m);
                    loaded = 1;
                }
                if (T == BCT_F32)
                    terms_f32(op, which, call->profile, (float *)(void *)tb, (const float *)(const void *)gb,
                              (const float *)(const void *)xp, (const float *)(const void *)yp,
                              (const uint8_t *)cp, m, 0);
                else
                    terms_f64(op, which, call->profile, tb, gb, (const double *)(const void *)xp,
                              (const double *)(const void *)yp, (const uint8_t *)cp, m,
                              call->args[0].dtype == BCT_F32 && call->profile == BCT_PROFILE_TORCH);
                src = (const char *)tb;
                ss = bc_dtype_size(T);
                if (s[j].dtype != T) {   /* accumulate in the operand's dtype (B23) */
                    src = load(cvt, s[j].dtype, src, T, ss, m);
                    ss = bc_dtype_size(s[j].dtype);
                }
                acc(s[j].dtype, dst, it.inner[q], src, ss, m);
            }
        }
    }
}

/* Sets a gradient of the result's own shape to -0 before its one term per
 * element is added: -0 + t is t for every t, -0 included, so the gradient is
 * the terms themselves (torch's sum_to_size returns them untouched), where a
 * +0 start would turn a -0 term into +0. Every real sum starts from +0. */
static void fill_negative_zero(const gsink *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->rank; i++) n *= s->shape[i];
    for (int64_t i = 0; i < n; i++) {
        if (s->dtype == BCT_F32) ((float *)(void *)s->base)[i] = -0.0f;
        else ((double *)(void *)s->base)[i] = -0.0;
    }
}

/* ---- B29: matmul ---- */

/* Adds v (computed in the compute dtype, widened to double) to element p of
 * dtype dt, rounding v to dt first: gradients accumulate in their operand's dtype. */
static void add_elem(char *p, int dt, double v)
{
    if (dt == BCT_F32) *(float *)(void *)p += (float)v;
    else *(double *)(void *)p += v;
}

/* One batch element's core gradients in compute dtype T: x is M x K, y K x N,
 * g M x N (byte strides, any dtypes); gx[i,k] += sum_j g[i,j] y[k,j] and
 * gy[k,j] += sum_i x[i,k] g[i,j], each sum taken in index order, from +0, or
 * from -0 where bit 0 (x) or bit 1 (y) of neg is set (B47). */
#define CORE_GRAD_FN(NAME, T)                                                                   \
    static void NAME(int neg, int64_t M, int64_t N, int64_t K, const char *g, int gt, int64_t g0, \
                     int64_t g1, const char *x, int xt, int64_t x0, int64_t x1, const char *y,   \
                     int yt, int64_t y0, int64_t y1, char *gx, int gxt, int64_t gx0, int64_t gx1, \
                     char *gy, int gyt, int64_t gy0, int64_t gy1)                                \
    {                                                                                           \
        for (int64_t i = 0; gx != NULL && i < M; i++)                                           \
            for (int64_t k = 0; k < K; k++) {                                                   \
                T a = (neg & 1) ? -(T)0 : (T)0;                                                 \
                for (int64_t j = 0; j < N; j++)                                                 \
                    a += (T)bc_load_f64(g + i * g0 + j * g1, gt) * (T)bc_load_f64(y + k * y0 + j * y1, yt); \
                add_elem(gx + i * gx0 + k * gx1, gxt, (double)a);                               \
            }                                                                                   \
        for (int64_t k = 0; gy != NULL && k < K; k++)                                           \
            for (int64_t j = 0; j < N; j++) {                                                   \
                T a = (neg & 2) ? -(T)0 : (T)0;                                                 \
                for (int64_t i = 0; i < M; i++)                                                 \
                    a += (T)bc_load_f64(x + i * x0 + k * x1, xt) * (T)bc_load_f64(g + i * g0 + j * g1, gt); \
                add_elem(gy + k * gy0 + j * gy1, gyt, (double)a);                               \
            }                                                                                   \
    }

CORE_GRAD_FN(core_grad_f32, float)
CORE_GRAD_FN(core_grad_f64, double)

/* A batch view: dims [0, nb) of a (its batch dims), with a trailing 1 so the
 * iterator's rows are single batch elements (as bc_matmul_eval does). */
static void batch_view(int nb, const int64_t *shape, const int64_t *strides, int64_t *bs, int64_t *bst)
{
    for (int i = 0; i < nb; i++) { bs[i] = shape[i]; bst[i] = strides[i]; }
    bs[nb] = 1;
    bst[nb] = 0;
}

/* B29: the batch dims are walked over the result's batch shape; x's, y's and
 * their gradients' batch strides are 0 where stretched, so each batch
 * element's core gradient is added to the batch slice it came from. A 1-D x
 * is (1,K) and a 1-D y (K,1), as in B12; the result then lacks that dim. */
static void matmul_grad(const bct_call *call, const plan *p, gsink *gs[2])
{
    const bct_array *x = &call->args[0], *y = &call->args[1], *g = &call->args[2];
    int xr = x->rank, yr = y->rank, xb = xr > 2 ? xr - 2 : 0, yb = yr > 2 ? yr - 2 : 0;
    int nb = p->rank - (xr > 1) - (yr > 1), T = p->dtype;
    int64_t M = xr > 1 ? x->shape[xr - 2] : 1, K = x->shape[xr - 1], N = yr > 1 ? y->shape[yr - 1] : 1;
    int64_t x0 = xr > 1 ? x->strides[xr - 2] : 0, x1 = x->strides[xr - 1];
    int64_t y0 = y->strides[yr > 1 ? yr - 2 : 0], y1 = yr > 1 ? y->strides[yr - 1] : 0;
    int64_t g0 = xr > 1 ? g->strides[nb] : 0, g1 = yr > 1 ? g->strides[g->rank - 1] : 0;
    int xz = bc_dtype_size(x->dtype), yz = bc_dtype_size(y->dtype), gz = bc_dtype_size(g->dtype);
    int64_t sh[5][BC_MAX_RANK + 1], st[5][BC_MAX_RANK + 1], bshape[BC_MAX_RANK + 1];
    int neg[2];
    bc_operand ops[5];
    bc_iter it;
    char *ptr[5];
    batch_view(nb, g->shape, g->strides, sh[0], st[0]);
    batch_view(xb, x->shape, x->strides, sh[1], st[1]);
    batch_view(yb, y->shape, y->strides, sh[2], st[2]);
    for (int i = 0; i <= nb; i++) bshape[i] = i < nb ? p->shape[i] : 1;
    ops[0] = (bc_operand){ bc_base(g), gz, nb + 1, sh[0], st[0] };
    ops[1] = (bc_operand){ bc_base(x), xz, xb + 1, sh[1], st[1] };
    ops[2] = (bc_operand){ bc_base(y), yz, yb + 1, sh[2], st[2] };
    for (int k = 0; k < 2; k++) {   /* the gradients, or x's/y's own view as a stand-in */
        const gsink *s = gs[k];
        batch_view(k ? yb : xb, s ? s->shape : sh[1 + k], s ? s->strides : st[1 + k], sh[3 + k], st[3 + k]);
        ops[3 + k] = (bc_operand){ s ? s->base : ops[1 + k].base, s ? bc_dtype_size(s->dtype) : ops[1 + k].itemsize,
                                   (k ? yb : xb) + 1, sh[3 + k], st[3 + k] };
    }
    if (M == 0 || N == 0 || K == 0) return;   /* every gradient element is an empty sum: 0 */
    bc_matmul_grad_negzero(call, neg);   /* B47: each such gradient element gets one core sum */
    for (int k = 0; k < 2; k++)
        if (neg[k] && gs[k] != NULL) fill_negative_zero(gs[k]);
    bc_iter_init(&it, nb + 1, bshape, 5, ops);
    while (bc_iter_next(&it, ptr)) {
        const gsink *sx = gs[0], *sy = gs[1];
        int64_t gx0 = sx && xr > 1 ? sx->strides[xr - 2] : 0, gx1 = sx ? sx->strides[xr - 1] : 0;
        int64_t gy0 = sy ? sy->strides[yr > 1 ? yr - 2 : 0] : 0, gy1 = sy && yr > 1 ? sy->strides[yr - 1] : 0;
        int sxz = sx ? bc_dtype_size(sx->dtype) : 0, syz = sy ? bc_dtype_size(sy->dtype) : 0;
        if (T == BCT_F32)
            core_grad_f32(neg[0] | neg[1] << 1, M, N, K, ptr[0], g->dtype, g0 * gz, g1 * gz, ptr[1], x->dtype, x0 * xz, x1 * xz,
                          ptr[2], y->dtype, y0 * yz, y1 * yz, sx ? ptr[3] : NULL, sx ? sx->dtype : 0,
                          gx0 * sxz, gx1 * sxz, sy ? ptr[4] : NULL, sy ? sy->dtype : 0, gy0 * syz, gy1 * syz);
        else
            core_grad_f64(neg[0] | neg[1] << 1, M, N, K, ptr[0], g->dtype, g0 * gz, g1 * gz, ptr[1], x->dtype, x0 * xz, x1 * xz,
                          ptr[2], y->dtype, y0 * yz, y1 * yz, sx ? ptr[3] : NULL, sx ? sx->dtype : 0,
                          gx0 * sxz, gx1 * sxz, sy ? ptr[4] : NULL, sy ? sy->dtype : 0, gy0 * syz, gy1 * syz);
    }
}

/* ---- the entry points ---- */

static int same_dims(int rank, const int64_t *a, const int64_t *b)
{
    for (int i = 0; i < rank; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

int bc_eval_grad(const bct_call *call, bc_error *err)
{
    bct_call vcall;
    bct_array vargs[3];
    int st;
    if (call->grad_form != BCT_GRAD_VALUE) {   /* B46: in place or out=: its forward first */
        if ((st = bc_grad_form_call(call, &vcall, vargs, err)) != BCT_OK) return st;
        call = &vcall;
    }
    int nin = call->nargs - 1, ns = 0, any = 0;
    const bct_array *g = &call->args[nin];
    gsink s[3];
    gsink *mm[2] = { NULL, NULL };
    plan p;
    if ((st = forward_plan(call, nin, &p, err)) != BCT_OK) return st;   /* the forward op's errors */
    for (int k = 0; k < nin; k++) any |= differentiable(call, k);
    if (!any)   /* B31: nothing to differentiate (torch: no input requires grad) */
        return bc_fail(err, BCT_ERR_DTYPE, -1, -1, -1,
                       "no floating-point input: integer and bool operands are not differentiable (B31)");
    if (g->rank != p.rank || !same_dims(p.rank, g->shape, p.shape)) {
        char a[512], b[512];
        bc_shape gs, ps;
        bc_shape_of(g, &gs);
        ps.rank = p.rank;
        memcpy(ps.dim, p.shape, (size_t)p.rank * sizeof p.shape[0]);
        return bc_fail(err, BCT_ERR_OTHER, nin, -1, -1,
                       "the incoming gradient has shape %s, the forward result %s",
                       bc_shape_format(&gs, a, sizeof a), bc_shape_format(&ps, b, sizeof b));
    }
    if (call->alloc_grad == NULL)
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "the call has no alloc_grad");
    for (int k = 0; k < nin; k++) {
        if (!differentiable(call, k)) continue;
        if ((st = alloc_sink(call, k, &s[ns], err)) != BCT_OK) return st;
        if (call->op == BCT_MATMUL) mm[k] = &s[ns];
        ns++;
    }
    if (call->op == BCT_MATMUL) {
        matmul_grad(call, &p, mm);
        return BCT_OK;
    }
    for (int j = 0; j < ns; j++)   /* B23: an operand that was not stretched takes its terms as they are */
        if (s[j].rank == p.rank && same_dims(p.rank, s[j].shape, p.shape)) fill_negative_zero(&s[j]);
    elementwise_grad(call, nin, &p, s, ns);
    return BCT_OK;
}

int bc_sum_to_shape(const bct_array *g, const bct_array *out, bc_error *err)
{
    bc_shape from, to;
    bc_error local;
    bct_array arg[2];
    bct_call call;
    plan p;
    gsink s;
    int st;
    if (err == NULL) err = &local;
    bc_clear_error(err);
    if (out->dtype != BCT_F32 && out->dtype != BCT_F64)
        return bc_fail(err, BCT_ERR_DTYPE, 1, -1, -1, "sum_to_shape: the sum must be f32 or f64");
    bc_shape_of(out, &from);
    bc_shape_of(g, &to);
    if ((st = bc_broadcast_to_shape(&from, &to, err)) != BCT_OK) return st;   /* B5: out stretches to g */
    memset(&call, 0, sizeof call);
    arg[0] = *out;
    arg[1] = *g;
    call.op = BCT_BROADCAST_TO;
    call.mode = BCT_MODE_GRAD;
    call.nargs = 2;
    call.args = arg;
    p.dtype = out->dtype;
    p.rank = g->rank;
    memcpy(p.shape, g->shape, (size_t)g->rank * sizeof g->shape[0]);
    s.arg = 0;
    s.dtype = out->dtype;
    s.rank = out->rank;
    s.base = bc_base(out);
    memcpy(s.shape, out->shape, (size_t)out->rank * sizeof s.shape[0]);
    memcpy(s.strides, out->strides, (size_t)out->rank * sizeof s.strides[0]);
    elementwise_grad(&call, 1, &p, &s, 1);
    return BCT_OK;
}
