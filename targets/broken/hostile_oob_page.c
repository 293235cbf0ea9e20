/* hostile_oob_page.c - test target: on sub, overruns the output by a whole page. */
#include <string.h>

#include "broken.h"

/* Trigger: value-mode sub. Writes the right result, then 4096 bytes of 0xff
 * straight after it: a runaway loop rather than an off-by-one. */
static int run(const bct_call *call)
{
    if (call->op != BCT_SUB || call->mode != BCT_MODE_VALUE)
        return bk_correct(call);
    bk_result res;
    int status = bk_eval_private(call, &res);
    if (status == BCT_OK) {
        unsigned char *out = bk_emit(call, &res, res.rank, res.shape);
        if (out == NULL)
            status = BCT_ERR_OTHER;
        else
            memset(out + res.bytes, 0xff, 4096); /* the deliberate overrun */
    }
    bk_free(&res);
    return status;
}

BK_TARGET("hostile-oob-page", run)
