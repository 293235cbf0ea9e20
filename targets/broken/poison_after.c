/* poison_after.c - test target: its first mul returns the right result but
 * breaks its own state, and every later call of the worker process fails
 * ("state corrupted"), as a library whose heap one call overwrote. Each case
 * passes in a fresh worker: the runner's re-run (docs/runner.md "Re-run")
 * must trace them to mul. */
#include <stdio.h>

#include "broken.h"

static int corrupted;   /* per worker process: a fork of the fork server starts clean */

static int run(const bct_call *call)
{
    if (corrupted) {
        snprintf(call->message, call->message_cap, "state corrupted");
        return BCT_ERR_OTHER;
    }
    if (call->op == BCT_MUL) corrupted = 1;
    return bk_correct(call);
}

BK_TARGET("broken-poison-after", run)
