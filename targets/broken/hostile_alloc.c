/* hostile_alloc.c - test target: makes one absurd alloc_output request per case and reports whether it was refused. */
#include "broken.h"

/* Each op makes a different request the ABI says the runner must refuse
 * (alloc_output returns NULL). The target always returns BCT_ERR_OTHER with
 * a message saying "refused as expected" or "GRANTED", so the e2e test can
 * read the verdict out of the failure reason. Ops without a request here,
 * and in-place/out= cases (which need no output), run correctly. */
static int run(const bct_call *call)
{
    static const int64_t huge[1] = { INT64_C(1) << 40 };           /* 8 TiB of f64 */
    static const int64_t overflow[2] = { INT64_C(1) << 62, 8 };    /* count overflows int64 */
    static const int64_t negative[2] = { 3, -2 };
    static const int64_t small[1] = { 1 };
    const char *what;
    void *got;
    if (call->mode != BCT_MODE_VALUE)
        return bk_correct(call);
    switch (call->op) {
    case BCT_ADD:
        what = "8 TiB output";
        got = call->alloc_output(call->ctx, BCT_F64, 1, huge);
        break;
    case BCT_SUB:
        what = "overflowing element count";
        got = call->alloc_output(call->ctx, BCT_F64, 2, overflow);
        break;
    case BCT_MUL:
        what = "negative extent";
        got = call->alloc_output(call->ctx, BCT_I32, 2, negative);
        break;
    case BCT_EQ:
        what = "rank 1000000";
        got = call->alloc_output(call->ctx, BCT_BOOL, 1000000, small);
        break;
    case BCT_WHERE:
        what = "rank -1";
        got = call->alloc_output(call->ctx, BCT_I32, -1, small);
        break;
    case BCT_FLOOR_DIVIDE:
        what = "dtype 99";
        got = call->alloc_output(call->ctx, 99, 1, small);
        break;
    case BCT_BROADCAST_SHAPES:
        what = "second alloc_output call";
        got = call->alloc_output(call->ctx, BCT_NONE, 1, small);
        if (got != NULL)
            got = call->alloc_output(call->ctx, BCT_NONE, 1, small);
        break;
    default:
        return bk_correct(call);
    }
    if (got == NULL)
        bk_message(call, "hostile-alloc: %s refused as expected", what);
    else
        bk_message(call, "hostile-alloc: %s GRANTED", what);
    return BCT_ERR_OTHER;
}

BK_TARGET("hostile-alloc", run)
