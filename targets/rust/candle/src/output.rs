//! output.rs - candle's result (or gradient) copied into the runner's buffer, with candle's dtype and shape.
//!
//! The result's shape and dtype are candle's own (its shape inference is what
//! is tested): the buffer is requested with them before anything is
//! materialised, so a result the runner refuses (too large) costs nothing.
//! candle's u8 comes back as bcast's u8, also for a comparison (candle has no
//! bool).

use bcast_target::{Call, Element, Failure, Status};
use candle_core::{DType, Tensor};

use crate::errors::from_candle;

/// Where a tensor goes: the result, or the gradient of input `k`.
#[derive(Clone, Copy)]
pub enum Dest {
    Result,
    Grad(usize),
}

/// Copies `t` (any layout) into the buffer of `dest`, as elements of T.
fn deliver_as<T: Element + candle_core::WithDType>(call: &Call, t: &Tensor, dest: Dest) -> Result<(), Failure> {
    let shape: Vec<i64> = t.dims().iter().map(|&e| e as i64).collect();
    let buf = match dest {
        Dest::Result => call.alloc_output::<T>(&shape),
        Dest::Grad(k) => call.alloc_grad::<T>(k, &shape),
    };
    let Some(buf) = buf else {
        return Err(Failure::new(Status::Other, format!("the runner refused a buffer of shape {:?} ({:?})", t.dims(), t.dtype())));
    };
    if buf.is_empty() {
        return Ok(());
    }
    let values = t.flatten_all().and_then(|f| f.to_vec1::<T>()).map_err(from_candle)?;
    buf.copy_from_slice(&values);
    Ok(())
}

/// Delivers `t` to `dest` with the bcast dtype of candle's dtype; a dtype
/// bcast has no name for (u32, f16, ...) is an error saying so.
pub fn deliver(call: &Call, t: &Tensor, dest: Dest) -> Result<(), Failure> {
    match t.dtype() {
        DType::U8 => deliver_as::<u8>(call, t, dest),
        DType::I16 => deliver_as::<i16>(call, t, dest),
        DType::I32 => deliver_as::<i32>(call, t, dest),
        DType::I64 => deliver_as::<i64>(call, t, dest),
        DType::F32 => deliver_as::<f32>(call, t, dest),
        DType::F64 => deliver_as::<f64>(call, t, dest),
        other => Err(Failure::new(Status::Other, format!("candle returned {other:?}, which has no bcast dtype"))),
    }
}

