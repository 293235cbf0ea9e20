/* compare.c - output comparison: exact, ulp, fnv1a64 digests, and value formatting for diffs. */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bcast_ref.h"
#include "caseio.h"
#include "util.h"

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
