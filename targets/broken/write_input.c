/* write_input.c - test target: on mul, stores into its first input before computing. */
#include "broken.h"

/* Trigger: mul with a non-empty x. Inputs are read-only by contract (the
 * runner maps them PROT_READ), so the store itself should be caught. */
static int run(const bct_call *call)
{
    if (call->op == BCT_MUL && call->nargs >= 2 && call->args[0].dtype != BCT_NONE &&
        bk_count(call->args[0].rank, call->args[0].shape) > 0) {
        const bct_array *x = &call->args[0];
        unsigned char *base = x->data;
        size_t size = (size_t)bc_dtype_size(x->dtype);
        volatile unsigned char *first = base + (size_t)x->offset * size;
        first[0] = (unsigned char)(first[0] ^ 0x5a); /* the deliberate write */
    }
    return bk_correct(call);
}

BK_TARGET("broken-write-input", run)
