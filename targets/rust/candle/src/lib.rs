//! bcast-candle - the bcast target for candle (candle-core, CPU): its broadcast_* ops, where_cond, broadcast_matmul, broadcast_as and its autodiff.
//!
//! The descriptor claims what candle has (targets/rust/candle/FINDINGS.md):
//! the ops below, candle's dtypes among bcast's (bool as u8), any rank,
//! strided inputs (copied, see operand.rs), value and grad mode. candle
//! tensors are immutable (candle's `Var` doc: "variables can have their
//! content modified whereas tensors are immutable"), so no in-place and no
//! out=. Each call is translated in ops.rs, its errors classified in
//! errors.rs; panics are caught by bcast_target::run_guarded.

mod errors;
mod grad;
mod ops;
mod operand;
mod output;

use bcast_target::{
    dtype_bits, export_target, op_bits, run_guarded, BctCall, BctTarget, Call, Dtype, Failure, Mode, Op, Status,
    BCT_ABI_VERSION, BCT_CAP_STRIDED,
};
use std::ffi::c_int;

/// The candle-core release Cargo.toml pins (`=0.11.1`), shown in reports.
const CANDLE_VERSION: &std::ffi::CStr = c"0.11.1";

/// The ops candle has a call for (ops.rs says which call each is).
const OPS: &[Op] = &[
    Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Pow, Op::Maximum, Op::Minimum,
    Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge,
    Op::Where, Op::BroadcastTo, Op::Expand, Op::Matmul, Op::BroadcastShapes, Op::Clip,
];
/// The ops whose backward pass candle's autodiff has (backprop.rs).
const GRAD_OPS: &[Op] = &[
    Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Pow, Op::Maximum, Op::Minimum,
    Op::Where, Op::Matmul, Op::BroadcastTo, Op::Expand,
];
/// candle's dtypes among bcast's; bool is handed over as u8 (operand.rs).
const DTYPES: &[Dtype] = &[Dtype::Bool, Dtype::U8, Dtype::I16, Dtype::I32, Dtype::I64, Dtype::F32, Dtype::F64];

/// The descriptor: torch profile, no rank limit, strided inputs, value and grad mode.
static CANDLE: BctTarget = BctTarget {
    abi_version: BCT_ABI_VERSION,
    name: c"candle".as_ptr(),
    version: CANDLE_VERSION.as_ptr(),
    profile: bcast_target::Profile::Torch as c_int,
    ops: op_bits(OPS),
    dtypes: dtype_bits(DTYPES),
    max_rank: 0,
    flags: BCT_CAP_STRIDED,
    init: None,
    run: Some(run),
    grad_ops: op_bits(GRAD_OPS),
};

export_target!(CANDLE);

/// One case: the operands become candle tensors, the op runs in candle, the
/// result or the gradients go back to the runner. Errors are candle's.
fn run_case(call: &Call) -> Result<(), Failure> {
    let op = call.op().ok_or_else(|| Failure::new(Status::Other, "unknown op"))?;
    if op == Op::BroadcastShapes {
        let shapes: Vec<&[i64]> = call.args().iter().map(|a| a.shape()).collect();
        let shape = ops::broadcast_shapes(&shapes)?;
        return if call.alloc_shape(&shape) { Ok(()) } else { Err(Failure::new(Status::Other, "shape refused")) };
    }
    let tensors = call.args().iter().map(operand::to_tensor).collect::<Result<Vec<_>, _>>()?;
    match call.mode() {
        Some(Mode::Value) => {
            let z = ops::forward(op, &tensors, call.target_shape())?;
            output::deliver(call, &z, output::Dest::Result)
        }
        Some(Mode::Grad) => {
            let mut inputs = tensors;
            let g = inputs.pop().ok_or_else(|| Failure::new(Status::Other, "grad mode without operands"))?;
            grad::run_grad(call, op, inputs, g, call.target_shape())
        }
        _ => Err(Failure::new(Status::Other, "candle tensors are immutable: no in-place or out= form")),
    }
}

/// The descriptor's `run`: run_case behind the panic guard.
unsafe extern "C" fn run(raw: *const BctCall) -> c_int {
    run_guarded(raw, |_, message| errors::classify_panic(message), run_case)
}
