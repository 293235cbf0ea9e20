/* eigen_view.hpp - a bcast operand (shape, strides, offset) expressed in Eigen's vocabulary: TensorMap + stridedSlice + shuffle. */
#ifndef BCT_EIGEN_VIEW_HPP
#define BCT_EIGEN_VIEW_HPP

#include <algorithm>
#include <cstdlib>
#include <string>

#include "eigen_common.hpp"

namespace bct_eigen {

/* How one operand, padded with leading 1s to rank K, is written with Eigen.
 *
 * Eigen's TensorMap has no strides: it maps a dense RowMajor block. Eigen's
 * own view operations supply the rest: stridedSlice() (steps, reversal by a
 * negative step, start offsets), shuffle() (dimension order). So the adapter
 * orders the strided dimensions by |stride| (largest first, the "storage
 * order", see storage_order), maps a dense block whose extents make each
 * stride a whole step (dims), and slices it. The j-th strided dimension uses
 * step t_j of the map, whose row pitch P_j is the product of the map extents
 * after it: |stride_j| = t_j * P_j. A C-contiguous operand comes out as a
 * plain TensorMap of its shape (identity slice and shuffle).
 *
 * A stride-0 dimension of extent > 1 (the operand is itself a broadcast
 * view) cannot be mapped: it is mapped at extent 1 and `repeat` holds its
 * extent, which the caller folds into the operand's broadcast() factors
 * (Eigen's own lazy broadcast; nothing is copied). Writable operands (self,
 * out) cannot have one: broadcast() is read-only. */
template <int K> struct view_plan {
    Index base = 0;  /* element offset of the map's first element from data */
    Dims<K> dims{};  /* TensorMap extents, storage order */
    Dims<K> start{}, stop{}, step{}; /* stridedSlice, storage order */
    Dims<K> perm{};  /* shuffle(): view dimension d is storage dimension perm[d] */
    Dims<K> extent{}; /* the operand's extents as NumPy sees them, padded */
    Dims<K> repeat{}; /* stride-0 dimensions: their extent; 1 elsewhere */
};

/* Throws the adapter's error for a layout Eigen's views cannot express,
 * naming the operand's shape and strides and the reason. */
[[noreturn]] inline void not_expressible(const bct_array &a, const char *why)
{
    std::string m = "adapter: shape (";
    for (int d = 0; d < a.rank; d++)
        m += std::to_string(a.shape[d]) + (d + 1 < a.rank ? "," : "");
    m += ") strides (";
    for (int d = 0; d < a.rank; d++)
        m += std::to_string(a.strides[d]) + (d + 1 < a.rank ? "," : "");
    throw adapter_error{BCT_ERR_OTHER, m + "): " + why};
}

/* The smallest divisor of q that is >= lo, or 0 if there is none. */
inline Index divisor_at_least(Index q, Index lo)
{
    Index best = 0;
    for (Index k = 1; k * k <= q; k++) {
        if (q % k != 0)
            continue;
        if (k >= lo && (best == 0 || k < best))
            best = k;
        if (q / k >= lo && (best == 0 || q / k < best))
            best = q / k;
    }
    return best;
}

/* Row pitches P_i for the m strided dimensions in storage order (abs
 * strides s, extents n): P_{m-1} = 1; each P_i is a multiple of P_{i+1}
 * dividing s_i, and large enough that dimension i+1's slice fits in its
 * map extent P_i / P_{i+1}. Greedy, smallest pitch first; returns false
 * when that finds none (always so for overlapping elements; the suite has
 * no layout for which it fails). */
inline bool row_pitches(int m, const Index *s, const Index *n, Index *P)
{
    if (m == 0)
        return true;
    P[m - 1] = 1;
    for (int i = m - 2; i >= 0; i--) {
        if (s[i] % P[i + 1] != 0)
            return false;
        Index inner_step = s[i + 1] / P[i + 1];
        Index k = divisor_at_least(s[i] / P[i + 1], (n[i + 1] - 1) * inner_step + 1);
        if (k == 0)
            return false;
        P[i] = k * P[i + 1];
    }
    return true;
}

/* The identity plan: a plain TensorMap of extents n. Used as it is for an
 * operand with no elements (Eigen reads nothing), and as plan_view's start. */
template <int K> view_plan<K> plain_plan(const Dims<K> &n)
{
    view_plan<K> p;
    for (int d = 0; d < K; d++) {
        p.dims[d] = p.stop[d] = p.extent[d] = n[d];
        p.start[d] = 0;
        p.step[d] = p.repeat[d] = 1;
        p.perm[d] = d;
    }
    return p;
}

/* The storage order: order[i] is the operand dimension at storage position
 * i. Strided dimensions (s != 0) are sorted by |stride|, largest first,
 * among the positions they occupy; dimensions of extent 1 and stride-0
 * dimensions keep their position (they are extent 1 in the map). So a
 * C-contiguous operand keeps the identity order, and its view is exactly a
 * plain TensorMap (stridedSlice and shuffle are then identities). Returns
 * the number m of strided dimensions; real[j] is the j-th in storage order. */
template <int K> int storage_order(const Dims<K> &s, int *order, int *real)
{
    int slots[K > 0 ? K : 1], m = 0;
    for (int d = 0; d < K; d++) {
        order[d] = d;
        if (s[d] != 0) {
            slots[m] = real[m] = d;
            m++;
        }
    }
    std::stable_sort(real, real + m, [&](int u, int v) { return std::abs(s[u]) > std::abs(s[v]); });
    for (int j = 0; j < m; j++)
        order[slots[j]] = real[j];
    return m;
}

/* The plan for operand a at rank K (K >= a.rank). Throws adapter_error
 * (BCT_ERR_OTHER) for layouts Eigen's views cannot express. */
template <int K> view_plan<K> plan_view(const bct_array &a, bool writable)
{
    Dims<K> n, s;
    bool empty = false;
    for (int d = 0; d < K; d++) {
        int ad = d - (K - a.rank);        /* adapter convention: leading 1s */
        n[d] = ad >= 0 ? a.shape[ad] : 1;
        s[d] = ad >= 0 && n[d] > 1 ? a.strides[ad] : 0; /* extent 1: stride unused */
        empty = empty || n[d] == 0;
    }
    view_plan<K> p = plain_plan<K>(n);
    if (empty)
        return p;
    int order[K > 0 ? K : 1], real[K > 0 ? K : 1];
    int m = storage_order<K>(s, order, real);
    Index as[K > 0 ? K : 1] = {}, an[K > 0 ? K : 1] = {}, P[K > 0 ? K : 1] = {};
    for (int j = 0; j < m; j++) {
        as[j] = std::abs(s[real[j]]);
        an[j] = n[real[j]];
    }
    if (!row_pitches(m, as, an, P))
        not_expressible(a, "no TensorMap + stridedSlice + shuffle addresses these elements "
                           "(overlapping or incommensurable strides)");
    p.base = a.offset;
    for (int i = 0, j = 0; i < K; i++) {
        int d = order[i];
        p.perm[d] = i;
        if (s[d] == 0) { /* extent 1, or a stride-0 dimension: map extent 1 */
            if (n[d] > 1 && writable)
                not_expressible(a, "Eigen has no writable view with a stride-0 dimension "
                                   "(TensorMap has no strides; broadcast() is read-only)");
            p.dims[i] = p.stop[i] = 1;
            p.repeat[d] = n[d];
            continue;
        }
        Index t = as[j] / P[j];
        if (s[d] < 0)
            p.base += s[d] * (n[d] - 1); /* the map starts at the lowest address */
        p.dims[i] = j == 0 ? (n[d] - 1) * t + 1 : P[j - 1] / P[j];
        p.start[i] = s[d] > 0 ? 0 : (n[d] - 1) * t;
        p.stop[i] = s[d] > 0 ? (n[d] - 1) * t + 1 : -1;
        p.step[i] = s[d] > 0 ? t : -t;
        j++;
    }
    return p;
}

/* An operand: the plan and the TensorMap its view refers to (Eigen
 * expressions hold the map by reference, so it lives here). T is const for
 * inputs (read-only pages), non-const for self and out. */
template <class T, int K> struct operand {
    view_plan<K> plan;
    Map<T, K> map;

    operand(const bct_array &a, bool writable)
        : plan(plan_view<K>(a, writable)),
          map(static_cast<T *>(a.data) + plan.base, plan.dims) {}

    /* The operand as Eigen sees it, before broadcasting (stride-0
     * dimensions still at extent 1: see view_plan). A rank-0 operand is its
     * map (one element, nothing to slice): Eigen's stridedSlice and shuffle
     * evaluators index [NumDims - 1] of their stride arrays in RowMajor
     * layout, out of bounds at rank 0 (TensorMorphing.h:963,
     * TensorShuffling.h:149). */
    decltype(auto) view()
    {
        if constexpr (K == 0)
            return (map);
        else
            return map.stridedSlice(plan.start, plan.stop, plan.step).shuffle(plan.perm);
    }
};

} // namespace bct_eigen

#endif
