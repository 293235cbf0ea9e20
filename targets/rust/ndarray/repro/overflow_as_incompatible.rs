//! overflow_as_incompatible.rs - ndarray reports a broadcast whose size overflows as "incompatible shapes".
//!
//! (2^62, 1, 0) + (1, 4, 1): the shapes broadcast (to (2^62, 4, 0), no
//! elements), but the product of the non-zero extents, 2^64, overflows.
//! NumPy raises "iterator is too large", torch "Storage size calculation
//! overflowed". ndarray's co_broadcast finds the shape, then `broadcast()`
//! refuses the overflowing size with None, which broadcast_with reports as
//! ErrorKind::IncompatibleShape, and the operator panics with that.
//! Prints the panic message and exits 0 when the behaviour is still there.
use ndarray::{ArrayD, IxDyn};
use std::panic;

fn main() {
    let x = ArrayD::<u8>::zeros(IxDyn(&[1 << 62, 1, 0]));
    let y = ArrayD::<u8>::zeros(IxDyn(&[1, 4, 1]));
    let r = panic::catch_unwind(|| &x + &y);
    match r {
        Err(e) => {
            let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
            println!("&x + &y panicked: {msg}");
            assert!(msg.contains("IncompatibleShape"), "now reported differently");
        }
        Ok(z) => panic!("no longer fails: result shape {:?}", z.shape()),
    }
}
