/* ref_target.c - the bundled reference target (build/targets/ref.so): bc_eval behind the target ABI. */
#include <stdio.h>
#include <string.h>

#include "bcast_ref.h"
#include "bcast_target.h"

#ifndef BCAST_VERSION
#error "BCAST_VERSION must be defined (the top Makefile passes it with -D)"
#endif

/* Runs one case on ref. bc_eval fills call->message itself; writing err's
 * message again costs nothing and guarantees the runner never reports an
 * empty reason, whatever the message buffer held before the call. */
static int ref_run(const bct_call *call)
{
    bc_error err;
    memset(&err, 0, sizeof err);
    int status = bc_eval(call, &err);
    if (status != BCT_OK && call->message != NULL && call->message_cap > 0)
        snprintf(call->message, call->message_cap, "%s",
                 err.message[0] ? err.message : bc_status_name(status));
    return status;
}

static const bct_target ref_descriptor = {
    .abi_version = BCT_ABI_VERSION,
    .name = "bcast-ref",
    .version = BCAST_VERSION,
    .profile = BCT_PROFILE_NUMPY,
    .ops = (UINT64_C(1) << BCT_OP_COUNT) - 1,
    .dtypes = (UINT32_C(1) << BCT_DTYPE_COUNT) - 1,
    .max_rank = BC_MAX_RANK,
    .flags = BCT_CAP_STRIDED | BCT_CAP_INPLACE | BCT_CAP_OUT | BCT_CAP_WEAK_SCALAR |   /* B34 */
             BCT_CAP_GRAD_FORMS,   /* B46 */
    .init = NULL,
    .run = ref_run,
    .grad_ops = BC_GRAD_OPS,   /* every op ref differentiates (B23-B31) */
};

const bct_target *bcast_target_v1(void);

const bct_target *bcast_target_v1(void)
{
    return &ref_descriptor;
}
