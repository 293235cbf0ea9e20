//! ops.rs - each bcast op as the candle call a candle user writes for it.
//!
//! candle's plain binary ops (`add`, `mul`, ..., `eq`) require operands of
//! one shape ("shape mismatch in add"): its documented broadcasting ops are
//! the `broadcast_*` family, so those are the user's way to write a
//! broadcasting `x + y`, and the ones tested. `where` is `where_cond`, which
//! candle has in one form only, same-shape; `matmul` is `broadcast_matmul`,
//! candle's "matrix-multiplication with broadcasting support"; `clip` is
//! `clamp(&lo, &hi)`, candle's only clamp with tensor bounds (`maximum` then
//! `minimum`, same-shape like `where_cond`); `broadcast_to`
//! is `broadcast_as` and `expand` is `expand` (its alias); `broadcast_shapes`
//! folds `Shape::broadcast_shape_binary_op` over the shapes. Nothing here
//! checks a shape or a dtype: candle does.

use bcast_target::{Failure, Op, Status};
use candle_core::{Shape, Tensor};

use crate::errors::from_candle;

/// The element-wise ops candle broadcasts, as its `broadcast_*` methods.
fn binary(op: Op, x: &Tensor, y: &Tensor) -> Option<candle_core::Result<Tensor>> {
    Some(match op {
        Op::Add => x.broadcast_add(y),
        Op::Sub => x.broadcast_sub(y),
        Op::Mul => x.broadcast_mul(y),
        Op::Div => x.broadcast_div(y),
        Op::Pow => x.broadcast_pow(y),
        Op::Maximum => x.broadcast_maximum(y),
        Op::Minimum => x.broadcast_minimum(y),
        Op::Eq => x.broadcast_eq(y),
        Op::Ne => x.broadcast_ne(y),
        Op::Lt => x.broadcast_lt(y),
        Op::Le => x.broadcast_le(y),
        Op::Gt => x.broadcast_gt(y),
        Op::Ge => x.broadcast_ge(y),
        Op::Matmul => x.broadcast_matmul(y),
        _ => return None,
    })
}

/// Runs `op` on the candle tensors `args` (the op's inputs, in the op's
/// order) and returns candle's result; `target` is broadcast_to's and
/// expand's shape. Shape-only ops are in `broadcast_shapes` below.
pub fn forward(op: Op, args: &[Tensor], target: &[i64]) -> Result<Tensor, Failure> {
    let r = match (op, args) {
        (Op::Where, [c, x, y]) => c.where_cond(x, y),
        /* clamp(min, max) = maximum(min)?.minimum(max), same-shape with tensor bounds */
        (Op::Clip, [x, lo, hi]) => x.clamp(lo, hi),
        /* candle's shapes are usize: an i64 extent is converted as Rust's `as` does (-1 -> 2^64-1) */
        (Op::BroadcastTo, [x]) => x.broadcast_as(target.iter().map(|&e| e as usize).collect::<Vec<_>>()),
        (Op::Expand, [x]) => x.expand(target.iter().map(|&e| e as usize).collect::<Vec<_>>()),
        (_, [x, y]) => match binary(op, x, y) {
            Some(r) => r,
            None => return Err(unsupported(op)),
        },
        _ => return Err(unsupported(op)),
    };
    r.map_err(from_candle)
}

/// The failure for an op the adapter does not claim (only reached with a
/// call the descriptor excludes).
fn unsupported(op: Op) -> Failure {
    Failure::new(Status::Other, format!("the candle adapter has no {} with these operands", op.c_name()))
}

/// numpy.broadcast_shapes(*shapes) as a candle user folds it:
/// `Shape::broadcast_shape_binary_op` pairwise from the 0-d shape. Extents
/// are converted to usize as Rust's `as` does.
pub fn broadcast_shapes(shapes: &[&[i64]]) -> Result<Vec<i64>, Failure> {
    let mut acc = Shape::from(Vec::<usize>::new());
    for s in shapes {
        let next = Shape::from(s.iter().map(|&e| e as usize).collect::<Vec<_>>());
        acc = acc.broadcast_shape_binary_op(&next, "broadcast_shapes").map_err(from_candle)?;
    }
    Ok(acc.dims().iter().map(|&e| e as i64).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcast_shapes_folds_candles_binary_rule() {
        assert_eq!(broadcast_shapes(&[&[2, 1], &[3], &[]]).unwrap(), vec![2, 3]);
        assert_eq!(broadcast_shapes(&[]).unwrap(), Vec::<i64>::new());
        assert_eq!(broadcast_shapes(&[&[2], &[3]]).unwrap_err().status, Status::NotBroadcastable);
    }

    #[test]
    fn where_is_candles_same_shape_where_cond() {
        let dev = candle_core::Device::Cpu;
        let c = Tensor::new(&[1u8, 0], &dev).unwrap();
        let x = Tensor::new(&[1f32, 2.], &dev).unwrap();
        let y = Tensor::new(&[5f32], &dev).unwrap();
        assert_eq!(forward(Op::Where, &[c.clone(), x.clone(), x.clone()], &[]).unwrap().dims(), &[2]);
        assert_eq!(forward(Op::Where, &[c, x, y], &[]).unwrap_err().status, Status::NotBroadcastable);
    }
}
