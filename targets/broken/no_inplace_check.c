/* no_inplace_check.c - test target: never raises inplace-shape (B8). */
#include "broken.h"

/* The bug: an in-place op whose broadcast result is larger than self
 * "succeeds" silently, leaving self as it was, instead of raising
 * inplace-shape as B8 requires. */
static int run(const bct_call *call)
{
    int status = bk_correct(call);
    if (status == BCT_ERR_INPLACE_SHAPE && call->mode == BCT_MODE_INPLACE) {
        if (call->message != NULL && call->message_cap > 0)
            call->message[0] = '\0';
        return BCT_OK;
    }
    return status;
}

BK_TARGET("broken-no-inplace-check", run)
