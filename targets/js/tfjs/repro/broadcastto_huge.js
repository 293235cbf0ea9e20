// broadcastto_huge.js - tf.broadcastTo to more than 2^64 elements fails in JavaScript's typed-array allocation (no bcast involved).
//
//   node targets/js/tfjs/repro/broadcastto_huge.js       (after `make js-bridges`)
//
// tf.broadcastTo(tf.tensor([1]), [2^63-1, 2]) on the CPU backend: tfjs checks
// no element count, so the error is the engine's RangeError from allocating
// the result. NumPy: np.broadcast_to(np.ones(1, np.float32), (2**63-1, 2))
// raises ValueError; torch's expand raises an overflow error (B16).
// Exit 0 and "reproduced" when tfjs throws RangeError; exit 1 otherwise.
'use strict';

const tf = require('../../node_modules/@tensorflow/tfjs-core');
require('../../node_modules/@tensorflow/tfjs-backend-cpu');

// One broadcastTo to [2^63-1, 2] (as a JS number, 2^63: tfjs takes number[] shapes).
function main() {
  tf.setBackend('cpu');
  let msg = 'no error';
  try {
    tf.broadcastTo(tf.tensor([1], [1], 'float32'), [9223372036854775807, 2]).dataSync();
  } catch (e) {
    msg = `${e.name}: ${e.message}`;
  }
  console.log(`tfjs ${tf.version_core}: ${msg}`);
  const ok = msg.startsWith('RangeError');
  console.log(ok ? 'reproduced' : 'not reproduced');
  process.exit(ok ? 0 : 1);
}

main();
