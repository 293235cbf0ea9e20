/* grad_missing_y.c - test target: in grad mode, maximum returns x's gradient only. */
#include "broken.h"

/* Trigger: grad-mode maximum. y's gradient is never handed back (a backward
 * rule that differentiates only its first input). */
static int run(const bct_call *call)
{
    if (call->op != BCT_MAXIMUM || call->mode != BCT_MODE_GRAD)
        return bk_correct(call);
    bk_grads g;
    int status = bk_grad_private(call, &g);
    if (status == BCT_OK && g.have[0] &&
        bk_emit_grad(call, 0, g.dtype[0], g.rank[0], g.shape[0], g.data[0], g.bytes[0]) == NULL)
        status = BCT_ERR_OTHER;
    bk_grads_free(&g);
    return status;
}

BK_TARGET("broken-grad-missing-y", run)
