/* grad_form.c - B46: the gradient of an in-place call (self.op_(other), self
 * a non-leaf copy of args[0]) and of an out= call (op(x, y, out=out)). Each
 * form first runs its own forward call (in-place or out=, on a scratch copy
 * of self / out: every arg of a grad call is read-only), whose errors are
 * the gradient case's errors; torch then refuses autograd through out=
 * outright. What is left is the value form's backward pass, over the same
 * inputs, with the incoming gradient of the form's result (self's or out's
 * shape and dtype), which grad.c computes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ref_internal.h"

/* A scratch operand: args[k]'s shape and dtype, contiguous, zeroed (its
 * values never decide a forward error: only other's do, B20/B22). */
typedef struct scratch { bct_array a; int64_t strides[BC_MAX_RANK]; void *buf; } scratch;

static int scratch_of(const bct_array *src, scratch *s, bc_error *err)
{
    int64_t n = 1, st = 1;
    s->a = *src;
    for (int i = src->rank - 1; i >= 0; i--) {
        s->strides[i] = st;
        st *= src->shape[i] > 0 ? src->shape[i] : 1;
        n *= src->shape[i];
    }
    if (n < 0 || n > ((int64_t)1 << 28))
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "grad form: self/out too large for ref's scratch copy");
    s->buf = calloc((size_t)(n > 0 ? n : 1), (size_t)bc_dtype_size(src->dtype));
    if (s->buf == NULL) return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "out of memory");
    s->a.strides = s->strides;
    s->a.offset = 0;
    s->a.data = s->buf;
    return BCT_OK;
}

/* torch resizes out= (B8): the forward call's alloc_output; ctx holds the buffer. */
static void *scratch_alloc(void *ctx, int dtype, int rank, const int64_t *shape)
{
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    if (n < 0 || n > ((int64_t)1 << 28)) return NULL;
    void **buf = ctx;
    *buf = calloc((size_t)(n > 0 ? n : 1), (size_t)bc_dtype_size(dtype == BCT_NONE ? BCT_U8 : dtype));
    return *buf;
}

/* The form's forward call (mode inplace, args self-copy, other; or mode out,
 * args x, y, out-copy): BCT_OK or its error. */
static int forward_form(const bct_call *call, bc_error *err)
{
    int w = call->grad_form == BCT_GRAD_INPLACE ? 0 : 2, st;
    bct_array args[3];
    bct_call fwd = *call;
    scratch s;
    void *resized = NULL;
    if ((st = scratch_of(&call->args[w], &s, err)) != BCT_OK) return st;
    for (int k = 0; k < 3; k++) args[k] = call->args[k];
    args[w] = s.a;
    fwd.mode = call->grad_form == BCT_GRAD_INPLACE ? BCT_MODE_INPLACE : BCT_MODE_OUT;
    fwd.grad_form = BCT_GRAD_VALUE;
    fwd.nargs = call->grad_form == BCT_GRAD_INPLACE ? 2 : 3;
    fwd.args = args;
    fwd.alloc_output = scratch_alloc;
    fwd.alloc_grad = NULL;
    fwd.ctx = &resized;
    fwd.message = NULL;
    fwd.message_cap = 0;
    st = bc_eval(&fwd, err);
    free(s.buf);
    free(resized);
    return st;
}

/* torch's name of op in its out= autograd error (true division is div). */
static const char *torch_name(int op)
{
    return op == BCT_DIV ? "div" : bc_op_name(op);
}

/* See ref_internal.h. */
int bc_grad_form_call(const bct_call *call, bct_call *value, bct_array *args, bc_error *err)
{
    int st, any = 0;
    for (int k = 0; k < 2; k++) any |= bc_is_float(call->args[k].dtype);
    /* B46: torch refuses out= when an input requires grad, before any
     * forward check (measured in torch 1.13 and 2.15: even for shapes that
     * do not broadcast); out itself never requires grad. */
    if (call->grad_form == BCT_GRAD_OUT && any && bc_profile_is_torch(call->profile))
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1,
                       "%s(): functions with out=... arguments don't support automatic differentiation, "
                       "but one of the arguments requires grad.", torch_name(call->op));
    if ((st = forward_form(call, err)) != BCT_OK) return st;   /* the forward in-place/out= error wins */
    *value = *call;
    args[0] = call->args[0];
    args[1] = call->args[1];
    args[2] = call->args[call->nargs - 1];   /* the incoming gradient */
    value->grad_form = BCT_GRAD_VALUE;
    value->nargs = 3;
    value->args = args;
    return BCT_OK;
}
