/* call.c - turning a loaded case into a target call. */
#include "target/call.h"

#include <string.h>

#include "bcast_ref.h"

int br_writable_arg(const br_case *c)
{
    return c->mode == BCT_MODE_INPLACE ? 0 : c->mode == BCT_MODE_OUT ? c->nargs - 1 : -1;
}

size_t br_arg_storage_bytes(const br_arg *a)
{
    return a->dtype == BCT_NONE ? 0 : (size_t)a->storage * (size_t)bc_dtype_size(a->dtype);
}

void br_case_call(const br_case *c, int profile, bct_array *args, bct_call *call)
{
    for (int i = 0; i < c->nargs; i++) {
        const br_arg *a = &c->args[i];
        args[i].dtype = a->dtype;
        args[i].rank = a->rank;
        args[i].shape = a->shape;
        args[i].strides = a->strides;
        args[i].offset = a->offset;
        args[i].data = a->data;
    }
    memset(call, 0, sizeof *call);
    call->op = c->op;
    call->mode = c->mode;
    call->profile = profile;
    call->nargs = c->nargs;
    call->args = args;
    call->axis = c->axis;
    call->target_rank = c->target_rank < 0 ? 0 : c->target_rank;   /* no `attr shape`: none */
    call->target_shape = c->target_shape;
    /* B34: a target that does not claim BCT_CAP_WEAK_SCALAR is never given
     * such a case (br_skip_reason), so the bits only reach targets that read them. */
    for (int i = 0; i < c->nargs && i < 32; i++)
        if (c->args[i].weak) call->weak_args |= 1u << i;
    /* B46: likewise only a target claiming BCT_CAP_GRAD_FORMS gets a nonzero form */
    call->grad_form = c->mode == BCT_MODE_GRAD ? c->grad_form : BCT_GRAD_VALUE;
}
