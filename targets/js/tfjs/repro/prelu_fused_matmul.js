// prelu_fused_matmul.js - tf.prelu broadcasts alpha both ways, and tf.fused.matMul checks its bias by a two-way
// broadcast and a 1-D a not at all: its errors then come from an internal reshape. No bcast involved.
//
//   node targets/js/tfjs/repro/prelu_fused_matmul.js      (after `make js-bridges`)
//
// PRelu (Keras, ONNX) applies a slope that broadcasts to x, never beyond it: the result has x's shape; ONNX's Gemm
// adds a bias that broadcasts one way to (M,N) and takes 2-D a and b. NumPy refuses np.broadcast_to(alpha, x.shape)
// for the first two calls below; np.matmul of a 1-D a is a matrix-vector product, and Gemm a 'rank 2' error.
// Prints what tfjs does; exit 0 and "reproduced" when tf.prelu returns a shape other than x's.
'use strict';

const tf = require('../../node_modules/@tensorflow/tfjs');

// What f returns (its shape) or throws (its message).
function attempt(label, f) {
  try {
    const r = f();
    console.log(`${label} -> shape [${r.shape}] ${JSON.stringify(Array.from(r.dataSync()))}`);
    return r.shape;
  } catch (e) {
    console.log(`${label} -> error: ${e.message}`);
    return null;
  }
}

const s1 = attempt('tf.prelu(x (2,1), alpha (2,3))', () => tf.prelu(tf.tensor2d([[-1], [2]]), tf.tensor2d([[0.5, 0.25, 2], [1, 1, 1]])));
const s2 = attempt('tf.prelu(x (3,), alpha (2,3))', () => tf.prelu(tf.tensor1d([-1, 2, -4]), tf.ones([2, 3])));
attempt('tf.fused.matMul(a (3,), b (3,4), bias (4,))', () => tf.fused.matMul({ a: tf.ones([3]), b: tf.ones([3, 4]), bias: tf.ones([4]) }));
attempt('tf.fused.matMul(a (2,3), b (3,4), bias (2,2,4))', () => tf.fused.matMul({ a: tf.ones([2, 3]), b: tf.ones([3, 4]), bias: tf.ones([2, 2, 4]) }));
console.log(`tfjs ${tf.version_core}; NumPy: np.broadcast_to(alpha, x.shape) raises for both prelu calls`);
const bad = (s1 && s1.join() !== '2,1') || (s2 && s2.join() !== '3');
console.log(bad ? 'reproduced' : 'not reproduced');
process.exit(bad ? 0 : 1);
