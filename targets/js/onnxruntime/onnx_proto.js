// onnx_proto.js - a minimal ONNX protobuf writer: the bytes of one small ModelProto, built at run time.
//
// The ORT bridge turns each case into a one-node model (cases arrive at run
// time, so no model files can be prepared). This module encodes exactly the
// messages such a model needs, with the field numbers of onnx/onnx.proto3
// (ONNX 1.13+): ModelProto, OperatorSetIdProto, GraphProto, NodeProto,
// AttributeProto (INT only), ValueInfoProto, TypeProto.Tensor,
// TensorShapeProto and TensorProto (dims + raw_data). Protobuf wire format:
// each field is a varint key (field number << 3 | wire type) followed by a
// varint (wire type 0) or a length-delimited byte string (wire type 2);
// int64 values are varints, negative ones as their 64-bit two's complement.
// It writes; it never parses, validates or infers anything about the model.
'use strict';

// TensorProto.DataType values (onnx.proto3) for bcast's dtypes.
const ELEM_TYPE = { f32: 1, u8: 2, i8: 3, i16: 5, i32: 6, i64: 7, bool: 9, f64: 11 };
const ATTR_INT = 2;          // AttributeProto.AttributeType.INT
const ATTR_STRING = 3;       // AttributeProto.AttributeType.STRING
const VARINT = 0;
const BYTES = 2;

// The varint bytes of an unsigned or signed integer (Number or BigInt). A
// negative value is encoded as its 64-bit two's complement (10 bytes), as
// protobuf does for int64.
function varint(value) {
  let v = BigInt.asUintN(64, BigInt(value));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    out.push(b);
  } while (v !== 0n);
  return Buffer.from(out);
}

// A varint field: key, then the value.
function fieldInt(field, value) {
  return Buffer.concat([varint((field << 3) | VARINT), varint(value)]);
}

// A length-delimited field: key, length, bytes (a string is its UTF-8 bytes,
// an embedded message its encoding).
function fieldBytes(field, bytes) {
  const b = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return Buffer.concat([varint((field << 3) | BYTES), varint(b.length), b]);
}

// TypeProto for a tensor of elemType (a TensorProto.DataType number) and
// static dims (Numbers or BigInts, exact); dims undefined leaves the shape
// unknown (no TensorShapeProto at all).
function tensorType(elemType, dims) {
  const parts = [fieldInt(1, elemType)];                             // Tensor.elem_type = 1
  if (dims !== undefined) {
    const dimMsgs = dims.map((d) => fieldBytes(1, fieldInt(1, d)));   // Dimension.dim_value = 1
    parts.push(fieldBytes(2, Buffer.concat(dimMsgs)));               // Tensor.shape = 2 (TensorShapeProto.dim = 1)
  }
  return fieldBytes(1, Buffer.concat(parts));                        // TypeProto.tensor_type = 1
}

// ValueInfoProto: a name and, when elemType is given, a tensor type.
function valueInfo(name, elemType, dims) {
  const parts = [fieldBytes(1, name)];                               // name = 1
  if (elemType !== undefined) parts.push(fieldBytes(2, tensorType(elemType, dims)));  // type = 2
  return Buffer.concat(parts);
}

// AttributeProto of type INT.
function attrInt(name, value) {
  return Buffer.concat([fieldBytes(1, name), fieldInt(20, ATTR_INT), fieldInt(3, value)]);  // name, type, i
}

// AttributeProto of type STRING (e.g. BitShift's direction).
function attrString(name, value) {
  return Buffer.concat([fieldBytes(1, name), fieldInt(20, ATTR_STRING), fieldBytes(4, value)]);  // name, type, s
}

// NodeProto: op_type, input and output names, INT or STRING attributes
// ({name: number or string}).
function node(opType, inputs, outputs, attrs = {}) {
  const parts = [];
  for (const i of inputs) parts.push(fieldBytes(1, i));              // input = 1
  for (const o of outputs) parts.push(fieldBytes(2, o));             // output = 2
  parts.push(fieldBytes(4, opType));                                 // op_type = 4
  for (const [k, v] of Object.entries(attrs)) {                      // attribute = 5
    parts.push(fieldBytes(5, typeof v === 'string' ? attrString(k, v) : attrInt(k, v)));
  }
  return Buffer.concat(parts);
}

// TensorProto with an int64 1-D value (e.g. Expand's shape input): dims,
// data_type INT64, name and raw_data (little-endian int64s).
function int64Tensor(name, values) {
  const raw = Buffer.alloc(8 * values.length);
  values.forEach((v, i) => raw.writeBigInt64LE(BigInt.asIntN(64, BigInt(v)), 8 * i));
  return Buffer.concat([fieldInt(1, values.length), fieldInt(2, ELEM_TYPE.i64),   // dims = 1, data_type = 2
    fieldBytes(8, name), fieldBytes(9, raw)]);                                     // name = 8, raw_data = 9
}

// The bytes of a ModelProto holding one graph.
//   graph: { nodes: [NodeProto bytes], inputs: [ValueInfoProto bytes],
//            outputs: [ValueInfoProto bytes], initializers: [TensorProto bytes] }
//   irVersion, opset: the model's IR version and its default-domain opset.
function model(graph, irVersion, opset) {
  const g = [];
  for (const n of graph.nodes) g.push(fieldBytes(1, n));                       // node = 1
  g.push(fieldBytes(2, 'bcast'));                                              // name = 2
  for (const t of graph.initializers || []) g.push(fieldBytes(5, t));          // initializer = 5
  for (const i of graph.inputs) g.push(fieldBytes(11, i));                     // input = 11
  for (const o of graph.outputs) g.push(fieldBytes(12, o));                    // output = 12
  const opsetId = Buffer.concat([fieldBytes(1, ''), fieldInt(2, opset)]);     // domain = 1, version = 2
  return Buffer.concat([
    fieldInt(1, irVersion),                                                    // ir_version = 1
    fieldBytes(2, 'bcast'),                                                    // producer_name = 2
    fieldBytes(7, Buffer.concat(g)),                                           // graph = 7
    fieldBytes(8, opsetId),                                                    // opset_import = 8
  ]);
}

module.exports = { ELEM_TYPE, varint, valueInfo, node, int64Tensor, model };
