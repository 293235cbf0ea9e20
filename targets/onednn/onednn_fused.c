/* onednn_fused.c - prelu and gemm_bias: oneDNN's PReLU primitive and its matmul primitive with a bias, through the C API.
 *
 * Both broadcast one operand one way inside the primitive, as ONNX's PRelu
 * and Gemm do (docs/semantics.md B45):
 *   - PReLU (dnnl_prelu_forward_desc_init): "Weights (alpha) tensor supports
 *     broadcast-semantics. Broadcast configuration is assumed based on src and
 *     weights dimensions" (dev_guide_prelu: channel-shared {1,1,1,1},
 *     channel-wise {1,c,1,1}, whole-tensor, shared-axes {n,1,h,1});
 *     dst = src > 0 ? src : weights * src;
 *   - matmul (dnnl_matmul_desc_init) with a bias: dst = src @ weights + bias,
 *     the bias's dims each 1 or dst's (dev_guide_matmul).
 * The calling convention, and nothing more (oneDNN decides every shape):
 *   - the broadcast operand (weights, bias) is padded with leading 1s to the
 *     rank of the tensor it broadcasts to, as the binary primitive's operands
 *     are (oneDNN describes a broadcast by dims of 1 at equal rank); one of
 *     higher rank is passed as it is. oneDNN has no 0-d memory: rank 0 is (1,);
 *   - PReLU has one data descriptor for src and dst, and dst is the runner's
 *     dense buffer, so src is passed as a dense copy;
 *   - gemm_bias's dst dims are A's leading dims and B's last (the matmul
 *     rule; oneDNN checks them against A and B).
 * Errors: invalid_arguments from the descriptor is oneDNN's one shape error
 * (not-broadcastable for PReLU; for matmul it answers a core mismatch and a
 * bias that does not broadcast alike, reported as matmul-core); unimplemented
 * from primitive creation is dtype; everything else is other. */
#include <stdio.h>
#include <stdlib.h>

#include "onednn_common.h"

/* One fused case's state: up to four operands, the primitive, the memories. */
typedef struct fused {
    operand op[4];
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    dnnl_memory_t m[4];
    const char *stage;
} fused;

/* Releases everything f holds. */
static void fused_free(fused *f)
{
    for (int i = 0; i < 4; i++) {
        dnnl_memory_destroy(f->m[i]);
        free(f->op[i].copy);
    }
    dnnl_primitive_destroy(f->prim);
    dnnl_primitive_desc_destroy(f->pd);
}

/* Writes oneDNN's failing status and stage to the message; returns class
 * `status`, or other for out_of_memory. */
static int fail(const bct_call *call, const fused *f, dnnl_status_t s, int status)
{
    snprintf(call->message, call->message_cap, "oneDNN %s: %s", f->stage, status_name(s));
    return s == dnnl_out_of_memory ? BCT_ERR_OTHER : status;
}

/* The primitive from descriptor desc; then dst's buffer from alloc_output at
 * dst's dims without the padding (rank `rank`), and execution of the n
 * operands (dst last) as arguments ids. A bct status. */
static int create_and_run(const bct_call *call, fused *f, const void *desc, int n, const int *ids, int rank)
{
    dnnl_status_t s;
    operand *dst = &f->op[n - 1];
    f->stage = "dnnl_primitive_desc_create";
    if ((s = dnnl_primitive_desc_create(&f->pd, desc, NULL, bct_onednn_engine, NULL)) != dnnl_success)
        return fail(call, f, s, s == dnnl_unimplemented ? BCT_ERR_DTYPE : BCT_ERR_OTHER);
    f->stage = "dnnl_primitive_create";
    if ((s = dnnl_primitive_create(&f->prim, f->pd)) != dnnl_success)
        return fail(call, f, s, BCT_ERR_OTHER);
    int nd = dst->md.ndims;
    dst->handle = call->alloc_output(call->ctx, call->args[0].dtype, rank, dst->dims + (nd - rank));
    if (dst->handle == NULL) {
        snprintf(call->message, call->message_cap,
                 "oneDNN raised no error for these dst dims; bcast's alloc_output refused a result of this shape");
        return BCT_ERR_OTHER;
    }
    const operand *ops[4] = {&f->op[0], &f->op[1], &f->op[2], &f->op[3]};
    if ((s = execute(f->prim, n, ids, ops, f->m, &f->stage)) != dnnl_success)
        return fail(call, f, s, BCT_ERR_OTHER);
    return BCT_OK;
}

/* The padded rank of the operand that broadcasts to a tensor of rank nd. */
static int bias_rank(const bct_array *a, int nd)
{
    return a->rank > nd ? a->rank : nd;
}

/* prelu(x, slope): the PReLU primitive, src x (dense), weights slope. */
static int run_prelu(const bct_call *call, fused *f)
{
    const bct_array *x = &call->args[0], *w = &call->args[1];
    int nd = x->rank > 0 ? x->rank : 1;
    dnnl_status_t s;
    dnnl_prelu_desc_t pdesc;
    f->stage = "dnnl_memory_desc_init";
    if ((s = prepare_dense(x, nd, &f->op[0])) != dnnl_success ||
        (s = prepare(w, bias_rank(w, nd), &f->op[1])) != dnnl_success)
        return fail(call, f, s, BCT_ERR_OTHER);
    f->op[2] = f->op[0];                        /* dst: src's dims and dense layout */
    f->op[2].copy = NULL;
    f->stage = "dnnl_prelu_forward_desc_init";
    if ((s = dnnl_prelu_forward_desc_init(&pdesc, dnnl_forward_inference, &f->op[0].md, &f->op[1].md)) != dnnl_success)
        return fail(call, f, s, s == dnnl_invalid_arguments ? BCT_ERR_NOT_BROADCASTABLE : BCT_ERR_OTHER);
    static const int ids[3] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST};
    return create_and_run(call, f, &pdesc, 3, ids, x->rank);
}

/* gemm_bias(A, B, C): the matmul primitive, src A, weights B, bias C, dst at
 * A's leading dims and B's last. */
static int run_gemm_bias(const bct_call *call, fused *f)
{
    const bct_array *a = &call->args[0], *b = &call->args[1], *c = &call->args[2];
    int nd = a->rank > 0 ? a->rank : 1;
    dnnl_status_t s;
    dnnl_matmul_desc_t mdesc;
    operand *dst = &f->op[3];
    f->stage = "dnnl_memory_desc_init";
    if ((s = prepare(a, nd, &f->op[0])) != dnnl_success ||
        (s = prepare(b, b->rank > 0 ? b->rank : 1, &f->op[1])) != dnnl_success ||
        (s = prepare(c, bias_rank(c, nd), &f->op[2])) != dnnl_success)
        return fail(call, f, s, BCT_ERR_OTHER);
    for (int d = 0; d < nd - 1; d++)
        dst->dims[d] = f->op[0].dims[d];
    dst->dims[nd - 1] = f->op[1].dims[f->op[1].md.ndims - 1];
    if ((s = dnnl_memory_desc_init_by_tag(&dst->md, nd, dst->dims, dnnl_type(a->dtype), dense_tag(nd))) != dnnl_success)
        return fail(call, f, s, BCT_ERR_OTHER);
    f->stage = "dnnl_matmul_desc_init";
    if ((s = dnnl_matmul_desc_init(&mdesc, &f->op[0].md, &f->op[1].md, &f->op[2].md, &dst->md)) != dnnl_success)
        return fail(call, f, s, s == dnnl_invalid_arguments ? BCT_ERR_MATMUL_CORE : BCT_ERR_OTHER);
    static const int ids[4] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST};
    return create_and_run(call, f, &mdesc, 4, ids, a->rank > 0 ? a->rank : 0);
}

int onednn_prelu(const bct_call *call)
{
    fused f = {0};
    int status = run_prelu(call, &f);
    fused_free(&f);
    return status;
}

int onednn_gemm_bias(const bct_call *call)
{
    fused f = {0};
    int status = run_gemm_bias(call, &f);
    fused_free(&f);
    return status;
}
