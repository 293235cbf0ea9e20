/* eigen_rank.cpp - one case at one rank (BCT_EIGEN_RANK): operands as Eigen views, broadcast(), the op, the result. */
#include <cstring>

#include "eigen_factors.hpp"
#include "eigen_ops.hpp"
#include "eigen_rank.hpp"
#include "eigen_view.hpp"

#ifndef BCT_EIGEN_RANK
#error "BCT_EIGEN_RANK must be defined (targets/eigen/target.mk compiles this file once per rank)"
#endif

namespace bct_eigen {
namespace {

/* Eigen's element type of expression E. */
template <class E>
using scalar_of = typename std::remove_const<typename Eigen::internal::traits<E>::Scalar>::type;

/* Eigen converts nothing on assignment: an expression of element type
 * `from` assigned to a tensor of `to` does not compile. */
[[noreturn]] void no_conversion(int from, int to)
{
    throw adapter_error{BCT_ERR_DTYPE, std::string("Eigen does not assign a Tensor<") + cxx_name(from) +
                                           "> expression to a Tensor<" + cxx_name(to) +
                                           "> (no implicit conversion)"};
}

/* dst = src, where dst is a writable view of element type T (self, out).
 * Eigen converts nothing on assignment: an expression of another element
 * type (a comparison's bool into a float self) does not compile. No shape
 * check: Eigen's TensorAssignOp asserts that the dimensions match. */
template <class T, class V, class E> int assign(V &dst, const E &src)
{
    using R = scalar_of<E>;
    if constexpr (std::is_same<R, T>::value) {
        dst = src;
        return BCT_OK;
    }
    no_conversion(dtype_of<R>(), dtype_of<T>());
}

/* out= mode: out's view = r (out's element type must be r's: see assign). */
template <int K, class R> int assign_out(const bct_call *call, const Owned<R, K> &r)
{
    const bct_array &o = call->args[call->nargs - 1];
    if (o.dtype != dtype_of<R>())
        no_conversion(dtype_of<R>(), o.dtype);
    operand<R, K> out(o, true);
    auto v = out.view();
    return assign<R>(v, r);
}

/* Evaluates the expression into a Tensor, which Eigen sizes from the
 * expression (its dimensions are the result shape under test). Value mode
 * hands that shape and Eigen's element type to alloc_output and copies;
 * out= mode assigns the Tensor to out's view. (Assigning the expression to
 * out's view directly is the same assignment with the same checks; going
 * through the Tensor instantiates one assignment per element type instead
 * of one per op, which keeps compile time down.) */
template <int K, class E> int finish(const bct_call *call, const E &e)
{
    using R = scalar_of<E>;
    Owned<R, K> r = e;
    if (call->mode == BCT_MODE_OUT)
        return assign_out<K, R>(call, r);
    int64_t shape[K > 0 ? K : 1] = {0};
    for (int d = 0; d < K; d++)
        shape[d] = r.dimension(d);
    void *buf = call->alloc_output(call->ctx, dtype_of<R>(), K, shape);
    if (buf == nullptr)
        throw adapter_error{BCT_ERR_OTHER, "alloc_output refused the shape of Eigen's result"};
    if (r.size() > 0)
        std::memcpy(buf, r.data(), static_cast<size_t>(r.size()) * sizeof(R));
    return BCT_OK;
}

/* x OP y, value or out= mode: x.broadcast(fx) OP y.broadcast(fy). */
template <class T, int K> int binary(const bct_call *call)
{
    operand<const T, K> x(call->args[0], false), y(call->args[1], false);
    Dims<K> fx = factors<K>(x.plan, {&x.plan, &y.plan});
    Dims<K> fy = factors<K>(y.plan, {&x.plan, &y.plan});
    return binary_op<T>(call->op, broadcast_by<K>(x.view(), fx), broadcast_by<K>(y.view(), fy),
                        [&](const auto &e) { return finish<K>(call, e); });
}

/* self OP= y: s = s OP y.broadcast(fy), on the writable view s of self.
 * That is TensorBase's operator+= (`derived() = derived() + other`), written
 * out so that every op has an in-place form. self is never broadcast. */
template <class T, int K> int inplace(const bct_call *call)
{
    operand<T, K> self(call->args[0], true);
    operand<const T, K> y(call->args[1], false);
    Dims<K> fy = factors<K>(y.plan, {&self.plan, &y.plan});
    auto s = self.view();
    return binary_op<T>(call->op, s, broadcast_by<K>(y.view(), fy),
                        [&](const auto &e) { return assign<T>(s, e); });
}

/* where(cond, x, y): cond.select(x, y), all three broadcast (README
 * "Selection"; cond is Tensor<bool>, checked by the caller). */
template <class T, int K> int where(const bct_call *call)
{
    operand<const bool, K> c(call->args[0], false);
    operand<const T, K> x(call->args[1], false), y(call->args[2], false);
    Dims<K> fc = factors<K>(c.plan, {&c.plan, &x.plan, &y.plan});
    Dims<K> fx = factors<K>(x.plan, {&c.plan, &x.plan, &y.plan});
    Dims<K> fy = factors<K>(y.plan, {&c.plan, &x.plan, &y.plan});
    auto cb = broadcast_by<K>(c.view(), fc);
    return finish<K>(call, cb.select(broadcast_by<K>(x.view(), fx), broadcast_by<K>(y.view(), fy)));
}

/* broadcast_to / expand: x.broadcast(factors to the target shape). */
template <class T, int K> int broadcast_to(const bct_call *call)
{
    operand<const T, K> x(call->args[0], false);
    return finish<K>(call, broadcast_by<K>(x.view(), target_factors<K>(x.plan, call)));
}

} // namespace

template <int K> int run_rank(const bct_call *call)
{
    int dt = call->args[call->op == BCT_WHERE ? 1 : 0].dtype;
    return with_type(dt, [&](auto t) {
        using T = decltype(t);
        switch (call->op) {
        case BCT_WHERE: return where<T, K>(call);
        case BCT_BROADCAST_TO:
        case BCT_EXPAND: return broadcast_to<T, K>(call);
        default: break;
        }
        return call->mode == BCT_MODE_INPLACE ? inplace<T, K>(call) : binary<T, K>(call);
    });
}

template int run_rank<BCT_EIGEN_RANK>(const bct_call *call);

} // namespace bct_eigen
