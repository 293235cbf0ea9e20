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
// equal, unequal, smaller, smallerEq, larger, largerEq, and, or, xor on f64 and
// bool. Not declared: max/min (reductions, not element-wise), multiply (matrix
// product, 2-D only), no where/broadcast_to/floor-division function, no
// integer dtypes (mathjs's number is a JavaScript float64, docs/datatypes/
// numbers.md; BigNumber and Fraction are no bcast dtype), no in-place or out=
// (its functions return new values). Nothing is checked or fixed here.
'use strict';

const math = require('mathjs');

const FUNC = {
  add: math.add, sub: math.subtract, mul: math.dotMultiply, div: math.dotDivide, pow: math.dotPow,
  remainder: math.mod, eq: math.equal, ne: math.unequal, lt: math.smaller, le: math.smallerEq,
  gt: math.larger, ge: math.largerEq, logical_and: math.and, logical_or: math.or, logical_xor: math.xor,
};
// What each function returns per its docs; used only to name the dtype of an
// empty result, which has no element to look at.
const RETURNS_BOOL = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logical_and', 'logical_or', 'logical_xor']);

const fmtShape = (s) => '(' + (s.length === 1 ? s[0] + ',' : s.join(',')) + ')';
const parseShape = (t) => t.slice(1, -1).split(',').filter((v) => v !== '').map(Number);

function element(arg, k) {
  return arg.dtype === 'f64' ? arg.data.readDoubleLE(k * 8) : arg.data[k] !== 0;
}

// The operand as a mathjs value: walk its strided view in C order. A zero-size
// shape nests like any other ((3,0) is [[], [], []]): mathjs checks the nesting
// against the size, and a flat [] for (3,0) is a malformed matrix, not a (3,0) one.
function toMath(arg) {
  if (arg.shape.length === 0) return element(arg, arg.offset);
  const build = (d, off) => {
    const out = [];
    for (let i = 0; i < arg.shape[d]; i++) {
      const o = off + i * arg.strides[d];
      out.push(d + 1 === arg.shape.length ? element(arg, o) : build(d + 1, o));
    }
    return out;
  };
  return new math.DenseMatrix({ data: build(0, arg.offset), size: arg.shape.slice() });
}

function reply(op, r) {
  let shape = [];
  let flat = [r];
  if (math.isMatrix(r) || Array.isArray(r)) {
    shape = math.isMatrix(r) ? r.size() : math.size(r);
    flat = math.flatten(math.isMatrix(r) ? r.valueOf() : r);
    if (shape.includes(0)) flat = [];
  }
  let dtype = flat.length ? (typeof flat[0] === 'boolean' ? 'bool' : 'f64') : (RETURNS_BOOL.has(op) ? 'bool' : 'f64');
  if (flat.some((v) => typeof v !== (dtype === 'bool' ? 'boolean' : 'number'))) {
    return error('other', 'mathjs returned mixed or non-numeric elements: ' + String(flat.find((v) => typeof v !== 'number')));
  }
  const data = Buffer.alloc(flat.length * (dtype === 'bool' ? 1 : 8));
  flat.forEach((v, i) => (dtype === 'bool' ? (data[i] = v ? 1 : 0) : data.writeDoubleLE(v, i * 8)));
  return Buffer.concat([Buffer.from(`ok ${dtype} ${fmtShape(shape)} ${data.length}\n`), data]);
}

function error(cls, msg) {
  const line = String(msg).split('\n')[0].replace(/\s+/g, ' ').trim() || cls;
  return Buffer.from(`error ${cls} ${line.replace(/[^\x20-\x7e]/g, '?')}\n`);
}

function classify(e) {
  const msg = String(e && e.message ? e.message : e);
  // mathjs's DimensionError / broadcasting errors name mismatching sizes
  if (/Dimension mismatch|cannot be broadcast|broadcast/i.test(msg)) return error('not-broadcastable', msg);
  return error('other', (e && e.name ? e.name + ': ' : '') + msg);
}

function run(c) {
  try {
    if (c.mode !== 'value' || !(c.op in FUNC)) return error('other', `mathjs bridge: no ${c.op} in mode ${c.mode}`);
    return reply(c.op, FUNC[c.op](...c.args.map(toMath)));
  } catch (e) {
    return classify(e);
  }
}

// ---- protocol: parse whole cases out of the input stream ----
let buf = Buffer.alloc(0);

function takeLine(pos) {
  const nl = buf.indexOf(10, pos);
  return nl < 0 ? null : { text: buf.toString('latin1', pos, nl), next: nl + 1 };
}

function tryCase() {
  const h = takeLine(0);
  if (!h) return null;
  const f = h.text.split(' ');
  if (f.length !== 7 || f[0] !== 'case') throw new Error('bad case line ' + h.text);
  let pos = h.next;
  const args = [];
  for (let i = 0; i < Number(f[4]); i++) {
    const l = takeLine(pos);
    if (!l) return null;
    const a = l.text.split(' ');
    const n = Number(a[5]);
    if (buf.length < l.next + n) return null;
    args.push({ dtype: a[1], shape: parseShape(a[2]), strides: a[3] === '-' ? [] : parseShape(a[3]),
      offset: Number(a[4]), data: buf.subarray(l.next, l.next + n) });
    pos = l.next + n;
  }
  const c = { op: f[1], mode: f[2], profile: f[3], args, axis: Number(f[5]), target: f[6] };
  return { c, used: pos };
}

process.stdout.write([
  'bcast-pipe 1', 'name mathjs', 'version ' + math.version, 'profile numpy', 'ops ' + Object.keys(FUNC).join(' '),
  'dtypes bool f64', 'max_rank 0', 'flags strided', 'ready', ''].join('\n'));
process.stdin.on('data', (chunk) => {
  buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
  for (;;) {
    const got = tryCase();
    if (!got) break;
    const out = run(got.c);
    buf = buf.subarray(got.used);
    process.stdout.write(out);
  }
});
process.stdin.on('end', () => process.exit(0));
