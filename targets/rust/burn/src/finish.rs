//! finish.rs - a forward result's last step: delivered as the output (value mode) or differentiated (grad mode).
//!
//! Grad mode: burn's `backward()` takes no incoming gradient (it seeds ones),
//! so the adapter differentiates the scalar `(result * grad).sum()` with the
//! incoming gradient `grad` loaded as a constant Float tensor at the result's
//! rank: its gradient with respect to each input is the vector-Jacobian
//! product the runner asks for. Each leaf's `grad()` is delivered at the
//! dtype and shape burn gives it (no reshape, cast or check); a leaf without
//! a gradient gets none, so the runner reports it missing. When burn's forward
//! result does not have the incoming gradient's shape (the profile's result
//! shape), the adapter stops with class other saying so, rather than let
//! the product broadcast the two into a gradient of something else.

use bcast_target::{Failure, Status};

use crate::errors::cannot_express;
use crate::tensors::{deliver, load, Any, Ctx};

/// Delivers `result`: alloc_output in value mode, the gradients in grad mode.
pub fn finish<const R: usize>(ctx: &Ctx, result: Any<R>) -> Result<(), Failure> {
    if !ctx.grad {
        let data = match result {
            Any::Float(t) => t.into_data(),
            Any::Int(t) => t.into_data(),
            Any::Bool(t) => t.into_data(),
        };
        let call = ctx.call;
        return deliver(data, "output", |dtype, shape| call.alloc_output_raw(dtype, shape) as *mut u8);
    }
    backward(ctx, result)
}

/// The backward pass of `result` against the incoming gradient (the call's
/// last argument), then every leaf's gradient through alloc_grad.
fn backward<const R: usize>(ctx: &Ctx, result: Any<R>) -> Result<(), Failure> {
    if ctx.leaves.borrow().is_empty() {
        return Err(cannot_express("no floating-point input: nothing requires grad".into()));
    }
    let Any::Float(out) = result else {
        return Err(cannot_express("the result is not a Float tensor: burn differentiates Float tensors only".into()));
    };
    let expected: Vec<usize> = ctx.call.arg(ctx.call.nargs() - 1).shape().iter().map(|&e| e as usize).collect();
    if out.shape().as_slice() != expected.as_slice() {
        return Err(Failure::new(Status::Other, format!(
            "burn's forward result has shape {:?}, not the incoming gradient's {:?}: no backward pass (value mode shows the forward difference)",
            out.shape().as_slice(), expected)));
    }
    let Any::Float(incoming) = load::<R>(ctx, ctx.call.nargs() - 1)? else {
        return Err(Failure::new(Status::Dtype, "the incoming gradient is not floating-point"));
    };
    let grads = out.mul(incoming).sum().backward();
    let call = ctx.call;
    for (index, read) in ctx.leaves.borrow().iter() {
        if let Some(data) = read(&grads) {
            deliver(data, "gradient", |dtype, shape| alloc_grad_raw(call, *index, dtype, shape))?;
        }
    }
    Ok(())
}

/// alloc_grad as raw bytes for any dtype (the runner refuses non-float ones).
fn alloc_grad_raw(call: &bcast_target::Call, index: usize, dtype: bcast_target::Dtype, shape: &[i64]) -> *mut u8 {
    let raw = call.raw();
    let none = 0i64;
    let ptr = if shape.is_empty() { &none } else { shape.as_ptr() };
    match raw.alloc_grad {
        // SAFETY: the runner's allocator, called with a valid shape array.
        Some(f) => unsafe { f(raw.ctx, index as i32, dtype as i32, shape.len() as i32, ptr) as *mut u8 },
        None => std::ptr::null_mut(),
    }
}
