/* grad_not_reduced.c - test target: in grad mode, add's gradients are the incoming gradient itself, not summed to the operands' shapes. */
#include "broken.h"

/* Trigger: grad-mode add. The classic autodiff bug: the backward pass of a
 * broadcasting add passes the incoming gradient through and forgets
 * sum_to_size (B23), so each gradient has the result's shape. */
static int run(const bct_call *call)
{
    if (call->op != BCT_ADD || call->mode != BCT_MODE_GRAD)
        return bk_correct(call);
    bk_grads g;
    int status = bk_grad_private(call, &g);   /* ref decides errors and which inputs get one */
    const bct_array *in = &call->args[call->nargs - 1];
    for (int k = 0; status == BCT_OK && k < BK_MAXG; k++) {
        if (!g.have[k]) continue;
        if (in->dtype != g.dtype[k] || bk_count(in->rank, in->shape) > 0) {
            /* the incoming gradient, in C order (the fixtures keep it contiguous) */
            int64_t n = bk_count(in->rank, in->shape);
            const char *src = (const char *)in->data + in->offset * bc_dtype_size(in->dtype);
            if (bk_emit_grad(call, k, in->dtype, in->rank, in->shape, src,
                             (size_t)(n > 0 ? n : 0) * (size_t)bc_dtype_size(in->dtype)) == NULL)
                status = BCT_ERR_OTHER;
        } else if (bk_emit_grad(call, k, g.dtype[k], g.rank[k], g.shape[k], g.data[k], g.bytes[k]) == NULL) {
            status = BCT_ERR_OTHER;
        }
    }
    bk_grads_free(&g);
    return status;
}

BK_TARGET("broken-grad-not-reduced", run)
