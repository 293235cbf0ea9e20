/* hostile_noisy.c - test target: correct, but prints to stdout and stderr on every case. */
#include <stdio.h>

#include "broken.h"

/* Lines that look like the runner's own output: if they reach the runner's
 * stdout, the final-line and JSON checks of the e2e tests break. */
static int run(const bct_call *call)
{
    printf("999 passed, 0 failed, 0 skipped\n{\"noise\": true}\nok 1 - noise\n");
    fflush(stdout);
    fprintf(stderr, "hostile-noisy: op %d\n", call->op);
    return bk_correct(call);
}

BK_TARGET("hostile-noisy", run)
