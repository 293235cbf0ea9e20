//! views.rs - expand and broadcast_to: burn's `Tensor::expand`, its one broadcast-to-a-shape method.
//!
//! expand takes either a `Shape` (usize extents) or an array `[i64; D2]`
//! whose -1 entries keep the tensor's extent (burn's documented convention,
//! torch's too). The adapter's choice, in FINDINGS.md:
//!   - BCT_EXPAND (torch's expand, -1 allowed): the `[i64; D2]` form, always;
//!   - BCT_BROADCAST_TO (NumPy's, no -1): the `Shape` form when every entry is
//!     >= 0; a negative entry cannot be written as a Shape, so such a target
//!     goes through the `[i64; D2]` form, where burn decides what -1 means.
//! The operand is loaded at its own rank; the target rank is the second
//! const generic.

use bcast_target::{Failure, Op};
use burn_tensor::kind::Basic;
use burn_tensor::{Shape, Tensor};

use crate::finish::finish;
use crate::rank::with_rank;
use crate::tensors::{load, rank_failure, Any, Ctx};

/// `x.expand(target)` with x of rank D and a target of rank T, in the form
/// the op calls for (see the file's comment).
fn expand_kind<const D: usize, const T: usize, K: Basic>(op: Op, x: Tensor<D, K>, target: &[i64]) -> Tensor<T, K> {
    let array: [i64; T] = target.try_into().expect("target rank is T");
    if op == Op::BroadcastTo && target.iter().all(|&e| e >= 0) {
        let dims: [usize; T] = array.map(|e| e as usize);
        x.expand::<T, Shape>(Shape::from(dims))
    } else {
        x.expand::<T, [i64; T]>(array)
    }
}

/// expand at operand rank D and target rank T, any kind.
fn expand_at<const D: usize, const T: usize>(op: Op, x: Any<D>, target: &[i64]) -> Any<T> {
    match x {
        Any::Float(t) => Any::Float(expand_kind::<D, T, _>(op, t, target)),
        Any::Int(t) => Any::Int(expand_kind::<D, T, _>(op, t, target)),
        Any::Bool(t) => Any::Bool(expand_kind::<D, T, _>(op, t, target)),
    }
}

/// Runs expand or broadcast_to on args[0] with the call's target shape.
pub fn run_view(ctx: &Ctx, op: Op) -> Result<(), Failure> {
    let x = ctx.call.arg(0);
    let target = ctx.call.target_shape();
    with_rank!(x.rank(), D => {
        let loaded = load::<D>(ctx, 0)?;
        with_rank!(target.len(), T => finish::<T>(ctx, expand_at::<D, T>(op, loaded, target)),
                   Err(rank_failure(target.len())))
    }, Err(rank_failure(x.rank())))
}
