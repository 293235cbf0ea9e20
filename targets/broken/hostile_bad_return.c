/* hostile_bad_return.c - test target: BCT_OK without an output on eq, an undefined status (42) on where. */
#include "broken.h"

/* Two ways to return nonsense without crashing: claiming success with
 * nothing delivered, and a status outside bct_status. Both must be plain
 * failures, never passes. */
static int run(const bct_call *call)
{
    if (call->op == BCT_EQ && call->mode == BCT_MODE_VALUE)
        return BCT_OK;
    if (call->op == BCT_WHERE)
        return 42;
    return bk_correct(call);
}

BK_TARGET("hostile-bad-return", run)
