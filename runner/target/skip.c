/* skip.c - capability checks: why a target cannot run a case, from what it declared (the skip reasons). */
#include "target/skip.h"

#include <stdio.h>
#include <string.h>

#include "bcast_ref.h"
#include "case/view.h"

/* See skip.h: the first reason found, in the order no expectation for the
 * profile, gradients at all, grad call form (B46), op, gradient, mode, arg
 * dtypes/ranks/layouts, result dtype/rank, target shape rank. */
const char *br_skip_reason(const br_case *c, const br_target_info *t, int profile, char *buf, size_t cap)
{
    if (br_pick_expect(c, profile) == NULL) {   /* issue #22: not a limit of the target, never probed */
        if (profile >= BCT_PROFILE_NUMPY2)
            snprintf(buf, cap, "no %s expectation: the case predates %s in cases/ (source %s)", bc_profile_name(profile),
                     profile == BCT_PROFILE_NUMPY2 ? "NumPy 2" : "torch 2", c->source);
        else
            snprintf(buf, cap, "no %s expectation: the case has only numpy2/torch2 ones (source %s)",
                     bc_profile_name(profile), c->source);
        return buf;
    }
    if (c->mode == BCT_MODE_GRAD && t->grad_ops == 0) {   /* no autodiff at all: not a limit, never probed */
        snprintf(buf, cap, "no gradients: the target declares no grad_ops");
        return buf;
    }
    if (c->mode == BCT_MODE_GRAD && c->grad_form != BCT_GRAD_VALUE && !(t->flags & BCT_CAP_GRAD_FORMS)) {
        /* B46: an adapter that does not read bct_call.grad_form would differentiate the value call;
         * checked before the probeable reasons, so --probe-limits never hands it over */
        snprintf(buf, cap, "unsupported: %s gradient (no grad_form)", c->grad_form == BCT_GRAD_INPLACE ? "in-place" : "out=");
        return buf;
    }
    if (!(t->ops & ((uint64_t)1 << c->op))) {
        snprintf(buf, cap, "unsupported: op %s", bc_op_name(c->op));
        return buf;
    }
    if (c->mode == BCT_MODE_GRAD && !(t->grad_ops & ((uint64_t)1 << c->op))) {
        snprintf(buf, cap, "unsupported: gradient of op %s", bc_op_name(c->op));
        return buf;
    }
    if (c->mode == BCT_MODE_INPLACE && !(t->flags & BCT_CAP_INPLACE)) { snprintf(buf, cap, "unsupported: in-place mode"); return buf; }
    if (c->mode == BCT_MODE_OUT && !(t->flags & BCT_CAP_OUT)) { snprintf(buf, cap, "unsupported: out= mode"); return buf; }
    if (!(t->flags & BCT_CAP_WEAK_SCALAR))   /* B34: an old target would read it as a strong 0-d array */
        for (int i = 0; i < c->nargs; i++)
            if (c->args[i].weak) { snprintf(buf, cap, "unsupported: weak scalar operand"); return buf; }
    const br_expect *e = br_pick_expect(c, profile);
    for (int i = 0; i < c->nargs; i++) {
        const br_arg *a = &c->args[i];
        if (a->dtype != BCT_NONE && !(t->dtypes & (1u << a->dtype))) {
            snprintf(buf, cap, "unsupported: dtype %s", bc_dtype_name(a->dtype));
            return buf;
        }
        if (t->max_rank > 0 && a->rank > t->max_rank) {
            snprintf(buf, cap, "unsupported: rank %d above the target's max_rank %d", a->rank, t->max_rank);
            return buf;
        }
        if (a->dtype != BCT_NONE && !(t->flags & BCT_CAP_STRIDED) && !br_is_contiguous(a)) {
            snprintf(buf, cap, "unsupported: strided/offset arg %s", a->name);
            return buf;
        }
    }
    if (e != NULL && e->status == BCT_OK) {
        if (e->dtype != BCT_NONE && !(t->dtypes & (1u << e->dtype))) {
            snprintf(buf, cap, "unsupported: result dtype %s", bc_dtype_name(e->dtype));
            return buf;
        }
        if (t->max_rank > 0 && e->rank > t->max_rank) {
            snprintf(buf, cap, "unsupported: result rank %d above the target's max_rank %d", e->rank, t->max_rank);
            return buf;
        }
    }
    if (t->max_rank > 0 && c->target_rank > t->max_rank) {
        snprintf(buf, cap, "unsupported: target shape rank %d above max_rank %d", c->target_rank, t->max_rank);
        return buf;
    }
    return NULL;
}

/* See skip.h: "unsupported: ..." reasons are declared limits. */
int br_skip_probeable(const char *reason)
{
    /* B34: a target without BCT_CAP_WEAK_SCALAR cannot be told the operand is weak. */
    if (strcmp(reason, "unsupported: weak scalar operand") == 0) return 0;
    /* B46: nor can one without BCT_CAP_GRAD_FORMS be told which call form to differentiate. */
    if (strstr(reason, "gradient (no grad_form)") != NULL) return 0;
    return strncmp(reason, "unsupported: ", 13) == 0;
}
