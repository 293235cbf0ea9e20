/* hostile_underrun.c - test target: on sub, writes one element before the start of the output. */
#include <string.h>

#include "broken.h"

/* The mirror image of write_past_end: a loop running backwards one step too
 * far. The guard page in front of the output must catch it. */
static int run(const bct_call *call)
{
    if (call->op != BCT_SUB || call->mode != BCT_MODE_VALUE)
        return bk_correct(call);
    bk_result res;
    int status = bk_eval_private(call, &res);
    if (status == BCT_OK) {
        unsigned char *out = bk_emit(call, &res, res.rank, res.shape);
        if (out == NULL) {
            status = BCT_ERR_OTHER;
        } else {
            size_t size = (size_t)bc_dtype_size(res.dtype);
            volatile unsigned char *before = out - size; /* the deliberate underrun */
            for (size_t i = 0; i < size; i++)
                before[i] = 0xff;
        }
    }
    bk_free(&res);
    return status;
}

BK_TARGET("hostile-underrun", run)
