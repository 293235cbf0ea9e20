//! element.rs - the Rust type of each bcast dtype (bool is one byte holding 0 or 1).

use crate::abi::Dtype;

/// A Rust type whose values are laid out as one bcast dtype's elements.
///
/// # Safety
/// `DTYPE` must name the dtype whose storage this type reads and writes
/// bit for bit (size, alignment, native endianness).
pub unsafe trait Element: Copy + 'static {
    /// The dtype of this type.
    const DTYPE: Dtype;
}

// SAFETY: each type is the C type the header's comment names for the dtype.
unsafe impl Element for bool {
    const DTYPE: Dtype = Dtype::Bool;
}
unsafe impl Element for i8 {
    const DTYPE: Dtype = Dtype::I8;
}
unsafe impl Element for u8 {
    const DTYPE: Dtype = Dtype::U8;
}
unsafe impl Element for i16 {
    const DTYPE: Dtype = Dtype::I16;
}
unsafe impl Element for i32 {
    const DTYPE: Dtype = Dtype::I32;
}
unsafe impl Element for i64 {
    const DTYPE: Dtype = Dtype::I64;
}
unsafe impl Element for f32 {
    const DTYPE: Dtype = Dtype::F32;
}
unsafe impl Element for f64 {
    const DTYPE: Dtype = Dtype::F64;
}

/// The size in bytes of one element of `dtype` (0 for `Dtype::None`).
pub fn dtype_size(dtype: Dtype) -> usize {
    match dtype {
        Dtype::Bool | Dtype::I8 | Dtype::U8 => 1,
        Dtype::I16 => 2,
        Dtype::I32 | Dtype::F32 => 4,
        Dtype::I64 | Dtype::F64 => 8,
        Dtype::None => 0,
    }
}
