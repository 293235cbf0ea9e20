/* bcast_target.h - the target ABI: what a library exports so bcast-run can test it.
 *
 * A target is a shared library (loaded with dlopen) that exports one function,
 *
 *     const bct_target *bcast_target_v1(void);
 *
 * returning a static descriptor: who the target is, what it claims to support,
 * and the `run` call the runner makes once per case. The runner owns all memory:
 *   - inputs are passed read-only (they sit on read-only pages);
 *   - the output is obtained from call->alloc_output with the shape and dtype
 *     the target computed, so the target's own shape inference is under test;
 *   - in-place cases (BCT_MODE_INPLACE) pass self as args[0], writable, and
 *     the target writes the result into it; no output is allocated;
 *   - gradient cases (BCT_MODE_GRAD, ABI version 2) pass the op's inputs and
 *     the incoming gradient; the target returns one gradient per
 *     differentiable input through call->alloc_grad.
 * Errors come back as one of the fixed classes below plus a message.
 *
 * This header is self-contained (C99/C11, <stdint.h> and <stddef.h> only) and is
 * also the project's shared vocabulary: ref/ and runner/ use the same enums.
 * The full contract is in docs/target-abi.md. */
#ifndef BCAST_TARGET_H
#define BCAST_TARGET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {   /* a C++ adapter that includes this header exports the entry point unmangled */
#endif

/* Version 2 added BCT_MODE_GRAD, bct_target.grad_ops and bct_call.alloc_grad,
 * all at the end of their structs: a version-1 adapter (abi_version 1, no
 * grad_ops) still loads and runs, and gets no gradient cases. */
#define BCT_ABI_VERSION 2

/* The largest rank the runner ever passes (an operand, a result, a target
 * shape): an adapter that sizes arrays by it never overflows them, even when
 * `bcast-run --probe-limits` hands it ranks above its own max_rank. */
#define BCT_MAX_RANK 128

/* Element types. Storage is native-endian, C layout: bool is one byte 0/1. */
typedef enum bct_dtype {
    BCT_BOOL = 0, BCT_I8, BCT_U8, BCT_I16, BCT_I32, BCT_I64, BCT_F32, BCT_F64,
    BCT_DTYPE_COUNT,
    BCT_NONE = -1 /* shape-only results (broadcast_shapes) */
} bct_dtype;

/* Operations. Binary ops take args x, y; where takes cond, x, y; the three-way
 * ops below (clip ... addcdiv, gemm_bias) take x, y, z. */
typedef enum bct_op {
    BCT_ADD = 0, BCT_SUB, BCT_MUL, BCT_DIV /* true division */, BCT_FLOOR_DIVIDE,
    BCT_REMAINDER, BCT_POW, BCT_MAXIMUM, BCT_MINIMUM,
    BCT_EQ, BCT_NE, BCT_LT, BCT_LE, BCT_GT, BCT_GE,
    BCT_LOGICAL_AND, BCT_LOGICAL_OR, BCT_LOGICAL_XOR,
    BCT_BITWISE_AND, BCT_BITWISE_OR, BCT_BITWISE_XOR,
    BCT_WHERE,            /* where(cond, x, y): three-way broadcast */
    BCT_BROADCAST_TO,     /* x viewed at call->target_shape (NumPy broadcast_to) */
    BCT_EXPAND,           /* x viewed at call->target_shape, -1 keeps a dim (torch expand) */
    BCT_MATMUL,           /* x @ y with batch broadcasting */
    BCT_BROADCAST_SHAPES, /* n shape-only args; result dtype BCT_NONE, no data */
    BCT_AXIS_ADD,         /* legacy axis add (Paddle elementwise axis, ONNX Add opset<7), call->axis */
    BCT_UNI_ADD,          /* ONNX unidirectional: y broadcasts to x, result has x's shape */
    /* Issue #25: more ops that broadcast (docs/semantics.md B38-B45), appended
     * so that every value above keeps its meaning for adapters built before.
     * Value mode only. Binary math (x, y): */
    BCT_COPYSIGN, BCT_ATAN2, BCT_HYPOT, BCT_FMOD, BCT_HEAVISIDE, BCT_LOGADDEXP,
    BCT_LOGADDEXP2, BCT_NEXTAFTER, BCT_LDEXP /* x * 2^y, y integer */, BCT_GCD, BCT_LCM,
    BCT_LEFT_SHIFT, BCT_RIGHT_SHIFT, BCT_FLOAT_POWER /* pow in f64 */, BCT_FMAX, BCT_FMIN,
    BCT_DIV_TRUNC,        /* torch div(rounding_mode='trunc') */
    BCT_DIV_FLOOR,        /* torch div(rounding_mode='floor') */
    /* Three-way (args x, y, z): */
    BCT_CLIP,             /* clip(x, lo=y, hi=z): NumPy clip, torch clamp with tensor bounds */
    BCT_LERP,             /* lerp(start=x, end=y, weight=z) (torch) */
    BCT_ADDCMUL,          /* x + y * z (torch addcmul, value 1) */
    BCT_ADDCDIV,          /* x + y / z (torch addcdiv, value 1) */
    /* ONNX's one-way broadcasting inside compound ops: */
    BCT_PRELU,            /* PRelu(x, slope=y): y broadcasts to x one way; x < 0 ? y * x : x */
    BCT_GEMM_BIAS,        /* Gemm(A=x, B=y, C=z): x @ y (both 2-D) + z broadcast one way to (M,N) */
    BCT_OP_COUNT          /* stays below 64: target ops masks are uint64_t */
} bct_op;

/* How the result is delivered. */
typedef enum bct_mode {
    BCT_MODE_VALUE = 0,   /* a new result, from alloc_output */
    BCT_MODE_INPLACE = 1, /* args[0] is self, writable: self op= args[1] */
    BCT_MODE_OUT = 2,     /* args[nargs-1] is out=, writable; a target that resizes
                             out calls alloc_output with the new shape instead */
    BCT_MODE_GRAD = 3     /* the backward pass: args are the op's inputs, then the
                             incoming gradient (the forward result's shape); one
                             gradient per differentiable input, from alloc_grad */
} bct_mode;

/* Semantics profile: decides cases where NumPy and torch differ, and where a
 * generation of one library differs from the one before (NumPy 1.24 and 2.x,
 * torch 1.13 and 2.x). The family is profile % 2 (0 NumPy, 1 torch), the
 * generation profile / 2; values 0 and 1 keep their meaning, so an adapter
 * built before 2 and 3 existed still declares and reads them as it did. An
 * adapter that branches on call->profile should branch on the family. */
typedef enum bct_profile {
    BCT_PROFILE_NUMPY = 0,    /* NumPy 1.24 */
    BCT_PROFILE_TORCH = 1,    /* torch 1.13 */
    BCT_PROFILE_NUMPY2 = 2,   /* NumPy 2 (2.4): NEP 50 promotion, 64 dims */
    BCT_PROFILE_TORCH2 = 3    /* torch 2 (2.15) */
} bct_profile;
#define BCT_PROFILE_COUNT 4

/* The fixed error classes. BCT_OK (0) is success. */
typedef enum bct_status {
    BCT_OK = 0,
    BCT_ERR_NOT_BROADCASTABLE,  /* extents differ and neither is 1 */
    BCT_ERR_INPLACE_SHAPE,      /* in-place/out= result shape is not self's/out's */
    BCT_ERR_OVERLAP,            /* write through overlapping self (numpy: read-only) */
    BCT_ERR_AXIS,               /* legacy axis out of range or misaligned */
    BCT_ERR_MATMUL_CORE,        /* matmul core dims mismatch, or a 0-d operand */
    BCT_ERR_RANK_LIMIT,         /* rank above the profile's or target's limit */
    BCT_ERR_OVERFLOW,           /* element count or byte size overflows */
    BCT_ERR_INVALID_SHAPE,      /* negative extent, bad expand/broadcast_to target */
    BCT_ERR_DIVISION_BY_ZERO,   /* integer division/remainder by zero (torch) */
    BCT_ERR_DTYPE,              /* dtype not allowed for the op, or result can't be cast */
    BCT_ERR_OTHER,              /* anything else the library raised */
    BCT_STATUS_COUNT
} bct_status;

/* One operand: a strided view into a storage buffer. Element (i0..ik) lives at
 * data[offset + sum(i_j * strides[j])], in elements, not bytes. Strides may be
 * 0 (broadcast or expanded), negative, or non-contiguous. */
typedef struct bct_array {
    int dtype;                /* bct_dtype */
    int rank;
    const int64_t *shape;     /* rank extents */
    const int64_t *strides;   /* rank strides, in elements */
    int64_t offset;           /* element offset of index (0,...,0) from data */
    void *data;               /* storage base; read-only unless the call's self/out */
} bct_array;

/* One case. Valid only for the duration of run(). */
typedef struct bct_call {
    int op;                   /* bct_op */
    int mode;                 /* bct_mode */
    int profile;              /* profile the runner checks against (targets may ignore) */
    int nargs;
    const bct_array *args;
    int64_t axis;             /* BCT_AXIS_ADD only */
    int target_rank;          /* BCT_BROADCAST_TO / BCT_EXPAND only */
    const int64_t *target_shape;
    /* Returns a zeroed, contiguous C-order buffer for the result, or NULL when the
     * runner refuses the request (shape too large for it). For BCT_NONE the
     * buffer is a non-NULL pointer to no elements. Call it at most once. */
    void *(*alloc_output)(void *ctx, int dtype, int rank, const int64_t *shape);
    void *ctx;
    char *message;            /* on error, write a NUL-terminated message here */
    size_t message_cap;
    /* ABI 2. BCT_MODE_GRAD only: a zeroed, contiguous C-order buffer for the
     * gradient with respect to input args[arg_index] (its dtype and shape), or
     * NULL when the runner refuses the request. Call it at most once per input,
     * and not for inputs that are not differentiable (integer or bool operands,
     * where's cond). */
    void *(*alloc_grad)(void *ctx, int arg_index, int dtype, int rank, const int64_t *shape);
    /* Weak scalars (issue #22, docs/semantics.md B34): bit i set when args[i]
     * is a plain Python bool/int/float with no dtype of its own, passed as a
     * 0-d BCT_BOOL, BCT_I64 or BCT_F64. Only a target whose flags claim
     * BCT_CAP_WEAK_SCALAR is ever given such a case, so an adapter built
     * before this field existed (and never reads it) is never misjudged. */
    uint32_t weak_args;
    /* Issue #25: in BCT_MODE_GRAD, which call form to differentiate
     * (bct_grad_form, docs/semantics.md B46). BCT_GRAD_VALUE (0) is the
     * out-of-place op, as before; BCT_GRAD_INPLACE: args are self, other,
     * grad: differentiate self.op_(other) where self is a fresh non-leaf copy
     * of args[0]'s values (so a copy, never args[0] itself: every arg stays
     * read-only), giving the gradients of self's original value and of other;
     * BCT_GRAD_OUT: args are x, y, out, grad: differentiate op(x, y, out=out)
     * (out's values do not matter and out gets no gradient). Only a target
     * whose flags claim BCT_CAP_GRAD_FORMS is ever given a nonzero value, so
     * an adapter built before this field existed (and never reads it: the
     * runner zeroes the whole call) is never misjudged. It sits in what was
     * the struct's tail padding: sizeof(bct_call) is unchanged. */
    int grad_form;
} bct_call;

/* The call form a gradient case differentiates (bct_call.grad_form). */
typedef enum bct_grad_form {
    BCT_GRAD_VALUE = 0,       /* op(x, y): the value-mode call */
    BCT_GRAD_INPLACE = 1,     /* self.op_(other), self a non-leaf copy of args[0] */
    BCT_GRAD_OUT = 2          /* op(x, y, out=out) */
} bct_grad_form;

/* Capability flags. */
#define BCT_CAP_STRIDED  1u   /* accepts non-contiguous, offset and stride-0 inputs */
#define BCT_CAP_INPLACE  2u   /* supports BCT_MODE_INPLACE */
#define BCT_CAP_OUT      4u   /* supports BCT_MODE_OUT */
#define BCT_CAP_WEAK_SCALAR 8u /* reads bct_call.weak_args: takes weak-scalar operands (B34) */
#define BCT_CAP_COMPILES 16u  /* compiles on first use: a worker's first call of each op and mode gets
                                 bcast-run's --first-call-timeout (default 60 s) instead of --timeout */
#define BCT_CAP_GRAD_FORMS 32u /* reads bct_call.grad_form: takes in-place and out= gradient cases (B46) */

/* The descriptor. Cases outside ops/dtypes/max_rank/flags are skipped, not failed. */
typedef struct bct_target {
    int abi_version;          /* BCT_ABI_VERSION */
    const char *name;
    const char *version;
    int profile;              /* bct_profile the target implements */
    uint64_t ops;             /* bit (1 << bct_op) per supported op */
    uint32_t dtypes;          /* bit (1 << bct_dtype) per supported dtype */
    int max_rank;             /* largest operand/result rank, 0 for no limit */
    unsigned flags;           /* BCT_CAP_* */
    /* Optional (may be NULL): called once in each worker before the first case,
     * with the runner's --target-arg (or NULL). Nonzero means the target is unusable. */
    int (*init)(const char *arg);
    /* Runs one case; returns BCT_OK or an error class (and fills call->message). */
    int (*run)(const bct_call *call);
    /* ABI 2: bit (1 << bct_op) per op whose gradient (BCT_MODE_GRAD) the target
     * computes; 0 for none. Gradient cases of other ops are skipped. A version-1
     * descriptor ends before this field: the runner reads it only when
     * abi_version is 2. */
    uint64_t grad_ops;
} bct_target;

typedef const bct_target *(*bct_entry_fn)(void);
#define BCT_ENTRY_NAME "bcast_target_v1"

/* The entry point every target defines. Declared here with C linkage, so a
 * C++ definition after this header is exported as "bcast_target_v1". */
const bct_target *bcast_target_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_TARGET_H */
