// mod_fmod_int64.js - ORT's Mod with fmod=1 on int64 loses the low bits of large operands (it computes through
// double), so fmod(2^63-1, 2) is 0, not 1. No bcast involved.
//
//   node targets/js/onnxruntime/repro/mod_fmod_int64.js      (after `make js-bridges`)
//
// ONNX's Mod with fmod=1 is C's fmod: the remainder of truncated division, exact for integers
// (np.fmod(np.int64(2**63-1), np.int64(2)) is 1; torch.fmod gives 1 too).
// Exit 0 and "reproduced" when ORT returns a wrong remainder; exit 1 otherwise.
'use strict';

const ort = require('../../node_modules/onnxruntime-node');
const onnx = require('../onnx_proto');

async function main() {
  const x = BigInt64Array.from([9223372036854775807n, 9007199254740993n, 7n]);
  const y = BigInt64Array.from([2n, 2n, 2n]);
  const model = onnx.model({
    nodes: [onnx.node('Mod', ['x', 'y'], ['z'], { fmod: 1 })],
    inputs: [onnx.valueInfo('x', onnx.ELEM_TYPE.i64, [3]), onnx.valueInfo('y', onnx.ELEM_TYPE.i64, [3])],
    outputs: [onnx.valueInfo('z')] }, 8, 18);
  const s = await ort.InferenceSession.create(model, { executionProviders: ['cpu'] });
  const z = (await s.run({ x: new ort.Tensor('int64', x, [3]), y: new ort.Tensor('int64', y, [3]) })).z.data;
  const want = Array.from(x, (v, i) => v % y[i]);   // BigInt % truncates, as C's fmod
  console.log(`ORT ${ort.env.versions.node}: Mod(fmod=1) of [${x}] by [${y}] = [${Array.from(z)}]; NumPy np.fmod: [${want}]`);
  const bad = Array.from(z).some((v, i) => v !== want[i]);
  console.log(bad ? 'reproduced' : 'not reproduced');
  process.exit(bad ? 0 : 1);
}

main();
