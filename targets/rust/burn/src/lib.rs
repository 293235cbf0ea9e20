//! bcast-burn - the burn adapter: each case as burn's Tensor API calls, on the Flex CPU backend.
//!
//! burn-tensor 0.22.1, `Device::flex()` for value cases and
//! `Device::flex().autodiff()` for gradient cases. Every op is the burn
//! method a user calls (elementwise.rs, views.rs, select.rs, matmul.rs); the
//! adapter loads the operands (tensors.rs), dispatches the run-time rank to
//! burn's const-generic one (rank.rs), and delivers the result (finish.rs).
//! burn reports errors by panicking: the guard of bcast-target catches every
//! panic and errors.rs classifies its message. targets/rust/burn/FINDINGS.md
//! lists the adapter's decisions and what burn does differently.

mod elementwise;
mod errors;
mod finish;
mod matmul;
mod rank;
mod select;
mod tensors;
mod views;

use std::ffi::c_int;

use bcast_target::{
    dtype_bits, export_target, op_bits, run_guarded, BctCall, BctTarget, Call, Dtype, Failure, Mode, Op,
    Profile, Status, BCT_ABI_VERSION, BCT_CAP_STRIDED,
};
use burn_tensor::Device;

use crate::rank::{with_rank, MAX_RANK};
use crate::tensors::{load, rank_failure, Ctx};

/// The ops whose gradient burn's autodiff computes (all of the grad suite's).
const GRAD_OPS: &[Op] = &[
    Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Pow, Op::Maximum, Op::Minimum,
    Op::Where, Op::Matmul, Op::BroadcastTo, Op::Expand,
];

/// Every op the adapter claims: the element-wise ones, where, the views, matmul.
const fn claimed_ops() -> u64 {
    op_bits(elementwise::OPS) | op_bits(&[Op::Where, Op::BroadcastTo, Op::Expand, Op::Matmul])
}

/// The descriptor: torch profile (burn follows PyTorch's API), ranks up to
/// MAX_RANK (the adapter's instantiated set), strided inputs (copied dense).
static TARGET: BctTarget = BctTarget {
    abi_version: BCT_ABI_VERSION,
    name: c"burn".as_ptr(),
    version: c"burn-tensor 0.22.1 (Flex backend)".as_ptr(),
    profile: Profile::Torch as c_int,
    ops: claimed_ops(),
    dtypes: dtype_bits(&[
        Dtype::Bool, Dtype::I8, Dtype::U8, Dtype::I16, Dtype::I32, Dtype::I64, Dtype::F32, Dtype::F64,
    ]),
    max_rank: MAX_RANK as c_int,
    flags: BCT_CAP_STRIDED,
    init: None,
    run: Some(run),
    grad_ops: op_bits(GRAD_OPS),
};

export_target!(TARGET);

/// The ABI's run: one case, with every panic caught and classified.
unsafe extern "C" fn run(raw: *const BctCall) -> c_int {
    run_guarded(raw, errors::classify, run_case)
}

/// One case: the device for its mode, then the op at the case's rank (the
/// highest rank among the op's inputs; views dispatch on their own).
fn run_case(call: &Call) -> Result<(), Failure> {
    let op = call.op().ok_or_else(|| Failure::new(Status::Other, "unknown op"))?;
    let grad = call.mode() == Some(Mode::Grad);
    if !matches!(call.mode(), Some(Mode::Value | Mode::Grad)) {
        return Err(Failure::new(Status::Other, "burn has no in-place or out= form of this op"));
    }
    let device = if grad { Device::flex().autodiff() } else { Device::flex() };
    let ctx = Ctx { call, device, grad, leaves: Default::default() };
    let inputs = call.nargs() - usize::from(grad);
    let rank = (0..inputs).map(|i| call.arg(i).rank()).max().unwrap_or(0);
    match op {
        Op::BroadcastTo | Op::Expand => views::run_view(&ctx, op),
        Op::Where => with_rank!(rank, R => select::run_where::<R>(&ctx), Err(rank_failure(rank))),
        Op::Matmul => with_rank!(rank, R => matmul::run_matmul::<R>(&ctx), Err(rank_failure(rank))),
        _ => with_rank!(rank, R => {
            let (x, y) = (load::<R>(&ctx, 0)?, load::<R>(&ctx, 1)?);
            finish::finish::<R>(&ctx, elementwise::binary(op, x, y)?)
        }, Err(rank_failure(rank))),
    }
}
