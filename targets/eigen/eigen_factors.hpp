/* eigen_factors.hpp - broadcast() factors from NumPy extents: the adapter's one rule, no shape check. */
#ifndef BCT_EIGEN_FACTORS_HPP
#define BCT_EIGEN_FACTORS_HPP

#include <initializer_list>

#include "eigen_view.hpp"

namespace bct_eigen {

/* Eigen's broadcast(factors) repeats a tensor factors[d] times along each
 * dimension; it takes no shapes. This is how the adapter, like an Eigen
 * user porting NumPy code, turns the operands' extents (already padded to
 * one rank with leading 1s) into factors for one operand `mine`:
 *
 *   r_d = the first extent among `all` operands that is not 1 (1 if none);
 *   factor_d = r_d if mine_d == 1, else 1.
 *
 * It never divides (the tempting out/in divides by zero on a 0 extent) and
 * never compares the extents: incompatible shapes (3 against 2) keep factor
 * 1 and reach Eigen as they are, and so do zero extents. The operand's own
 * stride-0 repeats (view_plan::repeat) are folded in, so Eigen applies one
 * broadcast() per operand. */
template <int K>
Dims<K> factors(const view_plan<K> &mine, std::initializer_list<const view_plan<K> *> all)
{
    Dims<K> f;
    for (int d = 0; d < K; d++) {
        Index r = 1;
        for (const view_plan<K> *p : all) {
            if (p->extent[d] != 1) {
                r = p->extent[d];
                break;
            }
        }
        f[d] = (mine.extent[d] == 1 ? r : 1) * mine.repeat[d];
    }
    return f;
}

/* broadcast_to / expand: the factors that take `mine` to the target shape
 * (padded with leading 1s to rank K), by the same rule with the target as
 * the other extent. expand's -1 ("keep this extent", torch) is factor 1; a
 * negative broadcast_to extent is passed to Eigen as it is. */
template <int K> Dims<K> target_factors(const view_plan<K> &mine, const bct_call *call)
{
    Dims<K> f;
    for (int d = 0; d < K; d++) {
        int td = d - (K - call->target_rank);
        Index t = td >= 0 ? call->target_shape[td] : 1;
        if (call->op == BCT_EXPAND && t == -1)
            t = 1;
        f[d] = (mine.extent[d] == 1 ? t : 1) * mine.repeat[d];
    }
    return f;
}

/* v.broadcast(f). At rank 0 there is nothing to broadcast, and Eigen's
 * broadcast() does not compile for rank-0 tensors (TensorBroadcasting.h:
 * EIGEN_STATIC_ASSERT NumDims > 0), so the view is used as it is. */
template <int K, class V> auto broadcast_by(const V &v, const Dims<K> &f)
{
    if constexpr (K == 0)
        return v;
    else
        return v.broadcast(f);
}

} // namespace bct_eigen

#endif
