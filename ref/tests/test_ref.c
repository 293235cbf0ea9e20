/* test_ref.c - unit tests of ref's rules (shape.c) and kernels (bc_eval), each citing its rule ids.
 *
 * Expected shapes come from the docs' and seeds' own examples (the generated
 * cases check them against NumPy/torch); expected values are small enough to
 * compute by hand. test_ref_values.py holds the kernels against the oracles. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bcast_ref.h"
#include "check.h"

/* ---------------------------------------------------------------- helpers */

static bc_shape P(const char *text)
{
    bc_shape s;
    if (bc_shape_parse(text, &s) != 0) {
        fprintf(stderr, "bad shape in test: %s\n", text);
        abort();
    }
    return s;
}

/* Result of a rule as text: the shape, or "error:<class>". */
static char rbuf[8][1024];
static int rnext;
static const char *outcome(int st, const bc_shape *res)
{
    char *b = rbuf[rnext++ % 8];
    if (st != BCT_OK)
        snprintf(b, sizeof rbuf[0], "error:%s", bc_status_name(st));
    else
        bc_shape_format(res, b, sizeof rbuf[0]);
    return b;
}

/* bcast("(2,1)", "(3,)", NULL): N-ary broadcast of the given shapes. */
static const char *bcast(const char *first, ...)
{
    bc_shape shapes[8], res;
    int n = 0;
    va_list ap;
    va_start(ap, first);
    for (const char *t = first; t != NULL; t = va_arg(ap, const char *))
        shapes[n++] = P(t);
    va_end(ap);
    return outcome(bc_broadcast_shapes(shapes, n, &res, NULL), &res);
}

static const char *inplace(const char *self, const char *other)
{
    bc_shape a = P(self), b = P(other);
    return outcome(bc_inplace_shape(&a, &b, NULL), &a);
}

static const char *axis(const char *x, const char *y, int64_t ax)
{
    bc_shape a = P(x), b = P(y), res;
    return outcome(bc_axis_shape(&a, &b, ax, NULL, &res, NULL), &res);
}

static const char *matmul(const char *x, const char *y)
{
    bc_shape a = P(x), b = P(y), res;
    return outcome(bc_matmul_shape(&a, &b, &res, NULL), &res);
}

static const char *bto(const char *from, const char *to)
{
    bc_shape a = P(from), b = P(to);
    return outcome(bc_broadcast_to_shape(&a, &b, NULL), &b);
}

static const char *expand(const char *from, const char *sizes)
{
    bc_shape a = P(from), b = P(sizes), res;
    return outcome(bc_expand_shape(&a, &b, &res, NULL), &res);
}

static const char *uni(const char *a_, const char *b_)
{
    bc_shape a = P(a_), b = P(b_), res;
    return outcome(bc_onnx_uni_shape(&a, &b, &res, NULL), &res);
}

/* An operand owning its shape/strides; contiguous unless strides are set. */
typedef struct operand {
    bct_array a;
    int64_t shape[BC_MAX_RANK + 1], strides[BC_MAX_RANK + 1]; /* +1: room for a too-high rank */
} operand;

static operand mk(int dtype, const char *shape, void *data)
{
    operand o;
    bc_shape s = P(shape);
    uint64_t st = 1;  /* unsigned: a huge shape's strides may wrap; such tests set their own */
    memset(&o, 0, sizeof o);
    for (int i = s.rank - 1; i >= 0; i--) {
        o.shape[i] = s.dim[i];
        o.strides[i] = (int64_t)st;
        st *= s.dim[i] > 0 ? (uint64_t)s.dim[i] : 1u;
    }
    o.a.dtype = dtype;
    o.a.rank = s.rank;
    o.a.data = data;
    return o;
}

/* The result of one bc_eval: status, dtype, shape and a copy of the data. */
typedef struct result {
    int status, dtype, allocs;
    bc_shape shape;
    unsigned char data[4096];
    char message[256];
} result;

static void *grab(void *ctx, int dtype, int rank, const int64_t *shape)
{
    result *r = ctx;
    int64_t n = 1;
    r->allocs++;
    r->dtype = dtype;
    r->shape.rank = rank;
    for (int i = 0; i < rank; i++) r->shape.dim[i] = shape[i];
    /* Shape-only and empty results hold no data; their extents may multiply
     * past int64 (B16), so they are never multiplied here. */
    for (int i = 0; i < rank && dtype != BCT_NONE; i++) if (shape[i] == 0) n = 0;
    for (int i = 0; i < rank && dtype != BCT_NONE && n != 0; i++) {
        if (shape[i] > (int64_t)sizeof r->data) return NULL;
        n *= shape[i];
        if (n > (int64_t)sizeof r->data) return NULL;
    }
    if (n * (dtype == BCT_NONE ? 1 : bc_dtype_size(dtype)) > (int64_t)sizeof r->data)
        return NULL;
    memset(r->data, 0, sizeof r->data);
    return r->data;
}

static result run(int op, int mode, int profile, operand *ops, int n)
{
    static result r;
    bct_array args[4];
    bct_call call;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < n; i++) {
        args[i] = ops[i].a;
        args[i].shape = ops[i].shape;
        args[i].strides = ops[i].strides;
    }
    memset(&call, 0, sizeof call);
    call.op = op;
    call.mode = mode;
    call.profile = profile;
    call.nargs = n;
    call.args = args;
    call.alloc_output = grab;
    call.ctx = &r;
    call.message = r.message;
    call.message_cap = sizeof r.message;
    r.status = bc_eval(&call, NULL);
    return r;
}

static result run2(int op, int profile, operand x, operand y)
{
    operand ops[2] = { x, y };
    return run(op, BCT_MODE_VALUE, profile, ops, 2);
}

static const char *shape_text(const bc_shape *s)
{
    return outcome(BCT_OK, s);
}

/* ------------------------------------------------------- rules: seeds, docs */

/* B1-B3: every shape example stated in /work/shared/seeds. */
static void test_seed_examples_broadcast(void)
{
    /* 004 (torch broadcasting semantics note) */
    CHECK_STREQ(bcast("(5,7,3)", "(5,7,3)", NULL), "(5,7,3)");
    CHECK_STREQ(bcast("(5,3,4,1)", "(3,1,1)", NULL), "(5,3,4,1)");
    CHECK_STREQ(bcast("(5,1,4,1)", "(3,1,1)", NULL), "(5,3,4,1)");
    CHECK_STREQ(bcast("(1,)", "(3,1,7)", NULL), "(3,1,7)");
    CHECK_STREQ(bcast("(5,2,4,1)", "(3,1,1)", NULL), "error:not-broadcastable");
    CHECK_STREQ(bcast("(4,1)", "(4,)", NULL), "(4,4)");
    CHECK_STREQ(bcast("(3,)", "(3,1)", NULL), "(3,3)");
    CHECK_STREQ(bcast("(3,)", "(2,)", NULL), "error:not-broadcastable");
    /* The old note says (0,) has "no dimension"; really its extent 0 meets 2 (B3). */
    CHECK_STREQ(bcast("(0,)", "(2,2)", NULL), "error:not-broadcastable");
    /* 001 (NumPy rules with shape tables) */
    CHECK_STREQ(bcast("(256,256,3)", "(3,)", NULL), "(256,256,3)");
    CHECK_STREQ(bcast("(8,1,6,1)", "(7,1,5)", NULL), "(8,7,6,5)");
    CHECK_STREQ(bcast("(5,4)", "(1,)", NULL), "(5,4)");
    CHECK_STREQ(bcast("(15,3,5)", "(15,1,5)", NULL), "(15,3,5)");
    CHECK_STREQ(bcast("(3,)", "(4,)", NULL), "error:not-broadcastable");
    CHECK_STREQ(bcast("(2,1)", "(8,4,3)", NULL), "error:not-broadcastable");
    CHECK_STREQ(bcast("(2,4)", "(3,4)", NULL), "error:not-broadcastable");
    /* 000 (np.tile equivalence) */
    CHECK_STREQ(bcast("(1,9,4)", "(15,1,4)", NULL), "(15,9,4)");
    CHECK_STREQ(bcast("(2,2,3,4)", "(3,4)", NULL), "(2,2,3,4)");
    CHECK_STREQ(bcast("(4,3)", "(4,1)", NULL), "(4,3)");
    CHECK_STREQ(bcast("(6,)", "(2,6)", NULL), "(2,6)");
    /* 002 (right-align, pad with 1) */
    CHECK_STREQ(bcast("(3,1)", "(3,1,3)", NULL), "(3,3,3)");
    /* 003 (Paddle 2.0) */
    CHECK_STREQ(bcast("(2,3,4)", "(2,3,4)", NULL), "(2,3,4)");
    CHECK_STREQ(bcast("(2,3,1,5)", "(3,4,1)", NULL), "(2,3,4,5)");
    CHECK_STREQ(bcast("(2,3,4)", "(2,3,6)", NULL), "error:not-broadcastable");
    CHECK_STREQ(bcast("(2,1,4)", "(3,1)", NULL), "(2,3,4)");
    CHECK_STREQ(bcast("(2,1,4)", "(3,2)", NULL), "error:not-broadcastable");
}

/* B8: the in-place examples of the torch note (004). */
static void test_seed_examples_inplace(void)
{
    CHECK_STREQ(inplace("(5,3,4,1)", "(3,1,1)"), "(5,3,4,1)");
    CHECK_STREQ(inplace("(1,3,1)", "(3,1,7)"), "error:inplace-shape");
}

/* B10/B11: Paddle's elementwise axis examples (003). */
static void test_seed_examples_paddle_axis(void)
{
    CHECK_STREQ(axis("(2,1,4)", "(3,1)", 1), "(2,3,4)");
    CHECK_STREQ(axis("(2,3,4,5)", "(4,5)", 1), "error:not-broadcastable");
    CHECK_STREQ(axis("(2,3,4,5)", "(3,)", 1), "(2,3,4,5)");
}

/* B13: np.dot's refusal in 001 as matmul: (3,4)@(5,6) and (2,4)@(3,4). */
static void test_seed_examples_matmul(void)
{
    CHECK_STREQ(matmul("(3,4)", "(5,6)"), "error:matmul-core");
    CHECK_STREQ(matmul("(2,4)", "(3,4)"), "error:matmul-core");
}

/* ------------------------------------------------------- rules: B1-B16 */

/* B2: a 1 stretches to anything, 0 included. */
static void test_zero_size_stretches_to_zero(void)
{
    CHECK_STREQ(bcast("(1,)", "(0,)", NULL), "(0,)");
    CHECK_STREQ(bcast("(0,1)", "(1,5)", NULL), "(0,5)");
    CHECK_STREQ(bcast("(0,)", "(0,)", NULL), "(0,)");
    CHECK_STREQ(bcast("()", "(0,3)", NULL), "(0,3)");
}

/* B3: 0 against n > 1 fails; the error names operands and the dimension. */
static void test_mismatch_names_operands_and_dim(void)
{
    bc_shape s[2] = { P("(2,3)"), P("(4,)") };
    bc_error e;
    CHECK_EQ_I64(bc_broadcast_shapes(s, 2, NULL, &e), BCT_ERR_NOT_BROADCASTABLE);
    CHECK_EQ_I64(e.status, BCT_ERR_NOT_BROADCASTABLE);
    CHECK_EQ_I64(e.operand, 0);
    CHECK_EQ_I64(e.other, 1);
    CHECK_EQ_I64(e.dim, 1);
    CHECK(strstr(e.message, "operands could not be broadcast together with shapes (2,3) (4,)") != NULL);
    CHECK(strstr(e.message, "at dimension 1") != NULL);
    CHECK_STREQ(bcast("(0,)", "(2,)", NULL), "error:not-broadcastable");
}

/* B4: zero operands give (); one gives itself; many broadcast together. */
static void test_nary_broadcast(void)
{
    bc_shape res;
    CHECK_EQ_I64(bc_broadcast_shapes(NULL, 0, &res, NULL), BCT_OK);
    CHECK_STREQ(shape_text(&res), "()");
    CHECK_STREQ(bcast("(7,)", NULL), "(7,)");
    CHECK_STREQ(bcast("(3,1,1)", "(1,2,1)", "(4,)", NULL), "(3,2,4)");
    CHECK_STREQ(bcast("(3,1,1)", "(1,2,1)", "(1,2,5)", "()", NULL), "(3,2,5)");
    CHECK_STREQ(bcast("(3,1)", "(1,2)", "(4,1,1)", "(5,)", NULL), "error:not-broadcastable");
}

/* B5: NumPy broadcast_to. */
static void test_broadcast_to_rules(void)
{
    CHECK_STREQ(bto("(3,)", "(2,3)"), "(2,3)");
    CHECK_STREQ(bto("(1,3)", "(4,2,3)"), "(4,2,3)");
    CHECK_STREQ(bto("(3,)", "(4,)"), "error:not-broadcastable");
    CHECK_STREQ(bto("(2,3)", "(3,)"), "error:invalid-shape");
    CHECK_STREQ(bto("(3,)", "(-1,3)"), "error:invalid-shape");
    CHECK_STREQ(bto("(1,)", "(0,)"), "(0,)");
    CHECK_STREQ(bto("(2,1)", "(2,1)"), "(2,1)");
}

/* B6: torch expand: -1 keeps a dim; not on a new leading dim. */
static void test_expand_rules(void)
{
    CHECK_STREQ(expand("(3,1)", "(3,4)"), "(3,4)");
    CHECK_STREQ(expand("(3,1)", "(-1,4)"), "(3,4)");
    CHECK_STREQ(expand("(3,1)", "(2,-1,4)"), "(2,3,4)");
    CHECK_STREQ(expand("(3,1)", "(-1,3,4)"), "error:invalid-shape");
    CHECK_STREQ(expand("(3,)", "(-2,)"), "error:invalid-shape");
    CHECK_STREQ(expand("(3,)", "(4,)"), "error:not-broadcastable");
    CHECK_STREQ(expand("(2,3)", "(3,)"), "error:invalid-shape");
    CHECK_STREQ(expand("(0,)", "(-1,)"), "(0,)");
}

/* B7: ONNX unidirectional: B stretches to A only, by B5's rules (A is the
 * target): B of higher rank is invalid-shape, as a lower-rank broadcast_to
 * target is; an extent mismatch is not-broadcastable. */
static void test_onnx_unidirectional(void)
{
    CHECK_STREQ(uni("(2,3,4,5)", "(5,)"), "(2,3,4,5)");
    CHECK_STREQ(uni("(2,3,4,5)", "(1,4,1)"), "(2,3,4,5)");
    CHECK_STREQ(uni("(2,3,4,5)", "()"), "(2,3,4,5)");
    CHECK_STREQ(uni("(1,5)", "(2,5)"), "error:not-broadcastable");
    CHECK_STREQ(uni("(5,)", "(2,5)"), "error:invalid-shape");
    CHECK_STREQ(uni("()", "(1,)"), "error:invalid-shape");
    CHECK_STREQ(bto("(2,5)", "(5,)"), uni("(5,)", "(2,5)"));
}

/* B8: in-place: the broadcast must be self's own shape. */
static void test_inplace_shape_rules(void)
{
    CHECK_STREQ(inplace("(2,3)", "(3,)"), "(2,3)");
    CHECK_STREQ(inplace("(3,)", "(2,3)"), "error:inplace-shape");
    CHECK_STREQ(inplace("(2,3)", "(4,)"), "error:not-broadcastable");
    CHECK_STREQ(inplace("()", "()"), "()");
    CHECK_STREQ(inplace("()", "(1,)"), "error:inplace-shape");
}

/* B10/B11: legacy axis alignment and range. */
static void test_axis_rules(void)
{
    CHECK_STREQ(axis("(2,3,4,5)", "(4,5)", -1), "(2,3,4,5)");
    CHECK_STREQ(axis("(2,3,4,5)", "(3,4)", 1), "(2,3,4,5)");
    CHECK_STREQ(axis("(2,3,4,5)", "(2,)", 0), "(2,3,4,5)");
    CHECK_STREQ(axis("(2,3,4)", "(3,1)", -1), "(2,3,4)");
    CHECK_STREQ(axis("(2,3)", "(2,3)", 0), "(2,3)");
    CHECK_STREQ(axis("(2,3)", "(2,3)", -1), "(2,3)");
    CHECK_STREQ(axis("(2,3)", "(2,3)", 1), "error:axis");
    CHECK_STREQ(axis("(2,3,4,5)", "(4,5)", 3), "error:axis");
    CHECK_STREQ(axis("(2,3,4,5)", "(4,5)", -2), "error:axis");
    CHECK_STREQ(axis("(3,)", "(2,3)", -1), "error:axis");
}

/* B12-B14: matmul shapes. */
static void test_matmul_shapes(void)
{
    CHECK_STREQ(matmul("(3,)", "(3,)"), "()");
    CHECK_STREQ(matmul("(2,3)", "(3,)"), "(2,)");
    CHECK_STREQ(matmul("(3,)", "(3,4)"), "(4,)");
    CHECK_STREQ(matmul("(3,)", "(2,3,4)"), "(2,4)");
    CHECK_STREQ(matmul("(9,5,7,4)", "(9,5,4,3)"), "(9,5,7,3)");
    CHECK_STREQ(matmul("(2,1,3,4)", "(5,4,2)"), "(2,5,3,2)");
    CHECK_STREQ(matmul("(2,3,4)", "(3,4,2)"), "error:not-broadcastable");
    CHECK_STREQ(matmul("(2,3)", "(4,2)"), "error:matmul-core");
    CHECK_STREQ(matmul("(1,3)", "(1,3)"), "error:matmul-core"); /* core dims never broadcast */
    CHECK_STREQ(matmul("()", "(3,)"), "error:matmul-core");
    CHECK_STREQ(matmul("(3,)", "()"), "error:matmul-core");
    CHECK_STREQ(matmul("(0,3)", "(3,2)"), "(0,2)");
}

/* B15: ranks 64 and 128 work, 129 is the limit; NumPy's profile stops at 32. */
static void test_rank_limits(void)
{
    bc_shape a, b, res;
    bc_error e;
    a.rank = 128;
    for (int i = 0; i < 128; i++) a.dim[i] = 1;
    a.dim[0] = 2;
    b.rank = 64;
    for (int i = 0; i < 64; i++) b.dim[i] = 1;
    b.dim[63] = 3;
    {
        bc_shape s[2] = { a, b };
        CHECK_EQ_I64(bc_broadcast_shapes(s, 2, &res, NULL), BCT_OK);
        CHECK_EQ_I64(res.rank, 128);
        CHECK_EQ_I64(res.dim[0], 2);
        CHECK_EQ_I64(res.dim[127], 3);
    }
    b.rank = 65;
    b.dim[64] = 1;
    CHECK_EQ_I64(bc_check_shape(&b, BCT_PROFILE_TORCH, 0, &e), BCT_OK);
    CHECK_EQ_I64(bc_check_shape(&b, BCT_PROFILE_NUMPY, 0, &e), BCT_ERR_RANK_LIMIT);
    b.rank = 32;
    CHECK_EQ_I64(bc_check_shape(&b, BCT_PROFILE_NUMPY, 0, &e), BCT_OK);
    b.rank = 33;
    CHECK_EQ_I64(bc_check_shape(&b, BCT_PROFILE_NUMPY, 0, &e), BCT_ERR_RANK_LIMIT);
    a.rank = 129;
    CHECK_EQ_I64(bc_check_shape(&a, BCT_PROFILE_TORCH, 0, &e), BCT_ERR_RANK_LIMIT);
    {
        char text[1024] = "(";
        for (int i = 0; i < 129; i++) strcat(text, "1,");
        strcat(text, ")");
        CHECK_EQ_I64(bc_shape_parse(text, &a), -1);
    }
}

/* B16: negative extents and element-count overflow. */
static void test_negative_and_overflow(void)
{
    bc_shape s = P("(2,-1)");
    bc_error e;
    CHECK_EQ_I64(bc_check_shape(&s, BCT_PROFILE_NUMPY, 0, &e), BCT_ERR_INVALID_SHAPE);
    CHECK_EQ_I64(e.dim, 1);
    CHECK_STREQ(bcast("(3,)", "(-3,)", NULL), "error:invalid-shape");
    /* Broadcasting computes the shape; counting it is bc_check_shape's job. */
    CHECK_STREQ(bcast("(4294967296,1)", "(1,4294967296)", NULL), "(4294967296,4294967296)");
    CHECK_STREQ(bcast("(4294967296,1)", "(1,2147483647)", NULL), "(4294967296,2147483647)");
}

/* B16: counts multiply from the left and stop at the first 0, as NumPy's
 * PyArray_OverflowMultiplyList and torch's safe_multiplies_u64 do; NumPy
 * refuses a product above INT64_MAX on the way, torch one above UINT64_MAX
 * (and a non-empty count above INT64_MAX). Examples measured with NumPy
 * 1.24's np.broadcast_shapes and torch 1.13's torch.empty. */
static void test_count_overflow_per_profile(void)
{
    static const struct { const char *shape; int numpy, torch; } t[] = {
        { "(4294967296,4294967296)", BCT_ERR_OVERFLOW, BCT_ERR_OVERFLOW },
        { "(9223372036854775807,)", BCT_OK, BCT_OK },
        { "(9223372036854775807,2)", BCT_ERR_OVERFLOW, BCT_ERR_OVERFLOW },
        { "(2147483648,4294967296)", BCT_ERR_OVERFLOW, BCT_ERR_OVERFLOW },   /* 2^63: one past */
        { "(0,4611686018427387904,4)", BCT_OK, BCT_OK },                    /* a 0 first */
        { "(4611686018427387904,0,4)", BCT_OK, BCT_OK },
        { "(4611686018427387904,4,0)", BCT_ERR_OVERFLOW, BCT_ERR_OVERFLOW }, /* 2^64 before the 0 */
        { "(2147483648,4294967296,0)", BCT_ERR_OVERFLOW, BCT_OK },           /* 2^63 fits uint64 */
        { "(4294967296,4294967296,0)", BCT_ERR_OVERFLOW, BCT_ERR_OVERFLOW },
    };
    bc_error e;
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        bc_shape s = P(t[i].shape);
        CHECK_EQ_I64(bc_check_shape(&s, BCT_PROFILE_NUMPY, -1, &e), t[i].numpy);
        CHECK_EQ_I64(bc_check_shape(&s, BCT_PROFILE_TORCH, -1, &e), t[i].torch);
        CHECK_EQ_I64(bc_check_extents(&s, BCT_PROFILE_NUMPY, -1, &e), BCT_OK);
    }
}

/* B16 through bc_eval, operands as stride-0 views of one element: NumPy's
 * broadcast_shapes counts the result, torch's counts nothing; torch's
 * element-wise result may be empty behind extents whose product passes
 * int64; torch counts an in-place self (numel) before it looks for overlap. */
static void test_count_overflow_through_eval(void)
{
    int8_t one[1] = { 1 };
    operand s3[3] = { mk(BCT_NONE, "(4611686018427387904,1)", NULL), mk(BCT_NONE, "(1,4)", NULL),
                      mk(BCT_NONE, "(0,1,1)", NULL) };
    operand x, y, ops[2];
    result r = run(BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, BCT_PROFILE_NUMPY, s3, 2);
    CHECK_EQ_I64(r.status, BCT_ERR_OVERFLOW);
    r = run(BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, BCT_PROFILE_TORCH, s3, 2);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(4611686018427387904,4)");
    for (int p = 0; p < 2; p++) {               /* the fold passes (2^62,4); the end is empty */
        r = run(BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, p, s3, 3);
        CHECK_EQ_I64(r.status, BCT_OK);
        CHECK_STREQ(shape_text(&r.shape), "(0,4611686018427387904,4)");
    }
    x = mk(BCT_I8, "(2147483648,1,0)", one);
    y = mk(BCT_I8, "(1,4294967296,1)", one);
    x.strides[0] = x.strides[1] = x.strides[2] = 0;
    y.strides[0] = y.strides[1] = y.strides[2] = 0;
    r = run2(BCT_ADD, BCT_PROFILE_TORCH, x, y);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(2147483648,4294967296,0)");
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY, x, y);
    CHECK_EQ_I64(r.status, BCT_ERR_OVERFLOW);
    x = mk(BCT_I8, "(4611686018427387904,1,0)", one);
    y = mk(BCT_I8, "(1,4,1)", one);
    x.strides[0] = x.strides[1] = x.strides[2] = 0;
    r = run2(BCT_ADD, BCT_PROFILE_TORCH, x, y);
    CHECK_EQ_I64(r.status, BCT_ERR_OVERFLOW);
    ops[0] = mk(BCT_I8, "(4611686018427387904,4)", one);
    ops[0].strides[0] = ops[0].strides[1] = 0;
    ops[1] = mk(BCT_I8, "()", one);
    r = run(BCT_ADD, BCT_MODE_INPLACE, BCT_PROFILE_TORCH, ops, 2);
    CHECK_EQ_I64(r.status, BCT_ERR_OVERFLOW);
}

static void test_shape_parse_and_format(void)
{
    bc_shape s;
    char b[64];
    CHECK_EQ_I64(bc_shape_parse("()", &s), 0);
    CHECK_EQ_I64(s.rank, 0);
    CHECK_EQ_I64(bc_shape_parse(" ( 5, 1 ,4 ) ", &s), 0);
    CHECK_STREQ(bc_shape_format(&s, b, sizeof b), "(5,1,4)");
    CHECK_EQ_I64(bc_shape_parse("(3,)", &s), 0);
    CHECK_STREQ(bc_shape_format(&s, b, sizeof b), "(3,)");
    CHECK_EQ_I64(bc_shape_parse("(-1,4)", &s), 0);
    CHECK_EQ_I64(s.dim[0], -1);
    CHECK_EQ_I64(bc_shape_parse("(3", &s), -1);
    CHECK_EQ_I64(bc_shape_parse("(,)", &s), -1);
    CHECK_EQ_I64(bc_shape_parse("(3,,)", &s), -1);
    CHECK_EQ_I64(bc_shape_parse("(a)", &s), -1);
    CHECK_EQ_I64(bc_shape_parse("3,4", &s), -1);
    CHECK_EQ_I64(bc_shape_parse("(3)x", &s), -1);
}

static void test_names_round_trip(void)
{
    for (int i = 0; i < BCT_DTYPE_COUNT; i++) CHECK_EQ_I64(bc_dtype_from_name(bc_dtype_name(i)), i);
    for (int i = 0; i < BCT_OP_COUNT; i++) CHECK_EQ_I64(bc_op_from_name(bc_op_name(i)), i);
    for (int i = 0; i < BCT_STATUS_COUNT; i++) CHECK_EQ_I64(bc_status_from_name(bc_status_name(i)), i);
    for (int i = 0; i < 2; i++) CHECK_EQ_I64(bc_profile_from_name(bc_profile_name(i)), i);
    CHECK_STREQ(bc_status_name(BCT_ERR_NOT_BROADCASTABLE), "not-broadcastable");
    CHECK_EQ_I64(bc_op_from_name("nope"), -1);
    CHECK_EQ_I64(bc_dtype_size(BCT_F64), 8);
}

/* ------------------------------------------------------- kernels */

/* B1/B2/B17: the seed's (6,) x (2,6) product (000), values by hand. */
static void test_seed_mul_values(void)
{
    int64_t a[6] = { 0, 1, 2, 3, 4, 5 }, b[12];
    const int64_t want[12] = { 0, 1, 4, 9, 16, 25, 0, 7, 16, 27, 40, 55 };
    result r;
    for (int i = 0; i < 12; i++) b[i] = i;
    r = run2(BCT_MUL, BCT_PROFILE_TORCH, mk(BCT_I64, "(6,)", a), mk(BCT_I64, "(2,6)", b));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(2,6)");
    CHECK(memcmp(r.data, want, sizeof want) == 0);
}

/* B17: negative strides and an offset are read in place; a stride-0
 * operand given explicitly reads like a stretched one. */
static void test_iterator_strides_offsets(void)
{
    int16_t store[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    int16_t col[2] = { 100, 200 };
    const int16_t want[6] = { 95, 93, 91, 198, 196, 194 };
    operand x = mk(BCT_I16, "(2,3)", store), y = mk(BCT_I16, "(2,1)", col);
    operand y0 = mk(BCT_I16, "(2,3)", col);
    result r;
    x.strides[0] = -3; x.strides[1] = 2; x.a.offset = 5;  /* rows {5,7,9} and {2,4,6} */
    r = run2(BCT_SUB, BCT_PROFILE_NUMPY, y, x);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(2,3)");
    CHECK(memcmp(r.data, want, sizeof want) == 0);
    y0.strides[0] = 1; y0.strides[1] = 0;                  /* (2,3) with stride 0 */
    r = run2(BCT_SUB, BCT_PROFILE_TORCH, y0, x);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(memcmp(r.data, want, sizeof want) == 0);
}

/* B2: an empty result: one allocation, no element touched. */
static void test_zero_size_output(void)
{
    float x[1], y[3] = { 1, 2, 3 };
    result r = run2(BCT_ADD, BCT_PROFILE_NUMPY, mk(BCT_F32, "(0,3)", x), mk(BCT_F32, "(3,)", y));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.allocs, 1);
    CHECK_STREQ(shape_text(&r.shape), "(0,3)");
    r = run2(BCT_ADD, BCT_PROFILE_TORCH, mk(BCT_F32, "(1,)", x), mk(BCT_F32, "(0,)", NULL));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(0,)");
}

/* A rank-n operand (2,1,...,1) with its strides. */
static operand tall(int dtype, int rank, void *data)
{
    operand o = mk(dtype, "()", data);
    o.a.rank = rank;
    for (int i = 0; i < rank; i++) { o.shape[i] = 1; o.strides[i] = 1; }
    o.shape[0] = 2;
    return o;
}

/* B15: ranks 64 and 128 run through the kernel; 129 and NumPy's 33 do not. */
static void test_high_rank_kernels(void)
{
    int32_t x[2] = { 1, 2 }, y[3] = { 10, 20, 30 };
    const int32_t want[6] = { 11, 21, 31, 12, 22, 32 };
    result r = run2(BCT_ADD, BCT_PROFILE_TORCH, tall(BCT_I32, 64, x), mk(BCT_I32, "(3,)", y));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.shape.rank, 64);
    CHECK(memcmp(r.data, want, sizeof want) == 0);
    r = run2(BCT_ADD, BCT_PROFILE_TORCH, tall(BCT_I32, 128, x), mk(BCT_I32, "(3,)", y));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.shape.rank, 128);
    CHECK(memcmp(r.data, want, sizeof want) == 0);
    r = run2(BCT_ADD, BCT_PROFILE_TORCH, tall(BCT_I32, 129, x), mk(BCT_I32, "(3,)", y));
    CHECK_EQ_I64(r.status, BCT_ERR_RANK_LIMIT);
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY, tall(BCT_I32, 32, x), mk(BCT_I32, "(3,)", y));
    CHECK_EQ_I64(r.status, BCT_OK);
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY, tall(BCT_I32, 33, x), mk(BCT_I32, "(3,)", y));
    CHECK_EQ_I64(r.status, BCT_ERR_RANK_LIMIT);
    r = run2(BCT_ADD, BCT_PROFILE_TORCH, tall(BCT_I32, 65, x), mk(BCT_I32, "(3,)", y));
    CHECK_EQ_I64(r.status, BCT_OK);
}

/* B20: integer arithmetic wraps. */
static void test_integer_wraparound(void)
{
    int8_t a8[2] = { 127, -128 }, b8[2] = { 1, -1 };
    uint8_t u0[1] = { 0 }, u1[1] = { 1 };
    int64_t big[1] = { INT64_MAX }, two[1] = { 2 };
    int32_t three[1] = { 3 }, forty[1] = { 40 };
    uint32_t want = 1;
    result r = run2(BCT_ADD, BCT_PROFILE_NUMPY, mk(BCT_I8, "(2,)", a8), mk(BCT_I8, "(2,)", b8));
    CHECK_EQ_I64(((int8_t *)r.data)[0], -128);
    CHECK_EQ_I64(((int8_t *)r.data)[1], 127);
    r = run2(BCT_FLOOR_DIVIDE, BCT_PROFILE_TORCH, mk(BCT_I8, "(2,)", a8), mk(BCT_I8, "(2,)", b8));
    CHECK_EQ_I64(((int8_t *)r.data)[1], -128); /* MIN // -1 wraps in both libraries */
    r = run2(BCT_SUB, BCT_PROFILE_TORCH, mk(BCT_U8, "(1,)", u0), mk(BCT_U8, "(1,)", u1));
    CHECK_EQ_I64(r.data[0], 255);
    r = run2(BCT_MUL, BCT_PROFILE_NUMPY, mk(BCT_I64, "(1,)", big), mk(BCT_I64, "(1,)", two));
    CHECK_EQ_I64(*(int64_t *)(void *)r.data, -2);
    for (int i = 0; i < 40; i++) want *= 3u;
    r = run2(BCT_POW, BCT_PROFILE_NUMPY, mk(BCT_I32, "(1,)", three), mk(BCT_I32, "(1,)", forty));
    CHECK_EQ_I64(*(int32_t *)(void *)r.data, (int32_t)want);
}

/* B20: integer division by zero: 0 in NumPy, an error in torch (before any write). */
static void test_division_by_zero_profiles(void)
{
    int32_t x[2] = { 7, -7 }, y[2] = { 2, 0 };
    double fx[1] = { 1.0 }, fy[1] = { 0.0 };
    result r = run2(BCT_FLOOR_DIVIDE, BCT_PROFILE_NUMPY, mk(BCT_I32, "(2,)", x), mk(BCT_I32, "(2,)", y));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(((int32_t *)(void *)r.data)[0], 3);
    CHECK_EQ_I64(((int32_t *)(void *)r.data)[1], 0);
    r = run2(BCT_REMAINDER, BCT_PROFILE_NUMPY, mk(BCT_I32, "(2,)", x), mk(BCT_I32, "(2,)", y));
    CHECK_EQ_I64(((int32_t *)(void *)r.data)[1], 0);
    r = run2(BCT_FLOOR_DIVIDE, BCT_PROFILE_TORCH, mk(BCT_I32, "(2,)", x), mk(BCT_I32, "(2,)", y));
    CHECK_EQ_I64(r.status, BCT_ERR_DIVISION_BY_ZERO);
    CHECK_EQ_I64(r.allocs, 0);
    r = run2(BCT_REMAINDER, BCT_PROFILE_TORCH, mk(BCT_I32, "(2,)", x), mk(BCT_I32, "(2,)", y));
    CHECK_EQ_I64(r.status, BCT_ERR_DIVISION_BY_ZERO);
    r = run2(BCT_FLOOR_DIVIDE, BCT_PROFILE_TORCH, mk(BCT_F64, "(1,)", fx), mk(BCT_F64, "(1,)", fy));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(isinf(*(double *)(void *)r.data));
}

/* B20/B21: floor division and remainder follow the divisor's sign; the
 * profiles differ on the sign of an exact zero remainder. */
static void test_floor_and_remainder_signs(void)
{
    double x[2] = { -7.0, -4.0 }, y[1] = { 2.0 };
    int16_t ix[2] = { -7, 7 }, iy[1] = { -2 };
    result r = run2(BCT_FLOOR_DIVIDE, BCT_PROFILE_NUMPY, mk(BCT_F64, "(2,)", x), mk(BCT_F64, "(1,)", y));
    CHECK(((double *)(void *)r.data)[0] == -4.0);
    r = run2(BCT_REMAINDER, BCT_PROFILE_NUMPY, mk(BCT_F64, "(2,)", x), mk(BCT_F64, "(1,)", y));
    CHECK(((double *)(void *)r.data)[0] == 1.0);
    CHECK(!signbit(((double *)(void *)r.data)[1]));        /* numpy: +0 (divisor's sign) */
    r = run2(BCT_REMAINDER, BCT_PROFILE_TORCH, mk(BCT_F64, "(2,)", x), mk(BCT_F64, "(1,)", y));
    CHECK(signbit(((double *)(void *)r.data)[1]));         /* torch: -0 (fmod's sign) */
    r = run2(BCT_REMAINDER, BCT_PROFILE_TORCH, mk(BCT_I16, "(2,)", ix), mk(BCT_I16, "(1,)", iy));
    CHECK_EQ_I64(((int16_t *)(void *)r.data)[0], -1);
    CHECK_EQ_I64(((int16_t *)(void *)r.data)[1], -1);
}

/* B21: maximum/minimum propagate NaN in both profiles. */
static void test_nan_propagation(void)
{
    float x[2] = { NAN, 1.0f }, y[2] = { 1.0f, NAN };
    for (int p = 0; p < 2; p++) {
        result r = run2(BCT_MAXIMUM, p, mk(BCT_F32, "(2,)", x), mk(BCT_F32, "(2,)", y));
        CHECK(isnan(((float *)(void *)r.data)[0]) && isnan(((float *)(void *)r.data)[1]));
        r = run2(BCT_MINIMUM, p, mk(BCT_F32, "(2,)", x), mk(BCT_F32, "(2,)", y));
        CHECK(isnan(((float *)(void *)r.data)[0]) && isnan(((float *)(void *)r.data)[1]));
        r = run2(BCT_EQ, p, mk(BCT_F32, "(2,)", x), mk(BCT_F32, "(2,)", x));
        CHECK_EQ_I64(r.data[0], 0);
        CHECK_EQ_I64(r.data[1], 1);
    }
}

/* B18: true division gives a float: f64 in NumPy, f32 (torch's default) in torch. */
static void test_true_division_dtype(void)
{
    int32_t x[1] = { 3 }, y[1] = { 2 };
    uint8_t b[1] = { 1 };
    result r = run2(BCT_DIV, BCT_PROFILE_NUMPY, mk(BCT_I32, "(1,)", x), mk(BCT_I32, "(1,)", y));
    CHECK_EQ_I64(r.dtype, BCT_F64);
    CHECK(*(double *)(void *)r.data == 1.5);
    r = run2(BCT_DIV, BCT_PROFILE_TORCH, mk(BCT_I32, "(1,)", x), mk(BCT_I32, "(1,)", y));
    CHECK_EQ_I64(r.dtype, BCT_F32);
    CHECK(*(float *)(void *)r.data == 1.5f);
    r = run2(BCT_DIV, BCT_PROFILE_NUMPY, mk(BCT_BOOL, "(1,)", b), mk(BCT_BOOL, "(1,)", b));
    CHECK_EQ_I64(r.dtype, BCT_F64);
}

/* B32: NumPy 2 promotes a 0-d array by its dtype (NEP 50), NumPy 1.24 by its
 * value; torch 2 kept torch 1.13's category rule. Each expectation was run:
 *   P -c "import numpy as np; print((np.zeros(3,np.int8)+np.array(1000,np.int64)).dtype,
 *     (np.zeros(3,np.float32)+np.array(1.0,np.float64)).dtype,
 *     (np.zeros(3,np.uint8)&np.array(300,np.int64)).dtype,
 *     (np.zeros(3,np.uint8)+np.array(1000,np.int64)).dtype)"
 * with P=/usr/bin/python3 (NumPy 1.24.2): int16 float32 int16 uint16;
 * with P=/work/wt-pyenv/.venv/oracles/bin/python (NumPy 2.4.6): int64 float64 int64 int64.
 *   a=np.zeros(3,np.uint8); np.add(a,np.array(1,np.int64),out=a)
 * runs in 1.24 (uint8) and raises UFuncTypeError in 2.4.6.
 *   (torch.zeros(3,dtype=torch.int8)+torch.tensor(1000,dtype=torch.int64)).dtype,
 *   (torch.zeros(3,dtype=torch.float32)+torch.tensor(1e300,dtype=torch.float64)).dtype
 * is torch.int8 torch.float32 in torch 1.13.0a0 and in torch 2.15.0. */
static void test_nep50_promotion_numpy2(void)
{
    int8_t i8[3] = { 1, 2, 3 };
    uint8_t u8[3] = { 1, 2, 3 }, self[3] = { 1, 2, 3 };
    int64_t thousand[1] = { 1000 }, three00[1] = { 300 }, one[1] = { 1 };
    float f32[3] = { 1, 2, 3 };
    double d1[1] = { 1.0 }, huge[1] = { 1e300 };
    result r = run2(BCT_ADD, BCT_PROFILE_NUMPY2, mk(BCT_I8, "(3,)", i8), mk(BCT_I64, "()", thousand));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.dtype, BCT_I64);                           /* 1.24: i16 (test_promotion_profiles) */
    CHECK_EQ_I64(((int64_t *)(void *)r.data)[0], 1001);
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY, mk(BCT_F32, "(3,)", f32), mk(BCT_F64, "()", d1));
    CHECK_EQ_I64(r.dtype, BCT_F32);
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY2, mk(BCT_F32, "(3,)", f32), mk(BCT_F64, "()", d1));
    CHECK_EQ_I64(r.dtype, BCT_F64);
    r = run2(BCT_BITWISE_AND, BCT_PROFILE_NUMPY, mk(BCT_U8, "(3,)", u8), mk(BCT_I64, "()", three00));
    CHECK_EQ_I64(r.dtype, BCT_I16);                           /* 1.24's loop search */
    r = run2(BCT_BITWISE_AND, BCT_PROFILE_NUMPY2, mk(BCT_U8, "(3,)", u8), mk(BCT_I64, "()", three00));
    CHECK_EQ_I64(r.dtype, BCT_I64);
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY2, mk(BCT_U8, "(3,)", u8), mk(BCT_I64, "()", thousand));
    CHECK_EQ_I64(r.status, BCT_OK);                           /* 1.24: uint16, a dtype error in bcast */
    CHECK_EQ_I64(r.dtype, BCT_I64);
    r = run2(BCT_LT, BCT_PROFILE_NUMPY2, mk(BCT_I8, "(3,)", i8), mk(BCT_I64, "()", thousand));
    CHECK_EQ_I64(r.dtype, BCT_BOOL);
    CHECK(((uint8_t *)r.data)[0] == 1);                       /* compared in i64: 1 < 1000 */
    {
        operand ops[2] = { mk(BCT_U8, "(3,)", self), mk(BCT_I64, "()", one) };
        r = run(BCT_ADD, BCT_MODE_INPLACE, BCT_PROFILE_NUMPY, ops, 2);
        CHECK_EQ_I64(r.status, BCT_OK);
        r = run(BCT_ADD, BCT_MODE_INPLACE, BCT_PROFILE_NUMPY2, ops, 2);
        CHECK_EQ_I64(r.status, BCT_ERR_DTYPE);                /* i64 does not cast to u8 (same_kind) */
        CHECK(self[0] == 2 && self[1] == 3 && self[2] == 4);  /* written once, by the 1.24 run only */
    }
    for (int p = BCT_PROFILE_TORCH; p <= BCT_PROFILE_TORCH2; p += 2) {
        r = run2(BCT_ADD, p, mk(BCT_I8, "(3,)", i8), mk(BCT_I64, "()", thousand));
        CHECK_EQ_I64(r.dtype, BCT_I8);
        r = run2(BCT_ADD, p, mk(BCT_F32, "(3,)", f32), mk(BCT_F64, "()", huge));
        CHECK_EQ_I64(r.dtype, BCT_F32);
    }
}

/* B15, B33: NumPy 2 allows 64 dimensions, NumPy 1.24 32. Run:
 *   P -c "import numpy as np; [print(r, np.zeros((1,)*r).ndim) for r in (32,33,64,65)]"
 * 1.24.2: 32 works, 33 raises "maximum supported dimension for an ndarray is 32, found 33";
 * 2.4.6: 32, 33 and 64 work, 65 raises "... is currently 64, found 65". */
static void test_rank_limit_numpy2(void)
{
    bc_shape b;
    bc_error e;
    b.rank = 64;
    for (int i = 0; i < 65; i++) b.dim[i] = 1;
    CHECK_EQ_I64(bc_check_shape(&b, BCT_PROFILE_NUMPY2, 0, &e), BCT_OK);
    CHECK_EQ_I64(bc_check_shape(&b, BCT_PROFILE_NUMPY, 0, &e), BCT_ERR_RANK_LIMIT);
    b.rank = 65;
    CHECK_EQ_I64(bc_check_shape(&b, BCT_PROFILE_NUMPY2, 0, &e), BCT_ERR_RANK_LIMIT);
    CHECK(strstr(e.message, "is 64, found 65") != NULL);
    CHECK_EQ_I64(bc_check_shape(&b, BCT_PROFILE_TORCH2, 0, &e), BCT_OK);
    CHECK_EQ_I64(bc_numpy_max_rank(BCT_PROFILE_NUMPY), 32);
}

/* B35: NumPy 2's broadcast_shapes keeps 32 dims (np.broadcast), although
 * arrays may have 64 (B33); the other profiles are unchanged. Run:
 *   P -c "import numpy as np; print(np.broadcast_shapes((1,)*33, (3,)))"
 * 1.24.2 and 2.4.6 both raise; 2.4.6 says "this function only supports up to 32
 * dimensions but the array has 33"; torch.broadcast_shapes returns the shape. */
static void test_numpy2_broadcast_shapes_keeps_32_dims(void)
{
    char big[4 * 40];
    strcpy(big, "(");
    for (int i = 0; i < 33; i++) strcat(big, i ? ",1" : "1");
    strcat(big, ")");
    operand ops[2] = { mk(BCT_NONE, big, NULL), mk(BCT_NONE, "(3,)", NULL) };
    result r = run(BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, BCT_PROFILE_NUMPY2, ops, 2);
    CHECK_EQ_I64(r.status, BCT_ERR_RANK_LIMIT);
    CHECK_EQ_I64(run(BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, BCT_PROFILE_NUMPY, ops, 2).status, BCT_ERR_RANK_LIMIT);
    CHECK_EQ_I64(run(BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, BCT_PROFILE_TORCH2, ops, 2).status, BCT_OK);
    ops[1] = mk(BCT_NONE, "(2,)", NULL);          /* 33 dims against a mismatch: the rank decides first */
    big[strlen(big) - 2] = '3';
    ops[0] = mk(BCT_NONE, big, NULL);
    CHECK_EQ_I64(run(BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, BCT_PROFILE_NUMPY2, ops, 2).status, BCT_ERR_RANK_LIMIT);
    ops[0] = mk(BCT_NONE, "(1,1,1)", NULL);
    CHECK_EQ_I64(run(BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, BCT_PROFILE_NUMPY2, ops, 2).status, BCT_OK);
}

/* B37: torch 2 refuses an empty result whose contiguous strides overflow int64;
 * torch 1.13 allocates it. Run:
 *   P -c "import torch; x=torch.zeros(0,2**62,1,dtype=torch.int8); print((x+torch.zeros(1,1,4,dtype=torch.int8)).shape)"
 * 1.13.1: torch.Size([0, 4611686018427387904, 4]); 2.15.0: RuntimeError: Stride calculation overflowed. */
static void test_torch2_result_strides_overflow(void)
{
    int8_t y[4] = { 4, 4, 4, 4 };
    operand ops[2] = { mk(BCT_I8, "(0,4611686018427387904,1)", NULL), mk(BCT_I8, "(1,1,4)", y) };
    CHECK_EQ_I64(run(BCT_ADD, BCT_MODE_VALUE, BCT_PROFILE_TORCH, ops, 2).status, BCT_OK);
    CHECK_EQ_I64(run(BCT_ADD, BCT_MODE_VALUE, BCT_PROFILE_TORCH2, ops, 2).status, BCT_ERR_OVERFLOW);
    ops[1] = mk(BCT_I8, "(1,1,2)", y);            /* strides 2^63: still overflows */
    CHECK_EQ_I64(run(BCT_ADD, BCT_MODE_VALUE, BCT_PROFILE_TORCH2, ops, 2).status, BCT_ERR_OVERFLOW);
    ops[1] = mk(BCT_I8, "(1,1,1)", y);            /* strides (2^62,1,1) fit */
    CHECK_EQ_I64(run(BCT_ADD, BCT_MODE_VALUE, BCT_PROFILE_TORCH2, ops, 2).status, BCT_OK);
    bc_shape s = { 3, { 0, (int64_t)1 << 62, 4 } };
    bc_error e;
    CHECK_EQ_I64(bc_check_torch2_strides(&s, BCT_PROFILE_NUMPY2, &e), BCT_OK);
    CHECK_EQ_I64(bc_check_torch2_strides(&s, BCT_PROFILE_TORCH2, &e), BCT_ERR_OVERFLOW);
    CHECK(strstr(e.message, "Stride calculation overflowed") != NULL);
}

/* The profile names of the case format and --profile, and their families. */
static void test_profile_names_and_families(void)
{
    const char *names[BCT_PROFILE_COUNT] = { "numpy", "torch", "numpy2", "torch2" };
    for (int p = 0; p < BCT_PROFILE_COUNT; p++) {
        CHECK(strcmp(bc_profile_name(p), names[p]) == 0);
        CHECK_EQ_I64(bc_profile_from_name(names[p]), p);
        CHECK_EQ_I64(bc_profile_is_numpy(p), p % 2 == 0);
        CHECK_EQ_I64(bc_profile_is_torch(p), p % 2 == 1);
    }
    CHECK_EQ_I64(bc_profile_from_name("numpy3"), -1);
    CHECK(strcmp(bc_profile_name(BCT_PROFILE_COUNT), "?") == 0);
}

/* B19: mixed dtypes and 0-d operands per profile. */
static void test_promotion_profiles(void)
{
    int8_t i8[3] = { 1, 2, 3 };
    uint8_t u8[3] = { 1, 2, 3 };
    int64_t i64[3] = { 1, 2, 3 }, thousand[1] = { 1000 };
    float f32[3] = { 1, 2, 3 };
    double huge[1] = { 1e300 };
    result r = run2(BCT_ADD, BCT_PROFILE_NUMPY, mk(BCT_I8, "(3,)", i8), mk(BCT_I64, "()", thousand));
    CHECK_EQ_I64(r.dtype, BCT_I16);               /* value-based: 1000 needs int16 */
    CHECK_EQ_I64(((int16_t *)(void *)r.data)[0], 1001);
    r = run2(BCT_ADD, BCT_PROFILE_TORCH, mk(BCT_I8, "(3,)", i8), mk(BCT_I64, "()", thousand));
    CHECK_EQ_I64(r.dtype, BCT_I8);                /* a 0-d int never widens a dimensioned int */
    CHECK_EQ_I64(((int8_t *)r.data)[0], (int8_t)(uint8_t)(1001 & 0xff));
    for (int p = 0; p < 2; p++) {
        r = run2(BCT_ADD, p, mk(BCT_U8, "(3,)", u8), mk(BCT_I8, "(3,)", i8));
        CHECK_EQ_I64(r.dtype, BCT_I16);
    }
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY, mk(BCT_I64, "(3,)", i64), mk(BCT_F32, "(3,)", f32));
    CHECK_EQ_I64(r.dtype, BCT_F64);
    r = run2(BCT_ADD, BCT_PROFILE_TORCH, mk(BCT_I64, "(3,)", i64), mk(BCT_F32, "(3,)", f32));
    CHECK_EQ_I64(r.dtype, BCT_F32);
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY, mk(BCT_F32, "(3,)", f32), mk(BCT_F64, "()", huge));
    CHECK_EQ_I64(r.dtype, BCT_F64);               /* 1e300 does not fit float32 */
    r = run2(BCT_ADD, BCT_PROFILE_TORCH, mk(BCT_F32, "(3,)", f32), mk(BCT_F64, "()", huge));
    CHECK_EQ_I64(r.dtype, BCT_F32);
    CHECK(isinf(((float *)(void *)r.data)[0]));
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY, mk(BCT_U8, "(3,)", u8), mk(BCT_I64, "()", thousand));
    CHECK_EQ_I64(r.status, BCT_ERR_DTYPE);        /* numpy says uint16: outside the eight dtypes */
    {
        operand o[2] = { mk(BCT_I8, "(3,)", i8), mk(BCT_I64, "()", thousand) };
        bct_array args[2];
        int dt = -1;
        for (int i = 0; i < 2; i++) {
            args[i] = o[i].a;
            args[i].shape = o[i].shape;
            args[i].strides = o[i].strides;
        }
        CHECK_EQ_I64(bc_result_dtype(BCT_LT, args, 2, BCT_PROFILE_NUMPY, &dt, NULL), BCT_OK);
        CHECK_EQ_I64(dt, BCT_BOOL);
        CHECK_EQ_I64(bc_result_dtype(BCT_AXIS_ADD, args, 2, BCT_PROFILE_NUMPY, &dt, NULL), BCT_OK);
        CHECK_EQ_I64(dt, BCT_I16);
        CHECK_EQ_I64(bc_result_dtype(BCT_ADD, args, 2, BCT_PROFILE_TORCH, &dt, NULL), BCT_OK);
        CHECK_EQ_I64(dt, BCT_I8);
        CHECK_EQ_I64(bc_result_dtype(BCT_BROADCAST_SHAPES, args, 2, BCT_PROFILE_TORCH, &dt, NULL), BCT_OK);
        CHECK_EQ_I64(dt, BCT_NONE);
    }
}

/* Stores the value 1 of dtype dt at p. */
static void put_one(unsigned char *p, int dt)
{
    int16_t i16 = 1;
    int32_t i32 = 1;
    int64_t i64 = 1;
    float f32 = 1;
    double f64 = 1;
    switch (dt) {
    case BCT_I16: memcpy(p, &i16, sizeof i16); break;
    case BCT_I32: memcpy(p, &i32, sizeof i32); break;
    case BCT_I64: memcpy(p, &i64, sizeof i64); break;
    case BCT_F32: memcpy(p, &f32, sizeof f32); break;
    case BCT_F64: memcpy(p, &f64, sizeof f64); break;
    default: *p = 1; break;
    }
}

/* B18 and the dtype errors, for every op x dtype family in both profiles. */
static void test_every_op_and_dtype(void)
{
    for (int p = 0; p < 2; p++)
        for (int op = BCT_ADD; op <= BCT_BITWISE_XOR; op++)
            for (int dt = 0; dt < BCT_DTYPE_COUNT; dt++) {
                unsigned char x[8], y[8];
                int is_float = dt == BCT_F32 || dt == BCT_F64;
                int refused = (op == BCT_SUB && dt == BCT_BOOL) ||
                    (op >= BCT_BITWISE_AND && is_float) ||
                    (p == BCT_PROFILE_TORCH && dt == BCT_BOOL &&
                     (op == BCT_FLOOR_DIVIDE || op == BCT_REMAINDER || op == BCT_POW));
                result r;
                put_one(x, dt);
                put_one(y, dt);
                r = run2(op, p, mk(dt, "(1,)", x), mk(dt, "(1,)", y));
                if (refused) {
                    CHECK_EQ_I64(r.status, BCT_ERR_DTYPE);
                    continue;
                }
                if (r.status != BCT_OK)
                    fprintf(stderr, "  %s %s %s: %s\n", bc_profile_name(p), bc_op_name(op),
                            bc_dtype_name(dt), r.message);
                CHECK_EQ_I64(r.status, BCT_OK);
                if (op >= BCT_EQ && op <= BCT_LOGICAL_XOR)
                    CHECK_EQ_I64(r.dtype, BCT_BOOL);
                else if (op == BCT_DIV)
                    CHECK(r.dtype == (is_float ? dt : p == BCT_PROFILE_NUMPY ? BCT_F64 : BCT_F32));
                else if (dt == BCT_BOOL && (op == BCT_FLOOR_DIVIDE || op == BCT_REMAINDER || op == BCT_POW))
                    CHECK_EQ_I64(r.dtype, BCT_I8);  /* NumPy has no bool loop for these */
                else
                    CHECK_EQ_I64(r.dtype, dt);
            }
}

/* B22: a failed in-place op leaves self untouched; B8/B9 and dtype and value errors. */
static void test_failed_inplace_leaves_self(void)
{
    float self[3] = { 1, 2, 3 }, other[21];
    int32_t iself[2] = { 5, 6 }, iz[2] = { 1, 0 }, ineg[2] = { 2, -1 };
    int8_t i8[2] = { 1, 2 };
    float f2[2] = { 0.5f, 0.5f };
    operand ops[2];
    result r;
    for (int i = 0; i < 21; i++) other[i] = 1;
    ops[0] = mk(BCT_F32, "(1,3,1)", self);
    ops[1] = mk(BCT_F32, "(3,1,7)", other);
    for (int p = 0; p < 2; p++) {
        r = run(BCT_ADD, BCT_MODE_INPLACE, p, ops, 2);
        CHECK_EQ_I64(r.status, BCT_ERR_INPLACE_SHAPE);
        CHECK(self[0] == 1 && self[1] == 2 && self[2] == 3);
    }
    ops[0] = mk(BCT_I32, "(2,)", iself);
    ops[1] = mk(BCT_I32, "(2,)", iz);
    r = run(BCT_FLOOR_DIVIDE, BCT_MODE_INPLACE, BCT_PROFILE_TORCH, ops, 2);
    CHECK_EQ_I64(r.status, BCT_ERR_DIVISION_BY_ZERO);
    CHECK(iself[0] == 5 && iself[1] == 6);
    ops[1] = mk(BCT_I32, "(2,)", ineg);
    r = run(BCT_POW, BCT_MODE_INPLACE, BCT_PROFILE_NUMPY, ops, 2);
    CHECK_EQ_I64(r.status, BCT_ERR_OTHER);         /* Integers to negative integer powers */
    CHECK(iself[0] == 5 && iself[1] == 6);
    r = run(BCT_POW, BCT_MODE_INPLACE, BCT_PROFILE_TORCH, ops, 2);
    CHECK_EQ_I64(r.status, BCT_OK);                /* torch: 5**2, 6**-1 == 0 */
    CHECK(iself[0] == 25 && iself[1] == 0);
    ops[0] = mk(BCT_I8, "(2,)", i8);
    ops[1] = mk(BCT_F32, "(2,)", f2);
    for (int p = 0; p < 2; p++) {
        r = run(BCT_ADD, BCT_MODE_INPLACE, p, ops, 2);
        CHECK_EQ_I64(r.status, BCT_ERR_DTYPE);     /* a float result can't go into int8 */
        CHECK(i8[0] == 1 && i8[1] == 2);
    }
}

/* B9: writing through a self with a stride-0 dim of extent > 1. */
static void test_overlap_refused(void)
{
    float self[2] = { 1, 2 }, other[2] = { 1, 1 };
    operand ops[2] = { mk(BCT_F32, "(3,2)", self), mk(BCT_F32, "(2,)", other) };
    result r;
    ops[0].strides[0] = 0;
    r = run(BCT_ADD, BCT_MODE_INPLACE, BCT_PROFILE_NUMPY, ops, 2);
    CHECK_EQ_I64(r.status, BCT_ERR_OVERLAP);
    CHECK(strstr(r.message, "read-only") != NULL);
    r = run(BCT_ADD, BCT_MODE_INPLACE, BCT_PROFILE_TORCH, ops, 2);
    CHECK_EQ_I64(r.status, BCT_ERR_OVERLAP);
    CHECK(strstr(r.message, "internal overlap") != NULL);
    CHECK(self[0] == 1 && self[1] == 2);
    ops[0] = mk(BCT_F32, "(1,2)", self);              /* stride 0 on an extent-1 dim is fine */
    ops[0].strides[0] = 0;
    r = run(BCT_ADD, BCT_MODE_INPLACE, BCT_PROFILE_TORCH, ops, 2);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(self[0] == 2 && self[1] == 3);
}

/* B8 for out=: NumPy needs out's shape; torch resizes out through alloc_output. */
static void test_out_modes(void)
{
    double x[2] = { 1, 2 }, y[3] = { 10, 20, 30 }, out6[6], out5[5], out3[3];
    const double want[6] = { 11, 21, 31, 12, 22, 32 };
    operand ops[3] = { mk(BCT_F64, "(2,1)", x), mk(BCT_F64, "(3,)", y), mk(BCT_F64, "(2,3)", out6) };
    result r = run(BCT_ADD, BCT_MODE_OUT, BCT_PROFILE_NUMPY, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.allocs, 0);
    CHECK(memcmp(out6, want, sizeof want) == 0);
    ops[2] = mk(BCT_F64, "(5,)", out5);
    r = run(BCT_ADD, BCT_MODE_OUT, BCT_PROFILE_NUMPY, ops, 3);
    CHECK_EQ_I64(r.status, BCT_ERR_NOT_BROADCASTABLE);
    ops[2] = mk(BCT_F64, "(3,)", out3);
    r = run(BCT_ADD, BCT_MODE_OUT, BCT_PROFILE_NUMPY, ops, 3);
    CHECK_EQ_I64(r.status, BCT_ERR_INPLACE_SHAPE);
    ops[2] = mk(BCT_F64, "(5,)", out5);
    r = run(BCT_ADD, BCT_MODE_OUT, BCT_PROFILE_TORCH, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.allocs, 1);
    CHECK_STREQ(shape_text(&r.shape), "(2,3)");
    CHECK(memcmp(r.data, want, sizeof want) == 0);
}

/* B12-B14: matmul values, 1-D promotion and batch broadcasting. */
static void test_matmul_values(void)
{
    int32_t a[6] = { 1, 2, 3, 4, 5, 6 }, v[3] = { 1, 0, -1 };
    double bx[4] = { 1, 2, 3, 4 }, by[6] = { 10, 1, 100, 10, 1, 0 };
    const double want[6] = { 12, 120, 1, 34, 340, 3 };
    result r = run2(BCT_MATMUL, BCT_PROFILE_TORCH, mk(BCT_I32, "(2,3)", a), mk(BCT_I32, "(3,)", v));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(2,)");
    CHECK_EQ_I64(((int32_t *)(void *)r.data)[0], -2);
    CHECK_EQ_I64(((int32_t *)(void *)r.data)[1], -2);
    r = run2(BCT_MATMUL, BCT_PROFILE_NUMPY, mk(BCT_I32, "(3,)", v), mk(BCT_I32, "(3,)", v));
    CHECK_STREQ(shape_text(&r.shape), "()");
    CHECK_EQ_I64(*(int32_t *)(void *)r.data, 2);
    /* (2,1,1,2) @ (3,2,1): batch (2,1) x (3,) -> (2,3), core (1,2)@(2,1) */
    r = run2(BCT_MATMUL, BCT_PROFILE_NUMPY, mk(BCT_F64, "(2,1,1,2)", bx), mk(BCT_F64, "(3,2,1)", by));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(2,3,1,1)");
    CHECK(memcmp(r.data, want, sizeof want) == 0);
    r = run2(BCT_MATMUL, BCT_PROFILE_NUMPY, mk(BCT_F64, "(2,2)", bx), mk(BCT_F64, "(3,2)", by));
    CHECK_EQ_I64(r.status, BCT_ERR_MATMUL_CORE);
    r = run2(BCT_MATMUL, BCT_PROFILE_TORCH, mk(BCT_F64, "()", bx), mk(BCT_F64, "(2,)", by));
    CHECK_EQ_I64(r.status, BCT_ERR_MATMUL_CORE);
}

/* 1 when every element of r's n-element float result is -0. */
static int all_negative_zero(const result *r, int n)
{
    for (int i = 0; i < n; i++) {
        double v = r->dtype == BCT_F32 ? ((const float *)(const void *)r->data)[i]
                                       : ((const double *)(const void *)r->data)[i];
        if (v != 0 || !signbit(v)) return 0;
    }
    return n > 0;
}

/* B47: torch 2.15's mm with a core dim of 1 (rows and columns at least 2)
 * returns the products themselves, so 0 * -1 is -0; torch 1.13, NumPy, bmm
 * and mm with one row sum from +0. A 3+-D x goes through mm only when it
 * folds without a copy (measured: (2,2,1) with strides (1,2,1) runs bmm). */
static void test_torch2_mm_core_dim_one_keeps_negative_zero(void)
{
    double z[8] = { 0 }, m[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };
    operand nc = mk(BCT_F64, "(2,2,1)", z);
    result r = run2(BCT_MATMUL, BCT_PROFILE_TORCH2, mk(BCT_F64, "(2,1)", z), mk(BCT_F64, "(1,2)", m));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(all_negative_zero(&r, 4));
    for (int p = 0; p < 3; p++) {   /* numpy, torch, numpy2: +0 */
        r = run2(BCT_MATMUL, p, mk(BCT_F64, "(2,1)", z), mk(BCT_F64, "(1,2)", m));
        CHECK(r.status == BCT_OK && ((const double *)(const void *)r.data)[0] == 0 && !signbit(((const double *)(const void *)r.data)[0]));
    }
    r = run2(BCT_MATMUL, BCT_PROFILE_TORCH2, mk(BCT_F64, "(1,1,3,1)", z), mk(BCT_F64, "(1,2)", m));
    CHECK(r.status == BCT_OK && all_negative_zero(&r, 6));        /* folded to (3,1) @ (1,2) */
    r = run2(BCT_MATMUL, BCT_PROFILE_TORCH2, mk(BCT_F64, "(1,1)", z), mk(BCT_F64, "(1,2)", m));
    CHECK(r.status == BCT_OK && !signbit(((const double *)(const void *)r.data)[0]));   /* one row */
    r = run2(BCT_MATMUL, BCT_PROFILE_TORCH2, mk(BCT_F64, "(2,2,1)", z), mk(BCT_F64, "(2,1,2)", m));
    CHECK(r.status == BCT_OK && !signbit(((const double *)(const void *)r.data)[0]));   /* bmm */
    r = run2(BCT_MATMUL, BCT_PROFILE_TORCH2, nc, mk(BCT_F64, "(1,2)", m));
    CHECK(r.status == BCT_OK && all_negative_zero(&r, 8));
    nc.strides[0] = 1; nc.strides[1] = 2;   /* batch dims not nested: no fold, bmm */
    r = run2(BCT_MATMUL, BCT_PROFILE_TORCH2, nc, mk(BCT_F64, "(1,2)", m));
    CHECK(r.status == BCT_OK && !signbit(((const double *)(const void *)r.data)[0]));
    r = run2(BCT_MATMUL, BCT_PROFILE_TORCH2, mk(BCT_F64, "(2,2)", z), mk(BCT_F64, "(2,2)", m));
    CHECK(r.status == BCT_OK && !signbit(((const double *)(const void *)r.data)[0]));   /* two terms */
}

/* B26, NumPy 2: an exponent that is one element equal to 0.5 runs sqrt, so
 * -inf ** 0.5 is NaN and -0 ** 0.5 is -0; NumPy 1.24, torch, and NumPy 2
 * with an exponent array of 0.5s run pow (+inf, +0). Found by explore
 * against numpy2-bridge (reports/numpy2-bridge/explore.json). */
static void test_numpy2_pow_half_is_sqrt(void)
{
    double x[2] = { -INFINITY, -0.0 }, half[2] = { 0.5, 0.5 };
    float xf[2] = { -INFINITY, -0.0f }, hf[1] = { 0.5f };
    result r = run2(BCT_POW, BCT_PROFILE_NUMPY2, mk(BCT_F64, "(2,)", x), mk(BCT_F64, "()", half));
    const double *v = (const double *)(const void *)r.data;
    CHECK(r.status == BCT_OK && isnan(v[0]) && v[1] == 0 && signbit(v[1]));
    r = run2(BCT_POW, BCT_PROFILE_NUMPY2, mk(BCT_F32, "(2,)", xf), mk(BCT_F32, "(1,)", hf));
    CHECK(r.status == BCT_OK && isnan(((const float *)(const void *)r.data)[0]));
    r = run2(BCT_POW, BCT_PROFILE_NUMPY2, mk(BCT_F64, "(2,)", x), mk(BCT_F64, "(2,)", half));
    CHECK(r.status == BCT_OK && v[0] == INFINITY && !signbit(v[1]));   /* an array of 0.5s: pow */
    /* Only when NumPy's one loop steps y by 0 (measured with 2.4.6): y (1,)
     * against x (1,) or x () takes the trivial path stepping y by 8 bytes: pow;
     * y (1,) against x (2,1) or y (1,1) against x (1,) takes the iterator,
     * which steps an extent-1 dim by 0: sqrt; y (3,1) against x (3,4) cannot
     * be coalesced into one loop: pow. */
    double col[3] = { 0.5, 0.5, 0.5 }, m[12];
    for (int i = 0; i < 12; i++) m[i] = -INFINITY;
    r = run2(BCT_POW, BCT_PROFILE_NUMPY2, mk(BCT_F64, "(1,)", x), mk(BCT_F64, "(1,)", half));
    CHECK(r.status == BCT_OK && v[0] == INFINITY);
    r = run2(BCT_POW, BCT_PROFILE_NUMPY2, mk(BCT_F64, "()", x), mk(BCT_F64, "(1,)", half));
    CHECK(r.status == BCT_OK && v[0] == INFINITY);
    r = run2(BCT_POW, BCT_PROFILE_NUMPY2, mk(BCT_F64, "(2,1)", x), mk(BCT_F64, "(1,)", half));
    CHECK(r.status == BCT_OK && isnan(v[0]));
    r = run2(BCT_POW, BCT_PROFILE_NUMPY2, mk(BCT_F64, "(1,)", x), mk(BCT_F64, "(1,1)", half));
    CHECK(r.status == BCT_OK && isnan(v[0]));
    r = run2(BCT_POW, BCT_PROFILE_NUMPY2, mk(BCT_F64, "(3,4)", m), mk(BCT_F64, "(3,1)", col));
    CHECK(r.status == BCT_OK && v[0] == INFINITY);
    r = run2(BCT_POW, BCT_PROFILE_NUMPY2, mk(BCT_F64, "(3,4)", m), mk(BCT_F64, "(1,1)", col));
    CHECK(r.status == BCT_OK && isnan(v[0]));
    for (int p = 0; p < 4; p++) {
        if (p == BCT_PROFILE_NUMPY2) continue;
        r = run2(BCT_POW, p, mk(BCT_F64, "(2,)", x), mk(BCT_F64, "()", half));
        CHECK(r.status == BCT_OK && v[0] == INFINITY && !signbit(v[1]));
    }
}

/* B10 through the kernel: y's dims at axis, stride 0 elsewhere. */
static void test_axis_add_values(void)
{
    double x[6] = { 0, 1, 2, 3, 4, 5 }, y[2] = { 10, 20 };
    const double want[6] = { 10, 11, 12, 23, 24, 25 };
    operand ops[2] = { mk(BCT_F64, "(2,3)", x), mk(BCT_F64, "(2,)", y) };
    bct_array args[2];
    bct_call call;
    static result r;
    for (int i = 0; i < 2; i++) {
        args[i] = ops[i].a;
        args[i].shape = ops[i].shape;
        args[i].strides = ops[i].strides;
    }
    memset(&call, 0, sizeof call);
    memset(&r, 0, sizeof r);
    call.op = BCT_AXIS_ADD;
    call.nargs = 2;
    call.args = args;
    call.axis = 0;
    call.alloc_output = grab;
    call.ctx = &r;
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_OK);
    CHECK(memcmp(r.data, want, sizeof want) == 0);
    call.axis = 1;
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_ERR_NOT_BROADCASTABLE);
    call.axis = 2;
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_ERR_AXIS);
}

/* B7/B10 with B19: the rule reshapes (axis_add) or broadcasts (uni_add) y to
 * x's rank before np.add, so a 0-d y promotes like an array there: i16 x +
 * 0-d i64 y is i64 (np.add(x, y.reshape(1)) in NumPy 1.24), not i16. */
static void test_rule_ops_promote_y_at_x_rank(void)
{
    int16_t x[2] = { 1, 2 };
    int64_t y[1] = { 5 };
    for (int op = BCT_AXIS_ADD; op <= BCT_UNI_ADD; op++)
        for (int p = BCT_PROFILE_NUMPY; p <= BCT_PROFILE_TORCH; p++) {
            operand ops[2] = { mk(BCT_I16, "(2,)", x), mk(BCT_I64, "()", y) };
            bct_array args[2];
            bct_call call;
            static result r;
            for (int i = 0; i < 2; i++) { args[i] = ops[i].a; args[i].shape = ops[i].shape; args[i].strides = ops[i].strides; }
            memset(&call, 0, sizeof call);
            memset(&r, 0, sizeof r);
            call.op = op;
            call.profile = p;
            call.nargs = 2;
            call.args = args;
            call.axis = -1;
            call.alloc_output = grab;
            call.ctx = &r;
            CHECK_EQ_I64(bc_eval(&call, NULL), BCT_OK);
            CHECK_EQ_I64(r.dtype, BCT_I64);
        }
    /* a plain add keeps NumPy's value-based rule: the 0-d i64 5 fits i16 */
    result r = run2(BCT_ADD, BCT_PROFILE_NUMPY, mk(BCT_I16, "(2,)", x), mk(BCT_I64, "()", y));
    CHECK_EQ_I64(r.dtype, BCT_I16);
}

/* B4 through the kernel: where broadcasts cond, x and y together. */
static void test_where_values(void)
{
    uint8_t c[2] = { 1, 0 };
    int32_t x[3] = { 1, 2, 3 }, y[1] = { 9 };
    int8_t ic[2] = { 1, 0 };
    const int32_t want[6] = { 1, 2, 3, 9, 9, 9 };
    operand ops[3] = { mk(BCT_BOOL, "(2,1)", c), mk(BCT_I32, "(3,)", x), mk(BCT_I32, "()", y) };
    result r = run(BCT_WHERE, BCT_MODE_VALUE, BCT_PROFILE_TORCH, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(2,3)");
    CHECK(memcmp(r.data, want, sizeof want) == 0);
    ops[0] = mk(BCT_I8, "(2,1)", ic);
    r = run(BCT_WHERE, BCT_MODE_VALUE, BCT_PROFILE_NUMPY, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);                 /* numpy reads any cond as truth values */
    CHECK(memcmp(r.data, want, sizeof want) == 0);
    r = run(BCT_WHERE, BCT_MODE_VALUE, BCT_PROFILE_TORCH, ops, 3);
    CHECK_EQ_I64(r.status, BCT_ERR_DTYPE);          /* torch wants a bool cond */
}

/* B5/B6/B17: views are copied out through stride 0. */
static void test_view_values(void)
{
    int16_t x[3] = { 1, 2, 3 };
    const int16_t want[6] = { 1, 2, 3, 1, 2, 3 }, wantcol[6] = { 1, 1, 2, 2, 3, 3 };
    int64_t to[2] = { 2, 3 }, sizes[2] = { -1, 2 };
    operand o = mk(BCT_I16, "(3,)", x), col = mk(BCT_I16, "(3,1)", x);
    bct_array arg = o.a;
    bct_call call;
    static result r;
    arg.shape = o.shape;
    arg.strides = o.strides;
    memset(&call, 0, sizeof call);
    call.op = BCT_BROADCAST_TO;
    call.nargs = 1;
    call.args = &arg;
    call.target_rank = 2;
    call.target_shape = to;
    call.alloc_output = grab;
    call.ctx = &r;
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_OK);
    CHECK(memcmp(r.data, want, sizeof want) == 0);
    arg = col.a;
    arg.shape = col.shape;
    arg.strides = col.strides;
    call.op = BCT_EXPAND;
    call.target_shape = sizes;
    call.profile = BCT_PROFILE_TORCH;
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(3,2)");
    CHECK(memcmp(r.data, wantcol, sizeof wantcol) == 0);
}

/* B4 through bc_eval: broadcast_shapes allocates a shape-only result. */
static void test_broadcast_shapes_op(void)
{
    operand ops[3] = { mk(BCT_NONE, "(5,1,4,1)", NULL), mk(BCT_NONE, "(3,1,1)", NULL),
                       mk(BCT_NONE, "()", NULL) };
    result r = run(BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, BCT_PROFILE_NUMPY, ops, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.dtype, BCT_NONE);
    CHECK_STREQ(shape_text(&r.shape), "(5,3,4,1)");
    r = run(BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, BCT_PROFILE_NUMPY, ops, 0);
    CHECK_STREQ(shape_text(&r.shape), "()");
}

/* B4: broadcast_shapes takes any number of operands through bc_eval (here
 * 100, beyond any fixed table): the last one decides, or mismatches. */
static void test_broadcast_shapes_any_operand_count(void)
{
    enum { N = 100 };
    static operand ops[N];
    static bct_array args[N];
    static result r;
    bct_call call;
    for (int k = 0; k < N; k++) {
        ops[k] = mk(BCT_NONE, k == N - 1 ? "(4,1,3)" : k % 2 ? "(1,3)" : "()", NULL);
        args[k] = ops[k].a;
        args[k].shape = ops[k].shape;
        args[k].strides = ops[k].strides;
    }
    memset(&call, 0, sizeof call);
    call.op = BCT_BROADCAST_SHAPES;
    call.nargs = N;
    call.args = args;
    call.alloc_output = grab;
    call.ctx = &r;
    for (int p = 0; p < 2; p++) {
        call.profile = p;
        memset(&r, 0, sizeof r);
        CHECK_EQ_I64(bc_eval(&call, NULL), BCT_OK);
        CHECK_STREQ(shape_text(&r.shape), "(4,1,3)");
    }
    ops[N - 1].shape[2] = 2;                      /* (4,1,2) against (1,3) */
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_ERR_NOT_BROADCASTABLE);
}

/* B16: NumPy refuses an operand or result whose non-zero extents times the
 * itemsize overflow intp, even an empty one or a stride-0 view; torch does not. */
static void test_numpy_byte_size_overflow(void)
{
    float one[1] = { 1 };
    int8_t i8[1] = { 1 };
    operand x = mk(BCT_F32, "(0,1)", NULL), y = mk(BCT_F32, "(1,4611686018427387904)", one);
    result r;
    y.strides[0] = y.strides[1] = 0;              /* 2**62 f32 elements in 4 bytes */
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY, x, y);
    CHECK_EQ_I64(r.status, BCT_ERR_OVERFLOW);
    CHECK(strstr(r.message, "array is too big") != NULL);
    r = run2(BCT_ADD, BCT_PROFILE_TORCH, x, y);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(0,4611686018427387904)");
    /* int8 operands fit; NumPy's f64 quotient of shape (0,2**62) does not. */
    x = mk(BCT_I8, "(0,1)", NULL);
    y = mk(BCT_I8, "(1,4611686018427387904)", i8);
    y.strides[0] = y.strides[1] = 0;
    r = run2(BCT_ADD, BCT_PROFILE_NUMPY, x, y);
    CHECK_EQ_I64(r.status, BCT_OK);
    r = run2(BCT_DIV, BCT_PROFILE_NUMPY, x, y);
    CHECK_EQ_I64(r.status, BCT_ERR_OVERFLOW);
    CHECK(strstr(r.message, "the result") != NULL);
    r = run2(BCT_DIV, BCT_PROFILE_TORCH, x, y);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.dtype, BCT_F32);
}

/* B13/B14: wrong batch AND core dims: NumPy reports the core (matmul-core),
 * torch broadcasts the batch first (not-broadcastable). */
static void test_torch_matmul_checks_batch_first(void)
{
    static double a[12], b[60];
    result r = run2(BCT_MATMUL, BCT_PROFILE_NUMPY, mk(BCT_F64, "(2,2,3)", a), mk(BCT_F64, "(3,4,5)", b));
    CHECK_EQ_I64(r.status, BCT_ERR_MATMUL_CORE);
    r = run2(BCT_MATMUL, BCT_PROFILE_TORCH, mk(BCT_F64, "(2,2,3)", a), mk(BCT_F64, "(3,4,5)", b));
    CHECK_EQ_I64(r.status, BCT_ERR_NOT_BROADCASTABLE);
    /* Only the core wrong: matmul-core in both. */
    r = run2(BCT_MATMUL, BCT_PROFILE_TORCH, mk(BCT_F64, "(2,2,3)", a), mk(BCT_F64, "(1,4,5)", b));
    CHECK_EQ_I64(r.status, BCT_ERR_MATMUL_CORE);
}

/* B18/B19: an empty torch matmul of mixed dtypes runs no kernel, so nothing
 * refuses the mix; the result keeps the dtype of the operand torch's dispatch
 * makes mm/mv/bmm's self (x i8, y i32 here, as measured in torch 1.13). */
static void test_torch_empty_matmul_dtype(void)
{
    static int8_t a[64];
    static int32_t b[64];
    static const struct { const char *x, *y; int want; } t[] = {
        { "(0,)", "(0,4)", BCT_I8 },          /* 1-D x: mm of x unsqueezed */
        { "(2,)", "(2,2,0)", BCT_I8 },        /* 1-D x against a batch: mv with x the vector */
        { "(3,0)", "(0,)", BCT_I32 },         /* mv: the vector's */
        { "(2,3,0)", "(0,)", BCT_I32 },
        { "(3,0)", "(0,4)", BCT_I8 },         /* mm */
        { "(2,3,0)", "(0,4)", BCT_I8 },       /* x folded, mm */
        { "(3,0)", "(2,0,4)", BCT_I32 },      /* y folded transposed: y is mm's self */
        { "(1,1,4,0)", "(1,1,0,1)", BCT_I32 }, /* bmm */
        { "(2,0,2)", "(2,2,4)", BCT_I32 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        result r = run2(BCT_MATMUL, BCT_PROFILE_TORCH, mk(BCT_I8, t[i].x, a), mk(BCT_I32, t[i].y, b));
        CHECK_EQ_I64(r.status, BCT_OK);
        if (r.dtype != t[i].want) fprintf(stderr, "  %s @ %s\n", t[i].x, t[i].y);
        CHECK_EQ_I64(r.dtype, t[i].want);
    }
    /* torch 2.15 refuses the mix in mm/mv/addmv/dot even when empty; bmm and
     * the fold of a 3+-D y keep y's dtype (measured; found by explore) */
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int through_bmm = i >= 6;   /* the last three rows: x 2+-D, y 3+-D */
        result r2 = run2(BCT_MATMUL, BCT_PROFILE_TORCH2, mk(BCT_I8, t[i].x, a), mk(BCT_I32, t[i].y, b));
        if (r2.status != (through_bmm ? BCT_OK : BCT_ERR_DTYPE)) fprintf(stderr, "  torch2: %s @ %s\n", t[i].x, t[i].y);
        CHECK_EQ_I64(r2.status, through_bmm ? BCT_OK : BCT_ERR_DTYPE);
        if (through_bmm) CHECK_EQ_I64(r2.dtype, BCT_I32);
    }
    /* a non-empty mix is refused in the kernel; NumPy promotes */
    result r = run2(BCT_MATMUL, BCT_PROFILE_TORCH, mk(BCT_I8, "(2,3,2)", a), mk(BCT_I32, "(2,2,4)", b));
    CHECK_EQ_I64(r.status, BCT_ERR_DTYPE);
    r = run2(BCT_MATMUL, BCT_PROFILE_NUMPY, mk(BCT_I8, "(2,3,0)", a), mk(BCT_I32, "(2,0,4)", b));
    CHECK_EQ_I64(r.dtype, BCT_I32);
}

/* B9: an empty self with a stride-0 dim overlaps nothing in torch (an empty
 * tensor counts as contiguous there: add_ on as_strided(zeros(6), (0,2,3),
 * (1,0,1)) succeeds in torch 1.13); NumPy refuses the read-only view. */
static void test_empty_self_never_overlaps_in_torch(void)
{
    static float s[6];
    operand ops[2] = { mk(BCT_F32, "(0,2,3)", s), mk(BCT_F32, "(0,2,3)", s) };
    ops[0].strides[1] = 0;
    result r = run(BCT_ADD, BCT_MODE_INPLACE, BCT_PROFILE_TORCH, ops, 2);
    CHECK_EQ_I64(r.status, BCT_OK);
    r = run(BCT_ADD, BCT_MODE_INPLACE, BCT_PROFILE_NUMPY, ops, 2);
    CHECK_EQ_I64(r.status, BCT_ERR_OVERLAP);
    ops[0] = mk(BCT_F32, "(2,3)", s);    /* not empty: torch refuses too */
    ops[1] = mk(BCT_F32, "(2,3)", s);
    ops[0].strides[0] = 0;
    r = run(BCT_ADD, BCT_MODE_INPLACE, BCT_PROFILE_TORCH, ops, 2);
    CHECK_EQ_I64(r.status, BCT_ERR_OVERLAP);
}

/* B19: NumPy's value-based casting makes u8 with a 0-d integer above 255 an
 * unsigned loop wider than u8 (u16, u32, u64). No result of bcast's eight
 * dtypes has it (value mode: dtype), but in-place and out= cast into their
 * destination (NumPy 1.24: s = array([7,7], u8); s += 300 gives [51, 51];
 * subtract(u8 [1,2,3], 300, out=f64) gives 65237, 65238, 65239;
 * subtract(u8 [1,2,3], 70000, out=i32) gives -69999 ...; with 2**40 and
 * out=f32, 1.8446743e19). */
static void test_numpy_wide_unsigned_loops(void)
{
    uint8_t s[2] = { 7, 7 }, u[3] = { 1, 2, 3 };
    int64_t big[3] = { 300, 70000, (int64_t)1 << 40 };
    double of[3];
    int32_t oi[3];
    float o32[3];
    operand ip[2] = { mk(BCT_U8, "(2,)", s), mk(BCT_I64, "()", &big[0]) };
    result r = run(BCT_ADD, BCT_MODE_INPLACE, BCT_PROFILE_NUMPY, ip, 2);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(s[0] == 51 && s[1] == 51);
    operand o1[3] = { mk(BCT_U8, "(3,)", u), mk(BCT_I64, "()", &big[0]), mk(BCT_F64, "(3,)", of) };
    CHECK_EQ_I64(run(BCT_SUB, BCT_MODE_OUT, BCT_PROFILE_NUMPY, o1, 3).status, BCT_OK);
    CHECK(of[0] == 65237.0 && of[2] == 65239.0);
    operand o2[3] = { mk(BCT_U8, "(3,)", u), mk(BCT_I64, "()", &big[1]), mk(BCT_I32, "(3,)", oi) };
    CHECK_EQ_I64(run(BCT_SUB, BCT_MODE_OUT, BCT_PROFILE_NUMPY, o2, 3).status, BCT_OK);
    CHECK(oi[0] == -69999 && oi[2] == -69997);
    operand o3[3] = { mk(BCT_U8, "(3,)", u), mk(BCT_I64, "()", &big[2]), mk(BCT_F32, "(3,)", o32) };
    CHECK_EQ_I64(run(BCT_SUB, BCT_MODE_OUT, BCT_PROFILE_NUMPY, o3, 3).status, BCT_OK);
    CHECK(o32[0] == (float)(UINT64_C(1) - (UINT64_C(1) << 40)));
    r = run2(BCT_SUB, BCT_PROFILE_NUMPY, mk(BCT_U8, "(3,)", u), mk(BCT_I64, "()", &big[0]));
    CHECK_EQ_I64(r.status, BCT_ERR_DTYPE);   /* no u16 result in value mode */
    /* the ops NumPy resolves by a linear loop search stop at the first signed
     * type that holds the value: u8 & 300 is i16, u8 % 70000 is i32 */
    r = run2(BCT_BITWISE_AND, BCT_PROFILE_NUMPY, mk(BCT_U8, "(3,)", u), mk(BCT_I64, "()", &big[0]));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.dtype, BCT_I16);
    r = run2(BCT_REMAINDER, BCT_PROFILE_NUMPY, mk(BCT_I64, "()", &big[1]), mk(BCT_U8, "(3,)", u));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(r.dtype, BCT_I32);
}

/* B19: NumPy's min_scalar_type puts NaN and both infinities in float16, so a
 * 0-d f64 -inf or inf against an f32 array promotes to f32 (NumPy 1.24:
 * np.power(np.array(-np.inf), np.zeros((1,1), np.float32)).dtype is
 * float32); a finite 1e300 still needs f64. */
static void test_numpy_infinite_scalar_is_float16(void)
{
    double v[3] = { -INFINITY, INFINITY, 1e300 };
    float a[1] = { 0 };
    for (int i = 0; i < 3; i++) {
        result r = run2(BCT_POW, BCT_PROFILE_NUMPY, mk(BCT_F64, "()", &v[i]), mk(BCT_F32, "(1,1)", a));
        CHECK_EQ_I64(r.status, BCT_OK);
        CHECK_EQ_I64(r.dtype, i < 2 ? BCT_F32 : BCT_F64);
    }
}

/* B5/B15: NumPy's broadcast_to refuses a negative entry first, then a target
 * above 32 dims, then a shape that does not broadcast (NumPy 1.24:
 * broadcast_to(zeros((4,1,3)), (1,)*40 + (5,1,3)) says "maximum supported
 * dimension for an ndarray is 32, found 43"). */
static void test_numpy_broadcast_to_checks_rank_before_shapes(void)
{
    static uint8_t x[12];
    int64_t to[44];
    operand o = mk(BCT_U8, "(4,1,3)", x);
    bct_array arg = o.a;
    bct_call call;
    static result r;
    arg.shape = o.shape;
    arg.strides = o.strides;
    for (int i = 0; i < 40; i++) to[i] = 1;
    to[40] = 5; to[41] = 1; to[42] = 3;
    memset(&call, 0, sizeof call);
    call.op = BCT_BROADCAST_TO;
    call.nargs = 1;
    call.args = &arg;
    call.target_rank = 43;
    call.target_shape = to;
    call.alloc_output = grab;
    call.ctx = &r;
    call.profile = BCT_PROFILE_NUMPY;
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_ERR_RANK_LIMIT);
    to[0] = -1;                                   /* a negative entry comes first */
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_ERR_INVALID_SHAPE);
    to[0] = 1;
    call.target_rank = 3;                         /* (1,1,1): 32 dims or fewer, the shapes decide */
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_ERR_NOT_BROADCASTABLE);
    call.profile = BCT_PROFILE_TORCH;             /* torch has no such limit: the mismatch */
    call.target_rank = 43;
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_ERR_NOT_BROADCASTABLE);
}

/* B5/B6: torch.broadcast_to is expand, so -1 keeps a dim there; NumPy's
 * broadcast_to refuses negative entries. */
static void test_torch_broadcast_to_accepts_minus_one(void)
{
    int16_t x[3] = { 1, 2, 3 };
    const int16_t want[6] = { 1, 2, 3, 1, 2, 3 };
    int64_t to[2] = { 2, -1 };
    operand o = mk(BCT_I16, "(3,)", x);
    bct_array arg = o.a;
    bct_call call;
    static result r;
    arg.shape = o.shape;
    arg.strides = o.strides;
    memset(&call, 0, sizeof call);
    call.op = BCT_BROADCAST_TO;
    call.nargs = 1;
    call.args = &arg;
    call.target_rank = 2;
    call.target_shape = to;
    call.alloc_output = grab;
    call.ctx = &r;
    call.profile = BCT_PROFILE_NUMPY;
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_ERR_INVALID_SHAPE);
    call.profile = BCT_PROFILE_TORCH;
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_OK);
    CHECK_STREQ(shape_text(&r.shape), "(2,3)");
    CHECK(memcmp(r.data, want, sizeof want) == 0);
    to[0] = -1;                                   /* -1 on a new leading dim: still refused */
    CHECK_EQ_I64(bc_eval(&call, NULL), BCT_ERR_INVALID_SHAPE);
}

/* B6: expand checks its sizes from the last dim backwards, as torch does, so
 * of two faults the rightmost is the one reported (torch 1.13:
 * zeros(1,30).expand(-2,27) says 27 must match 30; expand(-2,30) and
 * zeros(5).expand(-1,-2) fail on the negative size). */
static void test_expand_checks_right_to_left(void)
{
    CHECK_STREQ(expand("(1,30)", "(-2,27)"), "error:not-broadcastable");
    CHECK_STREQ(expand("(1,30)", "(-2,30)"), "error:invalid-shape");
    CHECK_STREQ(expand("(5,)", "(-1,-2)"), "error:invalid-shape");
    CHECK_STREQ(expand("(5,)", "(-1,3)"), "error:not-broadcastable");
    CHECK_STREQ(expand("(2,30)", "(-2,30)"), "error:invalid-shape");
    CHECK_STREQ(expand("(1,30)", "(-2,30,1)"), "error:not-broadcastable");
    CHECK_STREQ(expand("(3,1)", "(-1,4)"), "(3,4)");
    CHECK_STREQ(expand("(3,)", "(2,-1)"), "(2,3)");
}

/* Bad calls get a clear error, not a crash. */
static void test_bad_calls(void)
{
    float x[1] = { 1 };
    operand ops[1] = { mk(BCT_F32, "(1,)", x) };
    result r = run(BCT_ADD, BCT_MODE_VALUE, BCT_PROFILE_NUMPY, ops, 1);
    CHECK_EQ_I64(r.status, BCT_ERR_OTHER);
    CHECK(strstr(r.message, "takes 2 arguments") != NULL);
    r = run(BCT_OP_COUNT, BCT_MODE_VALUE, BCT_PROFILE_NUMPY, ops, 1);
    CHECK_EQ_I64(r.status, BCT_ERR_OTHER);
    ops[0].a.dtype = 99;
    r = run(BCT_EXPAND, BCT_MODE_VALUE, BCT_PROFILE_TORCH, ops, 1);
    CHECK_EQ_I64(r.status, BCT_ERR_OTHER);
}

/* ------------------------------------------------------- issue #25's ops */

/* B40, B44, B43: the per-profile corners of the mathops kernels. */
static void test_mathops_profile_corners(void)
{
    int8_t a[1] = { 127 }, b[1] = { -128 };
    result r = run2(BCT_GCD, BCT_PROFILE_NUMPY, mk(BCT_I8, "(1,)", a), mk(BCT_I8, "(1,)", b));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK_EQ_I64(((int8_t *)r.data)[0], 1);
    r = run2(BCT_GCD, BCT_PROFILE_TORCH2, mk(BCT_I8, "(1,)", a), mk(BCT_I8, "(1,)", b));
    CHECK_EQ_I64(((int8_t *)r.data)[0], -1);   /* torch's abs(-128) wraps in int8 */

    double s[1] = { 0 }, e[1] = { INFINITY }, w[1] = { -1 };
    operand l[3] = { mk(BCT_F64, "()", s), mk(BCT_F64, "()", e), mk(BCT_F64, "()", w) };
    r = run(BCT_LERP, BCT_MODE_VALUE, BCT_PROFILE_TORCH, l, 3);
    CHECK(r.status == BCT_OK && isinf(((double *)r.data)[0]) && ((double *)r.data)[0] < 0);
    r = run(BCT_LERP, BCT_MODE_VALUE, BCT_PROFILE_TORCH2, l, 3);
    CHECK(r.status == BCT_OK && isnan(((double *)r.data)[0]));

    double x[2] = { -0.0, 5 }, lo[3] = { 0, 1, 2 }, hi[1] = { 3 };
    operand c[3] = { mk(BCT_F64, "(2,1)", x), mk(BCT_F64, "(3,)", lo), mk(BCT_F64, "()", hi) };
    r = run(BCT_CLIP, BCT_MODE_VALUE, BCT_PROFILE_NUMPY, c, 3);
    CHECK_STREQ(shape_text(&r.shape), "(2,3)");
    CHECK(!signbit(((double *)r.data)[0]) && ((double *)r.data)[1] == 1 && ((double *)r.data)[5] == 3);
    r = run(BCT_CLIP, BCT_MODE_VALUE, BCT_PROFILE_TORCH, c, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(signbit(((double *)r.data)[0]));     /* torch's max keeps x on a tie */
}

/* B42, B45: errors of the mathops: torch's integer zero divisor in every
 * profile, ONNX's one-way broadcast and Gemm's 2-D operands, value mode only. */
static void test_mathops_errors(void)
{
    int32_t n[2] = { 7, -7 }, d[2] = { 2, 0 };
    result r = run2(BCT_DIV_TRUNC, BCT_PROFILE_NUMPY, mk(BCT_I32, "(2,1)", n), mk(BCT_I32, "(2,)", d));
    CHECK_EQ_I64(r.status, BCT_ERR_DIVISION_BY_ZERO);
    CHECK_EQ_I64(r.allocs, 0);
    r = run2(BCT_FMOD, BCT_PROFILE_NUMPY, mk(BCT_I32, "(2,1)", n), mk(BCT_I32, "(2,)", d));
    CHECK_EQ_I64(r.status, BCT_OK);

    double x[6] = { -2, 3, -4, 1, 0, -1 }, sl[6] = { 0.5, 0.25, 1, 1, 1, 1 };
    r = run2(BCT_PRELU, BCT_PROFILE_TORCH, mk(BCT_F64, "(2,3)", x), mk(BCT_F64, "(3,)", sl));
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(((double *)r.data)[0] == -1 && ((double *)r.data)[2] == -4 && ((double *)r.data)[5] == -1);
    r = run2(BCT_PRELU, BCT_PROFILE_TORCH, mk(BCT_F64, "(3,)", x), mk(BCT_F64, "(2,3)", sl));
    CHECK_EQ_I64(r.status, BCT_ERR_INVALID_SHAPE);   /* the slope never widens x (B7) */

    operand g[3] = { mk(BCT_F64, "(3,)", x), mk(BCT_F64, "(3,2)", sl), mk(BCT_F64, "(2,)", sl) };
    r = run(BCT_GEMM_BIAS, BCT_MODE_VALUE, BCT_PROFILE_NUMPY, g, 3);
    CHECK_EQ_I64(r.status, BCT_ERR_MATMUL_CORE);
    operand g2[3] = { mk(BCT_F64, "(1,3)", x), mk(BCT_F64, "(3,2)", sl), mk(BCT_F64, "(2,)", sl) };
    r = run(BCT_GEMM_BIAS, BCT_MODE_VALUE, BCT_PROFILE_NUMPY, g2, 3);
    CHECK_EQ_I64(r.status, BCT_OK);
    CHECK(((double *)r.data)[0] == -2 * 0.5 + 3 * 1 - 4 * 1 + 0.5);
    operand ip[2] = { mk(BCT_F64, "(2,3)", x), mk(BCT_F64, "(3,)", sl) };
    r = run(BCT_COPYSIGN, BCT_MODE_INPLACE, BCT_PROFILE_NUMPY, ip, 2);
    CHECK_EQ_I64(r.status, BCT_ERR_OTHER);
}

int main(void)
{
    RUN(test_seed_examples_broadcast);
    RUN(test_mathops_profile_corners);
    RUN(test_mathops_errors);
    RUN(test_seed_examples_inplace);
    RUN(test_seed_examples_paddle_axis);
    RUN(test_seed_examples_matmul);
    RUN(test_torch2_mm_core_dim_one_keeps_negative_zero);
    RUN(test_numpy2_pow_half_is_sqrt);
    RUN(test_zero_size_stretches_to_zero);
    RUN(test_mismatch_names_operands_and_dim);
    RUN(test_nary_broadcast);
    RUN(test_broadcast_to_rules);
    RUN(test_expand_rules);
    RUN(test_onnx_unidirectional);
    RUN(test_inplace_shape_rules);
    RUN(test_axis_rules);
    RUN(test_matmul_shapes);
    RUN(test_rank_limits);
    RUN(test_rank_limit_numpy2);
    RUN(test_nep50_promotion_numpy2);
    RUN(test_profile_names_and_families);
    RUN(test_negative_and_overflow);
    RUN(test_count_overflow_per_profile);
    RUN(test_count_overflow_through_eval);
    RUN(test_shape_parse_and_format);
    RUN(test_names_round_trip);
    RUN(test_seed_mul_values);
    RUN(test_iterator_strides_offsets);
    RUN(test_zero_size_output);
    RUN(test_high_rank_kernels);
    RUN(test_integer_wraparound);
    RUN(test_division_by_zero_profiles);
    RUN(test_floor_and_remainder_signs);
    RUN(test_nan_propagation);
    RUN(test_true_division_dtype);
    RUN(test_promotion_profiles);
    RUN(test_every_op_and_dtype);
    RUN(test_failed_inplace_leaves_self);
    RUN(test_overlap_refused);
    RUN(test_out_modes);
    RUN(test_matmul_values);
    RUN(test_axis_add_values);
    RUN(test_where_values);
    RUN(test_view_values);
    RUN(test_broadcast_shapes_op);
    RUN(test_numpy2_broadcast_shapes_keeps_32_dims);
    RUN(test_torch2_result_strides_overflow);
    RUN(test_broadcast_shapes_any_operand_count);
    RUN(test_numpy_byte_size_overflow);
    RUN(test_torch_matmul_checks_batch_first);
    RUN(test_torch_empty_matmul_dtype);
    RUN(test_expand_checks_right_to_left);
    RUN(test_rule_ops_promote_y_at_x_rank);
    RUN(test_empty_self_never_overlaps_in_torch);
    RUN(test_numpy_wide_unsigned_loops);
    RUN(test_numpy_infinite_scalar_is_float16);
    RUN(test_numpy_broadcast_to_checks_rank_before_shapes);
    RUN(test_torch_broadcast_to_accepts_minus_one);
    RUN(test_bad_calls);
    return check_summary();
}
