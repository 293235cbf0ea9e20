/* eigen_rank.hpp - the per-rank entry point: Eigen's Tensor rank is a template parameter, so each rank is its own instantiation. */
#ifndef BCT_EIGEN_RANK_HPP
#define BCT_EIGEN_RANK_HPP

extern "C" {
#include "bcast_target.h"
}

namespace bct_eigen {

/* Runs one case whose operands (and broadcast_to/expand target) have rank
 * <= K, every one padded to rank K. Defined in eigen_rank.cpp, which the
 * build compiles once per rank 0..BCT_EIGEN_MAX_RANK. Throws adapter_error
 * and whatever Eigen throws (std::bad_alloc). */
template <int K> int run_rank(const bct_call *call);

} // namespace bct_eigen

#endif
