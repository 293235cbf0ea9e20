/* ops.c - the element-wise typed loops, one short loop per (op, dtype), plus casts (B18-B21). */
#include <float.h>
#include <math.h>
#include <string.h>
#include "ref_internal.h"

typedef uint8_t bc_bool;

/* One binary loop over n elements with byte strides. The contiguous and
 * one-operand-scalar shapes of a row get their own plain loops so the
 * compiler can vectorize them (as NumPy's BINARY_LOOP_FAST does); the
 * semantics are the same expression in every branch. */
#define LOOP2(name, T, TO, EXPR)                                                        \
    static void name(char *o, const char *a, const char *b, int64_t n,                  \
                     int64_t so, int64_t sa, int64_t sb)                                \
    {                                                                                   \
        const int64_t zt = (int64_t)sizeof(T), zo = (int64_t)sizeof(TO);                \
        if (so == zo && sa == zt && sb == zt) {                                         \
            TO *op = (TO *)(void *)o;                                                   \
            const T *ap = (const T *)(const void *)a, *bp = (const T *)(const void *)b; \
            for (int64_t i = 0; i < n; i++) { T x = ap[i], y = bp[i]; op[i] = EXPR; }   \
        } else if (so == zo && sa == 0 && sb == zt) {                                   \
            TO *op = (TO *)(void *)o;                                                   \
            const T x = *(const T *)(const void *)a;                                    \
            const T *bp = (const T *)(const void *)b;                                   \
            for (int64_t i = 0; i < n; i++) { T y = bp[i]; op[i] = EXPR; }              \
        } else if (so == zo && sa == zt && sb == 0) {                                   \
            TO *op = (TO *)(void *)o;                                                   \
            const T *ap = (const T *)(const void *)a;                                   \
            const T y = *(const T *)(const void *)b;                                    \
            for (int64_t i = 0; i < n; i++) { T x = ap[i]; op[i] = EXPR; }              \
        } else {                                                                        \
            for (int64_t i = 0; i < n; i++) {                                           \
                T x = *(const T *)(const void *)(a + i * sa);                           \
                T y = *(const T *)(const void *)(b + i * sb);                           \
                *(TO *)(void *)(o + i * so) = EXPR;                                     \
            }                                                                           \
        }                                                                               \
    }

/* ---- integer semantics (B20): wrap through unsigned W; no UB ---- */
#define INT_FUNCS(T, W, S, TMIN, SIGNED)                                                \
    static inline T add_##S(T x, T y) { return (T)((W)x + (W)y); }                      \
    static inline T sub_##S(T x, T y) { return (T)((W)x - (W)y); }                      \
    static inline T mul_##S(T x, T y) { return (T)((W)x * (W)y); }                      \
    /* floor division; /0 gives 0 (NumPy; torch is refused before the loop), */         \
    /* MIN // -1 wraps to MIN as both libraries do. */                                  \
    static inline T fdiv_##S(T x, T y)                                                  \
    {                                                                                   \
        T q;                                                                            \
        if (y == 0) return 0;                                                           \
        if (SIGNED && x == TMIN && y == (T)-1) return x;                                \
        q = (T)(x / y);                                                                 \
        if ((T)(x % y) != 0 && ((x < 0) != (y < 0))) q = (T)(q - 1);                    \
        return q;                                                                       \
    }                                                                                   \
    /* remainder with the divisor's sign (Python style); %0 and MIN % -1 give 0 */      \
    static inline T rem_##S(T x, T y)                                                   \
    {                                                                                   \
        T r;                                                                            \
        if (y == 0 || (SIGNED && y == (T)-1)) return 0;                                 \
        r = (T)(x % y);                                                                 \
        if (r != 0 && ((r < 0) != (y < 0))) r = (T)(r + y);                             \
        return r;                                                                       \
    }                                                                                   \
    /* pow by repeated squaring, wrapping; a negative exponent follows torch */         \
    /* (NumPy's refusal is checked before the loop): 1 -> 1, -1 -> +-1, else 0. */      \
    static inline T pow_##S(T x, T y)                                                   \
    {                                                                                   \
        W r = 1, base = (W)x, e;                                                        \
        if (y < 0) {                                                                    \
            if (x == 1) return 1;                                                       \
            if (SIGNED && x == (T)-1) return (T)(((W)y & 1u) ? -1 : 1);                 \
            return 0;                                                                   \
        }                                                                               \
        for (e = (W)y; e != 0; e >>= 1) {                                               \
            if (e & 1u) r *= base;                                                      \
            base *= base;                                                               \
        }                                                                               \
        return (T)r;                                                                    \
    }

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wconversion"
#endif
INT_FUNCS(int8_t, uint32_t, i8, INT8_MIN, 1)
INT_FUNCS(uint8_t, uint32_t, u8, 0, 0)
INT_FUNCS(int16_t, uint32_t, i16, INT16_MIN, 1)
INT_FUNCS(int32_t, uint32_t, i32, INT32_MIN, 1)
INT_FUNCS(int64_t, uint64_t, i64, INT64_MIN, 1)

/* ---- float semantics (B21) ---- */
/* NumPy's npy_divmod / torch's div_floor: floor of the exact quotient,
 * snapped; x // 0 is the IEEE x / 0. */
#define FLOAT_FUNCS(T, S, FMOD, FLOOR, COPYSIGN, POW)                                   \
    static inline T fdiv_##S(T a, T b)                                                  \
    {                                                                                   \
        T mod, div, fl;                                                                 \
        if (b == 0) return a / b;                                                       \
        mod = FMOD(a, b);                                                               \
        div = (a - mod) / b;                                                            \
        if (mod != 0 && ((b < 0) != (mod < 0))) div -= (T)1;                            \
        if (div != 0) {                                                                 \
            fl = FLOOR(div);                                                            \
            if (div - fl > (T)0.5) fl += (T)1;                                          \
            return fl;                                                                  \
        }                                                                               \
        return COPYSIGN((T)0, a / b);                                                   \
    }                                                                                   \
    /* NumPy: an exact zero remainder takes the divisor's sign */                       \
    static inline T remnp_##S(T a, T b)                                                 \
    {                                                                                   \
        T mod = FMOD(a, b);                                                             \
        if (b == 0) return mod;                                                         \
        if (mod != 0) { if ((b < 0) != (mod < 0)) mod += b; }                           \
        else mod = COPYSIGN((T)0, b);                                                   \
        return mod;                                                                     \
    }                                                                                   \
    /* torch: an exact zero remainder keeps fmod's sign (the dividend's) */             \
    static inline T remth_##S(T a, T b)                                                 \
    {                                                                                   \
        T mod = FMOD(a, b);                                                             \
        if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;                               \
        return mod;                                                                     \
    }                                                                                   \
    /* NaN propagates; NumPy returns y on ties (max(-0., 0.) is 0.), */                 \
    /* torch's scalar path returns x (std::max). */                                     \
    static inline T maxnp_##S(T a, T b) { return (isnan(a) || a > b) ? a : b; }         \
    static inline T minnp_##S(T a, T b) { return (isnan(a) || a < b) ? a : b; }         \
    static inline T maxth_##S(T a, T b) { return isnan(a) ? a : isnan(b) ? b : (a < b ? b : a); } \
    static inline T minth_##S(T a, T b) { return isnan(a) ? a : isnan(b) ? b : (b < a ? b : a); } \
    static inline T pow_##S(T a, T b) { return POW(a, b); }                           \
    /* NumPy 2: x ** +-0 and 1 ** y are 1 even for a signalling NaN (libm's */          \
    /* pow, which NumPy 1.24 and torch use there, returns NaN; B21) */                  \
    static inline T pownp2_##S(T a, T b) { return (b == 0 || a == 1) ? (T)1 : POW(a, b); }

FLOAT_FUNCS(float, f32, fmodf, floorf, copysignf, powf)
FLOAT_FUNCS(double, f64, fmod, floor, copysign, pow)

/* ---- loops per (op, dtype) ---- */
#define INT_LOOPS(T, S)                                                                 \
    LOOP2(add_loop_##S, T, T, add_##S(x, y))                                            \
    LOOP2(sub_loop_##S, T, T, sub_##S(x, y))                                            \
    LOOP2(mul_loop_##S, T, T, mul_##S(x, y))                                            \
    LOOP2(fdiv_loop_##S, T, T, fdiv_##S(x, y))                                          \
    LOOP2(rem_loop_##S, T, T, rem_##S(x, y))                                            \
    LOOP2(pow_loop_##S, T, T, pow_##S(x, y))                                            \
    LOOP2(max_loop_##S, T, T, (x > y ? x : y))                                          \
    LOOP2(min_loop_##S, T, T, (x < y ? x : y))                                          \
    LOOP2(band_loop_##S, T, T, (T)(x & y))                                              \
    LOOP2(bor_loop_##S, T, T, (T)(x | y))                                               \
    LOOP2(bxor_loop_##S, T, T, (T)(x ^ y))

#define CMP_LOOPS(T, S)                                                                 \
    LOOP2(eq_loop_##S, T, bc_bool, (bc_bool)(x == y))                                   \
    LOOP2(ne_loop_##S, T, bc_bool, (bc_bool)(x != y))                                   \
    LOOP2(lt_loop_##S, T, bc_bool, (bc_bool)(x < y))                                    \
    LOOP2(le_loop_##S, T, bc_bool, (bc_bool)(x <= y))                                   \
    LOOP2(gt_loop_##S, T, bc_bool, (bc_bool)(x > y))                                    \
    LOOP2(ge_loop_##S, T, bc_bool, (bc_bool)(x >= y))                                   \
    LOOP2(land_loop_##S, T, bc_bool, (bc_bool)(x != 0 && y != 0))                       \
    LOOP2(lor_loop_##S, T, bc_bool, (bc_bool)(x != 0 || y != 0))                        \
    LOOP2(lxor_loop_##S, T, bc_bool, (bc_bool)((x != 0) != (y != 0)))

#define FLOAT_LOOPS(T, S, SQRT)                                                         \
    LOOP2(add_loop_##S, T, T, x + y)                                                    \
    LOOP2(sub_loop_##S, T, T, x - y)                                                    \
    LOOP2(mul_loop_##S, T, T, x * y)                                                    \
    LOOP2(div_loop_##S, T, T, x / y)                                                    \
    LOOP2(fdiv_loop_##S, T, T, fdiv_##S(x, y))                                          \
    LOOP2(remnp_loop_##S, T, T, remnp_##S(x, y))                                        \
    LOOP2(remth_loop_##S, T, T, remth_##S(x, y))                                        \
    LOOP2(pow_loop_##S, T, T, pow_##S(x, y))                                            \
    LOOP2(pownp2_loop_##S, T, T, pownp2_##S(x, y))                                      \
    LOOP2(sqrt_loop_##S, T, T, ((void)y, SQRT(x)))                                      \
    LOOP2(maxnp_loop_##S, T, T, maxnp_##S(x, y))                                        \
    LOOP2(minnp_loop_##S, T, T, minnp_##S(x, y))                                        \
    LOOP2(maxth_loop_##S, T, T, maxth_##S(x, y))                                        \
    LOOP2(minth_loop_##S, T, T, minth_##S(x, y))

INT_LOOPS(int8_t, i8)
INT_LOOPS(uint8_t, u8)
INT_LOOPS(int16_t, i16)
INT_LOOPS(int32_t, i32)
INT_LOOPS(int64_t, i64)
CMP_LOOPS(bc_bool, b)
CMP_LOOPS(int8_t, i8)
CMP_LOOPS(uint8_t, u8)
CMP_LOOPS(int16_t, i16)
CMP_LOOPS(int32_t, i32)
CMP_LOOPS(int64_t, i64)
CMP_LOOPS(float, f32)
CMP_LOOPS(double, f64)
FLOAT_LOOPS(float, f32, sqrtf)
FLOAT_LOOPS(double, f64, sqrt)
/* bool: add is or, mul is and (both libraries); max/min likewise. */
LOOP2(or_loop_b, bc_bool, bc_bool, (bc_bool)(x | y))
LOOP2(and_loop_b, bc_bool, bc_bool, (bc_bool)(x & y))
LOOP2(xor_loop_b, bc_bool, bc_bool, (bc_bool)(x ^ y))
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#define CMP_CASES(S)                                                                    \
    case BCT_EQ: return eq_loop_##S;                                                    \
    case BCT_NE: return ne_loop_##S;                                                    \
    case BCT_LT: return lt_loop_##S;                                                    \
    case BCT_LE: return le_loop_##S;                                                    \
    case BCT_GT: return gt_loop_##S;                                                    \
    case BCT_GE: return ge_loop_##S;                                                    \
    case BCT_LOGICAL_AND: return land_loop_##S;                                         \
    case BCT_LOGICAL_OR: return lor_loop_##S;                                           \
    case BCT_LOGICAL_XOR: return lxor_loop_##S;

#define INT_CASES(S)                                                                    \
    case BCT_ADD: return add_loop_##S;                                                  \
    case BCT_SUB: return sub_loop_##S;                                                  \
    case BCT_MUL: return mul_loop_##S;                                                  \
    case BCT_FLOOR_DIVIDE: return fdiv_loop_##S;                                        \
    case BCT_REMAINDER: return rem_loop_##S;                                            \
    case BCT_POW: return pow_loop_##S;                                                  \
    case BCT_MAXIMUM: return max_loop_##S;                                              \
    case BCT_MINIMUM: return min_loop_##S;                                              \
    case BCT_BITWISE_AND: return band_loop_##S;                                         \
    case BCT_BITWISE_OR: return bor_loop_##S;                                           \
    case BCT_BITWISE_XOR: return bxor_loop_##S;                                         \
    CMP_CASES(S)                                                                        \
    default: return NULL;

#define FLOAT_CASES(S)                                                                  \
    case BCT_ADD: return add_loop_##S;                                                  \
    case BCT_SUB: return sub_loop_##S;                                                  \
    case BCT_MUL: return mul_loop_##S;                                                  \
    case BCT_DIV: return div_loop_##S;                                                  \
    case BCT_FLOOR_DIVIDE: return fdiv_loop_##S;                                        \
    case BCT_REMAINDER: return np ? remnp_loop_##S : remth_loop_##S;                    \
    case BCT_POW: return profile == BCT_PROFILE_NUMPY2 ? pownp2_loop_##S : pow_loop_##S; \
    case BCT_MAXIMUM: return np ? maxnp_loop_##S : maxth_loop_##S;                      \
    case BCT_MINIMUM: return np ? minnp_loop_##S : minth_loop_##S;                      \
    CMP_CASES(S)                                                                        \
    default: return NULL;

/* B26, NumPy 2: pow's loop for an exponent that is one element, 0.5, in
 * every position: sqrt (x ** 0.5 of -inf is NaN, of -0 is -0). */
bc_loop2 bc_pow_half_loop(int dtype)
{
    return dtype == BCT_F32 ? sqrt_loop_f32 : dtype == BCT_F64 ? sqrt_loop_f64 : NULL;
}

/* Selected once per call (never per element). NULL: no loop for that pair,
 * which bc_op_dtypes has already refused. */
bc_loop2 bc_binary_loop(int op, int dtype, int profile)
{
    int np = bc_profile_is_numpy(profile);
    switch (dtype) {
    case BCT_BOOL:
        switch (op) {
        case BCT_ADD: case BCT_MAXIMUM: case BCT_BITWISE_OR: return or_loop_b;
        case BCT_MUL: case BCT_MINIMUM: case BCT_BITWISE_AND: return and_loop_b;
        case BCT_BITWISE_XOR: return xor_loop_b;
        CMP_CASES(b)
        default: return NULL;
        }
    case BCT_I8:  switch (op) { INT_CASES(i8) }
    case BCT_U8:  switch (op) { INT_CASES(u8) }
    case BCT_I16: switch (op) { INT_CASES(i16) }
    case BCT_I32: switch (op) { INT_CASES(i32) }
    case BCT_I64: switch (op) { INT_CASES(i64) }
    case BCT_F32: switch (op) { FLOAT_CASES(f32) }
    case BCT_F64: switch (op) { FLOAT_CASES(f64) }
    default: return NULL;
    }
}

/* ---- element access and casts ---- */
int64_t bc_load_i64(const char *p, int dt)
{
    switch (dt) {
    case BCT_BOOL: return *(const uint8_t *)p != 0;
    case BCT_I8: return *(const int8_t *)p;
    case BCT_U8: return *(const uint8_t *)p;
    case BCT_I16: return *(const int16_t *)(const void *)p;
    case BCT_I32: return *(const int32_t *)(const void *)p;
    case BCT_I64: return *(const int64_t *)(const void *)p;
    case BC_U64: { int64_t v; memcpy(&v, p, 8); return v; }   /* the bits; bc_load_f64 reads it unsigned */
    default: {
        double v = bc_load_f64(p, dt);
        /* Guarded: out-of-range and NaN give INT64_MIN, as x86 does. */
        return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (int64_t)v : INT64_MIN;
    }
    }
}

double bc_load_f64(const char *p, int dt)
{
    if (dt == BCT_F32) return *(const float *)(const void *)p;
    if (dt == BCT_F64) return *(const double *)(const void *)p;
    if (dt == BC_U64) { uint64_t u; memcpy(&u, p, 8); return (double)u; }
    return (double)bc_load_i64(p, dt);
}

/* double -> float without UB: a finite value beyond FLT_MAX rounds to
 * FLT_MAX or to infinity as IEEE round-to-nearest would. */
static float to_f32(double v)
{
    if (isfinite(v) && fabs(v) > FLT_MAX) {
        float big = fabs(v) >= 0x1.ffffffp+127 ? INFINITY : FLT_MAX;
        return v < 0 ? -big : big;
    }
    return (float)v;
}

/* Element conversion with NumPy/torch cast semantics for the pairs the
 * type rules can produce: ints wrap, anything to bool is != 0 (NaN is true),
 * i64 -> f32 rounds once. */
void bc_cast(char *dst, int dt, int64_t ds, const char *src, int st, int64_t ss, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        const char *s = src + i * ss;
        void *d = dst + i * ds;
        if (dt == BCT_F32 || dt == BCT_F64) {
            if (st == BCT_F32 || st == BCT_F64) {
                double v = bc_load_f64(s, st);
                if (dt == BCT_F32) *(float *)d = to_f32(v); else *(double *)d = v;
            } else if (st == BC_U64) {
                uint64_t v;
                memcpy(&v, s, 8);
                if (dt == BCT_F32) *(float *)d = (float)v; else *(double *)d = (double)v;
            } else {
                int64_t v = bc_load_i64(s, st);
                if (dt == BCT_F32) *(float *)d = (float)v; else *(double *)d = (double)v;
            }
        } else if (dt == BCT_BOOL) {
            *(uint8_t *)d = (uint8_t)((st == BCT_F32 || st == BCT_F64) ? bc_load_f64(s, st) != 0
                                                                       : bc_load_i64(s, st) != 0);
        } else {
            uint64_t u = (uint64_t)bc_load_i64(s, st);
            switch (dt) {
            case BCT_I8: *(int8_t *)d = (int8_t)(uint8_t)u; break;
            case BCT_U8: *(uint8_t *)d = (uint8_t)u; break;
            case BCT_I16: *(int16_t *)d = (int16_t)(uint16_t)u; break;
            case BCT_I32: *(int32_t *)d = (int32_t)(uint32_t)u; break;
            default: *(int64_t *)d = (int64_t)u; break;
            }
        }
    }
}

/* One where row for elements of a fixed SIZE: a memcpy of a constant size
 * compiles to a single load and store, where a run-time size would cost a
 * libc call per element. */
#define WHERE_ROW(SIZE) \
    for (int64_t i = 0; i < n; i++) \
        memcpy(o + i * so, c[i * sc] ? x + i * sx : y + i * sy, SIZE)

/* where over elements of `size` bytes (1, 2, 4 or 8); cond is already bool. */
void bc_where_loop(char *o, const char *c, const char *x, const char *y, int64_t n,
                   int64_t so, int64_t sc, int64_t sx, int64_t sy, int size)
{
    switch (size) {
    case 1: WHERE_ROW(1); break;
    case 2: WHERE_ROW(2); break;
    case 4: WHERE_ROW(4); break;
    default: WHERE_ROW(8); break;
    }
}

/* B42: torch's div(rounding_mode='floor') is the floor division above (torch's
 * div_floor, NumPy's npy_divmod), exported for mathops.c. */
double bc_floor_div_f64(double a, double b) { return fdiv_f64(a, b); }
float bc_floor_div_f32(float a, float b) { return fdiv_f32(a, b); }
int64_t bc_floor_div_i64(int64_t a, int64_t b) { return fdiv_i64(a, b); }
