/* names.c - the names of dtypes, ops, error classes and profiles, as the case format spells them. */
#include <string.h>
#include "bcast_ref.h"

static const char *const dtype_names[BCT_DTYPE_COUNT] = {
    "bool", "i8", "u8", "i16", "i32", "i64", "f32", "f64"
};
static const int dtype_sizes[BCT_DTYPE_COUNT] = { 1, 1, 1, 2, 4, 8, 4, 8 };

static const char *const op_names[BCT_OP_COUNT] = {
    "add", "sub", "mul", "div", "floor_divide", "remainder", "pow", "maximum", "minimum",
    "eq", "ne", "lt", "le", "gt", "ge",
    "logical_and", "logical_or", "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor",
    "where", "broadcast_to", "expand", "matmul", "broadcast_shapes", "axis_add", "uni_add",
    "copysign", "atan2", "hypot", "fmod", "heaviside", "logaddexp", "logaddexp2", "nextafter",
    "ldexp", "gcd", "lcm", "left_shift", "right_shift", "float_power", "fmax", "fmin",
    "div_trunc", "div_floor", "clip", "lerp", "addcmul", "addcdiv", "prelu", "gemm_bias"
};

static const char *const status_names[BCT_STATUS_COUNT] = {
    "ok", "not-broadcastable", "inplace-shape", "overlap", "axis", "matmul-core",
    "rank-limit", "overflow", "invalid-shape", "division-by-zero", "dtype", "other"
};

static const char *const profile_names[BCT_PROFILE_COUNT] = { "numpy", "torch", "numpy2", "torch2" };

/* Index of name in table, or -1. */
static int lookup(const char *const *table, int n, const char *name)
{
    if (name == NULL)
        return -1;
    for (int i = 0; i < n; i++)
        if (strcmp(table[i], name) == 0)
            return i;
    return -1;
}

const char *bc_dtype_name(int dtype)
{
    if (dtype == BCT_NONE)
        return "-";
    return dtype >= 0 && dtype < BCT_DTYPE_COUNT ? dtype_names[dtype] : "?";
}

int bc_dtype_from_name(const char *name)
{
    return lookup(dtype_names, BCT_DTYPE_COUNT, name);
}

/* Bytes per element; 0 for BCT_NONE and unknown dtypes. */
int bc_dtype_size(int dtype)
{
    return dtype >= 0 && dtype < BCT_DTYPE_COUNT ? dtype_sizes[dtype] : 0;
}

const char *bc_op_name(int op)
{
    return op >= 0 && op < BCT_OP_COUNT ? op_names[op] : "?";
}

int bc_op_from_name(const char *name)
{
    return lookup(op_names, BCT_OP_COUNT, name);
}

const char *bc_status_name(int status)
{
    return status >= 0 && status < BCT_STATUS_COUNT ? status_names[status] : "?";
}

int bc_status_from_name(const char *name)
{
    return lookup(status_names, BCT_STATUS_COUNT, name);
}

const char *bc_profile_name(int profile)
{
    return profile >= 0 && profile < BCT_PROFILE_COUNT ? profile_names[profile] : "?";
}

int bc_profile_from_name(const char *name)
{
    return lookup(profile_names, BCT_PROFILE_COUNT, name);
}

int bc_profile_is_numpy(int profile)
{
    return profile == BCT_PROFILE_NUMPY || profile == BCT_PROFILE_NUMPY2;
}

int bc_profile_is_torch(int profile)
{
    return profile == BCT_PROFILE_TORCH || profile == BCT_PROFILE_TORCH2;
}
