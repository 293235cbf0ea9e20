/* eigen_target.cpp - bcast target for Eigen 3.4's Tensor module (header-only C++), NumPy profile.
 *
 * Translation, and nothing more (details: FINDINGS.md):
 *   - operands are TensorMaps over the runner's buffers, viewed through
 *     Eigen's stridedSlice() and shuffle() (eigen_view.hpp); inputs are
 *     TensorMap<const T>;
 *   - every operand is padded with leading 1s to the case's largest rank and
 *     broadcast with broadcast(factors), the factors from one rule over the
 *     NumPy extents (eigen_factors.hpp); the adapter never checks shapes:
 *     mismatches reach Eigen, which asserts (this build) or not (-DNDEBUG);
 *   - the ops are TensorBase's operators (eigen_ops.hpp); where is select();
 *     broadcast_to/expand are broadcast(); value mode assigns the expression
 *     to a Tensor, in-place to self's view, out= to out's view;
 *   - Eigen has no type promotion: mixed element types do not compile, so
 *     they are BCT_ERR_DTYPE here, as is any op/type pair that does not
 *     compile;
 *   - rank is a template parameter: ranks 0..BCT_EIGEN_MAX_RANK are
 *     instantiated (an adapter limit, not Eigen's).
 * Errors: eigen_assert aborts as Eigen does by default (no hook); C++
 * exceptions are mapped by type (std::bad_alloc). */
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "eigen_common.hpp"
#include "eigen_rank.hpp"

#ifndef BCT_LIB_VERSION
#error "BCT_LIB_VERSION must be defined (targets/eigen/target.mk passes the package version)"
#endif
#ifndef BCT_EIGEN_MAX_RANK
#error "BCT_EIGEN_MAX_RANK must be defined (targets/eigen/target.mk)"
#endif
static_assert(BCT_EIGEN_MAX_RANK >= 1, "max_rank 0 would mean 'no limit'");
#ifndef BCT_EIGEN_NAME
#error "BCT_EIGEN_NAME must be defined (targets/eigen/target.mk: eigen or eigen-ndebug)"
#endif

namespace bct_eigen {
namespace {

/* The runner's dtype claim covers each operand on its own; Eigen needs one
 * element type per expression. Refuses what does not compile: mixed element
 * types, and a non-bool select() condition (README "Selection": "The 'if'
 * tensor must be of type boolean, the 'then' and the 'else' tensor must be of
 * the same type"). */
void check_types(const bct_call *call)
{
    const bct_array *a = call->args;
    if (call->op == BCT_BROADCAST_TO || call->op == BCT_EXPAND)
        return;
    if (call->op == BCT_WHERE && a[0].dtype != BCT_BOOL) {
        std::string m = "Eigen's select() takes a Tensor<bool> condition, not Tensor<";
        throw adapter_error{BCT_ERR_DTYPE, m + cxx_name(a[0].dtype) + ">"};
    }
    int i = call->op == BCT_WHERE ? 1 : 0;
    if (a[i].dtype != a[i + 1].dtype) {
        std::string m = "Eigen has no implicit type promotion: ";
        m += call->op == BCT_WHERE ? "select() on " : "a binary op on ";
        m += std::string(cxx_name(a[i].dtype)) + " and " + cxx_name(a[i + 1].dtype);
        throw adapter_error{BCT_ERR_DTYPE, m + " does not compile"};
    }
}

/* The case's rank: the largest operand rank, or the target's. */
int case_rank(const bct_call *call)
{
    int k = 0;
    for (int i = 0; i < call->nargs; i++)
        k = call->args[i].rank > k ? call->args[i].rank : k;
    if ((call->op == BCT_BROADCAST_TO || call->op == BCT_EXPAND) && call->target_rank > k)
        k = call->target_rank;
    return k;
}

using rank_fn = int (*)(const bct_call *);

/* Calls run_rank<k> from a table of the instantiated ranks. A rank above
 * them is a rank limit of the adapter (the runner already skips those cases:
 * the descriptor's max_rank). */
template <int... K> int dispatch(int k, const bct_call *call, std::integer_sequence<int, K...>)
{
    static const rank_fn table[] = {&run_rank<K>...};
    if (k < 0 || k >= static_cast<int>(sizeof table / sizeof table[0]))
        throw adapter_error{BCT_ERR_RANK_LIMIT,
                            "adapter: ranks 0.." + std::to_string(BCT_EIGEN_MAX_RANK) +
                                " are instantiated (Eigen's rank is a template parameter)"};
    return table[k](call);
}

/* One case: the element-type checks Eigen's compiler makes, then the
 * instantiation for the case's rank. */
int run_call(const bct_call *call)
{
    check_types(call);
    return dispatch(case_rank(call), call, std::make_integer_sequence<int, BCT_EIGEN_MAX_RANK + 1>{});
}

/* The ABI boundary: no exception crosses it. */
int eigen_run(const bct_call *call)
{
    try {
        return run_call(call);
    } catch (const adapter_error &e) {
        std::snprintf(call->message, call->message_cap, "%s", e.message.c_str());
        return e.status;
    } catch (const std::bad_alloc &) {
        std::snprintf(call->message, call->message_cap, "std::bad_alloc (Eigen could not allocate)");
        return BCT_ERR_OTHER;
    } catch (const std::exception &e) {
        std::snprintf(call->message, call->message_cap, "%s", e.what());
        return BCT_ERR_OTHER;
    } catch (...) {
        std::snprintf(call->message, call->message_cap, "unknown C++ exception");
        return BCT_ERR_OTHER;
    }
}

constexpr uint64_t bit(int op) { return UINT64_C(1) << op; }

/* Ops with an Eigen 3.4 Tensor operator taking two tensors (TensorBase.h).
 * Not declared, because Eigen's Tensor module lacks them: floor_divide;
 * remainder and pow (only tensor % scalar and pow(scalar) exist); the
 * bitwise ops (no operator& or |; operator^ is a boolean xor); matmul
 * (contract() has no batch dimensions to broadcast); broadcast_shapes; the
 * legacy axis and unidirectional adds. Of issue #25's ops (B38-B45) only
 * fmax and fmin: cwiseMax/cwiseMin<PropagateNumbers>. TensorBase has no
 * atan2, hypot, copysign, fmod, shifts or the others, and its clip() takes
 * scalar bounds only (FINDINGS.md). */
const bct_target descriptor = {
    BCT_ABI_VERSION,
    BCT_EIGEN_NAME,
    BCT_LIB_VERSION,
    BCT_PROFILE_NUMPY,
    bit(BCT_ADD) | bit(BCT_SUB) | bit(BCT_MUL) | bit(BCT_DIV) | bit(BCT_MAXIMUM) |
        bit(BCT_MINIMUM) | bit(BCT_EQ) | bit(BCT_NE) | bit(BCT_LT) | bit(BCT_LE) | bit(BCT_GT) |
        bit(BCT_GE) | bit(BCT_LOGICAL_AND) | bit(BCT_LOGICAL_OR) | bit(BCT_LOGICAL_XOR) |
        bit(BCT_WHERE) | bit(BCT_BROADCAST_TO) | bit(BCT_EXPAND) | bit(BCT_FMAX) | bit(BCT_FMIN),
    (UINT32_C(1) << BCT_DTYPE_COUNT) - 1,
    BCT_EIGEN_MAX_RANK,
    BCT_CAP_STRIDED | BCT_CAP_INPLACE | BCT_CAP_OUT,
    nullptr,
    eigen_run,
    0,   /* grad_ops: the Tensor module has no reverse-mode autodiff */
};

} // namespace
} // namespace bct_eigen

extern "C" const bct_target *bcast_target_v1(void);
extern "C" const bct_target *bcast_target_v1(void)
{
    return &bct_eigen::descriptor;
}
