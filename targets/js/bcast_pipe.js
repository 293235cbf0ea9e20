// bcast_pipe.js - the JavaScript side of the pipe protocol (docs/pipe-protocol.md), shared by every JS bridge.
//
// A bridge requires its library with requireLibrary() (a missing one sends the
// protocol's `fail` handshake saying what to run), builds a hello (its
// capabilities) and calls serve(hello, handler). The handler gets one case at a
// time and returns the reply's bytes, or a Promise of them (onnxruntime-node is
// asynchronous), built with replyOk / replyShape / replyError / replyWrote, and
// replyException for a library's exception, classed by the bridge's table of
// message patterns.
// Operands arrive as the sent bytes plus shape, strides and offset; nested()
// walks a strided view, dense() hands a contiguous one to a library that takes
// flat typed arrays. This module knows the protocol, not any library: it never
// looks at values.
//
// stdout carries protocol bytes only: requiring this module sends everything
// the console would print (a library's warnings) to stderr.
'use strict';

const fs = require('fs');
const util = require('util');

const NAMES = ['bool', 'i8', 'u8', 'i16', 'i32', 'i64', 'f32', 'f64'];
// The typed array holding each dtype's elements (bool: one byte, 0 or 1). The
// protocol's bytes are little-endian; pipe.c refuses to run on a big-endian
// machine, so native typed arrays read them as they are.
const TYPED = {
  bool: Uint8Array, i8: Int8Array, u8: Uint8Array, i16: Int16Array, i32: Int32Array,
  i64: BigInt64Array, f32: Float32Array, f64: Float64Array,
};

for (const k of ['log', 'info', 'debug', 'warn', 'error', 'trace']) {
  console[k] = (...a) => process.stderr.write(util.format(...a) + '\n');
}

// ---- start-up ----

// The protocol's refusal to start: the greeting, `fail MESSAGE`, exit 1 (it
// does not return). The pipe target prints MESSAGE on its stderr and its
// init() fails. Written synchronously: the process exits right after.
function fail(message) {
  fs.writeSync(1, `bcast-pipe 1\nfail ${oneLine(message)}\n`);
  process.exit(1);
}

// require(name), or fail (no return): "NAME is not installed: run `make
// js-bridges` ..." when npm has not installed it (node_modules missing), else
// the loader's own message (a native binary that does not load, say).
function requireLibrary(name) {
  try {
    return require(name);
  } catch (e) {
    const missing = e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(`'${name}'`);
    fail(missing ? `${name} is not installed: run \`make js-bridges\` (npm ci --ignore-scripts in targets/js)`
      : `${name} cannot be loaded: ${e && e.message ? e.message : e}`);
  }
}

// ---- shapes and operands ----

// '(2,3)' / '(5,)' / '()' -> { shape: Numbers, dims: BigInts }. dims is exact;
// shape loses precision above 2^53 (only zero-size operands and shape-only
// arguments have such extents, and no element of them is ever read).
function parseShape(text) {
  const parts = text.slice(1, -1).split(',').filter((v) => v !== '');
  return { shape: parts.map(Number), dims: parts.map(BigInt) };
}

// A shape in the protocol's form. Each extent is written exactly: a Number
// above 2^53 (a library's own result shape) by its exact integer value, not
// JavaScript's shortest round-trip form (4611686018427387904, not ...8000).
function fmtShape(shape) {
  const ext = shape.map((d) => (typeof d === 'number' && Number.isInteger(d) ? BigInt(d) : d).toString());
  return '(' + (ext.length === 1 ? ext[0] + ',' : ext.join(',')) + ')';
}

// The number of elements of a shape (1 for rank 0).
function elementCount(shape) {
  return shape.reduce((a, b) => a * b, 1);
}

// Whether arg's view is C-contiguous from element 0 of its bytes (what the
// runner sends a target that does not declare `strided`; extents of 1 may have
// any stride).
function isContiguous(arg) {
  if (elementCount(arg.shape) === 0) return true;
  let want = 1;
  for (let d = arg.shape.length - 1; d >= 0; d--) {
    if (arg.shape[d] !== 1 && arg.strides[d] !== want) return false;
    want *= arg.shape[d];
  }
  return arg.offset === 0;
}

// The operand's elements as a fresh typed array of its dtype, in C order, for
// a library that takes flat arrays. Only for a contiguous view: a bridge that
// calls it declares no `strided`, so the runner never sends another; one that
// arrives anyway is a protocol error (thrown: the bridge dies, the case crashes).
function dense(arg) {
  if (!isContiguous(arg)) throw new Error(`bcast_pipe: a strided operand ${fmtShape(arg.shape)} reached a dense bridge`);
  const T = TYPED[arg.dtype];
  const n = elementCount(arg.shape);
  const out = new T(n);
  new Uint8Array(out.buffer).set(arg.data.subarray(0, n * T.BYTES_PER_ELEMENT));
  return out;
}

// The operand as nested arrays, walking its strided view in C order; leaf(k)
// gives the value of element k of the operand's bytes. Rank 0: leaf(offset).
// A zero-size shape nests like any other ((3,0) is [[], [], []]): a library
// that checks the nesting against the size (mathjs does) must get a well-formed
// empty array, or its answer is about a malformed input, not about broadcasting.
// A nested array holds every element (a library without views cannot take a
// stride-0 view of 2^40 elements any other way): when the slots it needs
// (the sum over dims of the product of the extents up to that dim, 8 bytes
// each) exceed node's heap limit, it cannot be built, and a RangeError says so
// at once instead of the bridge filling memory until the case times out.
// The library is never called then; the operand's shape decides, nothing else.
function nested(arg, leaf) {
  if (arg.shape.length === 0) return leaf(arg.offset);
  let slots = 0;
  let rows = 1;
  for (const n of arg.shape) {
    rows *= n;
    slots += rows;
  }
  const limit = require('v8').getHeapStatistics().heap_size_limit;
  if (slots * 8 > limit) {
    throw new RangeError(`bcast_pipe: a dense nested array of shape ${fmtShape(arg.shape)} needs ${slots} slots, `
      + `beyond node's heap limit of ${limit} bytes (the library takes nested arrays, not views)`);
  }
  const build = (d, off) => {
    const out = [];
    for (let i = 0; i < arg.shape[d]; i++) {
      const o = off + i * arg.strides[d];
      out.push(d + 1 === arg.shape.length ? leaf(o) : build(d + 1, o));
    }
    return out;
  };
  return build(0, arg.offset);
}

// ---- replies ----

// The bytes of a typed array, without copying.
function bytesOf(typed) {
  return Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);
}

// A result: dtype (one of NAMES, or the library's own name when it is none of
// them), shape, and its C-order little-endian bytes.
function replyOk(dtype, shape, data) {
  return Buffer.concat([Buffer.from(`ok ${dtype} ${fmtShape(shape)} ${data.length}\n`, 'latin1'), data]);
}

// A shape-only result (broadcast_shapes).
function replyShape(shape) {
  return Buffer.from(`ok - ${fmtShape(shape)} 0\n`);
}

// Before an error in inplace/out mode: what self/out holds now, when the
// failed call changed it (B22).
function replyWrote(dtype, shape, data) {
  return Buffer.concat([Buffer.from(`wrote ${dtype} ${fmtShape(shape)} ${data.length}\n`, 'latin1'), data]);
}

// Grad mode (docs/pipe-protocol.md, "Gradients"): grads is a list of
// { index, dtype, shape, data } (data: C-order little-endian bytes), one per
// input the library differentiated, as the library gave it.
function replyGrads(grads) {
  const parts = [Buffer.from(`grads ${grads.length}\n`, 'latin1')];
  for (const g of grads) {
    parts.push(Buffer.from(`grad ${g.index} ${g.dtype} ${fmtShape(g.shape)} ${g.data.length}\n`, 'latin1'), g.data);
  }
  return Buffer.concat(parts);
}

// One printable ASCII line: text's lines joined, whitespace collapsed,
// anything else as '?' (a library's multi-line message keeps its details).
function oneLine(text) {
  return String(text).replace(/\s+/g, ' ').trim().replace(/[^\x20-\x7e]/g, '?');
}

// An error of one of the fixed classes with the library's own text.
function replyError(cls, message) {
  return Buffer.from(`error ${cls} ${oneLine(message) || cls}\n`);
}

// The error reply for a library exception e: the class of the first of
// rules ([regex, class] pairs, tested on the one-line message) that matches,
// else `other` with the message prefixed by the error's type (TypeError: ...).
function replyException(rules, e) {
  const msg = oneLine(e && e.message !== undefined ? e.message : e);
  for (const [rx, cls] of rules) if (rx.test(msg)) return replyError(cls, msg);
  return replyError('other', (e && e.name && e.name !== 'Error' ? e.name + ': ' : '') + msg);
}

// ---- serving ----

// One whole case from the front of buf: { c, used } or null when more input
// is needed. c = { op, mode, profile, axis, target (Numbers or null),
// targetDims (BigInts or null), args: [{ dtype, shape, dims, strides, offset,
// data }] } (data: the sent bytes; shape-only args have dtype '-').
function takeCase(buf) {
  const line = (pos) => {
    const nl = buf.indexOf(10, pos);
    return nl < 0 ? null : { text: buf.toString('latin1', pos, nl), next: nl + 1 };
  };
  const h = line(0);
  if (!h) return null;
  const f = h.text.split(' ');
  if (f.length !== 7 || f[0] !== 'case') throw new Error('bcast_pipe: bad case line ' + h.text);
  let pos = h.next;
  const args = [];
  for (let i = 0; i < Number(f[4]); i++) {
    const l = line(pos);
    if (!l) return null;
    const a = l.text.split(' ');
    if (a.length !== 6 || a[0] !== 'arg') throw new Error('bcast_pipe: bad arg line ' + l.text);
    const n = Number(a[5]);
    if (buf.length < l.next + n) return null;
    const { shape, dims } = parseShape(a[2]);
    args.push({ dtype: a[1], shape, dims, strides: a[3] === '-' ? [] : parseShape(a[3]).shape,
      offset: Number(a[4]), data: buf.subarray(l.next, l.next + n) });
    pos = l.next + n;
  }
  const t = f[6] === '-' ? null : parseShape(f[6]);
  const c = { op: f[1], mode: f[2], profile: f[3], axis: Number(f[5]), args,
    target: t && t.shape, targetDims: t && t.dims };
  return { c, used: pos };
}

// Announces hello = { name, version, profile, ops, dtypes, maxRank, flags, gradOps },
// then answers cases one at a time until stdin ends (exit 0). handler(c)
// returns the reply's bytes or a Promise of them; the next case is read only
// after the reply is written. An exception escaping the handler (one the bridge
// does not map to an error class) is sent as `fatal Name: message`, and the
// bridge dies: the pipe target reports a crash named by that message.
function serve(hello, handler) {
  process.stdout.write(['bcast-pipe 1', 'name ' + hello.name, 'version ' + hello.version,
    'profile ' + hello.profile, 'ops ' + hello.ops.join(' '), 'dtypes ' + hello.dtypes.join(' '),
    'max_rank ' + (hello.maxRank || 0), 'flags ' + (hello.flags || []).join(' '),
    ...(hello.gradOps && hello.gradOps.length ? ['grad_ops ' + hello.gradOps.join(' ')] : []),
    'ready', ''].join('\n'));
  let buf = Buffer.alloc(0);
  let busy = false;
  let ended = false;
  const pump = async () => {
    busy = true;
    for (;;) {
      const got = takeCase(buf);
      if (!got) break;
      buf = buf.subarray(got.used);
      process.stdout.write(await handler(got.c));
    }
    busy = false;
    if (ended) process.exit(0);
  };
  // the bridge's last words (docs/pipe-protocol.md, `fatal`): what the library
  // threw, which the runner names the crash by; then the stack on stderr
  const crash = (e) => {
    const said = e && e.name ? `${e.name}: ${e.message}` : String(e);
    try { fs.writeSync(1, `fatal ${oneLine(said) || 'fatal error'}\n`); } catch (_) { /* the runner is gone */ }
    process.stderr.write(`bridge error: ${e && e.stack ? e.stack : e}\n`);
    process.exit(70);
  };
  process.stdin.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    if (!busy) pump().catch(crash);
  });
  process.stdin.on('end', () => {
    ended = true;
    if (!busy) process.exit(0);
  });
}

module.exports = {
  NAMES, TYPED, fail, requireLibrary, parseShape, fmtShape, elementCount, isContiguous, dense, nested,
  bytesOf, replyOk, replyShape, replyWrote, replyGrads, replyError, replyException, oneLine, serve,
};
