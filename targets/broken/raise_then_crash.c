/* raise_then_crash.c - test target: mul raises "other" when it is not the
 * first call of its worker process and crashes (abort) when it is. In a run,
 * the fixture's mul case follows other cases, so it raises; the runner's
 * re-run gives it a fresh worker, where it crashes. The re-run must judge
 * the crash on its own, keeping nothing of the first run's error (the runner
 * once read the error message of a crash that has no result). */
#include <stdio.h>
#include <stdlib.h>

#include "broken.h"

static int calls;   /* per worker process: a fork of the fork server starts at 0 */

static int run(const bct_call *call)
{
    if (call->op == BCT_MUL) {
        if (calls++ == 0) abort();
        snprintf(call->message, call->message_cap, "mul refused after other calls");
        return BCT_ERR_OTHER;
    }
    calls++;
    return bk_correct(call);
}

BK_TARGET("broken-raise-then-crash", run)
