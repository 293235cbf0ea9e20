/* hostile_self_partial.c - test target: writes into self, then raises inplace-shape (violates B22). */
#include "broken.h"

/* Trigger: an in-place case ref rejects with inplace-shape. The target first
 * scribbles on self's first element, as a library that checks shapes while
 * already writing would, then reports the error. B22 says self must be left
 * untouched, so the runner must call this a memory violation, not a pass. */
static int run(const bct_call *call)
{
    int status = bk_correct(call);
    if (status == BCT_ERR_INPLACE_SHAPE && call->mode == BCT_MODE_INPLACE &&
        call->nargs >= 1 && bk_count(call->args[0].rank, call->args[0].shape) > 0) {
        const bct_array *self = &call->args[0];
        unsigned char *base = self->data;
        size_t size = (size_t)bc_dtype_size(self->dtype);
        unsigned char *first = base + (size_t)self->offset * size;
        first[0] = (unsigned char)(first[0] ^ 0x5a);
    }
    return status;
}

BK_TARGET("hostile-self-partial", run)
