/* compare.c - output comparison: exact, ulp, fnv1a64 digests, and value formatting for diffs. */
#include "judge/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_ref.h"
#include "case/caseio.h"
#include "base/util.h"

void br_gather(const void *data, int dtype, int rank, const int64_t *shape,
               const int64_t *strides, int64_t offset, void *dst)
{
    size_t es = (size_t)bc_dtype_size(dtype);
    int64_t idx[BC_MAX_RANK];
    for (int i = 0; i < rank; i++) { if (shape[i] == 0) return; idx[i] = 0; }
    const char *src = data;
    char *o = dst;
    int64_t pos = offset;
    for (;;) {
        memcpy(o, src + pos * (int64_t)es, es);
        o += es;
        int d = rank - 1;
        /* odometer from the last axis */
        while (d >= 0) {
            /* (extent-1)*stride is bounded by the reader's view check; a
             * stride on an extent-1 dim may be anything, so never add it alone */
            if (++idx[d] < shape[d]) { pos += strides[d]; break; }
            pos -= strides[d] * (shape[d] - 1);
            idx[d] = 0;
            d--;
        }
        if (d < 0) return;
    }
}

static int is_nan_at(int dtype, const char *p)
{
    if (dtype == BCT_F32) { float f; memcpy(&f, p, 4); return isnan(f); }
    if (dtype == BCT_F64) { double f; memcpy(&f, p, 8); return isnan(f); }
    return 0;
}

/* Maps a float's bits to an integer that is monotonic in its value, so ulp
 * distance is a subtraction (-0 and +0 map next to each other). */
static int64_t ordered(int dtype, const void *p)
{
    if (dtype == BCT_F32) {
        int32_t i;
        memcpy(&i, p, 4);
        return i < 0 ? -(int64_t)(i & 0x7fffffff) : (int64_t)i;
    }
    int64_t i;
    memcpy(&i, p, 8);
    return i < 0 ? -(i & INT64_MAX) : i;
}

int64_t br_ulp_distance(int dtype, const void *a, const void *b)
{
    int na = is_nan_at(dtype, a), nb = is_nan_at(dtype, b);
    if (na || nb) return na && nb ? 0 : INT64_MAX;
    int64_t x = ordered(dtype, a), y = ordered(dtype, b);
    /* both in (-2^63, 2^63) with magnitude < 2^63: the difference can still
     * overflow, so do it in unsigned and saturate */
    uint64_t d = x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
    return d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
}

int br_compare(int dtype, const void *expected, const void *actual, int64_t n,
               int cmp, int64_t ulp, int64_t *first)
{
    return br_compare_tol(dtype, expected, actual, n, cmp, ulp, 0.0, first);
}

/* `ulp N abs A`: two finite floats also agree when they differ by at most A. */
static int within_abs(int dtype, const char *x, const char *y, double abs_tol)
{
    double e, a;
    if (abs_tol <= 0) return 0;
    if (dtype == BCT_F32) { float f, g; memcpy(&f, x, 4); memcpy(&g, y, 4); e = f; a = g; }
    else { memcpy(&e, x, 8); memcpy(&a, y, 8); }
    return isfinite(e) && isfinite(a) && fabs(e - a) <= abs_tol;
}

int br_compare_tol(int dtype, const void *expected, const void *actual, int64_t n,
                   int cmp, int64_t ulp, double abs_tol, int64_t *first)
{
    size_t es = (size_t)bc_dtype_size(dtype);
    const char *e = expected, *a = actual;
    int isf = dtype == BCT_F32 || dtype == BCT_F64;
    if (!isf) {
        if (memcmp(e, a, (size_t)n * es) == 0) return 0;
        for (int64_t i = 0; i < n; i++)
            if (memcmp(e + i * (int64_t)es, a + i * (int64_t)es, es) != 0) { *first = i; return 1; }
        return 0;
    }
    for (int64_t i = 0; i < n; i++) {
        const char *x = e + i * (int64_t)es, *y = a + i * (int64_t)es;
        if (memcmp(x, y, es) == 0) continue;
        if (is_nan_at(dtype, x) && is_nan_at(dtype, y)) continue;
        if (cmp == BR_CMP_ULP) {
            int infx = dtype == BCT_F32 ? isinf(*(const float *)(const void *)x) : isinf(*(const double *)(const void *)x);
            int infy = dtype == BCT_F32 ? isinf(*(const float *)(const void *)y) : isinf(*(const double *)(const void *)y);
            if (!infx && !infy && br_ulp_distance(dtype, x, y) <= ulp) continue;
            if (within_abs(dtype, x, y, abs_tol)) continue;
        }
        *first = i;
        return 1;
    }
    return 0;
}

uint64_t br_digest(int dtype, const void *data, int64_t n)
{
    uint64_t h = BR_FNV_BASIS;
    size_t es = (size_t)bc_dtype_size(dtype);
    const unsigned char *p = data;
    const uint16_t probe = 1;
    unsigned char little;
    memcpy(&little, &probe, 1);
    /* integers on a little-endian host: the bytes are already the digest's */
    if (little && dtype != BCT_F32 && dtype != BCT_F64) return br_fnv1a64(h, p, (size_t)n * es);
    for (int64_t i = 0; i < n; i++, p += es) {
        uint64_t v = 0;
        if (dtype == BCT_F32 && is_nan_at(dtype, (const char *)p)) v = 0x7fc00000u;
        else if (dtype == BCT_F64 && is_nan_at(dtype, (const char *)p)) v = 0x7ff8000000000000ull;
        else {
            uint8_t u8; uint16_t u16; uint32_t u32;
            switch (es) {
            case 1: memcpy(&u8, p, 1); v = u8; break;
            case 2: memcpy(&u16, p, 2); v = u16; break;
            case 4: memcpy(&u32, p, 4); v = u32; break;
            default: memcpy(&v, p, 8); break;
            }
        }
        /* little-endian byte order regardless of the host */
        for (size_t b = 0; b < es; b++) { h ^= (v >> (8 * b)) & 0xffu; h *= BR_FNV_PRIME; }
    }
    return h;
}

void br_format_value(int dtype, const void *data, int64_t i, char *buf, size_t cap)
{
    const char *p = (const char *)data + i * bc_dtype_size(dtype);
    switch (dtype) {
    case BCT_BOOL: case BCT_U8: { uint8_t v; memcpy(&v, p, 1); snprintf(buf, cap, "%u", (unsigned)v); break; }
    case BCT_I8: { int8_t v; memcpy(&v, p, 1); snprintf(buf, cap, "%d", (int)v); break; }
    case BCT_I16: { int16_t v; memcpy(&v, p, 2); snprintf(buf, cap, "%d", (int)v); break; }
    case BCT_I32: { int32_t v; memcpy(&v, p, 4); snprintf(buf, cap, "%ld", (long)v); break; }
    case BCT_I64: { int64_t v; memcpy(&v, p, 8); snprintf(buf, cap, "%lld", (long long)v); break; }
    case BCT_F32: {
        float v; memcpy(&v, p, 4);
        if (isnan(v) || isinf(v)) snprintf(buf, cap, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        else snprintf(buf, cap, "%.9g", (double)v);
        break;
    }
    case BCT_F64: {
        double v; memcpy(&v, p, 8);
        if (isnan(v) || isinf(v)) snprintf(buf, cap, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        else snprintf(buf, cap, "%.17g", v);
        break;
    }
    default: snprintf(buf, cap, "?"); break;
    }
}

void br_format_index(const int64_t *shape, int rank, int64_t flat, char *buf, size_t cap)
{
    int64_t idx[BC_MAX_RANK];
    for (int d = rank - 1; d >= 0; d--) {
        idx[d] = shape[d] ? flat % shape[d] : 0;
        flat = shape[d] ? flat / shape[d] : 0;
    }
    br_shape_str(idx, rank, buf, cap);
}

void br_format_values(int dtype, const void *data, int64_t n, int max, char *buf, size_t cap)
{
    size_t o = 0;
    if (cap < 8) { if (cap) buf[0] = '\0'; return; }
    buf[o++] = '[';
    for (int64_t i = 0; i < n && i < max; i++) {
        char v[48];
        br_format_value(dtype, data, i, v, sizeof v);
        int w = snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", v);
        if (w < 0 || (size_t)w >= cap - o) { o = cap - 1; break; }
        o += (size_t)w;
    }
    if (n > max && o + 6 < cap) { memcpy(buf + o, ", ...", 5); o += 5; }
    if (o + 2 <= cap) { buf[o++] = ']'; buf[o] = '\0'; } else buf[cap - 1] = '\0';
}

/* ---- classifying differences ---- */

const char *const br_diff_class_names[BR_DC_COUNT] = {
    "nan-dropped", "nan-invented", "inf", "signed-zero", "zero", "wrapped", "saturated", "high-half",
    "misplaced", "rounding", "other"
};

static int is_float(int dtype) { return dtype == BCT_F32 || dtype == BCT_F64; }

static double as_double(int dtype, const char *p)
{
    if (dtype == BCT_F32) { float f; memcpy(&f, p, 4); return (double)f; }
    double f;
    memcpy(&f, p, 8);
    return f;
}

static int64_t as_int(int dtype, const char *p)
{
    switch (dtype) {
    case BCT_BOOL: case BCT_U8: { uint8_t v; memcpy(&v, p, 1); return v; }
    case BCT_I8: { int8_t v; memcpy(&v, p, 1); return v; }
    case BCT_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case BCT_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* A key that is equal exactly when the elements are equal under exact
 * comparison (NaNs canonical): the misplaced-value lookup sorts these. */
static uint64_t elem_key(int dtype, const char *p)
{
    if (is_float(dtype)) {
        double v = as_double(dtype, p);
        if (isnan(v)) return 0x7ff8000000000000ull;
        uint64_t u;
        memcpy(&u, &v, 8);
        return u;
    }
    return (uint64_t)as_int(dtype, p);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int64_t sext(int64_t v, int bits) { return (int64_t)((uint64_t)v << (64 - bits)) >> (64 - bits); }

static int int_class(int dtype, int64_t e, int64_t a)
{
    static const int bits_of[] = { 1, 8, 8, 16, 32, 64, 32, 64 };
    int bits = bits_of[dtype];
    int is_signed = dtype == BCT_I8 || dtype == BCT_I16 || dtype == BCT_I32 || dtype == BCT_I64;
    for (int w = 8; w < bits; w *= 2)
        if (sext(e, w) == a || (!is_signed && (int64_t)((uint64_t)e & ((1ull << w) - 1)) == a)) return BR_DC_WRAPPED;
    if (bits > 1) {
        int64_t mx = is_signed ? (bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1)
                               : (int64_t)((1ull << bits) - 1);
        int64_t mn = is_signed ? (bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : 0;
        if (a == mx || a == mn) return BR_DC_SATURATED;
    }
    if (dtype == BCT_I64 && (uint32_t)e == (uint32_t)a) return BR_DC_HIGH_HALF;
    return -1;
}

static int float_class(int dtype, const char *x, const char *y)
{
    double e = as_double(dtype, x), a = as_double(dtype, y);
    if (isnan(e)) return BR_DC_NAN_DROPPED;
    if (isnan(a)) return BR_DC_NAN_INVENTED;
    if (isinf(e) || isinf(a)) return BR_DC_INF;
    if (e == 0 && a == 0) return BR_DC_SIGNED_ZERO;
    return -1;
}

/* Whether actual y is 0 (+0 or -0) and expected x a non-zero, non-NaN number. */
static int zero_for_number(int dtype, const char *x, const char *y)
{
    if (!is_float(dtype)) return as_int(dtype, y) == 0 && as_int(dtype, x) != 0;
    double e = as_double(dtype, x), a = as_double(dtype, y);
    return a == 0 && e != 0 && !isnan(e);
}

/* Whether expected[i] and actual[i] are equal under the comparison rule. */
static int same(int dtype, const char *x, const char *y, size_t es, int cmp, int64_t ulp, double abs_tol)
{
    if (memcmp(x, y, es) == 0) return 1;
    if (!is_float(dtype)) return 0;
    if (is_nan_at(dtype, x) && is_nan_at(dtype, y)) return 1;
    if (cmp != BR_CMP_ULP) return 0;
    double e = as_double(dtype, x), a = as_double(dtype, y);
    return !isinf(e) && !isinf(a) && (br_ulp_distance(dtype, x, y) <= ulp || within_abs(dtype, x, y, abs_tol));
}

int64_t br_diff_compute(int dtype, const void *expected, const void *actual, int64_t n,
                        int cmp, int64_t ulp, br_diff *d)
{
    return br_diff_compute_tol(dtype, expected, actual, n, cmp, ulp, 0.0, d);
}

int64_t br_diff_compute_tol(int dtype, const void *expected, const void *actual, int64_t n,
                            int cmp, int64_t ulp, double abs_tol, br_diff *d)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    d->dominant = -1;
    size_t es = (size_t)bc_dtype_size(dtype);
    const char *E = expected, *A = actual;
    uint64_t *keys = NULL;
    int64_t distinct = 0;   /* of the expected values: a value found elsewhere means little when few are distinct */
    for (int64_t i = 0; i < n; i++) {
        const char *x = E + (size_t)i * es, *y = A + (size_t)i * es;
        if (same(dtype, x, y, es, cmp, ulp, abs_tol)) continue;
        if (d->nfirst < BR_DIFF_FIRST) d->first[d->nfirst++] = i;
        d->count++;
        /* a 0 where a number was expected is that and nothing more: a 256 that
         * reads 0 is no more "wrapped" than an unwritten element is */
        int k = zero_for_number(dtype, x, y) ? BR_DC_ZERO
              : is_float(dtype) ? float_class(dtype, x, y) : int_class(dtype, as_int(dtype, x), as_int(dtype, y));
        if (k < 0) {
            if (keys == NULL && (keys = malloc((size_t)n * sizeof *keys)) != NULL) {
                for (int64_t j = 0; j < n; j++) keys[j] = elem_key(dtype, E + (size_t)j * es);
                qsort(keys, (size_t)n, sizeof *keys, cmp_u64);
                for (int64_t j = 0; j < n; j++) distinct += j == 0 || keys[j] != keys[j - 1];
            }
            uint64_t key = elem_key(dtype, y);
            if (keys != NULL && distinct * 2 >= n && n >= 16 && bsearch(&key, keys, (size_t)n, sizeof *keys, cmp_u64) != NULL)
                k = BR_DC_MISPLACED;
        }
        if (k < 0 && is_float(dtype)) {
            int64_t u = br_ulp_distance(dtype, x, y);
            if (u > d->max_ulp) d->max_ulp = u;
            k = u <= ((int64_t)1 << 20) ? BR_DC_ROUNDING : BR_DC_OTHER;
        }
        d->by_class[k < 0 ? BR_DC_OTHER : k]++;
    }
    free(keys);
    for (int k = 0; k < BR_DC_COUNT; k++)
        if (d->by_class[k] > 0 && (d->dominant < 0 || d->by_class[k] > d->by_class[d->dominant])) d->dominant = k;
    return d->count;
}

void br_diff_describe(const br_diff *d, const int64_t *shape, int rank, char *buf, size_t cap)
{
    br_buf b = { 0 };
    br_buf_printf(&b, "%lld of %lld elements differ:", (long long)d->count, (long long)d->n);
    const char *sep = " ";
    for (int k = 0; k < BR_DC_COUNT; k++) {
        if (d->by_class[k] == 0) continue;
        br_buf_printf(&b, "%s%lld %s", sep, (long long)d->by_class[k], br_diff_class_names[k]);
        if ((k == BR_DC_ROUNDING || k == BR_DC_OTHER) && d->max_ulp > 0)
            br_buf_printf(&b, " (max %lld ulp)", (long long)d->max_ulp);
        sep = ", ";
    }
    br_buf_puts(&b, "; first at");
    for (int i = 0; i < d->nfirst; i++) {
        char ix[256];
        br_format_index(shape, rank, d->first[i], ix, sizeof ix);
        br_buf_printf(&b, " %s", ix);
    }
    if (d->count > d->nfirst) br_buf_puts(&b, " ...");
    snprintf(buf, cap, "%s", b.s ? b.s : "");
    br_buf_free(&b);
}
