/* libtorch_target.cpp - bcast target for libtorch (the ATen C++ API), torch profile.
 *
 * What the adapter does, and why it is only calling convention:
 *   - operands become tensors with at::from_blob over the runner's memory, with
 *     the case's strides (stride 0, offsets, non-contiguous views are all native
 *     to torch). Torch has no negative strides (as_strided refuses them), so an
 *     operand with a negative stride is copied into a contiguous torch tensor
 *     first; an in-place self with a negative stride is copied in, the op runs
 *     on the copy, and the copy is written back only if the op succeeded. This
 *     is the one copy the adapter makes, and why it claims BCT_CAP_STRIDED.
 *   - value mode calls the torch function (at::add, at::where, at::matmul,
 *     Tensor::expand, at::broadcast_to, ...), then asks alloc_output for the
 *     result's own sizes() and dtype and copies the result there;
 *   - in-place mode calls the in-place method (Tensor::add_, sub_, ...);
 *   - out= mode calls the *_out function with out on a torch-owned tensor laid
 *     out like the runner's out (same strides, so overlap checks still see
 *     overlap). Torch resizes a mismatched out; a resized out is delivered with
 *     alloc_output at its new shape, an untouched one is copied back into out.
 *   - no broadcast check, no shape inference, no result fix-up happens here.
 * Errors: every exception is caught at the ABI boundary and classified by its
 * message (see classify(); unknown messages are BCT_ERR_OTHER). */
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

extern "C" {
#include "bcast_target.h"
}

#ifndef BCT_LIB_VERSION
#error "BCT_LIB_VERSION must be defined (targets/libtorch/target.mk passes the package version)"
#endif

namespace {

/* bct_dtype -> torch scalar type, in enum order. */
const at::ScalarType kTypes[BCT_DTYPE_COUNT] = {
    at::kBool, at::kChar, at::kByte, at::kShort, at::kInt, at::kLong, at::kFloat, at::kDouble,
};

/* torch scalar type -> bct_dtype, or -1 for a type bcast cannot represent. */
int to_bct(at::ScalarType t)
{
    for (int i = 0; i < BCT_DTYPE_COUNT; i++)
        if (kTypes[i] == t)
            return i;
    return -1;
}

std::vector<int64_t> vec(const int64_t *p, int n)
{
    return std::vector<int64_t>(p, p + n);
}

bool has_negative_stride(const bct_array &a)
{
    for (int d = 0; d < a.rank; d++)
        if (a.strides[d] < 0 && a.shape[d] > 1)
            return true;
    return false;
}

/* Copies every element of the strided view a to or from the contiguous buffer
 * dense (C order). to_dense selects the direction. */
void copy_view(const bct_array &a, char *dense, bool to_dense)
{
    size_t es = at::elementSize(kTypes[a.dtype]);
    int64_t n = 1;
    for (int d = 0; d < a.rank; d++)
        n *= a.shape[d];
    std::vector<int64_t> idx(static_cast<size_t>(a.rank), 0);
    char *base = static_cast<char *>(a.data);
    int64_t off = a.offset;
    for (int64_t i = 0; i < n; i++) {
        char *elem = base + off * static_cast<int64_t>(es);
        char *d = dense + i * static_cast<int64_t>(es);
        if (to_dense)
            std::memcpy(d, elem, es);
        else
            std::memcpy(elem, d, es);
        for (int k = a.rank - 1; k >= 0; k--) {
            size_t kk = static_cast<size_t>(k);
            if (++idx[kk] < a.shape[k]) {
                off += a.strides[k];
                break;
            }
            idx[kk] = 0;
            off -= a.strides[k] * (a.shape[k] - 1);
        }
    }
}

/* The operand as a tensor over the runner's memory; a copy if torch cannot
 * express its layout (negative strides). */
at::Tensor tensor_of(const bct_array &a)
{
    at::TensorOptions opts = at::TensorOptions().dtype(kTypes[a.dtype]);
    if (has_negative_stride(a)) {
        at::Tensor t = at::empty(vec(a.shape, a.rank), opts);
        copy_view(a, static_cast<char *>(t.data_ptr()), true);
        return t;
    }
    char *p = static_cast<char *>(a.data) +
              a.offset * static_cast<int64_t>(at::elementSize(kTypes[a.dtype]));
    return at::from_blob(p, vec(a.shape, a.rank), vec(a.strides, a.rank), opts);
}

bool contains(const std::string &s, const char *needle)
{
    return s.find(needle) != std::string::npos;
}

/* Maps a torch error message to a bcast error class. The patterns are torch's
 * own texts (the cases' "message torch" lines show them); anything unknown is
 * BCT_ERR_OTHER, and the report shows the message. */
int classify(int op, const std::string &m)
{
    if (contains(m, "doesn't match the broadcast shape"))
        return BCT_ERR_INPLACE_SHAPE;                 /* B8 */
    if (contains(m, "more than one element of the written-to tensor"))
        return BCT_ERR_OVERLAP;                       /* B9 */
    if (contains(m, "ZeroDivisionError"))
        return BCT_ERR_DIVISION_BY_ZERO;              /* B20 */
    if (contains(m, "not implemented for") || contains(m, "can't be cast") ||
        contains(m, "is not supported") || contains(m, "expected condition to be a boolean") ||
        contains(m, "expected scalar type") || contains(m, "expected both"))
        return BCT_ERR_DTYPE;                         /* B18, B19 */
    if (op == BCT_EXPAND || op == BCT_BROADCAST_TO) { /* B5, B6 */
        if (contains(m, "must match the existing size") && !contains(m, "tensor (-"))
            return BCT_ERR_NOT_BROADCASTABLE;
        return BCT_ERR_INVALID_SHAPE;
    }
    if (op == BCT_MATMUL && !contains(m, "must match the size of tensor"))
        return BCT_ERR_MATMUL_CORE;                   /* B13 */
    if (contains(m, "must match the size of tensor") || contains(m, "cannot be broadcast"))
        return BCT_ERR_NOT_BROADCASTABLE;             /* B3 */
    if (contains(m, "overflow"))
        return BCT_ERR_OVERFLOW;                      /* B16 */
    if (contains(m, "negative dimension") || contains(m, "Trying to create tensor with negative"))
        return BCT_ERR_INVALID_SHAPE;
    if (contains(m, "dims") && contains(m, "supported"))
        return BCT_ERR_RANK_LIMIT;                    /* B15 */
    return BCT_ERR_OTHER;
}

at::Tensor binary(int op, const at::Tensor &x, const at::Tensor &y)
{
    switch (op) {
    case BCT_ADD: return at::add(x, y);
    case BCT_SUB: return at::sub(x, y);
    case BCT_MUL: return at::mul(x, y);
    case BCT_DIV: return at::div(x, y);
    case BCT_FLOOR_DIVIDE: return at::floor_divide(x, y);
    case BCT_REMAINDER: return at::remainder(x, y);
    case BCT_POW: return at::pow(x, y);
    case BCT_MAXIMUM: return at::maximum(x, y);
    case BCT_MINIMUM: return at::minimum(x, y);
    case BCT_EQ: return at::eq(x, y);
    case BCT_NE: return at::ne(x, y);
    case BCT_LT: return at::lt(x, y);
    case BCT_LE: return at::le(x, y);
    case BCT_GT: return at::gt(x, y);
    case BCT_GE: return at::ge(x, y);
    case BCT_LOGICAL_AND: return at::logical_and(x, y);
    case BCT_LOGICAL_OR: return at::logical_or(x, y);
    case BCT_LOGICAL_XOR: return at::logical_xor(x, y);
    case BCT_BITWISE_AND: return at::bitwise_and(x, y);
    case BCT_BITWISE_OR: return at::bitwise_or(x, y);
    case BCT_BITWISE_XOR: return at::bitwise_xor(x, y);
    case BCT_MATMUL: return at::matmul(x, y);
    default: throw std::runtime_error("op not claimed by the libtorch target");
    }
}

/* self op= y with torch's in-place method. */
void inplace(int op, at::Tensor &s, const at::Tensor &y)
{
    switch (op) {
    case BCT_ADD: s.add_(y); break;
    case BCT_SUB: s.sub_(y); break;
    case BCT_MUL: s.mul_(y); break;
    case BCT_DIV: s.div_(y); break;
    case BCT_FLOOR_DIVIDE: s.floor_divide_(y); break;
    case BCT_REMAINDER: s.remainder_(y); break;
    case BCT_POW: s.pow_(y); break;
    case BCT_BITWISE_AND: s.bitwise_and_(y); break;
    case BCT_BITWISE_OR: s.bitwise_or_(y); break;
    case BCT_BITWISE_XOR: s.bitwise_xor_(y); break;
    case BCT_EQ: s.eq_(y); break;
    case BCT_NE: s.ne_(y); break;
    case BCT_LT: s.lt_(y); break;
    case BCT_LE: s.le_(y); break;
    case BCT_GT: s.gt_(y); break;
    case BCT_GE: s.ge_(y); break;
    case BCT_LOGICAL_AND: s.logical_and_(y); break;
    case BCT_LOGICAL_OR: s.logical_or_(y); break;
    case BCT_LOGICAL_XOR: s.logical_xor_(y); break;
    default: throw std::runtime_error("op has no in-place form in torch");
    }
}

/* out = x op y with torch's out= overload. */
void out_variant(int op, at::Tensor &o, const at::Tensor &x, const at::Tensor &y)
{
    switch (op) {
    case BCT_ADD: at::add_out(o, x, y); break;
    case BCT_SUB: at::sub_out(o, x, y); break;
    case BCT_MUL: at::mul_out(o, x, y); break;
    case BCT_DIV: at::div_out(o, x, y); break;
    case BCT_EQ: at::eq_out(o, x, y); break;
    case BCT_NE: at::ne_out(o, x, y); break;
    case BCT_LT: at::lt_out(o, x, y); break;
    case BCT_LE: at::le_out(o, x, y); break;
    case BCT_GT: at::gt_out(o, x, y); break;
    case BCT_GE: at::ge_out(o, x, y); break;
    case BCT_MAXIMUM: at::maximum_out(o, x, y); break;
    case BCT_MINIMUM: at::minimum_out(o, x, y); break;
    case BCT_MATMUL: at::matmul_out(o, x, y); break;
    default: throw std::runtime_error("op has no out= form in this adapter");
    }
}

/* Delivers a value-mode result: alloc_output at the result's own shape and
 * dtype, then a copy into it. */
int deliver(const bct_call *call, const at::Tensor &r)
{
    int dt = to_bct(r.scalar_type());
    if (dt < 0) {
        std::snprintf(call->message, call->message_cap, "torch returned dtype %s, not a bcast dtype",
                      c10::toString(r.scalar_type()));
        return BCT_ERR_DTYPE;
    }
    std::vector<int64_t> sizes = r.sizes().vec();
    int64_t none = 0;       /* a 0-d result still passes a non-NULL shape */
    void *buf = call->alloc_output(call->ctx, dt, static_cast<int>(sizes.size()),
                                   sizes.empty() ? &none : sizes.data());
    if (buf == nullptr) {
        std::snprintf(call->message, call->message_cap, "alloc_output refused the result shape");
        return BCT_ERR_OTHER;
    }
    if (r.numel() > 0)
        at::from_blob(buf, sizes, r.options()).copy_(r);
    return BCT_OK;
}

int run_call(const bct_call *call)
{
    const bct_array *a = call->args;
    if (call->mode == BCT_MODE_INPLACE) {
        at::Tensor self = tensor_of(a[0]);
        at::Tensor y = tensor_of(a[1]);
        inplace(call->op, self, y);
        if (has_negative_stride(a[0]))          /* the copy of self goes back */
            copy_view(a[0], static_cast<char *>(self.data_ptr()), false);
        return BCT_OK;
    }
    if (call->mode == BCT_MODE_OUT) {
        const bct_array &oa = a[call->nargs - 1];
        at::Tensor x = tensor_of(a[0]), y = tensor_of(a[1]);
        std::vector<int64_t> shape = vec(oa.shape, oa.rank);
        /* a torch-owned out laid out like the runner's, so torch may resize it */
        at::Tensor o = has_negative_stride(oa)
                           ? at::empty(shape, at::TensorOptions().dtype(kTypes[oa.dtype]))
                           : at::empty_strided(shape, vec(oa.strides, oa.rank),
                                               at::TensorOptions().dtype(kTypes[oa.dtype]));
        o.copy_(tensor_of(oa));
        void *before = o.data_ptr();
        out_variant(call->op, o, x, y);
        if (o.sizes().vec() != shape || o.data_ptr() != before)
            return deliver(call, o.contiguous());   /* torch resized out */
        if (has_negative_stride(oa))
            copy_view(oa, static_cast<char *>(o.contiguous().data_ptr()), false);
        else
            tensor_of(oa).copy_(o);
        return BCT_OK;
    }
    switch (call->op) {
    case BCT_WHERE:
        return deliver(call, at::where(tensor_of(a[0]), tensor_of(a[1]), tensor_of(a[2])));
    case BCT_EXPAND:
        return deliver(call, tensor_of(a[0]).expand(vec(call->target_shape, call->target_rank)));
    case BCT_BROADCAST_TO:
        return deliver(call, at::broadcast_to(tensor_of(a[0]),
                                              vec(call->target_shape, call->target_rank)));
    default:
        return deliver(call, binary(call->op, tensor_of(a[0]), tensor_of(a[1])));
    }
}

/* The ABI boundary: no exception crosses it. */
int torch_run(const bct_call *call)
{
    try {
        return run_call(call);
    } catch (const c10::Error &e) {
        std::string m = e.what_without_backtrace();
        std::snprintf(call->message, call->message_cap, "%s", m.c_str());
        return classify(call->op, m);
    } catch (const std::bad_alloc &) {
        std::snprintf(call->message, call->message_cap, "std::bad_alloc");
        return BCT_ERR_OTHER;
    } catch (const std::exception &e) {
        std::snprintf(call->message, call->message_cap, "%s", e.what());
        return classify(call->op, e.what());
    } catch (...) {
        std::snprintf(call->message, call->message_cap, "unknown C++ exception");
        return BCT_ERR_OTHER;
    }
}

/* One intra-op thread: the runner parallelises with worker processes. */
int torch_init(const char *arg)
{
    (void)arg;
    at::set_num_threads(1);
    return 0;
}

constexpr uint64_t bit(int op) { return UINT64_C(1) << op; }

/* torch has no broadcast_shapes in C++ (it is Python), no legacy axis add and
 * no ONNX unidirectional add: those ops are not claimed. No rank limit is
 * documented for CPU tensors, so max_rank is 0. */
const bct_target descriptor = {
    BCT_ABI_VERSION,
    "libtorch",
    BCT_LIB_VERSION,
    BCT_PROFILE_TORCH,
    bit(BCT_ADD) | bit(BCT_SUB) | bit(BCT_MUL) | bit(BCT_DIV) | bit(BCT_FLOOR_DIVIDE) |
        bit(BCT_REMAINDER) | bit(BCT_POW) | bit(BCT_MAXIMUM) | bit(BCT_MINIMUM) | bit(BCT_EQ) |
        bit(BCT_NE) | bit(BCT_LT) | bit(BCT_LE) | bit(BCT_GT) | bit(BCT_GE) |
        bit(BCT_LOGICAL_AND) | bit(BCT_LOGICAL_OR) | bit(BCT_LOGICAL_XOR) |
        bit(BCT_BITWISE_AND) | bit(BCT_BITWISE_OR) | bit(BCT_BITWISE_XOR) | bit(BCT_WHERE) |
        bit(BCT_BROADCAST_TO) | bit(BCT_EXPAND) | bit(BCT_MATMUL),
    (UINT32_C(1) << BCT_DTYPE_COUNT) - 1,
    0,
    BCT_CAP_STRIDED | BCT_CAP_INPLACE | BCT_CAP_OUT,
    torch_init,
    torch_run,
    0,   /* grad_ops: no gradients yet (ABI 2) */
};

} // namespace

extern "C" const bct_target *bcast_target_v1(void);
extern "C" const bct_target *bcast_target_v1(void)
{
    return &descriptor;
}
