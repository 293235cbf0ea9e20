//! overflow - candle computes broadcast shapes with no overflow check: element counts wrap.
//!
//! (2^62, 1, 0) + (1, 4, 1) gives a tensor of shape (2^62, 4, 0) (NumPy and
//! torch: an overflow error, the shape's nonzero extents overflow int64), and
//! (1,) broadcast_as (2^32, 2^32) is a view whose elem_count() is 2^64
//! wrapped (0 in a release build). Exit 1 while both succeed.
use candle_core::{DType, Device, Tensor};

fn main() -> candle_core::Result<()> {
    let a = Tensor::zeros((1usize << 62, 1, 0), DType::U8, &Device::Cpu)?;
    let b = Tensor::zeros((1, 4, 1), DType::U8, &Device::Cpu)?;
    let sum = a.broadcast_add(&b);
    println!("(2^62,1,0) + (1,4,1): {:?}", sum.as_ref().map(|t| t.dims().to_vec()));
    let one = Tensor::zeros(1, DType::F32, &Device::Cpu)?;
    let big = one.broadcast_as((1usize << 32, 1usize << 32));
    println!("(1,) broadcast_as (2^32, 2^32): {:?}", big.as_ref().map(|t| (t.dims().to_vec(), t.elem_count())));
    if sum.is_ok() && big.is_ok() {
        println!("BUG: no overflow error");
        std::process::exit(1);
    }
    Ok(())
}
