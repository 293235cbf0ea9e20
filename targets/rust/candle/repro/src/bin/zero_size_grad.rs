//! zero_size_grad - candle's binary ops drop the right operand from the graph when the result has no elements.
//!
//! tensor.rs, binary_op!: `if shape.elem_count() == 0 { return Ok(self.clone()) }`,
//! so z = x + y of shape (0,) is x itself, and backward() never reaches y:
//! the GradStore has no gradient for y (torch: a (0,) gradient of zeros).
//! Exit 1 while the gradient is missing.
use candle_core::{DType, Device, Var};

fn main() -> candle_core::Result<()> {
    let x = Var::zeros(0, DType::F32, &Device::Cpu)?;
    let y = Var::zeros(0, DType::F32, &Device::Cpu)?;
    let z = x.as_tensor().broadcast_add(y.as_tensor())?;
    let grads = z.sum_all()?.backward()?;
    let (gx, gy) = (grads.get(x.as_tensor()), grads.get(y.as_tensor()));
    println!("grad of x: {:?}", gx.map(|t| t.dims().to_vec()));
    println!("grad of y: {:?}", gy.map(|t| t.dims().to_vec()));
    if gy.is_none() {
        println!("BUG: no gradient for y (expected shape [0])");
        std::process::exit(1);
    }
    Ok(())
}
