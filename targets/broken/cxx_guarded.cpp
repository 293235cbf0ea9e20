// cxx_guarded.cpp - test target: a C++ adapter that includes bcast_target.h, so its entry point has C linkage; adds two float32 scalars (0-d add only).
#include <cstdio>

#include "bcast_target.h"

namespace {

int run(const bct_call *call)
{
    const bct_array &x = call->args[0], &y = call->args[1];
    if (x.rank != 0 || y.rank != 0) {
        std::snprintf(call->message, call->message_cap, "only 0-d operands");
        return BCT_ERR_OTHER;
    }
    float *out = static_cast<float *>(call->alloc_output(call->ctx, BCT_F32, 0, nullptr));
    if (out == nullptr) return BCT_ERR_OTHER;
    *out = static_cast<const float *>(x.data)[x.offset] + static_cast<const float *>(y.data)[y.offset];
    return BCT_OK;
}

const bct_target descriptor = {
    BCT_ABI_VERSION, "cxx-guarded", "1.0", BCT_PROFILE_NUMPY,
    UINT64_C(1) << BCT_ADD, 1u << BCT_F32, 0, BCT_CAP_STRIDED, nullptr, run, 0,
};

} // namespace

const bct_target *bcast_target_v1(void) { return &descriptor; }
