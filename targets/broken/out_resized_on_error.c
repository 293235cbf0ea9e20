/* out_resized_on_error.c - test target: an out= call whose result shape is not out's resizes out to the broadcast shape (alloc_output), then raises ref's error anyway (issue 25 item 7: a failed out= call leaves out as it was, B22). Results are ref's. */
#include "broken.h"

/* The broadcast shape of the call's operands (out excluded) in *s; 0, or -1
 * when they do not broadcast. */
static int operands_shape(const bct_call *call, bc_shape *s)
{
    bc_shape in[3];
    bc_error err;
    int n = call->nargs - 1;
    if (n < 1 || n > 3) return -1;
    for (int i = 0; i < n; i++) {
        in[i].rank = call->args[i].rank;
        for (int d = 0; d < in[i].rank; d++) in[i].dim[d] = call->args[i].shape[d];
    }
    return bc_broadcast_shapes(in, n, s, &err) == 0 ? 0 : -1;
}

/* Like a library that resizes out before it checks the op: the resize stays
 * when the op then fails. */
static int run(const bct_call *call)
{
    int status = bk_correct(call);
    bc_shape s;
    if (call->mode == BCT_MODE_OUT && status == BCT_ERR_INPLACE_SHAPE && operands_shape(call, &s) == 0)
        (void)call->alloc_output(call->ctx, call->args[call->nargs - 1].dtype, s.rank, s.dim);
    return status;
}

BK_TARGET("broken-out-resized-on-error", run)
