/* needs_arg.c - test target: init() accepts only --target-arg "magic"; then correct. */
#include <string.h>

#include "broken.h"

static int initialised;

/* A target that needs configuration: without the right --target-arg it is
 * unusable, and the runner must stop (exit 2) rather than fail every case. */
static int init(const char *arg)
{
    if (arg == NULL || strcmp(arg, "magic") != 0)
        return 1;
    initialised = 1;
    return 0;
}

/* Proves init ran in this worker before the first case. */
static int run(const bct_call *call)
{
    if (!initialised) {
        bk_message(call, "needs-arg: run() called before a successful init()");
        return BCT_ERR_OTHER;
    }
    return bk_correct(call);
}

static const bct_target descriptor = {
    BCT_ABI_VERSION, "needs-arg", BCAST_VERSION, BCT_PROFILE_NUMPY,
    BK_ALL_OPS, BK_ALL_DTYPES, BC_MAX_RANK, BK_ALL_FLAGS, init, run, 0
};

const bct_target *bcast_target_v1(void);
const bct_target *bcast_target_v1(void) { return &descriptor; }
