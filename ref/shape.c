/* shape.c - the broadcasting rules as pure functions over shapes (B1-B16). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include "ref_internal.h"

int bc_fail(bc_error *err, int status, int operand, int other, int dim, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        err->status = status;
        err->operand = operand;
        err->other = other;
        err->dim = dim;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

void bc_clear_error(bc_error *err)
{
    if (err != NULL) {
        err->status = BCT_OK;
        err->operand = err->other = err->dim = -1;
        err->message[0] = '\0';
    }
}

void bc_shape_of(const bct_array *a, bc_shape *out)
{
    out->rank = a->rank;
    for (int i = 0; i < a->rank; i++)
        out->dim[i] = a->shape[i];
}

char *bc_shape_format(const bc_shape *s, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap == 0)
        return buf;
    buf[0] = '\0';
    len += (size_t)snprintf(buf, cap, "(");
    for (int i = 0; i < s->rank && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", (long long)s->dim[i]);
    if (len < cap)
        snprintf(buf + len, cap - len, s->rank == 1 ? ",)" : ")");
    return buf;
}

/* Accepts "(a,b,...)" with optional spaces and an optional trailing comma
 * ("(3,)"); "()" is rank 0. Entries are decimal int64, possibly negative. */
int bc_shape_parse(const char *text, bc_shape *out)
{
    const char *p = text;
    int rank = 0;
    while (isspace((unsigned char)*p)) p++;
    if (*p++ != '(')
        return -1;
    for (;;) {
        char *end;
        long long v;
        while (isspace((unsigned char)*p)) p++;
        if (*p == ')')
            break;
        if (!(isdigit((unsigned char)*p) || *p == '-' || *p == '+'))
            return -1;
        errno = 0;
        v = strtoll(p, &end, 10);
        if (end == p || errno == ERANGE || rank >= BC_MAX_RANK)   /* no silent clamping to INT64_MAX */
            return -1;
        out->dim[rank++] = (int64_t)v;
        p = end;
        while (isspace((unsigned char)*p)) p++;
        if (*p == ',') { p++; continue; }
        if (*p != ')')
            return -1;
    }
    /* "(,)" and "(3,,)" are rejected above; "(3)" is accepted as (3,). */
    p++;
    while (isspace((unsigned char)*p)) p++;
    if (*p != '\0')
        return -1;
    out->rank = rank;
    return 0;
}

/* B15/B16: what every shape must satisfy whatever its size: a rank within
 * ref's limit (and NumPy's, in the NumPy profile) and no negative extent. */
int bc_check_extents(const bc_shape *s, int profile, int operand, bc_error *err)
{
    char buf[64];
    if (s->rank < 0 || s->rank > BC_MAX_RANK)
        return bc_fail(err, BCT_ERR_RANK_LIMIT, operand, -1, -1,
                       "operand %d has rank %d; ref supports at most %d dimensions",
                       operand, s->rank, BC_MAX_RANK);
    if (bc_profile_is_numpy(profile) && s->rank > bc_numpy_max_rank(profile))
        return bc_fail(err, BCT_ERR_RANK_LIMIT, operand, -1, -1,
                       "maximum supported dimension for an ndarray is %d, found %d (operand %d)",
                       bc_numpy_max_rank(profile), s->rank, operand);
    for (int i = 0; i < s->rank; i++)
        if (s->dim[i] < 0)
            return bc_fail(err, BCT_ERR_INVALID_SHAPE, operand, -1, i,
                           "negative dimensions are not allowed: operand %d has shape %s (dimension %d)",
                           operand, bc_shape_format(s, buf, sizeof buf), i);
    return BCT_OK;
}

/* B15, B33: NumPy's NPY_MAXDIMS in the profile: 32 in NumPy 1.24, 64 in
 * NumPy 2 (measured: np.zeros((1,)*64) works in 2.4.6, (1,)*65 raises
 * "maximum supported dimension for an ndarray is currently 64"). */
int bc_numpy_max_rank(int profile)
{
    return profile == BCT_PROFILE_NUMPY2 ? BC_NUMPY2_MAX_RANK : BC_NUMPY_MAX_RANK;
}

/* B16: does the element count fit, counted the way the profile's library
 * counts it? Both multiply the extents from the left and stop at the first 0
 * (the count is then 0, whatever follows). NumPy (PyArray_OverflowMultiplyList:
 * broadcast_shapes, the iterator) refuses a running product above INT64_MAX.
 * torch (c10::safe_multiplies_u64: numel, storage sizes) multiplies in uint64,
 * refuses a running product that overflows uint64, and a non-empty count above
 * INT64_MAX. So (2^31,2^32,0) is fine in torch and not in NumPy, and
 * (0,2^62,4) is fine in both, while (2^62,4,0) fails in both. */
static int count_overflows(const bc_shape *s, int profile)
{
    uint64_t p = 1, lim = bc_profile_is_torch(profile) ? UINT64_MAX : (uint64_t)INT64_MAX;
    for (int i = 0; i < s->rank; i++) {
        uint64_t d = (uint64_t)s->dim[i];
        if (d == 0)
            return 0;
        if (p > lim / d)
            return 1;
        p *= d;
    }
    return p > (uint64_t)INT64_MAX;
}

/* B15/B16: bc_check_extents, then the element count (count_overflows). */
int bc_check_shape(const bc_shape *s, int profile, int operand, bc_error *err)
{
    char buf[512], who[32];
    int st = bc_check_extents(s, profile, operand, err);
    if (st != BCT_OK || !count_overflows(s, profile))
        return st;
    if (operand >= 0)
        snprintf(who, sizeof who, "operand %d", operand);
    else
        snprintf(who, sizeof who, "the result");
    return bc_fail(err, BCT_ERR_OVERFLOW, operand, -1, -1,
                   "%s: the element count of shape %s overflows %s", who,
                   bc_shape_format(s, buf, sizeof buf),
                   bc_profile_is_torch(profile) ? "(torch: uint64 up to the first 0, int64 if non-empty)"
                                                : "int64 (NumPy multiplies up to the first 0)");
}

/* B37, torch 2 only: allocating a contiguous result, torch 2 computes its
 * strides (stride[i] = stride[i+1] * max(size[i+1], 1)) and refuses one that
 * overflows int64 ("Stride calculation overflowed"), even when a zero extent
 * makes the result empty; torch 1.13 allocates it. Measured: (0,2^62,1) + (1,1,4)
 * raises in torch 2.15 and gives an empty (0,2^62,4) in torch 1.13. */
int bc_check_torch2_strides(const bc_shape *s, int profile, bc_error *err)
{
    char buf[512];
    int64_t stride = 1;
    if (profile != BCT_PROFILE_TORCH2)
        return BCT_OK;
    for (int i = s->rank - 1; i > 0; i--) {
        int64_t d = s->dim[i] > 1 ? s->dim[i] : 1;
        if (stride > INT64_MAX / d)
            return bc_fail(err, BCT_ERR_OVERFLOW, -1, -1, -1,
                           "Stride calculation overflowed: the contiguous strides of the result %s "
                           "overflow int64 (torch 2)", bc_shape_format(s, buf, sizeof buf));
        stride *= d;
    }
    return BCT_OK;
}

/* B16, NumPy profile only: NumPy refuses to create an array or a view whose
 * byte size -- the product of the NON-ZERO extents times the itemsize --
 * overflows intp ("array is too big"), even when a zero extent makes it empty
 * or stride 0 makes it tiny in memory. torch has no such check. */
int bc_check_numpy_bytes(const bc_shape *s, int dtype, int operand, bc_error *err)
{
    char buf[512], who[32];
    int64_t count = 1, size = bc_dtype_size(dtype);
    int fits = 1;
    for (int i = 0; i < s->rank && fits; i++) {
        if (s->dim[i] <= 0)
            continue;
        fits = count <= INT64_MAX / s->dim[i];
        count = fits ? count * s->dim[i] : count;
    }
    if (fits && (size <= 0 || count <= INT64_MAX / size))
        return BCT_OK;
    if (operand >= 0)
        snprintf(who, sizeof who, "operand %d", operand);
    else
        snprintf(who, sizeof who, "the result");
    return bc_fail(err, BCT_ERR_OVERFLOW, operand, -1, -1,
                   "array is too big: %s (%s of shape %s): its non-zero extents times the "
                   "itemsize (%lld) overflow intp", who, bc_dtype_name(dtype),
                   bc_shape_format(s, buf, sizeof buf), (long long)size);
}

/* B1-B4. Walks the aligned result from the last dimension backwards (as
 * NumPy's broadcast_strides and torch's infer_size do), so the first mismatch
 * reported is the rightmost one. The result extent starts at 1 and takes the
 * first non-1 extent; a later non-1 extent must equal it (B2: 1 stretches to
 * anything, 0 included; B3: 0 against n>1 fails). Counts are not checked:
 * whether the result's count fits depends on the library (B16), so callers
 * check it with bc_check_shape in their profile (torch's broadcast_shapes
 * never does). */
int bc_broadcast_shapes(const bc_shape *shapes, int n, bc_shape *out, bc_error *err)
{
    int rank = 0;
    bc_shape res;
    for (int k = 0; k < n; k++) {
        int st = bc_check_extents(&shapes[k], BCT_PROFILE_TORCH, k, err);
        if (st != BCT_OK)
            return st;
        if (shapes[k].rank > rank)
            rank = shapes[k].rank;
    }
    res.rank = rank;
    for (int d = rank - 1; d >= 0; d--) {
        int64_t ext = 1;
        int from = -1;
        for (int k = 0; k < n; k++) {
            int i = d - (rank - shapes[k].rank);   /* B1: missing leading dims are 1 */
            int64_t e = i >= 0 ? shapes[k].dim[i] : 1;
            if (e == 1)
                continue;
            if (ext == 1) {
                ext = e;
                from = k;
            } else if (e != ext) {
                char list[1024];
                size_t len = 0;
                list[0] = '\0';
                for (int j = 0; j < n && len < sizeof list; j++) {
                    char b[512];
                    len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", j ? " " : "",
                                            bc_shape_format(&shapes[j], b, sizeof b));
                }
                return bc_fail(err, BCT_ERR_NOT_BROADCASTABLE, from, k, d,
                               "operands could not be broadcast together with shapes %s: "
                               "the size of operand %d (%lld) must match the size of operand %d "
                               "(%lld) at dimension %d", list, from, (long long)ext, k,
                               (long long)e, d);
            }
        }
        res.dim[d] = ext;
    }
    if (out != NULL)
        *out = res;
    return BCT_OK;
}

/* B4: folds operand k (shape next) into acc, the broadcast of operands
 * 0..k-1 (start with acc->rank = 0). Broadcasting is associative and
 * commutative, so folding n shapes equals bc_broadcast_shapes over all of them,
 * in O(rank) memory whatever n. Like bc_broadcast_shapes it checks no count: a
 * partial result may overflow where the final one does not ((2^62,1), (1,4),
 * (0,1,1) ends as the empty (0,2^62,4)), so only the final shape is counted
 * (B16), by the caller. On error acc is unchanged. */
int bc_broadcast_fold(bc_shape *acc, const bc_shape *next, int k, bc_error *err)
{
    char ab[256], nb[256];
    bc_shape pair[2];
    int st = bc_check_extents(next, BCT_PROFILE_TORCH, k, err);
    if (st != BCT_OK)
        return st;
    pair[0] = *acc;
    pair[1] = *next;
    st = bc_broadcast_shapes(pair, 2, acc, err);                     /* B1-B3 */
    if (st == BCT_ERR_NOT_BROADCASTABLE) {
        int d = err != NULL ? err->dim : -1;
        st = bc_fail(err, st, k > 0 ? 0 : -1, k, d,
                     "shape mismatch: objects cannot be broadcast to a single shape: operand %d "
                     "%s does not broadcast with %s, the broadcast of operands 0..%d, at "
                     "dimension %d", k, bc_shape_format(next, nb, sizeof nb),
                     bc_shape_format(&pair[0], ab, sizeof ab), k - 1, d);
    }
    return st;
}

/* Shared by B5/B6: does `from` stretch unidirectionally to `to` (all of to's
 * entries already resolved, non-negative)? */
static int stretch_to(const bc_shape *from, const bc_shape *to, const char *what, bc_error *err)
{
    char fb[512], tb[512];
    int lead = to->rank - from->rank;
    if (lead < 0)
        return bc_fail(err, BCT_ERR_INVALID_SHAPE, 0, -1, -1,
                       "%s: the source shape %s has more dimensions than the target shape %s",
                       what, bc_shape_format(from, fb, sizeof fb), bc_shape_format(to, tb, sizeof tb));
    for (int i = from->rank - 1; i >= 0; i--) {
        int64_t f = from->dim[i], t = to->dim[i + lead];
        if (f != t && f != 1)
            return bc_fail(err, BCT_ERR_NOT_BROADCASTABLE, 0, -1, i + lead,
                           "%s: shape %s cannot be broadcast to %s: the existing size (%lld) "
                           "must match the target size (%lld) at dimension %d unless it is 1",
                           what, bc_shape_format(from, fb, sizeof fb),
                           bc_shape_format(to, tb, sizeof tb), (long long)f, (long long)t, i + lead);
    }
    return BCT_OK;
}

/* B5: NumPy broadcast_to. Negative target entries are invalid-shape; so is a
 * target of lower rank than the source (NumPy: "input operand has more
 * dimensions than allowed by the axis remapping"). */
int bc_broadcast_to_shape(const bc_shape *from, const bc_shape *to, bc_error *err)
{
    char tb[512];
    int st = bc_check_shape(from, BCT_PROFILE_TORCH, 0, err);
    if (st != BCT_OK)
        return st;
    for (int i = 0; i < to->rank; i++)
        if (to->dim[i] < 0)
            return bc_fail(err, BCT_ERR_INVALID_SHAPE, -1, -1, i,
                           "broadcast_to: all elements of broadcast shape must be non-negative, "
                           "got %s", bc_shape_format(to, tb, sizeof tb));
    st = bc_check_shape(to, BCT_PROFILE_TORCH, -1, err);
    if (st != BCT_OK)
        return st;
    return stretch_to(from, to, "broadcast_to", err);
}

/* B6: torch expand. -1 keeps an existing extent; -1 on a new leading dim and
 * any other negative entry are invalid-shape (torch fails either at the
 * check or when it creates the negative-sized view). */
int bc_expand_shape(const bc_shape *from, const bc_shape *sizes, bc_shape *out, bc_error *err)
{
    char sb[512], fb[512];
    bc_shape res;
    int lead = sizes->rank - from->rank;
    int st = bc_check_shape(from, BCT_PROFILE_TORCH, 0, err);
    if (st != BCT_OK)
        return st;
    if (lead < 0)
        return stretch_to(from, sizes, "expand", err);
    /* torch's order (inferExpandGeometry): from the last dim backwards, so a
     * mismatch to the right of a bad entry is the error reported. */
    res.rank = sizes->rank;
    for (int i = sizes->rank - 1; i >= 0; i--) {
        int64_t t = sizes->dim[i], size = i >= lead ? from->dim[i - lead] : 1;
        if (t == -1 && i < lead)
            return bc_fail(err, BCT_ERR_INVALID_SHAPE, -1, -1, i,
                           "expand: the expanded size of the tensor (-1) isn't allowed in a "
                           "leading, non-existing dimension %d (sizes %s)", i,
                           bc_shape_format(sizes, sb, sizeof sb));
        if (t == -1)
            t = size;
        if (t != size && size != 1)   /* a negative entry against a real extent is a bad size */
            return bc_fail(err, t < 0 ? BCT_ERR_INVALID_SHAPE : BCT_ERR_NOT_BROADCASTABLE, 0, -1, i,
                           "expand: the expanded size of the tensor (%lld) must match the existing "
                           "size (%lld) at non-singleton dimension %d (sizes %s, tensor %s)",
                           (long long)t, (long long)size, i, bc_shape_format(sizes, sb, sizeof sb),
                           bc_shape_format(from, fb, sizeof fb));
        res.dim[i] = t;
    }
    for (int i = 0; i < res.rank; i++)   /* a stretched 1 took a negative size */
        if (res.dim[i] < 0)
            return bc_fail(err, BCT_ERR_INVALID_SHAPE, -1, -1, i,
                           "expand: negative size %lld at dimension %d of %s",
                           (long long)res.dim[i], i, bc_shape_format(sizes, sb, sizeof sb));
    st = bc_check_shape(&res, BCT_PROFILE_TORCH, -1, err);
    if (st == BCT_OK && out != NULL)
        *out = res;
    return st;
}

/* B7: ONNX unidirectional: b stretches to a; a never changes. It is B5
 * with a's shape as the target, so the errors are B5's: a target (a) of
 * lower rank than b is invalid-shape (NumPy's broadcast_to: "input operand
 * has more dimensions than allowed by the axis remapping"), an extent of b
 * that is neither 1 nor a's is not-broadcastable. */
int bc_onnx_uni_shape(const bc_shape *a, const bc_shape *b, bc_shape *out, bc_error *err)
{
    char ab[512], bb[512];
    int st = bc_check_shape(a, BCT_PROFILE_TORCH, 0, err);
    if (st == BCT_OK)
        st = bc_check_shape(b, BCT_PROFILE_TORCH, 1, err);
    if (st != BCT_OK)
        return st;
    if (b->rank > a->rank)
        return bc_fail(err, BCT_ERR_INVALID_SHAPE, 1, 0, -1,
                       "unidirectional broadcast: B %s has more dimensions than A %s, its target: "
                       "input operand has more dimensions than allowed by the axis remapping",
                       bc_shape_format(b, bb, sizeof bb), bc_shape_format(a, ab, sizeof ab));
    for (int i = b->rank - 1; i >= 0; i--) {
        int d = i + a->rank - b->rank;
        if (b->dim[i] != 1 && b->dim[i] != a->dim[d])
            return bc_fail(err, BCT_ERR_NOT_BROADCASTABLE, 1, 0, d,
                           "unidirectional broadcast: B %s cannot be broadcast to A %s: size %lld "
                           "must be 1 or match %lld at dimension %d",
                           bc_shape_format(b, bb, sizeof bb), bc_shape_format(a, ab, sizeof ab),
                           (long long)b->dim[i], (long long)a->dim[d], d);
    }
    if (out != NULL)
        *out = *a;
    return BCT_OK;
}

/* B8: the broadcast of self and other must be self's shape exactly. If they do
 * not broadcast at all, that is the B3 error (as both libraries report it). */
int bc_inplace_shape(const bc_shape *self, const bc_shape *other, bc_error *err)
{
    char sb[512], rb[512];
    bc_shape pair[2], res;
    int st;
    pair[0] = *self;
    pair[1] = *other;
    st = bc_broadcast_shapes(pair, 2, &res, err);
    if (st != BCT_OK)
        return st;
    if (res.rank != self->rank)
        return bc_fail(err, BCT_ERR_INPLACE_SHAPE, 0, 1, -1,
                       "non-broadcastable output operand with shape %s doesn't match the "
                       "broadcast shape %s", bc_shape_format(self, sb, sizeof sb),
                       bc_shape_format(&res, rb, sizeof rb));
    for (int i = self->rank - 1; i >= 0; i--)
        if (res.dim[i] != self->dim[i])
            return bc_fail(err, BCT_ERR_INPLACE_SHAPE, 0, 1, i,
                           "non-broadcastable output operand with shape %s doesn't match the "
                           "broadcast shape %s: the expanded size (%lld) must match the existing "
                           "size (%lld) at dimension %d", bc_shape_format(self, sb, sizeof sb),
                           bc_shape_format(&res, rb, sizeof rb), (long long)self->dim[i],
                           (long long)res.dim[i], i);
    return BCT_OK;
}

/* B10/B11: legacy axis. axis -1 means rank(x)-rank(y) (Paddle's
 * |rank(x)-rank(y)|; trimming y's trailing 1s never changes that result, since
 * a trailing 1 broadcasts anyway). Otherwise axis must lie in
 * [0, rank(x)-rank(y)]; for equal ranks that leaves only 0 (and -1). y's dims
 * then sit at x's dims axis.., and the two broadcast per B2/B3. */
int bc_axis_shape(const bc_shape *x, const bc_shape *y, int64_t axis,
                  bc_shape *y_aligned, bc_shape *out, bc_error *err)
{
    char xb[512], yb[512];
    bc_shape al, pair[2];
    int st = bc_check_shape(x, BCT_PROFILE_TORCH, 0, err);
    if (st == BCT_OK)
        st = bc_check_shape(y, BCT_PROFILE_TORCH, 1, err);
    if (st != BCT_OK)
        return st;
    if (y->rank > x->rank)
        return bc_fail(err, BCT_ERR_AXIS, 1, 0, -1,
                       "axis broadcast: rank of y %s (%d) is greater than rank of x %s (%d)",
                       bc_shape_format(y, yb, sizeof yb), y->rank,
                       bc_shape_format(x, xb, sizeof xb), x->rank);
    if (axis == -1)
        axis = x->rank - y->rank;
    if (axis < 0 || axis > x->rank - y->rank)
        return bc_fail(err, BCT_ERR_AXIS, 1, 0, -1,
                       "axis %lld is out of range for x %s and y %s: it must be -1 or in [0, %d]",
                       (long long)axis, bc_shape_format(x, xb, sizeof xb),
                       bc_shape_format(y, yb, sizeof yb), x->rank - y->rank);
    al.rank = x->rank;
    for (int i = 0; i < x->rank; i++)
        al.dim[i] = (i >= axis && i < axis + y->rank) ? y->dim[i - axis] : 1;
    pair[0] = *x;
    pair[1] = al;
    st = bc_broadcast_shapes(pair, 2, out, err);
    if (st != BCT_OK && err != NULL) {
        char ab[512];
        char msg[sizeof err->message];
        snprintf(msg, sizeof msg, "axis broadcast of y %.80s at axis %lld (aligned %.80s) into x %.80s: %.200s",
                 bc_shape_format(y, yb, sizeof yb), (long long)axis,
                 bc_shape_format(&al, ab, sizeof ab), bc_shape_format(x, xb, sizeof xb),
                 err->message);
        memcpy(err->message, msg, sizeof msg);
    }
    if (st == BCT_OK && y_aligned != NULL)
        *y_aligned = al;
    return st;
}

/* B12-B14. 1-D operands are promoted ((n,) -> (1,n) for a, (n,1) for b) and
 * the added dim dropped again; core dims must match exactly; batch dims
 * broadcast by B1-B3. */
int bc_matmul_shape(const bc_shape *a, const bc_shape *b, bc_shape *out, bc_error *err)
{
    char ab[512], bb[512];
    bc_shape pa, pb, batch[2], res;
    int st = bc_check_shape(a, BCT_PROFILE_TORCH, 0, err);
    if (st == BCT_OK)
        st = bc_check_shape(b, BCT_PROFILE_TORCH, 1, err);
    if (st != BCT_OK)
        return st;
    if (a->rank == 0 || b->rank == 0)
        return bc_fail(err, BCT_ERR_MATMUL_CORE, a->rank == 0 ? 0 : 1, -1, -1,
                       "matmul: operand %d is 0-d; both arguments need at least 1 dimension "
                       "(shapes %s %s)", a->rank == 0 ? 0 : 1,
                       bc_shape_format(a, ab, sizeof ab), bc_shape_format(b, bb, sizeof bb));
    pa = *a;
    pb = *b;
    if (a->rank == 1) { pa.rank = 2; pa.dim[0] = 1; pa.dim[1] = a->dim[0]; }
    if (b->rank == 1) { pb.rank = 2; pb.dim[0] = b->dim[0]; pb.dim[1] = 1; }
    if (pa.dim[pa.rank - 1] != pb.dim[pb.rank - 2])
        return bc_fail(err, BCT_ERR_MATMUL_CORE, 0, 1, -1,
                       "matmul: core dimension mismatch for shapes %s %s: %lld (last of operand 0) "
                       "!= %lld (second-to-last of operand 1)", bc_shape_format(a, ab, sizeof ab),
                       bc_shape_format(b, bb, sizeof bb), (long long)pa.dim[pa.rank - 1],
                       (long long)pb.dim[pb.rank - 2]);
    batch[0] = pa;
    batch[0].rank -= 2;
    batch[1] = pb;
    batch[1].rank -= 2;
    st = bc_broadcast_shapes(batch, 2, &res, err);
    if (st != BCT_OK)
        return st;
    if (a->rank > 1)
        res.dim[res.rank++] = pa.dim[pa.rank - 2];
    if (b->rank > 1)
        res.dim[res.rank++] = pb.dim[pb.rank - 1];
    st = bc_check_shape(&res, BCT_PROFILE_TORCH, -1, err);
    if (st == BCT_OK && out != NULL)
        *out = res;
    return st;
}
