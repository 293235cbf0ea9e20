/* hostile_bigalloc.c - test target: asks malloc for 8 GiB on value-mode add and reports whether it got it. */
#include <stdlib.h>

#include "broken.h"

#define BIG_BYTES ((size_t)8 << 30)

/* The allocation goes through this volatile pointer so that no compiler may
 * elide the malloc/free pair (clang does, for an unused block). */
static char *volatile keep;

/* A target that allocates hugely for its own scratch must be stopped by the
 * worker's address-space limit (mapped size + 4 GiB), not by the machine
 * running out of memory: malloc returns NULL and the target reports an
 * error, so the case fails with "refused". Where no limit applies (under
 * AddressSanitizer) the allocation may succeed; only one page is touched and
 * the case then runs correctly. Other ops are untouched. */
static int run(const bct_call *call)
{
    if (call->op == BCT_ADD && call->mode == BCT_MODE_VALUE) {
        keep = malloc(BIG_BYTES);
        if (keep == NULL) {
            bk_message(call, "hostile-bigalloc: 8 GiB malloc refused");
            return BCT_ERR_OTHER;
        }
        keep[0] = 1;
        free(keep);
        keep = NULL;
    }
    return bk_correct(call);
}

BK_TARGET("hostile-bigalloc", run)
