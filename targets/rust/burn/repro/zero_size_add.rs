//! zero_size_add.rs - burn 0.22.1 (Flex): unsqueeze of a tensor with a 0 extent panics (index out of bounds) or gets the wrong shape.
//!
//! `unsqueeze` reshapes to the shape with leading 1s, and burn's reshape
//! reads a 0 in the target shape as "keep the extent at this index"
//! (cubecl-zspace shape.rs reshape), so the tensor's own 0 extent is taken
//! for that instruction: [0] -> [1, 0] looks up dims[1] of a rank-1 shape
//! and panics "index out of bounds: the len is 1 but the index is 1". Every
//! broadcast between a zero-size tensor and a higher-rank one goes through
//! this unsqueeze (burn's binary ops take one rank).
//! Run: cargo run --release --locked --example zero_size_add
use burn_tensor::{Device, Tensor, TensorData};

fn main() {
    let device = Device::flex();
    let x = Tensor::<1>::from_data(TensorData::new(Vec::<f32>::new(), [0]), &device);
    println!("x: {:?}", x.shape());
    let x2 = x.unsqueeze::<2>(); // expected shape [1, 0]; panics
    let y = Tensor::<2>::from_data(TensorData::new(vec![1.0f32, 2.0], [1, 2]), &device);
    println!("x2 + y: {:?}", (x2 + y).shape());
}
