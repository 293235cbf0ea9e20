// mathjs_bridge.js - mathjs (npm) behind the pipe protocol of docs/pipe-protocol.md (registry: js-mathjs).
//
//   node targets/js/mathjs_bridge.js        (after `make js-bridges`, i.e. npm ci in targets/js)
//
// mathjs holds numbers (float64) and booleans in nested arrays; since v11 its
// element-wise functions broadcast (docs: "Matrices ... broadcasting"). The
// adapter turns each strided operand into what a mathjs user passes: a plain
// number/boolean for rank 0, else a DenseMatrix of nested arrays with an
// explicit size (so zero-size shapes keep every dimension). Declared: the
// element-wise functions add, subtract, dotMultiply, dotDivide, dotPow, mod,
// equal, unequal, smaller, smallerEq, larger, largerEq, and, or, xor, and of
// issue #25's ops atan2, gcd, lcm, leftShift, rightArithShift, dotPow (as
// float_power), on f64 and bool. Not declared: max/min (reductions, not element-wise), multiply (matrix
// product, 2-D only), no where/broadcast_to/floor-division function, no
// integer dtypes, no in-place or out=. Nothing is checked or fixed here.
'use strict';

const bp = require('./bcast_pipe');

const math = bp.requireLibrary('mathjs');

const FUNC = {
  add: math.add, sub: math.subtract, mul: math.dotMultiply, div: math.dotDivide, pow: math.dotPow,
  remainder: math.mod, eq: math.equal, ne: math.unequal, lt: math.smaller, le: math.smallerEq,
  gt: math.larger, ge: math.largerEq, logical_and: math.and, logical_or: math.or, logical_xor: math.xor,
  // Issue #25's ops that mathjs has as an element-wise function with bcast's
  // semantics (B38, B40, B41): atan2; gcd, lcm and the shifts (mathjs has no
  // integer type: they take integer-valued numbers, so of the suite's cases
  // only the f64 ones reach them); float_power is pow computed in float64,
  // which every mathjs number is. Not hypot (a reduction over its one
  // argument), not max/min (reductions); FINDINGS.md says the rest.
  atan2: math.atan2, gcd: math.gcd, lcm: math.lcm, left_shift: math.leftShift,
  right_shift: math.rightArithShift, float_power: math.dotPow,
};
// What each function returns per its docs; used only to name the dtype of an
// empty result, which has no element to look at.
const RETURNS_BOOL = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logical_and', 'logical_or', 'logical_xor']);

// The operand as a mathjs value: a number/boolean for rank 0, else a
// DenseMatrix over its strided view (nested arrays, with the size given so
// that zero-size shapes keep every dimension).
function toMath(arg) {
  const leaf = arg.dtype === 'f64' ? (k) => arg.data.readDoubleLE(k * 8) : (k) => arg.data[k] !== 0;
  if (arg.shape.length === 0) return bp.nested(arg, leaf);
  return new math.DenseMatrix({ data: bp.nested(arg, leaf), size: arg.shape.slice() });
}

// The reply for mathjs's result r: its size, and its elements as f64 or bool
// (whichever type they are; a mix or a Complex is reported as `other`).
function reply(op, r) {
  let shape = [];
  let flat = [r];
  if (math.isMatrix(r) || Array.isArray(r)) {
    shape = math.isMatrix(r) ? r.size() : math.size(r);
    flat = math.flatten(math.isMatrix(r) ? r.valueOf() : r);
    if (shape.includes(0)) flat = [];
  }
  const dtype = flat.length ? (typeof flat[0] === 'boolean' ? 'bool' : 'f64') : (RETURNS_BOOL.has(op) ? 'bool' : 'f64');
  if (flat.some((v) => typeof v !== (dtype === 'bool' ? 'boolean' : 'number'))) {
    return bp.replyError('other', 'mathjs returned mixed or non-numeric elements: ' + String(flat.find((v) => typeof v !== 'number')));
  }
  const data = dtype === 'bool' ? Uint8Array.from(flat, (v) => (v ? 1 : 0)) : Float64Array.from(flat);
  return bp.replyOk(dtype, shape, bp.bytesOf(data));
}

// mathjs's exceptions -> class, by their text (its DimensionError and
// broadcasting errors name the mismatching sizes); anything else is `other`.
// mathjs's integer-only functions refuse a non-integer number with its type
// check's words (mathjs has no integer type; the check is on the value):
//   "Parameters in function gcd must be integer numbers" (gcd, lcm)
//   "Integers expected in function leftShift" (leftShift, rightArithShift)
const RULES = [[/Dimension mismatch|cannot be broadcast|broadcast/i, 'not-broadcastable'],
  [/^Parameters in function \w+ must be integer numbers|^Integers expected in function \w+/, 'dtype']];

// One case: the op's mathjs function on the converted operands (value mode only).
function run(c) {
  try {
    if (c.mode !== 'value' || !(c.op in FUNC)) return bp.replyError('other', `mathjs bridge: no ${c.op} in mode ${c.mode}`);
    return reply(c.op, FUNC[c.op](...c.args.map(toMath)));
  } catch (e) {
    return bp.replyException(RULES, e);
  }
}

bp.serve({ name: 'mathjs', version: math.version, profile: 'numpy', ops: Object.keys(FUNC),
  dtypes: ['bool', 'f64'], maxRank: 0, flags: ['strided'] }, run);
