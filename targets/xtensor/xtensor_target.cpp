/* xtensor_target.cpp - bcast target for xtensor (header-only C++17 arrays), NumPy profile.
 *
 * Calling convention, and nothing more:
 *   - each operand is the library's own strided view (xt::strided_view, dynamic
 *     layout, signed strides) over an xt::adapt of the runner's memory, so
 *     offsets, stride 0 and negative strides are xtensor's to handle;
 *   - operands of one dtype: the op runs on the two (three) views as they are,
 *     so the result type is xtensor's own (its functors return decltype(a + b),
 *     decltype(a < b); maximum/minimum/where return the operands' type);
 *   - operands of different dtypes: xtensor arrays have one C++ value type
 *     each, and a mixed-type expression computes in the type C++ promotes the
 *     pair to (P = decltype(T() + U()); for maximum, minimum and where the
 *     ternary xtl::select gives the same P). The adapter converts both
 *     operands with xt::cast<P> into xt::xarray<P> first and runs the op on
 *     those: the values and type are those of xtensor's mixed expression, and
 *     it keeps the template instantiations to 4 promoted types instead of 64
 *     type pairs (compile time). This is the one copy the adapter makes, and
 *     only for mixed dtypes (FINDINGS.md);
 *   - value mode evaluates into xt::xarray and asks alloc_output for that
 *     array's shape and value type; in-place mode uses the compound operators
 *     (+=, -=, ...) on the view of self, which is what an xtensor user writes;
 *   - broadcast_to passes the target to xt::broadcast as xtensor's shape type
 *     (size_t), exactly as a C++ caller's int64 converts: a negative extent
 *     becomes 2^64 - n, and what xtensor does with it is the finding;
 *   - an op that does not compile for a type (bitwise/% on floating point)
 *     cannot be called at all; the adapter reports BCT_ERR_DTYPE for it.
 * Errors: classified by xtensor's exception messages, see classify(). */
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xexception.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xstrided_view.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

extern "C" {
#include "bcast_target.h"
}

#ifndef BCT_LIB_VERSION
#error "BCT_LIB_VERSION must be defined (targets/xtensor/target.mk passes the package version)"
#endif

namespace {

using shape_t = std::vector<std::size_t>;
using strides_t = std::vector<std::ptrdiff_t>;

/* An error the adapter itself reports (calling convention limits). */
struct adapter_error {
    int status;
    std::string message;
};

/* bct dtype of a C++ type, or -1. */
template <class T> int dtype_of()
{
    if (std::is_same<T, bool>::value) return BCT_BOOL;
    if (std::is_same<T, int8_t>::value) return BCT_I8;
    if (std::is_same<T, uint8_t>::value) return BCT_U8;
    if (std::is_same<T, int16_t>::value) return BCT_I16;
    if (std::is_same<T, int32_t>::value) return BCT_I32;
    if (std::is_same<T, int64_t>::value || std::is_same<T, long long>::value) return BCT_I64;
    if (std::is_same<T, float>::value) return BCT_F32;
    if (std::is_same<T, double>::value) return BCT_F64;
    return -1;
}

/* Calls f(T()) with T the C++ type of a bct dtype. */
template <class F> auto with_type(int dt, F &&f)
{
    switch (dt) {
    case BCT_BOOL: return f(bool());
    case BCT_I8: return f(int8_t());
    case BCT_U8: return f(uint8_t());
    case BCT_I16: return f(int16_t());
    case BCT_I32: return f(int32_t());
    case BCT_I64: return f(int64_t());
    case BCT_F32: return f(float());
    default: return f(double());
    }
}

/* xtensor's strided view of operand a, over an adaptor spanning exactly the
 * elements the view addresses (negative strides reach below the offset). */
template <class T> auto view_of(const bct_array &a)
{
    int64_t lo = a.offset, hi = a.offset;
    bool empty = false;
    for (int d = 0; d < a.rank; d++) {
        if (a.shape[d] == 0)
            empty = true;
        else if (a.strides[d] < 0)
            lo += a.strides[d] * (a.shape[d] - 1);
        else
            hi += a.strides[d] * (a.shape[d] - 1);
    }
    std::size_t len = empty ? 0 : static_cast<std::size_t>(hi - lo + 1);
    T *base = static_cast<T *>(a.data) + (empty ? 0 : lo);
    shape_t shape(a.shape, a.shape + a.rank);
    strides_t strides(a.strides, a.strides + a.rank);
    auto buf = xt::adapt(base, len, xt::no_ownership(), shape_t{len});
    return xt::strided_view(std::move(buf), std::move(shape), std::move(strides),
                            empty ? 0 : static_cast<std::size_t>(a.offset - lo),
                            xt::layout_type::dynamic);
}

/* Operand a as xt::xarray<P> (xtensor's own element conversion, xt::cast). */
template <class P> xt::xarray<P> as_array(const bct_array &a)
{
    return with_type(a.dtype, [&](auto t) -> xt::xarray<P> {
        using T = decltype(t);
        return xt::cast<P>(view_of<T>(a));
    });
}

/* Delivers an evaluated xarray through alloc_output, at its shape and type. */
template <class R> int deliver(const bct_call *call, const xt::xarray<R> &r)
{
    int dt = dtype_of<R>();
    if (dt < 0)
        throw adapter_error{BCT_ERR_OTHER, "xtensor's result value type is not a bcast dtype"}; /* no error of xtensor's */
    std::vector<int64_t> shape;
    std::string text = "(";
    for (std::size_t n : r.shape()) {
        shape.push_back(static_cast<int64_t>(n));
        text += std::to_string(n) + ",";
    }
    int64_t none = 0;       /* a 0-d result still passes a non-NULL shape */
    void *buf = call->alloc_output(call->ctx, dt, static_cast<int>(shape.size()),
                                   shape.empty() ? &none : shape.data());
    if (buf == nullptr)
        throw adapter_error{BCT_ERR_OTHER, "alloc_output refused xtensor's result shape " + text + ")"};
    if (r.size() > 0)
        std::memcpy(buf, r.data(), r.size() * sizeof(R));
    return BCT_OK;
}

/* Evaluates expression e into an xt::xarray of its own value type and delivers it. */
template <class E> int deliver_expr(const bct_call *call, E &&e)
{
    using R = typename std::decay_t<E>::value_type;
    return deliver(call, xt::xarray<R>(std::forward<E>(e)));
}

[[noreturn]] void no_compile(const char *what)
{
    throw adapter_error{BCT_ERR_DTYPE,
                        std::string("xtensor: ") + what + " does not compile for this value type"};
}

/* x op y on two xtensor expressions (the views, or xarrays of the promoted type). */
template <class X, class Y> int binary(const bct_call *call, const X &x, const Y &y)
{
    switch (call->op) {
    case BCT_ADD: return deliver_expr(call, x + y);
    case BCT_SUB: return deliver_expr(call, x - y);
    case BCT_MUL: return deliver_expr(call, x * y);
    case BCT_DIV: return deliver_expr(call, x / y);
    case BCT_POW: return deliver_expr(call, xt::pow(x, y));
    case BCT_MAXIMUM: return deliver_expr(call, xt::maximum(x, y));
    case BCT_MINIMUM: return deliver_expr(call, xt::minimum(x, y));
    case BCT_EQ: return deliver_expr(call, xt::equal(x, y));
    case BCT_NE: return deliver_expr(call, xt::not_equal(x, y));
    case BCT_LT: return deliver_expr(call, xt::less(x, y));
    case BCT_LE: return deliver_expr(call, xt::less_equal(x, y));
    case BCT_GT: return deliver_expr(call, xt::greater(x, y));
    case BCT_GE: return deliver_expr(call, xt::greater_equal(x, y));
    case BCT_LOGICAL_AND: return deliver_expr(call, x && y);
    case BCT_LOGICAL_OR: return deliver_expr(call, x || y);
    case BCT_ATAN2: return deliver_expr(call, xt::atan2(x, y));
    case BCT_HYPOT: return deliver_expr(call, xt::hypot(x, y));
    case BCT_FMOD: return deliver_expr(call, xt::fmod(x, y));
    case BCT_FMAX: return deliver_expr(call, xt::fmax(x, y));
    case BCT_FMIN: return deliver_expr(call, xt::fmin(x, y));
    default: break;
    }
    if constexpr (std::is_integral<typename X::value_type>::value &&
                  std::is_integral<typename Y::value_type>::value) {
        switch (call->op) {
        case BCT_REMAINDER: return deliver_expr(call, x % y);
        case BCT_BITWISE_AND: return deliver_expr(call, x & y);
        case BCT_BITWISE_OR: return deliver_expr(call, x | y);
        case BCT_BITWISE_XOR: return deliver_expr(call, x ^ y);
        case BCT_LEFT_SHIFT: return deliver_expr(call, xt::left_shift(x, y));
        case BCT_RIGHT_SHIFT: return deliver_expr(call, xt::right_shift(x, y));
        default: break;
        }
    }
    no_compile(call->op == BCT_REMAINDER ? "operator%" : "a bitwise or shift operator");
}

/* self op= y: the compound operator on xtensor's view of self (T is self's type). */
template <class T, class Y> void compound(int op, const bct_array &self, const Y &y)
{
    auto s = view_of<T>(self);
    switch (op) {
    case BCT_ADD: s += y; return;
    case BCT_SUB: s -= y; return;
    case BCT_MUL: s *= y; return;
    case BCT_DIV: s /= y; return;
    default: break;
    }
    if constexpr (std::is_integral<typename Y::value_type>::value && std::is_integral<T>::value) {
        switch (op) {
        case BCT_REMAINDER: s %= y; return;
        case BCT_BITWISE_AND: s &= y; return;
        case BCT_BITWISE_OR: s |= y; return;
        case BCT_BITWISE_XOR: s ^= y; return;
        default: break;
        }
    }
    no_compile("this compound assignment");
}

/* broadcast_to: xt::broadcast of the view to the target, as size_t extents. */
int broadcast_to(const bct_call *call)
{
    shape_t shape;
    for (int d = 0; d < call->target_rank; d++)   /* -n converts to 2^64 - n, as in C++ */
        shape.push_back(static_cast<std::size_t>(call->target_shape[d]));
    return with_type(call->args[0].dtype, [&](auto t) {
        using T = decltype(t);
        return deliver(call, xt::xarray<T>(xt::broadcast(view_of<T>(call->args[0]), shape)));
    });
}

/* where(cond, x, y): xt::where on the views of x and y when they share a type
 * (cond as its view when bool, else converted to an xarray<bool>, as the
 * ternary xtensor evaluates would); otherwise on xarrays of the promoted type. */
int where(const bct_call *call)
{
    const bct_array *a = call->args;
    return with_type(a[1].dtype, [&](auto tx) {
        return with_type(a[2].dtype, [&](auto ty) {
            using T = decltype(tx);
            using U = decltype(ty);
            if constexpr (std::is_same<T, U>::value) {
                if (a[0].dtype == BCT_BOOL)
                    return deliver_expr(call, xt::where(view_of<bool>(a[0]), view_of<T>(a[1]),
                                                        view_of<T>(a[2])));
                return deliver_expr(call, xt::where(as_array<bool>(a[0]), view_of<T>(a[1]),
                                                    view_of<T>(a[2])));
            } else {
                using P = decltype(T() + U());
                return deliver(call, xt::xarray<P>(xt::where(as_array<bool>(a[0]), as_array<P>(a[1]),
                                                            as_array<P>(a[2]))));
            }
        });
    });
}

/* The dtype xtensor's mixed expression of dtypes dx and dy computes in:
 * C++'s promoted type of the two value types (decltype(T() + U())). */
int promoted_dtype(int dx, int dy)
{
    return with_type(dx, [&](auto tx) {
        return with_type(dy, [&](auto ty) { return dtype_of<decltype(tx + ty)>(); });
    });
}

/* clip(x, lo, hi): xt::clip on the three views when they share a type, else on
 * xarrays of the promoted type (as for a mixed binary op). xt::clip is an
 * xfunction of three expressions, so xtensor broadcasts all three itself. */
int clip(const bct_call *call)
{
    const bct_array *a = call->args;
    if (a[0].dtype == a[1].dtype && a[1].dtype == a[2].dtype)
        return with_type(a[0].dtype, [&](auto t) {
            using T = decltype(t);
            return deliver_expr(call, xt::clip(view_of<T>(a[0]), view_of<T>(a[1]), view_of<T>(a[2])));
        });
    int p = promoted_dtype(promoted_dtype(a[0].dtype, a[1].dtype), a[2].dtype);
    return with_type(p, [&](auto t) {
        using P = decltype(t);
        return deliver_expr(call, xt::clip(as_array<P>(a[0]), as_array<P>(a[1]), as_array<P>(a[2])));
    });
}

int run_call(const bct_call *call)
{
    const bct_array *a = call->args;
    if (call->op == BCT_BROADCAST_TO)
        return broadcast_to(call);
    if (call->op == BCT_WHERE)
        return where(call);
    if (call->op == BCT_CLIP)
        return clip(call);
    return with_type(a[0].dtype, [&](auto tx) {
        return with_type(a[1].dtype, [&](auto ty) {
            using T = decltype(tx);
            using U = decltype(ty);
            using P = decltype(T() + U());
            if constexpr (std::is_same<T, U>::value) {      /* xtensor's own views */
                if (call->mode == BCT_MODE_INPLACE) {
                    compound<T>(call->op, a[0], view_of<T>(a[1]));
                    return int(BCT_OK);
                }
                return binary(call, view_of<T>(a[0]), view_of<T>(a[1]));
            } else {                                        /* mixed: promoted copies */
                if (call->mode == BCT_MODE_INPLACE) {
                    compound<T>(call->op, a[0], as_array<P>(a[1]));
                    return int(BCT_OK);
                }
                return binary(call, as_array<P>(a[0]), as_array<P>(a[1]));
            }
        });
    });
}

/* Maps an exception to a class by xtensor's two shape messages:
 * "Incompatible dimension of arrays" (xt::broadcast_error: extents that do not
 * broadcast, B3) and "Broadcast shape has fewer elements than original
 * expression" (the destination is smaller than the source: self for a
 * compound assignment, B8; a broadcast_to target of lower rank than the source, B5). Anything else
 * is BCT_ERR_OTHER. */
int classify(const bct_call *call, const std::exception &e)
{
    std::string m = e.what();
    if (m.find("fewer elements") != std::string::npos) {
        if (call->mode == BCT_MODE_INPLACE)
            return BCT_ERR_INPLACE_SHAPE;
        if (call->op == BCT_BROADCAST_TO)
            return BCT_ERR_INVALID_SHAPE;
    }
    if (dynamic_cast<const xt::broadcast_error *>(&e) != nullptr ||
        m.find("Incompatible dimension") != std::string::npos)
        return BCT_ERR_NOT_BROADCASTABLE;
    return BCT_ERR_OTHER;
}

/* The ABI boundary: no exception crosses it. */
int xt_run(const bct_call *call)
{
    try {
        return run_call(call);
    } catch (const adapter_error &e) {
        std::snprintf(call->message, call->message_cap, "%s", e.message.c_str());
        return e.status;
    } catch (const std::bad_alloc &) {
        std::snprintf(call->message, call->message_cap, "std::bad_alloc");
        return BCT_ERR_OTHER;
    } catch (const std::exception &e) {
        std::snprintf(call->message, call->message_cap, "%s", e.what());
        return classify(call, e);
    } catch (...) {
        std::snprintf(call->message, call->message_cap, "unknown C++ exception");
        return BCT_ERR_OTHER;
    }
}

constexpr uint64_t bit(int op) { return UINT64_C(1) << op; }

/* xtensor has no floor_divide, logical_xor, matmul (xtensor-blas), torch
 * expand, broadcast_shapes as a public function, or legacy axis add. Of
 * issue #25's ops (B38-B45) xmath.hpp/xoperation.hpp 0.24.3 have atan2, hypot,
 * fmod, fmax, fmin, clip (three expressions), left_shift and right_shift; no
 * copysign, heaviside, logaddexp(2), nextafter, ldexp, gcd, lcm, float_power,
 * rounding-mode division, lerp, addcmul, addcdiv, prelu or gemm (FINDINGS.md). */
const bct_target descriptor = {
    BCT_ABI_VERSION,
    "xtensor",
    BCT_LIB_VERSION,
    BCT_PROFILE_NUMPY,
    bit(BCT_ADD) | bit(BCT_SUB) | bit(BCT_MUL) | bit(BCT_DIV) | bit(BCT_REMAINDER) |
        bit(BCT_POW) | bit(BCT_MAXIMUM) | bit(BCT_MINIMUM) | bit(BCT_EQ) | bit(BCT_NE) |
        bit(BCT_LT) | bit(BCT_LE) | bit(BCT_GT) | bit(BCT_GE) | bit(BCT_LOGICAL_AND) |
        bit(BCT_LOGICAL_OR) | bit(BCT_BITWISE_AND) | bit(BCT_BITWISE_OR) |
        bit(BCT_BITWISE_XOR) | bit(BCT_WHERE) | bit(BCT_BROADCAST_TO) | bit(BCT_ATAN2) |
        bit(BCT_HYPOT) | bit(BCT_FMOD) | bit(BCT_FMAX) | bit(BCT_FMIN) | bit(BCT_CLIP) |
        bit(BCT_LEFT_SHIFT) | bit(BCT_RIGHT_SHIFT),
    (UINT32_C(1) << BCT_DTYPE_COUNT) - 1,
    0,
    BCT_CAP_STRIDED | BCT_CAP_INPLACE,
    nullptr,
    xt_run,
    0,   /* grad_ops: xtensor has no autodiff */
};

} // namespace

extern "C" const bct_target *bcast_target_v1(void);
extern "C" const bct_target *bcast_target_v1(void)
{
    return &descriptor;
}
