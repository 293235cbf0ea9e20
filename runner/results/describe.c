/* describe.c - a result record's descriptive fields (id, suite, op, mode, dtypes, shapes, strides, features) from its case. */
#include "results/describe.h"

#include <stdio.h>

#include "bcast_ref.h"
#include "base/util.h"
#include "results/case_features.h"

/* The case-format word of a mode (BCT_MODE_*). */
static const char *mode_name(int m)
{
    return m == BCT_MODE_INPLACE ? "inplace" : m == BCT_MODE_OUT ? "out" : m == BCT_MODE_GRAD ? "grad" : "value";
}

/* See describe.h: strings are the case's own or copied into rep. */
void br_rec_describe(br_report *rep, br_rec *x, const br_case *c, int profile)
{
    char feats[1024];
    br_case_features(c, profile, feats, sizeof feats);
    x->features = br_report_str(rep, feats);
    x->id = c->id;          /* case strings outlive the report */
    x->suite = c->suite;
    x->tags = c->tags;
    x->rules = c->rules;
    x->op = bc_op_name(c->op);
    x->mode = mode_name(c->mode);
    x->file = c->file;
    x->line = c->line;
    br_buf d = { 0 }, s = { 0 }, st = { 0 };
    for (int i = 0; i < c->nargs; i++) {
        const br_arg *a = &c->args[i];
        char sh[BC_MAX_RANK * 21 + 4];
        br_buf_puts(&d, i ? " " : "");
        br_buf_puts(&d, a->dtype == BCT_NONE ? "-" : bc_dtype_name(a->dtype));
        br_shape_str(a->shape, a->rank, sh, sizeof sh);
        br_buf_puts(&s, i ? " " : "");
        br_buf_puts(&s, sh);
        if (a->dtype != BCT_NONE) br_shape_str(a->strides, a->rank, sh, sizeof sh);
        else snprintf(sh, sizeof sh, "-");
        br_buf_puts(&st, i ? " " : "");
        br_buf_puts(&st, sh);
    }
    x->dtypes = br_report_str(rep, d.s);
    x->shapes = br_report_str(rep, s.s);
    x->strides = br_report_str(rep, st.s);
    br_buf_free(&d);
    br_buf_free(&s);
    br_buf_free(&st);
}
