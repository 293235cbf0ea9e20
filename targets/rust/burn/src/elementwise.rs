//! elementwise.rs - the binary element-wise ops and comparisons, each as the burn method a user calls.
//!
//! Both operands are at the case's rank R (see tensors.rs); burn broadcasts
//! size-1 dims between two tensors of one rank and panics on a mismatch,
//! which the guard turns into a class (errors.rs). Kinds: burn has no op
//! between a Float and an Int tensor (it does not compile): such a case is a
//! dtype error saying so. Two tensors of one kind but different dtypes (f32
//! and f64, i8 and i64) are handed to burn as they are.

use bcast_target::{Failure, Op};
use burn_tensor::kind::Ordered;
use burn_tensor::{Bool, Int, Tensor};

use crate::errors::cannot_express;
use crate::tensors::Any;

/// The ops of this file (the descriptor claims them).
pub const OPS: &[Op] = &[
    Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Remainder, Op::Pow, Op::Maximum, Op::Minimum,
    Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge,
    Op::LogicalAnd, Op::LogicalOr, Op::LogicalXor, Op::BitwiseAnd, Op::BitwiseOr, Op::BitwiseXor,
    Op::Atan2, Op::Hypot, Op::Fmod, Op::LeftShift, Op::RightShift,
];

/// The name of a kind, for messages.
fn kind_name<const R: usize>(t: &Any<R>) -> &'static str {
    match t {
        Any::Float(_) => "Float",
        Any::Int(_) => "Int",
        Any::Bool(_) => "Bool",
    }
}

/// `x op y` for two tensors of one kind: Float and Int have the numeric and
/// ordered ops; powf is Float's pow, powi Int's; atan2, hypot and fmod are
/// Float's only, bitwise_left/right_shift Int's (issue #25's ops that burn
/// has: FINDINGS.md); bool_and/or/xor are Bool's
/// logical ops and the adapter's choice for bitwise ops on bool (burn has no
/// bitwise op on Bool tensors); bitwise_and/or/xor are Int's.
pub fn binary<const R: usize>(op: Op, x: Any<R>, y: Any<R>) -> Result<Any<R>, Failure> {
    let kinds = (kind_name(&x), kind_name(&y));
    let none = || cannot_express(format!("burn has no {op:?} for {} and {} tensors", kinds.0, kinds.1));
    match (x, y) {
        (Any::Float(a), Any::Float(b)) => match op {
            Op::Pow => Ok(Any::Float(a.powf(b))),
            Op::Atan2 => Ok(Any::Float(a.atan2(b))),
            Op::Hypot => Ok(Any::Float(a.hypot(b))),
            Op::Fmod => Ok(Any::Float(a.fmod(b))),
            _ => ordered(op, a, b).map(|r| r.map_or_else(Any::Bool, Any::Float)).ok_or_else(none),
        },
        (Any::Int(a), Any::Int(b)) => match op {
            Op::Pow => Ok(Any::Int(a.powi(b))),
            Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor | Op::LeftShift | Op::RightShift => {
                Ok(Any::Int(bitwise(op, a, b)))
            }
            _ => ordered(op, a, b).map(|r| r.map_or_else(Any::Bool, Any::Int)).ok_or_else(none),
        },
        (Any::Bool(a), Any::Bool(b)) => logical(op, a, b).map(Any::Bool).ok_or_else(none),
        _ => Err(none()),
    }
}

/// The ops of an ordered numeric kind: Ok(tensor) for arithmetic,
/// Err(bool tensor) for comparisons (an Either), None for an op the kind lacks.
fn ordered<const R: usize, K: Ordered>(op: Op, a: Tensor<R, K>, b: Tensor<R, K>) -> Option<Result<Tensor<R, K>, Tensor<R, Bool>>> {
    Some(match op {
        Op::Add => Ok(a.add(b)),
        Op::Sub => Ok(a.sub(b)),
        Op::Mul => Ok(a.mul(b)),
        Op::Div => Ok(a.div(b)),
        Op::Remainder => Ok(a.remainder(b)),
        Op::Maximum => Ok(a.max_pair(b)),
        Op::Minimum => Ok(a.min_pair(b)),
        Op::Eq => Err(a.equal(b)),
        Op::Ne => Err(a.not_equal(b)),
        Op::Lt => Err(a.lower(b)),
        Op::Le => Err(a.lower_equal(b)),
        Op::Gt => Err(a.greater(b)),
        Op::Ge => Err(a.greater_equal(b)),
        _ => return None,
    })
}

/// Int's bitwise ops and shifts (op is one of the five).
fn bitwise<const R: usize>(op: Op, a: Tensor<R, Int>, b: Tensor<R, Int>) -> Tensor<R, Int> {
    match op {
        Op::BitwiseAnd => a.bitwise_and(b),
        Op::BitwiseOr => a.bitwise_or(b),
        Op::LeftShift => a.bitwise_left_shift(b),
        Op::RightShift => a.bitwise_right_shift(b),
        _ => a.bitwise_xor(b),
    }
}

/// Bool's ops: equal/not_equal, and bool_and/or/xor for the logical and
/// bitwise ops; None for the rest (no arithmetic or ordering on Bool).
fn logical<const R: usize>(op: Op, a: Tensor<R, Bool>, b: Tensor<R, Bool>) -> Option<Tensor<R, Bool>> {
    Some(match op {
        Op::Eq => a.equal(b),
        Op::Ne => a.not_equal(b),
        Op::LogicalAnd | Op::BitwiseAnd => a.bool_and(b),
        Op::LogicalOr | Op::BitwiseOr => a.bool_or(b),
        Op::LogicalXor | Op::BitwiseXor => a.bool_xor(b),
        _ => return None,
    })
}

