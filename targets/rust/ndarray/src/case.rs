//! case.rs - one case: the operands as ndarray views, the op as an ndarray user writes it, the result handed back.

use bcast_target::{Call, Dtype, Failure, Mode, Op, Status};
use ndarray::{ArrayViewD, IxDyn};
use std::any::type_name;

use crate::classify::shape_error;
use crate::ops::NdElement;
use crate::view::{view, view_mut};

/// Copies ndarray's result, in its logical order, into the runner's output at
/// the result's shape and element type.
fn deliver<T: NdElement>(call: &Call, r: ArrayViewD<T>) -> Result<(), Failure> {
    let shape: Vec<i64> = r.shape().iter().map(|&e| e as i64).collect();
    let out = call.alloc_output::<T>(&shape).ok_or_else(|| {
        Failure::new(Status::Other, format!("alloc_output refused ndarray's result shape {:?}", r.shape()))
    })?;
    for (o, v) in out.iter_mut().zip(r.iter()) {
        *o = *v;
    }
    Ok(())
}

/// The error for an operator Rust does not define for this element type.
fn no_compile<T>(op: Op) -> Failure {
    let msg = format!("ndarray: {} on Array<{}> does not compile (no such operator)", op.c_name(), type_name::<T>());
    Failure::new(Status::Dtype, msg)
}

/// x OP y (value mode: `&x OP &y`, which co-broadcasts) or self OP= y
/// (in-place: `self OP= &y`, which broadcasts y to self's shape).
pub fn binary<T: NdElement>(call: &Call, op: Op) -> Result<(), Failure> {
    if call.mode() == Some(Mode::Inplace) {
        let mut s = view_mut::<T>(&call.arg(0)).map_err(|e| shape_error(call, e))?;
        let y = view::<T>(&call.arg(1)).map_err(|e| shape_error(call, e))?;
        return T::compound(op, &mut s, &y).ok_or_else(|| no_compile::<T>(op));
    }
    let x = view::<T>(&call.arg(0)).map_err(|e| shape_error(call, e))?;
    let y = view::<T>(&call.arg(1)).map_err(|e| shape_error(call, e))?;
    let r = T::binary(op, &x, &y).ok_or_else(|| no_compile::<T>(op))?;
    deliver(call, r.view())
}

/// broadcast_to: `x.broadcast(shape)`, ndarray's view at the target shape.
/// Its extents are usize; the runner's i64 extents convert with `as`, as a
/// Rust caller's would (a negative extent -n becomes 2^64 - n). ndarray
/// answers None when it cannot broadcast, which is reported as such.
pub fn broadcast_to<T: NdElement>(call: &Call) -> Result<(), Failure> {
    let x = view::<T>(&call.arg(0)).map_err(|e| shape_error(call, e))?;
    let target: Vec<usize> = call.target_shape().iter().map(|&e| e as usize).collect();
    match x.broadcast(IxDyn(&target)) {
        Some(v) => deliver(call, v),
        None => Err(Failure::new(
            Status::NotBroadcastable,
            format!("ndarray: broadcast({:?}) of shape {:?} returned None", target, x.shape()),
        )),
    }
}

/// The mixed-dtype error: ndarray's operators take one element type.
pub fn mixed(x: Option<Dtype>, y: Option<Dtype>) -> Failure {
    let name = |d: Option<Dtype>| d.map_or("?", |d| d.c_name());
    let msg = format!("ndarray has no mixed-type operators: {} with {} does not compile", name(x), name(y));
    Failure::new(Status::Dtype, msg)
}
