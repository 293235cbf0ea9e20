/* bcast_ref.h - the public API of the bcast reference implementation (libbcastref.a).
 *
 * Two layers, both plain C11 with libc/libm only:
 *   1. Rules: pure functions over shapes (ref/shape.c). Each returns BCT_OK or
 *      an error class (bct_status) and fills a bc_error whose message names the
 *      operands and the offending dimension. Rule ids B1..Bn refer to
 *      docs/semantics.md.
 *   2. Kernels: one strided N-d iterator and the element-wise, where, view and
 *      matmul ops over it (ref/iter.c, ref/ops.c, ...). Broadcasting is a stride
 *      of 0; nothing is ever copied to its broadcast shape.
 * bc_eval() runs one whole case as described by the target ABI (bct_call), so
 * the bundled reference target is a thin wrapper around it.
 *
 * Ownership: ref never keeps pointers past a call and allocates nothing but
 * O(rank) scratch on the stack; outputs come from the caller. */
#ifndef BCAST_REF_H
#define BCAST_REF_H

#include <stdint.h>
#include "bcast_target.h"

/* Largest rank ref handles. Rule B15 asks for at least 64; beyond this ref
 * answers BCT_ERR_RANK_LIMIT. NumPy's 32 is a property of the NumPy profile. */
#define BC_MAX_RANK 128
#define BC_NUMPY_MAX_RANK 32
#define BC_NUMPY2_MAX_RANK 64   /* B33: NumPy 2 raised NPY_MAXDIMS to 64 */

/* The ops whose gradient ref computes (BCT_MODE_GRAD, B23-B31): the case
 * format allows `mode grad` for exactly these. */
#define BC_GRAD_OPS ((UINT64_C(1) << BCT_ADD) | (UINT64_C(1) << BCT_SUB) | (UINT64_C(1) << BCT_MUL) | \
                     (UINT64_C(1) << BCT_DIV) | (UINT64_C(1) << BCT_POW) | (UINT64_C(1) << BCT_MAXIMUM) | \
                     (UINT64_C(1) << BCT_MINIMUM) | (UINT64_C(1) << BCT_WHERE) | (UINT64_C(1) << BCT_MATMUL) | \
                     (UINT64_C(1) << BCT_BROADCAST_TO) | (UINT64_C(1) << BCT_EXPAND))
/* B46: the ops a gradient case may differentiate in another call form: in
 * place, the ops torch has an in-place method of (add_ sub_ mul_ div_ pow_);
 * out=, the binary element-wise ones. */
#define BC_GRAD_INPLACE_OPS ((UINT64_C(1) << BCT_ADD) | (UINT64_C(1) << BCT_SUB) | (UINT64_C(1) << BCT_MUL) | \
                             (UINT64_C(1) << BCT_DIV) | (UINT64_C(1) << BCT_POW))
#define BC_GRAD_OUT_OPS (BC_GRAD_INPLACE_OPS | (UINT64_C(1) << BCT_MAXIMUM) | (UINT64_C(1) << BCT_MINIMUM))

typedef struct bc_shape {
    int rank;
    int64_t dim[BC_MAX_RANK];
} bc_shape;

typedef struct bc_error {
    int status;       /* bct_status; BCT_OK when no error */
    int operand;      /* first operand involved (0-based), -1 if none */
    int other;        /* second operand involved, -1 if none */
    int dim;          /* offending dimension, counted in the aligned result, -1 if none */
    char message[512];
} bc_error;

/* Formats s like NumPy prints it: "()", "(3,)", "(5,1,4)". Returns buf. */
char *bc_shape_format(const bc_shape *s, char *buf, size_t cap);

/* Parses "(5,1,4)", "()", "(3,)" (spaces allowed; entries may be negative so
 * that expand targets can hold -1). Returns 0 on success, -1 if malformed or
 * rank > BC_MAX_RANK. */
int bc_shape_parse(const char *text, bc_shape *out);

/* ---- Rules (ref/shape.c) ---- */

/* B15/B16: rejects negative extents and ranks above BC_MAX_RANK (in the NumPy
 * profile above BC_NUMPY_MAX_RANK). Sizes are not counted. */
int bc_check_extents(const bc_shape *s, int profile, int operand, bc_error *err);

/* B15, B33: the most dimensions NumPy allows in a NumPy profile (32 for
 * numpy, 64 for numpy2); BC_NUMPY_MAX_RANK for any other profile. */
int bc_numpy_max_rank(int profile);

/* B15/B16: bc_check_extents, and an element count that overflows as the
 * profile's library counts it (left to right, stopping at the first 0: NumPy
 * refuses a product above INT64_MAX on the way, torch one above UINT64_MAX,
 * and a non-empty count above INT64_MAX). */
int bc_check_shape(const bc_shape *s, int profile, int operand, bc_error *err);
/* B37: in the torch2 profile, the contiguous strides of a result torch
 * allocates must fit int64, even for an empty result; other profiles: BCT_OK. */
int bc_check_torch2_strides(const bc_shape *s, int profile, bc_error *err);

/* B1-B4: broadcasts n shapes (n may be 0, giving ()). Checks extents, not the
 * result's count: callers apply bc_check_shape in their profile (B16). */
int bc_broadcast_shapes(const bc_shape *shapes, int n, bc_shape *out, bc_error *err);

/* B4: folds shape `next` (operand k) into acc, the broadcast of operands
 * 0..k-1 (start with acc->rank = 0); any number of operands in O(rank) memory.
 * On error acc is unchanged. */
int bc_broadcast_fold(bc_shape *acc, const bc_shape *next, int k, bc_error *err);

/* B5: NumPy broadcast_to. from must broadcast to `to` exactly; negative
 * entries of `to` are invalid-shape. */
int bc_broadcast_to_shape(const bc_shape *from, const bc_shape *to, bc_error *err);

/* B6: torch expand. sizes may hold -1 (keep the existing extent); -1 on a new
 * leading dimension, other negatives, and rank drops are errors. */
int bc_expand_shape(const bc_shape *from, const bc_shape *sizes, bc_shape *out, bc_error *err);

/* B7: ONNX unidirectional: b broadcasts to a; out is a's shape. B5's errors:
 * b of higher rank than a is invalid-shape, an extent mismatch not-broadcastable. */
int bc_onnx_uni_shape(const bc_shape *a, const bc_shape *b, bc_shape *out, bc_error *err);

/* B8: in-place/out=: broadcast(self, other) must equal self's shape exactly. */
int bc_inplace_shape(const bc_shape *self, const bc_shape *other, bc_error *err);

/* B10/B11: legacy axis. Aligns y inside x starting at axis (y_aligned has x's
 * rank) and broadcasts; out is the result shape. */
int bc_axis_shape(const bc_shape *x, const bc_shape *y, int64_t axis,
                  bc_shape *y_aligned, bc_shape *out, bc_error *err);

/* B12-B14: matmul result shape. */
int bc_matmul_shape(const bc_shape *a, const bc_shape *b, bc_shape *out, bc_error *err);

/* ---- Kernels ---- */

/* B18/B19: the result dtype of op over args under profile (0-d operands'
 * values matter in the NumPy profile, so args carry data). */
int bc_result_dtype(int op, const bct_array *args, int nargs, int profile,
                    int *dtype, bc_error *err);

/* Runs one case: checks everything first (so a failed in-place op leaves self
 * untouched, B22), then writes the result through call->alloc_output or into
 * self; in BCT_MODE_GRAD, one gradient per floating-point input through
 * call->alloc_grad (B23-B31). Returns BCT_OK or an error class; on error err
 * (and call->message, if given) hold the message. */
int bc_eval(const bct_call *call, bc_error *err);

/* B23: adds g summed to out's shape into out (the gradient of broadcasting
 * out's shape to g's, torch's sum_to_size): out's shape must broadcast to
 * g's by B5 (else the B5 error); the sum runs over g's leading dims that out
 * lacks and over the dims where out has extent 1, in B23's order, without
 * materialising anything at g's shape. out is f32 or f64 (g any dtype,
 * converted), writable, with no overlapping elements. BCT_OK or an error class. */
int bc_sum_to_shape(const bct_array *g, const bct_array *out, bc_error *err);

/* Names, for messages and the case format: "f32", "add", "not-broadcastable".
 * The *_from_name functions return -1 for an unknown name. */
const char *bc_dtype_name(int dtype);
int bc_dtype_from_name(const char *name);
int bc_dtype_size(int dtype);
const char *bc_op_name(int op);
int bc_op_from_name(const char *name);
const char *bc_status_name(int status);
int bc_status_from_name(const char *name);
const char *bc_profile_name(int profile);
int bc_profile_from_name(const char *name);

/* The profile's library family, whatever its generation: numpy and numpy2
 * are NumPy, torch and torch2 torch. Rules that did not change between
 * generations test the family; the rules that did (B32, B33) test the profile. */
int bc_profile_is_numpy(int profile);
int bc_profile_is_torch(int profile);

#endif /* BCAST_REF_H */
