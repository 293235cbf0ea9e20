/* explore_gen.c - explore's case generator: a result shape first, operands derived from it on purpose, then layouts and values; every draw from the case's own seed. */
#include "explore/explore_gen.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/rng.h"

typedef struct gen {
    br_rng r;
    br_spec *s;
    uint64_t ops, grad_ops;
    uint32_t dtypes;
    int max_rank, profile;
    int force_rank;          /* >= 0: the result rank of a probing case (one above the claim) */
    unsigned flags;
    int64_t max_elems;
    int64_t large;           /* > 0: a large case, its result about this many elements (0 extents avoided) */
    int grad;                /* a gradient case (BCT_MODE_GRAD): the op's inputs, then the incoming gradient */
} gen;

enum { ROLE_IN, ROLE_OUT, ROLE_OVERLAP };   /* layouts: an input, a writable arg, one that overlaps itself */

static int chance(gen *g, uint32_t num, uint32_t den) { return br_rng_chance(&g->r, num, den); }
static int64_t range(gen *g, int64_t lo, int64_t hi) { return br_rng_range(&g->r, lo, hi); }

/* ---- shapes ---- */

/* The fast-path sizes: 2^k-1, 2^k, 2^k+1 for k = 1..12, and 17, 31, 127, 257, 1031. */
static int64_t fast_size(gen *g)
{
    static const int64_t extra[] = { 17, 31, 127, 257, 1031 };
    int64_t i = range(g, 0, 36 + 5 - 1);
    if (i >= 36) return extra[i - 36];
    int64_t p = (int64_t)1 << (i / 3 + 1);
    return p + (i % 3) - 1;
}

static int64_t pick_extent(gen *g)
{
    static const uint32_t w[] = { 30, 15, 5, 22, 23, 5 };
    switch (br_rng_pick(&g->r, w, 6)) {
    case 0: return 1;
    case 1: return 2;
    case 2: return 0;
    case 3: return range(g, 3, 8);
    case 4: return fast_size(g);
    default: return range(g, 9, 40);
    }
}

/* The result's rank: mostly 0-4, sometimes 5-8, rarely up to max_rank. */
static int pick_rank(gen *g)
{
    static const uint32_t w[] = { 8, 18, 22, 18, 12, 14, 8 };
    if (g->force_rank >= 0) return g->force_rank;
    int k = br_rng_pick(&g->r, w, 7), r;
    if (k <= 4) r = k;
    else if (k == 5) r = (int)range(g, 5, 8);
    else {
        static const uint32_t t[] = { 2, 1, 1 };
        int band = br_rng_pick(&g->r, t, 3);
        r = band == 0 ? (int)range(g, 9, 16) : band == 1 ? (int)range(g, 17, 32) : (int)range(g, 33, BC_MAX_RANK);
    }
    if (r > g->max_rank) r = (int)range(g, 0, g->max_rank);
    return r;
}

/* Product of the extents, saturating at INT64_MAX. */
static int64_t count(const int64_t *sh, int rank)
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++) if (sh[d] == 0) return 0;
    for (int d = 0; d < rank; d++) if (br_mul_i64(n, sh[d], &n) != 0) return INT64_MAX;
    return n;
}

/* Product of the extents with 0 counted as 1 (what a layout spans), saturating. */
static int64_t span_count(const int64_t *sh, int rank)
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++) if (br_mul_i64(n, sh[d] > 1 ? sh[d] : 1, &n) != 0) return INT64_MAX;
    return n;
}

/* Lowers the largest extents until the shape (0s counted as 1s) holds at most max elements. */
static void bound(gen *g, int64_t *sh, int rank, int64_t max)
{
    while (span_count(sh, rank) > max) {
        int big = 0;
        for (int d = 1; d < rank; d++) if (sh[d] > sh[big]) big = d;
        sh[big] = sh[big] > 3 ? range(g, 1, 3) : sh[big] - 1;
    }
}

/* A large case's result: rank 1-4, every extent drawn as usual (0 made 1),
 * then one dim stretched so that the product is about g->large, +-1 (tails
 * past the SIMD widths and blocking sizes). */
static int large_shape(gen *g, int64_t *sh)
{
    int r = (int)range(g, 1, g->max_rank < 4 ? (g->max_rank > 1 ? g->max_rank : 1) : 4), big = (int)range(g, 0, r - 1);
    int64_t rest = 1;
    for (int d = 0; d < r; d++) {
        sh[d] = pick_extent(g);
        if (sh[d] == 0) sh[d] = 1;
        if (sh[d] > 64) sh[d] = range(g, 2, 64);
        if (d != big) rest *= sh[d];
    }
    sh[big] = g->large / rest + range(g, -1, 1);
    if (sh[big] < 1) sh[big] = 1;
    return r;
}

static int result_shape(gen *g, int64_t *sh)
{
    if (g->large > 0 && g->max_rank > 0) return large_shape(g, sh);
    int r = pick_rank(g);
    /* a high rank keeps about 8 dims that are not 1 */
    for (int d = 0; d < r; d++) sh[d] = r > 8 && !chance(g, 8, (uint32_t)r) ? 1 : pick_extent(g);
    bound(g, sh, r, g->max_elems);
    return r;
}

/* An operand's shape derived from the result shape R (rank r): leading dims
 * dropped in 2 cases of 5, each remaining dim set to 1 in 1 of 4 (B1, B2). */
static int derive(gen *g, const int64_t *R, int r, int64_t *out)
{
    int k = chance(g, 2, 5) ? (int)range(g, 0, r) : r;
    for (int d = 0; d < k; d++) out[d] = chance(g, 1, 4) ? 1 : R[r - k + d];
    return k;
}

/* Makes operands a and b clash at one right-aligned dim (B3): two extents,
 * neither 1, that differ (0 against n > 1 included). b gains leading 1s
 * when it is too short. No-op when a has no dims. */
static void clash(gen *g, int64_t *sa, int ra, int64_t *sb, int *rb)
{
    if (ra == 0) return;
    int k = (int)range(g, 1, ra);   /* from the right */
    if (*rb < k) {
        int add = k - *rb;
        memmove(sb + add, sb, (size_t)*rb * sizeof *sb);
        for (int d = 0; d < add; d++) sb[d] = 1;
        *rb = k;
    }
    int64_t ea = sa[ra - k] > 1 ? sa[ra - k] : range(g, 2, 4);
    int64_t eb = chance(g, 1, 4) ? 0 : ea + range(g, 1, 3);
    sa[ra - k] = ea;
    sb[*rb - k] = eb;
}

/* ---- dtypes ---- */

static int pick_from(gen *g, uint32_t mask)
{
    int n = 0, idx[BCT_DTYPE_COUNT];
    for (int d = 0; d < BCT_DTYPE_COUNT; d++) if (mask & (1u << d)) idx[n++] = d;
    return n ? idx[br_rng_below(&g->r, (uint64_t)n)] : BCT_F32;
}

/* An operand dtype for op: bitwise ops mostly get bool/int ones. */
static int pick_dtype(gen *g, int op)
{
    uint32_t fl = (1u << BCT_F32) | (1u << BCT_F64), intish = g->dtypes & ~fl;
    if (g->grad && (g->dtypes & fl) && !chance(g, 1, 10)) return pick_from(g, g->dtypes & fl);   /* mostly differentiable */
    if (op >= BCT_BITWISE_AND && op <= BCT_BITWISE_XOR && intish && !chance(g, 1, 10)) return pick_from(g, intish);
    return pick_from(g, g->dtypes);
}

static int second_dtype(gen *g, int op, int first)
{
    return chance(g, 7, 10) ? first : pick_dtype(g, op);
}

/* ---- layouts ---- */

/* Strides, offset and storage for a's shape: contiguous, or (strided
 * targets, about half the time) a mix of a transposed order, a padded dim,
 * reversed dims (negative strides), an offset and stride-0 dims. A
 * ROLE_OVERLAP arg gets stride 0 on an extent > 1 (it overlaps itself, B9). */
static void layout(gen *g, br_sarg *a, int role)
{
    int r = a->rank, perm[BC_MAX_RANK];
    int64_t off = 0, acc = 1, lo = 0, hi = 0;
    unsigned char pad[BC_MAX_RANK] = { 0 }, neg[BC_MAX_RANK] = { 0 }, zero[BC_MAX_RANK] = { 0 };
    for (int d = 0; d < r; d++) perm[d] = d;
    int fancy = (g->flags & BCT_CAP_STRIDED) && (role == ROLE_OVERLAP || chance(g, 9, 20));
    if (fancy && r > 1 && chance(g, 2, 5))
        for (int d = r - 1; d > 0; d--) { int j = (int)range(g, 0, d), t = perm[d]; perm[d] = perm[j]; perm[j] = t; }
    if (fancy && r > 0 && chance(g, 1, 4)) pad[range(g, 0, r - 1)] = 1;
    if (fancy && chance(g, 3, 10)) for (int d = 0; d < r; d++) neg[d] = (unsigned char)chance(g, 1, 3);
    if (fancy && chance(g, 3, 10)) off = range(g, 1, 5);
    if (fancy && r > 0 && (role == ROLE_OVERLAP || (role == ROLE_IN && chance(g, 1, 5)))) {
        int d = (int)range(g, 0, r - 1);
        for (int k = 0; k < r && a->shape[d] <= 1; k++) d = (d + 1) % r;   /* an extent > 1 if any */
        zero[d] = 1;
    }
    for (int j = r - 1; j >= 0; j--) {
        int d = perm[j];
        int64_t e = a->shape[d] > 1 ? a->shape[d] : 1;
        if (zero[d]) { a->strides[d] = 0; continue; }
        int64_t st = acc * (pad[d] ? 2 : 1);
        acc = st * e;
        a->strides[d] = neg[d] ? -st : st;
    }
    for (int d = 0; d < r; d++) {
        int64_t span = (a->shape[d] > 0 ? a->shape[d] - 1 : 0) * a->strides[d];
        if (span < 0) lo += span; else hi += span;
    }
    a->offset = off - lo;
    a->storage = count(a->shape, r) == 0 ? a->offset + range(g, 0, 2) : a->offset + hi + 1;
}

/* ---- values ---- */

static void put(br_sarg *a, int64_t i, double f, int64_t v)
{
    unsigned char *p = a->data + (size_t)i * (size_t)bc_dtype_size(a->dtype);
    switch (a->dtype) {
    case BCT_BOOL: { uint8_t u = v != 0; memcpy(p, &u, 1); break; }
    case BCT_I8: case BCT_U8: { uint8_t u = (uint8_t)(uint64_t)v; memcpy(p, &u, 1); break; }
    case BCT_I16: { uint16_t u = (uint16_t)(uint64_t)v; memcpy(p, &u, 2); break; }
    case BCT_I32: { uint32_t u = (uint32_t)(uint64_t)v; memcpy(p, &u, 4); break; }
    case BCT_I64: memcpy(p, &v, 8); break;
    case BCT_F32: { float x = (float)f; memcpy(p, &x, 4); break; }
    default: memcpy(p, &f, 8); break;
    }
}

/* A special value of a's dtype: NaN, +-0, +-inf, the extremes, -1, 1, 1/2. */
static void put_special(gen *g, br_sarg *a, int64_t i)
{
    static const double f64[] = { NAN, INFINITY, -INFINITY, 0.0, -0.0, DBL_MAX, -DBL_MAX, DBL_MIN, 4.9406564584124654e-324,
                                  -1.0, 1.0, 0.5 };
    static const double f32[] = { NAN, INFINITY, -INFINITY, 0.0, -0.0, FLT_MAX, -FLT_MAX, FLT_MIN, 1.40129846e-45,
                                  -1.0, 1.0, 0.5 };
    static const int64_t lim[][2] = { { 0, 1 }, { -128, 127 }, { 0, 255 }, { -32768, 32767 },
                                      { -2147483647 - 1, 2147483647 }, { INT64_MIN, INT64_MAX } };
    int k = (int)range(g, 0, 11);
    if (a->dtype == BCT_F64) { put(a, i, f64[k], 0); return; }
    if (a->dtype == BCT_F32) { put(a, i, f32[k], 0); return; }
    int64_t ints[] = { lim[a->dtype][0], lim[a->dtype][1], -1, 0, 1, a->dtype == BCT_U8 ? 128 : -2 };
    put(a, i, 0, ints[k % 6]);
}

/* Fills a's storage: a ramp ((i*A + B) mod M - K) / D (D only for floats;
 * integers wrap to the dtype, bool is v != 0), recorded as a's pattern; then,
 * when special, about 1 element in 6 becomes a special value, and with zeros
 * about 1 in 4 becomes 0 (divisors, B20). Positions are drawn, not every
 * element tossed for. */
static void fill(gen *g, br_sarg *a, int special, int zeros)
{
    static const int64_t mods[] = { 3, 5, 7, 16, 100, 1000 };
    static const int64_t divs[] = { 1, 2, 4, 8 };
    int64_t A = range(g, 1, 7), M = mods[range(g, 0, 5)], B = range(g, 0, M - 1), K = range(g, 0, M / 2);
    int64_t D = divs[range(g, 0, 3)], n = a->storage;
    int fl = a->dtype == BCT_F32 || a->dtype == BCT_F64;
    int64_t pat[5] = { A, B, M, K, fl ? D : 1 };
    br_ramp_fill(a->dtype, pat, a->data, n);
    a->has_pat = 1;
    memcpy(a->pat, pat, sizeof pat);
    if (n == 0) return;
    if (special) for (int64_t k = (n + range(g, 0, 5)) / 6; k > 0; k--) put_special(g, a, range(g, 0, n - 1));
    if (zeros) for (int64_t k = (n + range(g, 0, 3)) / 4; k > 0; k--) put(a, range(g, 0, n - 1), 0.0, 0);
}

/* Sets arg i's name, dtype and shape; lays it out and fills it. 0 or -1 (memory). */
static int make_arg(gen *g, int i, const char *name, int dtype, const int64_t *sh, int rank, int role, int special, int zeros)
{
    br_sarg *a = &g->s->args[i];
    snprintf(a->name, sizeof a->name, "%s", name);
    a->dtype = dtype;
    a->rank = rank;
    if (rank > 0) memcpy(a->shape, sh, (size_t)rank * sizeof *sh);
    if (dtype == BCT_NONE) { a->storage = 0; return 0; }
    layout(g, a, role);
    if (br_sarg_alloc(a) != 0) return -1;
    /* gradient and large cases: ramps only (a summation order cannot change a
     * sum of finite ramp terms by more than its bound; a large storage is
     * written as its pattern) */
    fill(g, a, special && !g->grad && !g->large, zeros && !g->large);
    return 0;
}

/* ---- the incoming gradient ---- */

typedef struct fwd { int called, dtype, rank; int64_t shape[BC_MAX_RANK]; } fwd;

/* alloc_output that only records the forward result's dtype and shape (and refuses). */
static void *fwd_alloc(void *ctx, int dtype, int rank, const int64_t *shape)
{
    fwd *f = ctx;
    if (f->called++ || rank < 0 || rank > BC_MAX_RANK) return NULL;
    f->dtype = dtype;
    f->rank = rank;
    if (rank > 0) memcpy(f->shape, shape, (size_t)rank * sizeof *shape);
    return NULL;
}

/* Makes the last arg the incoming gradient of a grad-mode case (B23): the
 * shape of the forward result ref computes from the other args (0-d when
 * that call fails: the case expects its error), its dtype the result's when
 * that is a float, else a declared float; laid out like any input, so the
 * incoming gradient is strided, reversed or stride 0 too. 0 or -1 (memory). */
static int add_grad(gen *g)
{
    br_spec *s = g->s;
    int n = s->nargs - 1;
    bct_array in[BR_MAX_ARGS];
    for (int i = 0; i < n; i++)
        in[i] = (bct_array){ s->args[i].dtype, s->args[i].rank, s->args[i].shape, s->args[i].strides,
                             s->args[i].offset, s->args[i].data };
    fwd f;
    memset(&f, 0, sizeof f);
    bct_call call;
    memset(&call, 0, sizeof call);
    call.op = s->op;
    call.mode = BCT_MODE_VALUE;
    call.profile = g->profile;
    call.nargs = n;
    call.args = in;
    call.target_rank = s->target_rank;
    call.target_shape = s->target_shape;
    call.alloc_output = fwd_alloc;
    call.ctx = &f;
    bc_error err;
    (void)bc_eval(&call, &err);
    uint32_t fl = g->dtypes & ((1u << BCT_F32) | (1u << BCT_F64));
    int dt = f.called && (f.dtype == BCT_F32 || f.dtype == BCT_F64) ? f.dtype : pick_from(g, fl);
    return make_arg(g, n, "grad", dt, f.shape, f.called ? f.rank : 0, ROLE_IN, 0, 0);
}

/* ---- ops ---- */

/* Value, in-place or out=, as the target's flags allow. Under the torch
 * profiles no in-place maximum or minimum: torch 1.13 has no such method
 * (no Tensor.maximum_), nor has torch 2.15 (measured: hasattr(torch.Tensor,
 * 'maximum_') is False in both), so neither torch nor the committed suite
 * has an expectation for one, and ref's would be unchecked. */
static int pick_mode(gen *g, int op)
{
    int m = BCT_MODE_VALUE;
    int inplace = (g->flags & BCT_CAP_INPLACE)
                  && !(bc_profile_is_torch(g->profile) && (op == BCT_MAXIMUM || op == BCT_MINIMUM));
    uint32_t w[3] = { 70, inplace ? 20u : 0u, g->flags & BCT_CAP_OUT ? 10u : 0u };
    m = br_rng_pick(&g->r, w, 3);
    return m;
}

static int is_divisor_op(int op) { return op == BCT_DIV || op == BCT_FLOOR_DIVIDE || op == BCT_REMAINDER; }

/* Binary element-wise ops in the three modes (B1-B3, B8, B9, B18-B22). */
static int gen_binary(gen *g, int op)
{
    int mode = g->grad ? BCT_MODE_GRAD : pick_mode(g, op), rx, ry, ro = 0;
    int64_t R[BC_MAX_RANK], X[BC_MAX_RANK + 4], Y[BC_MAX_RANK + 4], O[BC_MAX_RANK];
    int r = result_shape(g, R);
    if (br_spec_reset(g->s, op, mode, mode == BCT_MODE_OUT || mode == BCT_MODE_GRAD ? 3 : 2) != 0) return -1;
    rx = mode == BCT_MODE_INPLACE && chance(g, 4, 5) ? r : derive(g, R, r, X);
    if (rx == r) memcpy(X, R, (size_t)r * sizeof *R);
    ry = derive(g, R, r, Y);
    if (chance(g, 1, 8)) {
        if (chance(g, 1, 2)) clash(g, X, rx, Y, &ry);
        else clash(g, Y, ry, X, &rx);
    }
    int dx = pick_dtype(g, op), dy = second_dtype(g, op, dx), special = chance(g, 2, 5);
    int self_role = chance(g, 1, 5) ? ROLE_OVERLAP : ROLE_OUT;
    if (make_arg(g, 0, mode == BCT_MODE_INPLACE ? "self" : "x", dx, X, rx > BC_MAX_RANK ? BC_MAX_RANK : rx,
                 mode == BCT_MODE_INPLACE ? self_role : ROLE_IN, special, 0) != 0) return -1;
    if (make_arg(g, 1, "y", dy, Y, ry > BC_MAX_RANK ? BC_MAX_RANK : ry, ROLE_IN, special, is_divisor_op(op)) != 0) return -1;
    if (mode == BCT_MODE_GRAD) return add_grad(g);
    if (mode != BCT_MODE_OUT) return 0;
    ro = chance(g, 7, 10) ? r : derive(g, R, r, O);
    if (ro == r) memcpy(O, R, (size_t)r * sizeof *R);
    int dout = chance(g, 7, 10) ? (dx > dy ? dx : dy) : pick_dtype(g, op);
    return make_arg(g, 2, "out", dout, O, ro, chance(g, 1, 10) ? ROLE_OVERLAP : ROLE_OUT, 0, 0);
}

/* where(cond, x, y): a three-way broadcast (B4). */
static int gen_where(gen *g)
{
    int64_t R[BC_MAX_RANK], S[3][BC_MAX_RANK + 4];
    int rk[3], r = result_shape(g, R);
    if (br_spec_reset(g->s, BCT_WHERE, g->grad ? BCT_MODE_GRAD : BCT_MODE_VALUE, g->grad ? 4 : 3) != 0) return -1;
    for (int i = 0; i < 3; i++) rk[i] = derive(g, R, r, S[i]);
    if (chance(g, 1, 8)) {
        int a = (int)range(g, 0, 2), b = (a + (int)range(g, 1, 2)) % 3;
        clash(g, S[a], rk[a], S[b], &rk[b]);
    }
    /* cond: bool in 9 of 10 (always in a gradient case: gen/'s NumPy gradient of where takes a bool mask) */
    int dc = (g->dtypes & 1u) && (g->grad || !chance(g, 1, 10)) ? BCT_BOOL : pick_dtype(g, BCT_WHERE);
    int dx = pick_dtype(g, BCT_WHERE), dy = second_dtype(g, BCT_WHERE, dx), special = chance(g, 2, 5);
    static const char *const names[] = { "cond", "x", "y" };
    int dts[3] = { dc, dx, dy };
    for (int i = 0; i < 3; i++)
        if (make_arg(g, i, names[i], dts[i], S[i], rk[i] > BC_MAX_RANK ? BC_MAX_RANK : rk[i], ROLE_IN, special, 0) != 0) return -1;
    return g->grad ? add_grad(g) : 0;
}

/* broadcast_to (B5) and expand (B6, -1 keeps a dim): x derived from the target. */
static int gen_view(gen *g, int op)
{
    int64_t T[BC_MAX_RANK], X[BC_MAX_RANK + 4];
    int r = result_shape(g, T), rx = derive(g, T, r, X);
    if (br_spec_reset(g->s, op, g->grad ? BCT_MODE_GRAD : BCT_MODE_VALUE, g->grad ? 2 : 1) != 0) return -1;
    if (chance(g, 1, 8) && rx > 0) {   /* B3/B5: x's extent is neither 1 nor the target's */
        int d = (int)range(g, 0, rx - 1);
        X[d] = T[r - rx + d] + range(g, 1, 3);
    }
    for (int j = 0; j < r; j++) {
        int covered = j >= r - rx;
        if (op == BCT_EXPAND && covered && chance(g, 1, 4)) T[j] = -1;
        else if (chance(g, 1, 40)) T[j] = -range(g, 1, 2);   /* B5/B6: a negative entry */
    }
    g->s->target_rank = r;
    memcpy(g->s->target_shape, T, (size_t)r * sizeof *T);
    int dx = pick_dtype(g, op);
    if (make_arg(g, 0, "x", dx, X, rx, ROLE_IN, chance(g, 2, 5), 0) != 0) return -1;
    return g->grad ? add_grad(g) : 0;
}

/* matmul (B12-B14): batch dims broadcast, core dims (n,k)@(k,m) never do. */
static int gen_matmul(gen *g)
{
    int64_t B[BC_MAX_RANK], X[BC_MAX_RANK + 4], Y[BC_MAX_RANK + 4], core[3];
    int rb = g->max_rank >= 2 ? (int)range(g, 0, g->max_rank - 2 < 3 ? g->max_rank - 2 : 3) : 0;
    for (int d = 0; d < rb; d++) B[d] = pick_extent(g);
    for (int i = 0; i < 3; i++) core[i] = pick_extent(g);
    bound(g, core, 3, 256);
    bound(g, B, rb, g->max_elems / 256 > 0 ? g->max_elems / 256 : 1);
    if (br_spec_reset(g->s, BCT_MATMUL, g->grad ? BCT_MODE_GRAD : BCT_MODE_VALUE, g->grad ? 3 : 2) != 0) return -1;
    int rx = g->max_rank >= 2 && !chance(g, 3, 20) ? derive(g, B, rb, X) + 2 : 1;
    int ry = g->max_rank >= 2 && !chance(g, 3, 20) ? derive(g, B, rb, Y) + 2 : 1;
    int64_t k2 = chance(g, 1, 10) ? core[1] + range(g, 1, 2) : core[1];   /* B13: core mismatch */
    if (rx == 1) X[0] = core[1]; else { X[rx - 2] = core[0]; X[rx - 1] = core[1]; }
    if (ry == 1) Y[0] = k2; else { Y[ry - 2] = k2; Y[ry - 1] = core[2]; }
    if (chance(g, 1, 50)) { if (chance(g, 1, 2)) rx = 0; else ry = 0; }   /* B13: a 0-d operand */
    int dx = pick_dtype(g, BCT_MATMUL), dy = second_dtype(g, BCT_MATMUL, dx), special = chance(g, 1, 5);
    if (make_arg(g, 0, "x", dx, X, rx, ROLE_IN, special, 0) != 0) return -1;
    if (make_arg(g, 1, "y", dy, Y, ry, ROLE_IN, special, 0) != 0) return -1;
    return g->grad ? add_grad(g) : 0;
}

/* broadcast_shapes: 1 to 5 shape-only operands (B4). */
static int gen_shapes(gen *g)
{
    int64_t R[BC_MAX_RANK], S[5][BC_MAX_RANK + 4];
    int rk[5], r = result_shape(g, R), n = (int)range(g, 1, 5);
    if (br_spec_reset(g->s, BCT_BROADCAST_SHAPES, BCT_MODE_VALUE, n) != 0) return -1;
    for (int i = 0; i < n; i++) rk[i] = derive(g, R, r, S[i]);
    if (n > 1 && chance(g, 1, 8)) {
        int a = (int)range(g, 0, n - 1), b = (a + (int)range(g, 1, n - 1)) % n;
        clash(g, S[a], rk[a], S[b], &rk[b]);
    }
    for (int i = 0; i < n; i++) {
        char name[8];
        snprintf(name, sizeof name, "s%d", i);
        if (make_arg(g, i, name, BCT_NONE, S[i], rk[i], ROLE_IN, 0, 0) != 0) return -1;
    }
    return 0;
}

/* Legacy axis add (B10, B11): y lines up with x at axis; -1 means at the end. */
static int gen_axis(gen *g)
{
    int64_t X[BC_MAX_RANK], Y[BC_MAX_RANK];
    int r = result_shape(g, X), ry = (int)range(g, 0, r), a = (int)range(g, 0, r - ry);
    if (br_spec_reset(g->s, BCT_AXIS_ADD, BCT_MODE_VALUE, 2) != 0) return -1;
    for (int d = 0; d < ry; d++) Y[d] = chance(g, 1, 4) ? 1 : X[a + d];
    g->s->has_axis = 1;
    g->s->axis = a == r - ry && chance(g, 1, 2) ? -1 : a;
    if (chance(g, 1, 8)) {
        if (ry > 0 && chance(g, 1, 2)) Y[range(g, 0, ry - 1)] += range(g, 2, 3);   /* misaligned extents */
        else g->s->axis = r - ry + range(g, 1, 2);                                  /* out of range */
    }
    int dx = pick_dtype(g, BCT_ADD), dy = second_dtype(g, BCT_ADD, dx), special = chance(g, 2, 5);
    if (make_arg(g, 0, "x", dx, X, r, ROLE_IN, special, 0) != 0) return -1;
    return make_arg(g, 1, "y", dy, Y, ry, ROLE_IN, special, 0);
}

/* ONNX unidirectional add (B7): y must broadcast to x's shape. */
static int gen_uni(gen *g)
{
    int64_t X[BC_MAX_RANK + 4], Y[BC_MAX_RANK + 4];
    int r = result_shape(g, X), ry = derive(g, X, r, Y);
    if (br_spec_reset(g->s, BCT_UNI_ADD, BCT_MODE_VALUE, 2) != 0) return -1;
    if (chance(g, 1, 8)) {
        if (r < g->max_rank && chance(g, 1, 3)) {   /* y has more dims than x */
            memmove(Y + 1, Y, (size_t)ry * sizeof *Y);
            Y[0] = 2;
            ry++;
        } else clash(g, Y, ry, X, &r);
    }
    int dx = pick_dtype(g, BCT_ADD), dy = second_dtype(g, BCT_ADD, dx), special = chance(g, 2, 5);
    if (make_arg(g, 0, "x", dx, X, r, ROLE_IN, special, 0) != 0) return -1;
    return make_arg(g, 1, "y", dy, Y, ry, ROLE_IN, special, 0);
}

/* Ops explored in grad mode: ref's gradient ops but div and pow, whose local
 * derivatives have no bound from the operands alone: the tolerance below
 * (grad_expect.c) bounds a term by |g| times the other operand's largest
 * magnitude (mul, matmul) or |g| alone, which 1/y, x/y^2, y*x^(y-1) and
 * x^y*log(x) exceed (gen/grad_builder.py takes their bound from the terms'
 * magnitudes, which ref's ABI does not return). matmul is explored since ref
 * models the -0 of torch's one-term sums (B47). */
#define EXPLORE_GRAD_OPS (BC_GRAD_OPS & ~((UINT64_C(1) << BCT_DIV) | (UINT64_C(1) << BCT_POW)))

static int gen_op(gen *g, int op)
{
    /* a gradient case in 1 of 4 of an op the target differentiates (with a float dtype to give it) */
    g->grad = ((g->grad_ops & EXPLORE_GRAD_OPS) >> op & 1) && (g->dtypes & ((1u << BCT_F32) | (1u << BCT_F64)))
              && (op != BCT_WHERE || (g->dtypes & 1u)) && chance(g, 1, 4);
    switch (op) {
    case BCT_WHERE: return gen_where(g);
    case BCT_BROADCAST_TO: case BCT_EXPAND: return gen_view(g, op);
    case BCT_MATMUL: return gen_matmul(g);
    case BCT_BROADCAST_SHAPES: return gen_shapes(g);
    case BCT_AXIS_ADD: return gen_axis(g);
    case BCT_UNI_ADD: return gen_uni(g);
    default: return gen_binary(g, op);
    }
}

/* Whether the result dtype (when the call has one) is one the target
 * declares: a case whose result it cannot hold would only be skipped. */
static int result_declared(const gen *g)
{
    const br_spec *s = g->s;
    bct_array in[BR_MAX_ARGS];
    int nin = s->mode == BCT_MODE_OUT ? s->nargs - 1 : s->nargs, dt;
    if (s->op == BCT_BROADCAST_SHAPES || s->mode != BCT_MODE_VALUE) return 1;
    for (int i = 0; i < nin; i++)
        in[i] = (bct_array){ s->args[i].dtype, s->args[i].rank, s->args[i].shape, s->args[i].strides,
                             s->args[i].offset, s->args[i].data };
    bc_error err;
    if (bc_result_dtype(s->op, in, nin, g->profile, &dt, &err) != BCT_OK) return 1;   /* an error is a fine case */
    return dt >= 0 && dt < BCT_DTYPE_COUNT && (g->dtypes & (1u << dt));
}

static int pick_op(gen *g)
{
    int n = 0, idx[BCT_OP_COUNT];
    /* explore generates the ops up to uni_add; issue #25's ops (B38-B45)
     * have no generator yet and are tested by the mathops suite only */
    for (int op = 0; op <= BCT_UNI_ADD; op++) if (g->ops & ((uint64_t)1 << op)) idx[n++] = op;
    return n ? idx[br_rng_below(&g->r, (uint64_t)n)] : BCT_ADD;
}

int br_gen_case(const br_gen_cfg *cfg, uint64_t seed, uint64_t index, br_spec *s)
{
    gen g;
    memset(&g, 0, sizeof g);
    br_rng_seed(&g.r, br_rng_case_seed(seed, index));
    g.s = s;
    g.force_rank = -1;
    g.ops = cfg->ops;
    g.grad_ops = cfg->grad_ops;
    g.dtypes = cfg->dtypes;
    g.max_rank = cfg->max_rank;
    g.flags = cfg->flags;
    g.profile = cfg->profile;
    /* the size class: most cases small, so that throughput stays high; the
     * largest class lets the fast-path sizes up to 2^12+1 through */
    static const uint32_t size_w[] = { 60, 28, 12 };
    int64_t max = cfg->max_elems > 0 ? cfg->max_elems : BR_GEN_MAX_ELEMS;
    int cls = br_rng_pick(&g.r, size_w, 3);
    g.max_elems = cls == 0 ? max / 64 : cls == 1 ? max / 8 : max;
    if (g.max_elems < 1) g.max_elems = 1;
    /* 1 case in LARGE_ONE_IN of the first BR_GEN_LARGE_WINDOW is large: about 2^k elements, k uniform in
     * 13..log2(large_elems) (up to 2^21 by default), beyond the SIMD widths and
     * blocking sizes the sizes suite reaches */
    int64_t lmax = cfg->large_elems ? cfg->large_elems : BR_GEN_LARGE_ELEMS;
    if (lmax > max && index < BR_GEN_LARGE_WINDOW && chance(&g, 1, BR_GEN_LARGE_ONE_IN)) {
        int top = 13;
        while (top < 40 && ((int64_t)1 << (top + 1)) <= lmax) top++;
        g.large = (int64_t)1 << range(&g, 13, top);
        g.max_elems = g.large + 1;
    }
    if (cfg->probe && chance(&g, 1, 8)) {   /* outside the claim: any op, dtype, mode, layout; one rank more */
        g.ops = cfg->probe_ops;
        g.dtypes = cfg->probe_dtypes;
        g.flags = BCT_CAP_STRIDED | BCT_CAP_INPLACE | BCT_CAP_OUT;
        if (g.max_rank < BC_MAX_RANK) g.max_rank++;
        if (chance(&g, 1, 3)) g.force_rank = g.max_rank;
    }
    for (int attempt = 0; attempt < 8; attempt++) {
        if (gen_op(&g, pick_op(&g)) != 0) return -1;
        if (result_declared(&g)) break;
    }
    return 0;
}
