//! maximum_nan - candle's maximum/minimum drop a NaN in the right operand (torch propagates it).
//!
//! maximum([nan, 0], [0, nan]) is [nan, 0] in candle 0.11.1, and minimum
//! the same: a NaN on the left survives, one on the right is dropped;
//! torch.maximum and numpy.maximum give [nan, nan]. Exit 1 while a NaN is dropped.
use candle_core::{Device, Tensor};

fn main() -> candle_core::Result<()> {
    let x = Tensor::new(&[f32::NAN, 0.], &Device::Cpu)?;
    let y = Tensor::new(&[0f32, f32::NAN], &Device::Cpu)?;
    let mx = x.maximum(&y)?.to_vec1::<f32>()?;
    let mn = x.minimum(&y)?.to_vec1::<f32>()?;
    println!("maximum([nan, 0], [0, nan]) = {mx:?}; minimum = {mn:?} (torch: [nan, nan] both)");
    if mx.iter().chain(&mn).any(|v| !v.is_nan()) {
        println!("BUG: a NaN was dropped");
        std::process::exit(1);
    }
    Ok(())
}
