/* test_grad.c - unit tests of ref's backward pass (BCT_MODE_GRAD, ref/grad.c): one test per rule path, B23-B31.
 *
 * Expected gradients are small enough to work out by hand; the generated
 * `grad` suite holds ref against torch autograd and the NumPy formulas. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bcast_ref.h"
#include "check.h"

#define MAXG 3

/* One operand owning its shape and strides (contiguous unless set). */
typedef struct operand {
    bct_array a;
    int64_t shape[8], strides[8];
} operand;

static operand mk(int dtype, int rank, const int64_t *shape, void *data)
{
    operand o;
    int64_t st = 1;
    memset(&o, 0, sizeof o);
    for (int i = rank - 1; i >= 0; i--) {
        o.shape[i] = shape[i];
        o.strides[i] = st;
        st *= shape[i] > 0 ? shape[i] : 1;
    }
    o.a.dtype = dtype;
    o.a.rank = rank;
    o.a.data = data;
    return o;
}

#define S(...) ((const int64_t[]){ __VA_ARGS__ })

/* What one grad call produced: per input, whether alloc_grad was called, its
 * dtype, shape and data (a copy, as doubles). */
typedef struct gout {
    int status, calls[MAXG], dtype[MAXG], rank[MAXG];
    int64_t shape[MAXG][8];
    unsigned char data[MAXG][512];
    char message[256];
} gout;

static int refuse_next;   /* make alloc_grad return NULL */
static int form_next;     /* B46: the next call's grad_form */

static void *grab(void *ctx, int k, int dtype, int rank, const int64_t *shape)
{
    gout *g = ctx;
    if (refuse_next || k < 0 || k >= MAXG) return NULL;
    g->calls[k]++;
    g->dtype[k] = dtype;
    g->rank[k] = rank;
    for (int i = 0; i < rank; i++) g->shape[k][i] = shape[i];
    memset(g->data[k], 0, sizeof g->data[k]);
    return g->data[k];
}

static void *no_output(void *ctx, int dtype, int rank, const int64_t *shape)
{
    (void)ctx; (void)dtype; (void)rank; (void)shape;
    return NULL;
}

/* Runs op in grad mode over ops[0..n) (the inputs, then the incoming gradient). */
static gout grad(int op, int profile, operand *ops, int n)
{
    static gout g;
    bct_array args[4];
    bct_call call;
    memset(&g, 0, sizeof g);
    for (int i = 0; i < n; i++) {
        args[i] = ops[i].a;
        args[i].shape = ops[i].shape;
        args[i].strides = ops[i].strides;
    }
    memset(&call, 0, sizeof call);
    call.op = op;
    call.mode = BCT_MODE_GRAD;
    call.grad_form = form_next;
    call.profile = profile;
    call.nargs = n;
    call.args = args;
    call.alloc_output = no_output;
    call.alloc_grad = grab;
    call.ctx = &g;
    call.message = g.message;
    call.message_cap = sizeof g.message;
    g.status = bc_eval(&call, NULL);
    return g;
}

/* Element i of gradient k as a double. */
static double at(const gout *g, int k, int i)
{
    if (g->dtype[k] == BCT_F32) return ((const float *)(const void *)g->data[k])[i];
    return ((const double *)(const void *)g->data[k])[i];
}

static int shape_is(const gout *g, int k, int rank, const int64_t *shape)
{
    if (g->rank[k] != rank) return 0;
    for (int i = 0; i < rank; i++) if (g->shape[k][i] != shape[i]) return 0;
    return 1;
}

/* B23: leading missing dims are summed away, size-1 dims summed and kept as 1.
 * x (3,1) and y (4,) against the result (3,4). */
static void test_sum_over_stretched_dims(void)
{
    float x[3] = { 1, 2, 3 }, y[4] = { 1, 1, 1, 1 }, g[12];
    for (int i = 0; i < 12; i++) g[i] = (float)i;
    operand ops[3] = { mk(BCT_F32, 2, S(3, 1), x), mk(BCT_F32, 1, S(4), y), mk(BCT_F32, 2, S(3, 4), g) };
    gout r = grad(BCT_ADD, BCT_PROFILE_NUMPY, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(shape_is(&r, 0, 2, S(3, 1)));          /* the size-1 dim is kept */
    CHECK(shape_is(&r, 1, 1, S(4)));             /* the leading dim is gone */
    CHECK(at(&r, 0, 0) == 6 && at(&r, 0, 1) == 22 && at(&r, 0, 2) == 38);
    CHECK(at(&r, 1, 0) == 12 && at(&r, 1, 1) == 15 && at(&r, 1, 3) == 21);
}

/* B23: the same reduction through bc_sum_to_shape, including a stride-0
 * incoming gradient (an expanded view) and a row longer than a block. */
static void test_sum_to_shape_api(void)
{
    float g1[1] = { 0.5f }, out[3] = { 0 };
    operand gv = mk(BCT_F32, 2, S(1000, 3), g1), ov = mk(BCT_F32, 2, S(1, 3), out);
    gv.strides[0] = gv.strides[1] = 0;             /* every element of g is 0.5 */
    gv.a.shape = gv.shape; gv.a.strides = gv.strides;
    ov.a.shape = ov.shape; ov.a.strides = ov.strides;
    CHECK_EQ_I64(bc_sum_to_shape(&gv.a, &ov.a, NULL), BCT_OK);
    CHECK(out[0] == 500 && out[2] == 500);
    {   /* a long row along a stretched last dim: sixteen partial sums, blocks of 256 */
        static float big[1003];
        float one[1] = { 0 };
        for (int i = 0; i < 1003; i++) big[i] = (float)(i % 7);
        operand b = mk(BCT_F32, 1, S(1003), big), o = mk(BCT_F32, 0, S(0), one);
        b.a.shape = b.shape; b.a.strides = b.strides; o.a.shape = o.shape; o.a.strides = o.strides;
        CHECK_EQ_I64(bc_sum_to_shape(&b.a, &o.a, NULL), BCT_OK);
        CHECK(one[0] == 3004.0f);  /* 143 full cycles of 0..6 (21 each), then 0 and 1 */
    }
    {   /* out must broadcast to g (B5) */
        float o2[2];
        operand o = mk(BCT_F32, 1, S(2), o2);
        o.a.shape = o.shape; o.a.strides = o.strides;
        CHECK_EQ_I64(bc_sum_to_shape(&gv.a, &o.a, NULL), BCT_ERR_NOT_BROADCASTABLE);
    }
}

/* B23: an operand that was not stretched takes its terms as they are (a -0
 * stays -0, as torch's sum_to_size and JAX's _unbroadcast return them); a
 * real sum starts from +0 (torch.sum and np.sum of [-0.0] are +0). */
static void test_unreduced_terms_keep_their_sign(void)
{
    double x[2] = { 0, 1 }, y[2] = { 0, 0 }, g[2] = { -1, -1 }, z[2] = { 0, 0 }, two[1] = { 2 };
    operand ops[3] = { mk(BCT_F64, 1, S(2), x), mk(BCT_F64, 1, S(2), y), mk(BCT_F64, 1, S(2), g) };
    gout r = grad(BCT_MUL, BCT_PROFILE_TORCH, ops, 3);
    CHECK(at(&r, 1, 0) == 0 && signbit(at(&r, 1, 0)));   /* g * x = -1 * 0 = -0, kept */
    CHECK(at(&r, 0, 0) == 0 && signbit(at(&r, 0, 0)) && signbit(at(&r, 0, 1)));
    ops[0] = mk(BCT_F64, 1, S(2), z);
    ops[1] = mk(BCT_F64, 1, S(1), two);                  /* y stretched: -0 + -0, summed from +0 */
    r = grad(BCT_MUL, BCT_PROFILE_NUMPY, ops, 3);
    CHECK(at(&r, 1, 0) == 0 && !signbit(at(&r, 1, 0)));
    CHECK(at(&r, 0, 0) == -2 && at(&r, 0, 1) == -2);
}

/* B23: the same through a result whose last dim is 1 (its rows are one
 * element long): sub's -g of a +0 incoming gradient is -0 in y's gradient,
 * as NumPy and torch give (found by bcast-run explore's gradient cases:
 * ref summed the single term through +0 lanes and gave +0). */
static void test_one_element_rows_keep_the_sign(void)
{
    double x[1] = { 0 }, y[2] = { 1, 2 }, g[2] = { 0, -1 };
    operand ops[3] = { mk(BCT_F64, 0, S(0), x), mk(BCT_F64, 2, S(2, 1), y), mk(BCT_F64, 2, S(2, 1), g) };
    for (int profile = 0; profile < BCT_PROFILE_COUNT; profile++) {
        gout r = grad(BCT_SUB, profile, ops, 3);
        CHECK(r.status == BCT_OK);
        CHECK(at(&r, 1, 0) == 0 && signbit(at(&r, 1, 0)));   /* -(+0) = -0, kept */
        CHECK(at(&r, 1, 1) == 1);
        CHECK(at(&r, 0, 0) == -1);                          /* x: 0 + -1, summed */
    }
}

/* B24: an empty sum gives zeros of the operand's shape; a zero-size operand
 * gets an empty gradient; a 0-d operand's gradient is 0-d. */
static void test_zero_size_and_0d(void)
{
    float x[1] = { 2 }, y[1] = { 0 }, g[1] = { 0 };
    operand ops[3] = { mk(BCT_F32, 1, S(1), x), mk(BCT_F32, 1, S(0), y), mk(BCT_F32, 1, S(0), g) };
    gout r = grad(BCT_MUL, BCT_PROFILE_TORCH, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(shape_is(&r, 0, 1, S(1)) && at(&r, 0, 0) == 0 && !signbit(at(&r, 0, 0)));
    CHECK(shape_is(&r, 1, 1, S(0)));
    {
        double a[1] = { 3 }, b[6] = { 1, 2, 3, 4, 5, 6 }, gg[6] = { 1, 1, 1, 1, 1, 1 };
        operand o2[3] = { mk(BCT_F64, 0, S(0), a), mk(BCT_F64, 2, S(2, 3), b), mk(BCT_F64, 2, S(2, 3), gg) };
        r = grad(BCT_MUL, BCT_PROFILE_NUMPY, o2, 3);
        CHECK_EQ_I64(r.status, BCT_OK);
        CHECK_EQ_I64(r.rank[0], 0);
        CHECK(at(&r, 0, 0) == 21);                 /* sum of g * y */
        CHECK(at(&r, 1, 4) == 3);                  /* g * x */
    }
}

/* B25: the local derivatives of sub, mul and div. */
static void test_sub_mul_div(void)
{
    double x[2] = { 3, -1 }, y[1] = { 2 }, g[2] = { 1, 2 };
    operand ops[3] = { mk(BCT_F64, 1, S(2), x), mk(BCT_F64, 0, S(0), y), mk(BCT_F64, 1, S(2), g) };
    gout r = grad(BCT_SUB, BCT_PROFILE_NUMPY, ops, 3);
    CHECK(at(&r, 0, 1) == 2 && at(&r, 1, 0) == -3);
    r = grad(BCT_MUL, BCT_PROFILE_NUMPY, ops, 3);
    CHECK(at(&r, 0, 0) == 2 && at(&r, 0, 1) == 4 && at(&r, 1, 0) == 1);   /* 3*1 + -1*2 */
    r = grad(BCT_DIV, BCT_PROFILE_TORCH, ops, 3);
    CHECK(at(&r, 0, 0) == 0.5 && at(&r, 0, 1) == 1);
    CHECK(at(&r, 1, 0) == -0.25);   /* -(1*3/4) - (2*-1/4) */
}

/* B26: pow, at regular points and at x = 0, where the profiles differ. */
static void test_pow(void)
{
    double x[2] = { 2, 0 }, y[4] = { 3, 0, -1, 2 }, g[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    operand ops[3] = { mk(BCT_F64, 2, S(2, 1), x), mk(BCT_F64, 1, S(4), y), mk(BCT_F64, 2, S(2, 4), g) };
    gout r = grad(BCT_POW, BCT_PROFILE_TORCH, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    /* x = 2: 3*4 + 0 (torch: y == 0 gives 0) + -1*0.25 + 2*2 */
    CHECK(at(&r, 0, 0) == 15.75);
    CHECK(isinf(at(&r, 0, 1)) && at(&r, 0, 1) < 0);   /* x = 0, y = -1: -1 * 0^-2 = -inf */
    /* y: x^y log x over x = 2 and 0; torch zeroes x == 0 with y >= 0 */
    CHECK(fabs(at(&r, 1, 0) - 8 * log(2.0)) < 1e-12);
    CHECK(isinf(at(&r, 1, 2)) && at(&r, 1, 2) < 0);   /* 0^-1 * log 0 = inf * -inf */
    r = grad(BCT_POW, BCT_PROFILE_NUMPY, ops, 3);
    CHECK(isnan(at(&r, 0, 1)));                        /* 0 * 0^-1 = nan in the plain formula */
    CHECK(isnan(at(&r, 1, 0)));                        /* 0^3 * log 0 = 0 * -inf */
}

/* B26, B36: pow's gradient for y with an f32 base x and an f64 exponent (the
 * result and the terms are f64): torch 1.13 takes log(x) in f32, torch 2.15 in
 * f64, as NumPy does. Measured on grad/dtypes/pow/f32,f64/(2,1)x(3,):
 *   P -c "import torch; x=torch.tensor([1.25],requires_grad=True);
 *         y=torch.tensor([0.25],dtype=torch.float64,requires_grad=True);
 *         torch.pow(x,y).backward(torch.ones(1,dtype=torch.float64)); print(y.grad.item())"
 * 1.13.1 prints 0.23594557503772878 / -0.25 (the case's g), 2.15.0 0.23594557878172037 / -0.25. */
static void test_pow_log_of_f32_base_per_torch_generation(void)
{
    float x[1] = { 1.25f };
    double y[1] = { 0.25 }, g[1] = { 1 };
    operand ops[3] = { mk(BCT_F32, 1, S(1), x), mk(BCT_F64, 1, S(1), y), mk(BCT_F64, 1, S(1), g) };
    double exact = pow(1.25, 0.25) * log(1.25), in_f32 = pow(1.25, 0.25) * (double)logf(1.25f);
    gout r = grad(BCT_POW, BCT_PROFILE_TORCH, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(at(&r, 1, 0) == in_f32 && in_f32 != exact);
    r = grad(BCT_POW, BCT_PROFILE_TORCH2, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(at(&r, 1, 0) == exact);
    r = grad(BCT_POW, BCT_PROFILE_NUMPY2, ops, 3);
    CHECK(at(&r, 1, 0) == exact);
}

/* B27: maximum and minimum: ties and NaN, per profile. */
static void test_max_min_ties(void)
{
    double x[3] = { 1, 2, NAN }, y[3] = { 1, 1, 5 }, g[3] = { 4, 4, 4 };
    operand ops[3] = { mk(BCT_F64, 1, S(3), x), mk(BCT_F64, 1, S(3), y), mk(BCT_F64, 1, S(3), g) };
    gout r = grad(BCT_MAXIMUM, BCT_PROFILE_TORCH, ops, 3);
    CHECK(at(&r, 0, 0) == 2 && at(&r, 1, 0) == 2);     /* a tie halves */
    CHECK(at(&r, 0, 1) == 4 && at(&r, 1, 1) == 0);
    CHECK(at(&r, 0, 2) == 4 && at(&r, 1, 2) == 4);     /* NaN: torch gives both */
    r = grad(BCT_MAXIMUM, BCT_PROFILE_NUMPY, ops, 3);
    CHECK(at(&r, 0, 0) == 0 && at(&r, 1, 0) == 4);     /* np.maximum returns y on a tie */
    CHECK(at(&r, 0, 2) == 4 && at(&r, 1, 2) == 0);     /* ... and the NaN */
    r = grad(BCT_MINIMUM, BCT_PROFILE_NUMPY, ops, 3);
    CHECK(at(&r, 0, 1) == 0 && at(&r, 1, 1) == 4);
    r = grad(BCT_MINIMUM, BCT_PROFILE_TORCH, ops, 3);
    CHECK(at(&r, 0, 0) == 2 && at(&r, 0, 1) == 0 && at(&r, 1, 1) == 4);
}

/* B28: where: cond gets no gradient; x and y the masked gradient, summed. */
static void test_where(void)
{
    uint8_t c[2] = { 1, 0 };
    float x[1] = { 7 }, y[3] = { 1, 2, 3 }, g[6] = { 1, 2, 3, 4, 5, 6 };
    operand ops[4] = { mk(BCT_BOOL, 2, S(2, 1), c), mk(BCT_F32, 0, S(0), x), mk(BCT_F32, 1, S(3), y),
                       mk(BCT_F32, 2, S(2, 3), g) };
    gout r = grad(BCT_WHERE, BCT_PROFILE_TORCH, ops, 4);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.calls[0], 0);
    CHECK(at(&r, 1, 0) == 6);
    CHECK(at(&r, 2, 0) == 4 && at(&r, 2, 2) == 6);
}

/* B29: matmul with broadcast batch dims: summed over them; 1-D operands. */
static void test_matmul(void)
{
    float x[2] = { 1, 2 }, y[4] = { 1, 2, 3, 4 }, g[4] = { 1, 1, 1, 1 };   /* x (1,1,2), y (2,2,1) */
    operand ops[3] = { mk(BCT_F32, 3, S(1, 1, 2), x), mk(BCT_F32, 3, S(2, 2, 1), y), mk(BCT_F32, 3, S(2, 1, 1), g) };
    gout r = grad(BCT_MATMUL, BCT_PROFILE_NUMPY, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(shape_is(&r, 0, 3, S(1, 1, 2)));
    CHECK(at(&r, 0, 0) == 4 && at(&r, 0, 1) == 6);     /* summed over the batch of 2 */
    CHECK(at(&r, 1, 0) == 1 && at(&r, 1, 3) == 2);
    {
        float a[2] = { 1, 2 }, b[2] = { 3, 4 }, gg[1] = { 2 };
        operand o[3] = { mk(BCT_F32, 1, S(2), a), mk(BCT_F32, 1, S(2), b), mk(BCT_F32, 0, S(0), gg) };
        r = grad(BCT_MATMUL, BCT_PROFILE_TORCH, o, 3);
        CHECK(at(&r, 0, 0) == 6 && at(&r, 0, 1) == 8 && at(&r, 1, 1) == 4);
    }
}

/* B47: x = y = -1 and g = +0, so every term is -0: x's and y's gradients are
 * -0 ('-') where torch returns a term as it is or sums from -0, else +0
 * ('+'). Measured with torch 1.13 and 2.15 (every rank pair 1-4, sizes 1-3). */
static void test_matmul_negative_zero_terms(void)
{
    static const struct { int p, xr, yr; int64_t xs[3], ys[3]; int gr; int64_t gs[3]; const char *want; } t[] = {
        { BCT_PROFILE_TORCH, 1, 1, { 2 }, { 2 }, 0, { 0 }, "--" },                /* dot: g * y, g * x */
        { BCT_PROFILE_TORCH2, 2, 1, { 2, 2 }, { 2 }, 1, { 2 }, "-+" },            /* mv: an outer product; mv */
        { BCT_PROFILE_NUMPY, 2, 1, { 2, 2 }, { 2 }, 1, { 2 }, "++" },             /* NumPy sums from +0 */
        { BCT_PROFILE_TORCH, 2, 2, { 2, 2 }, { 2, 1 }, 2, { 2, 1 }, "++" },          /* 1.13's mm sums from +0 */
        { BCT_PROFILE_TORCH2, 2, 2, { 2, 2 }, { 2, 1 }, 2, { 2, 1 }, "-+" },         /* g (2,1) @ y^T (1,2) */
        { BCT_PROFILE_TORCH2, 1, 2, { 2 }, { 2, 2 }, 1, { 2 }, "+-" },            /* x^T (2,1) @ g (1,2) */
        { BCT_PROFILE_TORCH, 1, 2, { 2 }, { 2, 2 }, 1, { 2 }, "++" },
        { BCT_PROFILE_TORCH, 1, 3, { 1 }, { 2, 1, 2 }, 2, { 2, 2 }, "+-" },          /* mv of y's transpose */
        { BCT_PROFILE_TORCH2, 2, 3, { 1, 2 }, { 2, 2, 1 }, 3, { 2, 1, 1 }, "+-" },      /* y^T folded (2,2) @ ... */
        { BCT_PROFILE_TORCH2, 3, 3, { 3, 2, 2 }, { 1, 2, 1 }, 3, { 3, 2, 1 }, "-+" },   /* y's batch of 1: 2-D */
        { BCT_PROFILE_TORCH, 3, 3, { 3, 2, 2 }, { 1, 2, 1 }, 3, { 3, 2, 1 }, "++" },
        { BCT_PROFILE_TORCH2, 3, 3, { 2, 2, 2 }, { 2, 2, 1 }, 3, { 2, 2, 1 }, "++" },   /* bmm */
    };
    float m1[16], g0[16] = { 0 };
    for (int i = 0; i < 16; i++) m1[i] = -1;
    for (size_t c = 0; c < sizeof t / sizeof t[0]; c++) {
        operand o[3] = { mk(BCT_F32, t[c].xr, t[c].xs, m1), mk(BCT_F32, t[c].yr, t[c].ys, m1), mk(BCT_F32, t[c].gr, t[c].gs, g0) };
        gout r = grad(BCT_MATMUL, t[c].p, o, 3);
        CHECK_EQ_I64(r.status, BCT_OK);
        for (int k = 0; k < 2 && r.status == BCT_OK; k++) {
            int neg = t[c].want[k] == '-';
            CHECK_EQ_I64(at(&r, k, 0) == 0 && signbit(at(&r, k, 0)) != 0, neg);
        }
    }
}

/* B30: expand and broadcast_to: the gradient is sum_to_size. */
static void test_expand(void)
{
    float x[2] = { 1, 1 }, g[12];
    int64_t to[3] = { 2, 2, 3 };
    for (int i = 0; i < 12; i++) g[i] = 1;
    operand ops[2] = { mk(BCT_F32, 2, S(2, 1), x), mk(BCT_F32, 3, S(2, 2, 3), g) };
    bct_array args[2];
    bct_call call;
    static gout r;
    for (int i = 0; i < 2; i++) { args[i] = ops[i].a; args[i].shape = ops[i].shape; args[i].strides = ops[i].strides; }
    memset(&call, 0, sizeof call);
    memset(&r, 0, sizeof r);
    call.op = BCT_EXPAND; call.mode = BCT_MODE_GRAD; call.profile = BCT_PROFILE_TORCH;
    call.nargs = 2; call.args = args; call.target_rank = 3; call.target_shape = to;
    call.alloc_grad = grab; call.ctx = &r;
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_OK);
    CHECK(shape_is(&r, 0, 2, S(2, 1)) && at(&r, 0, 0) == 6 && at(&r, 0, 1) == 6);
    to[1] = 3;   /* (2,1) against (2,3,3): a forward shape error is the same error in grad mode */
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_ERR_NOT_BROADCASTABLE);
}

/* B31: integer and bool inputs get no gradient; with none floating, dtype. */
static void test_integer_inputs(void)
{
    int32_t xi[2] = { 1, 2 };
    float y[1] = { 3 }, g[2] = { 1, 1 };
    operand ops[3] = { mk(BCT_I32, 1, S(2), xi), mk(BCT_F32, 0, S(0), y), mk(BCT_F32, 1, S(2), g) };
    gout r = grad(BCT_MUL, BCT_PROFILE_TORCH, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.calls[0], 0);
    CHECK(at(&r, 1, 0) == 3);
    ops[1] = mk(BCT_I32, 0, S(0), xi);
    ops[2] = mk(BCT_I32, 1, S(2), xi);
    r = grad(BCT_MUL, BCT_PROFILE_TORCH, ops, 3);
    CHECK_EQ_I64(r.status, BCT_ERR_DTYPE);
}

/* Forward errors first; then a wrong incoming gradient, a refused buffer and
 * an op without a gradient are errors with a message. */
static void test_errors(void)
{
    float x[2] = { 1, 2 }, y[3] = { 1, 2, 3 }, g[3] = { 1, 1, 1 };
    operand ops[3] = { mk(BCT_F32, 1, S(2), x), mk(BCT_F32, 1, S(3), y), mk(BCT_F32, 1, S(3), g) };
    gout r = grad(BCT_ADD, BCT_PROFILE_NUMPY, ops, 3);
    CHECK_EQ_I64(r.status, BCT_ERR_NOT_BROADCASTABLE);
    ops[0] = mk(BCT_F32, 1, S(3), x);
    ops[2] = mk(BCT_F32, 1, S(2), g);
    r = grad(BCT_ADD, BCT_PROFILE_NUMPY, ops, 3);
    CHECK_EQ_I64(r.status, BCT_ERR_OTHER);
    CHECK(strstr(r.message, "incoming gradient has shape (2,)") != NULL);
    ops[2] = mk(BCT_F32, 1, S(3), g);
    refuse_next = 1;
    r = grad(BCT_ADD, BCT_PROFILE_NUMPY, ops, 3);
    refuse_next = 0;
    CHECK_EQ_I64(r.status, BCT_ERR_OTHER);
    CHECK(strstr(r.message, "alloc_grad refused") != NULL);
    r = grad(BCT_EQ, BCT_PROFILE_NUMPY, ops, 3);
    CHECK_EQ_I64(r.status, BCT_ERR_OTHER);
    CHECK(strstr(r.message, "no gradient") != NULL);
}

/* B46: the in-place and out= call forms. In place: self's original value
 * and other get value mode's gradients once the in-place forward passed; the
 * forward's errors (other would make self grow, an integer self) win. out=:
 * torch refuses autograd outright; NumPy checks out= and then differentiates
 * the inputs, never out. */
static void test_grad_forms(void)
{
    double x[2] = { 3, -1 }, y[1] = { 2 }, g[3] = { 1, 2, 0 }, o[3] = { 0, 0, 0 };
    int32_t xi[2] = { 1, 2 };
    operand ops[4] = { mk(BCT_F64, 1, S(2), x), mk(BCT_F64, 0, S(0), y), mk(BCT_F64, 1, S(2), g),
                       mk(BCT_F64, 1, S(2), g) };
    form_next = BCT_GRAD_INPLACE;
    for (int p = 0; p < BCT_PROFILE_COUNT; p++) {
        gout r = grad(BCT_MUL, p, ops, 3);
        CHECK_EQ_I64(r.status, BCT_OK);
        CHECK(shape_is(&r, 0, 1, S(2)) && shape_is(&r, 1, 0, S(0)));
        CHECK(at(&r, 0, 0) == 2 && at(&r, 0, 1) == 4 && at(&r, 1, 0) == 1);   /* self's original value: 3*1 + -1*2 */
    }
    operand grow[3] = { mk(BCT_F64, 0, S(0), y), mk(BCT_F64, 1, S(2), x), mk(BCT_F64, 1, S(2), g) };
    CHECK_EQ_I64(grad(BCT_ADD, BCT_PROFILE_TORCH, grow, 3).status, BCT_ERR_INPLACE_SHAPE);   /* self cannot grow */
    CHECK_EQ_I64(grad(BCT_ADD, BCT_PROFILE_NUMPY2, grow, 3).status, BCT_ERR_INPLACE_SHAPE);
    operand intself[3] = { mk(BCT_I32, 1, S(2), xi), mk(BCT_F64, 0, S(0), y), mk(BCT_F64, 1, S(2), g) };
    CHECK_EQ_I64(grad(BCT_ADD, BCT_PROFILE_TORCH2, intself, 3).status, BCT_ERR_DTYPE);
    form_next = BCT_GRAD_OUT;
    ops[2] = mk(BCT_F64, 1, S(2), o);
    gout r = grad(BCT_MUL, BCT_PROFILE_TORCH, ops, 4);
    CHECK_EQ_I64(r.status, BCT_ERR_OTHER);
    CHECK(strstr(r.message, "mul(): functions with out=... arguments don't support automatic differentiation") == r.message);
    r = grad(BCT_DIV, BCT_PROFILE_TORCH2, ops, 4);
    CHECK(strncmp(r.message, "div(): functions with out=", 26) == 0);
    r = grad(BCT_MUL, BCT_PROFILE_NUMPY, ops, 4);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(at(&r, 0, 0) == 2 && at(&r, 0, 1) == 4 && at(&r, 1, 0) == 1);
    CHECK_EQ_I64(r.calls[2], 0);   /* out gets no gradient */
    ops[2] = mk(BCT_F64, 1, S(1), o);
    CHECK_EQ_I64(grad(BCT_MUL, BCT_PROFILE_NUMPY, ops, 4).status, BCT_ERR_INPLACE_SHAPE);   /* out= too small */
    ops[2] = mk(BCT_F64, 1, S(3), o);
    CHECK_EQ_I64(grad(BCT_MUL, BCT_PROFILE_NUMPY, ops, 4).status, BCT_ERR_NOT_BROADCASTABLE);   /* NumPy: with out's */
    form_next = BCT_GRAD_INPLACE;
    CHECK_EQ_I64(grad(BCT_MAXIMUM, BCT_PROFILE_NUMPY, ops, 3).status, BCT_ERR_OTHER);   /* torch has no maximum_ */
    form_next = BCT_GRAD_VALUE;
}

int main(void)
{
    RUN(test_sum_over_stretched_dims);
    RUN(test_sum_to_shape_api);
    RUN(test_unreduced_terms_keep_their_sign);
    RUN(test_one_element_rows_keep_the_sign);
    RUN(test_zero_size_and_0d);
    RUN(test_sub_mul_div);
    RUN(test_pow);
    RUN(test_pow_log_of_f32_base_per_torch_generation);
    RUN(test_max_min_ties);
    RUN(test_where);
    RUN(test_matmul);
    RUN(test_matmul_negative_zero_terms);
    RUN(test_expand);
    RUN(test_integer_inputs);
    RUN(test_errors);
    RUN(test_grad_forms);
    return check_summary();
}
