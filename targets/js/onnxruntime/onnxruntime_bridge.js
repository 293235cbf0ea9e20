// onnxruntime_bridge.js - ONNX Runtime (npm onnxruntime-node, CPU execution provider) behind the pipe protocol (registry: onnxruntime, onnxruntime-variadic).
//
//   node targets/js/onnxruntime/onnxruntime_bridge.js [variadic]     (after `make js-bridges`)
//
// ORT runs ONNX models, so each case becomes a model of one node (two for ne:
// Not(Equal), ONNX has no NotEqual), written at run time by onnx_proto.js at
// opset 18 (the first with BitwiseAnd/Or/Xor; IR version 8, its ONNX 1.13
// pairing). Graph inputs carry the operands' dtypes and full static shapes;
// the graph output carries only a name, so the result's dtype and shape are
// ORT's own inference. broadcast_to/expand are Expand with the target as an
// int64 initializer. Then InferenceSession.create + run, as an ORT user does.
//
// Declared: every dtype bcast has (ORT refuses what its CPU kernels lack, and
// that refusal is the answer), no rank limit (ORT documents none), `out`
// (run()'s fetches take a pre-allocated output: onnxruntime-common
// inference-session.d.ts, FetchesType). Not declared: `strided` (an ORT tensor
// is a dense typed array; there is no strided view to hand it), `inplace` (ORT
// has none); floor_divide (no ONNX op), uni_add (PRelu/Gemm broadcast
// unidirectionally but compute no add), axis_add (ORT implements Add from opset
// 7, the legacy axis attribute is opset 1-6), broadcast_shapes (no ONNX op).
// The argument `variadic` selects the second target: add as Sum, maximum and
// minimum as Max and Min (the variadic kernels; see FINDINGS.md), nothing else.
// ORT's errors are mapped to classes by their text only (RULES); nothing is
// checked, promoted, densified or fixed here.
'use strict';

const bp = require('../bcast_pipe');
const onnx = require('./onnx_proto');

const ort = bp.requireLibrary('onnxruntime-node');

const OPSET = 18;
const IR_VERSION = 8;
// bcast dtype -> onnxruntime-common's tensor type name (tensor.d.ts, DataTypeMap).
const ORT_TYPE = { bool: 'bool', i8: 'int8', u8: 'uint8', i16: 'int16', i32: 'int32', i64: 'int64', f32: 'float32', f64: 'float64' };
const BCAST_NAME = Object.fromEntries(Object.entries(ORT_TYPE).map(([k, v]) => [v, k]));
const FLOATS = new Set(['f32', 'f64']);

// bcast op -> (input names, operand dtypes) -> { nodes, initializers } ending in output 'y'.
const one = (op, attrs) => (ins) => ({ nodes: [onnx.node(op, ins, ['y'], attrs)] });
const GRAPH = {
  add: one('Add'), sub: one('Sub'), mul: one('Mul'), div: one('Div'), pow: one('Pow'),
  // ONNX Mod: fmod 0 takes the divisor's sign (integers only), fmod 1 is C fmod,
  // which the spec requires for floating types. The adapter picks by x's dtype.
  remainder: (ins, dtypes) => one('Mod', { fmod: FLOATS.has(dtypes[0]) ? 1 : 0 })(ins),
  maximum: one('Max'), minimum: one('Min'),
  eq: one('Equal'), lt: one('Less'), le: one('LessOrEqual'), gt: one('Greater'), ge: one('GreaterOrEqual'),
  ne: (ins) => ({ nodes: [onnx.node('Equal', ins, ['eq']), onnx.node('Not', ['eq'], ['y'])] }),
  logical_and: one('And'), logical_or: one('Or'), logical_xor: one('Xor'),
  bitwise_and: one('BitwiseAnd'), bitwise_or: one('BitwiseOr'), bitwise_xor: one('BitwiseXor'),
  where: one('Where'), matmul: one('MatMul'),
  // Issue #25's ops that are one ONNX operator with bcast's semantics (B38,
  // B40, B45; FINDINGS.md says which are not and why): Mod with fmod 1 is C
  // fmod (integers too); BitShift's operands are unsigned by its type
  // constraint (ORT refuses the others); PRelu broadcasts its slope one way to
  // X and Gemm (alpha = beta = 1, no transposes) its C one way to (M,N).
  fmod: one('Mod', { fmod: 1 }),
  left_shift: one('BitShift', { direction: 'LEFT' }), right_shift: one('BitShift', { direction: 'RIGHT' }),
  prelu: one('PRelu'), gemm_bias: one('Gemm'),
  broadcast_to: (ins, dtypes, target) => ({ nodes: [onnx.node('Expand', [ins[0], 'shape'], ['y'])],
    initializers: [onnx.int64Tensor('shape', target)] }),
};
GRAPH.expand = GRAPH.broadcast_to;
const VARIADIC = { add: one('Sum'), maximum: one('Max'), minimum: one('Min') };

// ORT's messages -> class, first match wins; anything else is `other` with
// the message. Seen at session creation (ONNX type and shape inference), in
// run() (the kernels) and in onnxruntime-node's JS layer, e.g.:
//   "Node () Op (Add) [ShapeInferenceError] Incompatible dimensions"
//   "Node () Op (MatMul) [ShapeInferenceError] Incompatible dimensions for matrix multiplication"
//   "Node () Op (MatMul) [ShapeInferenceError] Input tensors of wrong rank (0)."
//   "... running MatMul node. ... matmul_helper.h:144 Compute right operand cannot broadcast on dim 0"
//   "Got invalid dimensions for output: y for the following indices index: 0 Got: 3 Expected: 2 ..."
//   "Invalid rank for output: y Got: 1 Expected: 2 Please fix either the inputs/outputs or the model."
//   "... The output OrtValue provided for output 'y' of node '' (Add) has shape {2} but the computed output shape for this run is {}. ..."
//   "... running Expand node. ... tensor.cc:57 CalculateTensorStorageSize Tensor shape.Size() must be >= 0"
//   "Invalid dimension: -3"      (backend.js: an inferred output dimension below -1)
//   "... running Div node. ... element_wise_ops.cc:... Compute Integer division by zero"
//   "Type Error: Type parameter (T) of Optype (Add) bound to different types (tensor(int16) and tensor(int8) in node ()."
//   "This is an invalid model. Type Error: Type 'tensor(bool)' of input parameter (x0) of operator (Add) in node () is invalid."
//   "Could not find an implementation for Max(13) node with name ''"
//   "Unexpected output data type. Actual: (tensor(double)) , expected: (tensor(float))"
//   "Node () Op (Gemm) [ShapeInferenceError] Input 0 expected to have rank 2 but has rank 1 in ."
//   "Node () Op (Gemm) [ShapeInferenceError] Dimension mismatch in unification between 2 and 3"
//   "... running Gemm node. ... Status Message: Gemm: Invalid bias shape for broadcast"
//   "... running PRelu node. ... element_wise_ops.h:563 void onnxruntime::BroadcastIterator::Init(ptrdiff_t, ptrdiff_t) axis == 1 || axis == largest was fa" (cut there)
const RULES = [
  [/Incompatible dimensions for matrix multiplication|Op \(MatMul\) \[ShapeInferenceError\] Input tensors of wrong rank/, 'matmul-core'],
  [/Op \(Gemm\) \[ShapeInferenceError\] (Input \d+ expected to have rank|Dimension mismatch in unification)/, 'matmul-core'],
  [/\[ShapeInferenceError\] Incompatible dimensions|operand cannot broadcast on dim/, 'not-broadcastable'],
  [/Gemm: Invalid bias shape for broadcast|BroadcastIterator::Init\(ptrdiff_t, ptrdiff_t\) axis == 1 \|\| axis == largest/, 'not-broadcastable'],
  [/^Got invalid dimensions for output|^Invalid rank for output|The output OrtValue provided for output '\w+' of node '[^']*' \(\w+\) has shape/, 'inplace-shape'],
  [/Tensor shape\.Size\(\) must be >= 0|^Invalid dimension: -\d+/, 'invalid-shape'],
  [/Integer (division|modulo) by zero/, 'division-by-zero'],
  // SafeInt's overflow handler (core/common/safeint.h), e.g. Expand's element count past int64.
  [/SafeIntOnOverflow\(\) Integer overflow/, 'overflow'],
  [/Type Error: Type parameter \(\w+\) of Optype \(\w+\) bound to different types|Type Error: Type '[^']*' of input parameter|^Could not find an implementation for|^Unexpected output data type/, 'dtype'],
];

// The ONNX model of case c: one graph input per operand (out= excluded), the
// op's node(s), the output 'y'.
function buildModel(c, table, operands) {
  const ins = operands.map((_, i) => 'x' + i);
  const g = table[c.op](ins, operands.map((a) => a.dtype), c.targetDims);
  return onnx.model({
    nodes: g.nodes, initializers: g.initializers || [],
    inputs: operands.map((a, i) => onnx.valueInfo(ins[i], onnx.ELEM_TYPE[a.dtype], a.dims)),
    outputs: [onnx.valueInfo('y')],
  }, IR_VERSION, OPSET);
}

// An ORT tensor over a dense copy of the operand's elements.
function tensor(a) {
  return new ort.Tensor(ORT_TYPE[a.dtype], bp.dense(a), a.shape);
}

// One case: build, load, run. value mode replies ORT's result as it is; out
// mode hands run() the out operand (a dense copy) as the pre-allocated output
// and replies what it holds afterwards (B22: a failed call that changed it
// replies `wrote` first).
async function run(c, table) {
  const operands = c.mode === 'out' ? c.args.slice(0, -1) : c.args;
  const out = c.mode === 'out' ? c.args[c.args.length - 1] : null;
  let outData = null;
  let before = null;
  let session = null;
  try {
    if (c.mode === 'inplace' || !(c.op in table)) return bp.replyError('other', `onnxruntime bridge: no ${c.op} in mode ${c.mode}`);
    const feeds = {};
    operands.forEach((a, i) => { feeds['x' + i] = tensor(a); });
    let fetches;
    if (out) {
      outData = bp.dense(out);
      before = Buffer.from(bp.bytesOf(outData));
      fetches = { y: new ort.Tensor(ORT_TYPE[out.dtype], outData, out.shape) };
    }
    session = await ort.InferenceSession.create(buildModel(c, table, operands), { executionProviders: ['cpu'] });
    const r = (await session.run(feeds, fetches)).y;
    if (out) return bp.replyOk(out.dtype, out.shape, bp.bytesOf(outData));
    return bp.replyOk(BCAST_NAME[r.type] || r.type, r.dims, bp.bytesOf(r.data));
  } catch (e) {
    if (out && outData && !before.equals(bp.bytesOf(outData))) {
      return Buffer.concat([bp.replyWrote(out.dtype, out.shape, bp.bytesOf(outData)), bp.replyException(RULES, e)]);
    }
    return bp.replyException(RULES, e);
  } finally {
    if (session) await session.release();
  }
}

// Announces the target (the variadic table with the argument `variadic`) and serves.
function main() {
  const variadic = process.argv[2] === 'variadic';
  if (process.argv.length > 2 && !variadic) bp.fail(`onnxruntime bridge: unknown argument '${process.argv[2]}' (only 'variadic')`);
  const table = variadic ? VARIADIC : GRAPH;
  bp.serve({
    name: variadic ? 'onnxruntime-variadic' : 'onnxruntime', version: ort.env.versions.node, profile: 'numpy',
    ops: Object.keys(table), dtypes: bp.NAMES, maxRank: 0, flags: ['out'],
  }, (c) => run(c, table));
}

main();
