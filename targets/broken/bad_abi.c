/* bad_abi.c - test target: a descriptor with abi_version 99, which the runner must refuse. */
#include "broken.h"

static const bct_target descriptor = {
    99, "bad-abi", BCAST_VERSION, BCT_PROFILE_NUMPY,
    BK_ALL_OPS, BK_ALL_DTYPES, BC_MAX_RANK, BK_ALL_FLAGS, NULL, bk_correct, 0
};

const bct_target *bcast_target_v1(void);
const bct_target *bcast_target_v1(void) { return &descriptor; }
