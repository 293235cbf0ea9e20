/* view.c - the layout of a case argument's view over its storage. */
#include "case/view.h"

/* See view.h: a zero-size view counts as contiguous; dims of extent 1 may
 * have any stride. */
int br_is_contiguous(const br_arg *a)
{
    int64_t n = br_shape_count(a->shape, a->rank);
    if (n == 0) return 1;
    /* a contiguous view fits its storage, so the products below cannot overflow */
    if (n < 0 || n > a->storage || a->offset != 0) return 0;
    int64_t want = 1;
    for (int i = a->rank - 1; i >= 0; i--) {
        if (a->shape[i] != 1 && a->strides[i] != want) return 0;
        want *= a->shape[i];
    }
    return 1;
}
