/* hang.c - test target: loops forever on mul. */
#include "broken.h"

static int run(const bct_call *call)
{
    if (call->op == BCT_MUL) {
        volatile unsigned long spins = 0;
        for (;;)
            spins++; /* the deliberate hang; the runner's timeout must end it */
    }
    return bk_correct(call);
}

BK_TARGET("broken-hang", run)
