//! matmul.rs - x @ y as burn's `Tensor::matmul`, batch dims broadcast by burn.
//!
//! Both operands are unsqueezed to the higher rank (burn's matmul takes two
//! tensors of one rank D). burn has no vector matmul: a 1-d operand stays a
//! 1-d tensor (both 1-d: burn's rank check refuses it) or becomes a row
//! (1, k) by the unsqueeze, as a burn user's would, and the result keeps that
//! dim. Float and Int have matmul (Numeric); Bool has none.

use bcast_target::Failure;

use crate::errors::cannot_express;
use crate::finish::finish;
use crate::tensors::{load, Any, Ctx};

/// matmul at rank R.
pub fn run_matmul<const R: usize>(ctx: &Ctx) -> Result<(), Failure> {
    let result = match (load::<R>(ctx, 0)?, load::<R>(ctx, 1)?) {
        (Any::Float(x), Any::Float(y)) => Any::Float(x.matmul(y)),
        (Any::Int(x), Any::Int(y)) => Any::Int(x.matmul(y)),
        _ => return Err(cannot_express("burn's matmul takes two Float or two Int tensors".into())),
    };
    finish::<R>(ctx, result)
}
