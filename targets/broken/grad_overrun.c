/* grad_overrun.c - test target: in grad mode, div writes one element past the end of x's gradient. */
#include <string.h>

#include "broken.h"

/* Trigger: grad-mode div with a non-empty gradient of x. The gradients are
 * right; the bug is the off-by-one store after x's, which the guard page
 * after every gradient buffer catches. */
static int run(const bct_call *call)
{
    if (call->op != BCT_DIV || call->mode != BCT_MODE_GRAD)
        return bk_correct(call);
    bk_grads g;
    int status = bk_grad_private(call, &g);
    for (int k = 0; status == BCT_OK && k < BK_MAXG; k++) {
        if (!g.have[k]) continue;
        unsigned char *out = bk_emit_grad(call, k, g.dtype[k], g.rank[k], g.shape[k], g.data[k], g.bytes[k]);
        if (out == NULL) status = BCT_ERR_OTHER;
        else if (k == 0 && g.bytes[k] > 0) memcpy(out + g.bytes[k], g.data[k], (size_t)bc_dtype_size(g.dtype[k]));
    }
    bk_grads_free(&g);
    return status;
}

BK_TARGET("broken-grad-overrun", run)
