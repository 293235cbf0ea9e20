// max_int64_low32.js - ORT's Max and Min on int64 pick the wrong element when the operands differ
// past their low 32 bits (no broadcasting involved).
//
//   node targets/js/onnxruntime/repro/max_int64_low32.js      (after `make js-bridges`)
//
// A one-node Max (and Min) model over int64 [3] inputs. NumPy:
// np.maximum(np.int64([2**31, -1, 2**32]), np.int64([2**31 - 1, -2**31 - 1, 1])) is
// [2147483648, -1, 4294967296], np.minimum the other three.
// Exit 0 and "reproduced" when ORT's answer differs from NumPy's; exit 1 otherwise.
'use strict';

const ort = require('../../node_modules/onnxruntime-node');
const onnx = require('../onnx_proto');

async function run(op, x, y) {
  const model = onnx.model({
    nodes: [onnx.node(op, ['x', 'y'], ['out'])],
    inputs: [onnx.valueInfo('x', onnx.ELEM_TYPE.i64, [3]), onnx.valueInfo('y', onnx.ELEM_TYPE.i64, [3])],
    outputs: [onnx.valueInfo('out')] }, 8, 13);
  const s = await ort.InferenceSession.create(model, { executionProviders: ['cpu'] });
  const r = await s.run({ x: new ort.Tensor('int64', BigInt64Array.from(x), [3]),
    y: new ort.Tensor('int64', BigInt64Array.from(y), [3]) });
  return Array.from(r.out.data);
}

async function main() {
  const x = [2n ** 31n, -1n, 2n ** 32n], y = [2n ** 31n - 1n, -(2n ** 31n) - 1n, 1n];
  const max = await run('Max', x, y), min = await run('Min', x, y);
  const wantMax = x.map((v, i) => (v > y[i] ? v : y[i])), wantMin = x.map((v, i) => (v < y[i] ? v : y[i]));
  console.log(`ORT ${ort.env.versions.node}: Max = [${max.join(', ')}]; NumPy: [${wantMax.join(', ')}]`);
  console.log(`ORT ${ort.env.versions.node}: Min = [${min.join(', ')}]; NumPy: [${wantMin.join(', ')}]`);
  const bad = max.some((v, i) => v !== wantMax[i]) || min.some((v, i) => v !== wantMin[i]);
  console.log(bad ? 'reproduced' : 'not reproduced');
  process.exit(bad ? 0 : 1);
}

main();
