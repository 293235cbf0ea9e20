/* read_past_input.c - test target: on add, reads one element past the last element of y's view; on sub, one before the first element of x's view (issue 15: input over-reads are memory violations). Results are ref's. */
#include "broken.h"

/* The element offsets (in elements from data) of the first and last element
 * the view addresses; 0 when it addresses none. */
static int view_bounds(const bct_array *a, int64_t *lo, int64_t *hi)
{
    *lo = *hi = a->offset;
    for (int d = 0; d < a->rank; d++) {
        if (a->shape[d] == 0) return 0;
        int64_t span = (a->shape[d] - 1) * a->strides[d];
        if (span > 0) *hi += span; else *lo += span;
    }
    return 1;
}

#if defined(__GNUC__)
__attribute__((no_sanitize("address")))
#endif
static void touch(const bct_array *a, int64_t at)
{
    const volatile unsigned char *p = (const unsigned char *)a->data;
    int es = bc_dtype_size(a->dtype);
    (void)p[at * es];
}

static int run(const bct_call *call)
{
    int64_t lo, hi;
    if (call->op == BCT_ADD && call->nargs >= 2 && call->args[1].dtype >= 0 && view_bounds(&call->args[1], &lo, &hi))
        touch(&call->args[1], hi + 1);
    if (call->op == BCT_SUB && call->nargs >= 1 && call->args[0].dtype >= 0 && view_bounds(&call->args[0], &lo, &hi))
        touch(&call->args[0], lo - 1);
    return bk_correct(call);
}

BK_TARGET("broken-read-past-input", run)
