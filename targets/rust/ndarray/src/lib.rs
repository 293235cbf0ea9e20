//! lib.rs - bcast target for ndarray (Rust n-dimensional arrays), NumPy profile: the descriptor and run().
//!
//! Calling convention (FINDINGS.md says what follows from it):
//!   - each operand is ndarray's own view (ArrayViewD / ArrayViewMutD) over the
//!     runner's memory, made with ndarray's safe constructors (view.rs), so
//!     offsets, stride 0 and negative strides are ndarray's to handle;
//!   - value mode is `&x OP &y`, ndarray's co-broadcasting operators; in-place
//!     is `self OP= &y`; broadcast_to is `x.broadcast(shape)` (case.rs);
//!   - ndarray has no dtype promotion: operands of different dtypes cannot be
//!     written at all and are reported as a dtype error, as is an operator
//!     Rust does not define for the element type (ops.rs);
//!   - errors: ndarray's ShapeError kinds and its panics' messages (classify.rs).

mod case;
mod classify;
mod ops;
mod view;

use bcast_target::{
    dtype_bits, export_target, op_bits, run_guarded, BctCall, BctTarget, Call, Dtype, Failure, Op, Profile,
    Status, BCT_ABI_VERSION, BCT_CAP_INPLACE, BCT_CAP_STRIDED,
};
use std::ffi::c_int;

/// Calls `$body` with `$t` the Rust type of dtype `$dt` (None: the dtype is not claimed).
macro_rules! with_type {
    ($dt:expr, $t:ident => $body:expr) => {
        match $dt {
            Some(Dtype::Bool) => { type $t = bool; $body }
            Some(Dtype::I8) => { type $t = i8; $body }
            Some(Dtype::U8) => { type $t = u8; $body }
            Some(Dtype::I16) => { type $t = i16; $body }
            Some(Dtype::I32) => { type $t = i32; $body }
            Some(Dtype::I64) => { type $t = i64; $body }
            Some(Dtype::F32) => { type $t = f32; $body }
            Some(Dtype::F64) => { type $t = f64; $body }
            _ => Err(Failure::new(Status::Dtype, "dtype not claimed")),
        }
    };
}

/// One case, by op: broadcast_to, or a binary operator on operands of one dtype.
fn run_case(call: &Call) -> Result<(), Failure> {
    let op = call.op().ok_or_else(|| Failure::new(Status::Other, "unknown op"))?;
    if op == Op::BroadcastTo {
        return with_type!(call.arg(0).dtype(), T => case::broadcast_to::<T>(call));
    }
    let (dx, dy) = (call.arg(0).dtype(), call.arg(1).dtype());
    if dx != dy {
        return Err(case::mixed(dx, dy));
    }
    with_type!(dx, T => case::binary::<T>(call, op))
}

/// `run`: no panic crosses the C ABI; a panic's message picks its class.
unsafe extern "C" fn run(call: *const BctCall) -> c_int {
    run_guarded(call, classify::panic_class, run_case)
}

/// The operators ndarray implements on arrays (std::ops, co-broadcasting
/// since 0.15) and `broadcast`. ndarray has no elementwise comparison,
/// maximum/minimum, pow, where, batched matmul or expand. Of issue #25's ops
/// only the shifts (`<<`, `>>`): its float maths (`hypot`, `powf`, `clamp`)
/// take a scalar, not an array, and broadcast nothing (FINDINGS.md).
static TARGET: BctTarget = BctTarget {
    abi_version: BCT_ABI_VERSION,
    name: c"ndarray".as_ptr(),
    version: concat!(env!("BCT_NDARRAY_VERSION"), "\0").as_ptr() as *const std::ffi::c_char,
    profile: Profile::Numpy as c_int,
    ops: op_bits(&[
        Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Remainder,
        Op::BitwiseAnd, Op::BitwiseOr, Op::BitwiseXor, Op::BroadcastTo, Op::LeftShift, Op::RightShift,
    ]),
    dtypes: dtype_bits(&[
        Dtype::Bool, Dtype::I8, Dtype::U8, Dtype::I16, Dtype::I32, Dtype::I64, Dtype::F32, Dtype::F64,
    ]),
    max_rank: 0,
    flags: BCT_CAP_STRIDED | BCT_CAP_INPLACE,
    init: None,
    run: Some(run),
    grad_ops: 0,
};

export_target!(TARGET);
