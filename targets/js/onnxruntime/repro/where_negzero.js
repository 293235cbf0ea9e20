// where_negzero.js - ORT's Where on float32 returns +0 where it selects a -0 (no bcast involved).
//
//   node targets/js/onnxruntime/repro/where_negzero.js      (after `make js-bridges`)
//
// A one-node Where model, cond [true], x [-0], y [0.5], no broadcasting at all.
// NumPy: np.where([True], np.float32([-0.0]), np.float32([0.5])) is [-0.]. Where
// selects; it computes nothing, so the sign of the zero should survive.
// Exit 0 and "reproduced" when ORT returns +0; exit 1 otherwise.
'use strict';

const ort = require('../../node_modules/onnxruntime-node');
const onnx = require('../onnx_proto');

// The model Where(c, x, y) over float32 [1] inputs, opset 18.
async function main() {
  const model = onnx.model({
    nodes: [onnx.node('Where', ['c', 'x', 'y'], ['out'])],
    inputs: [onnx.valueInfo('c', onnx.ELEM_TYPE.bool, [1]), onnx.valueInfo('x', onnx.ELEM_TYPE.f32, [1]),
      onnx.valueInfo('y', onnx.ELEM_TYPE.f32, [1])],
    outputs: [onnx.valueInfo('out')] }, 8, 18);
  const s = await ort.InferenceSession.create(model, { executionProviders: ['cpu'] });
  const r = await s.run({ c: new ort.Tensor('bool', Uint8Array.from([1]), [1]),
    x: new ort.Tensor('float32', Float32Array.from([-0]), [1]), y: new ort.Tensor('float32', Float32Array.from([0.5]), [1]) });
  const v = r.out.data[0];
  console.log(`ORT ${ort.env.versions.node}: Where(true, -0, 0.5) = ${Object.is(v, -0) ? '-0' : v}; NumPy: -0`);
  console.log(Object.is(v, 0) ? 'reproduced' : 'not reproduced');
  process.exit(Object.is(v, 0) ? 0 : 1);
}

main();
