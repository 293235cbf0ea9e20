//! operand.rs - a runner operand as a candle Tensor, the way a candle user gets data into candle.
//!
//! candle has no constructor over external strided memory: `Tensor::from_vec`
//! takes an owned, C-ordered Vec and a shape. So the adapter copies each view
//! into a Vec in C order, with one exception: a dimension of stride 0 (a
//! broadcast view) is not copied out at its extent; its one slice is copied,
//! and candle's own `broadcast_as` makes the stride-0 layout. The library then
//! sees its own strided layouts (stride 0, a start offset of 0) and the
//! layouts suite tests those; negative and gapped strides reach candle as
//! contiguous copies (FINDINGS.md, "Strided inputs").
//!
//! Dtypes: candle has u8, i16, i32, i64, f32, f64 among bcast's (no i8, no
//! bool). A bool operand is handed over as u8 0/1, candle's mask type (its
//! comparisons return u8 and `where_cond` takes a u8 mask): an adapter
//! decision, in FINDINGS.md.

use bcast_target::{gather, Dtype, Failure, Operand, Status};
use candle_core::{DType, Device, Tensor};

/// The candle dtype an operand of bcast dtype `d` is handed over as, or a
/// dtype failure naming what candle lacks.
pub fn candle_dtype(d: Option<Dtype>) -> Result<DType, Failure> {
    match d {
        Some(Dtype::Bool) | Some(Dtype::U8) => Ok(DType::U8),
        Some(Dtype::I16) => Ok(DType::I16),
        Some(Dtype::I32) => Ok(DType::I32),
        Some(Dtype::I64) => Ok(DType::I64),
        Some(Dtype::F32) => Ok(DType::F32),
        Some(Dtype::F64) => Ok(DType::F64),
        Some(Dtype::I8) => Err(Failure::new(Status::Dtype, "candle has no i8 dtype (DType has u8, u32, i16, i32, i64, bf16, f16, f32, f64, f8...)")),
        other => Err(Failure::new(Status::Other, format!("operand dtype {other:?} is not an array dtype"))),
    }
}

/// The extents as candle's usize dims (extents of operands are never negative).
pub fn dims(shape: &[i64]) -> Vec<usize> {
    shape.iter().map(|&e| e as usize).collect()
}

/// A candle tensor of `a`'s values in C order with shape `base`, read as
/// elements of T (a bool operand is read as its u8 bytes).
fn from_view<T: candle_core::WithDType>(a: &Operand, base: &[i64]) -> candle_core::Result<Tensor> {
    // SAFETY: data + offset is element (0,...,0) of the runner's view; T has the dtype's size.
    let origin = unsafe { (a.data() as *const T).offset(a.offset() as isize) };
    // SAFETY: `base` is the view's shape with stride-0 dims reduced to 1, inside the view.
    let values = unsafe { gather(origin, base, a.strides()) };
    Tensor::from_vec(values, dims(base), &Device::Cpu)
}

/// Operand `a` as a candle tensor of its shape: the copy described at the
/// top of this file, then `broadcast_as` for its stride-0 dims.
pub fn to_tensor(a: &Operand) -> Result<Tensor, Failure> {
    let dtype = candle_dtype(a.dtype())?;
    /* a stride-0 dim of extent > 1 is copied as one slice; candle stretches it */
    let base: Vec<i64> =
        a.shape().iter().zip(a.strides()).map(|(&e, &s)| if s == 0 && e > 1 { 1 } else { e }).collect();
    let t = match dtype {
        DType::U8 => from_view::<u8>(a, &base),
        DType::I16 => from_view::<i16>(a, &base),
        DType::I32 => from_view::<i32>(a, &base),
        DType::I64 => from_view::<i64>(a, &base),
        DType::F32 => from_view::<f32>(a, &base),
        _ => from_view::<f64>(a, &base),
    }
    .map_err(crate::errors::from_candle)?;
    if base.as_slice() == a.shape() {
        return Ok(t);
    }
    t.broadcast_as(dims(a.shape())).map_err(crate::errors::from_candle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bcast_target::{BctArray, BctCall, Call};

    /// to_tensor of one f32 operand over `data` with this view.
    fn tensor_of(data: &mut [f32], shape: &[i64], strides: &[i64], offset: i64) -> Tensor {
        let arr = BctArray {
            dtype: Dtype::F32 as i32,
            rank: shape.len() as i32,
            shape: shape.as_ptr(),
            strides: strides.as_ptr(),
            offset,
            data: data.as_mut_ptr() as *mut std::ffi::c_void,
        };
        let raw = BctCall {
            op: 0, mode: 0, profile: 1, nargs: 1, args: &arr, axis: 0, target_rank: 0,
            target_shape: std::ptr::null(), alloc_output: None, ctx: std::ptr::null_mut(),
            message: std::ptr::null_mut(), message_cap: 0, alloc_grad: None, weak_args: 0, grad_form: 0,
        };
        let call = unsafe { Call::from_raw(&raw) }.unwrap();
        to_tensor(&call.arg(0)).unwrap()
    }

    #[test]
    fn stride0_dims_become_candles_own_broadcast_layout() {
        let t = tensor_of(&mut [1., 2., 3.], &[2, 3], &[0, 1], 0);
        assert_eq!(t.dims(), &[2, 3]);
        assert_eq!(t.stride(), &[0, 1]);
        assert_eq!(t.flatten_all().unwrap().to_vec1::<f32>().unwrap(), vec![1., 2., 3., 1., 2., 3.]);
    }

    #[test]
    fn negative_and_offset_views_are_copied_in_c_order() {
        let t = tensor_of(&mut [9., 1., 2., 3.], &[3], &[-1], 3);
        assert!(t.is_contiguous());
        assert_eq!(t.to_vec1::<f32>().unwrap(), vec![3., 2., 1.]);
    }

    #[test]
    fn bool_is_handed_over_as_u8_and_i8_is_refused() {
        assert_eq!(candle_dtype(Some(Dtype::Bool)).unwrap(), DType::U8);
        assert_eq!(candle_dtype(Some(Dtype::I8)).unwrap_err().status, Status::Dtype);
    }
}
