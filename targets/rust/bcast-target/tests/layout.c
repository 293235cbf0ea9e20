/* layout.c - prints the layout of include/bcast_target.h as the C compiler sees it, for tests/layout.rs.
 *
 * One line per fact: "size T N", "align T N", "field T.F OFFSET SIZE",
 * "const NAME VALUE". tests/layout.rs prints the same lines from the Rust
 * mirror (src/abi.rs) and compares the two sets. */
#include <stdalign.h>
#include <stdio.h>
#include "bcast_target.h"

#define TYPE(T) printf("size %s %zu\nalign %s %zu\n", #T, sizeof(T), #T, alignof(T))
#define FIELD(T, F) printf("field %s.%s %zu %zu\n", #T, #F, offsetof(T, F), sizeof(((T *)0)->F))
#define CONST(C) printf("const %s %lld\n", #C, (long long)(C))

static void structs(void)
{
    TYPE(bct_array);
    FIELD(bct_array, dtype); FIELD(bct_array, rank); FIELD(bct_array, shape);
    FIELD(bct_array, strides); FIELD(bct_array, offset); FIELD(bct_array, data);
    TYPE(bct_call);
    FIELD(bct_call, op); FIELD(bct_call, mode); FIELD(bct_call, profile); FIELD(bct_call, nargs);
    FIELD(bct_call, args); FIELD(bct_call, axis); FIELD(bct_call, target_rank);
    FIELD(bct_call, target_shape); FIELD(bct_call, alloc_output); FIELD(bct_call, ctx);
    FIELD(bct_call, message); FIELD(bct_call, message_cap); FIELD(bct_call, alloc_grad);
    FIELD(bct_call, weak_args); FIELD(bct_call, grad_form);
    TYPE(bct_target);
    FIELD(bct_target, abi_version); FIELD(bct_target, name); FIELD(bct_target, version);
    FIELD(bct_target, profile); FIELD(bct_target, ops); FIELD(bct_target, dtypes);
    FIELD(bct_target, max_rank); FIELD(bct_target, flags); FIELD(bct_target, init);
    FIELD(bct_target, run); FIELD(bct_target, grad_ops);
    TYPE(bct_dtype); TYPE(bct_op); TYPE(bct_mode); TYPE(bct_grad_form); TYPE(bct_profile); TYPE(bct_status);
}

static void constants(void)
{
    CONST(BCT_ABI_VERSION); CONST(BCT_MAX_RANK);
    CONST(BCT_CAP_STRIDED); CONST(BCT_CAP_INPLACE); CONST(BCT_CAP_OUT); CONST(BCT_CAP_WEAK_SCALAR); CONST(BCT_CAP_COMPILES); CONST(BCT_CAP_GRAD_FORMS);
    CONST(BCT_BOOL); CONST(BCT_I8); CONST(BCT_U8); CONST(BCT_I16); CONST(BCT_I32);
    CONST(BCT_I64); CONST(BCT_F32); CONST(BCT_F64); CONST(BCT_DTYPE_COUNT); CONST(BCT_NONE);
    CONST(BCT_ADD); CONST(BCT_SUB); CONST(BCT_MUL); CONST(BCT_DIV); CONST(BCT_FLOOR_DIVIDE);
    CONST(BCT_REMAINDER); CONST(BCT_POW); CONST(BCT_MAXIMUM); CONST(BCT_MINIMUM);
    CONST(BCT_EQ); CONST(BCT_NE); CONST(BCT_LT); CONST(BCT_LE); CONST(BCT_GT); CONST(BCT_GE);
    CONST(BCT_LOGICAL_AND); CONST(BCT_LOGICAL_OR); CONST(BCT_LOGICAL_XOR);
    CONST(BCT_BITWISE_AND); CONST(BCT_BITWISE_OR); CONST(BCT_BITWISE_XOR);
    CONST(BCT_WHERE); CONST(BCT_BROADCAST_TO); CONST(BCT_EXPAND); CONST(BCT_MATMUL);
    CONST(BCT_BROADCAST_SHAPES); CONST(BCT_AXIS_ADD); CONST(BCT_UNI_ADD);
    CONST(BCT_COPYSIGN); CONST(BCT_ATAN2); CONST(BCT_HYPOT); CONST(BCT_FMOD); CONST(BCT_HEAVISIDE); CONST(BCT_LOGADDEXP); CONST(BCT_LOGADDEXP2); CONST(BCT_NEXTAFTER);
    CONST(BCT_LDEXP); CONST(BCT_GCD); CONST(BCT_LCM); CONST(BCT_LEFT_SHIFT); CONST(BCT_RIGHT_SHIFT); CONST(BCT_FLOAT_POWER); CONST(BCT_FMAX); CONST(BCT_FMIN);
    CONST(BCT_DIV_TRUNC); CONST(BCT_DIV_FLOOR); CONST(BCT_CLIP); CONST(BCT_LERP); CONST(BCT_ADDCMUL); CONST(BCT_ADDCDIV); CONST(BCT_PRELU); CONST(BCT_GEMM_BIAS); CONST(BCT_OP_COUNT);
    CONST(BCT_MODE_VALUE); CONST(BCT_MODE_INPLACE); CONST(BCT_MODE_OUT); CONST(BCT_MODE_GRAD);
    CONST(BCT_GRAD_VALUE); CONST(BCT_GRAD_INPLACE); CONST(BCT_GRAD_OUT);
    CONST(BCT_PROFILE_NUMPY); CONST(BCT_PROFILE_TORCH); CONST(BCT_PROFILE_NUMPY2); CONST(BCT_PROFILE_TORCH2);
    CONST(BCT_OK); CONST(BCT_ERR_NOT_BROADCASTABLE); CONST(BCT_ERR_INPLACE_SHAPE);
    CONST(BCT_ERR_OVERLAP); CONST(BCT_ERR_AXIS); CONST(BCT_ERR_MATMUL_CORE);
    CONST(BCT_ERR_RANK_LIMIT); CONST(BCT_ERR_OVERFLOW); CONST(BCT_ERR_INVALID_SHAPE);
    CONST(BCT_ERR_DIVISION_BY_ZERO); CONST(BCT_ERR_DTYPE); CONST(BCT_ERR_OTHER);
    CONST(BCT_STATUS_COUNT);
}

int main(void)
{
    structs();
    constants();
    printf("entry %s\n", BCT_ENTRY_NAME);
    return 0;
}
