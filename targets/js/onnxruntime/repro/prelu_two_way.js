// prelu_two_way.js - ORT's PRelu broadcasts the slope both ways (ONNX: one way, to X), and in float64 (ONNX's function
// body Where(Less(X, 0), Mul(slope, X), X), ORT having a float kernel only) gives +0 for a negative x times a +0 slope
// (ONNX: slope * x, which is -0: Where's -0 bug, where_negzero.js). No bcast involved.
//
//   node targets/js/onnxruntime/repro/prelu_two_way.js      (after `make js-bridges`)
//
// ONNX's PRelu (opset 16): "This operator supports unidirectional broadcasting (tensor slope should be
// unidirectional broadcastable to input tensor X)", so the output has X's shape. An X of shape (2,1) with a slope
// of shape (2,3) is not unidirectionally broadcastable (ONNX's Broadcasting.md: B's shape must broadcast to A's);
// a conforming runtime refuses the model, as NumPy refuses np.broadcast_to(slope, (2, 1)).
// Exit 0 and "reproduced" when ORT returns a (2,3) result or +0; exit 1 otherwise.
'use strict';

const ort = require('../../node_modules/onnxruntime-node');
const onnx = require('../onnx_proto');

// PRelu(x, slope) over the given ORT type, shapes and values; resolves to ORT's output tensor or its error.
async function prelu(type, elem, xDims, xData, sDims, sData) {
  const model = onnx.model({
    nodes: [onnx.node('PRelu', ['x', 'slope'], ['y'])],
    inputs: [onnx.valueInfo('x', elem, xDims), onnx.valueInfo('slope', elem, sDims)],
    outputs: [onnx.valueInfo('y')] }, 8, 18);
  try {
    const s = await ort.InferenceSession.create(model, { executionProviders: ['cpu'] });
    return (await s.run({ x: new ort.Tensor(type, xData, xDims), slope: new ort.Tensor(type, sData, sDims) })).y;
  } catch (e) {
    return e;
  }
}

async function main() {
  const a = await prelu('float32', onnx.ELEM_TYPE.f32, [2, 1], Float32Array.from([-1, 2]), [2, 3],
    Float32Array.from([0.5, 0.25, 2, 1, 1, 1]));
  const twoWay = a instanceof ort.Tensor && a.dims.join(',') === '2,3';
  console.log(`ORT ${ort.env.versions.node}: PRelu(x (2,1), slope (2,3)) -> ` +
    (a instanceof ort.Tensor ? `shape (${a.dims}) [${Array.from(a.data)}]` : `error: ${a.message.slice(0, 200)}`));
  console.log('  ONNX: slope broadcasts one way to X: the model is invalid; NumPy: np.broadcast_to(slope, (2,1)) raises');
  const b = await prelu('float64', onnx.ELEM_TYPE.f64, [1], Float64Array.from([-1]), [1], Float64Array.from([0]));
  const plusZero = b instanceof ort.Tensor && Object.is(b.data[0], 0);
  console.log(`ORT: PRelu(x = -1.0, slope = +0.0) in float64 = ${b instanceof ort.Tensor ? (Object.is(b.data[0], -0) ? '-0' : b.data[0]) : b.message}` +
    '; ONNX: slope * x = -0 (NumPy: np.where(-1.0 < 0, 0.0 * -1.0, -1.0) is -0.0)');
  console.log(twoWay || plusZero ? 'reproduced' : 'not reproduced');
  process.exit(twoWay || plusZero ? 0 : 1);
}

main();
