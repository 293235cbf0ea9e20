/* weak.c - weak scalars (B34): a plain Python bool, int or float operand, per profile. */
#include <float.h>
#include <math.h>
#include "ref_internal.h"

static int kind(int dt) { return dt == BCT_BOOL ? 0 : bc_is_float(dt) ? 2 : 1; }

static int is_compare(int op) { return op >= BCT_EQ && op <= BCT_GE; }

/* NumPy 2 ops that take an out-of-range Python int by value: comparisons
 * compare it exactly, the logical ops read its truth, true division computes
 * in float64 (measured with NumPy 2.4.6; i8 / 1000 is 0.001, not an error). */
static int np2_int_by_value(int op)
{
    return is_compare(op) || (op >= BCT_LOGICAL_AND && op <= BCT_LOGICAL_XOR) || op == BCT_DIV;
}

/* The dtype a library gives a Python scalar of kind k on its own: NumPy's
 * np.asarray default (int64, float64) or torch's (int64, the default dtype
 * float32). */
static int default_dtype(int k, int torch)
{
    return k == 0 ? BCT_BOOL : k == 1 ? BCT_I64 : torch ? BCT_F32 : BCT_F64;
}

static int int_fits(int64_t v, int dt)
{
    switch (dt) {
    case BCT_I8:  return v >= INT8_MIN && v <= INT8_MAX;
    case BCT_U8:  return v >= 0 && v <= UINT8_MAX;
    case BCT_I16: return v >= INT16_MIN && v <= INT16_MAX;
    case BCT_I32: return v >= INT32_MIN && v <= INT32_MAX;
    default:      return 1;   /* i64 holds every weak-int of the case format */
    }
}

/* The result_type of the strong (non-weak) inputs from `first` on, or -1 when every one is weak. */
static int strong_type(const bct_array *dt, int first, int nin, uint32_t weak, int profile)
{
    bct_array strong[BC_ITER_MAXOP];
    int n = 0;
    for (int k = first; k < nin; k++)
        if (!(weak & (1u << k))) strong[n++] = dt[k];
    return n ? bc_promote_operands(strong, n, profile) : -1;
}

/* NumPy 2 (NEP 50): a weak scalar takes the strong operands' dtype when its
 * kind is not higher, else its kind's default. An int outside an integer
 * dtype is an OverflowError, except in the ops that take it by value
 * (np2_int_by_value: here in i64, exact) and in where, which casts it
 * unchecked (it wraps; measured with NumPy 2.4.6). */
static int nep50_view(int op, uint32_t weak, bct_array *dt, int nin, bc_error *err)
{
    int first = op == BCT_WHERE ? 1 : 0;
    int s = strong_type(dt, first, nin, weak, BCT_PROFILE_NUMPY2);
    for (int k = first; k < nin; k++) {
        if (!(weak & (1u << k))) continue;
        int w = kind(dt[k].dtype);
        int t = s >= 0 && w <= kind(s) ? s : default_dtype(w, 0);
        if (w == 1 && bc_is_int(t)) {
            int64_t v = bc_load_i64(bc_base(&dt[k]), BCT_I64);
            if (!int_fits(v, t) && np2_int_by_value(op))
                t = BCT_I64;
            else if (!int_fits(v, t) && op != BCT_WHERE)
                return bc_fail(err, BCT_ERR_OVERFLOW, k, -1, -1,
                               "Python integer %lld out of bounds for %s (numpy2 profile, NEP 50)",
                               (long long)v, bc_dtype_name(t));
        }
        dt[k].dtype = t;
    }
    return BCT_OK;
}

/* c10's checked conversion (c10::overflows): an unsigned type also takes
 * negatives down to -max (they wrap: -1 is 255 in u8). */
static int torch_int_fits(int64_t v, int dt)
{
    return dt == BCT_U8 ? v >= -UINT8_MAX && v <= UINT8_MAX : int_fits(v, dt);
}

/* torch.where with a Python scalar, and torch.pow with a Python int
 * exponent, convert it to the result dtype checked: an int outside an
 * integer result, or a finite float beyond f32's range for an f32 result, is
 * "value cannot be converted ... without overflow"; pow refuses a negative
 * integer exponent first. (Measured, torch 1.13 and 2.15.) */
static int torch_checked(int op, const bct_array *dt, uint32_t weak, const bct_array *orig, int nin,
                         bc_error *err)
{
    int first = op == BCT_WHERE ? 1 : 0;
    int r = strong_type(dt, first, nin, 0, BCT_PROFILE_TORCH);
    for (int k = first; k < nin; k++) {
        if (!(weak & (1u << k)) || (op == BCT_POW && (k != 1 || orig[k].dtype != BCT_I64))) continue;
        const char *p = bc_base(&orig[k]);
        int bad = 0;
        if (op == BCT_POW && orig[k].dtype == BCT_I64 && bc_is_int(r) && bc_load_i64(p, BCT_I64) < 0)
            return bc_fail(err, BCT_ERR_OTHER, k, -1, -1, "Integers to negative integer powers are not allowed.");
        if (orig[k].dtype == BCT_I64 && bc_is_int(r))
            bad = !torch_int_fits(bc_load_i64(p, BCT_I64), r);
        else if (orig[k].dtype == BCT_F64 && r == BCT_F32) {
            double v = bc_load_f64(p, BCT_F64);
            bad = isfinite(v) && fabs(v) > FLT_MAX;
        }
        if (bad)
            return bc_fail(err, BCT_ERR_OVERFLOW, k, -1, -1,
                           "value cannot be converted to type %s without overflow (torch profile)",
                           bc_dtype_name(r));
    }
    return BCT_OK;
}

/* torch: a weak scalar is a wrapped number: it promotes by category only,
 * like a 0-d tensor (B19), a float one as the default dtype float32; its
 * value is cast (wrapping) to the result. maximum, minimum and the logical
 * ops take no Python number, the comparisons none as their first argument
 * (TypeError, measured with torch 1.13 and 2.15). */
static int torch_view(int op, uint32_t weak, bct_array *dt, int nin, bc_error *err)
{
    bct_array orig[BC_ITER_MAXOP];
    int no_number = op == BCT_MAXIMUM || op == BCT_MINIMUM || (op >= BCT_LOGICAL_AND && op <= BCT_LOGICAL_XOR);
    if (no_number || (is_compare(op) && (weak & 1u)))
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1,
                       "%s() takes no Python number as argument %d (torch profile: no Scalar overload)",
                       bc_op_name(op), (weak & 1u) ? 0 : 1);
    for (int k = 0; k < nin; k++) {
        orig[k] = dt[k];
        if ((weak & (1u << k)) && dt[k].dtype == BCT_F64) dt[k].dtype = BCT_F32;
    }
    return op == BCT_WHERE || op == BCT_POW ? torch_checked(op, dt, weak, orig, nin, err) : BCT_OK;
}

/* See ref_internal.h: torch 2's pow(Tensor, Scalar) returns x for an
 * exponent of 1 and ones for 0 before it checks the dtype, so a bool tensor
 * to a Python bool power is bool (torch 1.13 and a 0-d bool tensor exponent
 * are refused: "pow" not implemented for 'Bool'); x ** e is then x | !e. */
int bc_weak_bool_pow(const bct_call *call, bct_call *alt, bct_array *args, uint8_t *not_e)
{
    if (call->profile != BCT_PROFILE_TORCH2 || call->op != BCT_POW || !(call->weak_args & 2u) ||
        call->args[0].dtype != BCT_BOOL || call->args[1].dtype != BCT_BOOL || call->nargs > 3)
        return 0;
    *not_e = !*(const uint8_t *)bc_base(&call->args[1]);
    for (int k = 0; k < call->nargs; k++) args[k] = call->args[k];
    args[1].data = not_e;
    args[1].offset = 0;
    *alt = *call;
    alt->op = BCT_LOGICAL_OR;
    alt->args = args;
    alt->weak_args &= ~2u;
    return 1;
}

/* See ref_internal.h. NumPy 1.24 needs nothing: a Python scalar is
 * np.asarray(value), a 0-d int64/float64/bool array, and B19's value-based
 * rule applies to it as stored. */
int bc_weak_view(int op, uint32_t weak, int profile, bct_array *dt, int nin, bc_error *err)
{
    weak &= nin >= 32 ? ~0u : (1u << nin) - 1;
    if (weak == 0 || profile == BCT_PROFILE_NUMPY) return BCT_OK;
    if (profile == BCT_PROFILE_NUMPY2) return nep50_view(op, weak, dt, nin, err);
    return torch_view(op, weak, dt, nin, err);
}
