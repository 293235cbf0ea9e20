/* grad_drops_ones.c - test target: in grad mode, mul's gradients are summed over a stretched size-1 dim without keeping it. */
#include "broken.h"

/* Trigger: grad-mode mul. The values are right, but each gradient's
 * stretched size-1 dims are dropped from its shape (numpy's sum without
 * keepdims=True), instead of kept as 1 (B23). */
static int run(const bct_call *call)
{
    if (call->op != BCT_MUL || call->mode != BCT_MODE_GRAD)
        return bk_correct(call);
    bk_grads g;
    int status = bk_grad_private(call, &g);
    const bct_array *res = &call->args[call->nargs - 1];
    for (int k = 0; status == BCT_OK && k < BK_MAXG; k++) {
        if (!g.have[k]) continue;
        int64_t shape[BC_MAX_RANK];
        int rank = 0, lead = res->rank - g.rank[k];
        for (int d = 0; d < g.rank[k]; d++)
            if (!(g.shape[k][d] == 1 && lead + d >= 0 && res->shape[lead + d] != 1)) shape[rank++] = g.shape[k][d];
        if (bk_emit_grad(call, k, g.dtype[k], rank, shape, g.data[k], g.bytes[k]) == NULL) status = BCT_ERR_OTHER;
    }
    bk_grads_free(&g);
    return status;
}

BK_TARGET("broken-grad-drops-ones", run)
