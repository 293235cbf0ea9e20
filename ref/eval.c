/* eval.c - bc_eval: one whole case as the target ABI describes it: shapes,
 * dtypes and every check first, then one write pass (B22). */
#include <stdio.h>
#include <string.h>
#include "ref_internal.h"

#define CHUNK 256 /* elements cast per step when operand dtypes differ */

/* A destination: where results go (alloc_output's buffer, self, or out=). */
typedef struct dest {
    char *base;
    int dtype, rank;
    int64_t shape[BC_MAX_RANK], strides[BC_MAX_RANK];
} dest;

static int is_binary(int op) { return op >= BCT_ADD && op <= BCT_BITWISE_XOR; }

static int is_empty(const bc_shape *s)
{
    for (int i = 0; i < s->rank; i++)
        if (s->dim[i] == 0) return 1;
    return 0;
}

/* The element count of a shape whose count bc_check_shape accepted. A 0 is
 * looked for first: the extents before it may multiply past int64 (B16). */
static int64_t count_of(const bc_shape *s)
{
    int64_t n = 1;
    if (is_empty(s)) return 0;
    for (int i = 0; i < s->rank; i++) n *= s->dim[i];
    return n;
}

static int same_shape(const bc_shape *a, const bc_shape *b)
{
    if (a->rank != b->rank) return 0;
    for (int i = 0; i < a->rank; i++)
        if (a->dim[i] != b->dim[i]) return 0;
    return 1;
}

/* B9: the written operand must not reach one element through two indices.
 * torch counts an empty tensor as contiguous, so it never overlaps there
 * (NumPy refuses the read-only broadcast view whatever its size). */
static int check_overlap(const bct_array *w, int which, int profile, bc_error *err)
{
    for (int i = 0; i < w->rank && bc_profile_is_torch(profile); i++)
        if (w->shape[i] == 0)
            return BCT_OK;
    for (int i = 0; i < w->rank; i++)
        if (w->shape[i] > 1 && w->strides[i] == 0)
            return bc_fail(err, BCT_ERR_OVERLAP, which, -1, i, bc_profile_is_numpy(profile)
                           ? "output array is read-only: operand %d is a broadcast view "
                             "(stride 0 at dimension %d, extent %lld)"
                           : "unsupported operation: more than one element of the written-to "
                             "tensor (operand %d) refers to a single memory location "
                             "(internal overlap: stride 0 at dimension %d, extent %lld)",
                           which, i, (long long)w->shape[i]);
    return BCT_OK;
}

/* Gets a contiguous result buffer from the caller, checking the byte size (B16). */
static int alloc_dest(const bct_call *call, int dtype, const bc_shape *s, dest *d, bc_error *err)
{
    char sb[512];
    int64_t n = count_of(s), size = bc_dtype_size(dtype), stride = 1;
    int st;
    /* B16: NumPy will not allocate a result whose non-zero extents overflow
     * intp in bytes, even an empty one; torch allocates the empty result. */
    if (bc_profile_is_numpy(call->profile) && (st = bc_check_numpy_bytes(s, dtype, -1, err)) != BCT_OK)
        return st;
    if (size > 0 && n > INT64_MAX / size)
        return bc_fail(err, BCT_ERR_OVERFLOW, -1, -1, -1,
                       "array is too big: %lld elements of %s overflow the byte size (shape %s)",
                       (long long)n, bc_dtype_name(dtype), bc_shape_format(s, sb, sizeof sb));
    if (call->alloc_output == NULL)
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "the call has no alloc_output");
    d->base = call->alloc_output(call->ctx, dtype, s->rank, s->dim);
    if (d->base == NULL)
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1,
                       "alloc_output refused a %s result of shape %s", bc_dtype_name(dtype),
                       bc_shape_format(s, sb, sizeof sb));
    d->dtype = dtype;
    d->rank = s->rank;
    /* An empty result is never written, and its extents may multiply past
     * int64 (B16: (2^31,2^32,0) in torch): its strides are all 0. */
    for (int i = s->rank - 1; i >= 0; i--) {
        d->shape[i] = s->dim[i];
        d->strides[i] = n > 0 ? stride : 0;
        if (n > 0)
            stride *= s->dim[i];
    }
    return BCT_OK;
}

static void dest_of(const bct_array *a, dest *d)
{
    d->base = bc_base(a);
    d->dtype = a->dtype;
    d->rank = a->rank;
    for (int i = 0; i < a->rank; i++) {
        d->shape[i] = a->shape[i];
        d->strides[i] = a->strides[i];
    }
}

/* Is any element of a, read as dtype `as`, zero (want_negative = 0) or
 * negative (want_negative = 1)? Used for the per-element errors that must be
 * raised before the first write (B20, B22). */
static int any_element(const bct_array *a, int as, int want_negative)
{
    bc_operand op = { bc_base(a), bc_dtype_size(a->dtype), a->rank, a->shape, a->strides };
    bc_iter it;
    char *p[1];
    bc_iter_init(&it, a->rank, a->shape, 1, &op);
    while (bc_iter_next(&it, p))
        for (int64_t i = 0; i < it.n; i++) {
            char tmp[8];
            int64_t v;
            bc_cast(tmp, as, 0, p[0] + i * it.inner[0], a->dtype, 0, 1);
            v = bc_load_i64(tmp, as);
            if (want_negative ? v < 0 : v == 0)
                return 1;
        }
    return 0;
}

/* B26, NumPy 2's trivial path: every operand 0-d or of the result's very
 * shape (the destination too), each 1-D or C-contiguous. It makes one loop
 * call in which a 0-d operand steps 0, a 1-D one by its stride and an n-D
 * one by its item size. Returns y's step in elements, or -1 when the call
 * takes the iterator instead. */
static int64_t numpy2_trivial_step(const dest *d, const bct_array *args, int nin)
{
    for (int k = 0; k < nin; k++) {
        const bct_array *a = &args[k];
        if (a->rank == 0) continue;
        if (a->rank != d->rank) return -1;
        int64_t n = 1;
        for (int i = a->rank - 1; i >= 0; i--) {
            if (a->shape[i] != d->shape[i]) return -1;
            if (a->rank > 1 && a->shape[i] != 1 && a->strides[i] != n) return -1;
            n *= a->shape[i];
        }
    }
    int64_t want = 1;
    for (int i = d->rank - 1; i >= 0 && d->rank > 1; want *= d->shape[i], i--)
        if (d->shape[i] != 1 && d->strides[i] != want) return -1;   /* out=/self not C-contiguous */
    const bct_array *y = &args[1];
    return y->rank == 0 ? 0 : y->rank == 1 ? y->strides[0] : 1;
}

/* Operand a's stride along dim i of the result d, a right-aligned to d (B1):
 * 0 for a missing or stretched dim. */
static int64_t aligned_stride(const bct_array *a, const dest *d, int i)
{
    int j = i - (d->rank - a->rank);
    return j < 0 || a->shape[j] != d->shape[i] ? 0 : a->strides[j];
}

/* B26, NumPy 2's iterator: the result's extent-1 dims dropped, the rest
 * coalesced where every operand (destination, inputs right-aligned) steps
 * evenly; one loop over the whole result when a single dim (or none) is
 * left, and y's step is its stride there. When more dims are left the
 * buffered loop copies y, stepping by its item size (returns 1). */
static int64_t numpy2_iter_step(const dest *d, const bct_array *in, int nin)
{
    int64_t len = 1, out_step = 0, step[3] = { 0 };
    int dims = 0;
    for (int i = d->rank - 1; i >= 0; i--) {
        if (d->shape[i] == 1) continue;
        if (dims == 0) {
            out_step = d->strides[i];
            for (int k = 0; k < nin; k++) step[k] = aligned_stride(&in[k], d, i);
            dims = 1;
        } else {
            int even = d->strides[i] == out_step * len;
            for (int k = 0; k < nin && even; k++) even = aligned_stride(&in[k], d, i) == step[k] * len;
            if (!even) return 1;
        }
        len *= d->shape[i];
    }
    return step[1];
}

/* B26, NumPy 2: pow runs sqrt when its one inner loop sees a float exponent
 * that steps 0 and is 0.5 (measured with NumPy 2.4.6: y () or a stride-0 view
 * against anything, y (1,) against (2,1) or (1,1), y (1,1) against (3,4) run
 * sqrt; y (1,) against (1,) or (), y (1,1) against (1,1), y (3,1) against
 * (3,4), an array of 0.5s run pow). args: the call's operands; in: them
 * aligned to d (B1). */
static int numpy2_pow_half(int op, int profile, int compute, const dest *d, const bct_array *args,
                           const bct_array *in, int nin)
{
    double v = 0;
    char tmp[8];
    if (op != BCT_POW || profile != BCT_PROFILE_NUMPY2 || bc_pow_half_loop(compute) == NULL) return 0;
    for (int i = 0; i < d->rank; i++) if (d->shape[i] == 0) return 0;
    int64_t step = numpy2_trivial_step(d, args, nin);
    if (step < 0) step = numpy2_iter_step(d, in, nin);
    if (step != 0) return 0;
    bc_cast(tmp, BCT_F64, 0, bc_base(&args[1]), args[1].dtype, 0, 1);
    memcpy(&v, tmp, sizeof v);
    return v == 0.5;
}

/* The element-wise pass: an odometer over the output's outer dims and one
 * typed loop call per row (per CHUNK when an operand must be cast first).
 * in[] are views already aligned/strided for the output shape. wide: the
 * bits of a wide unsigned result (BC_U16...) computed in i64, 0 for none:
 * each result is then cut to that width and cast, unsigned, into d. */
static void run_elementwise(int op, int profile, int compute, int loop_out, const dest *d,
                            const bct_array *args, const bct_array *in, int nin, int wide)
{
    bc_operand ops[BC_ITER_MAXOP];
    bc_iter it;
    char *row[BC_ITER_MAXOP];
    bc_loop2 loop = op == BCT_WHERE ? NULL
                  : numpy2_pow_half(op, profile, compute, d, args, in, nin) ? bc_pow_half_loop(compute)
                  : bc_binary_loop(op, compute, profile);
    int csz = bc_dtype_size(compute), osz = bc_dtype_size(loop_out), dsz = bc_dtype_size(d->dtype);
    /* Cast buffers: 8-byte aligned, CHUNK elements each. */
    static _Thread_local uint64_t buf[BC_ITER_MAXOP][CHUNK], obuf[CHUNK];
    ops[0] = (bc_operand){ d->base, dsz, d->rank, d->shape, d->strides };
    for (int k = 0; k < nin; k++)
        ops[k + 1] = (bc_operand){ bc_base(&in[k]), bc_dtype_size(in[k].dtype), in[k].rank,
                                   in[k].shape, in[k].strides };
    bc_iter_init(&it, d->rank, d->shape, nin + 1, ops);
    while (bc_iter_next(&it, row)) {
        for (int64_t s = 0; s < it.n; s += CHUNK) {
            int64_t m = it.n - s < CHUNK ? it.n - s : CHUNK;
            const char *p[BC_ITER_MAXOP];
            int64_t ps[BC_ITER_MAXOP];
            char *o = row[0] + s * it.inner[0];
            for (int k = 0; k < nin; k++) {
                /* where's cond is read as bool; its values as the result dtype. */
                int want = (op == BCT_WHERE && k == 0) ? BCT_BOOL : compute;
                const char *src = row[k + 1] + s * it.inner[k + 1];
                if (in[k].dtype == want) {
                    p[k] = src;
                    ps[k] = it.inner[k + 1];
                } else {
                    bc_cast((char *)buf[k], want, bc_dtype_size(want), src, in[k].dtype,
                            it.inner[k + 1], m);
                    p[k] = (const char *)buf[k];
                    ps[k] = bc_dtype_size(want);
                }
            }
            if (d->dtype == loop_out && !wide) {
                if (op == BCT_WHERE)
                    bc_where_loop(o, p[0], p[1], p[2], m, it.inner[0], ps[0], ps[1], ps[2], csz);
                else
                    loop(o, p[0], p[1], m, it.inner[0], ps[0], ps[1]);
            } else {
                if (op == BCT_WHERE)
                    bc_where_loop((char *)obuf, p[0], p[1], p[2], m, osz, ps[0], ps[1], ps[2], csz);
                else
                    loop((char *)obuf, p[0], p[1], m, osz, ps[0], ps[1]);
                for (int64_t i = 0; wide && wide < 64 && i < m; i++)
                    obuf[i] &= ((uint64_t)1 << wide) - 1;
                bc_cast(o, d->dtype, it.inner[0], (const char *)obuf, wide ? BC_U64 : loop_out, osz, m);
            }
        }
    }
}

/* The operands as promotion (B19) sees them. B7/B10: the rule reshapes or
 * broadcasts y to x's rank before the add, so y counts as a 0-d operand only
 * when x is 0-d too. (Promotion reads only an operand's dtype, whether it is
 * 0-d, and a 0-d operand's value.) */
static void promotion_view(const bct_call *call, int nin, bct_array *dt)
{
    for (int k = 0; k < nin; k++) dt[k] = call->args[k];
    if ((call->op == BCT_AXIS_ADD || call->op == BCT_UNI_ADD) && dt[1].rank < dt[0].rank) {
        dt[1].rank = dt[0].rank;
        dt[1].shape = dt[0].shape;
        dt[1].strides = dt[0].strides;
    }
}

/* The bits of a wide unsigned result NumPy's value-based casting chose
 * (BC_U16...), or 0. Every operand is non-negative then (a u8 array and a
 * 0-d integer that fits the unsigned type), so i64 arithmetic cut to the
 * width is that unsigned loop's result. */
static int wide_bits(int result)
{
    return result == BC_U16 ? 16 : result == BC_U32 ? 32 : result == BC_U64 ? 64 : 0;
}

/* The dtype checks a library makes before broadcasting: torch's early
 * bool-sub and where-cond checks, the in-place/out= overlap check, and all of
 * NumPy's (B19: in-place and out= may hold a wide unsigned result by casting
 * it). Sets compute/result when it resolves them. BCT_OK or the error. */
static int dtypes_before_shapes(const bct_call *call, int kop, int nin, const bct_array *w,
                                const bct_array *dt, int *compute, int *result, bc_error *err)
{
    int profile = call->profile, mode = call->mode, st;
    if (bc_profile_is_torch(profile) && (kop == BCT_SUB || kop == BCT_WHERE)) {
        st = bc_op_dtypes(kop, dt, nin, profile, compute, result, err);
        if (st != BCT_OK) return st;
    }
    if (w != NULL && (st = check_overlap(w, mode == BCT_MODE_INPLACE ? 0 : call->nargs - 1,
                                         profile, err)) != BCT_OK)
        return st;
    if (bc_profile_is_numpy(profile)) {
        /* B19: in-place and out= may hold a wide unsigned result by casting it */
        st = (w != NULL ? bc_op_dtypes_wide : bc_op_dtypes)(kop, dt, nin, profile, compute, result, err);
        if (st == BCT_OK && w != NULL && !bc_can_cast(*result, w->dtype, profile))
            st = bc_fail(err, BCT_ERR_DTYPE, -1, -1, -1,
                         "Cannot cast ufunc '%s' output from %s to %s with casting rule 'same_kind'",
                         bc_op_name(call->op), bc_dtype_name(*result), bc_dtype_name(w->dtype));
        if (st != BCT_OK) return st;
    }
    return BCT_OK;
}

/* axis_add's result shape; in[1] becomes y viewed with x's rank: its dims at
 * axis.., stride 0 elsewhere (ysh/yst hold that view's shape and strides). */
static int axis_add_shape(const bct_call *call, const bc_shape *shapes, bct_array *in,
                          int64_t *ysh, int64_t *yst, bc_shape *res, bc_error *err)
{
    bc_shape al;
    int st = bc_axis_shape(&shapes[0], &shapes[1], call->axis, &al, res, err);
    if (st != BCT_OK) return st;
    int64_t axis = call->axis == -1 ? shapes[0].rank - shapes[1].rank : call->axis;
    for (int i = 0; i < al.rank; i++) {
        int j = (int)(i - axis);
        ysh[i] = al.dim[i];
        yst[i] = (j >= 0 && j < shapes[1].rank) ? call->args[1].strides[j] : 0;
    }
    in[1].rank = al.rank;
    in[1].shape = ysh;
    in[1].strides = yst;
    return BCT_OK;
}

/* The result shape res of an element-wise call (B8 for in-place and out=;
 * torch resizes out=, then *resize is set), checked against the profile's
 * limits. BCT_OK or the error. */
static int elementwise_shape(const bct_call *call, int nin, const bct_array *w, bc_shape *shapes,
                             bct_array *in, int64_t *ysh, int64_t *yst, bc_shape *res, int *resize,
                             bc_error *err)
{
    int op = call->op, profile = call->profile, mode = call->mode, st;
    if (op == BCT_AXIS_ADD) {
        st = axis_add_shape(call, shapes, in, ysh, yst, res, err);
    } else if (op == BCT_UNI_ADD) {
        st = bc_onnx_uni_shape(&shapes[0], &shapes[1], res, err);
    } else if (mode == BCT_MODE_INPLACE) {
        st = bc_inplace_shape(&shapes[0], &shapes[1], err); /* B8 */
        *res = shapes[0];
    } else if (mode == BCT_MODE_OUT && bc_profile_is_numpy(profile)) {
        /* B8 for out=: inputs and out must broadcast together, to out's shape. */
        bc_shape_of(w, &shapes[nin]);
        st = bc_broadcast_shapes(shapes, nin + 1, res, err);
        if (st == BCT_OK && !same_shape(res, &shapes[nin])) {
            char ob[512], rb[512];
            st = bc_fail(err, BCT_ERR_INPLACE_SHAPE, nin, -1, -1,
                         "non-broadcastable output operand with shape %s doesn't match the "
                         "broadcast shape %s", bc_shape_format(&shapes[nin], ob, sizeof ob),
                         bc_shape_format(res, rb, sizeof rb));
        }
    } else {
        st = bc_broadcast_shapes(shapes, nin, res, err);
        if (st == BCT_OK && mode == BCT_MODE_OUT) {
            bc_shape os;
            bc_shape_of(w, &os);
            *resize = !same_shape(res, &os); /* torch resizes out= */
        }
    }
    if (st != BCT_OK) return st;
    st = bc_check_shape(res, profile, -1, err);
    /* B37: torch 2 allocates the result (value mode) or resizes out= to it */
    if (st == BCT_OK && (mode == BCT_MODE_VALUE || (mode == BCT_MODE_OUT && *resize)))
        st = bc_check_torch2_strides(res, profile, err);
    return st;
}

/* torch's dtype checks, made after broadcasting. BCT_OK or the error. */
static int torch_dtypes(int kop, int nin, const bct_array *w, const bct_array *dt, int *compute,
                        int *result, bc_error *err)
{
    int st = bc_op_dtypes(kop, dt, nin, BCT_PROFILE_TORCH, compute, result, err);
    if (st == BCT_OK && w != NULL && !bc_can_cast(*result, w->dtype, BCT_PROFILE_TORCH))
        st = bc_fail(err, BCT_ERR_DTYPE, -1, -1, -1,
                     "result type %s can't be cast to the desired output type %s",
                     bc_dtype_name(*result), bc_dtype_name(w->dtype));
    return st;
}

/* Per-element errors of integer ops, raised before any write (B20, B22):
 * torch's integer division by zero, NumPy's negative integer powers. */
static int element_errors(int kop, int profile, int compute, const bct_array *in, const bc_shape *res,
                          bc_error *err)
{
    if (count_of(res) <= 0 || !bc_is_int(compute)) return BCT_OK;
    if ((kop == BCT_FLOOR_DIVIDE || kop == BCT_REMAINDER) && bc_profile_is_torch(profile) &&
        any_element(&in[1], compute, 0))
        return bc_fail(err, BCT_ERR_DIVISION_BY_ZERO, 1, -1, -1,
                       "ZeroDivisionError: integer %s by zero (torch profile)", bc_op_name(kop));
    if (kop == BCT_POW && bc_profile_is_numpy(profile) && any_element(&in[1], compute, 1))
        return bc_fail(err, BCT_ERR_OTHER, 1, -1, -1,
                       "Integers to negative integer powers are not allowed.");
    return BCT_OK;
}

/* Element-wise ops (binary, where, axis_add, uni_add) in every mode. The order
 * of checks follows each library, so that a case failing two ways gets the
 * class that library reports: NumPy refuses dtypes before broadcasting;
 * torch broadcasts first (B8/B9 before dtypes, except its early bool-sub and
 * where-cond checks). Nothing is written until every check passed (B22). */
static int eval_elementwise(const bct_call *call, bc_error *err)
{
    bct_call alt;
    bct_array alt_args[4];
    uint8_t not_e;
    if (bc_weak_bool_pow(call, &alt, alt_args, &not_e)) call = &alt;   /* B34, torch2 */
    int op = call->op, profile = call->profile, mode = call->mode;
    int nin = mode == BCT_MODE_OUT ? call->nargs - 1 : call->nargs;
    const bct_array *w = mode == BCT_MODE_INPLACE ? &call->args[0]
                       : mode == BCT_MODE_OUT ? &call->args[call->nargs - 1] : NULL;
    int kop = (op == BCT_AXIS_ADD || op == BCT_UNI_ADD) ? BCT_ADD : op;
    int compute = 0, result = 0, loop_out, st, resize = 0, wide = 0;
    bct_array in[3], dt[3];
    int64_t ysh[BC_MAX_RANK], yst[BC_MAX_RANK];
    bc_shape shapes[4], res;
    dest d;

    for (int k = 0; k < nin; k++) {
        in[k] = call->args[k];
        bc_shape_of(&call->args[k], &shapes[k]);
    }
    promotion_view(call, nin, dt);
    if ((st = bc_weak_view(kop, call->weak_args, profile, dt, nin, err)) != BCT_OK) return st;   /* B34 */
    if ((st = dtypes_before_shapes(call, kop, nin, w, dt, &compute, &result, err)) != BCT_OK) return st;
    if ((st = elementwise_shape(call, nin, w, shapes, in, ysh, yst, &res, &resize, err)) != BCT_OK) return st;
    if (bc_profile_is_torch(profile) && (st = torch_dtypes(kop, nin, w, dt, &compute, &result, err)) != BCT_OK)
        return st;
    loop_out = result;
    if ((wide = wide_bits(result)) != 0)
        compute = loop_out = BCT_I64;
    if ((st = element_errors(kop, profile, compute, in, &res, err)) != BCT_OK) return st;

    /* Every check passed: now the destination, then the one write pass. */
    if (w == NULL || resize) {
        st = alloc_dest(call, w == NULL ? result : w->dtype, &res, &d, err);
        if (st != BCT_OK) return st;
    } else {
        dest_of(w, &d);
    }
    run_elementwise(kop, profile, compute, loop_out, &d, call->args, in, nin, wide);
    return BCT_OK;
}

/* broadcast_to (B5) and expand (B6): the result is the view's values, copied
 * out by a strided walk with stride 0 on stretched dims (B17). */
static int eval_view(const bct_call *call, bc_error *err)
{
    const bct_array *x = &call->args[0];
    bc_shape from, to, res;
    dest d;
    int st;
    if (call->target_rank < 0 || call->target_rank > BC_MAX_RANK)
        return bc_fail(err, BCT_ERR_RANK_LIMIT, -1, -1, -1,
                       "target shape has rank %d; ref supports at most %d", call->target_rank, BC_MAX_RANK);
    bc_shape_of(x, &from);
    to.rank = call->target_rank;
    for (int i = 0; i < to.rank; i++) to.dim[i] = call->target_shape[i];
    if (call->op == BCT_BROADCAST_TO && bc_profile_is_numpy(call->profile)) {
        /* B15: NumPy builds the target's iterator before it compares the
         * shapes, so a target above 32 dims fails first (a negative entry
         * before that: bc_broadcast_to_shape) */
        int neg = 0;
        for (int i = 0; i < to.rank; i++) neg |= to.dim[i] < 0;
        st = !neg && to.rank > bc_numpy_max_rank(call->profile)
           ? bc_fail(err, BCT_ERR_RANK_LIMIT, -1, -1, -1, "maximum supported dimension for an ndarray is %d, "
                     "found %d (the broadcast_to target)", bc_numpy_max_rank(call->profile), to.rank)
           : bc_broadcast_to_shape(&from, &to, err);
        res = to;
    } else {
        /* B6: torch.broadcast_to(x, shape) is x.expand(shape), -1 entries included. */
        st = bc_expand_shape(&from, &to, &res, err);
    }
    if (st == BCT_OK) st = bc_check_shape(&res, call->profile, -1, err);
    if (st == BCT_OK) st = alloc_dest(call, x->dtype, &res, &d, err);
    if (st != BCT_OK) return st;
    {
        int z = bc_dtype_size(x->dtype);
        bc_operand ops[2] = { { d.base, z, d.rank, d.shape, d.strides },
                              { bc_base(x), z, x->rank, x->shape, x->strides } };
        bc_iter it;
        char *p[2];
        bc_iter_init(&it, d.rank, d.shape, 2, ops);
        while (bc_iter_next(&it, p))
            for (int64_t i = 0; i < it.n; i++)
                memcpy(p[0] + i * it.inner[0], p[1] + i * it.inner[1], (size_t)z);
    }
    return BCT_OK;
}

static int eval_matmul(const bct_call *call, bc_error *err)
{
    bc_shape a, b, res;
    dest d;
    int compute, result, st;
    bc_shape_of(&call->args[0], &a);
    bc_shape_of(&call->args[1], &b);
    if (bc_profile_is_torch(call->profile) && a.rank == 1 && b.rank == 1 &&
        call->args[0].dtype != call->args[1].dtype)
        /* torch's dot compares dtypes before sizes (bool fails after, in the kernel). */
        return bc_op_dtypes(BCT_MATMUL, call->args, 2, call->profile, &compute, &result, err);
    st = BCT_OK;
    if (bc_profile_is_torch(call->profile)) {
        /* B13/B14: torch broadcasts the batch dims (infer_size) before bmm
         * compares the core dims, so a call wrong both ways is
         * not-broadcastable there; NumPy's gufunc checks the core first. */
        bc_shape batch[2] = { a, b };
        batch[0].rank = a.rank > 2 ? a.rank - 2 : 0;
        batch[1].rank = b.rank > 2 ? b.rank - 2 : 0;
        st = bc_broadcast_shapes(batch, 2, NULL, err);
    }
    if (st == BCT_OK) st = bc_matmul_shape(&a, &b, &res, err);        /* B12-B14 */
    if (st == BCT_OK) st = bc_check_shape(&res, call->profile, -1, err);
    int mixed = call->args[0].dtype != call->args[1].dtype;
    if (st == BCT_OK && bc_profile_is_torch(call->profile) && (a.rank > 1 || b.rank > 1) &&
        (mixed || call->args[0].dtype == BCT_BOOL) && (count_of(&res) == 0 || a.dim[a.rank - 1] == 0) &&
        /* torch 2.15 compares the dtypes in mm, mv and addmv even when the
         * product is empty: a mix passes only through bmm or the fold of a
         * 3+-D y against a 2+-D x (measured, every rank pair 1-4; found by
         * explore's confirm path against torch 2) */
        (call->profile != BCT_PROFILE_TORCH2 || !mixed || (a.rank >= 2 && b.rank >= 3))) {
        /* torch refuses bool and mixed dtypes only in its kernel, which an
         * empty product never runs; the result then has the dtype of the
         * operand torch 1.13's matmul hands to mm/mv/bmm as self: mv keeps
         * the vector's (y 1-D), a 1-D x goes through mm or mv as itself; a
         * y of 3+ dims makes matmul fold y transposed (x 2-D) or run bmm
         * (x 3+-D), both of which keep y's; otherwise mm keeps x's
         * (measured: x i8, y i32, every rank pair 1-4, each core dim 0). */
        int ry = b.rank, rx = a.rank;
        result = rx == 1 ? call->args[0].dtype : (ry == 1 || ry >= 3) ? call->args[1].dtype : call->args[0].dtype;
    } else if (st == BCT_OK) {
        st = bc_op_dtypes(BCT_MATMUL, call->args, 2, call->profile, &compute, &result, err);
    }
    if (st == BCT_OK) st = alloc_dest(call, result, &res, &d, err);
    if (st != BCT_OK) return st;
    return bc_matmul_eval(&call->args[0], &call->args[1], result, &res, d.base,
                          bc_matmul_value_negzero(call));   /* B47 */
}

/* B4: any number of operands, folded one at a time (bc_broadcast_fold), so
 * memory stays O(rank) whatever the count. */
static int eval_shapes(const bct_call *call, bc_error *err)
{
    bc_shape one, res;
    int st = BCT_OK;
    res.rank = 0;
    for (int k = 0; k < call->nargs && st == BCT_OK; k++) {
        bc_shape_of(&call->args[k], &one);
        st = bc_broadcast_fold(&res, &one, k, err);
    }
    /* B16: NumPy counts the result ("broadcast dimensions too large"); torch's
     * broadcast_shapes computes the shape and counts nothing. */
    if (st == BCT_OK && bc_profile_is_numpy(call->profile)) st = bc_check_shape(&res, call->profile, -1, err);
    /* B35: NumPy 2's broadcast_shapes goes through np.broadcast, whose legacy
     * iterator keeps NumPy 1's 32 dims although arrays may have 64 (B33):
     * "this function only supports up to 32 dimensions but the array has 33". */
    for (int k = 0; k < call->nargs && call->profile == BCT_PROFILE_NUMPY2; k++)
        if (call->args[k].rank > BC_NUMPY_MAX_RANK)
            return bc_fail(err, BCT_ERR_RANK_LIMIT, k, -1, -1, "this function only supports up to %d "
                           "dimensions but the array has %d (operand %d; NumPy 2's broadcast_shapes)",
                           BC_NUMPY_MAX_RANK, call->args[k].rank, k);
    if (st == BCT_OK) {
        char sb[512];
        if (call->alloc_output == NULL ||
            call->alloc_output(call->ctx, BCT_NONE, res.rank, res.dim) == NULL)
            st = bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "alloc_output refused the shape %s",
                         bc_shape_format(&res, sb, sizeof sb));
    }
    return st;
}

/* Arity and mode per op: what the ABI allows, and what ref implements. */
static int check_call(const bct_call *call, bc_error *err)
{
    int op = call->op, mode = call->mode, want;
    if (op < 0 || op >= BCT_OP_COUNT)
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "unknown op %d", op);
    if (mode < BCT_MODE_VALUE || mode > BCT_MODE_GRAD)
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "unknown mode %d", mode);
    if (call->profile < 0 || call->profile >= BCT_PROFILE_COUNT)
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "unknown profile %d", call->profile);
    if (mode == BCT_MODE_GRAD && !(BC_GRAD_OPS & (UINT64_C(1) << op)))
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "%s: no gradient (grad mode)", bc_op_name(op));
    if (mode == BCT_MODE_GRAD && call->grad_form != BCT_GRAD_VALUE &&   /* B47 */
        !((call->grad_form == BCT_GRAD_INPLACE ? BC_GRAD_INPLACE_OPS : call->grad_form == BCT_GRAD_OUT
           ? BC_GRAD_OUT_OPS : 0) & (UINT64_C(1) << op)))
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "%s: no gradient of call form %d (B47)", bc_op_name(op),
                       call->grad_form);
    if ((mode == BCT_MODE_INPLACE || mode == BCT_MODE_OUT) && !is_binary(op))
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "%s: mode %s is not supported (value only)",
                       bc_op_name(op), mode == BCT_MODE_INPLACE ? "inplace" : "out");
    want = op == BCT_WHERE || (op >= BCT_CLIP && op <= BCT_ADDCDIV) || op == BCT_GEMM_BIAS ? 3 : (op == BCT_BROADCAST_TO || op == BCT_EXPAND) ? 1
         : op == BCT_BROADCAST_SHAPES ? call->nargs : 2;
    if (mode == BCT_MODE_OUT || mode == BCT_MODE_GRAD) want++;   /* out=, or the incoming gradient */
    if (mode == BCT_MODE_GRAD && call->grad_form == BCT_GRAD_OUT) want++;   /* B47: x, y, out, grad */
    if (call->nargs != want || call->nargs < 0 || (call->nargs > 0 && call->args == NULL))
        return bc_fail(err, BCT_ERR_OTHER, -1, -1, -1, "%s takes %d arguments in this mode, got %d",
                       bc_op_name(op), want, call->nargs);
    for (int k = 0; k < call->nargs; k++) {
        const bct_array *a = &call->args[k];
        bc_shape s;
        int st;
        if (a->rank < 0 || a->rank > BC_MAX_RANK)
            return bc_fail(err, BCT_ERR_RANK_LIMIT, k, -1, -1,
                           "operand %d has rank %d; ref supports at most %d dimensions",
                           k, a->rank, BC_MAX_RANK);
        if (a->rank > 0 && a->shape == NULL)
            return bc_fail(err, BCT_ERR_OTHER, k, -1, -1, "operand %d has no shape", k);
        bc_shape_of(a, &s);
        /* B16: an operand is a view: its own count matters only where the
         * library counts it: torch's numel of an in-place self, NumPy's
         * byte size of every array (below). */
        if ((st = bc_check_extents(&s, call->profile, k, err)) != BCT_OK)
            return st;
        if (mode == BCT_MODE_INPLACE && k == 0 && bc_profile_is_torch(call->profile) &&
            (st = bc_check_shape(&s, call->profile, k, err)) != BCT_OK)
            return st;
        if (op == BCT_BROADCAST_SHAPES)
            continue;
        if (a->dtype < 0 || a->dtype >= BCT_DTYPE_COUNT)
            return bc_fail(err, BCT_ERR_OTHER, k, -1, -1, "operand %d has unknown dtype %d", k, a->dtype);
        if (a->rank > 0 && a->strides == NULL)
            return bc_fail(err, BCT_ERR_OTHER, k, -1, -1, "operand %d has no strides", k);
        if (a->data == NULL && !is_empty(&s))
            return bc_fail(err, BCT_ERR_OTHER, k, -1, -1, "operand %d has elements but no data", k);
        /* B16: NumPy cannot even create such an operand (not even as a
         * stride-0 view), so that is its first error. */
        if (bc_profile_is_numpy(call->profile) &&
            (st = bc_check_numpy_bytes(&s, a->dtype, k, err)) != BCT_OK)
            return st;
    }
    return BCT_OK;
}

int bc_eval(const bct_call *call, bc_error *err)
{
    bc_error local;
    int st;
    if (err == NULL) err = &local;
    bc_clear_error(err);
    st = check_call(call, err);
    if (st == BCT_OK && call->mode == BCT_MODE_GRAD) {
        st = bc_eval_grad(call, err);
    } else if (st == BCT_OK && bc_is_mathop(call->op)) {
        st = bc_eval_mathop(call, err);   /* B38-B45 */
    } else if (st == BCT_OK) {
        switch (call->op) {
        case BCT_BROADCAST_TO: case BCT_EXPAND: st = eval_view(call, err); break;
        case BCT_MATMUL: st = eval_matmul(call, err); break;
        case BCT_BROADCAST_SHAPES: st = eval_shapes(call, err); break;
        default: st = eval_elementwise(call, err); break;
        }
    }
    if (st != BCT_OK && call->message != NULL && call->message_cap > 0)
        snprintf(call->message, call->message_cap, "%s", err->message);
    return st;
}
