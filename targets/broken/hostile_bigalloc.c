/* hostile_bigalloc.c - test target: asks malloc for 8 GiB on value-mode add and reports whether it got it. */
#include <stdlib.h>

#include "broken.h"

#define BIG_BYTES ((size_t)8 << 30)

/* A target that allocates hugely for its own scratch must be stopped by the
 * worker's address-space limit (mapped size + 4 GiB), not by the machine
 * running out of memory: malloc returns NULL and the target reports an
 * error, so the case fails with "refused". Where no limit applies (under
 * AddressSanitizer) the allocation may succeed; only one page is touched and
 * the case then runs correctly. Other ops are untouched. */
static int run(const bct_call *call)
{
    if (call->op == BCT_ADD && call->mode == BCT_MODE_VALUE) {
        char *p = malloc(BIG_BYTES);
        if (p == NULL) {
            bk_message(call, "hostile-bigalloc: 8 GiB malloc refused");
            return BCT_ERR_OTHER;
        }
        p[0] = 1;
        free(p);
    }
    return bk_correct(call);
}

BK_TARGET("hostile-bigalloc", run)
