/* dtype.c - result dtypes: NumPy 1.24, NumPy 2 and torch promotion (B18, B19, B32). */
#include <math.h>
#include <string.h>
#include "ref_internal.h"

/* Internal dtype facts. Internal dtypes (BC_U16...) only appear as NumPy loop types. */
typedef struct dinfo { int kind; int is_signed; int bits; } dinfo;
enum { K_BOOL = 0, K_INT = 1, K_FLOAT = 2 };

static dinfo info(int dt)
{
    switch (dt) {
    case BCT_BOOL: return (dinfo){ K_BOOL, 0, 8 };
    case BCT_I8:   return (dinfo){ K_INT, 1, 8 };
    case BCT_U8:   return (dinfo){ K_INT, 0, 8 };
    case BCT_I16:  return (dinfo){ K_INT, 1, 16 };
    case BC_U16:   return (dinfo){ K_INT, 0, 16 };
    case BCT_I32:  return (dinfo){ K_INT, 1, 32 };
    case BC_U32:   return (dinfo){ K_INT, 0, 32 };
    case BCT_I64:  return (dinfo){ K_INT, 1, 64 };
    case BC_U64:   return (dinfo){ K_INT, 0, 64 };
    case BC_F16:   return (dinfo){ K_FLOAT, 1, 16 };
    case BCT_F32:  return (dinfo){ K_FLOAT, 1, 32 };
    default:       return (dinfo){ K_FLOAT, 1, 64 };
    }
}

static int make_int(int is_signed, int bits)
{
    switch (bits) {
    case 8:  return is_signed ? BCT_I8 : BCT_U8;
    case 16: return is_signed ? BCT_I16 : BC_U16;
    case 32: return is_signed ? BCT_I32 : BC_U32;
    default: return is_signed ? BCT_I64 : BC_U64;
    }
}

static int make_float(int bits)
{
    return bits <= 16 ? BC_F16 : bits <= 32 ? BCT_F32 : BCT_F64;
}

int bc_is_float(int dt) { return dt == BCT_F32 || dt == BCT_F64 || dt == BC_F16; }
int bc_is_int(int dt) { return info(dt).kind == K_INT && !bc_is_float(dt); }

/* NumPy's promote_types over the internal lattice. Signed with unsigned needs
 * a signed type wider than the unsigned one (u64 with signed goes to f64);
 * an int with a float needs a float whose mantissa holds the int. */
static int np_promote(int a, int b)
{
    dinfo x = info(a), y = info(b);
    if (a == b) return a;
    if (x.kind == K_BOOL) return b;
    if (y.kind == K_BOOL) return a;
    if (x.kind == K_FLOAT || y.kind == K_FLOAT) {
        int bits = 16;
        dinfo v[2] = { x, y };
        for (int i = 0; i < 2; i++) {
            int need = v[i].kind == K_FLOAT ? v[i].bits : v[i].bits <= 8 ? 16 : v[i].bits <= 16 ? 32 : 64;
            if (need > bits) bits = need;
        }
        return make_float(bits);
    }
    if (x.is_signed == y.is_signed)
        return make_int(x.is_signed, x.bits > y.bits ? x.bits : y.bits);
    {
        dinfo s = x.is_signed ? x : y, u = x.is_signed ? y : x;
        if (u.bits < s.bits) return make_int(1, s.bits);
        if (u.bits >= 64) return BCT_F64;
        return make_int(1, u.bits * 2);
    }
}

/* torch's promoteTypes over the eight ABI dtypes (u8 with i8 is i16; ints with
 * floats give the float). */
static int torch_promote(int a, int b)
{
    dinfo x = info(a), y = info(b);
    if (a == b) return a;
    if (x.kind == K_BOOL) return b;
    if (y.kind == K_BOOL) return a;
    if (x.kind == K_FLOAT && y.kind == K_FLOAT) return x.bits > y.bits ? a : b;
    if (x.kind == K_FLOAT) return a;
    if (y.kind == K_FLOAT) return b;
    if (x.is_signed == y.is_signed) return x.bits > y.bits ? a : b;
    {
        dinfo s = x.is_signed ? x : y;
        return make_int(1, s.bits > 16 ? s.bits : 16);
    }
}

/* np.min_scalar_type of a 0-d operand's value, with NumPy's "small unsigned"
 * flag: a non-negative integer that also fits the signed type of the same
 * width promotes like that signed type against signed arrays. */
static int np_min_scalar(const bct_array *a, int *small_unsigned)
{
    const char *p = (const char *)a->data + a->offset * bc_dtype_size(a->dtype);
    *small_unsigned = 0;
    if (a->dtype == BCT_BOOL)
        return BCT_BOOL;
    if (bc_is_float(a->dtype)) {
        double v = bc_load_f64(p, a->dtype);
        /* NumPy's own rule: NaN and +-inf fit float16 (np.min_scalar_type(-inf)
         * is float16), finite values by their range. */
        if (!isfinite(v) || !(v <= -65000.0 || v >= 65000.0)) return BC_F16;
        if (a->dtype == BCT_F32 || !(v <= -3.4e38 || v >= 3.4e38)) return BCT_F32;
        return BCT_F64;
    }
    {
        int64_t v = bc_load_i64(p, a->dtype);
        if (v >= 0) {
            int t = v <= UINT8_MAX ? BCT_U8 : v <= UINT16_MAX ? BC_U16 : v <= UINT32_MAX ? BC_U32 : BC_U64;
            int bits = info(t).bits;
            *small_unsigned = bits == 64 || v < ((int64_t)1 << (bits - 1));
            return t;
        }
        return v >= INT8_MIN ? BCT_I8 : v >= INT16_MIN ? BCT_I16 : v >= INT32_MIN ? BCT_I32 : BCT_I64;
    }
}

static int signed_or_float(int dt)
{
    dinfo d = info(dt);
    return d.kind == K_FLOAT || (d.kind == K_INT && d.is_signed);
}

/* np.result_type over arrays (1.24): when some operand has dimensions and the
 * highest kind among 0-d operands is not above the highest kind among the
 * dimensioned ones, 0-d operands count as their min_scalar_type (B19).
 * With nep50 (NumPy 2, B32) no operand is value-based: a 0-d array promotes
 * by its dtype like any array, so the result is promote_types over all. */
static int np_result_type(const bct_array *args, int n, int nep50)
{
    int max_arr = -1, max_sc = -1, any_dim = 0, res, rs, value_based;
    int small[BC_ITER_MAXOP] = {0}, type[BC_ITER_MAXOP] = {0};
    for (int i = 0; i < n; i++) {
        int k = info(args[i].dtype).kind;
        if (args[i].rank == 0) { if (k > max_sc) max_sc = k; }
        else { any_dim = 1; if (k > max_arr) max_arr = k; }
    }
    value_based = any_dim && max_arr >= max_sc && !nep50;
    for (int i = 0; i < n; i++)
        type[i] = value_based && args[i].rank == 0 ? np_min_scalar(&args[i], &small[i]) : args[i].dtype;
    res = type[0];
    rs = small[0];
    for (int i = 1; i < n; i++) {
        int t = type[i];
        /* NumPy's promote_types(..., is_small_unsigned): a small unsigned scalar
         * acts as the same-width signed type against a signed int or a float. */
        if (small[i] && signed_or_float(res))
            t = make_int(1, info(t).bits);
        else if (rs && signed_or_float(t))
            res = make_int(1, info(res).bits);
        res = np_promote(res, t);
        rs = rs && small[i];
    }
    return res;
}

/* torch's ResultTypeState: dimensioned tensors and 0-d tensors are promoted
 * separately, then combined by category (bool < integral < floating): a 0-d
 * operand only wins when it is of a higher category than every dimensioned one
 * (then the two promote), or when there is no dimensioned operand. */
static int torch_result_type(const bct_array *args, int n)
{
    int dim = -1, zero = -1;
    for (int i = 0; i < n; i++) {
        int *slot = args[i].rank == 0 ? &zero : &dim;
        *slot = *slot < 0 ? args[i].dtype : torch_promote(*slot, args[i].dtype);
    }
    if (dim < 0) return zero;
    if (zero < 0) return dim;
    if (info(dim).kind == K_FLOAT) return dim;
    if (dim == BCT_BOOL || info(zero).kind == K_FLOAT) return torch_promote(dim, zero);
    return dim;
}

int bc_promote_operands(const bct_array *args, int n, int profile)
{
    return bc_profile_is_numpy(profile) ? np_result_type(args, n, profile == BCT_PROFILE_NUMPY2)
                                        : torch_result_type(args, n);
}

int bc_can_cast(int from, int to, int profile)
{
    dinfo f = info(from), t = info(to);
    if (bc_profile_is_torch(profile))
        return !(f.kind == K_FLOAT && t.kind != K_FLOAT) && !(f.kind != K_BOOL && t.kind == K_BOOL);
    {
        /* NumPy same_kind: bool < unsigned < signed < float. */
        int fk = f.kind == K_BOOL ? 0 : f.kind == K_FLOAT ? 3 : f.is_signed ? 2 : 1;
        int tk = t.kind == K_BOOL ? 0 : t.kind == K_FLOAT ? 3 : t.is_signed ? 2 : 1;
        return fk <= tk;
    }
}

static int is_compare(int op) { return op >= BCT_EQ && op <= BCT_GE; }
static int is_logical(int op) { return op >= BCT_LOGICAL_AND && op <= BCT_LOGICAL_XOR; }
static int is_bitwise(int op) { return op >= BCT_BITWISE_AND && op <= BCT_BITWISE_XOR; }

/* A comparison loop type that NumPy names but the ABI lacks (u16, u32, u64
 * from value-based casting, only ever against u8/bool arrays and non-negative
 * scalars) compares exactly in i64. */
static int exact_abi_type(int dt)
{
    return (dt == BC_U16 || dt == BC_U32 || dt == BC_U64) ? BCT_I64 : dt;
}

/* NumPy 1.24 resolves bitwise ops, floor_divide, remainder and power by a
 * linear search over their loops (b, B, h, H, i, I, q, Q...): the first type
 * every input casts to safely, a 0-d operand by its value. It differs from
 * np.result_type (which the other ops use) only where result_type gives a
 * wide unsigned type: a u8 array with a non-negative 0-d integer above 255,
 * where the search stops at the first type that holds the value:
 * i16 (<= 32767), u16, i32, u32, i64 (B19; measured: u8 array & 300 is i16,
 * & 40000 u16, & 70000 i32, & 3e9 u32, & 2**40 i64). */
static int np_linear_wide(const bct_array *args, int n)
{
    int64_t v = 0;
    for (int i = 0; i < n; i++) {
        if (args[i].rank != 0 || !bc_is_int(args[i].dtype)) continue;
        int64_t x = bc_load_i64((const char *)args[i].data + args[i].offset * bc_dtype_size(args[i].dtype),
                                args[i].dtype);
        if (x > v) v = x;
    }
    return v <= INT16_MAX ? BCT_I16 : v <= UINT16_MAX ? BC_U16 : v <= INT32_MAX ? BCT_I32
         : v <= UINT32_MAX ? BC_U32 : BCT_I64;
}

static int is_linear_search(int op)
{
    return is_bitwise(op) || op == BCT_FLOOR_DIVIDE || op == BCT_REMAINDER || op == BCT_POW;
}

/* bc_op_dtypes, with allow_wide: a result NumPy's value-based casting makes
 * an unsigned type wider than u8 (BC_U16...) is returned, not refused. */
static int op_dtypes(int op, const bct_array *args, int nin, int profile,
                     int *compute, int *result, bc_error *err, int allow_wide)
{
    const char *pn = bc_profile_name(profile);
    int c, r;
    const bct_array *in = args;
    int n = nin;
    if (nin < 1 || nin > 3 || (op == BCT_WHERE && nin != 3))
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "%s: %d inputs is not a valid arity",
                       bc_op_name(op), nin);
    for (int i = 0; i < nin; i++)
        if (args[i].dtype < 0 || args[i].dtype >= BCT_DTYPE_COUNT)
            return bc_fail(err, BCT_ERR_OTHER, i, -1, -1, "operand %d has unknown dtype %d",
                           i, args[i].dtype);
    if (op == BCT_WHERE) {
        /* B19: where promotes x and y only; cond is read as truth values. */
        if (bc_profile_is_torch(profile) && args[0].dtype != BCT_BOOL && args[0].dtype != BCT_U8)
            return bc_fail(err, BCT_ERR_DTYPE, 0, -1, -1,
                           "where expected condition to be a boolean tensor, but got a tensor "
                           "with dtype %s (torch profile)", bc_dtype_name(args[0].dtype));
        in = args + 1;
        n = nin - 1;
    }
    /* B32: NumPy 2 promotes 0-d arrays by dtype (NEP 50); torch 2 kept
     * torch 1.13's category rule for 0-d tensors (measured, docs/semantics.md). */
    c = bc_profile_is_numpy(profile) ? np_result_type(in, n, profile == BCT_PROFILE_NUMPY2)
                                     : torch_result_type(in, n);
    if (bc_profile_is_numpy(profile) && is_linear_search(op) && (c == BC_U16 || c == BC_U32 || c == BC_U64))
        c = np_linear_wide(in, n);
    if (op == BCT_SUB && bc_profile_is_torch(profile)) {
        for (int i = 0; i < n; i++)
            if (in[i].dtype == BCT_BOOL)
                return bc_fail(err, BCT_ERR_DTYPE, i, -1, -1,
                               "subtraction with a bool operand (operand %d) is not supported "
                               "(torch profile); use logical_xor", i);
    }
    if (op == BCT_SUB && c == BCT_BOOL)
        return bc_fail(err, BCT_ERR_DTYPE, -1, -1, -1,
                       "boolean subtract is not supported (%s profile); use logical_xor", pn);
    if (op == BCT_DIV && !bc_is_float(c))
        c = bc_profile_is_numpy(profile) ? BCT_F64 : BCT_F32; /* B18: true division gives a float */
    if ((op == BCT_FLOOR_DIVIDE || op == BCT_REMAINDER || op == BCT_POW || op == BCT_MATMUL) &&
        c == BCT_BOOL) {
        if (bc_profile_is_torch(profile))
            return bc_fail(err, BCT_ERR_DTYPE, -1, -1, -1,
                           "%s is not implemented for bool (torch profile)", bc_op_name(op));
        if (op != BCT_MATMUL)
            c = BCT_I8; /* NumPy has no bool loop: bool promotes to int8 */
    }
    if (is_bitwise(op) && bc_is_float(c))
        return bc_fail(err, BCT_ERR_DTYPE, -1, -1, -1,
                       "%s is not supported for the input types (float %s; %s profile)",
                       bc_op_name(op), bc_dtype_name(c), pn);
    if (op == BCT_MATMUL && bc_profile_is_torch(profile) && args[0].dtype != args[1].dtype)
        return bc_fail(err, BCT_ERR_DTYPE, 0, 1, -1,
                       "matmul: expected both operands to have the same dtype, got %s and %s "
                       "(torch profile)", bc_dtype_name(args[0].dtype), bc_dtype_name(args[1].dtype));
    if (is_compare(op) || is_logical(op)) {
        c = exact_abi_type(c);
        r = BCT_BOOL;
    } else {
        r = c;
    }
    if ((r < 0 || r >= BCT_DTYPE_COUNT) && !(allow_wide && (r == BC_U16 || r == BC_U32 || r == BC_U64)))
        return bc_fail(err, BCT_ERR_DTYPE, -1, -1, -1,
                       "%s: the result dtype (NumPy value-based casting gives an unsigned type "
                       "wider than u8) is not one of bcast's eight dtypes", bc_op_name(op));
    *compute = c;
    *result = r;
    return BCT_OK;
}

int bc_op_dtypes(int op, const bct_array *args, int nin, int profile,
                 int *compute, int *result, bc_error *err)
{
    return op_dtypes(op, args, nin, profile, compute, result, err, 0);
}

int bc_op_dtypes_wide(int op, const bct_array *args, int nin, int profile,
                      int *compute, int *result, bc_error *err)
{
    return op_dtypes(op, args, nin, profile, compute, result, err, 1);
}

int bc_result_dtype(int op, const bct_array *args, int nargs, int profile, int *dtype, bc_error *err)
{
    int c;
    bc_clear_error(err);
    if (op == BCT_BROADCAST_SHAPES) { *dtype = BCT_NONE; return BCT_OK; }
    if (op == BCT_BROADCAST_TO || op == BCT_EXPAND) { *dtype = args[0].dtype; return BCT_OK; }
    if (op == BCT_AXIS_ADD || op == BCT_UNI_ADD) op = BCT_ADD;
    return bc_op_dtypes(op, args, nargs, profile, &c, dtype, err);
}
