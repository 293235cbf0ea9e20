//! fmod_signed_zero.rs - burn 0.22.1 (Flex): Tensor::fmod returns +0 for a negative dividend that the divisor divides exactly.
//!
//! burn's `fmod` doc says "The result has the same sign as `self`" and
//! calls itself IEEE 754 compliant; it computes `self - other * trunc(self / other)`
//! (burn-tensor tensor/api/fmod.rs), and -4 - 2 * -2 is -4 + 4 = +0. C's fmod,
//! NumPy's np.fmod and torch.fmod return -0.0 there (the dividend's sign); a -0.0 dividend
//! comes back +0.0 too.
//! Run: cargo run --release --locked --example fmod_signed_zero
use burn_tensor::{Device, Tensor, TensorData};

fn main() {
    let device = Device::flex();
    let x = Tensor::<1>::from_data(TensorData::new(vec![-4.0f32, -6.0, -0.0, 4.0], [4]), &device);
    let y = Tensor::<1>::from_data(TensorData::new(vec![2.0f32, -3.0, 5.0, 2.0], [4]), &device);
    let burn: Vec<f32> = x.clone().fmod(y.clone()).into_data().try_to_vec::<f32>().unwrap();
    let xs: Vec<f32> = x.into_data().try_to_vec::<f32>().unwrap();
    let ys: Vec<f32> = y.into_data().try_to_vec::<f32>().unwrap();
    let mut differ = 0;
    for ((a, b), r) in xs.iter().zip(&ys).zip(&burn) {
        let c = a % b; // Rust's % on f32 is C's fmod
        let same = c == *r && c.is_sign_negative() == r.is_sign_negative();
        println!("fmod({a:?}, {b:?}): burn {r:?}, C fmod (NumPy, torch) {c:?}{}", if same { "" } else { "   <- sign differs" });
        differ += usize::from(!same);
    }
    println!("{}: {differ} of 4 differ", if differ > 0 { "reproduced" } else { "not reproduced" });
}
