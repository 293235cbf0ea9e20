/* caseio.c - the strict reader of docs/case-format.md: one pass over a file
 * held in memory, tokens split in place, element data parsed straight into
 * the data arena. Every malformed input is a "FILE:LINE: message" error,
 * never a crash, and no number read from a file decides an allocation before
 * it has been bounded. */
#include "case/caseio.h"

#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_ref.h"

#define MAX_TOK 8

typedef struct parser {
    br_caseset *cs;
    const char *file;
    int line;
    br_err *err;
    br_arg args[BR_MAX_ARGS];   /* the open record's args, copied to the pool at `end` */
    br_expect expect[BR_MAX_EXPECT];   /* the open record's expects, likewise */
} parser;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int perr(parser *p, const char *fmt, ...)
{
    char m[480];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    snprintf(p->err->msg, sizeof p->err->msg, "%s:%d: %s", p->file, p->line, m);
    return -1;
}

int br_parse_shape(const char *s, int64_t *dims, int maxrank)
{
    if (*s != '(') return -1;
    s++;
    int rank = 0;
    if (*s == ')') return s[1] == '\0' ? 0 : -1;
    for (;;) {
        const char *q = s;
        if (*q == '-') q++;
        if (*q < '0' || *q > '9') return -1;
        long long v = 0;
        int nd = 0;
        while (q[nd] >= '0' && q[nd] <= '9' && nd < 18) { v = v * 10 + (q[nd] - '0'); nd++; }
        const char *end = q + nd;
        if (q[nd] >= '0' && q[nd] <= '9') {   /* 19 digits or more: strtoll checks the range */
            char *e;
            errno = 0;
            v = strtoll(s, &e, 10);
            if (errno == ERANGE) return -1;
            end = e;
        } else if (*s == '-') v = -v;
        if (rank >= maxrank) return -1;
        dims[rank++] = (int64_t)v;
        s = end;
        if (*s == ',') {
            s++;
            if (*s == ')') { s++; break; }
            continue;
        }
        if (*s == ')') { s++; break; }
        return -1;
    }
    return *s == '\0' ? rank : -1;
}

int64_t br_shape_count(const int64_t *dims, int rank)
{
    int64_t n = 1;
    for (int i = 0; i < rank; i++) if (dims[i] < 0) return -1;
    for (int i = 0; i < rank; i++) if (dims[i] == 0) return 0;
    for (int i = 0; i < rank; i++) if (br_mul_i64(n, dims[i], &n) != 0) return -1;
    return n;
}

/* Appends the decimal form of v at buf[*o] while it fits (cap includes the NUL). */
static void put_i64(char *buf, size_t cap, size_t *o, int64_t v)
{
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do { tmp[n++] = (char)('0' + u % 10); u /= 10; } while (u);
    if (v < 0) tmp[n++] = '-';
    while (n > 0 && *o + 1 < cap) buf[(*o)++] = tmp[--n];
}

void br_shape_str(const int64_t *dims, int rank, char *buf, size_t cap)
{
    size_t o = 0;
    if (cap == 0) return;
    if (cap > 1) buf[o++] = '(';
    for (int i = 0; i < rank; i++) {
        put_i64(buf, cap, &o, dims[i]);
        if ((rank == 1 || i + 1 < rank) && o + 1 < cap) buf[o++] = ',';
    }
    if (o + 1 < cap) buf[o++] = ')';
    buf[o] = '\0';
}

/* Splits line in place at spaces into at most max tokens; the last token
 * keeps the rest of the line when rest is set. Returns the count. */
static int split(char *line, char **tok, int max, int rest)
{
    int n = 0;
    char *s = line;
    while (*s) {
        while (*s == ' ') s++;
        if (!*s) break;
        if (n == max - 1 && rest) { tok[n++] = s; break; }
        if (n == max) return max + 1;
        tok[n++] = s;
        while (*s && *s != ' ') s++;
        if (*s) *s++ = '\0';
    }
    return n;
}

/* Plain decimal integers of up to 18 digits (every value the generator
 * writes but the extremes) without strtoll; -1 sends the token to strtoll. */
static int fast_i64(const char *s, int64_t *out)
{
    const char *q = s;
    int neg = *q == '-';
    if (neg) q++;
    int64_t v = 0;
    int n = 0;
    for (; *q >= '0' && *q <= '9'; q++, n++) {
        if (n == 18) return -1;
        v = v * 10 + (*q - '0');
    }
    if (n == 0 || *q != '\0') return -1;
    *out = neg ? -v : v;
    return 0;
}

static int parse_i64(const char *s, int64_t *out)
{
    if (fast_i64(s, out) == 0) return 0;
    const char *q = s;
    if (*q == '-' || *q == '+') q++;
    if (*q < '0' || *q > '9') return -1;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno == ERANGE || *end != '\0') return -1;
    *out = (int64_t)v;
    return 0;
}

/* Reads a shape field into pool memory after bounding its rank. */
static int shape_field(parser *p, const char *tok, const char *what, int64_t **dims, int *rank)
{
    int64_t tmp[BC_MAX_RANK];
    /* Reject an absurd rank before anything is allocated for it. */
    size_t commas = 0;
    for (const char *s = tok; *s; s++) if (*s == ',') commas++;
    if (commas > BC_MAX_RANK) return perr(p, "%s has rank above %d", what, BC_MAX_RANK);
    int r = br_parse_shape(tok, tmp, BC_MAX_RANK);
    if (r < 0) return perr(p, "bad %s '%.60s' (expected a tuple like (5,1,4), at most %d entries)",
                           what, tok, BC_MAX_RANK);
    int64_t *d = br_pool_alloc(&p->cs->pool, (size_t)(r ? r : 1) * sizeof *d);
    if (d == NULL) return perr(p, "out of memory");
    memcpy(d, tmp, (size_t)r * sizeof *d);
    *dims = d;
    *rank = r;
    return 0;
}

static int parse_dtype(parser *p, const char *tok, int *dtype, int allow_none)
{
    if (allow_none && strcmp(tok, "-") == 0) { *dtype = BCT_NONE; return 0; }
    int d = bc_dtype_from_name(tok);
    if (d < 0 || d >= BCT_DTYPE_COUNT) return perr(p, "unknown dtype '%.40s'", tok);
    *dtype = d;
    return 0;
}

/* B34: a weak scalar's dtype token (weak-int, weak-float, weak-bool): 1 and
 * its storage dtype (I64, F64, BOOL), or 0 when tok is not one. */
static int parse_weak_dtype(const char *tok, int *dtype)
{
    static const char *const names[3] = { "weak-int", "weak-float", "weak-bool" };
    static const int dtypes[3] = { BCT_I64, BCT_F64, BCT_BOOL };
    for (int i = 0; i < 3; i++)
        if (strcmp(tok, names[i]) == 0) { *dtype = dtypes[i]; return 1; }
    return 0;
}

/* See caseio.h. */
const char *br_arg_dtype_name(const br_arg *a)
{
    if (a->dtype == BCT_NONE) return "-";
    if (!a->weak) return bc_dtype_name(a->dtype);
    return a->dtype == BCT_I64 ? "weak-int" : a->dtype == BCT_F64 ? "weak-float" : "weak-bool";
}

/* A C99 hexadecimal float as Python's float.hex() writes it ([-]0xH[.H...]p[+-]D),
 * with at most 15 significant hex digits: exact in a uint64, and ldexp rounds
 * the scaled value once, as strtod would. -1 sends the token to strtod. */
static int fast_hexfloat(const char *t, double *out)
{
    const char *q = t;
    int neg = *q == '-';
    if (neg) q++;
    if (q[0] != '0' || (q[1] != 'x' && q[1] != 'X')) return -1;
    q += 2;
    uint64_t m = 0;
    int digits = 0, frac = 0, dot = 0;
    for (;; q++) {
        unsigned d;
        if (*q >= '0' && *q <= '9') d = (unsigned)(*q - '0');
        else if (*q >= 'a' && *q <= 'f') d = (unsigned)(*q - 'a' + 10);
        else if (*q == '.' && !dot) { dot = 1; continue; }
        else break;
        if (m != 0 || d != 0) digits++;
        if (digits > 15) return -1;
        m = m << 4 | d;
        frac += dot;
    }
    if (m >> 53) return -1;   /* more bits than a double holds: let strtod round */
    if (*q++ != 'p') return -1;
    int eneg = *q == '-';
    if (*q == '-' || *q == '+') q++;
    if (*q < '0' || *q > '9') return -1;
    int e = 0;
    for (; *q >= '0' && *q <= '9'; q++) {
        if (e > 100000) return -1;
        e = e * 10 + (*q - '0');
    }
    if (*q != '\0') return -1;
    double v = ldexp((double)m, (eneg ? -e : e) - 4 * frac);
    *out = neg ? -v : v;
    return 0;
}

/* A NaN with a payload, "[-]nan(0xP)" (docs/case-format.md): the sign bit,
 * an all-ones exponent and mantissa bits P (nonzero, at most 23 bits for f32,
 * 52 for f64), stored bit for bit at dst. 1 when t is not such a token, 0 when
 * stored, -1 when it is one but P is out of range. */
static int parse_nan_payload(const char *t, int dtype, char *dst)
{
    int neg = *t == '-';
    const char *q = t + neg;
    if (q[0] != 'n' || strncmp(q, "nan(0x", 6) != 0) return 1;   /* the first byte turns away numbers cheaply */
    char *end;
    errno = 0;
    unsigned long long m = strtoull(q + 6, &end, 16);
    int mbits = dtype == BCT_F32 ? 23 : 52;
    if (end == q + 6 || strcmp(end, ")") != 0 || errno || m == 0 || m >> mbits) return -1;
    if (dtype == BCT_F32) {
        uint32_t b = (neg ? 0x80000000u : 0u) | 0x7f800000u | (uint32_t)m;
        memcpy(dst, &b, 4);
    } else {
        uint64_t b = (neg ? 0x8000000000000000ull : 0ull) | 0x7ff0000000000000ull | (uint64_t)m;
        memcpy(dst, &b, 8);
    }
    return 0;
}

/* One element of a values line, stored at dst as dtype. */
static int parse_value(parser *p, const char *t, int dtype, char *dst)
{
    if (dtype == BCT_F32 || dtype == BCT_F64) {
        double d;
        int nan_rc = parse_nan_payload(t, dtype, dst);
        if (nan_rc == 0) return 0;
        if (nan_rc < 0)
            return perr(p, "bad NaN payload '%.40s' for %s (nan(0xP): P nonzero, at most %d bits)", t,
                        bc_dtype_name(dtype), dtype == BCT_F32 ? 23 : 52);
        if (fast_hexfloat(t, &d) == 0) {
            if (isinf(d)) goto bad;   /* an exponent beyond double's range */
        } else if (strcmp(t, "nan") == 0) d = NAN;
        else if (strcmp(t, "inf") == 0) d = INFINITY;
        else if (strcmp(t, "-inf") == 0) d = -INFINITY;
        else {
            const char *q = t;
            if (*q == '-' || *q == '+') q++;
            if (!((*q >= '0' && *q <= '9') || *q == '.')) goto bad;
            char *end;
            d = strtod(t, &end);
            if (*end != '\0' || isinf(d) || isnan(d)) goto bad;
        }
        if (dtype == BCT_F64) { memcpy(dst, &d, 8); return 0; }
        /* A plain cast is the contract, but one outside float's range is UB. */
        if (isfinite(d) && fabs(d) > (double)FLT_MAX)
            return perr(p, "value '%.40s' is out of range for f32", t);
        float f = (float)d;
        memcpy(dst, &f, 4);
        return 0;
    }
    int64_t v;
    if (dtype == BCT_I64) {
        if (parse_i64(t, &v) != 0) goto bad;
        memcpy(dst, &v, 8);
        return 0;
    }
    if (parse_i64(t, &v) != 0) goto bad;
    static const int64_t lo[] = { 0, -128, 0, -32768, -2147483647 - 1 };
    static const int64_t hi[] = { 1, 127, 255, 32767, 2147483647 };
    if (dtype < 0 || dtype > BCT_I32) goto bad;
    if (v < lo[dtype] || v > hi[dtype])
        return perr(p, "value %.40s is out of range for %s", t, bc_dtype_name(dtype));
    switch (dtype) {
    case BCT_BOOL: case BCT_U8: { uint8_t u = (uint8_t)v; memcpy(dst, &u, 1); break; }
    case BCT_I8: { int8_t u = (int8_t)v; memcpy(dst, &u, 1); break; }
    case BCT_I16: { int16_t u = (int16_t)v; memcpy(dst, &u, 2); break; }
    default: { int32_t u = (int32_t)v; memcpy(dst, &u, 4); break; }
    }
    return 0;
bad:
    return perr(p, "bad %s value '%.40s'", bc_dtype_name(dtype), t);
}

/* Parses "values V..." (the text after the keyword) into a fresh arena block
 * of count elements. */
static int parse_values(parser *p, char *s, int dtype, int64_t count, void **out)
{
    if (count > BR_MAX_VALUES)
        return perr(p, "%lld elements is too many for a values line (max %lld; use pattern/digest)",
                    (long long)count, (long long)BR_MAX_VALUES);
    int es = dtype == BCT_NONE ? 1 : bc_dtype_size(dtype);
    char *dst = br_arena_alloc(&p->cs->data, (size_t)(count ? count : 1) * (size_t)es);
    if (dst == NULL) return perr(p, "out of memory for %lld values", (long long)count);
    int64_t n = 0;
    while (*s) {
        while (*s == ' ') s++;
        if (!*s) break;
        char *t = s;
        while (*s && *s != ' ') s++;
        if (*s) *s++ = '\0';
        if (n >= count || dtype == BCT_NONE)
            return perr(p, "too many values: expected %lld", (long long)count);
        if (parse_value(p, t, dtype, dst + n * es) != 0) return -1;
        n++;
    }
    if (n != count)
        return perr(p, "expected %lld values, found %lld", (long long)count, (long long)n);
    *out = dst;
    return 0;
}

/* Checks that every element the view addresses lies in [0, storage). */
static int check_view(parser *p, const br_arg *a)
{
    int64_t lo = 0, hi = 0;
    for (int i = 0; i < a->rank; i++) if (a->shape[i] == 0) {
        if (a->offset < 0 || a->offset > a->storage)
            return perr(p, "arg %s: offset %lld outside its storage of %lld", a->name,
                        (long long)a->offset, (long long)a->storage);
        return 0;
    }
    for (int i = 0; i < a->rank; i++) {
        int64_t span;
        if (br_mul_i64(a->shape[i] - 1, a->strides[i], &span) != 0) goto outside;
        if (span > 0) { if (br_add_i64(hi, span, &hi) != 0) goto outside; }
        else if (br_add_i64(lo, span, &lo) != 0) goto outside;
    }
    if (br_add_i64(lo, a->offset, &lo) != 0 || br_add_i64(hi, a->offset, &hi) != 0) goto outside;
    if (lo < 0 || hi >= a->storage) goto outside;
    return 0;
outside:
    return perr(p, "arg %s: the view addresses elements outside its storage of %lld", a->name,
                (long long)a->storage);
}

static int parse_arg(parser *p, br_case *c, char *rest, int *needs_data)
{
    char *t[8];
    int n = split(rest, t, 6, 0);
    if (n != 6) return perr(p, "arg needs NAME DTYPE SHAPE STRIDES OFFSET STORAGE");
    if (c->nargs >= BR_MAX_ARGS) return perr(p, "more than %d args", BR_MAX_ARGS);
    br_arg *a = &c->args[c->nargs];
    memset(a, 0, sizeof *a);
    size_t nl = strlen(t[0]);
    if (nl == 0 || nl > 15) return perr(p, "bad arg name '%.20s'", t[0]);
    for (size_t i = 0; i < nl; i++)
        if (!((t[0][i] >= 'a' && t[0][i] <= 'z') || (t[0][i] >= '0' && t[0][i] <= '9') || t[0][i] == '_'))
            return perr(p, "bad arg name '%.20s'", t[0]);
    a->name = t[0];
    a->weak = parse_weak_dtype(t[1], &a->dtype);
    if (!a->weak && parse_dtype(p, t[1], &a->dtype, 1) != 0) return -1;
    if (shape_field(p, t[2], "shape", &a->shape, &a->rank) != 0) return -1;
    c->nargs++;
    if (a->dtype == BCT_NONE) {
        /* Shape-only: strides/offset/storage carry nothing; negative extents are
         * allowed so that B16 can be tested through broadcast_shapes. */
        a->data_kind = BR_DATA_NONE;
        *needs_data = 0;
        return 0;
    }
    int srank;
    if (shape_field(p, t[3], "strides", &a->strides, &srank) != 0) return -1;
    if (srank != a->rank) return perr(p, "arg %s: %d strides for rank %d", a->name, srank, a->rank);
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] < 0) return perr(p, "arg %s: negative extent %lld", a->name, (long long)a->shape[i]);
    /* An element count above int64 is allowed: stride-0 views of huge
     * extents test B16 overflow, and the runner never copies a view. */
    if (parse_i64(t[4], &a->offset) != 0) return perr(p, "bad offset '%.40s'", t[4]);
    if (parse_i64(t[5], &a->storage) != 0) return perr(p, "bad storage '%.40s'", t[5]);
    if (a->storage < 0 || a->storage > BR_MAX_STORAGE)
        return perr(p, "arg %s: storage %lld outside [0, %lld]", a->name, (long long)a->storage,
                    (long long)BR_MAX_STORAGE);
    if (a->storage * bc_dtype_size(a->dtype) > BR_MAX_STORAGE_BYTES)
        return perr(p, "arg %s: storage above %lld bytes", a->name, (long long)BR_MAX_STORAGE_BYTES);
    if (check_view(p, a) != 0) return -1;
    if (a->weak && (a->rank != 0 || a->offset != 0 || a->storage != 1))
        return perr(p, "arg %s: a weak scalar (%s) has shape (), strides (), offset 0 and storage 1",
                    a->name, t[1]);
    *needs_data = 1;
    return 0;
}

static int parse_pattern(parser *p, br_arg *a, char *rest)
{
    char *t[8];
    int n = split(rest, t, 7, 0);
    if (n != 6 || strcmp(t[0], "ramp") != 0) return perr(p, "pattern needs: ramp A B M K D");
    for (int i = 0; i < 5; i++)
        if (parse_i64(t[i + 1], &a->pat[i]) != 0) return perr(p, "bad pattern number '%.40s'", t[i + 1]);
    /* Bounds that keep the arithmetic exact in int64 and double (see docs/runner.md). */
    const int64_t lim = (int64_t)1 << 53;
    if (a->pat[2] <= 0 || a->pat[2] > lim) return perr(p, "pattern modulus M must be in [1, 2^53]");
    if (a->pat[3] < -lim || a->pat[3] > lim) return perr(p, "pattern K must be in [-2^53, 2^53]");
    if (a->pat[4] == 0) return perr(p, "pattern divisor D must not be 0");
    if (a->dtype != BCT_F32 && a->dtype != BCT_F64 && a->pat[4] != 1)
        return perr(p, "pattern divisor D must be 1 for %s", bc_dtype_name(a->dtype));
    a->data_kind = BR_DATA_PATTERN;
    return 0;
}

/* COMPARE: `exact`, `ulp N` or `ulp N abs A` (t[0..n)). */
static int parse_compare(parser *p, br_expect *e, char **t, int n)
{
    if (strcmp(t[0], "exact") == 0) {
        if (n != 1) return perr(p, "exact takes no argument");
        e->cmp = BR_CMP_EXACT;
        return 0;
    }
    if (strcmp(t[0], "ulp") != 0) return perr(p, "unknown comparison '%.40s'", t[0]);
    if ((n != 2 && n != 4) || parse_i64(t[1], &e->ulp) != 0 || e->ulp < 0 || e->ulp > 1000000000)
        return perr(p, "ulp needs a count in [0, 10^9], optionally followed by abs A");
    e->cmp = BR_CMP_ULP;
    if (n == 4) {
        char *end;
        if (strcmp(t[2], "abs") != 0) return perr(p, "expected 'abs A' after ulp N, not '%.40s'", t[2]);
        if (fast_hexfloat(t[3], &e->abs_tol) != 0) {
            errno = 0;
            e->abs_tol = strtod(t[3], &end);
            if (*end != '\0' || errno == ERANGE) return perr(p, "bad abs tolerance '%.40s'", t[3]);
        }
        if (!(e->abs_tol >= 0) || isinf(e->abs_tol)) return perr(p, "abs tolerance must be finite and >= 0");
    }
    return 0;
}

/* Whether a new expect line (profile, grad_arg) may join the case's: one
 * line per profile, `*` alone; in grad mode one line per input per profile,
 * and an error alone in its profile. */
static int expect_conflicts(const br_case *c, const br_expect *e)
{
    for (int i = 0; i < c->nexpect; i++) {
        const br_expect *o = &c->expect[i];
        int overlap = o->profile == e->profile || o->profile == BR_PROFILE_ANY || e->profile == BR_PROFILE_ANY;
        if (!overlap) continue;
        if (o->grad_arg < 0 || e->grad_arg < 0 || o->profile != e->profile || o->grad_arg == e->grad_arg) return 1;
    }
    return 0;
}

/* `grad NAME`: the index of input NAME, which must be a floating-point input
 * that can have a gradient (not where's cond, not the incoming gradient). */
static int grad_target(parser *p, const br_case *c, const char *name, int *arg)
{
    for (int i = 0; i + 1 < c->nargs; i++)
        if (strcmp(c->args[i].name, name) == 0) {
            const br_arg *a = &c->args[i];
            if (a->dtype != BCT_F32 && a->dtype != BCT_F64)
                return perr(p, "expect grad %s: arg %s is %s; only f32/f64 inputs have gradients (B31)",
                            name, name, a->dtype == BCT_NONE ? "shape-only" : bc_dtype_name(a->dtype));
            if (c->op == BCT_WHERE && i == 0) return perr(p, "expect grad %s: where's cond has no gradient", name);
            *arg = i;
            return 0;
        }
    return perr(p, "expect grad %.40s: no input of that name (the incoming gradient is the last arg)", name);
}

static int parse_expect(parser *p, br_case *c, char *rest, int *needs_data)
{
    char *t[12];
    int n = split(rest, t, 10, 0), grad = c->mode == BCT_MODE_GRAD, k = 3;
    if (c->nexpect >= BR_MAX_EXPECT) return perr(p, "more than %d expect lines", BR_MAX_EXPECT);
    if (n < 3 || n > 9) return perr(p, "expect needs PROFILE ok ..., PROFILE grad ... or PROFILE error CLASS");
    br_expect *e = &c->expect[c->nexpect];
    memset(e, 0, sizeof *e);
    e->line = p->line;
    e->grad_arg = -1;
    if (strcmp(t[0], "*") == 0) e->profile = BR_PROFILE_ANY;
    else if ((e->profile = bc_profile_from_name(t[0])) < 0)
        return perr(p, "unknown profile '%.40s' (profiles: * numpy torch numpy2 torch2)", t[0]);
    if (strcmp(t[1], "error") == 0) {
        if (n != 3) return perr(p, "expect ... error takes one CLASS");
        e->status = bc_status_from_name(t[2]);
        if (e->status <= BCT_OK || e->status >= BCT_STATUS_COUNT)
            return perr(p, "unknown error class '%.40s'", t[2]);
        if (expect_conflicts(c, e)) return perr(p, "expect for profile %s repeats or conflicts with another", t[0]);
        c->nexpect++;
        *needs_data = 0;
        return 0;
    }
    if (strcmp(t[1], grad ? "grad" : "ok") != 0)
        return perr(p, "expect outcome must be %s or error, not '%.40s'", grad ? "grad (mode grad)" : "ok", t[1]);
    if (grad) {
        if (n < 6) return perr(p, "expect ... grad needs NAME DTYPE SHAPE COMPARE");
        if (grad_target(p, c, t[2], &e->grad_arg) != 0) return -1;
        k = 4;
    } else if (n < 5 || n > 8) return perr(p, "expect ... ok needs DTYPE SHAPE COMPARE");
    if (expect_conflicts(c, e)) return perr(p, "expect for profile %s repeats or conflicts with another", t[0]);
    e->status = BCT_OK;
    if (parse_dtype(p, t[k - 1], &e->dtype, 1) != 0) return -1;
    if (shape_field(p, t[k], "result shape", &e->shape, &e->rank) != 0) return -1;
    if (e->dtype != BCT_NONE) {
        e->nelem = br_shape_count(e->shape, e->rank);
        if (e->nelem < 0) return perr(p, "result shape has a negative extent or overflows");
        if (e->nelem > BR_MAX_RESULT_BYTES / bc_dtype_size(e->dtype))
            return perr(p, "result above %lld bytes", (long long)BR_MAX_RESULT_BYTES);
    }
    if (grad) {   /* B23: a gradient has its input's shape and dtype */
        const br_arg *a = &c->args[e->grad_arg];
        if (e->dtype != a->dtype || e->rank != a->rank ||
            memcmp(e->shape, a->shape, (size_t)a->rank * sizeof *a->shape) != 0)
            return perr(p, "expect grad %s: a gradient has its input's dtype and shape (%s)", a->name,
                        bc_dtype_name(a->dtype));
    }
    if (parse_compare(p, e, t + k + 1, n - k - 1) != 0) return -1;
    c->nexpect++;
    *needs_data = 1;
    return 0;
}

static int parse_digest(parser *p, br_expect *e, char *rest)
{
    char *t[4];
    int n = split(rest, t, 3, 0);
    if (n != 3 || strcmp(t[0], "fnv1a64") != 0) return perr(p, "digest needs: fnv1a64 HEX ELEMENTS");
    if (strlen(t[1]) != 16) return perr(p, "digest needs 16 hex digits");
    uint64_t h = 0;
    for (int i = 0; i < 16; i++) {
        char ch = t[1][i];
        unsigned d;
        if (ch >= '0' && ch <= '9') d = (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f') d = (unsigned)(ch - 'a' + 10);
        else return perr(p, "bad hex digit in digest");
        h = (h << 4) | d;
    }
    int64_t cnt;
    if (parse_i64(t[2], &cnt) != 0 || cnt != e->nelem)
        return perr(p, "digest element count '%.40s' does not match the result shape (%lld)", t[2],
                    (long long)e->nelem);
    e->digest = h;
    e->data_kind = BR_DATA_DIGEST;
    return 0;
}

/* Which profiles the case's expect lines cover, against its source line:
 * a numpy2/torch2 line needs its oracle (or `ref`) in source, and each generation is covered whole or not at all (numpy
 * with torch, numpy2 with torch2), so `expect numpy2` alone is refused. */
static int check_profiles(parser *p, const br_case *c)
{
    unsigned src = c->profiles, have = 0;   /* close_case set it from the source line */
    for (int i = 0; i < c->nexpect; i++) {
        int pr = c->expect[i].profile;
        if (pr >= BCT_PROFILE_NUMPY2 && !(src & (1u << pr)) && !br_has_word(c->source, "ref"))
            return perr(p, "case %s: expect %s, but source '%s' does not name %s (the oracle that measured it)",
                        c->id, bc_profile_name(pr), c->source, bc_profile_name(pr));
    }
    for (int pr = 0; pr < BCT_PROFILE_COUNT; pr++)
        if (br_pick_expect(c, pr) != NULL) have |= 1u << pr;
    for (int pr = 0; pr < BCT_PROFILE_COUNT; pr++)
        if ((have >> pr & 1u) && !(have >> (pr ^ 1) & 1u))
            return perr(p, "case %s: expect %s needs a matching expect for profile %s", c->id,
                        bc_profile_name(pr), bc_profile_name(pr ^ 1));
    return 0;
}

/* Whole-record checks that need all lines: argument counts per op, the
 * attributes the op needs, and the expectations present. */
/* B34: weak scalars are element-wise operands: of an op from add to where,
 * never the written arg (in-place self, out=), never in grad mode. */
static int check_weak_args(parser *p, const br_case *c)
{
    int writable = c->mode == BCT_MODE_INPLACE ? 0 : c->mode == BCT_MODE_OUT ? c->nargs - 1 : -1;
    for (int i = 0; i < c->nargs; i++) {
        if (!c->args[i].weak) continue;
        if (c->op > BCT_WHERE || c->mode == BCT_MODE_GRAD)
            return perr(p, "case %s: arg %s: a weak scalar is an operand of an element-wise op (add..where), "
                        "not of %s%s", c->id, c->args[i].name, bc_op_name(c->op),
                        c->mode == BCT_MODE_GRAD ? " in grad mode" : "");
        if (i == writable)
            return perr(p, "case %s: arg %s: a weak scalar cannot be the written arg (in-place self or out=)",
                        c->id, c->args[i].name);
        if (i >= 32)
            return perr(p, "case %s: arg %s: a weak scalar must be one of the first 32 args", c->id, c->args[i].name);
    }
    return 0;
}

/* B46: `mode grad inplace` takes an op torch has an in-place method of
 * (self, other, grad); `mode grad out` a binary element-wise op (x, y, out,
 * grad), its out= arg named out. 0, or -1 with the error set. */
static int check_grad_form(parser *p, const br_case *c)
{
    if (c->grad_form == BCT_GRAD_VALUE) return 0;
    uint64_t ops = c->grad_form == BCT_GRAD_INPLACE ? BC_GRAD_INPLACE_OPS : BC_GRAD_OUT_OPS;
    if (!(ops & ((uint64_t)1 << c->op)))
        return perr(p, "case %s: op %s has no %s gradient (B46: in place add sub mul div pow; out= those, "
                    "maximum and minimum)", c->id, bc_op_name(c->op),
                    c->grad_form == BCT_GRAD_INPLACE ? "in-place" : "out=");
    if (c->grad_form == BCT_GRAD_OUT && (c->nargs < 2 || strcmp(c->args[c->nargs - 2].name, "out") != 0))
        return perr(p, "case %s: in mode grad out the arg before grad is named out", c->id);
    return 0;
}

static int check_case(parser *p, br_case *c)
{
    int want = -1, shape_only = c->op == BCT_BROADCAST_SHAPES;
    switch (c->op) {
    case BCT_WHERE: case BCT_CLIP: case BCT_LERP: case BCT_ADDCMUL: case BCT_ADDCDIV:
    case BCT_GEMM_BIAS: want = 3; break;
    case BCT_BROADCAST_TO: case BCT_EXPAND: want = 1; break;
    case BCT_BROADCAST_SHAPES: break;
    default: want = 2; break;
    }
    if (want >= 0 && (c->mode == BCT_MODE_OUT || c->mode == BCT_MODE_GRAD)) want++;
    if (c->mode == BCT_MODE_GRAD && !(BC_GRAD_OPS & ((uint64_t)1 << c->op)))
        return perr(p, "case %s: op %s has no grad mode", c->id, bc_op_name(c->op));
    if (check_grad_form(p, c) != 0) return -1;
    if (c->grad_form == BCT_GRAD_OUT) want++;   /* B46: x, y, out, grad */
    for (int i = 0; i < c->nargs; i++)   /* `grad`: the incoming gradient, last, in grad mode only */
        if ((strcmp(c->args[i].name, "grad") == 0) != (c->mode == BCT_MODE_GRAD && i == c->nargs - 1))
            return perr(p, "case %s: %s", c->id, c->mode == BCT_MODE_GRAD
                        ? "in grad mode the last arg, and only it, is named grad (the incoming gradient)"
                        : "an arg named grad belongs to grad mode only");
    if (want >= 0 && c->nargs != want)
        return perr(p, "case %s: op %s takes %d args, found %d", c->id, bc_op_name(c->op), want, c->nargs);
    for (int i = 0; i < c->nargs; i++)
        if ((c->args[i].dtype == BCT_NONE) != shape_only)
            return perr(p, "case %s: arg %s must %s", c->id, c->args[i].name,
                        shape_only ? "be shape-only (dtype -)" : "have a dtype");
    if (c->op >= BCT_COPYSIGN && c->mode != BCT_MODE_VALUE)
        return perr(p, "case %s: op %s has value mode only (B38-B45)", c->id, bc_op_name(c->op));
    if (shape_only && c->mode != BCT_MODE_VALUE)
        return perr(p, "case %s: broadcast_shapes has no in-place/out form", c->id);
    if ((c->op == BCT_BROADCAST_TO || c->op == BCT_EXPAND) && c->target_rank < 0)
        return perr(p, "case %s: %s needs `attr shape`", c->id, bc_op_name(c->op));
    if (c->op == BCT_AXIS_ADD && !c->has_axis)
        return perr(p, "case %s: axis_add needs `attr axis`", c->id);
    if (c->nexpect == 0) return perr(p, "case %s has no expect line", c->id);
    if (check_weak_args(p, c) != 0) return -1;
    if (check_profiles(p, c) != 0) return -1;
    for (int i = 0; i < c->nexpect; i++) {
        const br_expect *e = &c->expect[i];
        if (e->status == BCT_OK && (e->dtype == BCT_NONE) != shape_only)
            return perr(p, "case %s: result dtype must %s", c->id, shape_only ? "be -" : "not be -");
    }
    return 0;
}

enum { K_CASE, K_SUITE, K_TAGS, K_RULES, K_OP, K_MODE, K_SOURCE, K_ATTR, K_ARG, K_EXPECT, K_MESSAGE, K_END, K_N };
static const char *const key_names[K_N] = {
    "case", "suite", "tags", "rules", "op", "mode", "source", "attr", "arg", "expect", "message", "end"
};

/* Room for one more case in cs (doubling); -1 when out of memory, or when
 * live sets have been reserved (the slots past n are theirs). */
static int grow_cases(br_caseset *cs)
{
    if (cs->live > 0) return -1;   /* the slots past n belong to live sets (live.c) */
    if (cs->n < cs->cap) return 0;
    size_t nc = cs->cap ? cs->cap * 2 : 1024;
    /* shared memory: forking a worker copies no page tables for the case set */
    br_case *v = br_shared_realloc(cs->cases, cs->cap * sizeof *v, nc * sizeof *v);
    if (v == NULL) return -1;
    cs->cases = v;
    cs->cap = nc;
    return 0;
}

/* The reader's state between lines: the open record (NULL between records),
 * the last key read, the keys seen in it, and whether a data line is due
 * (1 after an arg, 2 after an expect). */
typedef struct rstate {
    br_case *c;
    int last_key, data_for;
    unsigned seen;
} rstate;

/* Registers sb (a br_shared_alloc'd block of len + 1 bytes that the case
 * strings will point into; freed here on failure) with cs, and copies the
 * file name into the pool as p->file. 0, or -1 with the error set. */
static int adopt_buffer(parser *p, const char *name, char *sb)
{
    br_caseset *cs = p->cs;
    char **nb = realloc(cs->bufs, (cs->nbufs + 1) * sizeof *nb);
    if (nb == NULL) { br_shared_free(sb); return perr(p, "out of memory"); }
    cs->bufs = nb;
    cs->bufs[cs->nbufs++] = sb;
    size_t nl = strlen(name);
    char *fname = br_pool_alloc(&cs->pool, nl + 1);
    if (fname == NULL) return perr(p, "out of memory");
    memcpy(fname, name, nl + 1);
    p->file = fname;
    return 0;
}

/* Whether one of the 8 bytes of w may be a control character (< 0x20 or
 * 0x7f): exact when there is none, so whole words of text are passed over. */
static int may_have_control(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull, del = w ^ (ones * 0x7f);
    return (((w - ones * 0x20) & ~w) | ((del - ones) & ~del)) & highs ? 1 : 0;
}

/* Refuses a control character in line (len bytes before its NUL; a CR that
 * ends it is dropped), and checks the version line when this is line 1. 1
 * when the line is consumed (the version line), 0 to go on, -1 with the error set. */
static int check_line(parser *p, char *line, size_t len)
{
    size_t clean = 0;   /* bytes known to hold no control character, a word at a time */
    for (uint64_t w; clean + 8 <= len; clean += 8) {
        memcpy(&w, line + clean, 8);
        if (may_have_control(w)) break;
    }
    for (char *q = line + clean; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f) {
            if (*q == '\r' && q[1] == '\0') { *q = '\0'; break; }
            return perr(p, "control character 0x%02x in line", (unsigned)(unsigned char)*q);
        }
    if (p->line != 1) return 0;
    if (strcmp(line, "bcast-cases 1") != 0) {
        if (strncmp(line, "bcast-cases ", 12) == 0)
            return perr(p, "unknown format version '%.40s' (this reader knows 1)", line + 12);
        return perr(p, "not a bcast case file (first line must be 'bcast-cases 1')");
    }
    return 1;
}

/* The data line after an arg (df 1: values or pattern) or an expect (df 2:
 * values or digest) of the open record c. 0, or -1 with the error set. */
static int data_line(parser *p, br_case *c, int df, const char *kw, char *rest)
{
    if (df == 1) {
        br_arg *a = &c->args[c->nargs - 1];
        if (strcmp(kw, "values") == 0) {
            a->data_kind = BR_DATA_VALUES;
            if (parse_values(p, rest, a->dtype, a->storage, &a->data) != 0) {
                if (a->weak) {   /* B34: say what the value should have been */
                    size_t n = strlen(p->err->msg);
                    snprintf(p->err->msg + n, sizeof p->err->msg - n, " (arg %s is %s: %s)", a->name,
                             br_arg_dtype_name(a), a->dtype == BCT_I64 ? "a decimal int within int64"
                             : a->dtype == BCT_F64 ? "a hex float, inf, -inf or nan" : "0 or 1");
                }
                return -1;
            }
            a->hash = br_fingerprint(a->data, (size_t)a->storage * (size_t)bc_dtype_size(a->dtype));
        } else if (strcmp(kw, "pattern") == 0) {
            if (a->weak) return perr(p, "arg %s: a weak scalar takes a values line, not a pattern", a->name);
            if (parse_pattern(p, a, rest) != 0) return -1;
        } else return perr(p, "expected a values or pattern line after arg %s", a->name);
        return 0;
    }
    br_expect *e = &c->expect[c->nexpect - 1];
    if (strcmp(kw, "values") == 0) {
        e->data_kind = BR_DATA_VALUES;
        if (e->dtype == BCT_NONE) {
            while (*rest == ' ') rest++;
            if (*rest) return perr(p, "a shape-only result takes an empty values line");
        } else if (parse_values(p, rest, e->dtype, e->nelem, &e->values) != 0) return -1;
    } else if (strcmp(kw, "digest") == 0) {
        if (e->dtype == BCT_NONE) return perr(p, "a shape-only result takes an empty values line");
        if (parse_digest(p, e, rest) != 0) return -1;
    } else return perr(p, "expected a values or digest line after expect");
    return 0;
}

/* The K_* of keyword kw, checked against the record's state: only `case`
 * opens a record, keys come in order, only arg/expect/message repeat.
 * Updates seen and last_key. The key, or -1 with the error set. */
static int record_key(parser *p, rstate *st, const char *kw)
{
    int k = -1;
    for (int i = 0; i < K_N; i++)
        if (kw[0] == key_names[i][0] && strcmp(kw, key_names[i]) == 0) { k = i; break; }
    if (k < 0) return perr(p, "unknown key '%.40s'", kw);
    if (st->c == NULL) {
        if (k != K_CASE) return perr(p, "'%s' outside a case record (expected 'case ID')", kw);
    } else {
        if (k == K_CASE) return perr(p, "case %s is not closed with 'end' before the next case", st->c->id);
        if (k < st->last_key) return perr(p, "key '%s' out of order (after '%s')", kw, key_names[st->last_key]);
        if ((st->seen & (1u << k)) && k != K_ARG && k != K_EXPECT && k != K_MESSAGE)
            return perr(p, "key '%s' repeats", kw);
    }
    st->seen |= 1u << k;
    st->last_key = k;
    return k;
}

/* `case ID`: opens a record in the next slot of the case set. 0 or -1. */
static int open_case(parser *p, rstate *st, char *rest)
{
    br_caseset *cs = p->cs;
    char *t[2];
    if (split(rest, t, 1, 0) != 1) return perr(p, "case needs one ID without spaces");
    for (const char *q = t[0]; *q; q++)
        if ((unsigned char)*q > 0x7e) return perr(p, "case id has a non-ASCII character");
    if (grow_cases(cs) != 0)
        return perr(p, cs->live ? "cases loaded after live sets were reserved (runner bug)" : "out of memory");
    br_case *c = &cs->cases[cs->n];
    memset(c, 0, sizeof *c);
    c->id = t[0];
    c->file = p->file;
    c->line = p->line;
    c->tags = c->rules = c->source = "";
    c->target_rank = -1;
    c->args = p->args;
    c->expect = p->expect;
    st->c = c;
    st->seen = 1u << K_CASE;
    return 0;
}

/* `end`: checks the whole record, moves its args to the pool and adds it to
 * the case set. 0 or -1. */
static int close_case(parser *p, rstate *st, const char *rest)
{
    br_case *c = st->c;
    if (*rest) return perr(p, "'end' takes nothing after it");
    if (c->suite == NULL) return perr(p, "case %s has no suite", c->id);
    if (!(st->seen & (1u << K_OP))) return perr(p, "case %s has no op", c->id);
    c->profiles = br_source_profiles(c->source);   /* once: check_case's br_pick_expect reads it */
    if (check_case(p, c) != 0) return -1;
    c->args = br_pool_alloc(&p->cs->pool, (size_t)(c->nargs ? c->nargs : 1) * sizeof *c->args);
    if (c->args == NULL) return perr(p, "out of memory");
    memcpy(c->args, p->args, (size_t)c->nargs * sizeof *c->args);
    c->expect = br_pool_alloc(&p->cs->pool, (size_t)c->nexpect * sizeof *c->expect);
    if (c->expect == NULL) return perr(p, "out of memory");
    memcpy(c->expect, p->expect, (size_t)c->nexpect * sizeof *c->expect);
    p->cs->n++;
    st->c = NULL;
    st->last_key = -1;
    return 0;
}

/* The one-word header keys of the open record c: suite, op, mode, attr. 0 or -1. */
static int header_key(parser *p, br_case *c, int k, char *rest)
{
    char *t[3];
    switch (k) {
    case K_SUITE:
        if (split(rest, t, 1, 0) != 1) return perr(p, "suite needs one NAME");
        c->suite = t[0];
        break;
    case K_OP:
        if (split(rest, t, 1, 0) != 1 || (c->op = bc_op_from_name(t[0])) < 0 || c->op >= BCT_OP_COUNT)
            return perr(p, "unknown op '%.40s'", rest);
        break;
    case K_MODE:
        if (strcmp(rest, "value") == 0) c->mode = BCT_MODE_VALUE;
        else if (strcmp(rest, "inplace") == 0) c->mode = BCT_MODE_INPLACE;
        else if (strcmp(rest, "out") == 0) c->mode = BCT_MODE_OUT;
        else if (strcmp(rest, "grad") == 0) c->mode = BCT_MODE_GRAD;
        else if (strcmp(rest, "grad inplace") == 0) { c->mode = BCT_MODE_GRAD; c->grad_form = BCT_GRAD_INPLACE; }
        else if (strcmp(rest, "grad out") == 0) { c->mode = BCT_MODE_GRAD; c->grad_form = BCT_GRAD_OUT; }   /* B46 */
        else return perr(p, "unknown mode '%.40s'", rest);
        break;
    case K_ATTR:
        if (split(rest, t, 2, 0) != 2) return perr(p, "attr needs: axis N or shape (..)");
        if (strcmp(t[0], "axis") == 0) {
            if (parse_i64(t[1], &c->axis) != 0) return perr(p, "bad axis '%.40s'", t[1]);
            c->has_axis = 1;
        } else if (strcmp(t[0], "shape") == 0) {
            if (shape_field(p, t[1], "attr shape", &c->target_shape, &c->target_rank) != 0) return -1;
        } else return perr(p, "unknown attr '%.40s'", t[0]);
        break;
    default: break;
    }
    return 0;
}

/* One keyword line kw rest of a record (the data line, if one is due, was
 * taken before). 0, or -1 with the error set. */
static int record_line(parser *p, rstate *st, const char *kw, char *rest)
{
    int k = record_key(p, st, kw), nd = 0;
    if (k < 0) return -1;
    br_case *c = st->c;
    switch (k) {
    case K_CASE: return open_case(p, st, rest);
    case K_TAGS: c->tags = rest; break;
    case K_RULES: c->rules = rest; break;
    case K_SOURCE: c->source = rest; break;
    case K_ARG:
        if (parse_arg(p, c, rest, &nd) != 0) return -1;
        st->data_for = nd ? 1 : 0;
        break;
    case K_EXPECT:
        if (parse_expect(p, c, rest, &nd) != 0) return -1;
        st->data_for = nd ? 2 : 0;
        break;
    case K_MESSAGE:
        if (c->nmsg < 4) c->msg[c->nmsg++] = rest;
        break;
    case K_END: return close_case(p, st, rest);
    default: return header_key(p, c, k, rest);
    }
    return 0;
}

/* One line of the file (len bytes, NUL-terminated, without its newline): version,
 * comment, blank, data or keyword line. 0, or -1 with the error set. */
static int read_line(parser *p, rstate *st, char *line, size_t len)
{
    int v = check_line(p, line, len);
    if (v != 0) return v < 0 ? -1 : 0;
    if (line[0] == '#') {
        br_caseset *cs = p->cs;
        if (strncmp(line, "# case-set ", 11) == 0 && cs->caseset_version[0] == '\0')
            snprintf(cs->caseset_version, sizeof cs->caseset_version, "%s", line + 11);
        return 0;
    }
    if (line[0] == '\0') return 0;
    char *kw = line, *rest = line;
    while (*rest && *rest != ' ') rest++;
    if (*rest) *rest++ = '\0';
    if (st->data_for) {
        int df = st->data_for;
        st->data_for = 0;
        return data_line(p, st->c, df, kw, rest);
    }
    return record_line(p, st, kw, rest);
}

/* Parses one file's contents held in shared memory (buf: len bytes and a
 * NUL, br_shared_alloc'd; taken over: freed with the set, or here when it
 * cannot be registered). 0, or -1 with err. */
static int load_shared(br_caseset *cs, const char *name, char *buf, size_t len, br_err *err)
{
    static _Thread_local parser P;   /* large (the arg scratch): one per loading thread (loaddir.c) */
    parser *p = &P;
    memset(&P, 0, sizeof P);
    P.cs = cs; P.file = name; P.err = err;
    if (adopt_buffer(p, name, buf) != 0) return -1;
    if (memchr(buf, '\0', len) != NULL) {
        P.line = 1;
        for (const char *s = buf; *s; s++) if (*s == '\n') P.line++;
        return perr(p, "binary data (NUL byte)");
    }
    char *s = buf, *end = buf + len;
    rstate st = { NULL, -1, 0, 0 };
    while (s < end) {
        char *line = s;
        char *eol = memchr(s, '\n', (size_t)(end - s));
        if (eol == NULL) eol = end;
        *eol = '\0';
        s = eol + 1;
        P.line++;
        if (read_line(p, &st, line, (size_t)(eol - line)) != 0) return -1;
    }
    if (P.line == 0) { P.line = 1; return perr(p, "empty file (expected 'bcast-cases 1')"); }
    if (st.data_for) return perr(p, "truncated: missing the data line");
    if (st.c != NULL) return perr(p, "truncated: case %s has no 'end'", st.c->id);
    return 0;
}

int br_load_buffer(br_caseset *cs, const char *name, char *buf, size_t len, br_err *err)
{
    char *sb = br_shared_alloc_populated(len + 1);   /* case strings point into it: keep it out of fork's copying */
    if (sb != NULL) memcpy(sb, buf, len);
    free(buf);
    if (sb == NULL) { snprintf(err->msg, sizeof err->msg, "%s:0: out of memory", name); return -1; }
    return load_shared(cs, name, sb, len, err);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int br_case_files(const char *path, char ***names_out, size_t *n_out, br_err *err)
{
    DIR *d = opendir(path);
    if (d == NULL) return 1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 6 || strcmp(de->d_name + l - 6, ".cases") != 0) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **v = realloc(names, cap * sizeof *v);
            if (v == NULL) { rc = -1; break; }
            names = v;
        }
        size_t pl = strlen(path);
        names[n] = malloc(pl + l + 2);
        if (names[n] == NULL) { rc = -1; break; }
        snprintf(names[n], pl + l + 2, "%s%s%s", path, (pl && path[pl - 1] == '/') ? "" : "/", de->d_name);
        n++;
    }
    closedir(d);
    if (rc != 0) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        for (size_t i = 0; i < n; i++) free(names[i]);
        free(names);
        return -1;
    }
    if (names != NULL) qsort(names, n, sizeof *names, cmp_str);
    *names_out = names;
    *n_out = n;
    return 0;
}

int br_load_path(br_caseset *cs, const char *path, br_err *err)
{
    char **names = NULL;
    size_t n = 0;
    int rc = br_case_files(path, &names, &n, err);
    if (rc < 0) return -1;
    if (rc == 0) {
        for (size_t i = 0; i < n && rc == 0; i++) rc = br_load_path(cs, names[i], err);
        for (size_t i = 0; i < n; i++) free(names[i]);
        free(names);
        return rc;
    }
    size_t len;
    char *buf = br_read_file_shared(path, &len);   /* no private copy to make and copy again */
    if (buf == NULL) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
        return -1;
    }
    return load_shared(cs, path, buf, len, err);
}

int br_caseset_append(br_caseset *dst, br_caseset *src)
{
    if (dst->live > 0 || src->live > 0) return -1;
    if (dst->n + src->n > dst->cap) {
        br_case *v = br_shared_realloc(dst->cases, dst->cap * sizeof *v, (dst->n + src->n) * sizeof *v);
        if (v == NULL) return -1;
        dst->cases = v;
        dst->cap = dst->n + src->n;
    }
    char **nb = realloc(dst->bufs, (dst->nbufs + src->nbufs + 1) * sizeof *nb);
    if (nb == NULL) return -1;
    dst->bufs = nb;
    if (br_pool_adopt(&dst->pool, &src->pool) != 0 || br_arena_adopt(&dst->data, &src->data) != 0) return -1;
    memcpy(dst->cases + dst->n, src->cases, src->n * sizeof *src->cases);
    dst->n += src->n;
    memcpy(dst->bufs + dst->nbufs, src->bufs, src->nbufs * sizeof *src->bufs);
    dst->nbufs += src->nbufs;
    if (dst->caseset_version[0] == '\0') memcpy(dst->caseset_version, src->caseset_version, sizeof dst->caseset_version);
    free(src->bufs);
    br_shared_free(src->cases);
    memset(src, 0, sizeof *src);
    return 0;
}

static int cmp_case(const void *a, const void *b)
{
    return strcmp(((const br_case *)a)->id, ((const br_case *)b)->id);
}

/* Whether the cases are already in id order (the committed suites are: each
 * file is sorted and the files' ids start with their suite's name). */
static int sorted_by_id(const br_caseset *cs)
{
    for (size_t i = 1; i < cs->n; i++)
        if (strcmp(cs->cases[i - 1].id, cs->cases[i].id) > 0) return 0;
    return 1;
}

int br_finish(br_caseset *cs, br_err *err)
{
    if (cs->n > 1 && !sorted_by_id(cs)) qsort(cs->cases, cs->n, sizeof *cs->cases, cmp_case);
    for (size_t i = 1; i < cs->n; i++)
        if (strcmp(cs->cases[i - 1].id, cs->cases[i].id) == 0) {
            const br_case *a = &cs->cases[i - 1], *b = &cs->cases[i];
            if (strcmp(a->file, b->file) > 0 || (strcmp(a->file, b->file) == 0 && a->line > b->line)) {
                const br_case *t = a; a = b; b = t;
            }
            snprintf(err->msg, sizeof err->msg, "%s:%d: duplicate case id %s (first at %s:%d)",
                     b->file, b->line, b->id, a->file, a->line);
            return -1;
        }
    return 0;
}

/* The ramp of docs/case-format.md, kept exact: v = (i*A + B) mod M is
 * advanced by adding A mod M (no i*A product), and parse_pattern bounded M
 * and K to 2^53 so v - K is exact in int64 and in double. */
void br_ramp_fill(int dtype, const int64_t pat[5], void *data, int64_t n)
{
    int64_t A = pat[0], B = pat[1], M = pat[2], K = pat[3], D = pat[4];
    int64_t step = ((A % M) + M) % M, v = ((B % M) + M) % M;
    int es = bc_dtype_size(dtype);
    char *dst = data;
    for (int64_t j = 0; j < n; j++) {
        int64_t x = v - K;
        char *o = dst + j * es;
        switch (dtype) {
        case BCT_BOOL: { uint8_t u = x != 0; memcpy(o, &u, 1); break; }
        case BCT_I8: case BCT_U8: { uint8_t u = (uint8_t)(uint64_t)x; memcpy(o, &u, 1); break; }
        case BCT_I16: { uint16_t u = (uint16_t)(uint64_t)x; memcpy(o, &u, 2); break; }
        case BCT_I32: { uint32_t u = (uint32_t)(uint64_t)x; memcpy(o, &u, 4); break; }
        case BCT_I64: memcpy(o, &x, 8); break;
        case BCT_F32: { float f = (float)((double)x / (double)D); memcpy(o, &f, 4); break; }
        default: { double f = (double)x / (double)D; memcpy(o, &f, 8); break; }
        }
        v += step;
        if (v >= M) v -= M;
    }
}

int br_materialize(br_caseset *cs, br_case *c, br_err *err)
{
    for (int i = 0; i < c->nargs; i++) {
        br_arg *a = &c->args[i];
        if (a->data_kind != BR_DATA_PATTERN || a->data != NULL) continue;
        int es = bc_dtype_size(a->dtype);
        char *dst = br_arena_alloc(&cs->data, (size_t)(a->storage ? a->storage : 1) * (size_t)es);
        if (dst == NULL) {
            snprintf(err->msg, sizeof err->msg, "%s:%d: case %s: out of memory for arg %s (%lld elements)",
                     c->file, c->line, c->id, a->name, (long long)a->storage);
            return -1;
        }
        br_ramp_fill(a->dtype, a->pat, dst, a->storage);
        a->data = dst;
        a->hash = br_fingerprint(dst, (size_t)a->storage * (size_t)es);
    }
    return 0;
}

int64_t br_case_result_bytes(const br_case *c)
{
    int64_t m = 0;
    for (int i = 0; i < c->nexpect; i++) {
        const br_expect *e = &c->expect[i];
        if (e->status == BCT_OK && e->dtype != BCT_NONE && e->nelem * bc_dtype_size(e->dtype) > m)
            m = e->nelem * bc_dtype_size(e->dtype);
    }
    return m;
}

unsigned br_source_profiles(const char *source)
{
    static const struct { const char *word; unsigned mask; } words[] = {
        { "numpy", 3u }, { "torch", 3u }, { "ref", 3u },   /* NumPy 1.24, torch 1.13 */
        { "numpy2", 12u }, { "torch2", 12u },             /* NumPy 2, torch 2 */
        { "ref2", 12u },   /* ref's expectations for generation 2 (bcast-run explore and shrink write all four) */
        { "rule", 15u },   /* ref's own rule (axis_add, uni_add), applied through each generation's NumPy */
    };
    unsigned m = 0;
    for (const char *s = source; *s;) {   /* each word of the line once, against the table */
        while (*s == ' ') s++;
        size_t len = 0;
        while (s[len] && s[len] != ' ') len++;
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            if (s[0] == words[i].word[0] && strncmp(s, words[i].word, len) == 0 && words[i].word[len] == '\0')
                m |= words[i].mask;
        s += len;
    }
    return m != 0 ? m : 3u;   /* no source line, or no oracle named: a generation-1 case */
}

/* Whether expect line e applies under profile (see br_pick_expect). */
static int expect_applies(const br_case *c, const br_expect *e, int profile)
{
    if (e->profile == profile) return 1;
    if (e->profile != BR_PROFILE_ANY || profile < 0 || profile >= BCT_PROFILE_COUNT) return 0;
    unsigned gens = c->profiles ? c->profiles : br_source_profiles(c->source);   /* live cases: 0 */
    return (gens & (1u << profile)) != 0;
}

const br_expect *br_pick_expect(const br_case *c, int profile)
{
    for (int i = 0; i < c->nexpect; i++)
        if (expect_applies(c, &c->expect[i], profile)) return &c->expect[i];
    return NULL;
}

const br_expect *br_pick_grad(const br_case *c, int profile, int arg)
{
    for (int i = 0; i < c->nexpect; i++) {
        const br_expect *e = &c->expect[i];
        if (expect_applies(c, e, profile) && e->grad_arg == arg && e->status == BCT_OK)
            return e;
    }
    return NULL;
}

void br_caseset_free(br_caseset *cs)
{
    for (size_t i = 0; i < cs->nbufs; i++) br_shared_free(cs->bufs[i]);
    free(cs->bufs);
    br_shared_free(cs->cases);
    br_pool_free(&cs->pool);
    br_arena_free(&cs->data);
    memset(cs, 0, sizeof *cs);
}
