/* grad_averaged.c - test target: in grad mode, sub's gradients are averaged over the stretched dims instead of summed. */
#include "broken.h"

/* Trigger: grad-mode sub. Each gradient is the right sum divided by the
 * number of result elements that went into each of its elements (a mean
 * reduction where sum_to_size sums, B23). */
static int run(const bct_call *call)
{
    if (call->op != BCT_SUB || call->mode != BCT_MODE_GRAD)
        return bk_correct(call);
    bk_grads g;
    int status = bk_grad_private(call, &g);
    const bct_array *res = &call->args[call->nargs - 1];
    int64_t nr = bk_count(res->rank, res->shape);
    for (int k = 0; status == BCT_OK && k < BK_MAXG; k++) {
        if (!g.have[k]) continue;
        int64_t ne = bk_count(g.rank[k], g.shape[k]);
        double f = ne > 0 && nr > 0 ? (double)nr / (double)ne : 1;
        for (int64_t i = 0; i < ne; i++) {
            if (g.dtype[k] == BCT_F32) ((float *)(void *)g.data[k])[i] = (float)(((float *)(void *)g.data[k])[i] / f);
            else ((double *)(void *)g.data[k])[i] /= f;
        }
        if (bk_emit_grad(call, k, g.dtype[k], g.rank[k], g.shape[k], g.data[k], g.bytes[k]) == NULL)
            status = BCT_ERR_OTHER;
    }
    bk_grads_free(&g);
    return status;
}

BK_TARGET("broken-grad-averaged", run)
