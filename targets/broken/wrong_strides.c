/* wrong_strides.c - test target: reads inputs as if they were C-contiguous from offset 0. */
#include "broken.h"

/* Largest element index the view can address: every view in a valid case
 * lies inside its storage, so storage holds at least this + 1 elements. */
static int64_t view_hi(const bct_array *a)
{
    int64_t hi = a->offset;
    for (int d = 0; d < a->rank; d++)
        if (a->shape[d] > 0 && a->strides[d] > 0)
            hi += (a->shape[d] - 1) * a->strides[d];
    return hi;
}

/* The bug: every input is read with C-contiguous strides and offset 0,
 * ignoring the strides it came with. To stay deterministic (and never read
 * outside the runner's buffers) the contiguous reading is only used when it
 * stays inside what the real view addresses; stride-0 views whose storage is
 * smaller than their element count keep their strides. Contiguous inputs
 * give the right answer, so only the layouts cases fail. */
static int run(const bct_call *call)
{
    if (call->nargs < 1 || call->nargs > 8)
        return bk_correct(call);
    bct_array args[8];
    int64_t strides[8][BC_MAX_RANK];
    int first_written = call->mode == BCT_MODE_INPLACE ? 0 : -1;
    int last_written = call->mode == BCT_MODE_OUT ? call->nargs - 1 : -1;
    for (int i = 0; i < call->nargs; i++) {
        const bct_array *a = &call->args[i];
        args[i] = *a;
        if (i == first_written || i == last_written || a->dtype == BCT_NONE ||
            a->rank > BC_MAX_RANK)
            continue;
        int64_t n = bk_count(a->rank, a->shape);
        if (n <= 0 || n - 1 > view_hi(a))
            continue;
        int64_t s = 1;
        for (int d = a->rank - 1; d >= 0; d--) {
            strides[i][d] = s;
            s *= a->shape[d];
        }
        args[i].strides = strides[i];
        args[i].offset = 0;
    }
    bct_call bent = *call;
    bent.args = args;
    return bk_correct(&bent);
}

BK_TARGET("broken-wrong-strides", run)
