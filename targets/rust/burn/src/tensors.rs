//! tensors.rs - a case's operands as burn tensors, and burn's results back into the runner's buffers.
//!
//! An operand becomes `Tensor::<D, K>::from_data(TensorData::new(values,
//! shape), (&device, dtype))` at its own rank D, with the kind its dtype has in
//! burn (f32/f64: Float; i8/u8/i16/i32/i64: Int; bool: Bool) and that dtype
//! kept. The values are a C-order copy of the view (burn takes owned,
//! contiguous data; the copy is the adapter's, so layouts test nothing of
//! burn). A lower-rank operand is then `unsqueeze::<R>()`d to the case's rank
//! R: burn's own left-padding with 1s, which a burn user has to write because
//! binary ops take two tensors of one rank.

use std::cell::RefCell;

use bcast_target::{Call, Dtype, Failure, Operand, Status};
use burn_tensor::{Bool, DType, Device, Float, Gradients, Int, Tensor, TensorData};

use crate::errors::refused;
use crate::rank::with_rank;

/// One operand or result at rank R, of any of burn's three kinds.
pub enum Any<const R: usize> {
    Float(Tensor<R, Float>),
    Int(Tensor<R, Int>),
    Bool(Tensor<R, Bool>),
}

/// The operand's values as burn's TensorData (C order, its own dtype and shape).
pub fn tensor_data(a: &Operand) -> Result<TensorData, Failure> {
    let shape: Vec<usize> = a.shape().iter().map(|&e| e as usize).collect();
    Ok(match a.dtype() {
        Some(Dtype::F32) => TensorData::new(a.to_vec::<f32>(), shape),
        Some(Dtype::F64) => TensorData::new(a.to_vec::<f64>(), shape),
        Some(Dtype::I8) => TensorData::new(a.to_vec::<i8>(), shape),
        Some(Dtype::U8) => TensorData::new(a.to_vec::<u8>(), shape),
        Some(Dtype::I16) => TensorData::new(a.to_vec::<i16>(), shape),
        Some(Dtype::I32) => TensorData::new(a.to_vec::<i32>(), shape),
        Some(Dtype::I64) => TensorData::new(a.to_vec::<i64>(), shape),
        Some(Dtype::Bool) => TensorData::new(a.to_vec::<bool>(), shape),
        _ => return Err(Failure::new(Status::Dtype, "operand without a dtype")),
    })
}

/// A gradient's reader: the leaf's gradient after backward, as data.
pub type Leaf = (usize, Box<dyn Fn(&Gradients) -> Option<TensorData>>);

/// What loading needs: the device, whether this is a grad case, and (in
/// grad mode) the leaves created so far, with their argument index.
pub struct Ctx<'c> {
    pub call: &'c Call<'c>,
    pub device: Device,
    pub grad: bool,
    pub leaves: RefCell<Vec<Leaf>>,
}

/// Argument `index` as a burn tensor at its own rank D, unsqueezed to rank R
/// (R >= D; the caller picks R as the case's highest operand rank). In grad
/// mode a Float operand is a leaf, `require_grad()` before the unsqueeze, so
/// its gradient has the operand's own rank and shape (the incoming
/// gradient, the last argument, is a constant).
fn load_at<const D: usize, const R: usize>(ctx: &Ctx, index: usize) -> Result<Any<R>, Failure> {
    let data = tensor_data(&ctx.call.arg(index))?;
    let dtype = data.dtype();
    let options = (&ctx.device, dtype);
    Ok(match dtype {
        DType::F32 | DType::F64 => {
            let mut t = Tensor::<D, Float>::from_data(data, options);
            if ctx.grad && index + 1 < ctx.call.nargs() {
                t = t.require_grad();
                let leaf = t.clone();
                ctx.leaves.borrow_mut().push((index, Box::new(move |g| leaf.grad(g).map(|t| t.into_data()))));
            }
            Any::Float(t.unsqueeze::<R>())
        }
        DType::Bool(_) => Any::Bool(Tensor::<D, Bool>::from_data(data, options).unsqueeze::<R>()),
        _ => Any::Int(Tensor::<D, Int>::from_data(data, options).unsqueeze::<R>()),
    })
}

/// Argument `index` at rank R (see load_at).
pub fn load<const R: usize>(ctx: &Ctx, index: usize) -> Result<Any<R>, Failure> {
    let rank = ctx.call.arg(index).rank();
    with_rank!(rank, D => load_at::<D, R>(ctx, index), Err(rank_failure(rank)))
}

/// The refusal for a rank the adapter has not instantiated (the runner skips
/// those cases unless --probe-limits runs them).
pub fn rank_failure(rank: usize) -> Failure {
    Failure::new(
        Status::RankLimit,
        format!("rank {rank}: the adapter instantiates burn's Tensor<D> for D <= {}", crate::rank::MAX_RANK),
    )
}

/// burn's TensorData in C order as the bytes of bcast dtype `dtype`, or None
/// when burn's dtype has no bcast counterpart.
fn data_bytes(data: &TensorData) -> Option<(Dtype, Vec<u8>)> {
    let dtype = match data.dtype() {
        DType::F32 => Dtype::F32,
        DType::F64 => Dtype::F64,
        DType::I8 => Dtype::I8,
        DType::U8 => Dtype::U8,
        DType::I16 => Dtype::I16,
        DType::I32 => Dtype::I32,
        DType::I64 => Dtype::I64,
        DType::Bool(_) => {
            let values = data.clone().try_into_vec::<bool>().ok()?;
            return Some((Dtype::Bool, values.into_iter().map(u8::from).collect()));
        }
        _ => return None,
    };
    Some((dtype, data.as_bytes().to_vec()))
}

/// Copies a result into the runner's buffer: `alloc` gets burn's dtype and
/// shape (no cast, no reshape) and returns the buffer or NULL.
pub fn deliver(data: TensorData, what: &str, alloc: impl FnOnce(Dtype, &[i64]) -> *mut u8) -> Result<(), Failure> {
    let shape: Vec<i64> = data.shape().iter().map(|&e| e as i64).collect();
    let Some((dtype, bytes)) = data_bytes(&data) else {
        return Err(Failure::new(Status::Dtype, format!("burn returned {what} of dtype {:?}", data.dtype())));
    };
    let ptr = alloc(dtype, &shape);
    if ptr.is_null() {
        return Err(refused(what));
    }
    // SAFETY: the runner's buffer holds count(shape) elements of `dtype`,
    // which is bytes.len() bytes (burn's data is dense and of that dtype).
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len()) };
    Ok(())
}
