/* fixed_profile.c - test target: always evaluates in the NumPy profile, ignoring call->profile. */
#include "broken.h"

/* Correct for --profile numpy and wrong for --profile torch on divergent
 * cases: the e2e tests use it to see that --profile really changes which
 * expectation is checked. */
static int run(const bct_call *call)
{
    bct_call numpy = *call;
    numpy.profile = BCT_PROFILE_NUMPY;
    return bk_correct(&numpy);
}

BK_TARGET("broken-fixed-profile", run)
