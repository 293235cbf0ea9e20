/* eigen_ops.hpp - bcast's binary ops as Eigen Tensor operators, and where each one compiles. */
#ifndef BCT_EIGEN_OPS_HPP
#define BCT_EIGEN_OPS_HPP

#include <string>

#include "eigen_common.hpp"

namespace bct_eigen {

/* operator&&, operator|| and operator^ (TensorBase.h) apply
 * scalar_boolean_{and,or,xor}_op, whose packet path (pand/por/pxor) only
 * compiles on bool packets. Element types with no SIMD packet take the
 * scalar path, which converts to bool, and compile. With the compiler's
 * default x86-64 target (SSE2) that is bool, int8_t, uint8_t, int16_t,
 * int64_t; int32_t, float and double do not compile (each pair was
 * compiled to check). */
template <class T>
constexpr bool logical_compiles =
    std::is_same<T, bool>::value || !Eigen::internal::packet_traits<T>::Vectorizable;

/* Calls f(a && b), f(a || b) or f(a ^ b) where that compiles for T. */
template <class T, class A, class B, class F> int logical_op(int op, const A &a, const B &b, F &&f)
{
    if constexpr (logical_compiles<T>) {
        switch (op) {
        case BCT_LOGICAL_AND: return f(a && b);
        case BCT_LOGICAL_OR: return f(a || b);
        default: return f(a ^ b);
        }
    }
    const char *name = op == BCT_LOGICAL_AND ? "&&" : op == BCT_LOGICAL_OR ? "||" : "^";
    throw adapter_error{BCT_ERR_DTYPE, std::string("Eigen 3.4: operator") + name + " on Tensor<" +
                                           cxx_name(dtype_of<T>()) +
                                           "> does not compile (its packet path is bool-only)"};
}

/* Calls f with Eigen's expression for a OP b (both already broadcast), and
 * returns what f returns. Ops are TensorBase's (Eigen 3.4 TensorBase.h;
 * README "Binary Element Wise Operations"): + - * / cwiseMax cwiseMin
 * (maximum/minimum with the default NaN policy, PropagateFast; fmax/fmin
 * with cwiseMax/cwiseMin<PropagateNumbers>, Constants.h: "Always propagate
 * not-NaNs"),
 * the comparisons (their expressions are bool), && || and ^ (a boolean
 * xor: scalar_boolean_xor_op). */
template <class T, class A, class B, class F> int binary_op(int op, const A &a, const B &b, F &&f)
{
    switch (op) {
    case BCT_ADD: return f(a + b);
    case BCT_SUB: return f(a - b);
    case BCT_MUL: return f(a * b);
    case BCT_DIV: return f(a / b);
    case BCT_MAXIMUM: return f(a.cwiseMax(b));
    case BCT_MINIMUM: return f(a.cwiseMin(b));
    case BCT_FMAX: return f(a.template cwiseMax<Eigen::PropagateNumbers>(b));
    case BCT_FMIN: return f(a.template cwiseMin<Eigen::PropagateNumbers>(b));
    case BCT_EQ: return f(a == b);
    case BCT_NE: return f(a != b);
    case BCT_LT: return f(a < b);
    case BCT_LE: return f(a <= b);
    case BCT_GT: return f(a > b);
    case BCT_GE: return f(a >= b);
    case BCT_LOGICAL_AND:
    case BCT_LOGICAL_OR:
    case BCT_LOGICAL_XOR: return logical_op<T>(op, a, b, f);
    default: break;
    }
    throw adapter_error{BCT_ERR_OTHER, "adapter: op not declared"};
}

} // namespace bct_eigen

#endif
