/* mathops.c - the ops of issue #25, value mode only: binary math (B38-B41),
 * torch's division rounding modes (B42), three-way ops (B43, B44) and ONNX's
 * one-way ops (B45). One plain element function per op, applied by the
 * strided iterator (B1-B3, B17): nothing is ever expanded to the broadcast
 * shape. Clarity first: elements are read and written one at a time. */
#include <math.h>
#include <string.h>
#include "ref_internal.h"

int bc_is_mathop(int op) { return op >= BCT_COPYSIGN && op < BCT_OP_COUNT; }

static int is_three_way(int op) { return op >= BCT_CLIP && op <= BCT_ADDCDIV; }
static int float_only(int op)
{
    return (op >= BCT_COPYSIGN && op <= BCT_NEXTAFTER && op != BCT_FMOD) || op == BCT_LDEXP ||
           op == BCT_LERP || op == BCT_ADDCDIV || op == BCT_PRELU || op == BCT_GEMM_BIAS;
}
static int int_only(int op) { return op >= BCT_GCD && op <= BCT_RIGHT_SHIFT; }
static int torch_div(int op) { return op == BCT_DIV_TRUNC || op == BCT_DIV_FLOOR; }

/* ---- element functions, one body for f32 and f64 ---- */
/* B39: heaviside(nan, h) is nan in NumPy; torch's a == 0 ? h : a > 0 gives 0. */
/* B43: clip is max then min; NumPy's max returns lo on a tie (max(-0., 0.) is
 * 0.), torch's std::max returns x; a NaN bound gives NaN in both. */
#define FLOAT_ELEMENT(T, S, F)                                                                   \
    static T heaviside_##S(T x, T h, int np)                                                    \
    {                                                                                           \
        if (isnan(x)) return np ? x : (T)0;                                                     \
        return x == 0 ? h : x < 0 ? (T)0 : (T)1;                                                \
    }                                                                                           \
    /* B38: NumPy's npy_logaddexp(2) (x == y gives x + ln 2, or x + 1); torch: */  \
    /* the larger plus log(1 + exp(-|x - y|)), through log/log2 in torch 1.13 and */ \
    /* log1p (times 1/ln 2, fused) in torch 2, which round differently in the last bits */ \
    static T logaddexp_##S(T x, T y, int base2, int np, int gen2)                               \
    {                                                                                           \
        T d = x - y, m = x < y ? y : x, e = base2 ? exp2##F(-fabs##F(d)) : exp##F(-fabs##F(d));  \
        if (np && x == y) return base2 ? x + (T)1 : x + (T)0.693147180559945309417232121458176568; \
        if (np) m = d > 0 ? x : y;                                                              \
        if (!np && isinf(x) && x == y) return x;                                                \
        if (isnan(d)) return d;                                                                 \
        if (np)                                                                                 \
            return base2 ? m + log1p##F(e) * (T)1.442695040888963407359924681001892137          \
                         : m + log1p##F(e);                                                     \
        if (gen2) /* torch 2's build contracts m + log1p(e) / ln 2 into one fma (measured) */   \
            return base2 ? fma##F(log1p##F(e), (T)1.442695040888963407359924681001892137, m)    \
                         : m + log1p##F(e);                                                     \
        return base2 ? m + log2##F((T)1 + e) : m + log##F((T)1 + e);                            \
    }                                                                                           \
    static T clip_##S(T x, T lo, T hi, int np)                                                  \
    {                                                                                           \
        T m;                                                                                    \
        if (isnan(lo) || isnan(hi)) return lo + hi;                                             \
        if (isnan(x)) return x;                                                                 \
        m = np ? (x > lo ? x : lo) : (x < lo ? lo : x);                                         \
        return np ? (m < hi ? m : hi) : (hi < m ? hi : m);                                      \
    }                                                                                           \
    /* B38: NumPy's fmax loop (in1 >= in2 || isnan(in2)) ? in1 : in2, fmin likewise */          \
    static T fmax_##S(T x, T y) { return (x >= y || isnan(y)) ? x : y; }                        \
    static T fmin_##S(T x, T y) { return (x <= y || isnan(y)) ? x : y; }                        \
    /* B44: torch's lerp, exact at both ends; torch 1.13 takes the first form */              \
    /* for every weight below 0.5, torch 2 for |weight| below 0.5 only */                       \
    static T lerp_##S(T a, T b, T w, int gen2)                                                  \
    {                                                                                           \
        return (gen2 ? fabs##F(w) : w) < (T)0.5 ? a + w * (b - a) : b - (b - a) * ((T)1 - w);   \
    }                                                                                           \
    static T float_op_##S(int op, int np, int gen2, T x, T y, T z)                              \
    {                                                                                           \
        switch (op) {                                                                           \
        case BCT_COPYSIGN: return copysign##F(x, y);                                            \
        case BCT_ATAN2: return atan2##F(x, y);                                                  \
        case BCT_HYPOT: return hypot##F(x, y);                                                  \
        case BCT_FMOD: return fmod##F(x, y);                                                    \
        case BCT_HEAVISIDE: return heaviside_##S(x, y, np);                                     \
        case BCT_LOGADDEXP: return logaddexp_##S(x, y, 0, np, gen2);                                      \
        case BCT_LOGADDEXP2: return logaddexp_##S(x, y, 1, np, gen2);                                     \
        case BCT_NEXTAFTER: return nextafter##F(x, y);                                          \
        case BCT_FMAX: return fmax_##S(x, y);                                                   \
        case BCT_FMIN: return fmin_##S(x, y);                                                   \
        case BCT_DIV_TRUNC: return trunc##F(x / y);                                             \
        case BCT_DIV_FLOOR: return bc_floor_div_##S(x, y);                                      \
        case BCT_CLIP: return clip_##S(x, y, z, np);                                            \
        case BCT_LERP: return lerp_##S(x, y, z, gen2);                                          \
        case BCT_ADDCMUL: return x + y * z;                                                     \
        case BCT_ADDCDIV: return x + y / z;                                                     \
        case BCT_PRELU: return x < 0 ? y * x : x;                                               \
        default: return (T)NAN;                                                                 \
        }                                                                                       \
    }

FLOAT_ELEMENT(float, f32, f)
FLOAT_ELEMENT(double, f64, )

/* B40: torch's calc_gcd: std::abs and Euclid's loop in the dtype, where the
 * minimum's absolute value wraps to itself (gcd(127, -128) is -1 in i8). */
static int64_t gcd_torch(int64_t a, int64_t b, int bits)
{
    int64_t lo = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    a = (a == lo) ? a : (a < 0 ? -a : a);
    b = (b == lo) ? b : (b < 0 ? -b : b);
    while (a != 0) { int64_t c = a; a = (a == -1) ? 0 : b % a; b = c; }
    return b;
}

static int64_t gcd_i64(int64_t a, int64_t b)
{
    uint64_t x = a < 0 ? 0u - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0u - (uint64_t)b : (uint64_t)b;
    while (y != 0) { uint64_t t = x % y; x = y; y = t; }
    return (int64_t)x;
}

/* B40: a shift count outside [0, bits) gives 0 (left) or the sign (right),
 * as NumPy and torch 2 define it. */
static int64_t shift_i64(int op, int64_t x, int64_t n, int bits)
{
    if (n < 0 || n >= bits) return op == BCT_LEFT_SHIFT ? 0 : (x < 0 ? -1 : 0);
    return op == BCT_LEFT_SHIFT ? (int64_t)((uint64_t)x << n) : (x < 0 ? ~(~x >> n) : x >> n);
}

/* Integer ops in int64 on values of the compute dtype; the store wraps to it
 * (B20). Zero divisors were refused or are defined here as NumPy's 0. */
static int64_t int_op(int op, int np, int64_t x, int64_t y, int64_t z, int bits)
{
    int64_t g;
    switch (op) {
    case BCT_FMOD: return y == 0 ? 0 : (y == -1 ? 0 : x % y);
    case BCT_GCD: return np ? gcd_i64(x, y) : gcd_torch(x, y, bits);
    case BCT_LCM:
        g = gcd_i64(x, y);
        return g == 0 ? 0 : gcd_i64((int64_t)((uint64_t)(x / g) * (uint64_t)y), 0);
    case BCT_LEFT_SHIFT: case BCT_RIGHT_SHIFT: return shift_i64(op, x, y, bits);
    case BCT_FMAX: return x >= y ? x : y;
    case BCT_FMIN: return x <= y ? x : y;
    case BCT_DIV_TRUNC: return y == 0 ? 0 : (y == -1 ? (int64_t)(0u - (uint64_t)x) : x / y);
    case BCT_DIV_FLOOR: return bc_floor_div_i64(x, y);
    case BCT_CLIP: { int64_t m = x > y ? x : y; return m < z ? m : z; }
    case BCT_ADDCMUL: return (int64_t)((uint64_t)x + (uint64_t)y * (uint64_t)z);
    default: return 0;
    }
}

/* B41: float_power in f64 whatever the operands; ldexp: NumPy's ldexp(x, n)
 * exactly, torch's x * 2^n with 2^n a float32 (torch.pow(2., n)). */
static double pow_like(int op, int np, int dtype, double x, int64_t n_or_0, double y)
{
    if (op == BCT_FLOAT_POWER) return pow(x, y);
    if (n_or_0 > 100000) n_or_0 = 100000;
    if (n_or_0 < -100000) n_or_0 = -100000;
    if (np) return dtype == BCT_F32 ? (double)ldexpf((float)x, (int)n_or_0) : ldexp(x, (int)n_or_0);
    {
        float p = powf(2.0f, (float)n_or_0);
        return dtype == BCT_F32 ? (double)((float)x * p) : x * (double)p;
    }
}

/* The result dtype of a mathop call (B38-B45): operands promote as for add
 * (B19); float-only ops need float operands, integer-only ops integer ones;
 * float_power is always f64, ldexp has x's (float) dtype with an integer y.
 * Operand combinations that the suite does not cover (mixed kinds, bool) are
 * refused with a message saying ref does not model them. */
static int mathop_dtype(const bct_call *call, int nin, int *result, bc_error *err)
{
    int op = call->op, p;
    const char *name = bc_op_name(op);
    if (op == BCT_FLOAT_POWER) { *result = BCT_F64; return BCT_OK; }
    if (op == BCT_LDEXP) {
        if (!bc_is_float(call->args[0].dtype) || !bc_is_int(call->args[1].dtype))
            return bc_fail(err, BCT_ERR_DTYPE, 0, 1, -1, "ldexp: x must be float and y an integer "
                           "(got %s, %s)", bc_dtype_name(call->args[0].dtype), bc_dtype_name(call->args[1].dtype));
        /* torch 1.13: x * torch.pow(2., y), a float32 tensor that wins
         * promotion over a 0-d x (B19); torch 2 keeps x's dtype (measured) */
        *result = call->profile == BCT_PROFILE_TORCH && call->args[0].rank == 0 && call->args[1].rank > 0
                ? BCT_F32 : call->args[0].dtype;
        return BCT_OK;
    }
    for (int k = 1; k < nin; k++)
        if ((op == BCT_PRELU || op == BCT_GEMM_BIAS || op == BCT_HEAVISIDE) &&
            call->args[k].dtype != call->args[0].dtype)
            return bc_fail(err, BCT_ERR_DTYPE, 0, k, -1, "%s: every operand must have one dtype "
                           "(got %s and %s)", name, bc_dtype_name(call->args[0].dtype),
                           bc_dtype_name(call->args[k].dtype));
    p = bc_promote_operands(call->args, nin, call->profile);
    if (float_only(op) && !bc_is_float(p))
        return bc_fail(err, BCT_ERR_DTYPE, -1, -1, -1, "%s: ref models float operands only "
                       "(the operands promote to %s)", name, bc_dtype_name(p));
    if (int_only(op) && !bc_is_int(p))
        return bc_fail(err, BCT_ERR_DTYPE, -1, -1, -1, "%s is not supported for %s operands "
                       "(integers only)", name, bc_dtype_name(p));
    if ((!bc_is_int(p) && !bc_is_float(p)) || p >= BCT_DTYPE_COUNT)
        return bc_fail(err, BCT_ERR_DTYPE, -1, -1, -1, "%s: ref does not model %s operands", name,
                       bc_dtype_name(p));
    *result = p;
    return BCT_OK;
}

/* B42 (and fmod in torch, B38): integer division by zero raises in torch,
 * before any write; div_trunc and div_floor are torch's ops, so every profile
 * follows torch. NumPy's integer fmod by zero gives 0. */
static int zero_divisor(const bct_call *call, int result, bc_error *err)
{
    int op = call->op;
    const bct_array *y = &call->args[1];
    if (!bc_is_int(result) || !(torch_div(op) || (op == BCT_FMOD && bc_profile_is_torch(call->profile))))
        return BCT_OK;
    bc_operand o = { bc_base(y), bc_dtype_size(y->dtype), y->rank, y->shape, y->strides };
    bc_iter it;
    char *row[1];
    bc_iter_init(&it, y->rank, y->shape, 1, &o);
    while (bc_iter_next(&it, row))
        for (int64_t i = 0; i < it.n; i++)
            if (bc_load_i64(row[0] + i * it.inner[0], y->dtype) == 0)
                return bc_fail(err, BCT_ERR_DIVISION_BY_ZERO, 1, -1, -1,
                               "ZeroDivisionError: integer %s by zero (torch)", bc_op_name(op));
    return BCT_OK;
}

/* A contiguous result buffer from the caller (B16's byte limit first). */
static char *alloc_result(const bct_call *call, int dtype, const bc_shape *res, int64_t *strides,
                          bc_error *err)
{
    int64_t n = 1;
    char *base;
    if (bc_profile_is_numpy(call->profile) && bc_check_numpy_bytes(res, dtype, -1, err) != BCT_OK)
        return NULL;
    for (int i = res->rank - 1; i >= 0; i--) {
        strides[i] = n;
        n *= res->dim[i] > 0 ? res->dim[i] : 1;
    }
    base = call->alloc_output != NULL ? call->alloc_output(call->ctx, dtype, res->rank, res->dim) : NULL;
    if (base == NULL)
        bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "alloc_output refused a %s result", bc_dtype_name(dtype));
    return base;
}

/* One element: the inputs at p[1..nin] (dtypes in[]), the result at p[0]. */
static void one_element(const bct_call *call, int result, char *const *p, int nin)
{
    int op = call->op, np = bc_profile_is_numpy(call->profile), gen2 = call->profile / 2;
    const bct_array *in = call->args;
    double f[3] = { 0, 0, 0 }, r;
    int64_t v[3] = { 0, 0, 0 }, ri;
    for (int k = 0; k < nin; k++) {
        f[k] = bc_load_f64(p[k + 1], in[k].dtype);
        v[k] = bc_load_i64(p[k + 1], in[k].dtype);
    }
    if (op == BCT_FLOAT_POWER || op == BCT_LDEXP) {
        r = pow_like(op, np, result, f[0], v[1], f[1]);
    } else if (result == BCT_F32) {
        float x = (float)f[0], y = (float)f[1], z = (float)f[2];
        r = float_op_f32(op, np, gen2, x, y, z);
    } else if (result == BCT_F64) {
        r = float_op_f64(op, np, gen2, f[0], f[1], f[2]);
    } else {
        ri = int_op(op, np, v[0], v[1], v[2], 8 * bc_dtype_size(result));
        bc_cast(p[0], result, 0, (const char *)&ri, BCT_I64, 0, 1);
        return;
    }
    if (result == BCT_F32) { float rf = (float)r; memcpy(p[0], &rf, sizeof rf); }
    else memcpy(p[0], &r, sizeof r);
}

/* The element-wise walk over the result shape res. */
static int walk(const bct_call *call, int result, const bc_shape *res, int nin, bc_error *err)
{
    int64_t strides[BC_MAX_RANK];
    bc_operand ops[4];
    bc_iter it;
    char *row[4], *p[4];
    char *base = alloc_result(call, result, res, strides, err);
    if (base == NULL) return err->status;
    ops[0] = (bc_operand){ base, bc_dtype_size(result), res->rank, res->dim, strides };
    for (int k = 0; k < nin; k++)
        ops[k + 1] = (bc_operand){ bc_base(&call->args[k]), bc_dtype_size(call->args[k].dtype),
                                   call->args[k].rank, call->args[k].shape, call->args[k].strides };
    bc_iter_init(&it, res->rank, res->dim, nin + 1, ops);
    while (bc_iter_next(&it, row))
        for (int64_t i = 0; i < it.n; i++) {
            for (int k = 0; k <= nin; k++) p[k] = row[k] + i * it.inner[k];
            one_element(call, result, p, nin);
        }
    return BCT_OK;
}

/* B45, ONNX Gemm's bias: x (M,K) @ y (K,N) + z, z broadcast one way to (M,N)
 * (B7). Products summed over k in order, in the result dtype. */
static int eval_gemm_bias(const bct_call *call, int result, bc_error *err)
{
    const bct_array *a = &call->args[0], *b = &call->args[1], *c = &call->args[2];
    bc_shape mn, cs, res;
    int64_t strides[BC_MAX_RANK];
    int st;
    if (a->rank != 2 || b->rank != 2)
        return bc_fail(err, BCT_ERR_MATMUL_CORE, a->rank != 2 ? 0 : 1, -1, -1,
                       "gemm_bias: A and B must be 2-D (got ranks %d and %d)", a->rank, b->rank);
    if (a->shape[1] != b->shape[0])
        return bc_fail(err, BCT_ERR_MATMUL_CORE, 0, 1, -1, "gemm_bias: A is (%lld,%lld) but B has "
                       "%lld rows", (long long)a->shape[0], (long long)a->shape[1], (long long)b->shape[0]);
    mn.rank = 2;
    mn.dim[0] = a->shape[0];
    mn.dim[1] = b->shape[1];
    bc_shape_of(c, &cs);
    if ((st = bc_onnx_uni_shape(&mn, &cs, &res, err)) != BCT_OK) return st;
    char *o = alloc_result(call, result, &res, strides, err);
    if (o == NULL) return err->status;
    int lead = 2 - c->rank, z = bc_dtype_size(result);
    for (int64_t i = 0; i < res.dim[0]; i++)
        for (int64_t j = 0; j < res.dim[1]; j++) {
            int64_t ci = 0;   /* C's element for (i, j): stride 0 where C has extent 1 or no dim */
            if (lead <= 0 && c->shape[0] != 1) ci += i * c->strides[0];
            if (c->rank >= 1 && c->shape[c->rank - 1] != 1) ci += j * c->strides[c->rank - 1];
            double acc64 = 0;
            float acc32 = 0;
            for (int64_t k = 0; k < a->shape[1]; k++) {
                double u = bc_load_f64(bc_base(a) + (i * a->strides[0] + k * a->strides[1]) * z, result);
                double w = bc_load_f64(bc_base(b) + (k * b->strides[0] + j * b->strides[1]) * z, result);
                acc64 += u * w;
                acc32 += (float)u * (float)w;
            }
            double cv = bc_load_f64(bc_base(c) + ci * z, result);
            double r = result == BCT_F32 ? (double)(acc32 + (float)cv) : acc64 + cv;
            bc_cast(o + (i * res.dim[1] + j) * z, result, 0, (const char *)&r, BCT_F64, 0, 1);
        }
    return BCT_OK;
}

/* B38-B45: one mathop call. NumPy refuses dtypes before shapes, torch
 * broadcasts first (as in eval.c); nothing is written before every check. */
int bc_eval_mathop(const bct_call *call, bc_error *err)
{
    int op = call->op, nin = is_three_way(op) || op == BCT_GEMM_BIAS ? 3 : 2, result = 0, st;
    bc_shape shapes[3], res;
    if (call->mode != BCT_MODE_VALUE)
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "%s: ref models value mode only", bc_op_name(op));
    if (call->nargs != nin)
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "%s takes %d args, got %d", bc_op_name(op), nin,
                       call->nargs);
    if (bc_profile_is_numpy(call->profile) && (st = mathop_dtype(call, nin, &result, err)) != BCT_OK)
        return st;
    if (op == BCT_GEMM_BIAS) {
        if (bc_profile_is_torch(call->profile) && (st = mathop_dtype(call, nin, &result, err)) != BCT_OK)
            return st;
        return eval_gemm_bias(call, result, err);
    }
    for (int k = 0; k < nin; k++) bc_shape_of(&call->args[k], &shapes[k]);
    st = op == BCT_PRELU ? bc_onnx_uni_shape(&shapes[0], &shapes[1], &res, err)
                         : bc_broadcast_shapes(shapes, nin, &res, err);
    if (st == BCT_OK) st = bc_check_shape(&res, call->profile, -1, err);
    if (st == BCT_OK && bc_profile_is_torch(call->profile)) st = mathop_dtype(call, nin, &result, err);
    if (st == BCT_OK) st = zero_divisor(call, result, err);
    if (st != BCT_OK) return st;
    return walk(call, result, &res, nin, err);
}
