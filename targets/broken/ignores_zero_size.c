/* ignores_zero_size.c - test target: reports every 0 extent of a result as 1. */
#include "broken.h"

/* Trigger: a value-mode case with a zero-size operand. The bug treats 0 as
 * "absent" and so as 1, contradicting B2 (a 1 stretches to 0, giving 0): the
 * result shape has 1 wherever the true result has 0, with zeroed data. */
static int run(const bct_call *call)
{
    int zero = 0;
    for (int i = 0; i < call->nargs; i++)
        for (int d = 0; d < call->args[i].rank; d++)
            if (call->args[i].shape[d] == 0)
                zero = 1;
    if (!zero || call->mode != BCT_MODE_VALUE)
        return bk_correct(call);
    bk_result res;
    int status = bk_eval_private(call, &res);
    if (status == BCT_OK) {
        int64_t shape[BC_MAX_RANK];
        for (int d = 0; d < res.rank; d++)
            shape[d] = res.shape[d] == 0 ? 1 : res.shape[d];
        if (bk_emit(call, &res, res.rank, shape) == NULL)
            status = BCT_ERR_OTHER;
    }
    bk_free(&res);
    return status;
}

BK_TARGET("broken-ignores-zero-size", run)
