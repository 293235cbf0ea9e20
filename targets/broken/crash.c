/* crash.c - test target: SIGSEGV (null store) on mul, abort() on sub. */
#include <stdlib.h>

#include "broken.h"

/* The null store is deliberate; sanitizers must not turn it into a report
 * and a different exit, since the test expects the runner to see SIGSEGV. */
#if defined(__GNUC__)
__attribute__((no_sanitize("address", "undefined")))
#endif
static void store_through_null(void)
{
    volatile int *volatile p = NULL;
    *p = 1;
}

static int run(const bct_call *call)
{
    if (call->op == BCT_MUL)
        store_through_null();
    if (call->op == BCT_SUB)
        abort();
    return bk_correct(call);
}

BK_TARGET("broken-crash", run)
