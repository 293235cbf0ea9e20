/* onednn_target.c - bcast target for oneDNN's binary primitive (dnnl_binary_*), through its C API; prelu and gemm_bias in onednn_fused.c.
 *
 * oneDNN's binary primitive takes src0, src1 and a destination descriptor that
 * the caller supplies: it checks the three against each other but computes no
 * output shape. dnnl.h (2.6.3, dnnl_binary_desc_init) says "Both memory
 * descriptors must have the same number of dimensions. Element broadcasting is
 * supported for memory descriptor src1_desc"; the primitive's guide says "The
 * dst tensor dimensions must match the ones of the source 0 and source 1
 * tensors (except for broadcast dimensions)". The calling convention, and
 * nothing more, is therefore:
 *   - both operands are padded with leading 1s to the same rank (at least 1,
 *     oneDNN has no 0-d memory); the padding is removed again from the result;
 *   - value mode: dst's dims are, per dimension, the extent that is not 1
 *     (src0's, or src1's where src0's is 1): the only dims that rule leaves.
 *     For extents that do not broadcast this is src0's, and oneDNN's own check
 *     rejects src1. Although dnnl.h names only src1, 2.6.3 accepts a broadcast
 *     src0 with such a dst and computes it (FINDINGS.md). dst's data type is
 *     src0's: oneDNN does no type promotion, the dst type is the caller's
 *     choice, and src0's is the one that needs no decision;
 *   - in-place runs the primitive with dst = src0 = self's memory and dims,
 *     which the binary primitive documents as supported ("in-place
 *     operations, meaning that src0 can be used as both input and output");
 *   - operands keep their strides (dnnl_memory_desc_init_by_strides) and
 *     offsets (the memory handle points at the first element). If oneDNN
 *     refuses a stride pattern (it has no negative strides), the operand is
 *     copied to a dense buffer first: a copy the library's calling convention
 *     requires, hence BCT_CAP_STRIDED;
 *   - oneDNN decides every shape question: nothing is checked here.
 * Errors (dnnl_status_t): invalid_arguments from dnnl_binary_desc_init is its
 * only shape check (the sources' dims against dst's), so it is
 * not-broadcastable; unimplemented from primitive creation is a data-type
 * combination without an implementation (dtype); everything else is other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onednn_common.h"

#ifndef BCT_LIB_VERSION
#error "BCT_LIB_VERSION must be defined (targets/onednn/target.mk passes the package version)"
#endif

static dnnl_alg_kind_t alg_of(int op)
{
    switch (op) {
    case BCT_ADD: return dnnl_binary_add;
    case BCT_SUB: return dnnl_binary_sub;
    case BCT_MUL: return dnnl_binary_mul;
    case BCT_DIV: return dnnl_binary_div;
    case BCT_MAXIMUM: return dnnl_binary_max;
    case BCT_MINIMUM: return dnnl_binary_min;
    default: return dnnl_alg_kind_undef;   /* no binary algorithm (run only by --probe-limits) */
    }
}

/* Value mode's dst dims: per dimension the extent that is not 1 (src0's, or
 * src1's where src0's is 1), the only dims the binary primitive's rule leaves
 * dst; for extents that do not broadcast, src0's, and oneDNN's own check
 * rejects src1. Their dense layout is oneDNN's to compute (dense_tag). */
static void value_dst(const operand *src0, const operand *src1, int nd, operand *dst)
{
    for (int d = 0; d < nd; d++)
        dst->dims[d] = src0->dims[d] != 1 ? src0->dims[d] : src1->dims[d];
}

/* Where dst's values go: self's memory in place (refused when oneDNN needed
 * a copy of self), else a buffer from alloc_output at dst's dims. 0, or -1
 * with the message written. */
static int dst_handle(const bct_call *call, int rank, int nd, const operand *src0, operand *dst)
{
    const bct_array *x = &call->args[0];
    if (call->mode == BCT_MODE_INPLACE) {
        if (src0->copy != NULL) {                  /* cannot write through a copy */
            snprintf(call->message, call->message_cap,
                     "oneDNN refused self's strides; a copy cannot be written in place");
            return -1;
        }
        dst->handle = src0->handle;
        return 0;
    }
    int64_t shape[BCT_MAX_RANK];
    for (int d = 0; d < rank; d++)
        shape[d] = dst->dims[d + nd - rank];
    dst->handle = call->alloc_output(call->ctx, x->dtype, rank, shape);
    if (dst->handle == NULL) {       /* oneDNN took these dims; bcast cannot hold the result */
        snprintf(call->message, call->message_cap,
                 "oneDNN raised no error for these dst dims (primitive created, dst size %zu bytes by "
                 "dnnl_memory_desc_get_size); bcast's alloc_output refused a result of this shape, so "
                 "it cannot be returned", dnnl_memory_desc_get_size(&dst->md));
        return -1;
    }
    return 0;
}

/* Runs one binary case: descriptor, primitive, then (value mode)
 * alloc_output at dst's dims and execution into it. */
static int onednn_binary(const bct_call *call)
{
    const bct_array *x = &call->args[0], *y = &call->args[1];
    int rank, nd;
    int status = BCT_ERR_OTHER;
    const char *stage = "";
    dnnl_status_t s;
    operand src0 = {0}, src1 = {0}, dst = {0};
    dnnl_binary_desc_t bd;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_memory_t m[3] = { NULL, NULL, NULL };

    if (alg_of(call->op) == dnnl_alg_kind_undef) {   /* before touching args: a probed op may have one */
        snprintf(call->message, call->message_cap, "oneDNN's binary primitive has no algorithm for this op (bcast op %d)", call->op);
        return BCT_ERR_OTHER;
    }
    rank = x->rank > y->rank ? x->rank : y->rank;
    nd = rank > 0 ? rank : 1;
    if ((s = prepare(x, nd, &src0)) != dnnl_success || (s = prepare(y, nd, &src1)) != dnnl_success) {
        stage = "dnnl_memory_desc_init";
        goto fail;
    }
    dst = src0;                                    /* in place: self's memory */
    dst.copy = NULL;
    if (call->mode != BCT_MODE_INPLACE) {
        value_dst(&src0, &src1, nd, &dst);
        if ((s = dnnl_memory_desc_init_by_tag(&dst.md, nd, dst.dims, dnnl_type(x->dtype),
                                              dense_tag(nd))) != dnnl_success) {
            stage = "dnnl_memory_desc_init_by_tag (dst)";
            goto fail;
        }
    }
    if ((s = dnnl_binary_desc_init(&bd, alg_of(call->op), &src0.md, &src1.md, &dst.md)) != dnnl_success) {
        stage = "dnnl_binary_desc_init";
        status = s == dnnl_invalid_arguments ? BCT_ERR_NOT_BROADCASTABLE : BCT_ERR_OTHER;
        goto fail;
    }
    if ((s = dnnl_primitive_desc_create(&pd, &bd, NULL, bct_onednn_engine, NULL)) != dnnl_success) {
        stage = "dnnl_primitive_desc_create";
        status = s == dnnl_unimplemented ? BCT_ERR_DTYPE : BCT_ERR_OTHER;
        goto fail;
    }
    if ((s = dnnl_primitive_create(&prim, pd)) != dnnl_success) {
        stage = "dnnl_primitive_create";
        goto fail;
    }
    if (dst_handle(call, rank, nd, &src0, &dst) != 0)
        goto cleanup;
    static const int ids[3] = {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1, DNNL_ARG_DST};
    const operand *ops[3] = {&src0, &src1, &dst};
    if ((s = execute(prim, 3, ids, ops, m, &stage)) != dnnl_success)
        goto fail;
    status = BCT_OK;
    goto cleanup;
fail:
    snprintf(call->message, call->message_cap, "oneDNN %s: %s", stage, status_name(s));
    if (s == dnnl_out_of_memory)
        status = BCT_ERR_OTHER;
cleanup:
    for (int i = 0; i < 3; i++)
        dnnl_memory_destroy(m[i]);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    free(src0.copy);
    free(src1.copy);
    return status;
}

/* One case: the PReLU or matmul primitive for prelu and gemm_bias
 * (onednn_fused.c), the binary primitive for the rest. */
static int onednn_run(const bct_call *call)
{
    switch (call->op) {
    case BCT_PRELU: return onednn_prelu(call);
    case BCT_GEMM_BIAS: return onednn_gemm_bias(call);
    default: return onednn_binary(call);
    }
}

/* A CPU engine and an in-order stream per worker. */
static int onednn_init(const char *arg)
{
    (void)arg;
    if (dnnl_engine_create(&bct_onednn_engine, dnnl_cpu, 0) != dnnl_success)
        return 1;
    return dnnl_stream_create(&bct_onednn_stream, bct_onednn_engine, dnnl_stream_default_flags) != dnnl_success;
}

/* ops: the bcast ops among the binary primitive's algorithms whose results
 * keep the input type (comparisons produce 0/1 in dst's type, never bool, so
 * they are not claimed); prelu (the PReLU primitive, weights broadcast to
 * src) and gemm_bias (the matmul primitive with a bias broadcast to dst).
 * The binary algorithms of 2.6.3 (dnnl_types.h: add mul max min div sub ge
 * gt le lt eq ne) hold none of issue #25's other ops. Rank limit:
 * DNNL_MAX_NDIMS (12, dnnl_types.h). */
static const bct_target descriptor = {
    .abi_version = BCT_ABI_VERSION,
    .name = "onednn",
    .version = BCT_LIB_VERSION,
    .profile = BCT_PROFILE_NUMPY,
    .ops = UINT64_C(1) << BCT_ADD | UINT64_C(1) << BCT_SUB | UINT64_C(1) << BCT_MUL |
           UINT64_C(1) << BCT_DIV | UINT64_C(1) << BCT_MAXIMUM | UINT64_C(1) << BCT_MINIMUM |
           UINT64_C(1) << BCT_PRELU | UINT64_C(1) << BCT_GEMM_BIAS,
    .dtypes = 1u << BCT_F32 | 1u << BCT_I8 | 1u << BCT_U8,
    .max_rank = DNNL_MAX_NDIMS,
    .flags = BCT_CAP_STRIDED | BCT_CAP_INPLACE,
    .init = onednn_init,
    .run = onednn_run,
};

const bct_target *bcast_target_v1(void);

const bct_target *bcast_target_v1(void)
{
    return &descriptor;
}
