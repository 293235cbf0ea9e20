//! lib.rs - a minimal bcast target in Rust: add, sub, mul on float32, any strides, value mode.
use bcast_target::{export_target, op_bits, run_guarded, BctCall, BctTarget, Call, Dtype, Failure, Op, Status};
use std::ffi::c_int;

/// The broadcast of x's and y's shapes (B1-B3), aligned at the last dim, with
/// each operand's stride along each result dim (0 where it is stretched).
fn broadcast(call: &Call) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>), Failure> {
    let (x, y) = (call.arg(0), call.arg(1));
    let rank = x.rank().max(y.rank());
    let (mut shape, mut xs, mut ys) = (vec![0; rank], vec![0; rank], vec![0; rank]);
    for d in 0..rank {
        let (xd, yd) = ((d + x.rank()).checked_sub(rank), (d + y.rank()).checked_sub(rank));
        let xe = xd.map_or(1, |i| x.shape()[i]);
        let ye = yd.map_or(1, |i| y.shape()[i]);
        if xe != ye && xe != 1 && ye != 1 {
            let msg = format!("dimension {d}: {xe} does not broadcast with {ye}");
            return Err(Failure::new(Status::NotBroadcastable, msg));
        }
        shape[d] = if xe == 1 { ye } else { xe }; // a 1 stretches, even to 0
        xs[d] = if xe == 1 { 0 } else { x.strides()[xd.unwrap()] };
        ys[d] = if ye == 1 { 0 } else { y.strides()[yd.unwrap()] };
    }
    Ok((shape, xs, ys))
}

/// One case: the result's shape, the output from the runner, then an odometer
/// over the result's index, last dim fastest, moving both operands' offsets.
fn add_sub_mul(call: &Call) -> Result<(), Failure> {
    let (shape, xs, ys) = broadcast(call)?;
    // like NumPy, size the nonzero extents: a 0 elsewhere hides no overflow
    shape.iter().try_fold(4i64, |bytes, &e| bytes.checked_mul(e.max(1)))
        .ok_or_else(|| Failure::new(Status::Overflow, "result too large"))?;
    let out = call.alloc_output::<f32>(&shape)
        .ok_or_else(|| Failure::new(Status::Other, "output refused"))?;
    let (xp, yp) = (call.arg(0).element_ptr::<f32>(), call.arg(1).element_ptr::<f32>());
    let (mut xo, mut yo, mut idx) = (0isize, 0isize, vec![0i64; shape.len()]);
    for slot in out.iter_mut() {
        // SAFETY: xo and yo stay on elements of the operands' views.
        let (a, b) = unsafe { (*xp.offset(xo), *yp.offset(yo)) };
        *slot = match call.op() { Some(Op::Add) => a + b, Some(Op::Sub) => a - b, _ => a * b };
        for d in (0..shape.len()).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                (xo, yo) = (xo + xs[d] as isize, yo + ys[d] as isize);
                break;
            }
            idx[d] = 0;
            xo -= (xs[d] * (shape[d] - 1)) as isize;
            yo -= (ys[d] * (shape[d] - 1)) as isize;
        }
    }
    Ok(())
}

/// `run`: no panic crosses the C ABI; a panic would be class "other".
unsafe extern "C" fn run(call: *const BctCall) -> c_int {
    run_guarded(call, |_, _| Status::Other, add_sub_mul)
}

static TARGET: BctTarget = BctTarget {
    abi_version: bcast_target::BCT_ABI_VERSION,
    name: c"rust-example".as_ptr(),
    version: c"1.0".as_ptr(),
    profile: bcast_target::Profile::Numpy as c_int,
    ops: op_bits(&[Op::Add, Op::Sub, Op::Mul]),
    dtypes: 1 << Dtype::F32 as u32,
    max_rank: 16,
    flags: bcast_target::BCT_CAP_STRIDED,
    init: None,
    run: Some(run),
    grad_ops: 0,
};

export_target!(TARGET);
