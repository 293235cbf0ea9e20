//! int_div - candle's integer division panics (Rust arithmetic) on a zero divisor and on MIN / -1.
//!
//! u8 [1] / [0] panics with "attempt to divide by zero" and i64 MIN / -1
//! with "attempt to divide with overflow": a panic, not a candle Error
//! (torch: floor-divide raises "ZeroDivisionError", true division gives a
//! float; MIN / -1 wraps). Exit 1 while either panics.
use candle_core::{Device, Tensor};

fn main() {
    let zero = std::panic::catch_unwind(|| {
        let a = Tensor::new(&[1u8], &Device::Cpu).unwrap();
        let b = Tensor::new(&[0u8], &Device::Cpu).unwrap();
        a.div(&b).and_then(|t| t.to_vec1::<u8>())
    });
    let min = std::panic::catch_unwind(|| {
        let a = Tensor::new(&[i64::MIN], &Device::Cpu).unwrap();
        let b = Tensor::new(&[-1i64], &Device::Cpu).unwrap();
        a.div(&b).and_then(|t| t.to_vec1::<i64>())
    });
    println!("u8 1 / 0: {}", if zero.is_err() { "panicked".to_string() } else { format!("{:?}", zero.as_ref().ok()) });
    println!("i64 MIN / -1: {}", if min.is_err() { "panicked".to_string() } else { format!("{:?}", min.as_ref().ok()) });
    if zero.is_err() || min.is_err() {
        println!("BUG: integer division panics instead of returning an Error");
        std::process::exit(1);
    }
}
