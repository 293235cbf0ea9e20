/* show.c - `bcast-run show`: a case printed readably, with NumPy and torch one-liners that reproduce it. */
#include "cli/show.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_ref.h"
#include "judge/compare.h"
#include "judge/judge.h"
#include "case/view.h"

#define ONE_LINER_MAX 4096   /* storage elements per arg a one-liner spells out */

static const char *const np_dt[] = { "bool_", "int8", "uint8", "int16", "int32", "int64", "float32", "float64" };

static const char *np_name(int op)
{
    static const char *const n[BCT_OP_COUNT] = {
        "add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power", "maximum", "minimum",
        "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
        "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
        "where", "broadcast_to", NULL, "matmul", "broadcast_shapes", NULL, NULL,
        "copysign", "arctan2", "hypot", "fmod", "heaviside", "logaddexp", "logaddexp2", "nextafter",
        "ldexp", "gcd", "lcm", "left_shift", "right_shift", "float_power", "fmax", "fmin",
        NULL, NULL, "clip", NULL, NULL, NULL, NULL, NULL };
    return op >= 0 && op < BCT_OP_COUNT ? n[op] : NULL;
}

static const char *torch_name(int op)
{
    static const char *const n[BCT_OP_COUNT] = {
        "add", "sub", "mul", "true_divide", "floor_divide", "remainder", "pow", "maximum", "minimum",
        "eq", "ne", "lt", "le", "gt", "ge",
        "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
        "where", "broadcast_to", NULL, "matmul", "broadcast_shapes", NULL, NULL,
        "copysign", "atan2", "hypot", "fmod", "heaviside", "logaddexp", "logaddexp2", "nextafter",
        "ldexp", "gcd", "lcm", "bitwise_left_shift", "bitwise_right_shift", "float_power", "fmax", "fmin",
        NULL, NULL, "clamp", "lerp", "addcmul", "addcdiv", NULL, NULL };
    return op >= 0 && op < BCT_OP_COUNT ? n[op] : NULL;
}

/* The issue #25 ops (B38-B45) the tables above cannot name: torch.div's
 * rounding modes, and ONNX's prelu and gemm_bias through the rule (B45).
 * Prints the expression and returns 1, or returns 0. */
static int mathop_expr(br_buf *o, const br_case *c, int torch)
{
    const char *x = c->args[0].name, *y = c->nargs > 1 ? c->args[1].name : "", *z = c->nargs > 2 ? c->args[2].name : "";
    if (torch && (c->op == BCT_DIV_TRUNC || c->op == BCT_DIV_FLOOR))
        br_buf_printf(o, "torch.div(%s,%s,rounding_mode='%s')", x, y, c->op == BCT_DIV_TRUNC ? "trunc" : "floor");
    else if (c->op == BCT_PRELU)
        br_buf_printf(o, torch ? "torch.where(%s < 0, %s * %s.expand_as(%s), %s)"
                               : "np.where(%s < 0, %s * np.broadcast_to(%s, %s.shape), %s)", x, x, y, x, x);
    else if (c->op == BCT_GEMM_BIAS && torch)   /* Gemm takes 2-D A and B (B45): torch.mm refuses others; */
        br_buf_printf(o, "(torch.mm(%s,%s) if %s.dtype == %s.dtype == %s.dtype else (_ for _ in ()).throw("   /* one T */
                         "TypeError('Gemm takes one dtype T (B45)'))) + %s.expand(%s.shape[0], %s.shape[1])",
                      x, y, x, y, z, z, x, y);
    else if (c->op == BCT_GEMM_BIAS)            /* NumPy's matmul takes more, so the rule's checks are spelled out */
        br_buf_printf(o, "(np.matmul(%s,%s) if %s.ndim == %s.ndim == 2 and %s.dtype == %s.dtype == %s.dtype else "
                         "(_ for _ in ()).throw(ValueError('Gemm takes 2-D A and B of one dtype T (B45)'))) + "
                         "np.broadcast_to(%s, (%s.shape[0], %s.shape[1]))",
                      x, y, x, y, x, y, z, z, x, y);
    else
        return 0;
    return 1;
}

/* The shortest decimal that reads back as exactly v (as a float32 when
 * f32), always with a '.' or an exponent, so Python reads a float: "-0.0",
 * "0.1", "1e+300". */
static void py_float(br_buf *o, double v, int f32)
{
    char s[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(s, sizeof s, "%.*g", p, v);
        double back = strtod(s, NULL);
        if (f32 ? (float)back == (float)v : back == v) break;
    }
    br_buf_puts(o, s);
    if (strpbrk(s, ".en") == NULL) br_buf_puts(o, ".0");
}

/* Python literal of element i: it must read back as the same value. */
static void pyval(br_buf *o, int dtype, const void *data, int64_t i)
{
    const char *p = (const char *)data + i * bc_dtype_size(dtype);
    if (dtype == BCT_F32 || dtype == BCT_F64) {
        double v;
        if (dtype == BCT_F32) { float f; memcpy(&f, p, 4); v = f; } else memcpy(&v, p, 8);
        if (isnan(v)) br_buf_puts(o, "float('nan')");
        else if (isinf(v)) br_buf_puts(o, v > 0 ? "float('inf')" : "-float('inf')");
        else py_float(o, v, dtype == BCT_F32);
        return;
    }
    char v[64];
    br_format_value(dtype, data, i, v, sizeof v);
    if (dtype == BCT_BOOL) br_buf_puts(o, v[0] == '0' ? "False" : "True");
    else br_buf_puts(o, v);
}

static void pylist(br_buf *o, int dtype, const void *data, int64_t n)
{
    br_buf_puts(o, "[");
    for (int64_t i = 0; i < n; i++) {
        if (i) br_buf_puts(o, ",");
        pyval(o, dtype, data, i);
    }
    br_buf_puts(o, "]");
}

static void pytuple(br_buf *o, const int64_t *d, int rank)
{
    char s[BC_MAX_RANK * 21 + 4];
    br_shape_str(d, rank, s, sizeof s);
    br_buf_puts(o, s);
}

/* The target shape of broadcast_to/expand for np.broadcast_to: expand's -1
 * (B6: keep x's dim) resolved in Python from x's shape, as NumPy has no -1;
 * a -1 over a dim x lacks stays -1, and NumPy raises. */
static void np_target(br_buf *o, const br_case *c, const char *x)
{
    int r = c->target_rank < 0 ? 0 : c->target_rank, minus = 0;
    for (int i = 0; i < r; i++) minus |= c->target_shape[i] == -1;
    if (c->op != BCT_EXPAND || !minus) { pytuple(o, c->target_shape, r); return; }
    br_buf_printf(o, "(lambda t: tuple(%s.shape[i-len(t)+%s.ndim] if d == -1 and i-len(t)+%s.ndim >= 0 else d "
                     "for i, d in enumerate(t)))(", x, x, x);
    pytuple(o, c->target_shape, r);
    br_buf_puts(o, ")");
}

/* `name=<array>;` for numpy (torch=0) or torch (torch=1). A contiguous arg is
 * a plain array; a strided one is rebuilt over its storage with as_strided so
 * that stride-0 (overlapping) selves behave as in the case. */
static void py_arg(br_buf *o, const br_arg *a, int torch)
{
    int64_t n = a->storage;
    br_buf_printf(o, "%s=", a->name);
    if (a->dtype == BCT_NONE) { pytuple(o, a->shape, a->rank); br_buf_puts(o, "; "); return; }
    if (a->weak) { pyval(o, a->dtype, a->data, a->offset); br_buf_puts(o, "; "); return; }   /* B34: a Python scalar */
    const char *dt = np_dt[a->dtype];
    int negative = 0;
    for (int i = 0; i < a->rank; i++) negative |= a->strides[i] < 0;
    int64_t vcnt = br_shape_count(a->shape, a->rank);
    if (torch && negative && vcnt >= 0 && vcnt <= ONE_LINER_MAX) {
        /* torch has no negative strides: the view's values, copied */
        int64_t cnt = vcnt;
        void *v = malloc((size_t)(cnt ? cnt : 1) * (size_t)bc_dtype_size(a->dtype));
        if (v == NULL) return;
        br_gather(a->data, a->dtype, a->rank, a->shape, a->strides, a->offset, v);
        br_buf_puts(o, "torch.tensor(");
        pylist(o, a->dtype, v, cnt);
        br_buf_printf(o, ",dtype=torch.%s).reshape(", a->dtype == BCT_BOOL ? "bool" : dt);
        pytuple(o, a->shape, a->rank);
        br_buf_puts(o, "); ");
        free(v);
        return;
    }
    if (torch && a->dtype == BCT_BOOL) dt = "bool";
    if (br_is_contiguous(a)) {
        int64_t cnt = vcnt;
        br_buf_printf(o, torch ? "torch.tensor(" : "np.array(");
        pylist(o, a->dtype, a->data, cnt);
        br_buf_printf(o, torch ? ",dtype=torch.%s).reshape(" : ",dtype=np.%s).reshape(", dt);
        pytuple(o, a->shape, a->rank);
        br_buf_puts(o, "); ");
        return;
    }
    if (torch) {
        br_buf_puts(o, "torch.tensor(");
        pylist(o, a->dtype, a->data, n);
        br_buf_printf(o, ",dtype=torch.%s).as_strided(", dt);
        pytuple(o, a->shape, a->rank);
        br_buf_puts(o, ",");
        pytuple(o, a->strides, a->rank);
        br_buf_printf(o, ",%lld); ", (long long)a->offset);
    } else {
        int es = bc_dtype_size(a->dtype);
        br_buf_puts(o, "np.lib.stride_tricks.as_strided(np.array(");
        pylist(o, a->dtype, a->data, n);
        br_buf_printf(o, ",dtype=np.%s)[%lld:],", dt, (long long)a->offset);
        pytuple(o, a->shape, a->rank);
        br_buf_puts(o, ",(");
        for (int i = 0; i < a->rank; i++) br_buf_printf(o, "%lld,", (long long)(a->strides[i] * es));
        br_buf_puts(o, ")); ");
    }
}

/* The gradients' one-liner (grad mode, B23-B31): torch runs autograd
 * (leaves that require grad, backward with the incoming gradient); NumPy
 * runs the forward op (for its errors) and then each floating-point input's
 * formula, summed to its shape by st (sum over the stretched axes, reshape).
 * Both print the tuple of gradients, in input order. */
/* B46: torch's forward call in the case's call form, assigning r: the
 * in-place method on a non-leaf copy of self, or out= into a plain copy of out. */
static void torch_form_call(br_buf *o, const br_case *c, const char *x, const char *y)
{
    if (c->grad_form == BCT_GRAD_INPLACE)
        br_buf_printf(o, "r=%s.clone(); r.%s_(%s)", x, torch_name(c->op), y);
    else
        br_buf_printf(o, "r=%s.clone(); torch.%s(%s,%s,out=r)", c->args[2].name, torch_name(c->op), x, y);
}

static void grad_one_liner(br_buf *o, const br_case *c, int torch)
{
    int nin = c->nargs - 1 - (c->grad_form == BCT_GRAD_OUT), w = c->op == BCT_WHERE;   /* B46: out gets none */
    const char *x = c->args[w].name, *y = nin > 1 ? c->args[w + 1].name : "";
    const char *np_op = np_name(c->op);
    int diff[3] = { 0, 0, 0 }, any = 0;
    for (int i = w; i < nin; i++) any |= diff[i] = c->args[i].dtype == BCT_F32 || c->args[i].dtype == BCT_F64;
    if (torch) {
        for (int i = 0; i < nin; i++)
            if (diff[i]) br_buf_printf(o, "%s=%s.detach().clone().requires_grad_(); ", c->args[i].name, c->args[i].name);
        if (c->grad_form != BCT_GRAD_VALUE) {
            torch_form_call(o, c, x, y);
        } else if (br_buf_puts(o, "r="), c->op == BCT_EXPAND || c->op == BCT_BROADCAST_TO) {
            br_buf_printf(o, "%s.%s(", x, c->op == BCT_EXPAND ? "expand" : "broadcast_to");
            pytuple(o, c->target_shape, c->target_rank < 0 ? 0 : c->target_rank);
            br_buf_puts(o, ")");
        } else {
            br_buf_printf(o, "torch.%s(", torch_name(c->op));
            for (int i = 0; i < nin; i++) br_buf_printf(o, "%s%s", i ? "," : "", c->args[i].name);
            br_buf_puts(o, ")");
        }
        br_buf_puts(o, "; r.backward(grad); print(repr((");
        for (int i = 0; i < nin; i++) if (diff[i]) br_buf_printf(o, "%s.grad,", c->args[i].name);
        br_buf_puts(o, ")))\"\n");
        return;
    }
    /* NumPy: the forward op first (its errors are grad mode's too) */
    if (c->grad_form == BCT_GRAD_INPLACE) {   /* B46: the in-place call, on a copy of self */
        br_buf_printf(o, "s_=%s.copy(); np.%s(s_,%s,out=s_); ", x, np_op ? np_op : "add", y);
    } else if (c->grad_form == BCT_GRAD_OUT) {
        br_buf_printf(o, "np.%s(%s,%s,out=%s.copy()); ", np_op ? np_op : "add", x, y, c->args[2].name);
    } else if (c->op == BCT_EXPAND || c->op == BCT_BROADCAST_TO) {
        br_buf_printf(o, "np.broadcast_to(%s,", x);
        np_target(o, c, x);
        br_buf_puts(o, "); ");
    } else {
        br_buf_printf(o, "np.%s(", np_op ? np_op : "add");
        for (int i = 0; i < nin; i++) br_buf_printf(o, "%s%s", i ? "," : "", c->args[i].name);
        br_buf_puts(o, "); ");
    }
    if (!any) { br_buf_puts(o, "raise TypeError('no floating-point input: nothing to differentiate (B31)')\"\n"); return; }
    br_buf_puts(o, "st=lambda t,s,l=None:(lambda l,a:t.reshape(s) if not a else np.sum(t,axis=a,keepdims=True).reshape(s))"
                   "(t.ndim-len(s),tuple(range(t.ndim-len(s)))+tuple(t.ndim-len(s)+i for i,d in enumerate(s) "
                   "if d==1 and t.shape[t.ndim-len(s)+i]!=1)); ");
    if (c->op == BCT_MATMUL)
        br_buf_printf(o, "x2=%s if %s.ndim>1 else %s[None]; y2=%s if %s.ndim>1 else %s[:,None]; "
                         "g2=grad.reshape(np.broadcast_shapes(x2.shape[:-2],y2.shape[:-2])+(x2.shape[-2],y2.shape[-1])); ",
                      x, x, x, y, y, y);
    if (c->op == BCT_MAXIMUM || c->op == BCT_MINIMUM)
        br_buf_printf(o, "w=np.isnan(%s)|(%s%s%s); ", x, x, c->op == BCT_MAXIMUM ? ">" : "<", y);
    br_buf_puts(o, "print(repr((");
    for (int i = w; i < nin; i++) {
        if (!diff[i]) continue;
        const char *a = c->args[i].name, *dt = np_dt[c->args[i].dtype];
        int first = i == w;
        br_buf_puts(o, "st(");
        switch (c->op) {
        case BCT_SUB: br_buf_puts(o, first ? "grad" : "-grad"); break;
        case BCT_MUL: br_buf_printf(o, "grad*%s", first ? y : x); break;
        case BCT_DIV: if (first) br_buf_printf(o, "grad/%s", y); else br_buf_printf(o, "-grad*%s/%s**2", x, y); break;
        case BCT_POW:
            if (first) br_buf_printf(o, "grad*%s*%s**(%s-1)", y, x, y);
            else br_buf_printf(o, "grad*%s**%s*np.log(%s)", x, y, x);
            break;
        case BCT_MAXIMUM: case BCT_MINIMUM: br_buf_printf(o, "np.where(%sw,grad,np.zeros_like(grad))", first ? "" : "~"); break;
        case BCT_WHERE: br_buf_printf(o, "np.where(%s%s,grad,np.zeros_like(grad))", first ? "" : "~", c->args[0].name); break;
        case BCT_MATMUL:
            if (first) br_buf_puts(o, "g2@np.swapaxes(y2,-1,-2),x2.shape).reshape(x.shape");
            else br_buf_puts(o, "np.swapaxes(x2,-1,-2)@g2,y2.shape).reshape(y.shape");
            break;
        default: br_buf_puts(o, "grad"); break;   /* add, expand, broadcast_to */
        }
        if (c->op != BCT_MATMUL) br_buf_printf(o, ",%s.shape", a);
        br_buf_printf(o, ").astype(np.%s),", dt);
    }
    br_buf_puts(o, ")))\"\n");
}

/* The interpreter of each generation's oracles: Debian's (NumPy 1.24, torch
 * 1.13) and .venv/oracles' (NumPy 2, torch 2; `sh .ci/install-deps`). */
static const char *const ORACLE_PYTHON[2] = { "/usr/bin/python3", ".venv/oracles/bin/python" };
static const char *const ORACLE_LABEL[2][2] = { { "NumPy", "torch" }, { "NumPy 2", "torch 2" } };

/* One library's one-liner (torch: 0 NumPy, 1 torch) for generation gen2 (0: 1, 1: 2),
 * labelled "NumPy:", "torch:", "NumPy 2:" or "torch 2:". */
static void one_liner(br_buf *o, const br_case *c, int torch, int gen2)
{
    for (int i = 0; i < c->nargs; i++)
        if (c->args[i].dtype != BCT_NONE && c->args[i].storage > ONE_LINER_MAX) {
            br_buf_printf(o, "%s: (arg %s has %lld elements: too large for a one-liner)\n", ORACLE_LABEL[gen2][torch],
                          c->args[i].name, (long long)c->args[i].storage);
            return;
        }
    const char *name = torch ? torch_name(c->op) : np_name(c->op);
    const char *m = torch ? "torch" : "np";
    if (name == NULL && c->op >= BCT_COPYSIGN && c->op != BCT_PRELU && c->op != BCT_GEMM_BIAS &&
        !(torch && (c->op == BCT_DIV_TRUNC || c->op == BCT_DIV_FLOOR)))
        return;   /* an issue #25 op this library does not have: no one-liner */
    br_buf_printf(o, "%s: %s -c \"import %s; ", ORACLE_LABEL[gen2][torch], ORACLE_PYTHON[gen2],
                  torch ? "torch" : "numpy as np");
    for (int i = 0; i < c->nargs; i++) py_arg(o, &c->args[i], torch);
    if (c->mode == BCT_MODE_GRAD) { grad_one_liner(o, c, torch); return; }
    const char *x = c->nargs > 0 ? c->args[0].name : "", *y = c->nargs > 1 ? c->args[1].name : "";
    br_buf_puts(o, "print(repr(");
    if (c->op == BCT_BROADCAST_SHAPES) {
        br_buf_printf(o, "%s.broadcast_shapes(", m);
        for (int i = 0; i < c->nargs; i++) br_buf_printf(o, "%s%s", i ? "," : "", c->args[i].name);
        br_buf_puts(o, ")");
    } else if (c->op == BCT_BROADCAST_TO || c->op == BCT_EXPAND) {
        if (torch) br_buf_printf(o, "%s.%s(", x, c->op == BCT_EXPAND ? "expand" : "broadcast_to");
        else br_buf_printf(o, "np.broadcast_to(%s,", x);
        if (torch) pytuple(o, c->target_shape, c->target_rank < 0 ? 0 : c->target_rank);
        else np_target(o, c, x);
        br_buf_puts(o, ")");
    } else if (c->op == BCT_AXIS_ADD) {
        /* B10, B11: y's dims line up with x's from axis on (-1: rank(x) - rank(y)),
         * then broadcast; an axis out of range raises, as the rule says */
        br_buf_printf(o, "(lambda a: %s + %s.reshape(tuple(%s.shape) + (1,)*(%s.ndim - a - %s.ndim)) "
                      "if %s.ndim <= %s.ndim and 0 <= a <= %s.ndim - %s.ndim "
                      "else (_ for _ in ()).throw(ValueError('axis out of range (B10)')))"
                      "(%lld if %lld != -1 else %s.ndim - %s.ndim)", x, y, y, x, y, y, x, x, y,
                      (long long)c->axis, (long long)c->axis, x, y);
    } else if (c->op == BCT_UNI_ADD) {
        br_buf_printf(o, torch ? "%s + %s.expand_as(%s)" : "%s + np.broadcast_to(%s, %s.shape)", x, y, x);
    } else if (c->op >= BCT_COPYSIGN && mathop_expr(o, c, torch)) {
        /* printed by mathop_expr */
    } else if (name != NULL) {
        int n = c->mode == BCT_MODE_OUT ? c->nargs - 1 : c->nargs;
        if (c->mode == BCT_MODE_INPLACE && torch) {
            br_buf_printf(o, "%s.%s_(", x, name);
            for (int i = 1; i < n; i++) br_buf_printf(o, "%s%s", i > 1 ? "," : "", c->args[i].name);
            br_buf_puts(o, ")");
        } else {
            br_buf_printf(o, "%s.%s(", m, name);
            for (int i = 0; i < n; i++) br_buf_printf(o, "%s%s", i ? "," : "", c->args[i].name);
            if (c->mode == BCT_MODE_INPLACE) br_buf_printf(o, ",out=%s", x);
            if (c->mode == BCT_MODE_OUT) br_buf_printf(o, ",out=%s", c->args[c->nargs - 1].name);
            br_buf_puts(o, ")");
        }
    }
    br_buf_puts(o, "))\"\n");
}

#define SHOW_MAX 64

void br_show_case(const br_case *c, br_buf *o)
{
    br_buf_printf(o, "case %s   (%s:%d)\n", c->id, c->file, c->line);
    br_buf_printf(o, "  suite %s; tags: %s; rules: %s; source: %s\n", c->suite, c->tags, c->rules, c->source);
    br_buf_printf(o, "  op %s, mode %s\n", bc_op_name(c->op),
                  c->mode == BCT_MODE_INPLACE ? "inplace" : c->mode == BCT_MODE_OUT ? "out"
                  : c->mode != BCT_MODE_GRAD ? "value"
                  : c->grad_form == BCT_GRAD_INPLACE ? "grad inplace (B46: of self.op_(other) on a copy of self; "
                                                       "the last arg is the incoming gradient)"
                  : c->grad_form == BCT_GRAD_OUT ? "grad out (B46: of op(x, y, out=out); the last arg is the "
                                                   "incoming gradient)"
                  : "grad (the last arg is the incoming gradient)");
    if (c->has_axis) br_buf_printf(o, "  axis %lld\n", (long long)c->axis);
    if (c->target_rank >= 0) { br_buf_puts(o, "  target shape "); pytuple(o, c->target_shape, c->target_rank); br_buf_puts(o, "\n"); }
    for (int i = 0; i < c->nargs; i++) {
        const br_arg *a = &c->args[i];
        char sh[BC_MAX_RANK * 21 + 4], st[BC_MAX_RANK * 21 + 4];
        br_shape_str(a->shape, a->rank, sh, sizeof sh);
        if (a->dtype == BCT_NONE) { br_buf_printf(o, "  %s: shape %s\n", a->name, sh); continue; }
        br_shape_str(a->strides, a->rank, st, sizeof st);
        br_buf_printf(o, "  %s: %s %s strides %s offset %lld storage %lld\n", a->name, br_arg_dtype_name(a), sh, st,
                      (long long)a->offset, (long long)a->storage);
        int64_t n = br_shape_count(a->shape, a->rank);
        if (n < 0 || n > (int64_t)1 << 24) { br_buf_puts(o, "     view: too large to print\n"); continue; }
        void *v = malloc((size_t)(n ? n : 1) * (size_t)bc_dtype_size(a->dtype));
        if (v != NULL) {
            char vals[2048];
            br_gather(a->data, a->dtype, a->rank, a->shape, a->strides, a->offset, v);
            br_format_values(a->dtype, v, n, SHOW_MAX, vals, sizeof vals);
            br_buf_printf(o, "     view (C order): %s\n", vals);
            free(v);
        }
    }
    for (int i = 0; i < c->nexpect; i++) {
        const br_expect *e = &c->expect[i];
        const char *p = e->profile == BR_PROFILE_ANY ? "*" : bc_profile_name(e->profile);
        if (e->status != BCT_OK) { br_buf_printf(o, "  expect %s: error %s\n", p, bc_status_name(e->status)); continue; }
        char sh[BC_MAX_RANK * 21 + 4];
        br_shape_str(e->shape, e->rank, sh, sizeof sh);
        br_buf_printf(o, "  expect %s: %s%s%s %s %s, %s", p, e->grad_arg >= 0 ? "gradient of " : "",
                      e->grad_arg >= 0 ? c->args[e->grad_arg].name : "", e->grad_arg >= 0 ? ":" : "",
                      e->dtype == BCT_NONE ? "-" : bc_dtype_name(e->dtype), sh, e->cmp == BR_CMP_EXACT ? "exact" : "ulp");
        if (e->cmp == BR_CMP_ULP) br_buf_printf(o, " %lld", (long long)e->ulp);
        if (e->abs_tol > 0) br_buf_printf(o, " abs %a", e->abs_tol);
        if (e->data_kind == BR_DATA_DIGEST) br_buf_printf(o, ", digest %016llx\n", (unsigned long long)e->digest);
        else if (e->dtype != BCT_NONE) {
            char vals[2048];
            br_format_values(e->dtype, e->values, e->nelem, SHOW_MAX, vals, sizeof vals);
            br_buf_printf(o, ": %s\n", vals);
        } else br_buf_puts(o, "\n");
    }
    for (int i = 0; i < c->nmsg; i++) br_buf_printf(o, "  message %s\n", c->msg[i]);
    br_show_one_liners(c, o);
}

void br_show_one_liners(const br_case *c, br_buf *out)
{
    unsigned gens = br_source_profiles(c->source);
    for (int gen2 = 0; gen2 < 2; gen2++)
        if (gens & (gen2 ? 12u : 3u)) {   /* the generations whose oracles the case names */
            one_liner(out, c, 0, gen2);
            one_liner(out, c, 1, gen2);
        }
}

void br_show_side_by_side(int dtype, const int64_t *shape, int rank, const void *expected,
                          const void *actual, int64_t n, int max, br_buf *out)
{
    if (n > max) { br_buf_printf(out, "  (%lld elements: too many to show side by side)\n", (long long)n); return; }
    br_buf_printf(out, "  %-16s %-26s %-26s\n", "index", "expected", "actual");
    for (int64_t i = 0; i < n; i++) {
        char ix[128], e[48], a[48];
        br_format_index(shape, rank, i, ix, sizeof ix);
        br_format_value(dtype, expected, i, e, sizeof e);
        br_format_value(dtype, actual, i, a, sizeof a);
        int64_t dummy;
        int differs = br_compare(dtype, (const char *)expected + i * bc_dtype_size(dtype),
                                 (const char *)actual + i * bc_dtype_size(dtype), 1, BR_CMP_EXACT, 0, &dummy);
        br_buf_printf(out, "  %-16s %-26s %-26s%s\n", ix, e, a, differs ? "  <-- differs" : "");
    }
}
