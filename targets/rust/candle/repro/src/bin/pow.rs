//! pow - candle's pow is exp(y * ln x): NaN for a negative base, rounding elsewhere, a panic on integers.
//!
//! tensor.rs: `pub fn pow(&self, rhs) { rhs.mul(&self.log()?)?.exp() }`.
//! (-2)^2 is NaN (torch: 4), 3^3 in f32 is not exactly 27, and on u8 the
//! log panics with "not yet implemented: no unary function for u8" instead
//! of returning an error. Exit 1 while (-2)^2 is not 4.
use candle_core::{Device, Tensor};

fn main() -> candle_core::Result<()> {
    let x = Tensor::new(&[-2f32, 3.], &Device::Cpu)?;
    let y = Tensor::new(&[2f32, 3.], &Device::Cpu)?;
    let p = x.pow(&y)?.to_vec1::<f32>()?;
    println!("[-2, 3] ** [2, 3] = {p:?} (torch: [4.0, 27.0])");
    let xi = Tensor::new(&[2u8], &Device::Cpu)?;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| xi.pow(&xi).map(|t| t.to_vec1::<u8>())));
    match r {
        Ok(v) => println!("u8: 2 ** 2 = {v:?}"),
        Err(_) => println!("u8: 2 ** 2 panicked (the panic message is above)"),
    }
    if p[0] != 4.0 {
        println!("BUG: (-2) ** 2 = {}", p[0]);
        std::process::exit(1);
    }
    Ok(())
}
