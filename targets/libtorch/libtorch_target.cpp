/* libtorch_target.cpp - bcast target for libtorch (the ATen C++ API), torch profile.
 *
 * What the adapter does, and why it is only calling convention:
 *   - operands become tensors with at::from_blob over the runner's memory, with
 *     the case's strides (stride 0, offsets, non-contiguous views are all native
 *     to torch). Torch has no negative strides (as_strided refuses them), so an
 *     operand with a negative stride is copied into a contiguous torch tensor
 *     first; an in-place self with a negative stride is copied in, the op runs
 *     on the copy, and the copy's values are written back through self's
 *     strides whether the op succeeded or raised (B22: what torch wrote before
 *     raising stays visible). This copy is why it claims BCT_CAP_STRIDED;
 *   - value mode calls the torch function (at::add, at::where, at::matmul,
 *     Tensor::expand, at::broadcast_to, ...), then asks alloc_output for the
 *     result's own sizes() and dtype and copies the result there;
 *   - in-place mode calls the in-place method (Tensor::add_, sub_, ...); torch
 *     has none for maximum, minimum, matmul and where (a C++ compile-time
 *     absence: the adapter answers other, saying so);
 *   - out= mode calls the *_out function with out as a torch-owned tensor: the
 *     same strides over a copy of out's storage span (a from_blob tensor cannot
 *     be resized, and torch resizes a mismatched out), or a contiguous copy for
 *     negative strides. A resized out is delivered with alloc_output at its new
 *     shape, also when the call raised (without values: the runner judges a
 *     resize by a failed call, B22); otherwise out's values go back through
 *     the case's strides, also when the call raised (B22);
 *   - grad mode (ABI 2) makes each floating input a leaf that requires grad,
 *     runs the value-mode op (B46: or the in-place call on a clone of self,
 *     or the out= call), calls backward with the incoming gradient and
 *     delivers each leaf's grad() through alloc_grad as torch computed it;
 *   - no broadcast check, no shape inference, no result fix-up happens here.
 * Errors: every exception is caught at the ABI boundary and classified by its
 * message alone with targets/torch_errors.tsv, the table the Python torch
 * bridge uses too (target.mk compiles it in); unknown messages are
 * BCT_ERR_OTHER. */
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <regex.h>

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

/* One line of targets/torch_errors.tsv: a torch message pattern and its class. */
struct message_rule {
    int status;
    const char *pattern;
};

/* torch_errors.inc is generated from targets/torch_errors.tsv by target.mk:
 * one {BCT_ERR_CLASS, R"re(REGEX)re"}, line per table line. */
const message_rule kRules[] = {
#include "torch_errors.inc"
};

/* kRules compiled (POSIX extended regexes), by torch_init. */
std::vector<regex_t> compiled_rules;

/* Compiles kRules once; false, naming the pattern on stderr, if one does not
 * compile (a broken table: the target then refuses to start). */
bool compile_rules()
{
    for (const message_rule &r : kRules) {
        regex_t re;
        int rc = regcomp(&re, r.pattern, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char why[200];
            regerror(rc, &re, why, sizeof why);
            std::fprintf(stderr, "libtorch target: targets/torch_errors.tsv: '%s': %s\n", r.pattern, why);
            return false;
        }
        compiled_rules.push_back(re);
    }
    return true;
}

/* Maps a torch error message to a bcast error class by the message alone: the
 * first rule of targets/torch_errors.tsv whose regex is found in the message's
 * first line (the table quotes the messages); anything else is BCT_ERR_OTHER,
 * and the report shows the message. */
int classify(const std::string &message)
{
    std::string first = message.substr(0, message.find('\n'));
    for (std::size_t i = 0; i < compiled_rules.size(); i++)
        if (regexec(&compiled_rules[i], first.c_str(), 0, nullptr, 0) == 0)
            return kRules[i].status;
    return BCT_ERR_OTHER;
}

/* The binary ops of issue #25 (B38-B42), value mode only: ATen's own
 * functions, the ones torch.* calls (div_trunc/div_floor are at::div's
 * rounding modes). */
at::Tensor math_binary(int op, const at::Tensor &x, const at::Tensor &y)
{
    switch (op) {
    case BCT_COPYSIGN: return at::copysign(x, y);
    case BCT_ATAN2: return at::atan2(x, y);
    case BCT_HYPOT: return at::hypot(x, y);
    case BCT_FMOD: return at::fmod(x, y);
    case BCT_HEAVISIDE: return at::heaviside(x, y);
    case BCT_LOGADDEXP: return at::logaddexp(x, y);
    case BCT_LOGADDEXP2: return at::logaddexp2(x, y);
    case BCT_NEXTAFTER: return at::nextafter(x, y);
    case BCT_LDEXP: return at::ldexp(x, y);
    case BCT_GCD: return at::gcd(x, y);
    case BCT_LCM: return at::lcm(x, y);
    case BCT_LEFT_SHIFT: return at::bitwise_left_shift(x, y);
    case BCT_RIGHT_SHIFT: return at::bitwise_right_shift(x, y);
    case BCT_FLOAT_POWER: return at::float_power(x, y);
    case BCT_FMAX: return at::fmax(x, y);
    case BCT_FMIN: return at::fmin(x, y);
    case BCT_DIV_TRUNC: return at::div(x, y, "trunc");
    case BCT_DIV_FLOOR: return at::div(x, y, "floor");
    default: throw std::runtime_error("op not claimed by the libtorch target");
    }
}

/* The three-operand ops of issue #25 (B43-B45), value mode only. gemm_bias is
 * at::addmm(C, A, B) (beta = alpha = 1), which expands C to (M,N) one way
 * only, as ONNX's Gemm does; clip is at::clamp with tensor bounds. */
at::Tensor ternary(int op, const at::Tensor &x, const at::Tensor &y, const at::Tensor &z)
{
    switch (op) {
    case BCT_WHERE: return at::where(x, y, z);
    case BCT_CLIP: return at::clamp(x, y, z);
    case BCT_LERP: return at::lerp(x, y, z);
    case BCT_ADDCMUL: return at::addcmul(x, y, z);
    case BCT_ADDCDIV: return at::addcdiv(x, y, z);
    case BCT_GEMM_BIAS: return at::addmm(z, x, y);
    default: throw std::runtime_error("op not claimed by the libtorch target");
    }
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
    default: return math_binary(op, x, y);
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
    default: throw std::runtime_error("torch has no in-place method for this op (no maximum_, minimum_, "
                                      "matmul_ or where_ on at::Tensor)");
    }
}

/* out = op(in...) with torch's out= overload (at::add_out, ...). */
void out_variant(int op, at::Tensor &o, const std::vector<at::Tensor> &in)
{
    if (op == BCT_WHERE) {
        at::where_out(o, in.at(0), in.at(1), in.at(2));
        return;
    }
    const at::Tensor &x = in.at(0), &y = in.at(1);
    switch (op) {
    case BCT_ADD: at::add_out(o, x, y); break;
    case BCT_SUB: at::sub_out(o, x, y); break;
    case BCT_MUL: at::mul_out(o, x, y); break;
    case BCT_DIV: at::div_out(o, x, y); break;
    case BCT_FLOOR_DIVIDE: at::floor_divide_out(o, x, y); break;
    case BCT_REMAINDER: at::remainder_out(o, x, y); break;
    case BCT_POW: at::pow_out(o, x, y); break;
    case BCT_MAXIMUM: at::maximum_out(o, x, y); break;
    case BCT_MINIMUM: at::minimum_out(o, x, y); break;
    case BCT_EQ: at::eq_out(o, x, y); break;
    case BCT_NE: at::ne_out(o, x, y); break;
    case BCT_LT: at::lt_out(o, x, y); break;
    case BCT_LE: at::le_out(o, x, y); break;
    case BCT_GT: at::gt_out(o, x, y); break;
    case BCT_GE: at::ge_out(o, x, y); break;
    case BCT_LOGICAL_AND: at::logical_and_out(o, x, y); break;
    case BCT_LOGICAL_OR: at::logical_or_out(o, x, y); break;
    case BCT_LOGICAL_XOR: at::logical_xor_out(o, x, y); break;
    case BCT_BITWISE_AND: at::bitwise_and_out(o, x, y); break;
    case BCT_BITWISE_OR: at::bitwise_or_out(o, x, y); break;
    case BCT_BITWISE_XOR: at::bitwise_xor_out(o, x, y); break;
    case BCT_MATMUL: at::matmul_out(o, x, y); break;
    default: throw std::runtime_error("op has no out= overload in torch");
    }
}

/* out as a torch-owned tensor, which torch may resize as it does a user's:
 * the case's strides over a copy of out's storage span, or, for a negative
 * stride, a contiguous copy of its values (tensor_of). */
at::Tensor owned_out(const bct_array &a)
{
    if (has_negative_stride(a))
        return tensor_of(a);
    std::vector<int64_t> strides = vec(a.strides, a.rank);
    int64_t span = 1;
    for (int d = 0; d < a.rank; d++) {
        if (a.shape[d] == 0)
            span = 0;
        if (a.shape[d] <= 1)
            strides[static_cast<size_t>(d)] = 0;   /* unused; as_strided refuses negatives */
        else if (span > 0)
            span += a.strides[d] * (a.shape[d] - 1);
    }
    at::Tensor storage = at::empty({span}, at::TensorOptions().dtype(kTypes[a.dtype]));
    size_t es = at::elementSize(kTypes[a.dtype]);
    if (span > 0)
        std::memcpy(storage.data_ptr(), static_cast<char *>(a.data) + a.offset * static_cast<int64_t>(es),
                    static_cast<size_t>(span) * es);
    return storage.as_strided(vec(a.shape, a.rank), strides, 0);
}

/* Writes t's values, in C order, through a's strides: a torch-side copy of
 * self or out goes back to the runner's memory. */
void write_back(const bct_array &a, const at::Tensor &t)
{
    at::Tensor c = t.contiguous();
    copy_view(a, static_cast<char *>(c.data_ptr()), false);
}

/* Delivers a value-mode result: alloc_output at the result's own shape and
 * dtype, then a copy into it. */
int deliver(const bct_call *call, const at::Tensor &r)
{
    int dt = to_bct(r.scalar_type());
    if (dt < 0) {
        /* torch raised nothing: other, as the pipe target answers an unknown result dtype */
        std::snprintf(call->message, call->message_cap, "torch returned dtype %s, not a bcast dtype",
                      c10::toString(r.scalar_type()));
        return BCT_ERR_OTHER;
    }
    std::vector<int64_t> sizes = r.sizes().vec();
    int64_t none = 0;       /* a 0-d result still passes a non-NULL shape */
    void *buf = call->alloc_output(call->ctx, dt, static_cast<int>(sizes.size()),
                                   sizes.empty() ? &none : sizes.data());
    if (buf == nullptr) {
        std::string text = "(";
        for (int64_t n : sizes)
            text += std::to_string(n) + ",";
        std::snprintf(call->message, call->message_cap, "alloc_output refused torch's result sizes %s)",
                      text.c_str());
        return BCT_ERR_OTHER;
    }
    if (r.numel() > 0)
        at::from_blob(buf, sizes, r.options()).copy_(r);
    return BCT_OK;
}

/* self op= y in place. A negative-stride self is a torch copy whose values go
 * back through self's strides, also when the op raised (B22). */
int run_inplace(const bct_call *call)
{
    const bct_array *a = call->args;
    at::Tensor self = tensor_of(a[0]);
    at::Tensor y = tensor_of(a[1]);
    bool copied = has_negative_stride(a[0]);
    try {
        inplace(call->op, self, y);
    } catch (...) {
        if (copied)
            write_back(a[0], self);
        throw;
    }
    if (copied)
        write_back(a[0], self);
    return BCT_OK;
}

/* A failed out= call left torch's out at other sizes: reported as the ABI
 * says (alloc_output at those sizes, then the error; docs/target-abi.md),
 * without values, which a failed call does not define. */
void report_resized(const bct_call *call, const at::Tensor &o)
{
    int dt = to_bct(o.scalar_type());
    std::vector<int64_t> sizes = o.sizes().vec();
    int64_t none = 0;
    if (dt >= 0)
        (void)call->alloc_output(call->ctx, dt, static_cast<int>(sizes.size()), sizes.empty() ? &none : sizes.data());
}

/* out= op(args...) into a torch-owned out. Torch resized it: the result is
 * delivered at its new shape. Otherwise its values go back through out's
 * strides, also when the op raised (B22). */
int run_out(const bct_call *call)
{
    const bct_array &oa = call->args[call->nargs - 1];
    std::vector<at::Tensor> in;
    for (int i = 0; i < call->nargs - 1; i++)
        in.push_back(tensor_of(call->args[i]));
    at::Tensor o = owned_out(oa);
    std::vector<int64_t> shape = vec(oa.shape, oa.rank);
    void *before = o.data_ptr();
    auto resized = [&] { return o.sizes().vec() != shape || o.data_ptr() != before; };
    try {
        out_variant(call->op, o, in);
    } catch (...) {
        if (!resized())
            write_back(oa, o);
        else if (o.sizes().vec() != shape)
            report_resized(call, o);
        throw;
    }
    if (resized())
        return deliver(call, o.contiguous());
    write_back(oa, o);
    return BCT_OK;
}

/* The value-mode op on the input tensors in[], as torch's own function:
 * also the forward pass of grad mode. */
at::Tensor forward(const bct_call *call, const std::vector<at::Tensor> &in)
{
    switch (call->op) {
    case BCT_WHERE: case BCT_CLIP: case BCT_LERP: case BCT_ADDCMUL: case BCT_ADDCDIV: case BCT_GEMM_BIAS:
        return ternary(call->op, in.at(0), in.at(1), in.at(2));
    case BCT_EXPAND:
        return in.at(0).expand(vec(call->target_shape, call->target_rank));
    case BCT_BROADCAST_TO:
        return at::broadcast_to(in.at(0), vec(call->target_shape, call->target_rank));
    default:
        return binary(call->op, in.at(0), in.at(1));
    }
}

/* B46: grad mode's forward call in the case's call form: the value-mode op;
 * self.op_(other) on a clone of the leaf self (a non-leaf copy, so torch's
 * in-place autograd applies and the leaf keeps self's original value); or
 * op(x, y, out=o) with o a plain contiguous tensor that does not require
 * grad (torch decides whether autograd allows it). */
at::Tensor forward_form(const bct_call *call, const std::vector<at::Tensor> &in)
{
    if (call->grad_form == BCT_GRAD_INPLACE) {
        at::Tensor s = in.at(0).clone();
        inplace(call->op, s, in.at(1));
        return s;
    }
    if (call->grad_form == BCT_GRAD_OUT) {
        at::Tensor o = in.at(2).detach().clone(at::MemoryFormat::Contiguous);
        out_variant(call->op, o, { in.at(0), in.at(1) });
        return o;
    }
    return forward(call, in);
}

/* Copies torch's gradient g of input k into the buffer from alloc_grad, at
 * g's own dtype and sizes (B23: torch sums it back to the input's shape; the
 * adapter does not reshape, cast or check it). */
int deliver_grad(const bct_call *call, int k, const at::Tensor &g)
{
    int dt = to_bct(g.scalar_type());
    std::vector<int64_t> sizes = g.sizes().vec();
    int64_t none = 0;   /* a 0-d gradient still passes a non-NULL shape */
    void *buf = dt < 0 ? nullptr
                       : call->alloc_grad(call->ctx, k, dt, static_cast<int>(sizes.size()),
                                          sizes.empty() ? &none : sizes.data());
    if (buf == nullptr) {
        std::string text = "(";
        for (int64_t n : sizes)
            text += std::to_string(n) + ",";
        std::snprintf(call->message, call->message_cap, "alloc_grad refused torch's gradient of input %d: %s %s)",
                      k, c10::toString(g.scalar_type()), text.c_str());
        return BCT_ERR_OTHER;
    }
    if (g.numel() > 0)
        at::from_blob(buf, sizes, g.options()).copy_(g);
    return BCT_OK;
}

/* Grad mode (ABI 2, B23-B31): torch autograd itself. Each f32/f64 input but
 * where's cond becomes a leaf that requires grad (integer and bool inputs are
 * constants: torch cannot require grad on them), the op runs as in value mode,
 * backward(args[nargs-1]) fills each leaf's grad(), which is delivered as
 * torch computed it. A forward error, or backward's own ("element 0 of
 * tensors does not require grad" when no input is floating), propagates as
 * an exception. A leaf torch left without a gradient gets none: the runner
 * reports it missing (torch raised nothing, so there is no error to return). */
int run_grad(const bct_call *call)
{
    int n = call->nargs - 1;
    std::vector<at::Tensor> in;
    std::vector<bool> leaf;
    for (int i = 0; i < n; i++) {
        const bct_array &a = call->args[i];
        bool diff = (a.dtype == BCT_F32 || a.dtype == BCT_F64) && !(call->op == BCT_WHERE && i == 0) &&
                    !(call->grad_form == BCT_GRAD_OUT && i == 2);   /* B46: out= never requires grad */
        at::Tensor t = tensor_of(a);
        if (diff)
            t = t.detach().requires_grad_(true);
        in.push_back(t);
        leaf.push_back(diff);
    }
    at::Tensor r = forward_form(call, in);
    r.backward(tensor_of(call->args[n]));
    for (int i = 0; i < n; i++) {
        size_t k = static_cast<size_t>(i);
        if (!leaf[k] || !in[k].grad().defined())
            continue;
        int rc = deliver_grad(call, i, in[k].grad());
        if (rc != BCT_OK)
            return rc;
    }
    return BCT_OK;
}

int run_call(const bct_call *call)
{
    if (call->mode == BCT_MODE_INPLACE)
        return run_inplace(call);
    if (call->mode == BCT_MODE_OUT)
        return run_out(call);
    if (call->mode == BCT_MODE_GRAD)
        return run_grad(call);
    std::vector<at::Tensor> in;
    for (int i = 0; i < call->nargs; i++)
        in.push_back(tensor_of(call->args[i]));
    return deliver(call, forward(call, in));
}

/* The ABI boundary: no exception crosses it. */
int torch_run(const bct_call *call)
{
    try {
        return run_call(call);
    } catch (const c10::Error &e) {
        std::string m = e.what_without_backtrace();
        std::snprintf(call->message, call->message_cap, "%s", m.c_str());
        return classify(m);
    } catch (const std::bad_alloc &) {
        std::snprintf(call->message, call->message_cap, "std::bad_alloc");
        return BCT_ERR_OTHER;
    } catch (const std::exception &e) {
        std::snprintf(call->message, call->message_cap, "%s", e.what());
        return classify(e.what());
    } catch (...) {
        std::snprintf(call->message, call->message_cap, "unknown C++ exception");
        return BCT_ERR_OTHER;
    }
}

/* One intra-op thread (the runner parallelises with worker processes), and
 * the message table compiled. */
int torch_init(const char *arg)
{
    (void)arg;
    at::set_num_threads(1);
    return compile_rules() ? 0 : 1;
}

constexpr uint64_t bit(int op) { return UINT64_C(1) << op; }

/* The issue #25 ops ATen has with bcast's semantics (B38-B45), value mode
 * only. Not prelu: at::prelu takes a weight of one element or one per
 * channel (input dim 1), not ONNX's slope broadcast one way from the
 * trailing dims (B45), so it is another op, not a broadcast of this one. */
constexpr uint64_t kMathOps =
    bit(BCT_COPYSIGN) | bit(BCT_ATAN2) | bit(BCT_HYPOT) | bit(BCT_FMOD) | bit(BCT_HEAVISIDE) |
    bit(BCT_LOGADDEXP) | bit(BCT_LOGADDEXP2) | bit(BCT_NEXTAFTER) | bit(BCT_LDEXP) | bit(BCT_GCD) |
    bit(BCT_LCM) | bit(BCT_LEFT_SHIFT) | bit(BCT_RIGHT_SHIFT) | bit(BCT_FLOAT_POWER) | bit(BCT_FMAX) |
    bit(BCT_FMIN) | bit(BCT_DIV_TRUNC) | bit(BCT_DIV_FLOOR) | bit(BCT_CLIP) | bit(BCT_LERP) |
    bit(BCT_ADDCMUL) | bit(BCT_ADDCDIV) | bit(BCT_GEMM_BIAS);

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
        bit(BCT_BROADCAST_TO) | bit(BCT_EXPAND) | bit(BCT_MATMUL) | kMathOps,
    (UINT32_C(1) << BCT_DTYPE_COUNT) - 1,
    0,
    BCT_CAP_STRIDED | BCT_CAP_INPLACE | BCT_CAP_OUT | BCT_CAP_GRAD_FORMS,   /* B46: reads grad_form */
    torch_init,
    torch_run,
    /* grad_ops (ABI 2): every op of the grad suite (BC_GRAD_OPS) has a torch
     * autograd formula (torch/csrc/autograd/derivatives.yaml in torch 1.13:
     * add, sub, mul, div, pow, maximum, minimum, where, matmul, expand;
     * broadcast_to is a composite of expand). */
    bit(BCT_ADD) | bit(BCT_SUB) | bit(BCT_MUL) | bit(BCT_DIV) | bit(BCT_POW) | bit(BCT_MAXIMUM) |
        bit(BCT_MINIMUM) | bit(BCT_WHERE) | bit(BCT_MATMUL) | bit(BCT_BROADCAST_TO) | bit(BCT_EXPAND),
};

} // namespace

extern "C" const bct_target *bcast_target_v1(void);
extern "C" const bct_target *bcast_target_v1(void)
{
    return &descriptor;
}
