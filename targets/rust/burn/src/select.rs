//! select.rs - where(cond, x, y) as burn's `y.mask_where(cond, x)`: x where the mask is true, else y.
//!
//! mask_where is burn's documented where-like op ("Update the given tensor
//! with the value tensor where the mask is true"); its docs show three
//! tensors of one shape and say nothing of broadcasting, and it has no shape
//! check (burn-tensor 0.22.1 base.rs): what the backend does with three
//! shapes that differ is under test. All three are unsqueezed to the highest
//! rank. The mask must be a Bool tensor, and x and y one kind.

use bcast_target::Failure;

use crate::errors::cannot_express;
use crate::finish::finish;
use crate::tensors::{load, Any, Ctx};

/// where at rank R: cond, x and y loaded at R, then `y.mask_where(cond, x)`.
pub fn run_where<const R: usize>(ctx: &Ctx) -> Result<(), Failure> {
    let Any::Bool(mask) = load::<R>(ctx, 0)? else {
        return Err(cannot_express("burn's mask_where takes a Bool mask (Tensor<D, Bool>)".into()));
    };
    let result = match (load::<R>(ctx, 1)?, load::<R>(ctx, 2)?) {
        (Any::Float(x), Any::Float(y)) => Any::Float(y.mask_where(mask, x)),
        (Any::Int(x), Any::Int(y)) => Any::Int(y.mask_where(mask, x)),
        (Any::Bool(x), Any::Bool(y)) => Any::Bool(y.mask_where(mask, x)),
        _ => return Err(cannot_express("burn's mask_where takes a value tensor of the tensor's own kind".into())),
    };
    finish::<R>(ctx, result)
}
