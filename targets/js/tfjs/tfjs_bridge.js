// tfjs_bridge.js - TensorFlow.js (npm @tensorflow/tfjs: tfjs-core, its gradients and tfjs-backend-cpu, pure JS) behind the pipe protocol (registry: tfjs).
//
//   node targets/js/tfjs/tfjs_bridge.js       (after `make js-bridges`)
//
// Each operand becomes what a tfjs user passes: tf.tensor(typed array, shape,
// dtype) over a dense copy of its elements, and the op is tfjs's own function
// (OPS), with tfjs's broadcasting, its own dtype rule (upcastType) and its own
// errors; the result's dtype and shape are reported as tfjs returns them.
//
// Declared: the ops of OPS; dtypes f32, i32 and bool, tfjs's numeric dtypes
// (DataType = 'float32'|'int32'|'bool'|'complex64'|'string', tfjs-core
// dist/types.d.ts and the API docs of tf.tensor); no rank limit (none
// documented for these ops). Not declared: `strided` (a tfjs tensor owns dense
// data; there is no strided view to build), `inplace` and `out` (tfjs tensors
// are immutable); bitwise_or, bitwise_xor, uni_add, axis_add and
// broadcast_shapes (no tfjs function; tfjs 4.22 has bitwiseAnd, declared).
// tfjs's errors are mapped to classes by their text only (RULES); nothing is
// checked, promoted or fixed here.
//
// Gradients (docs/pipe-protocol.md "Gradients", B23-B31): tfjs's own autodiff,
// tf.grads(f)(xs, dy). The library is loaded as the `@tensorflow/tfjs` package,
// as a Node user loads it: tfjs-core's Node bundle alone registers no gradient
// functions ("Cannot compute gradient: gradient function not found for Add"),
// the union package's bundle registers them all. xs are the float32 inputs
// but where's cond (adapter convention, B31: tfjs would differentiate an
// int32 input too, giving it a float32 gradient); the other inputs are
// constants closed over by f. Each gradient is replied with tfjs's dtype and
// shape, unchanged.
//
// Structure: OPS maps each op to a pure function of the input tensors (the
// case only supplies broadcast_to's target), MODES maps each case mode to how
// it is answered. A gradient mode is one more entry in MODES: tf.grads((...t)
// => OPS[c.op](c, ...t)) on the same input tensors, replying the gradients.
'use strict';

const bp = require('../bcast_pipe');

const tf = bp.requireLibrary('@tensorflow/tfjs');   // tfjs-core's API, its gradients, the CPU backend

// bcast dtype <-> tfjs DataType.
const TF_TYPE = { f32: 'float32', i32: 'int32', bool: 'bool' };
const BCAST_NAME = { float32: 'f32', int32: 'i32', bool: 'bool' };

// bcast op -> tfjs function of the case's input tensors (c: the case, for the
// target shape of broadcast_to/expand, passed as tfjs takes it, -1s included).
const OPS = {
  add: (c, x, y) => tf.add(x, y), sub: (c, x, y) => tf.sub(x, y), mul: (c, x, y) => tf.mul(x, y),
  div: (c, x, y) => tf.div(x, y), floor_divide: (c, x, y) => tf.floorDiv(x, y),
  remainder: (c, x, y) => tf.mod(x, y), pow: (c, x, y) => tf.pow(x, y),
  maximum: (c, x, y) => tf.maximum(x, y), minimum: (c, x, y) => tf.minimum(x, y),
  eq: (c, x, y) => tf.equal(x, y), ne: (c, x, y) => tf.notEqual(x, y), lt: (c, x, y) => tf.less(x, y),
  le: (c, x, y) => tf.lessEqual(x, y), gt: (c, x, y) => tf.greater(x, y), ge: (c, x, y) => tf.greaterEqual(x, y),
  logical_and: (c, x, y) => tf.logicalAnd(x, y), logical_or: (c, x, y) => tf.logicalOr(x, y),
  logical_xor: (c, x, y) => tf.logicalXor(x, y), bitwise_and: (c, x, y) => tf.bitwiseAnd(x, y),
  where: (c, cond, x, y) => tf.where(cond, x, y),
  broadcast_to: (c, x) => tf.broadcastTo(x, c.target), expand: (c, x) => tf.broadcastTo(x, c.target),
  matmul: (c, x, y) => tf.matMul(x, y),
  // Issue #25's ops that tfjs has as one function with bcast's semantics (B38,
  // B42, B45; FINDINGS.md says which are not and why): atan2; div_floor is
  // torch.div(rounding_mode='floor'), the quotient rounded toward -inf, which
  // is tf.floorDiv; prelu's slope is tf.prelu's alpha; gemm_bias is the fused
  // matMul with a bias (tf.fused.matMul, no transposes, no activation).
  atan2: (c, x, y) => tf.atan2(x, y), div_floor: (c, x, y) => tf.floorDiv(x, y),
  prelu: (c, x, y) => tf.prelu(x, y), gemm_bias: (c, x, y, z) => tf.fused.matMul({ a: x, b: y, bias: z }),
};

// tfjs's messages -> class, first match wins; anything else is `other` with
// the message. Seen (tfjs-core's op-level checks; the CPU kernels add none):
//   "Operands could not be broadcast together with shapes 2,3 and 4."
//   "broadcastTo(): [3] cannot be broadcast to [2,4]."
//   "broadcastTo(): shape.length=0 < input.rank=1."
//   "Tensor must have a shape comprised of positive integers but got shape [2,-1]."
//   "Error in matMul: inner shapes (3) and (4) of Tensors with shapes 2,3 and 4,5 and transposeA=false and transposeB=false must match."
//   "Error in fused matMul: inner shapes (3) and (2) of Tensors with shapes 2,3 and 2,4 and ... must match." (gemm_bias)
//   "Argument 'a' passed to 'logicalAnd' must be bool tensor, but got float32 tensor"
//   "BitwiseAnd: Tensors must have the same shape. x: 2,3, y: 3"
//   "BitwiseAnd: Only supports 'int32' values in tensor, found type of x: float32 and type of y: float32"
const RULES = [
  [/^Operands could not be broadcast together with shapes|^broadcastTo\(\): \[[-\d,]*\] cannot be broadcast to|^BitwiseAnd: Tensors must have the same shape/, 'not-broadcastable'],
  [/^broadcastTo\(\): shape\.length=\d+ < input\.rank=\d+|^Tensor must have a shape comprised of positive integers/, 'invalid-shape'],
  [/^Error in (fused )?matMul: inner shapes \(\w+\) and \(\w+\) of Tensors with shapes .* must match/, 'matmul-core'],
  [/^Argument '\w+' passed to '\w+' must be \w+ tensor, but got \w+ tensor|^BitwiseAnd: Only supports '\w+' values in tensor/, 'dtype'],
  // grad mode, no float32 input (B31): tf.grads refuses to differentiate with respect to nothing
  //   "gradients() received an empty list of xs."
  [/^gradients\(\) received an empty list of xs/, 'dtype'],
];

// The ops whose gradient the bridge asks tfjs for: every op of the grad suite
// (tfjs registers a gradient for each kernel they run: Add, Sub, Multiply,
// RealDiv, Pow, Maximum, Minimum, Select, BatchMatMul, Tile (broadcastTo)).
const GRAD_OPS = ['add', 'sub', 'mul', 'div', 'pow', 'maximum', 'minimum', 'where', 'matmul', 'broadcast_to', 'expand'];

// A tfjs tensor over a dense copy of the operand's elements.
function tensor(a) {
  return tf.tensor(bp.dense(a), a.shape, TF_TYPE[a.dtype]);
}

// The reply for tfjs's result tensor: its dtype (tfjs's own name when it is
// none of bcast's, e.g. complex64), shape and elements. A tensor whose data
// does not fill its shape cannot be sent as a result: it is reported, as
// tfjs returned it, as `other`.
function reply(t) {
  const data = t.dataSync();
  if (data.length !== bp.elementCount(t.shape)) {
    return bp.replyError('other', `tfjs returned a ${t.dtype} tensor of shape [${t.shape}] holding ${data.length} elements`);
  }
  return bp.replyOk(BCAST_NAME[t.dtype] || t.dtype, t.shape, bp.bytesOf(data));
}

// value mode: the op on the input tensors, inside tf.tidy so that every
// intermediate is freed; the result is read, then freed.
function value(c) {
  const r = tf.tidy(() => OPS[c.op](c, ...c.args.map(tensor)));
  try {
    return reply(r);
  } finally {
    r.dispose();
  }
}

// grad mode: the op's float32 inputs (but where's cond) are tf.grads's xs,
// the others constants; dy is the case's incoming gradient (the last arg).
// The forward op runs first on its own, so that its error comes before
// tf.grads's own check of xs (docs/target-abi.md: errors are the forward op's).
function grad(c) {
  const inputs = c.args.slice(0, -1);
  const diff = inputs.map((a, i) => a.dtype === 'f32' && !(c.op === 'where' && i === 0));
  return tf.tidy(() => {
    const ts = inputs.map(tensor);
    OPS[c.op](c, ...ts);
    const xs = ts.filter((t, i) => diff[i]);
    const f = (...vs) => {
      let k = 0;
      return OPS[c.op](c, ...ts.map((t, i) => (diff[i] ? vs[k++] : t)));
    };
    const gs = tf.grads(f)(xs, tensor(c.args[c.args.length - 1]));
    const out = [];
    for (let i = 0, k = 0; i < inputs.length; i++) {
      if (!diff[i]) continue;
      const g = gs[k++], data = g.dataSync();
      if (data.length !== bp.elementCount(g.shape)) {   // as reply(): it cannot be sent as a gradient
        return bp.replyError('other', `tfjs returned a ${g.dtype} gradient of shape [${g.shape}] holding ${data.length} elements`);
      }
      out.push({ index: i, dtype: BCAST_NAME[g.dtype] || g.dtype, shape: g.shape, data: bp.bytesOf(data) });
    }
    return bp.replyGrads(out);
  });
}

const MODES = { value, grad };

// One case, answered by its mode's function; tfjs's exceptions are classed by RULES.
function run(c) {
  try {
    if (!(c.mode in MODES) || !(c.op in OPS)) return bp.replyError('other', `tfjs bridge: no ${c.op} in mode ${c.mode}`);
    return MODES[c.mode](c);
  } catch (e) {
    return bp.replyException(RULES, e);
  }
}

// Selects tfjs's CPU backend, announces the target and serves.
function main() {
  tf.setBackend('cpu');
  bp.serve({
    name: 'tfjs', version: tf.version_core, profile: 'numpy',
    ops: Object.keys(OPS), dtypes: Object.keys(TF_TYPE), maxRank: 0, flags: [], gradOps: GRAD_OPS,
  }, run);
}

main();
