/* assert_abort.c - test target: on sub, prints an assertion message to stderr and aborts, as an eigen_assert or assert() does. */
#include <stdio.h>
#include <stdlib.h>

#include "broken.h"

static int run(const bct_call *call)
{
    if (call->op == BCT_SUB) {
        fprintf(stderr, "tensor_lib.h:123: void broadcast(): Assertion `dims[i] == other.dims[i]' failed.\n");
        abort();
    }
    return bk_correct(call);
}

BK_TARGET("broken-assert", run)
