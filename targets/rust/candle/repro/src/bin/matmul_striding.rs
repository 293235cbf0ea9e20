//! matmul_striding - candle's CPU matmul refuses contiguous batched operands with size-1 dims.
//!
//! (3,1,1,1,3) @ (3,1,1,3,1), both fresh contiguous tensors, fails with
//! MatMulUnexpectedStriding "non-contiguous lhs" (torch: a (3,1,1,1,1)
//! result). broadcast_matmul reaches it for (1,3) @ (3,1,1,3,1).
//! Exit 1 while it fails.
use candle_core::{Device, Tensor};

fn main() -> candle_core::Result<()> {
    let a = Tensor::arange(0f32, 9., &Device::Cpu)?.reshape((3, 1, 1, 1, 3))?;
    let b = Tensor::arange(0f32, 9., &Device::Cpu)?.reshape((3, 1, 1, 3, 1))?;
    println!("lhs contiguous: {}, rhs contiguous: {}", a.is_contiguous(), b.is_contiguous());
    match a.matmul(&b) {
        Ok(c) => println!("ok: {:?} {:?}", c.dims(), c.flatten_all()?.to_vec1::<f32>()?),
        Err(e) => {
            println!("BUG: {e}");
            std::process::exit(1);
        }
    }
    let v = Tensor::arange(0f32, 3., &Device::Cpu)?.reshape((1, 3))?;
    match v.broadcast_matmul(&b) {
        Ok(c) => println!("broadcast_matmul ok: {:?}", c.dims()),
        Err(e) => println!("broadcast_matmul (1,3) @ (3,1,1,3,1): {e}"),
    }
    Ok(())
}
