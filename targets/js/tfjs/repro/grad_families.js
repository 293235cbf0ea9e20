// grad_families.js - one tf.grads call per gradient family of targets/pipe/expectations/tfjs.txt, in tfjs alone (run: node targets/js/tfjs/repro/grad_families.js after make js-bridges).
'use strict';
const tf = require('@tensorflow/tfjs');

// Prints each gradient's dtype, shape and values, or tfjs's error message.
function show(name, f, xs, dy) {
  try {
    const gs = tf.grads(f)(xs, dy);
    console.log(name, JSON.stringify(gs.map((g) => [g.dtype, g.shape, Array.from(g.dataSync()).map((v) => (Object.is(v, -0) ? '-0' : String(v)))])));
  } catch (e) {
    console.log(name, 'ERROR', e.message);
  }
}

tf.setBackend('cpu');
const t = (v, s) => tf.tensor(v, s, 'float32');
// G1: getReductionAxes treats 1 -> 0 as no stretch: the (1,) operand's gradient keeps shape (0,) (torch: (1,) [0])
show('G1 add (0,)+(1,)', (a, b) => tf.add(a, b), [t([], [0]), t([2], [1])], t([], [0]));
show('G1 mul (0,)*(1,1)', (a, b) => tf.mul(a, b), [t([], [0]), t([2], [1, 1])], t([], [1, 0]));
// G2: Maximum/Minimum/BatchMatMul gradients are not summed back to the input's shape (torch: (3,1) [1,1,1] and (2,) [0,3])
show('G2 minimum (3,1),(2,)', (a, b) => tf.minimum(a, b), [t([1, 2, 3], [3, 1]), t([5, 0], [2])], tf.ones([3, 2]));
show('G2 maximum (3,1),(2,)', (a, b) => tf.maximum(a, b), [t([1, 2, 3], [3, 1]), t([5, 0], [2])], tf.ones([3, 2]));
show('G2 matMul (2,2,3)@(3,4)', (a, b) => tf.matMul(a, b), [tf.ones([2, 2, 3]), tf.ones([3, 4])], tf.ones([2, 2, 4]));
// G3: the forward broadcastTo never stretches 1 to 0, so dy (0,) meets a (1,) result (torch: (1,) [0])
show('G3 broadcastTo ()->(0,)', (a) => tf.broadcastTo(a, [0]), [t([2], [])], t([], [0]));
// G4: masks are multiplied in, so a negative dy gives -0 where torch and NumPy give +0
show('G4 where', (a, b) => tf.where(tf.tensor([false], [1], 'bool'), a, b), [t([-1], []), t([-1.25], [])], t([-1.25], [1]));
// G5: pow's exponent gradient at base 0 is where(base > 0, log(base), 0) * y: 0 or NaN (torch: 0 for y >= 0, -inf for y < 0)
show('G5 pow 0^[0.5,-0.5]', (a, b) => tf.pow(a, b), [t([0], []), t([0.5, -0.5], [2])], t([1, 0.5], [2]));
