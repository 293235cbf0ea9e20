/* matmul_zero.c - B47: which of torch's matmul sums start from -0 (the sign of a zero result).
 *
 * A float sum that starts from +0 turns an all -0 set of terms into +0; one
 * that starts from -0 (or returns a single term as it is) keeps -0. torch
 * hands matmul to dot, mv, mm or bmm by the operands' ranks (and, for the
 * fold of a 3+-D x against a 2-D y, x's strides); their sums start from +0,
 * except (measured, torch 1.13 and 2.15, f32 and f64, every rank pair 1-4):
 *   - torch 2.15's mm with a core dim of 1 and both other dims at least 2
 *     returns the products themselves (1.13's mm, and bmm, mv, dot never do);
 *   - the backward of dot and mv multiplies element-wise (no sum at all).
 * NumPy's matmul sums from +0 everywhere: only the torch profiles come here. */
#include "ref_internal.h"

/* torch 2.15's mm(a x k, k x b) returns its products as they are. */
static int mm_keeps_terms(int profile, int64_t a, int64_t k, int64_t b)
{
    return profile == BCT_PROFILE_TORCH2 && k == 1 && a >= 2 && b >= 2;
}

static int64_t product(const int64_t *dims, int n)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++) p *= dims[i];
    return p;
}

/* torch 2.15 folds a 3+-D x into a matrix for mm only when x.view(-1, K)
 * needs no copy: its leading dims, size-1 dims aside, are nested (each one's
 * stride is the next one's stride times its extent). A negative stride is
 * given to torch as a contiguous copy (gen/oracles.py), which always folds. */
static int foldable(const bct_array *x)
{
    int prev = -1;
    for (int i = 0; i < x->rank; i++)
        if (x->strides[i] < 0) return 1;
    for (int i = 0; i < x->rank - 1; i++) {
        if (x->shape[i] == 1) continue;
        if (prev >= 0 && x->strides[prev] != x->strides[i] * x->shape[i]) return 0;
        prev = i;
    }
    return 1;
}

/* B47, value and out= modes: 1 when ref must sum x @ y's core products from
 * -0. Only torch2's mm with a core dim of 1 does: x 2-D against a 2-D y, or a
 * 3+-D x that folds (its batch and rows as one dim) against a 2-D y. Every
 * other rank pair runs bmm, mv or dot (a 2-D x against a 3+-D y is not folded
 * without autograd). */
int bc_matmul_value_negzero(const bct_call *call)
{
    const bct_array *x = &call->args[0], *y = &call->args[1];
    if (call->profile != BCT_PROFILE_TORCH2 || x->rank < 2 || y->rank != 2) return 0;
    if (x->rank >= 3 && !foldable(x)) return 0;
    return mm_keeps_terms(call->profile, product(x->shape, x->rank - 1), x->shape[x->rank - 1], y->shape[1]);
}

/* B47, grad mode: neg[k] = 1 when operand k's gradient is its core terms
 * summed from -0. With autograd torch folds every 3+-D operand against a 1-
 * or 2-D one (x 3+-D: x.view(-1, K); y 3+-D: y's transpose, and x 2-D goes
 * through mm with it); torch 2.15 also takes a 3-D operand whose batch is 1
 * against a 3-D one whose batch is not as 2-D. The backward of dot and of mv
 * (its matrix's gradient is an outer product) keeps its terms; mm's two
 * backward products are mm calls of their own; bmm's and mv's vector sums
 * start from +0. */
void bc_matmul_grad_negzero(const bct_call *call, int neg[2])
{
    const bct_array *x = &call->args[0], *y = &call->args[1];
    int xr = x->rank, yr = y->rank, pr = call->profile;
    const int64_t *xs = x->shape, *ys = y->shape;
    neg[0] = neg[1] = 0;
    if (!bc_profile_is_torch(pr)) return;
    if (pr == BCT_PROFILE_TORCH2 && xr == 3 && yr == 3 && (xs[0] == 1) != (ys[0] == 1)) {
        if (xs[0] == 1) { xs++; xr = 2; } else { ys++; yr = 2; }
    }
    int64_t K = xs[xr - 1], M = xr > 1 ? xs[xr - 2] : 1, N = yr > 1 ? ys[yr - 1] : 1;
    if (yr == 1) {                              /* dot, or mv of x (folded) */
        neg[0] = 1;
        neg[1] = xr == 1;
    } else if (xr == 1) {                       /* mv of y's transpose, or mm (1,K) @ y */
        neg[1] = yr >= 3 || mm_keeps_terms(pr, K, 1, N);
    } else if (yr == 2) {                       /* mm of x folded to (BM, K) */
        int64_t bm = product(xs, xr - 1);
        neg[0] = mm_keeps_terms(pr, bm, N, K);
        neg[1] = mm_keeps_terms(pr, K, bm, N);
    } else if (xr == 2) {                       /* mm of y's transpose folded to (BN, K) @ x^T */
        int64_t bn = product(ys, yr - 2) * N;
        neg[0] = mm_keeps_terms(pr, K, bn, M);
        neg[1] = mm_keeps_terms(pr, bn, M, K);
    }                                           /* both 3+-D: bmm, every sum from +0 */
}
