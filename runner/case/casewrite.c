/* casewrite.c - the writer of docs/case-format.md (the inverse of caseio.c's reader). */
#include "case/casewrite.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bcast_ref.h"

void br_casefile_header(br_buf *out, const char *comment, const char *caseset)
{
    br_buf_puts(out, "bcast-cases 1\n");
    for (const char *s = comment; s != NULL && *s;) {
        size_t n = strcspn(s, "\n");
        br_buf_puts(out, "# ");
        br_buf_put(out, s, n);
        br_buf_puts(out, "\n");
        s += n;
        if (*s == '\n') s++;
    }
    if (caseset != NULL && caseset[0]) br_buf_printf(out, "# case-set %s\n", caseset);
}

/* One float token: the exact value as a C99 hex float ("0x1.8p+1", "-0x0p+0"). */
static void put_float(br_buf *out, double v)
{
    if (isnan(v)) { br_buf_puts(out, "nan"); return; }
    if (isinf(v)) { br_buf_puts(out, v > 0 ? "inf" : "-inf"); return; }
    char t[40];
    snprintf(t, sizeof t, "%a", v);
    br_buf_puts(out, t);
}

void br_write_values(br_buf *out, int dtype, const void *data, int64_t n)
{
    const char *p = data;
    int es = bc_dtype_size(dtype);
    for (int64_t i = 0; i < n; i++, p += es) {
        if (i) br_buf_put(out, " ", 1);
        switch (dtype) {
        case BCT_BOOL: br_buf_puts(out, *(const unsigned char *)p ? "1" : "0"); break;
        case BCT_I8: { int8_t v; memcpy(&v, p, 1); br_buf_printf(out, "%d", v); break; }
        case BCT_U8: { uint8_t v; memcpy(&v, p, 1); br_buf_printf(out, "%u", v); break; }
        case BCT_I16: { int16_t v; memcpy(&v, p, 2); br_buf_printf(out, "%d", v); break; }
        case BCT_I32: { int32_t v; memcpy(&v, p, 4); br_buf_printf(out, "%ld", (long)v); break; }
        case BCT_I64: { int64_t v; memcpy(&v, p, 8); br_buf_printf(out, "%lld", (long long)v); break; }
        case BCT_F32: { float v; memcpy(&v, p, 4); put_float(out, (double)v); break; }
        default: { double v; memcpy(&v, p, 8); put_float(out, v); break; }
        }
    }
}

static void put_shape(br_buf *out, const int64_t *dims, int rank)
{
    char s[BC_MAX_RANK * 21 + 4];
    br_shape_str(dims, rank, s, sizeof s);
    br_buf_puts(out, s);
}

static void write_arg(br_buf *out, const br_arg *a)
{
    br_buf_printf(out, "arg %s %s ", a->name, br_arg_dtype_name(a));
    put_shape(out, a->shape, a->rank);
    br_buf_puts(out, " ");
    if (a->dtype == BCT_NONE) {   /* the format's convention: strides 0 over one element */
        int64_t zero[BC_MAX_RANK] = { 0 };
        put_shape(out, zero, a->rank);
        br_buf_puts(out, " 0 1\n");
        return;
    }
    put_shape(out, a->strides, a->rank);
    br_buf_printf(out, " %lld %lld\n", (long long)a->offset, (long long)a->storage);
    if (a->data_kind == BR_DATA_PATTERN) {
        br_buf_printf(out, "pattern ramp %lld %lld %lld %lld %lld\n", (long long)a->pat[0], (long long)a->pat[1],
                      (long long)a->pat[2], (long long)a->pat[3], (long long)a->pat[4]);
        return;
    }
    br_buf_puts(out, a->storage ? "values " : "values");
    br_write_values(out, a->dtype, a->data, a->storage);
    br_buf_puts(out, "\n");
}

/* "expect P ok DTYPE SHAPE CMP", or in grad mode "expect P grad NAME DTYPE
 * SHAPE CMP" (the input named by grad_arg), then its values or digest. */
static void write_expect(br_buf *out, const br_case *c, const br_expect *e)
{
    const char *p = e->profile == BR_PROFILE_ANY ? "*" : bc_profile_name(e->profile);
    if (e->status != BCT_OK) { br_buf_printf(out, "expect %s error %s\n", p, bc_status_name(e->status)); return; }
    if (c->mode == BCT_MODE_GRAD) br_buf_printf(out, "expect %s grad %s ", p, c->args[e->grad_arg].name);
    else br_buf_printf(out, "expect %s ok ", p);
    br_buf_printf(out, "%s ", e->dtype == BCT_NONE ? "-" : bc_dtype_name(e->dtype));
    put_shape(out, e->shape, e->rank);
    if (e->cmp == BR_CMP_ULP) {
        br_buf_printf(out, " ulp %lld", (long long)e->ulp);
        if (e->abs_tol > 0) { br_buf_puts(out, " abs "); put_float(out, e->abs_tol); }
        br_buf_puts(out, "\n");
    } else br_buf_puts(out, " exact\n");
    if (e->data_kind == BR_DATA_DIGEST) {
        br_buf_printf(out, "digest fnv1a64 %016llx %lld\n", (unsigned long long)e->digest, (long long)e->nelem);
        return;
    }
    if (e->dtype == BCT_NONE || e->nelem == 0) { br_buf_puts(out, "values\n"); return; }
    br_buf_puts(out, "values ");
    br_write_values(out, e->dtype, e->values, e->nelem);
    br_buf_puts(out, "\n");
}

/* "KEY" or "KEY WORDS" */
static void put_list(br_buf *out, const char *key, const char *words)
{
    br_buf_puts(out, key);
    if (words != NULL && words[0]) { br_buf_puts(out, " "); br_buf_puts(out, words); }
    br_buf_puts(out, "\n");
}

void br_case_write(const br_case *c, br_buf *out)
{
    br_buf_printf(out, "case %s\nsuite %s\n", c->id, c->suite);
    put_list(out, "tags", c->tags);
    put_list(out, "rules", c->rules);
    static const char *const mode_names[] = { "value", "inplace", "out", "grad" };
    static const char *const form_names[] = { "", " inplace", " out" };   /* B46: mode grad's call form */
    br_buf_printf(out, "op %s\nmode %s%s\n", bc_op_name(c->op), mode_names[c->mode],
                  c->mode == BCT_MODE_GRAD && c->grad_form > 0 && c->grad_form <= 2 ? form_names[c->grad_form] : "");
    put_list(out, "source", c->source);
    if (c->has_axis) br_buf_printf(out, "attr axis %lld\n", (long long)c->axis);
    if (c->target_rank >= 0) {
        br_buf_puts(out, "attr shape ");
        put_shape(out, c->target_shape, c->target_rank);
        br_buf_puts(out, "\n");
    }
    for (int i = 0; i < c->nargs; i++) write_arg(out, &c->args[i]);
    for (int i = 0; i < c->nexpect; i++) write_expect(out, c, &c->expect[i]);
    for (int i = 0; i < c->nmsg; i++) br_buf_printf(out, "message %s\n", c->msg[i]);
    br_buf_puts(out, "end\n");
}
