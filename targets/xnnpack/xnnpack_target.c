/* xnnpack_target.c - bcast target for XNNPACK's *_nd_f32 binary operators (add, subtract, multiply, divide, maximum, minimum).
 *
 * XNNPACK's N-d binary operators broadcast both inputs themselves
 * (xnn_setup_*_nd_f32 takes both input shapes and validates them), but this
 * version's API has no call that returns the output shape: the caller passes
 * an output buffer already sized for it. The calling convention, and nothing
 * more, is therefore:
 *   - inputs are dense (XNNPACK takes no strides): a strided, offset or
 *     stride-0 operand is copied into a dense buffer first. That copy is why
 *     BCT_CAP_STRIDED is claimed; it says nothing about XNNPACK's strides;
 *   - setup runs first with placeholder input and output pointers (it stores
 *     them and reads no data), so XNNPACK's own shape validation decides
 *     whether the shapes are accepted before any copy; only then are the
 *     inputs copied dense and the output's shape written down: in each
 *     dimension, aligned at the right, the extent that is not 1 (the shape
 *     XNNPACK writes), and allocated; setup runs again with the real
 *     pointers, then the operator;
 *   - no in-place capability: xnnpack.h documents no aliasing of output and
 *     input for these operators; f32 only (the qs8/qu8 variants are
 *     quantised arithmetic, not integer arithmetic); rank limit
 *     XNN_MAX_TENSOR_DIMS (6, xnnpack.h). No thread pool (NULL).
 * Errors (enum xnn_status): invalid_parameter from setup is its shape check,
 * so not-broadcastable, except for a rank above XNN_MAX_TENSOR_DIMS (skipped
 * by max_rank anyway); everything else is other. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xnnpack.h>

#include "bcast_target.h"

#ifndef BCT_LIB_VERSION
#error "BCT_LIB_VERSION must be defined (targets/xnnpack/target.mk passes the package version)"
#endif

static const char *status_name(enum xnn_status s)
{
    switch (s) {
    case xnn_status_success: return "success";
    case xnn_status_uninitialized: return "uninitialized";
    case xnn_status_invalid_parameter: return "invalid_parameter";
    case xnn_status_invalid_state: return "invalid_state";
    case xnn_status_unsupported_parameter: return "unsupported_parameter";
    case xnn_status_unsupported_hardware: return "unsupported_hardware";
    case xnn_status_out_of_memory: return "out_of_memory";
    default: return "unknown status";
    }
}

/* The operand as a dense float buffer: its own storage when it already is
 * dense from its first element, else a malloc'ed copy put in *copy. NULL
 * when the copy cannot be made (a stride-0 view of more elements than
 * memory can hold has no dense form). */
static const float *dense_of(const bct_array *a, float **copy)
{
    const float *base = (const float *)a->data + a->offset;
    int64_t n = 1, idx[BCT_MAX_RANK] = {0}, off = 0;
    int dense = 1, empty = 0, huge = 0;
    *copy = NULL;
    for (int d = a->rank - 1; d >= 0; d--) {
        if (a->shape[d] != 1 && a->strides[d] != n)     /* n: the dense stride here */
            dense = 0;
        if (a->shape[d] == 0)
            empty = 1;
        else if (n > (INT64_C(1) << 28) / a->shape[d])
            huge = 1;                       /* no dense copy of this many floats */
        else
            n *= a->shape[d];
    }
    if (empty || dense)
        return base;
    if (huge)
        return NULL;
    *copy = malloc((size_t)n * sizeof(float));
    if (*copy == NULL)
        return NULL;
    for (int64_t i = 0; i < n; i++) {
        (*copy)[i] = base[off];
        for (int d = a->rank - 1; d >= 0; d--) {
            if (++idx[d] < a->shape[d]) {
                off += a->strides[d];
                break;
            }
            idx[d] = 0;
            off -= a->strides[d] * (a->shape[d] - 1);
        }
    }
    return *copy;
}

typedef enum xnn_status (*setup_fn)(xnn_operator_t, size_t, const size_t *, size_t,
                                    const size_t *, const float *, const float *, float *,
                                    pthreadpool_t);

/* Creates the operator for op (no output clamping: -inf..inf) and picks its
 * setup function. */
static enum xnn_status create(int op, xnn_operator_t *xop, setup_fn *setup)
{
    switch (op) {
    case BCT_ADD:
        *setup = xnn_setup_add_nd_f32;
        return xnn_create_add_nd_f32(-INFINITY, INFINITY, 0, xop);
    case BCT_SUB:
        *setup = xnn_setup_subtract_nd_f32;
        return xnn_create_subtract_nd_f32(-INFINITY, INFINITY, 0, xop);
    case BCT_MUL:
        *setup = xnn_setup_multiply_nd_f32;
        return xnn_create_multiply_nd_f32(-INFINITY, INFINITY, 0, xop);
    case BCT_DIV:
        *setup = xnn_setup_divide_nd_f32;
        return xnn_create_divide_nd_f32(-INFINITY, INFINITY, 0, xop);
    case BCT_MAXIMUM:
        *setup = xnn_setup_maximum_nd_f32;
        return xnn_create_maximum_nd_f32(0, xop);
    case BCT_MINIMUM:
        *setup = xnn_setup_minimum_nd_f32;
        return xnn_create_minimum_nd_f32(0, xop);
    default:   /* an op XNNPACK has no operator for (run only by --probe-limits) */
        *setup = NULL;
        return xnn_status_unsupported_parameter;
    }
}

/* Runs one case: create, validate shapes by a first setup, allocate the
 * output XNNPACK writes, set up again with it, run. */
static int xnnpack_run(const bct_call *call)
{
    const bct_array *x = &call->args[0], *y = &call->args[1];
    /* BCT_MAX_RANK, not XNN_MAX_TENSOR_DIMS: under --probe-limits XNNPACK
     * itself must answer a rank above its limit */
    size_t xs[BCT_MAX_RANK], ys[BCT_MAX_RANK];
    int64_t shape[BCT_MAX_RANK];
    int rank = 0;
    int status = BCT_ERR_OTHER;
    float *xcopy = NULL, *ycopy = NULL, placeholder = 0.0f;
    xnn_operator_t xop = NULL;
    setup_fn setup;
    const char *stage = "create";
    enum xnn_status s;

    /* the operator first: an op XNNPACK lacks (probed) may not have two operands */
    if ((s = create(call->op, &xop, &setup)) != xnn_status_success) {
        if (setup == NULL) {
            snprintf(call->message, call->message_cap, "XNNPACK has no operator for this op (bcast op %d)", call->op);
            goto cleanup;
        }
        goto fail;
    }
    rank = x->rank > y->rank ? x->rank : y->rank;
    for (int d = 0; d < x->rank; d++)
        xs[d] = (size_t)x->shape[d];
    for (int d = 0; d < y->rank; d++)
        ys[d] = (size_t)y->shape[d];
    stage = "setup";
    /* shapes first: setup stores the pointers and reads no data */
    s = setup(xop, (size_t)x->rank, xs, (size_t)y->rank, ys, &placeholder, &placeholder, &placeholder, NULL);
    if (s != xnn_status_success) {
        if (s == xnn_status_invalid_parameter)
            status = BCT_ERR_NOT_BROADCASTABLE;
        /* XNNPACK's binary setup returns unsupported_parameter for more than
         * XNN_MAX_TENSOR_DIMS dims (src/operators/binary-elementwise-nd.c) */
        else if (s == xnn_status_unsupported_parameter)
            status = BCT_ERR_RANK_LIMIT;
        goto fail;
    }
    const float *xd = dense_of(x, &xcopy), *yd = dense_of(y, &ycopy);
    if (xd == NULL || yd == NULL) {
        /* an adapter limit, not XNNPACK's answer: its setup has accepted the shapes */
        snprintf(call->message, call->message_cap, "adapter limit: XNNPACK's setup accepted these shapes, but the "
                 "adapter cannot copy an input dense (XNNPACK takes dense inputs only): too many elements");
        goto cleanup;
    }
    for (int d = 0; d < rank; d++) {               /* the shape XNNPACK accepted */
        int xi = d - (rank - x->rank), yi = d - (rank - y->rank);
        int64_t xe = xi >= 0 ? x->shape[xi] : 1, ye = yi >= 0 ? y->shape[yi] : 1;
        shape[d] = xe == 1 ? ye : xe;
    }
    float *out = call->alloc_output(call->ctx, BCT_F32, rank, shape);
    if (out == NULL) {
        snprintf(call->message, call->message_cap, "alloc_output refused the output shape");
        goto cleanup;
    }
    if ((s = setup(xop, (size_t)x->rank, xs, (size_t)y->rank, ys, xd, yd, out, NULL)) !=
        xnn_status_success)
        goto fail;
    stage = "run";
    if ((s = xnn_run_operator(xop, NULL)) != xnn_status_success)
        goto fail;
    status = BCT_OK;
    goto cleanup;
fail:
    snprintf(call->message, call->message_cap, "XNNPACK %s: xnn_status_%s", stage, status_name(s));
cleanup:
    if (xop != NULL)
        xnn_delete_operator(xop);
    free(xcopy);
    free(ycopy);
    return status;
}

static int xnnpack_init(const char *arg)
{
    (void)arg;
    return xnn_initialize(NULL) != xnn_status_success;
}

static const bct_target descriptor = {
    .abi_version = BCT_ABI_VERSION,
    .name = "xnnpack",
    .version = BCT_LIB_VERSION,
    .profile = BCT_PROFILE_NUMPY,
    .ops = UINT64_C(1) << BCT_ADD | UINT64_C(1) << BCT_SUB | UINT64_C(1) << BCT_MUL |
           UINT64_C(1) << BCT_DIV | UINT64_C(1) << BCT_MAXIMUM | UINT64_C(1) << BCT_MINIMUM,
    .dtypes = 1u << BCT_F32,
    .max_rank = XNN_MAX_TENSOR_DIMS,
    .flags = BCT_CAP_STRIDED,
    .init = xnnpack_init,
    .run = xnnpack_run,
};

const bct_target *bcast_target_v1(void);

const bct_target *bcast_target_v1(void)
{
    return &descriptor;
}
