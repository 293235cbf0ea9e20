// one_to_zero.js - mathjs's broadcasting does not stretch an extent 1 to 0: (0,) with (1,) raises "Dimension mismatch"
// (add, atan2, dotPow, ...). No bcast involved.
//
//   node targets/js/mathjs/repro/one_to_zero.js      (after `make js-bridges`)
//
// NumPy's rule (and torch's): an extent 1 stretches to any extent, 0 included, so np.add(np.zeros(0), np.ones(1))
// and np.arctan2(np.zeros(0), np.ones(1)) have shape (0,). mathjs 11+ documents broadcasting for its element-wise
// functions. Exit 0 and "reproduced" when mathjs raises; exit 1 otherwise.
'use strict';

const math = require('../../node_modules/mathjs');

let raised = 0;
for (const f of ['add', 'atan2', 'dotPow']) {
  try {
    const r = math[f](math.zeros([0]), math.matrix([1]));
    console.log(`mathjs ${math.version}: ${f}((0,), (1,)) -> size [${math.size(r).valueOf()}]; NumPy: (0,)`);
  } catch (e) {
    raised++;
    console.log(`mathjs ${math.version}: ${f}((0,), (1,)) -> error: ${e.message}; NumPy: shape (0,)`);
  }
}
console.log(raised ? 'reproduced' : 'not reproduced');
process.exit(raised ? 0 : 1);
