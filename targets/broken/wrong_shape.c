/* wrong_shape.c - test target: on add, drops the first dimension where x is stretched. */
#include "broken.h"

/* Trigger: value-mode add where x's extent 1 is stretched to more than 1 in
 * some result dimension (B2). The result is reported without that dimension,
 * the classic "forgot the stretched axis" bug; the data is truncated to fit. */
static int run(const bct_call *call)
{
    if (call->op != BCT_ADD || call->mode != BCT_MODE_VALUE || call->nargs < 1)
        return bk_correct(call);
    bk_result res;
    int status = bk_eval_private(call, &res);
    if (status != BCT_OK)
        goto done;
    const bct_array *x = &call->args[0];
    int drop = -1;
    for (int d = 0; d < res.rank && drop < 0; d++) {
        int xd = d - (res.rank - x->rank); /* B1: right alignment */
        int64_t xe = xd >= 0 ? x->shape[xd] : 1;
        if (xe == 1 && res.shape[d] > 1)
            drop = d;
    }
    int64_t shape[BC_MAX_RANK];
    int rank = 0;
    for (int d = 0; d < res.rank; d++)
        if (d != drop)
            shape[rank++] = res.shape[d];
    if (bk_emit(call, &res, rank, shape) == NULL)
        status = BCT_ERR_OTHER;
done:
    bk_free(&res);
    return status;
}

BK_TARGET("broken-wrong-shape", run)
