/* exit.c - test target: calls exit(3) on mul, as a library that "handles" errors by exiting would. */
#include <stdlib.h>

#include "broken.h"

static int run(const bct_call *call)
{
    if (call->op == BCT_MUL)
        exit(3);
    return bk_correct(call);
}

BK_TARGET("broken-exit", run)
