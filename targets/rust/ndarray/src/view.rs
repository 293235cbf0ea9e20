//! view.rs - ndarray's own views over the runner's strided memory, built with ndarray's safe constructors.
//!
//! ndarray's slice constructors (`ArrayView::from_shape`) take non-negative
//! strides over a slice that starts at the view's lowest address; a negative
//! stride is what ndarray's `invert_axis` makes (it is how ndarray itself
//! represents `s![..;-1]`). So each operand becomes: the slice of storage
//! from its lowest to its highest addressed element, `from_shape` with the
//! absolute strides, then `invert_axis` on each axis whose stride is
//! negative. Stride 0 is passed as 0, as ndarray's own `broadcast` does.
//! Whatever those constructors refuse (an overlapping mutable view, an
//! overflowing size) is ndarray's answer, returned as its `ShapeError`.

use bcast_target::{Element, Operand};
use ndarray::{ArrayViewD, ArrayViewMutD, Axis, IxDyn, ShapeBuilder, ShapeError};

/// The operand's extents and absolute strides as ndarray's usize, the start of
/// its lowest-address element, and the length of its addressed span.
fn layout(a: &Operand) -> (Vec<usize>, Vec<usize>, isize, usize) {
    let shape: Vec<usize> = a.shape().iter().map(|&e| e as usize).collect();
    let strides: Vec<usize> = a.strides().iter().map(|&s| s.unsigned_abs() as usize).collect();
    let (lo, hi) = a.span().unwrap_or((a.offset(), a.offset() - 1));
    (shape, strides, lo as isize, (hi - lo + 1) as usize)
}

/// Flips the axes whose runner stride is negative (ndarray's invert_axis).
fn invert_negative<V>(a: &Operand, view: &mut V, invert: impl Fn(&mut V, Axis)) {
    for (d, &s) in a.strides().iter().enumerate() {
        if s < 0 {
            invert(view, Axis(d));
        }
    }
}

/// A read-only ndarray view of operand `a` (element type T = its dtype).
pub fn view<'a, T: Element>(a: &Operand<'a>) -> Result<ArrayViewD<'a, T>, ShapeError> {
    let (shape, strides, lo, len) = layout(a);
    if a.is_empty() {
        return ArrayViewD::from_shape(IxDyn(&shape), &[]);
    }
    let base = (a.data() as *const T).wrapping_offset(lo);
    // SAFETY: the runner provides every element from lo to hi, valid for the call.
    let storage: &'a [T] = unsafe { std::slice::from_raw_parts(base, len) };
    let mut v = ArrayViewD::from_shape(IxDyn(&shape).strides(IxDyn(&strides)), storage)?;
    invert_negative(a, &mut v, |v, ax| v.invert_axis(ax));
    Ok(v)
}

/// A mutable ndarray view of operand `a` (in-place self). ndarray refuses a
/// mutable view whose elements overlap (a stride 0 along an extent > 1).
pub fn view_mut<'a, T: Element>(a: &Operand<'a>) -> Result<ArrayViewMutD<'a, T>, ShapeError> {
    let (shape, strides, lo, len) = layout(a);
    if a.is_empty() {
        return ArrayViewMutD::from_shape(IxDyn(&shape), &mut []);
    }
    let base = (a.data() as *mut T).wrapping_offset(lo);
    // SAFETY: self is writable and not aliased by any other operand the runner passes.
    let storage: &'a mut [T] = unsafe { std::slice::from_raw_parts_mut(base, len) };
    let mut v = ArrayViewMutD::from_shape(IxDyn(&shape).strides(IxDyn(&strides)), storage)?;
    invert_negative(a, &mut v, |v, ax| v.invert_axis(ax));
    Ok(v)
}

#[cfg(test)]
mod tests {
    //! Each view against the elements the runner's layout rule addresses:
    //! data[offset + sum(i * stride)].
    use super::*;
    use bcast_target::{BctArray, Call, Dtype};

    /// The operand (f32, shape, strides, offset) over `data`, checked through a call.
    fn with_operand(data: &mut [f32], shape: &[i64], strides: &[i64], offset: i64, f: impl Fn(Operand)) {
        let arg = BctArray {
            dtype: Dtype::F32 as i32, rank: shape.len() as i32, shape: shape.as_ptr(),
            strides: strides.as_ptr(), offset, data: data.as_mut_ptr().cast(),
        };
        let raw = bcast_target::BctCall {
            op: 0, mode: 0, profile: 0, nargs: 1, args: &arg, axis: 0, target_rank: 0,
            target_shape: std::ptr::null(), alloc_output: None, ctx: std::ptr::null_mut(),
            message: std::ptr::null_mut(), message_cap: 0, alloc_grad: None, weak_args: 0, grad_form: 0,
        };
        f(unsafe { Call::from_raw(&raw) }.unwrap().arg(0));
    }

    #[test]
    fn negative_strides_address_the_runners_elements() {
        let mut data: Vec<f32> = (0..12).map(|i| i as f32).collect();
        with_operand(&mut data, &[2, 3], &[-6, -1], 11, |a| {
            let v = view::<f32>(&a).unwrap();
            assert_eq!(v.iter().copied().collect::<Vec<_>>(), a.to_vec::<f32>());
            assert_eq!(v[[0, 0]], 11.0);
            assert_eq!(v.strides(), &[-6, -1]);
        });
    }

    #[test]
    fn zero_stride_is_ndarrays_broadcast_stride() {
        let mut data = vec![1.0f32, 2.0, 3.0];
        with_operand(&mut data, &[4, 3], &[0, 1], 0, |a| {
            let v = view::<f32>(&a).unwrap();
            assert_eq!(v.strides(), &[0, 1]);
            assert_eq!(v.index_axis(ndarray::Axis(0), 3).iter().copied().collect::<Vec<_>>(), vec![1.0, 2.0, 3.0]);
        });
    }

    #[test]
    fn a_mutable_view_with_overlapping_elements_is_refused_by_ndarray() {
        let mut data = vec![1.0f32, 2.0, 3.0];
        with_operand(&mut data, &[2, 3], &[0, 1], 0, |a| {
            let e = view_mut::<f32>(&a).unwrap_err();
            assert_eq!(e.kind(), ndarray::ErrorKind::Unsupported);
        });
    }

    #[test]
    fn an_empty_operand_is_an_empty_view_of_its_shape() {
        let mut data: Vec<f32> = vec![];
        with_operand(&mut data, &[0, 3], &[3, 1], 0, |a| {
            assert_eq!(view::<f32>(&a).unwrap().shape(), &[0, 3]);
        });
    }
}
