/* out_written_on_error.c - test target: an out= call that fails scribbles on out's first element, then raises ref's error (issue 25 item 7: a failed out= call leaves out's memory as it was, B22). Results are ref's. */
#include "broken.h"

/* Like a library that writes out before it finds the error: whenever ref
 * refuses an out= call, out's first element is flipped first. The runner must
 * call that a violation, except on cases tagged out-modified. */
static int run(const bct_call *call)
{
    int status = bk_correct(call);
    if (status != BCT_OK && call->mode == BCT_MODE_OUT && call->nargs >= 1) {
        const bct_array *out = &call->args[call->nargs - 1];
        if (bk_count(out->rank, out->shape) > 0) {
            unsigned char *first = (unsigned char *)out->data + (size_t)out->offset * (size_t)bc_dtype_size(out->dtype);
            first[0] = (unsigned char)(first[0] ^ 0x5a);
        }
    }
    return status;
}

BK_TARGET("broken-out-written-on-error", run)
