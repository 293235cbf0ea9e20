//! grad.rs - BCT_MODE_GRAD through candle's autodiff: Var inputs, the forward op, backward(), the GradStore.
//!
//! A candle user differentiates through `Var`s: each floating-point input
//! becomes a `Var` (a leaf the GradStore keeps), the forward op runs on them,
//! and `backward()` of a scalar gives each leaf's gradient. candle's
//! `backward()` starts from ones, so the incoming gradient g enters the way a
//! candle user injects one: `(z * g).sum_all().backward()` (g a plain tensor,
//! not a Var); d/dz of that sum is g itself, exactly.

use bcast_target::{Call, Dtype, Failure, Op, Status};
use candle_core::{Tensor, Var};

use crate::errors::from_candle;
use crate::ops::forward;
use crate::output::{deliver, Dest};

/// True for the inputs candle differentiates here: f32 and f64, and never
/// where's cond (B31).
fn differentiable(op: Op, k: usize, dtype: Option<Dtype>) -> bool {
    !(op == Op::Where && k == 0) && matches!(dtype, Some(Dtype::F32) | Some(Dtype::F64))
}

/// Runs the backward pass of `op` on `inputs` (the op's inputs as candle
/// tensors) with the incoming gradient `g`, and hands each differentiable
/// input's gradient to the runner. The forward op runs first, so its errors
/// are the case's errors.
pub fn run_grad(call: &Call, op: Op, inputs: Vec<Tensor>, g: Tensor, target: &[i64]) -> Result<(), Failure> {
    let mut leaves: Vec<(usize, Var)> = Vec::new();
    let mut args: Vec<Tensor> = Vec::with_capacity(inputs.len());
    for (k, t) in inputs.into_iter().enumerate() {
        if differentiable(op, k, call.arg(k).dtype()) {
            let v = Var::from_tensor(&t).map_err(from_candle)?;
            args.push(v.as_tensor().clone());
            leaves.push((k, v));
        } else {
            args.push(t);
        }
    }
    let z = forward(op, &args, target)?;
    if leaves.is_empty() {
        return Err(Failure::new(Status::Dtype, "no floating-point input: candle has no Var to differentiate"));
    }
    if z.dims() != g.dims() {
        return Err(Failure::new(
            Status::Other,
            format!("candle's forward result {:?} does not have the incoming gradient's shape {:?}", z.dims(), g.dims()),
        ));
    }
    let loss = z.mul(&g).and_then(|p| p.sum_all()).map_err(from_candle)?;
    let grads = loss.backward().map_err(from_candle)?;
    for (k, v) in &leaves {
        /* an input candle's graph never reached has no entry: reported as missing, not invented */
        if let Some(gk) = grads.get(v.as_tensor()) {
            deliver(call, gk, Dest::Grad(*k))?;
        }
    }
    Ok(())
}
