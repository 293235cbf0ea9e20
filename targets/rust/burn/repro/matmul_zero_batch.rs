//! matmul_zero_batch.rs - burn 0.22.1 (Flex): matmul whose batch dims broadcast 1 against 0 crashes with SIGSEGV.
//!
//! [1, 1, 3] @ [0, 3, 4]: the batch dims broadcast (1 against 0) to a
//! result of shape [0, 1, 4] with no elements; burn's shape check accepts it
//! and the Flex backend's matmul then dies with a segmentation fault (no
//! panic, nothing printed).
//! Run: cargo run --release --locked --example matmul_zero_batch
use burn_tensor::{Device, Tensor, TensorData};

fn main() {
    let device = Device::flex();
    let x = Tensor::<3>::from_data(TensorData::new(vec![1.0f32, 2.0, 3.0], [1, 1, 3]), &device);
    let y = Tensor::<3>::from_data(TensorData::new(Vec::<f32>::new(), [0, 3, 4]), &device);
    let z = x.matmul(y); // expected shape [0, 1, 4]; crashes
    println!("{:?}", z.shape());
}
