/* write_past_end.c - test target: on sub, writes one element past the end of the output. */
#include <string.h>

#include "broken.h"

/* Trigger: value-mode sub with a non-empty result. The result itself is
 * right; the bug is the classic off-by-one store just after it. */
static int run(const bct_call *call)
{
    if (call->op != BCT_SUB || call->mode != BCT_MODE_VALUE)
        return bk_correct(call);
    bk_result res;
    int status = bk_eval_private(call, &res);
    if (status == BCT_OK && res.bytes > 0) {
        unsigned char *out = bk_emit(call, &res, res.rank, res.shape);
        if (out == NULL) {
            status = BCT_ERR_OTHER;
        } else {
            size_t size = (size_t)bc_dtype_size(res.dtype);
            memcpy(out + res.bytes, res.data, size); /* the deliberate overrun */
        }
    } else if (status == BCT_OK && bk_emit(call, &res, res.rank, res.shape) == NULL) {
        status = BCT_ERR_OTHER;
    }
    bk_free(&res);
    return status;
}

BK_TARGET("broken-write-past-end", run)
