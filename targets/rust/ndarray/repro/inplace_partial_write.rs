//! inplace_partial_write.rs - a failed in-place op of ndarray leaves self partly written.
//!
//! `s /= &y` on i32 with a zero divisor in y's last element: Rust's integer
//! division panics there, after ndarray has already divided the elements
//! before it. NumPy (B22) and torch raise before writing anything (NumPy
//! refuses int /= int, a true division, as a dtype error).
//! Prints self after the panic and exits 0 when the behaviour is still there.
use ndarray::array;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn main() {
    let mut s = array![[10i32, 20, 30], [40, 50, 60]];
    let y = array![[2i32, 2, 2], [2, 2, 0]];
    let r = catch_unwind(AssertUnwindSafe(|| s /= &y));
    println!("panicked: {}; self after the panic: {:?}", r.is_err(), s.as_slice().unwrap());
    assert!(r.is_err() && s[[0, 0]] == 5, "self is no longer written before the panic");
}
